/* SPDX-License-Identifier: MIT */
/*
 * The human tables of `bootmark run` and `parse`: every result of every
 * boot becomes a row labelled "<FS> <kernel>" ("EXT4 6.1.0-53") and goes
 * through the workloads' formatters (common/report.h), so kernels side by
 * side share one block per test.
 */
#ifndef BM_TABLE_H
#define BM_TABLE_H

#include <stdio.h>

#include "report.h"
#include "results.h"

struct bm_table_boot {
	const char *kernel;           /* shown after the fs name */
	const struct bm_results *r;
};

void bm_table_print(FILE *f, const struct bm_table_boot *boots, size_t n);

#endif
