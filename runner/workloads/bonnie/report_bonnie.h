/* SPDX-License-Identifier: MIT */
/*
 * bonnie's report (runner/workloads/bonnie/report_bonnie.c): the classic Bonnie table, a
 * bonnie++ file-test table and bonnie++'s CSV line, format 1.98.
 */
#ifndef BM_REPORT_BONNIE_H
#define BM_REPORT_BONNIE_H

#include <stddef.h>

#include "report.h"

#define BON_REPORT_TESTS 12     /* bon-putc .. bon-rnd-del */
#define BON_CSV_FIELDS 50

/* Index of a bonnie test label ("bon-seeks" -> 5) in CSV order, or -1. */
int report_bonnie_index(const char *test);
/* The 1.98 CSV line (no newline) of one bonnie row: t[i] is the record
 * of test i, NULL when it did not run.  name goes into the name field
 * (commas become '_').  0, or -E2BIG when buf is too small. */
int report_bonnie_csv(char *buf, size_t len, const char *name,
		      const struct bm_rres *const t[BON_REPORT_TESTS]);
/* bonnie++'s latency text: "", "123us", "45ms" or "101s"; lat_us in us. */
void report_bonnie_lat(char *buf, size_t len, double lat_us);

#endif
