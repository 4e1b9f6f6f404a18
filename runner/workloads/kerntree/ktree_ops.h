/* SPDX-License-Identifier: MIT */
/*
 * What the kernel-tree tests do to a tree: extract it from a ustar stream,
 * stat every entry, read every file, remove it all.  Plain syscalls, as
 * tar, find/stat, cat and rm -r would make them.
 */
#ifndef BM_RUNNER_KTREE_OPS_H
#define BM_RUNNER_KTREE_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "ustar.h"

struct ktree_count {
	uint64_t files;         /* regular files, and other non-directories */
	uint64_t dirs;
	uint64_t bytes;         /* file data written or read */
};

/* Extracts the archive read by fn under the directory rootfd.  Names with
 * a ".." component or a leading '/' are refused: nothing is written
 * outside rootfd.  0 or -errno, err naming the entry. */
int ktree_extract(int rootfd, ustar_read_fn fn, void *arg, struct ktree_count *c,
		  char *err, size_t errlen);
/* The walks count what is below the directory they start from, not it. */
/* fstatat() of every entry below dirfd (not following symlinks). */
int ktree_stat(int dirfd, struct ktree_count *c);
/* Reads every regular file below dirfd to the end, 128 KiB at a time. */
int ktree_cat(int dirfd, struct ktree_count *c);
/* Removes name (a directory under parentfd) with everything below it;
 * counts what was below it. */
int ktree_rm(int parentfd, const char *name, struct ktree_count *c);

#endif
