// SPDX-License-Identifier: MIT
/*
 * One host, many measuring runs (hostlock.h).  Every measuring bootmark run
 * holds a shared flock on one lock file for its lifetime; `run --exclusive`
 * takes it exclusively, so it waits until the runs measuring now are done
 * and keeps later ones from starting theirs quietly (they are told, and
 * their load shows in meta.json).  Runs under --icount need no lock: their
 * virtual time does not see the host's load.
 *
 * The lock's folder is private (outdir.h, bm_private_dir): its user's own,
 * writable by no one else.  Another user who made it first (as a 1777
 * /tmp/bootmark-<uid> could be, once the folder of users without
 * $XDG_RUNTIME_DIR) could hold the lock or keep runs from taking it, so such
 * a folder is refused, not swapped for another: two runs of one user that
 * picked different folders would not see each other.  The folder: $BOOTMARK_LOCK_DIR; /run/bootmark for root; else
 * $XDG_RUNTIME_DIR/bootmark; else /run/user/<uid>/bootmark when logind made
 * /run/user/<uid> (a cron job shares the lock of the user's sessions); else
 * the cache's lock/ folder.  None of those can another user make first.
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

static int lock_dir(char *dir, size_t len)
{
	const char *env = getenv("BOOTMARK_LOCK_DIR"), *xdg = getenv("XDG_RUNTIME_DIR");
	char run[64];
	struct stat st;
	int rc;

	snprintf(run, sizeof(run), "/run/user/%u", (unsigned)geteuid());
	if (env && *env)
		return bm_path(dir, len, "%s", env);
	if (geteuid() == 0)
		return bm_path(dir, len, "/run/bootmark");
	if (xdg && *xdg == '/')
		return bm_path(dir, len, "%s/bootmark", xdg);
	if (!lstat(run, &st) && S_ISDIR(st.st_mode) && st.st_uid == geteuid())
		return bm_path(dir, len, "%s/bootmark", run);
	rc = bm_cache_root(dir, len);
	if (rc) {
		bm_msg("no folder for the host's measuring lock: no $XDG_RUNTIME_DIR, "
		       "/run/user/%u, $BOOTMARK_CACHE, $XDG_CACHE_HOME or $HOME "
		       "(set $BOOTMARK_LOCK_DIR)", (unsigned)geteuid());
		return rc;
	}
	return bm_path(dir + strlen(dir), len - strlen(dir), "/lock");
}

/* The lock file in a private folder; -EINVAL when refused (reported). */
static int lock_open(void)
{
	char dir[PATH_MAX], real[PATH_MAX], path[PATH_MAX + 16], why[PATH_MAX + 200];
	struct stat st;
	int fd, rc;

	rc = lock_dir(dir, sizeof(dir));
	if (rc)
		return rc;
	rc = bm_private_dir(dir, 0700, why, sizeof(why));
	if (!rc && !realpath(dir, real))
		rc = -errno;
	if (!rc && bm_path(path, sizeof(path), "%s/measure.lock", real))
		rc = -ENAMETOOLONG;
	fd = rc ? rc : bm_private_open(path, O_RDWR | O_CREAT, 0600, why, sizeof(why));
	if (fd == -EPERM || fd == -EEXIST || fd == -ENOTDIR) {
		bm_msg("refusing the host's measuring lock in %s: %s (the lock must be its "
		       "user's own: set $BOOTMARK_LOCK_DIR to a folder only you can write)", dir, why);
		return -EINVAL;
	}
	if (fd < 0) {
		bm_msg("cannot open the host's measuring lock in %s: %s", dir, strerror(-fd));
		return fd;
	}
	/* a lock others may open, they may hold */
	if (!fstat(fd, &st) && (st.st_mode & 077) && fchmod(fd, 0600)) {
		rc = -errno;
		close(fd);
		return rc;
	}
	return fd;
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
	char who[1024];
	struct stat st;
	int fd, rc;

	*fd_out = -1;
	if (mode == BM_LOCK_NONE)
		return 0;
	fd = lock_open();
	if (fd < 0)
		return fd;
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
