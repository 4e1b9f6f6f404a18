/* SPDX-License-Identifier: MIT */
/* lmdd workload options, shared with its test. */
#ifndef BM_RUNNER_WL_LMDD_H
#define BM_RUNNER_WL_LMDD_H

#include <stddef.h>
#include <stdint.h>

struct lmdd_opts {
	char bs[128];       /* "1k,2k,...,1024k": one write and one read test each */
	uint64_t size;      /* bytes moved per test (lmdd's move=) */
	int direct;         /* O_DIRECT, as lmdd direct=1 */
	char tests[8];      /* "w,r" */
	int fsync;          /* lmdd fsync=1: fsync() before the stop timestamp */
};

/* 0, or -EINVAL with a message naming the bad option in err. */
int lmdd_check(const struct lmdd_opts *o, char *err, size_t errlen);

#endif
