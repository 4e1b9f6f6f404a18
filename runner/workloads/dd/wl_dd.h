/* SPDX-License-Identifier: MIT */
/* dd workload options, shared by its description, engine and test. */
#ifndef BM_RUNNER_WL_DD_H
#define BM_RUNNER_WL_DD_H

#include <stdint.h>

#include "report.h"

struct dd_opts {
	uint64_t size;      /* bytes; the label is size in MiB */
	uint64_t bs;        /* bytes per read()/write() */
	char tests[16];     /* "w,r,rw" */
};

enum { DD_WRITE, DD_READ, DD_REWRITE };

/* desc_dd.c: which test the idx-th item of the tests list is, or -EINVAL. */
int dd_kind(const struct dd_opts *o, int idx);

extern const struct bm_report_ops report_dd_ops;

/* Counts the extents of fd with FIEMAP, merging physically contiguous ones. */
int dd_count_extents(int fd, unsigned *count);

#endif
