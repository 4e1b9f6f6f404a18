// SPDX-License-Identifier: MIT
/* Verdicts and the search of "bootmark bisect" (rules: docs/bisect.md). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bisect.h"
#include "cmpstats.h"

const char *bm_verdict_name(enum bm_verdict v)
{
	static const char *const names[] = { "untested", "good", "bad", "unknown", "skip" };

	return (unsigned)v < sizeof(names) / sizeof(names[0]) ? names[v] : "?";
}

void bm_ends_check(const double *g, size_t ng, const double *b, size_t nb,
		   const struct bm_rule *r, struct bm_ends *e)
{
	struct bm_welch w = { NAN, NAN, NAN };
	double moved;

	memset(e, 0, sizeof(*e));
	e->ng = ng;
	e->nb = nb;
	if (!ng || !nb) {
		snprintf(e->why, sizeof(e->why), "an end has no sample");
		return;
	}
	e->good_mean = bm_mean(g, ng);
	e->bad_mean = bm_mean(b, nb);
	e->df = (double)(ng + nb) - 2;
	e->sd = e->df > 0 ? sqrt((bm_sumsq_dev(g, ng) + bm_sumsq_dev(b, nb)) / e->df) : NAN;
	e->change = e->good_mean ? (e->bad_mean - e->good_mean) / fabs(e->good_mean) : NAN;
	e->dir = r->dir ? r->dir : e->bad_mean >= e->good_mean ? 1 : -1;
	if (ng >= 2 && nb >= 2)
		bm_welch_test(g, ng, b, nb, &w);
	e->p = w.p;
	moved = e->dir * (e->bad_mean - e->good_mean);
	if (!(moved > 0)) {
		snprintf(e->why, sizeof(e->why), "the last candidate is not %s than the first "
			 "(means %g and %g)", e->dir > 0 ? "higher" : "lower", e->good_mean,
			 e->bad_mean);
		return;
	}
	if (!(fabs(e->change) >= r->threshold)) {
		snprintf(e->why, sizeof(e->why), "the ends differ by %.2f%%, less than the "
			 "threshold %.2f%%", 100 * fabs(e->change), 100 * r->threshold);
		return;
	}
	/* every value equal within each end: the difference is exact */
	if (e->sd == 0 || isnan(w.p)) {
		e->differ = e->sd == 0 || (ng < 2 || nb < 2);
		if (!e->differ)
			snprintf(e->why, sizeof(e->why), "no significance test possible");
		return;
	}
	if (!(w.p < r->alpha_ends)) {
		snprintf(e->why, sizeof(e->why), "the ends differ by %.2f%% but not significantly "
			 "(Welch p = %.3g, needs < %g)", 100 * fabs(e->change), w.p, r->alpha_ends);
		return;
	}
	e->differ = 1;
}

static enum bm_verdict side(double t)
{
	return t > 0 ? BM_V_BAD : t < 0 ? BM_V_GOOD : BM_V_UNKNOWN;
}

/*
 * Wald's sequential probability ratio test between "a good kernel" N(g, sd)
 * and "a bad kernel" N(b, sd), the means and sd estimated from the samples
 * (plug-in).  Oriented so that b > g; each sample is first clipped to
 * [g, b], so no single sample counts for more than one lying exactly on an
 * end (a spike of host interference cannot decide alone).  Then
 * llr = sum delta * (clip(x) - mid) / sd^2, > 0 favouring bad, and the test
 * stops at |llr| >= ln((1 - alpha) / alpha).
 */
static enum bm_verdict sprt(double g, double b, const double *c, size_t n, int dir,
			    double ss_ends, double df_ends, double alpha, double *llr)
{
	double a = log((1 - alpha) / alpha), lo = dir * g, hi = dir * b, mid = (lo + hi) / 2;
	double y[BM_BISECT_MAXN], sum = 0, sd, df, ssc;
	size_t i;

	n = n < BM_BISECT_MAXN ? n : BM_BISECT_MAXN;
	for (i = 0; i < n; i++) {
		y[i] = dir * c[i];
		y[i] = y[i] < lo ? lo : y[i] > hi ? hi : y[i];
		sum += y[i] - mid;
	}
	ssc = n ? bm_sumsq_dev(y, n) : 0;
	df = df_ends + (double)n - 1;
	sd = df >= 1 ? sqrt((ss_ends + ssc) / df) : 0;
	if (!(sd > 0)) {  /* no noise estimate: only the side is known */
		*llr = sum > 0 ? INFINITY : sum < 0 ? -INFINITY : 0;
		return side(*llr);
	}
	*llr = (hi - lo) * sum / (sd * sd);
	return fabs(*llr) >= a ? side(*llr) : BM_V_UNKNOWN;
}

enum bm_verdict bm_verdict_of(const struct bm_ends *e, const double *c, size_t nc,
			      const struct bm_rule *r, double *llr)
{
	*llr = NAN;
	if (!nc || !e->ng || !e->nb)
		return BM_V_UNKNOWN;
	return sprt(e->good_mean, e->bad_mean, c, nc, e->dir,
		    e->df > 0 ? e->sd * e->sd * e->df : 0, e->df > 0 ? e->df : 0,
		    r->alpha_verdict, llr);
}

enum bm_verdict bm_verdict_values(double good, double bad, const double *c, size_t nc,
				  double alpha, double *llr)
{
	*llr = NAN;
	if (!nc)
		return BM_V_UNKNOWN;
	return sprt(good, bad, c, nc, bad >= good ? 1 : -1, 0, 0, alpha, llr);
}

void bm_search_init(struct bm_search *s, enum bm_verdict *v, int n)
{
	int i;

	s->n = n;
	s->v = v;
	s->lo = 0;
	s->hi = n - 1;
	for (i = 0; i < n; i++)
		v[i] = BM_V_UNTESTED;
	v[0] = BM_V_GOOD;
	v[n - 1] = BM_V_BAD;
}

int bm_search_next(const struct bm_search *s)
{
	double mid = (s->lo + s->hi) / 2.0, best = 0;
	int i, pick = -1;

	for (i = s->lo + 1; i < s->hi; i++) {
		if (s->v[i] != BM_V_UNTESTED)
			continue;
		if (pick < 0 || fabs(i - mid) < best) {
			pick = i;
			best = fabs(i - mid);
		}
	}
	return pick;
}

void bm_search_set(struct bm_search *s, int i, enum bm_verdict v)
{
	s->v[i] = v;
	if (v == BM_V_GOOD && i > s->lo)
		s->lo = i;
	if (v == BM_V_BAD && i < s->hi)
		s->hi = i;
}
