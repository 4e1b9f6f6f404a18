// SPDX-License-Identifier: MIT
/*
 * Locks of the kernel cache (kernel.h, bm_cache_lock).  CI jobs and lab
 * controllers run several bootmark processes on one cache: two fetches of
 * one kernel raced to rename their finished trees into place, and the loser
 * failed with "Directory not empty" although the entry it wanted was there.
 * Each cache entry (a kernel, the apt lists) gets a lock file beside it; the
 * second process waits, then finds the first one's complete entry.  A
 * process killed while holding it loses the lock with its descriptors, and
 * leaves only a temporary folder the next holder removes.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "kernel.h"
#include "outdir.h"
#include "util.h"

int bm_cache_lock(const char *path, const char *what, int *fd_out)
{
	char why[PATH_MAX + 200];
	int fd;

	*fd_out = -1;
	/* the user's own file in a folder no one else writes (outdir.h): a
	 * lock another user can open, they can hold */
	fd = bm_private_open(path, O_RDWR | O_CREAT, 0600, why, sizeof(why));
	if (fd == -EEXIST || fd == -EPERM || fd == -ENOTDIR) {
		bm_msg("refusing the lock %s: %s", path, why);
		return -EPERM;
	}
	if (fd < 0)
		return fd;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK) {
			close(fd);
			return -errno;
		}
		bm_msg("waiting for another bootmark %s (%s)", what, path);
		while (flock(fd, LOCK_EX)) {
			if (errno != EINTR) {
				int rc = -errno;

				close(fd);
				return rc;
			}
		}
	}
	*fd_out = fd;
	return 0;
}

void bm_cache_unlock(int fd)
{
	if (fd >= 0)
		close(fd);
}
