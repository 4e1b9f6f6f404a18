/* SPDX-License-Identifier: MIT */
/*
 * host/analysis/cmpstats.c against values computed independently (exact closed
 * forms, published examples, and a numeric integration of the t density
 * done outside this tree; the Benjamini-Hochberg q-values also with
 * statsmodels 0.13's multipletests(method="fdr_bh") on Debian 12).
 */
#include <math.h>
#include <stdio.h>

#include "cmpstats.h"
#include "tap.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void near(double got, double want, double tol, const char *name)
{
	tap_ok(fabs(got - want) <= tol, "%s: %.9g (want %.9g +- %g)", name, got, want, tol);
}

static void summaries(void)
{
	static const double x[] = { 1, 2, 4 }, one[] = { 7.5 }, same[] = { 3, 3, 3, 3 };
	static const double neg[] = { -1, 1 }, tick[] = { 0.05, 0.05, 0.05 };
	struct bm_summary s;

	bm_summarize(x, N(x), &s);
	near(s.mean, 7.0 / 3, 1e-12, "mean {1,2,4}");
	near(s.hmean, 3 / (1 + 0.5 + 0.25), 1e-12, "hmean {1,2,4} = 12/7");
	near(s.stddev, sqrt(7.0 / 3), 1e-12, "sample stddev {1,2,4} = sqrt(7/3)");
	near(s.cov, sqrt(7.0 / 3) / (7.0 / 3), 1e-12, "CoV {1,2,4}");
	tap_ok(s.min == 1 && s.max == 4 && s.n == 3, "min 1 max 4 n 3");
	bm_summarize(one, 1, &s);
	tap_ok(s.mean == 7.5 && s.hmean == 7.5 && isnan(s.stddev) && isnan(s.cov),
	       "n=1: mean and hmean are the value, stddev and CoV undefined");
	bm_summarize(same, N(same), &s);
	tap_ok(s.stddev == 0 && s.cov == 0 && s.mean == 3, "identical values: stddev 0, CoV 0");
	/* a sum of inexact values: 0.05 * 3 / 3 is 0.05000000000000001 */
	bm_summarize(tick, N(tick), &s);
	tap_ok(s.stddev == 0 && s.mean == 0.05 && s.hmean == 0.05,
	       "identical inexact values (0.05 x3): mean 0.05 exactly, stddev 0 (got %.17g, %g)",
	       s.mean, s.stddev);
	tap_ok(bm_mean(tick, N(tick)) == 0.05 && bm_sumsq_dev(tick, N(tick)) == 0 &&
	       isnan(bm_mean(tick, 0)), "bm_mean and bm_sumsq_dev of equal values; NAN of none");
	near(bm_sumsq_dev(x, N(x)), 14.0 / 3, 1e-12, "sum of squared deviations {1,2,4} = 14/3");
	bm_summarize(neg, N(neg), &s);
	tap_ok(isnan(s.hmean) && isnan(s.cov) && s.mean == 0,
	       "hmean undefined with a value <= 0, CoV undefined at mean 0");
}

static void beta_and_t(void)
{
	/* I_x(2,3) = sum_{j=2..4} C(4,j) x^j (1-x)^(4-j) = 0.3483 at x = 0.3 */
	near(bm_ibeta(0.3, 2, 3), 0.3483, 1e-12, "I_0.3(2,3) closed form");
	near(bm_ibeta(0.5, 5, 5), 0.5, 1e-12, "I_0.5(5,5) = 1/2 by symmetry");
	near(bm_ibeta(0.9, 2.5, 1.5), 0.9021193570625, 1e-9, "I_0.9(2.5,1.5) (numeric integral)");
	/* I_x(a,1) = x^a */
	near(bm_ibeta(0.7, 3.5, 1), pow(0.7, 3.5), 1e-12, "I_x(a,1) = x^a");
	tap_ok(bm_ibeta(0, 2, 3) == 0 && bm_ibeta(1, 2, 3) == 1, "I_0 = 0, I_1 = 1");
	tap_ok(isnan(bm_ibeta(1.5, 2, 3)) && isnan(bm_ibeta(0.5, 0, 3)), "bad arguments give NAN");
	near(bm_t_cdf(2.0, 10), 0.9633059826, 1e-8, "t CDF t=2 df=10 (one-sided 0.9633)");
	near(bm_t_cdf(-1.5, 3), 0.1152919326, 1e-8, "t CDF t=-1.5 df=3");
	near(bm_t_cdf(0, 7), 0.5, 1e-12, "t CDF at 0 is 1/2");
	/* df = 1 is Cauchy: 1/2 + atan(t)/pi */
	near(bm_t_cdf(3, 1), 0.5 + atan(3) / M_PI, 1e-10, "t CDF df=1 is Cauchy");
}

