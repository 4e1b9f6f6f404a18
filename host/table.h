/* SPDX-License-Identifier: MIT */
/*
 * The seed-shaped table (seeds/004): one block per test label,
 *
 *     : dd32w :
 *                         REAL UTIME STIME     READ  WRITTEN DETAILS
 *     EXT4 6.1.0-53     : 1.23     4    55       32    32800 5 extents
 *
 * UTIME/STIME in 1/100 s ticks as in the seed, READ/WRITTEN in KiB.
 */
#ifndef BM_TABLE_H
#define BM_TABLE_H

#include <stdio.h>

#include "results.h"

struct bm_table_boot {
	const char *kernel;           /* shown after the fs name */
	const struct bm_results *r;
};

void bm_table_print(FILE *f, const struct bm_table_boot *boots, size_t n);
/* "6.1.0-53-amd64" -> "6.1.0-53": drops a last "-word" without digits. */
void bm_kernel_short(const char *rel, char *buf, size_t len);

#endif
