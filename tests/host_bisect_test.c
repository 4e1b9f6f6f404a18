/* SPDX-License-Identifier: MIT */
/*
 * host/bisect/bisect.c and host/bisect/bisect_run.c driven by simulated boots: normal
 * noise around a known step, failing boots where the scenario says.  The
 * Monte Carlo part prints the error rates docs/bisect.md quotes and checks
 * them against bounds computed from the rule (seeded: the same numbers on
 * every machine).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bisect.h"
#include "bisect_run.h"
#include "tap.h"

static uint64_t rng = 88172645463325252ull;

static double uniform(void)  /* xorshift64, (0, 1) */
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)  /* Box-Muller */
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

struct sim {
	int first_bad;     /* candidates >= this are slow */
	int noboot;        /* this one does not boot (-1: none) */
	double good, bad;  /* true means */
	double sd;         /* noise */
	int boots;
};

static int sim_measure(void *arg, int cand, double *value, char *why, size_t whylen)
{
	struct sim *s = arg;

	s->boots++;
	if (cand == s->noboot) {
		snprintf(why, whylen, "panic");
		return BM_MEAS_NOBOOT;
	}
	*value = (cand >= s->first_bad ? s->bad : s->good) + s->sd * gauss();
	return BM_MEAS_OK;
}

static const struct bm_rule rule = {
	.alpha_ends = 0.01, .threshold = 0.05, .alpha_verdict = 0.05, .dir = 0,
};

static void ends(void)
{
	static const double g[] = { 0.20, 0.21, 0.19 }, b[] = { 0.30, 0.31, 0.29 };
	static const double g2[] = { 0.20, 0.21, 0.19 }, near[] = { 0.201, 0.205, 0.20 };
	static const double noisy[] = { 0.10, 0.40, 0.25 };
	struct bm_rule up = rule;
	struct bm_ends e;

	bm_ends_check(g, 3, b, 3, &rule, &e);
	tap_ok(e.differ && e.dir == 1 && e.p < 0.01, "50%% slower, tight: the ends differ (p %.2g)", e.p);
	bm_ends_check(g2, 3, near, 3, &rule, &e);
	tap_ok(!e.differ && strstr(e.why, "threshold"), "1%% apart: below the 5%% threshold: %s", e.why);
	bm_ends_check(g, 3, noisy, 3, &rule, &e);
	tap_ok(!e.differ && strstr(e.why, "not significantly"), "noisy bad end: %s", e.why);
	up.dir = -1;  /* bad is lower, e.g. a throughput */
	bm_ends_check(g, 3, b, 3, &up, &e);
	tap_ok(!e.differ && strstr(e.why, "not lower"), "direction given: a rise is no regression: %s",
	       e.why);
}

static void verdicts(void)
{
	static const double g[] = { 0.20, 0.21, 0.19 }, b[] = { 0.30, 0.31, 0.29 };
	static const double cg[] = { 0.205, 0.195 }, cb[] = { 0.30, 0.295 }, cm[] = { 0.24, 0.26 };
	static const double tg[] = { 0.205, 0.195, 0.2 }, th[] = { 290 };
	struct bm_ends e;
	enum bm_verdict v;
	double llr;

	bm_ends_check(g, 3, b, 3, &rule, &e);
	v = bm_verdict_of(&e, cg, 2, &rule, &llr);
	tap_ok(v == BM_V_GOOD && llr < 0, "near good: good (llr %.1f)", llr);
	v = bm_verdict_of(&e, cb, 2, &rule, &llr);
	tap_ok(v == BM_V_BAD && llr > 0, "near bad: bad (llr %.1f)", llr);
	v = bm_verdict_of(&e, cm, 2, &rule, &llr);
	tap_ok(v == BM_V_UNKNOWN, "around the midpoint: unknown (llr %.1f)", llr);
	{
		/* an interference spike (seen under TCG: 2.7 s for a 0.2 s read)
		 * counts no more than a sample on the bad end */
		static const double spike[] = { 2.7, 0.20 }, spike3[] = { 2.7, 0.20, 0.195 };

		v = bm_verdict_of(&e, spike, 2, &rule, &llr);
		tap_ok(v != BM_V_BAD, "spike + good sample: not bad (%s, llr %.1f)",
		       bm_verdict_name(v), llr);
		v = bm_verdict_of(&e, spike3, 3, &rule, &llr);
		tap_ok(v == BM_V_GOOD, "spike + two good samples: good (llr %.1f)", llr);
	}
	tap_ok(bm_verdict_values(0.2, 0.3, cb, 2, 0.05, &llr) == BM_V_BAD, "values: near bad is bad");
	tap_ok(bm_verdict_values(0.2, 0.3, tg, 3, 0.05, &llr) == BM_V_GOOD, "values: near good is good");
	tap_ok(bm_verdict_values(0.2, 0.3, cm, 2, 0.05, &llr) == BM_V_UNKNOWN, "values: midpoint unknown");
	tap_ok(bm_verdict_values(300, 200, th, 1, 0.05, &llr) == BM_V_GOOD,
	       "values, bad is lower (a throughput), one sample: the side decides");
}

