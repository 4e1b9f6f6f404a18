/* SPDX-License-Identifier: MIT */
/* kerntree workload options, shared with its test. */
#ifndef BM_RUNNER_WL_KERNTREE_H
#define BM_RUNNER_WL_KERNTREE_H

#include <stddef.h>

struct kerntree_opts {
	char scale[16];         /* "1": the size of Linux 6.1; "0.005" for smoke */
	long long seed;         /* of names, sizes and text */
	char tarball[128];      /* an uncompressed tar file instead of the tree */
	char tests[64];         /* "untar,stat,cat,rm,untar2,stat2,cat2,rm2" */
	char compress[8];       /* "none", or "bzip2": untar through bzip2 -dc (seed 004) */
};

int kerntree_check(const struct kerntree_opts *o, char *err, size_t errlen);
/* desc_kerntree.c: 1 when the untar reads a .tar.bz2; the index in
 * (untar, stat, cat, rm, untar2 ...) of the idx-th test, or -EINVAL. */
int kt_bz2(const struct kerntree_opts *o);
int kt_kind(const struct kerntree_opts *o, int idx);

#endif
