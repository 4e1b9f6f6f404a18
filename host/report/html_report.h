/* SPDX-License-Identifier: MIT */
/*
 * "bootmark report": the rows of "bootmark compare" (host/analysis/compare.h) as
 * one self-contained HTML page with inline SVG plots (host/report/svg.h).
 */
#ifndef BM_HTML_REPORT_H
#define BM_HTML_REPORT_H

#include <stdio.h>

#include "compare.h"

/* Writes the page for a built comparison; returns the number of charts. */
int bm_html_report(FILE *f, const struct bm_cmp *c);

#endif
