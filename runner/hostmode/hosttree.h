/* SPDX-License-Identifier: MIT */
/*
 * Host mode's own directory trees: removal and page-cache eviction of one
 * test directory, by file descriptor (openat/unlinkat) so that a symlink
 * or a renamed parent can never lead outside it.  Symlinks are removed,
 * never followed; a directory on another device (a mount inside the tree)
 * is not entered.
 */
#ifndef BM_RUNNER_HOSTTREE_H
#define BM_RUNNER_HOSTTREE_H

/* Removes parentfd/name and everything below it.  0 or the first -errno
 * (-EXDEV: a mount point inside; -ELOOP: deeper than HOSTTREE_DEPTH). */
int hosttree_remove(int parentfd, const char *name);
/* posix_fadvise(POSIX_FADV_DONTNEED) on every regular file below
 * parentfd/name: their clean page-cache pages are dropped, without root.
 * Call after sync(): dirty pages are not dropped.  0 or the first -errno. */
int hosttree_fadvise(int parentfd, const char *name);

#define HOSTTREE_DEPTH 64

#endif
