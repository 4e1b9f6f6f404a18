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

#endif
