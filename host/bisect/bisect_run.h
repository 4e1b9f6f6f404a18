/* SPDX-License-Identifier: MIT */
/*
 * The bisection loop of "bootmark bisect", over a measure callback: real
 * boots in host/cli/cmd_bisect.c, simulated ones in tests/host_bisect_test.c.
 *
 *   1. Both ends, interleaved (good, bad, good, ...), --repeat samples each;
 *      while they differ by the threshold but not yet significantly, one
 *      more sample each up to --repeat-max.  No difference: stop.
 *   2. The candidate bm_search_next picks: --min-repeat samples, then one
 *      more at a time while the verdict is UNKNOWN (Wald's sequential test,
 *      host/bisect/bisect.h), up to --repeat-max, after which it counts as SKIP.
 *      The first boot that fails ends it as SKIP (one boot spent, as git
 *      skips a commit that does not build).
 *   3. Until no untested candidate is left between the last good and the
 *      first bad.  With --boot, a completed boot is good and any other
 *      ending bad; one failure is enough.
 */
#ifndef BM_BISECT_RUN_H
#define BM_BISECT_RUN_H

#include <stdio.h>

#include "bisect.h"

enum bm_meas {
	BM_MEAS_OK,         /* the boot completed and value holds the metric */
	BM_MEAS_NOBOOT,     /* the boot did not complete (why says how) */
	BM_MEAS_NOMETRIC,   /* completed, but the metric is not in its results */
};

/* One boot of candidate cand; returns an enum bm_meas or -errno to abort
 * (infrastructure failure, already reported). */
typedef int (*bm_measure_fn)(void *arg, int cand, double *value, char *why, size_t whylen);

enum bm_bisect_end {
	BM_BISECT_FOUND,     /* first_bad is exact */
	BM_BISECT_RANGE,     /* the first bad is in range_lo..first_bad (skips between) */
	BM_BISECT_NODIFF,    /* the ends do not differ */
	BM_BISECT_ENDFAIL,   /* an end cannot be measured */
};

struct bm_cand {
	double *v;           /* samples (repeat_max) */
	size_t nv;
	int boots;           /* including failed ones */
	int step;            /* 0 = not measured; ends are step 0 too */
	enum bm_verdict verdict;
	double llr;         /* the verdict's log-likelihood ratio (> 0: bad) */
	char why[160];
};

struct bm_bisect {
	int n, repeat, min_repeat, repeat_max, boot_mode;
	struct bm_rule rule;
	const char *const *names;   /* candidate specs, for the log lines */
	/* optional: the rule's direction, asked once the first samples exist
	 * (a metric's unit, which decides it, comes with its first value) */
	int (*direction)(void *arg);
	void *direction_arg;
	/* optional: called after the ends and after every step, so that what
	 * was measured so far is on disk if the bisection is interrupted */
	void (*after_step)(void *arg);
	void *after_arg;
	int done;                   /* bm_bisect_run came to an end */
	struct bm_cand *c;
	enum bm_verdict *v;
	struct bm_search s;
	struct bm_ends ends;
	int boots, steps;
	enum bm_bisect_end end;
	int first_bad, range_lo;
	char why[512];
};

/* Allocates the per-candidate state; 0 or -ENOMEM.  repeat: samples per
 * end; min_repeat..repeat_max: samples per candidate. */
int bm_bisect_init(struct bm_bisect *b, int n, int repeat, int min_repeat, int repeat_max,
		   const struct bm_rule *rule, int boot_mode, const char *const *names);
void bm_bisect_free(struct bm_bisect *b);
/* Runs the loop; step lines go to log (NULL = none).  0 when it came to an
 * end (b->end says which), or the callback's -errno. */
int bm_bisect_run(struct bm_bisect *b, bm_measure_fn fn, void *arg, FILE *log);

#endif
