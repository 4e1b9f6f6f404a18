/* SPDX-License-Identifier: MIT */
/*
 * Statistics for "bootmark compare": summaries of one sample and two-sample
 * tests.  Pure functions of their arguments (no I/O, no state), so the unit
 * test can check them against published values.  Undefined results (a
 * stddev of one value, a test with no variance) are NAN; the printers show
 * them as "-".
 */
#ifndef BM_CMPSTATS_H
#define BM_CMPSTATS_H

#include <stddef.h>

struct bm_summary {
	size_t n;
	double mean;     /* arithmetic mean */
	double hmean;    /* harmonic mean; NAN unless every value is > 0 */
	double stddev;   /* sample (n - 1) stddev; NAN for n < 2 */
	double cov;      /* stddev / mean, as a fraction; NAN if undefined */
	double min, max;
};

void bm_summarize(const double *x, size_t n, struct bm_summary *s);
/* The mean, and the sum of squared deviations from it, of n >= 1 values
 * (NAN for none); equal values give exactly their value and exactly 0. */
double bm_mean(const double *x, size_t n);
double bm_sumsq_dev(const double *x, size_t n);

/* Regularized incomplete beta I_x(a, b), a, b > 0, 0 <= x <= 1; NAN outside. */
double bm_ibeta(double x, double a, double b);
/* P(T <= t) for Student's t with df > 0 degrees of freedom. */
double bm_t_cdf(double t, double df);

struct bm_welch {
	double t, df, p;  /* p two-sided; all NAN when undefined */
};
/* Welch's unequal-variances t-test of the means of a and b (na, nb >= 2). */
void bm_welch_test(const double *a, size_t na, const double *b, size_t nb,
		   struct bm_welch *w);

struct bm_mwu {
	double u;   /* U of sample a: pairs (a_i, b_j) with a_i > b_j, ties 1/2 */
	double z;   /* normal approximation, tie- and continuity-corrected; NAN if all tied */
	double p;   /* two-sided; NAN when undefined (n < 1 or all values tied) */
	int exact;  /* p is from the exact permutation distribution */
};
/*
 * Mann-Whitney U test.  When one sample has at most BM_MWU_EXACT_MAX values
 * (and both together at most BM_MWU_EXACT_TOTAL), p is exact: twice the
 * smaller tail of the rank sum's distribution over all C(n, m) ways of
 * splitting the pooled values, ties taking their midranks.  Untied, that is
 * Mann & Whitney's exact distribution, as scipy's mannwhitneyu(method=
 * "auto") uses it; tied, it is the conditional (permutation) distribution
 * scipy.stats.permutation_test gives, where scipy's mannwhitneyu falls back
 * on the normal approximation, which at 3 against 3 goes below the 0.1
 * that no split can (docs/results.md).  Otherwise the normal approximation
 * with tie and continuity correction.
 */
#define BM_MWU_EXACT_MAX 8
#define BM_MWU_EXACT_TOTAL 1000
void bm_mwu_test(const double *a, size_t na, const double *b, size_t nb, struct bm_mwu *m);
/*
 * The exact two-sided p of a rank sum: the sample is m of the n scores
 * (doubled midranks, so integers), its doubled rank sum r2;
 * min(1, 2 min(P(R <= r), P(R >= r))) over all C(n, m) equally likely
 * samples.  NAN without memory.
 */
double bm_ranksum_exact_p(const long *score2, size_t n, size_t m, long r2);

/*
 * Benjamini-Hochberg adjusted p-values (q-values) of the n values p[]:
 * the family is the p[i] that are numbers in [0, 1], m of them (*m).  For
 * the i-th smallest p of the family, q = min over j >= i of m p_(j) / j,
 * at most 1, so "q <= alpha" rejects exactly what the BH step-up procedure
 * at false discovery rate alpha rejects.  NAN p (no test) gives NAN q.
 * 0 or -ENOMEM.
 */
int bm_bh_qvalues(const double *p, size_t n, double *q, size_t *m);

#endif
