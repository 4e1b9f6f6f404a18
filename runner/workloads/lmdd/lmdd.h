/* SPDX-License-Identifier: MIT */
/*
 * lmdd arithmetic (desc_lmdd_arith.c), shared by the description
 * (desc_lmdd.c), the engine (wl_lmdd.c) and the report (report_lmdd.c).  lmbench's lib_timing.c counts MB as
 * 10^6 bytes ("bandwidths are all power of ten") and prints
 * "%.4f MB in %.4f secs, %.4f MB/sec"; these functions do the same, with
 * no I/O and no clock, so they can be tested exactly.
 */
#ifndef BM_LMDD_H
#define BM_LMDD_H

#include <stddef.h>
#include <stdint.h>

#define LMDD_MB 1000000.0
#define LMDD_BS_MAX 32            /* block sizes in one job */

/* bytes / 10^6. */
double lmdd_mb(uint64_t bytes);
/* MB/s as lmdd: mb / secs; 0 when secs <= 0 (lmdd would print inf). */
double lmdd_rate(double mb, double secs);
/* lmdd's line "16.7772 MB in 1.2000 secs, 13.9810 MB/sec"; snprintf's return. */
int lmdd_line(char *buf, size_t len, double mb, double secs);
/* Block-size spelling for labels: "512", "4k", "1024k", "2m" (KiB up to
 * 1024k, as the seed's "1K to 1024K"; MiB above; bytes otherwise). */
void lmdd_bs_name(char *buf, size_t len, uint64_t bs);
/* "1k,2k,...": sizes in the options' syntax (powers of 1024).  Returns the
 * count, or -EINVAL (empty, not a size, outside 512..64M) or -E2BIG (more
 * than max); *bad points at the offending item, when not NULL. */
int lmdd_parse_bs(const char *list, uint64_t *bs, int max, const char **bad);

#endif