static void search(void)
{
	enum bm_verdict v[8];
	struct bm_search s;

	bm_search_init(&s, v, 8);
	TAP_EQ_INT(bm_search_next(&s), 3, "8 candidates: the middle first (lower on a tie)");
	bm_search_set(&s, 3, BM_V_GOOD);
	TAP_EQ_INT(bm_search_next(&s), 5, "after good 3: between 3 and 7");
	bm_search_set(&s, 5, BM_V_SKIP);
	TAP_EQ_INT(bm_search_next(&s), 4, "5 skipped: its lower neighbour next");
	bm_search_set(&s, 4, BM_V_BAD);
	TAP_EQ_INT(bm_search_next(&s), -1, "4 bad after 3 good: done");
	TAP_EQ_INT(s.hi, 4, "first bad 4");
}

/* One bisection of the scenario; returns the boots, sets the answer: the
 * first bad, and the lowest candidate it may be (lo == first bad: exact). */
static int bisect_once(struct sim *s, int n, int repeat, int boot_mode, int *lo, int *first,
		       int *end)
{
	struct bm_bisect b;
	int boots;

	if (bm_bisect_init(&b, n, repeat, 2, 2 * repeat, &rule, boot_mode, NULL))
		return -1;
	s->boots = 0;
	if (bm_bisect_run(&b, sim_measure, s, NULL)) {
		bm_bisect_free(&b);
		return -1;
	}
	*first = b.end <= BM_BISECT_RANGE ? b.first_bad : -1;
	*lo = b.end <= BM_BISECT_RANGE ? b.range_lo : -1;
	*end = b.end;
	boots = b.boots;
	bm_bisect_free(&b);
	return boots;
}

static int ceil_log2(int n)
{
	int k = 0;

	while ((1 << k) < n)
		k++;
	return k;
}

/*
 * Every position of the first bad, with and without a candidate that does
 * not boot, 20 seeds each.  Exact when the failing candidate is not just
 * before the first bad one (then git too can only name both); boots within
 * repeats x (ceil(log2 n) + 2), plus one step and the failed boot when a
 * skip forces a detour.
 */
static void scenarios(void)
{
	int n, fb, nb, seed, lo, first, end, boots, wrong = 0, over = 0, runs = 0;
	const int repeat = 3;

	for (n = 6; n <= 9; n++)
		for (fb = 1; fb < n; fb++)
			for (nb = -1; nb < n - 1; nb++) {
				if (nb == 0 || nb == fb)
					continue;  /* ends boot; a failing first-bad has no answer */
				for (seed = 0; seed < 20; seed++) {
					struct sim s = { fb, nb, 0.20, 0.30, 0.02, 0 };
					int budget = repeat * (ceil_log2(n) + 2);

					if (nb >= 0)
						budget += repeat + 1;
					boots = bisect_once(&s, n, repeat, 0, &lo, &first, &end);
					runs++;
					if (nb == fb - 1)
						wrong += first != fb || lo != fb - 1;
					else
						wrong += first != fb || lo != fb;
					if (boots > budget && over++ < 5)
						tap_diag("over: n %d fb %d nb %d boots %d budget %d", n, fb,
							 nb, boots, budget);
				}
			}
	/* each verdict errs with p ~ 1e-4 at this noise (error_rates) */
	tap_ok(wrong <= runs / 200, "%d simulated bisections (n 6..9, every first bad, every "
	       "failing one, noise sd 1/5 of the step): %d wrong", runs, wrong);
	/* over only when a verdict needed samples beyond --min-repeat */
	tap_ok(over <= runs / 100, "boots within the budget in all but %d of %d", over, runs);
	{
		/* the acceptance scenario: n = 8, slowdown from 5 (index 4), 6 does not boot */
		struct sim s = { 4, 5, 0.20, 0.30, 0.02, 0 };

		boots = bisect_once(&s, 8, repeat, 0, &lo, &first, &end);
		tap_ok(first == 4 && lo == 4, "n 8, first bad index 4, index 5 panics: found %d", first);
		tap_ok(boots <= repeat * (ceil_log2(8) + 2), "in %d boots <= %d", boots,
		       repeat * (ceil_log2(8) + 2));
	}
}