static void welch(void)
{
	/* Wikipedia "Welch's t-test", example 1 */
	static const double a[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
				    21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4 };
	static const double b[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
				    24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4 };
	static const double c[] = { 5, 5, 5 }, d[] = { 6, 6, 6 }, one[] = { 1 };
	static const double t5[] = { 0.05, 0.05, 0.05 }, t4[] = { 0.04, 0.04, 0.04 };
	struct bm_welch w;

	bm_welch_test(a, N(a), b, N(b), &w);
	near(w.t, -2.455356398, 1e-8, "Welch t = -2.46");
	near(w.df, 24.98852929, 1e-7, "Welch df = 24.99");
	near(w.p, 0.02137800146, 1e-8, "Welch two-sided p = 0.021");
	bm_welch_test(b, N(b), a, N(a), &w);
	near(w.t, 2.455356398, 1e-8, "swapped samples flip the sign of t");
	bm_welch_test(c, N(c), d, N(d), &w);
	tap_ok(isnan(w.t) && isnan(w.p), "no variance on either side: undefined, not 0");
	/* the CI A/A case: stime at clock-tick resolution, 3 against 3 */
	bm_welch_test(t5, N(t5), t4, N(t4), &w);
	tap_ok(isnan(w.p), "0.05 x3 against 0.04 x3: no variance, undefined (got p %g)", w.p);
	bm_welch_test(one, 1, d, N(d), &w);
	tap_ok(isnan(w.p), "n=1: undefined");
}

