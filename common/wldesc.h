/* SPDX-License-Identifier: MIT */
/*
 * A workload's description: everything about it but the code that does the
 * I/O.  The runner's engine (runner/engine/wl.h, struct wl_ops) points at
 * it; the host plans suites, picks headline metrics and draws plots from it
 * without linking a single engine.
 *
 * One per workload folder, runner/workloads/<name>/desc_<name>.c, ending in
 * "const struct bm_wl_desc wl_<name>_desc = { ... };".  The registry is the
 * explicit list runner/workloads/workloads.def, no constructors; the
 * descriptions and report formatters see only their own folder and common/.
 */
#ifndef BM_WLDESC_H
#define BM_WLDESC_H

#include <stddef.h>

#include "opts.h"
#include "report.h"
#include "result.h"

/* Which way a metric is better: what compare, history and bisect call a
 * regression or an improvement. */
enum bm_better { BM_BETTER_NONE, BM_BETTER_HIGHER, BM_BETTER_LOWER };

/* A metric a workload's results carry, as the R record spells it. */
struct bm_wl_metric {
	const char *name;
	const char *unit;
	enum bm_better better;
};

/*
 * A plot of "bootmark report": the rows of metric whose test label starts
 * with prefix.  A curve takes x from the rest of the label ("tio-seqrd-t4":
 * group "seqrd", x 4), bars one category per label.
 */
struct bm_wl_plot {
	const char *metric;
	const char *prefix;
	const char *name;            /* chart title: "tiobench" */
	const char *xlabel;
	int bars;
	int logx;
};

struct bm_wl_desc {
	const char *name;
	const struct bm_opt *opts;  /* option table for the suite line */
	size_t opts_size;           /* size of the option struct it fills */
	/* Checks what one option cannot check alone (lists, size >= bs); may
	 * be NULL.  0, or -EINVAL and a message naming the option. */
	int (*check)(const void *o, char *err, size_t errlen);
	/* Number of tests this job expands into (dd: write, read, rewrite). */
	int (*ntests)(const void *o);
	/* Seed-style label of test idx, "dd512w"; fills r->wl/test/params. */
	int (*describe)(const void *o, int idx, struct bm_result *r);
	/* Its own metrics, NULL-terminated by name; the runner adds the
	 * window's (bm_wl_window_metrics) to every test. */
	const struct bm_wl_metric *metrics;
	/* Those of its metrics that may be below zero, NULL-terminated; NULL:
	 * none.  Every other metric (the window's too) is a time, size, count,
	 * rate or share, never negative: the host takes a negative value of one
	 * for no measurement at all (docs/results.md, "Values"). */
	const char *const *negative;
	/* The metric compare, history and bisect judge a test by. */
	const char *headline;
	const struct bm_wl_plot *plots;  /* NULL-terminated by metric; may be NULL */
	/* Its table (report.h); NULL: the generic seed-004 one. */
	const struct bm_report_ops *report;
	/* 1 when the job runs on the test disk itself, without a filesystem
	 * (rawio; fio with target=disk): in a boot once per repeat whatever
	 * the filesystems, no mkfs, no mount, its records say fs=raw
	 * (BM_WL_RAW_FS).  May be NULL: every job runs on each filesystem. */
	int (*raw)(const void *o);
	/* A job of a second or two on a directory of the host ("size=4M
	 * bs=64k"): `bootmark-runner --examples` lists it, tests/hostmode.sh
	 * runs it.  NULL: the workload cannot run on a bare host (fio needs
	 * fio, which its own unit test runs where it is installed). */
	const char *example;
	/* The original its system calls are compared with and the differences
	 * that comparison accepts, as tests/trace_profile.py's and
	 * tests/trace_phases.py's --declare names them
	 * ("GNU dd 9.1; sync=syncfs eof-read ..."): `bootmark-runner --traced`
	 * lists them, the trace part of make check takes them from there
	 * (docs/workloads.md).  NULL: not compared yet. */
	const char *traced;
};

/* The fs name of a raw job's records and phases. */
#define BM_WL_RAW_FS "raw"

/* NULL-terminated, in workloads.def order (runner/workloads/desc_registry.c). */
extern const struct bm_wl_desc *const bm_wl_descs[];
const struct bm_wl_desc *bm_wl_desc_find(const char *name);
/* The formatter of wl from its description, or NULL. */
const struct bm_report_ops *bm_report_find(const char *wl);
/* Groups rows by workload (in order of first appearance) and prints each
 * group with its formatter (common/report_generic.c's table where it has none). */
void bm_report_print(FILE *f, const struct bm_rrow *rows, size_t n);

/* real, utime, stime, read, written (and host mode's putime, pstime): the
 * measurement window's metrics, every workload's. */
extern const struct bm_wl_metric bm_wl_window_metrics[];
/* The better direction of metric in workload wl's results: the
 * workload's own description says it, else the window's list; a workload
 * never takes another's ("lat" may be a latency in one and a rate of
 * something in the next; issue 46).  BM_BETTER_NONE for a metric neither
 * lists (a newer runner's) and for an unknown workload's own metrics. */
enum bm_better bm_wl_metric_better(const char *wl, const char *metric);
/* The same lookup over a given list of descriptions (tests). */
const struct bm_wl_metric *bm_wl_metric_lookup(const struct bm_wl_desc *const *descs,
					       const char *wl, const char *metric);
/* The definition of metric in workload wl's results: its own, else the
 * window's; NULL when neither lists it (a metric of a newer runner).
 * *negative: 1 when its values may be below zero. */
const struct bm_wl_metric *bm_wl_metric_def(const char *wl, const char *metric,
					    int *negative);

/* 1 when job o of d runs on the test disk itself (bm_wl_desc.raw). */
int bm_wl_job_raw(const struct bm_wl_desc *d, const void *o);
/* The tests job o of d runs in one boot with nfs filesystems and repeat
 * repeats (below 1: 1): ntests() x nfs x repeat, or ntests() x repeat for a
 * raw job.  The runner's count (fsrun_planned, END tests=) and the host's
 * plan (bm_plan_make) are both this sum, so they cannot disagree. */
unsigned bm_wl_job_planned(const struct bm_wl_desc *d, const void *o, unsigned nfs,
			   int repeat);

/* Parses a suite job's "k=v ..." into a freshly allocated option struct:
 * defaults, each word, check(), at least one test.  0 or -errno; err says
 * what was wrong.  The runner and the host's plan use this one parser. */
int bm_wl_job_opts(const struct bm_wl_desc *d, const char *args, void **out,
		   char *err, size_t errlen);

#endif
