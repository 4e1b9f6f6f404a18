// SPDX-License-Identifier: MIT
/*
 * One host, many measuring runs (hostlock.h).  Every measuring bootmark run
 * holds a shared flock on one lock file for its lifetime; `run --exclusive`
 * takes it exclusively, so it waits until the runs measuring now are done
 * and keeps later ones from starting theirs quietly (they are told, and
 * their load shows in meta.json).  Runs under --icount need no lock: their
 * virtual time does not see the host's load.  The lock lives where no other
 * user can plant it: /run/bootmark for root, else $XDG_RUNTIME_DIR/bootmark
 * or /tmp/bootmark-<uid> ($BOOTMARK_LOCK_DIR overrides, for tests).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hostlock.h"
#include "outdir.h"
#include "qemu.h"
#include "profile.h"
#include "util.h"

static int lock_path(char *buf, size_t len)
{
	const char *env = getenv("BOOTMARK_LOCK_DIR"), *xdg = getenv("XDG_RUNTIME_DIR");
	char dir[PATH_MAX];
	int rc;

	if (env && *env)
		rc = bm_path(dir, sizeof(dir), "%s", env);
	else if (geteuid() == 0)
		rc = bm_path(dir, sizeof(dir), "/run/bootmark");
	else if (xdg && *xdg)
		rc = bm_path(dir, sizeof(dir), "%s/bootmark", xdg);
	else
		rc = bm_path(dir, sizeof(dir), "/tmp/bootmark-%u", (unsigned)geteuid());
	if (!rc)
		rc = bm_mkdir_p(dir, 0755);
	return rc ? rc : bm_path(buf, len, "%s/measure.lock", dir);
}

/* "pid 123 (bootmark run --kernel ...)" for each process /proc/locks says
 * holds a flock on inode ino, into buf. */
static void holders(ino_t ino, char *buf, size_t len)
{
	char *locks = NULL, *line, *save = NULL, path[64], *cmd = NULL;
	size_t o = 0, n, i;

	buf[0] = '\0';
	if (bm_read_file("/proc/locks", &locks, NULL, 1 << 22))
		return;
	for (line = strtok_r(locks, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long li = 0;
		int pid = 0;
		char kind[16];

		/* "1: FLOCK  ADVISORY  WRITE 1234 00:1a:5678 0 EOF" */
		if (sscanf(line, "%*s %15s %*s %*s %d %*x:%*x:%llu", kind, &pid, &li) != 3 ||
		    strcmp(kind, "FLOCK") || li != (unsigned long long)ino || pid == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
		if (bm_read_file(path, &cmd, &n, 4096))
			continue;
		for (i = 0; i + 1 < n; i++)
			cmd[i] = cmd[i] ? cmd[i] : ' ';
		o += (size_t)snprintf(buf + o, len > o ? len - o : 0, "%spid %d (%.120s)",
				      o ? ", " : "", pid, cmd);
		free(cmd);
		cmd = NULL;
	}
	free(locks);
}

int bm_host_lock(int mode, int *fd_out)
{
	char path[PATH_MAX], who[1024];
	struct stat st;
	int fd, rc;

	*fd_out = -1;
	if (mode == BM_LOCK_NONE)
		return 0;
	rc = lock_path(path, sizeof(path));
	if (rc)
		return rc;
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		rc = -errno;
		goto out_close;
	}
	if (!flock(fd, (mode == BM_LOCK_EXCLUSIVE ? LOCK_EX : LOCK_SH) | LOCK_NB))
		goto out_locked;
	if (errno != EWOULDBLOCK) {
		rc = -errno;
		goto out_close;
	}
	holders(st.st_ino, who, sizeof(who));
	if (mode == BM_LOCK_SHARED) {
		/* not ours to wait: say that both runs' timings will show it */
		bm_msg("an --exclusive run is measuring on this host (%s); this run disturbs "
		       "it, and meta.json of both records the load", who[0] ? who : "pid unknown");
		close(fd);
		return 0;
	}
	bm_msg("--exclusive: waiting for the runs measuring on this host: %s",
	       who[0] ? who : "(their pids are not visible)");
	while (flock(fd, LOCK_EX)) {
		if (errno != EINTR) {
			rc = -errno;
			goto out_close;
		}
		if (bm_stop_signal()) {
			rc = -EINTR;
			goto out_close;
		}
	}
	bm_msg("--exclusive: the host is ours");
out_locked:
	*fd_out = fd;
	return 0;
out_close:
	close(fd);
	return rc;
}

void bm_host_unlock(int fd)
{
	if (fd >= 0)
		close(fd);  /* the flock goes with the last descriptor */
}
