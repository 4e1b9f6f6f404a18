/* SPDX-License-Identifier: MIT */
/* dd workload options, shared with its test. */
#ifndef BM_RUNNER_WL_DD_H
#define BM_RUNNER_WL_DD_H

#include <stdint.h>

struct dd_opts {
	uint64_t size;      /* bytes; the label is size in MiB */
	uint64_t bs;        /* bytes per read()/write() */
	char tests[16];     /* "w,r,rw" */
};

/* Counts the extents of fd with FIEMAP, merging physically contiguous ones. */
int dd_count_extents(int fd, unsigned *count);

#endif
