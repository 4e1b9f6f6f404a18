/* SPDX-License-Identifier: MIT */
/*
 * The decisions of "bootmark bisect" and "bisect-step", apart from booting:
 * whether the ends differ, a candidate's verdict from its samples, which
 * candidate to measure next.  Pure functions and a small state machine, so
 * tests/host_bisect_test.c can drive them with simulated measurements and
 * estimate the error rates docs/bisect.md quotes.
 *
 * Orientation: every sample is mapped so that "bad" is the direction the
 * last candidate moved away from the first; a candidate is judged by which
 * side of the midpoint between the ends' means its mean lies on, with the
 * noise estimated from all samples pooled (the machine's noise, not the
 * kernel's, dominates a boot-to-boot spread).
 */
#ifndef BM_BISECT_H
#define BM_BISECT_H

#include <stddef.h>

#define BM_BISECT_MAXN 256  /* samples of one end or candidate looked at */

enum bm_verdict {
	BM_V_UNTESTED,
	BM_V_GOOD,
	BM_V_BAD,
	BM_V_UNKNOWN,   /* samples straddle the midpoint: more repeats, else skip */
	BM_V_SKIP,      /* did not boot, metric missing, or unknown at the cap */
};

const char *bm_verdict_name(enum bm_verdict v);

struct bm_rule {
	double alpha_ends;     /* Welch p below which the ends differ (0.01) */
	double threshold;      /* |bad - good| / |good| the ends must reach (0.05) */
	double alpha_verdict;  /* two-sided error of a verdict (0.05) */
	int dir;               /* +1 bad is larger, -1 smaller, 0 whichever the ends show */
};

struct bm_ends {
	double good_mean, bad_mean;
	double change;         /* (bad - good) / |good| */
	double p;              /* Welch, two-sided */
	double sd;             /* pooled over both ends; 0 when every value is equal */
	double df;             /* degrees of freedom of sd */
	size_t ng, nb;
	int dir;               /* +1 / -1: which way bad lies */
	int differ;            /* 1 when a bisection makes sense */
	char why[256];         /* why not, or "" */
};

/* The ends' statistics and whether they differ (significant and at least
 * the threshold, in the rule's direction when it has one).  An outlier in
 * an end is not set aside: it widens the noise, the difference stays
 * unproven, and the ends get more boots (conservative). */
void bm_ends_check(const double *g, size_t ng, const double *b, size_t nb,
		   const struct bm_rule *r, struct bm_ends *e);

/*
 * A candidate's verdict from its samples c[nc] against the ends: Wald's
 * sequential probability ratio test between "like the good end" and "like
 * the bad end", normal noise with the sd of all samples pooled, each sample
 * clipped to the interval between the ends' means first.  *llr is
 * the log-likelihood ratio (> 0 favours bad); GOOD or BAD once |llr| >=
 * ln((1 - alpha_verdict) / alpha_verdict), else UNKNOWN (take another
 * sample).  Without any noise estimate (one sample everywhere) the side of
 * the midpoint decides.
 */
enum bm_verdict bm_verdict_of(const struct bm_ends *e, const double *c, size_t nc,
			      const struct bm_rule *r, double *llr);

/*
 * bisect-step with --good-value G --bad-value B: no samples of the ends, so
 * the noise is the candidate's own (nc >= 2; with nc == 1 the side of the
 * midpoint decides, with no error control: docs/bisect.md).
 */
enum bm_verdict bm_verdict_values(double good, double bad, const double *c, size_t nc,
				  double alpha, double *llr);

/*
 * The search over candidates 0..n-1: 0 is good, n-1 bad.  lo is the last
 * candidate known good, hi the first known bad; between them, candidates
 * are untested or skipped.
 */
struct bm_search {
	int n, lo, hi;
	enum bm_verdict *v;    /* n verdicts (caller's array) */
};

void bm_search_init(struct bm_search *s, enum bm_verdict *v, int n);
/* The untested candidate strictly between lo and hi nearest their middle
 * (the lower one on a tie), or -1 when none is left. */
int bm_search_next(const struct bm_search *s);
/* Records a final verdict (GOOD, BAD or SKIP) of candidate i. */
void bm_search_set(struct bm_search *s, int i, enum bm_verdict v);

#endif
