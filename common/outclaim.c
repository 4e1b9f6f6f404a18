// SPDX-License-Identifier: MIT
/*
 * One output folder, one writer (outclaim.h).  The lock file stays: removing
 * it when a run ends would let a second run lock the removed file while a
 * third creates and locks a new one.  It is opened, never recreated, relative
 * to the folder's descriptor and without following a link; the holder writes
 * its pid into it, so that the one refused can say whom it waits for.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "outclaim.h"
#include "util.h"

/* "pid N (command line)" of the holder the lock file names, or "". */
static void holder(int fd, char *who, size_t len)
{
	char buf[32], path[64], cmd[121];
	ssize_t got, i;
	long pid;
	int cfd;

	who[0] = '\0';
	/* the holder writes its pid just after it takes the lock: a loser that
	 * came between the two finds the file empty, so it looks again for up
	 * to 100 ms (make check's races hit that gap, "pid unknown") */
	for (i = 0, pid = 0; i < 50 && pid <= 0; i++) {
		if (i)
			nanosleep(&(struct timespec){ .tv_nsec = 2000000 }, NULL);
		got = pread(fd, buf, sizeof(buf) - 1, 0);
		buf[got > 0 ? got : 0] = '\0';
		pid = strtol(buf, NULL, 10);
	}
	if (pid <= 0)
		return;
	snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
	cfd = open(path, O_RDONLY | O_CLOEXEC);
	got = cfd < 0 ? -1 : read(cfd, cmd, sizeof(cmd) - 1);
	if (cfd >= 0)
		close(cfd);
	if (got <= 0) {
		snprintf(who, len, "pid %ld", pid);
		return;
	}
	for (i = 0; i < got - 1; i++)  /* NUL-separated arguments */
		cmd[i] = cmd[i] ? cmd[i] : ' ';
	cmd[got] = '\0';
	snprintf(who, len, "pid %ld (%s)", pid, cmd);
}

int bm_out_claim(const char *dir, int *fd_out, char *who, size_t len)
{
	struct stat st;
	int dfd, fd, rc = 0;
	char pid[24];

	*fd_out = -1;
	who[0] = '\0';
	/* dir itself may be the user's own link: bm_out_plan_dir checked the way */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	fd = openat(dfd, BM_OUT_CLAIM_NAME, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	rc = fd < 0 ? -errno : 0;
	close(dfd);
	if (rc == -ELOOP) {
		snprintf(who, len, "%s/%s is a symbolic link", dir, BM_OUT_CLAIM_NAME);
		return -EEXIST;
	}
	if (rc)
		return rc;
	if (fstat(fd, &st)) {
		rc = -errno;
		goto out_close;
	}
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_nlink != 1) {
		snprintf(who, len, "%s/%s is not a plain file of this user", dir, BM_OUT_CLAIM_NAME);
		rc = -EEXIST;
		goto out_close;
	}
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno == EINTR)
			continue;
		rc = errno == EWOULDBLOCK ? -EBUSY : -errno;
		if (rc == -EBUSY)
			holder(fd, who, len);
		goto out_close;
	}
	snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, pid, strlen(pid), 0) < 0) {
		rc = -errno;
		goto out_close;
	}
	*fd_out = fd;
	return 0;
out_close:
	close(fd);
	return rc;
}

int bm_out_take(const char *dir, int *fd)
{
	char who[512];
	int rc;

	*fd = -1;
	rc = bm_mkdir_p(dir, 0755);
	if (rc) {
		bm_msg("cannot create %s: %s", dir, strerror(-rc));
		return rc;
	}
	rc = bm_out_claim(dir, fd, who, sizeof(who));
	if (rc == -EBUSY)
		bm_msg("refusing --out %s: another bootmark writes there (%s); wait for it, or "
		       "choose another --out", dir, who[0] ? who : "pid unknown");
	else if (rc == -EEXIST)
		bm_msg("refusing --out %s: %s", dir, who);
	else if (rc)
		bm_msg("cannot write in %s (its lock %s): %s", dir, BM_OUT_CLAIM_NAME, strerror(-rc));
	return rc == -EBUSY || rc == -EEXIST ? -EINVAL : rc;
}

void bm_out_release(int fd)
{
	if (fd >= 0)
		close(fd);  /* the flock goes with the descriptor */
}
