/* SPDX-License-Identifier: MIT */
/* kerntree's bzip2 path: the archive compressed once, read back through
 * "bzip2 -dc" (runner/workloads/kerntree/ktree_bz2.c). */
#ifndef BM_RUNNER_KTREE_BZ2_H
#define BM_RUNNER_KTREE_BZ2_H

#include <stddef.h>
#include <sys/types.h>

#include "ustar.h"

struct ktree_bz2 {
	int fd;         /* bzip2 -dc's stdout */
	pid_t pid;
};

/* Writes path (via path.tmp, then renamed) as bzip2 -c of what fn reads.
 * 0 or -errno, err saying what failed. */
int ktree_bz2_compress(const char *path, ustar_read_fn fn, void *arg, char *err,
		       size_t errlen);
/* Starts bzip2 -dc path; z->fd is its output. */
int ktree_bz2_open(const char *path, struct ktree_bz2 *z, char *err, size_t errlen);
/* Closes the pipe and waits: 0, or -EIO when bzip2 failed. */
int ktree_bz2_close(struct ktree_bz2 *z);

#endif
