/* SPDX-License-Identifier: MIT */
/*
 * The headline metric of each workload: the one figure "run --repeat auto"
 * watches for stability, and the one "compare" judges a test by (its other
 * metrics are listed under it).  Data, not code: one row per workload.
 */
#ifndef BM_HEADLINE_H
#define BM_HEADLINE_H

/* The metric name (without "m_") for workload wl, or NULL if it has none. */
const char *bm_headline_metric(const char *wl);

#endif