static void no_difference(void)
{
	struct sim s = { 4, -1, 0.20, 0.20, 0.02, 0 };
	int lo, first, end, boots;

	boots = bisect_once(&s, 8, 3, 0, &lo, &first, &end);
	TAP_EQ_INT(end, BM_BISECT_NODIFF, "equal ends: nothing to bisect");
	tap_ok(boots <= 2 * 6, "and it stops after at most --repeat-max boots per end (%d)", boots);
	s.noboot = 0;
	bisect_once(&s, 8, 3, 0, &lo, &first, &end);
	TAP_EQ_INT(end, BM_BISECT_ENDFAIL, "first candidate does not boot: stop");
}

static int boot_measure(void *arg, int cand, double *value, char *why, size_t whylen)
{
	const int *first_bad = arg;

	*value = 0;
	snprintf(why, whylen, "%s", cand >= *first_bad ? "no HELLO" : "");
	return cand >= *first_bad ? BM_MEAS_NOBOOT : BM_MEAS_OK;
}

static void boot_mode(void)
{
	struct bm_bisect b;
	int fb, wrong = 0, over = 0;

	for (fb = 1; fb < 16; fb++) {
		if (bm_bisect_init(&b, 16, 3, 1, 6, &rule, 1, NULL) ||
		    bm_bisect_run(&b, boot_measure, &fb, NULL))
			return;
		wrong += b.end != BM_BISECT_FOUND || b.first_bad != fb;
		over += b.boots > ceil_log2(16) + 2;
		bm_bisect_free(&b);
	}
	tap_ok(!wrong && !over, "--boot: every first failing boot of 16 found in <= 6 boots "
	       "(%d wrong, %d over)", wrong, over);
}

/*
 * Error rates of one candidate's verdict as bisect takes it, for
 * docs/bisect.md: the ends r samples each and 'd' noise sd apart, the
 * candidate equal to the good end, sampled sequentially from 2 up to 2r.
 * Wrong = called bad; skipped = still unknown at 2r.  20000 trials each.
 */
static void error_rates(void)
{
	static const double ds[] = { 1, 2, 3, 5 };
	static const int rs[] = { 2, 3, 5 };
	size_t i, j;
	int k, t;

	for (i = 0; i < sizeof(ds) / sizeof(ds[0]); i++)
		for (j = 0; j < sizeof(rs) / sizeof(rs[0]); j++) {
			int r = rs[j], wrong = 0, skipped = 0, trials = 20000, samples = 0;
			double g[16], b[16], c[16], llr;
			struct bm_ends e;
			enum bm_verdict v;

			for (t = 0; t < trials; t++) {
				for (k = 0; k < r; k++) {
					g[k] = gauss();
					b[k] = ds[i] + gauss();
				}
				bm_ends_check(g, (size_t)r, b, (size_t)r, &(struct bm_rule){
					.alpha_ends = 1, .threshold = 0, .alpha_verdict = 0.05, .dir = 1 }, &e);
				v = BM_V_UNKNOWN;
				for (k = 0; k < 2 * r && v == BM_V_UNKNOWN; k++) {
					c[k] = gauss();
					if (k >= 1)
						v = bm_verdict_of(&e, c, (size_t)k + 1, &rule, &llr);
				}
				samples += k;
				wrong += v == BM_V_BAD;
				skipped += v == BM_V_UNKNOWN;
			}
			tap_diag("error rate d=%.0f r=%d: wrong %.4f skipped %.4f samples %.2f", ds[i],
				 r, (double)wrong / trials, (double)skipped / trials,
				 (double)samples / trials);
			/* Wald: P(wrong) <= alpha / (1 - alpha), plug-in estimates
			 * aside, which is why it holds from d = 3 on; the ends'
			 * Welch test at 0.01 refuses d below ~3.8 with r = 3 */
			if (ds[i] >= 3)
				tap_ok((double)wrong / trials <= 0.05 / 0.95,
				       "d=%.0f r=%d: wrong verdicts %.4f <= alpha / (1 - alpha)",
				       ds[i], r, (double)wrong / trials);
		}
}

int main(void)
{
	tap_plan(0);
	ends();
	verdicts();
	search();
	scenarios();
	no_difference();
	boot_mode();
	error_rates();
	return tap_done();
}
