/* SPDX-License-Identifier: MIT */
/*
 * What one test measured.  Workloads fill this; formatting (protocol
 * records, tables, JSON) lives elsewhere.
 */
#ifndef BM_RESULT_H
#define BM_RESULT_H

#define BM_METRIC_MAX 32

struct bm_metric {
	const char *name;  /* [a-z0-9_]: real, utime, stime, read, written, extents */
	double value;
	const char *unit;  /* s, KiB, KiB/s, MB/s, count, ops/s ... */
};

struct bm_result {
	char wl[16];        /* workload: "dd" */
	char test[32];      /* seed-style label: "dd512w" */
	char params[160];   /* "size=512M bs=1M" */
	int partial;        /* 1 when the test stopped early: values are kept, flagged */
	unsigned nmetrics;
	struct bm_metric m[BM_METRIC_MAX];
};

static inline int bm_result_add(struct bm_result *r, const char *name,
				double value, const char *unit)
{
	if (r->nmetrics >= BM_METRIC_MAX)
		return -1;
	r->m[r->nmetrics].name = name;
	r->m[r->nmetrics].value = value;
	r->m[r->nmetrics].unit = unit;
	r->nmetrics++;
	return 0;
}

#endif
