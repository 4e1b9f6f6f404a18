/* SPDX-License-Identifier: MIT */
/* lmdd workload options, shared with its test. */
#ifndef BM_RUNNER_WL_LMDD_H
#define BM_RUNNER_WL_LMDD_H

#include <stddef.h>
#include <stdint.h>

#include "report.h"

struct lmdd_opts {
	char bs[128];       /* "1k,2k,...,1024k": one write and one read test each */
	uint64_t size;      /* bytes moved per test (lmdd's move=) */
	int direct;         /* O_DIRECT, as lmdd direct=1 */
	char tests[8];      /* "w,r" */
	int fsync;          /* lmdd fsync=1: fsync() before the stop timestamp */
};

/* 0, or -EINVAL with a message naming the bad option in err. */
enum { LMDD_WRITE, LMDD_READ };

int lmdd_check(const struct lmdd_opts *o, char *err, size_t errlen);
/* desc_lmdd.c: the idx-th test's block size and direction (LMDD_WRITE, LMDD_READ). */
int lmdd_test(const struct lmdd_opts *o, int idx, uint64_t *bs, int *dir);
extern const struct bm_report_ops report_lmdd_ops;

#endif