static void mwu(void)
{
	/* textbook: U of the second sample is 3 (so U of the first is 20 - 3) */
	static const double a[] = { 19, 22, 16, 29, 24 }, b[] = { 20, 11, 17, 12 };
	static const double c[] = { 1, 2, 2, 3, 5, 7 }, d[] = { 2, 4, 6, 8, 9, 10, 11 };
	static const double e[] = { 4, 4 }, f[] = { 4, 4, 4 };
	static const double lo[] = { 1, 2, 3 }, hi[] = { 4, 5, 6 };
	static const double g9[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	static const double h10[] = { 10, 11, 12, 13, 14, 15, 16, 17, 18, 19 };
	static const double s4[] = { 1.5, 2.5, 9, 10.5 };
	static const double t1[] = { 1, 1, 1 }, t2[] = { 2, 2, 2 };
	static const double big1[] = { 1, 2, 2, 3, 3, 3, 4, 4, 5 };
	static const double big2[] = { 3, 4, 4, 5, 5, 5, 6, 6, 7, 7 };
	double l30[30];
	struct bm_mwu m;
	size_t i;

	bm_mwu_test(a, N(a), b, N(b), &m);
	near(m.u, 17, 0, "U(a) = 17");
	/* exact: 2 P(U >= 17) = 2 x 7/126 (scipy.stats.mannwhitneyu: 0.1111...) */
	near(m.p, 2 * 7 / 126.0, 1e-12, "untied, 5 against 4: exact p = 14/126");
	tap_ok(m.exact, "...from the exact distribution");
	near(m.z, 1.5921683328, 1e-9, "z of the normal approximation kept beside it");
	bm_mwu_test(b, N(b), a, N(a), &m);
	near(m.u, 3, 0, "U(b) = 3");
	near(m.p, 2 * 7 / 126.0, 1e-12, "swapped samples, same p");
	bm_mwu_test(lo, 3, hi, 3, &m);
	near(m.p, 0.1, 1e-15, "3 against 3, no overlap: 2/C(6,3) = 0.1, the exact minimum");
	bm_mwu_test(lo, 1, hi, 1, &m);
	near(m.p, 1, 0, "1 against 1: p = 1");
	bm_mwu_test(g9, N(g9), h10, N(h10), &m);
	tap_ok(!m.exact, "9 against 10: both above 8, normal approximation (as scipy)");
	near(m.p, 0.0002797002701866865, 1e-12, "9 against 10: scipy's asymptotic p");
	/* 3..6 and 11..36: s4 ranks 1, 2, 7 and 8 among 34 values */
	for (i = 0; i < 30; i++)
		l30[i] = i < 4 ? (double)(i + 3) : (double)(i + 7);
	bm_mwu_test(s4, N(s4), l30, 30, &m);
	tap_ok(m.exact, "4 against 30, untied: exact");
	near(m.p, 0.002285664999137485, 1e-12, "4 against 30: scipy's exact p");
	bm_mwu_test(l30, 30, s4, N(s4), &m);
	near(m.p, 0.002285664999137485, 1e-12, "30 against 4: the same p");
	bm_mwu_test(c, N(c), d, N(d), &m);
	near(m.u, 7, 0, "U with ties counts a tied pair as 1/2");
	/* scipy.stats.permutation_test over the C(13, 6) = 1716 splits */
	near(m.p, 0.05011655011655012, 1e-12, "ties, 6 against 7: the exact permutation p");
	tap_ok(m.exact, "...exact, not the normal approximation");
	near(m.z, -1.939256116585503, 1e-12, "its tie-corrected z (scipy's, with the sign of U - m n / 2)");
	bm_mwu_test(t1, N(t1), t2, N(t2), &m);
	near(m.p, 0.1, 1e-15, "1 1 1 against 2 2 2: 0.1 (the normal approximation says 0.047)");
	bm_mwu_test(big1, N(big1), big2, N(big2), &m);
	tap_ok(!m.exact, "9 against 10 with ties: the normal approximation");
	near(m.p, 0.004255265199337645, 1e-12, "...with tie correction (scipy's asymptotic p)");
	bm_mwu_test(e, N(e), f, N(f), &m);
	tap_ok(m.u == 3 && isnan(m.p), "all values tied: U = n1 n2 / 2, p undefined");
	{
		static const long sc[] = { 2, 4, 6, 8, 10, 12 };

		near(bm_ranksum_exact_p(sc, 6, 3, 2 * 6), 0.1, 1e-15,
		     "rank sum 6 of 3 among 6: 2 x 1/20");
		near(bm_ranksum_exact_p(sc, 6, 3, 2 * 10), 1, 0, "the median rank sum: p = 1");
	}
}

static void bh(void)
{
	/* Benjamini & Hochberg (1995), section 4: 15 p-values of a clinical
	 * trial; at FDR 0.05 the step-up procedure rejects the four smallest
	 * (p_(4) = 0.0095 <= 4/15 * 0.05, p_(i) > i/15 * 0.05 for every i > 4). */
	static const double p[] = { 0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298,
				    0.0344, 0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1 };
	static const double want[] = { 0.0015, 0.003, 0.0095, 0.035625, 0.0603,
				       0.0638571428571, 0.0638571428571, 0.0645, 0.0765, 0.486,
				       0.581181818182, 0.714875, 0.753230769231, 0.813214285714, 1 };
	/* unsorted, a tie, and two entries that are no test: m = 7.  Sorted:
	 * .005 .01 .03 .04 .04 .5 .9; 7p/rank: .035 .035 .07 .07 .056 .583 .9;
	 * the running minimum from the top: .035 .035 .056 .056 .056 .583 .9 */
	static const double p2[] = { 0.04, NAN, 0.01, 0.03, 0.04, 0.5, 0.005, 0.9, -1 };
	static const double want2[] = { 0.056, NAN, 0.035, 0.056, 0.056, 0.583333333333,
					0.035, 0.9, NAN };
	double q[N(p)];
	size_t i, m;
	int rejected = 0, same = 1;

	TAP_EQ_INT(bm_bh_qvalues(p, N(p), q, &m), 0, "BH on 15 p-values");
	TAP_EQ_INT((int)m, 15, "family of 15");
	for (i = 0; i < N(p); i++) {
		if (fabs(q[i] - want[i]) > 1e-11) {
			tap_diag("q[%zu] = %.12g, want %.12g", i, q[i], want[i]);
			same = 0;
		}
		rejected += q[i] <= 0.05;
	}
	tap_ok(same, "q-values of Benjamini & Hochberg's example equal statsmodels' fdr_bh");
	TAP_EQ_INT(rejected, 4, "q <= 0.05 rejects the 4 the paper rejects");
	TAP_EQ_INT(bm_bh_qvalues(p2, N(p2), q, &m), 0, "BH with ties and untested entries");
	TAP_EQ_INT((int)m, 7, "NAN and out-of-range p are not in the family");
	for (i = 0, same = 1; i < N(p2); i++)
		if (isnan(want2[i]) ? !isnan(q[i]) : fabs(q[i] - want2[i]) > 1e-11) {
			tap_diag("q[%zu] = %.12g, want %.12g", i, q[i], want2[i]);
			same = 0;
		}
	tap_ok(same, "worked example: q = running minimum of m p / rank, untested stay NAN");
	TAP_EQ_INT(bm_bh_qvalues(p2, 0, q, &m), 0, "empty family");
	TAP_EQ_INT((int)m, 0, "m = 0");
}

int main(void)
{
	tap_plan(0);
	summaries();
	beta_and_t();
	welch();
	mwu();
	bh();
	return tap_done();
}
