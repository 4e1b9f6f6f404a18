// SPDX-License-Identifier: MIT
/*
 * Which kernels of a series to boot again (history changes --confirm,
 * docs/history.md "Confirming in real time").
 *
 * In real time a 10% step is 1.2 sigma of one boot at the median CoV, and
 * 3 boots a kernel find it in about 0.4 of the series: the search knows
 * roughly where something may be, and cannot tell.  Boots spent evenly
 * over the kernels are mostly spent where nothing happened.  So the boots
 * go where the doubt is, as Chromium's Pinpoint adds repeats until its
 * comparison decides: around every candidate change point that is not yet
 * sure, one more boot of each kernel next to it a round, then the whole
 * search again.  A candidate is a change whose q is not below alpha by a
 * margin, or a tested split or run whose corrected p is near alpha: each
 * boot makes it either pass clearly or fade, and a change placed a kernel
 * off moves to its place, since the kernels on both sides gain boots.  A
 * kernel at an end of the series with fewer than 4 values is no side a
 * test can pass on; when it stands off from its neighbours by compare's
 * minimum it is a step that looks like noise, and it is booted again too.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>

#include "history.h"

/* An end kernel with fewer values is not yet a side a change can stand on:
 * the leave-one-out takes one, and Welch's test of two values has about
 * one degree of freedom (history_cp.c). */
#define END_SIDE 4
#define END_Z 2

static void want_around(size_t k, size_t a, size_t b, int width, unsigned char *want)
{
	size_t lo = k >= a + (size_t)width ? k - (size_t)width : a;
	size_t hi = k + (size_t)width <= b ? k + (size_t)width : b;

	for (size_t i = lo; i < hi; i++)
		want[i] = 1;
}

static double mean_of(const struct bm_cp_series *s, size_t from, size_t to)
{
	double sum = 0;

	for (size_t i = s->off[from]; i < s->off[to]; i++)
		sum += s->x[i];
	return sum / (double)(s->off[to] - s->off[from]);
}

/* The kernels from the change before kernel e (or the start) to the one
 * after it (or the end), e left out. */
static void segment_of(const struct bm_cp_result *r, const struct bm_cp_decision *d, size_t nk,
		       size_t e, size_t *a, size_t *b)
{
	*a = 0;
	*b = nk;
	for (size_t j = 0; j < r->nt; j++) {
		size_t k = r->t[j].k;

		if (!d->keep[j])
			continue;
		if (k <= e && k > *a)
			*a = k;
		if (k > e && k < *b)
			*b = k;
	}
}

/* An end kernel of fewer than END_SIDE values, off from its segment by
 * compare's minimum and by END_Z standard errors of the segment's noise. */
static int end_off(const struct bm_cp_series *s, const struct bm_cp_result *r,
		   const struct bm_cp_decision *d, const struct bm_cmp_rules *rules,
		   const char *unit, size_t e)
{
	struct bm_cmp_rules own = *rules;
	size_t a, b, n, ne = s->off[e + 1] - s->off[e];
	double m, me, ss = 0;

	if (s->off[e + 1] - s->off[e] >= END_SIDE)
		return 0;
	segment_of(r, d, s->nk, e, &a, &b);
	if (e == a)
		a++;
	else
		b--;
	n = a < b ? s->off[b] - s->off[a] : 0;
	if (n < 2)
		return 0;
	m = mean_of(s, a, b);
	me = mean_of(s, e, e + 1);
	for (size_t i = s->off[a]; i < s->off[b]; i++)
		ss += (s->x[i] - m) * (s->x[i] - m);
	if (own.min_abs_auto)
		own.min_abs_time = 0;
	return bm_cmp_big_change(m, me, unit, &own) &&
	       fabs(me - m) >= END_Z * sqrt(ss / (double)(n - 1) * (1.0 / (double)ne + 1.0 / (double)n));
}

/* The residual sum of squares of kernels [a, b) as two means split at j. */
static double rss_split(const struct bm_cp_series *s, size_t a, size_t j, size_t b)
{
	double r = 0;

	for (int side = 0; side < 2; side++) {
		size_t from = side ? s->off[j] : s->off[a], to = side ? s->off[b] : s->off[j];
		double m = 0;

		for (size_t i = from; i < to; i++)
			m += s->x[i];
		m /= (double)(to - from);
		for (size_t i = from; i < to; i++)
			r += (s->x[i] - m) * (s->x[i] - m);
	}
	return r;
}

/* Whether the change at k, between the changes next to it, could as well
 * sit two kernels or more away: a position whose fit is within c (in units
 * of the noise's variance) of k's, the likelihood-ratio confidence set of a
 * change point's location. */
static int place_unsure(const struct bm_cp_series *s, const struct bm_cp_result *r,
			const struct bm_cp_decision *d, size_t k, double c)
{
	size_t a = 0, b = s->nk, n;
	double best, var;

	for (size_t j = 0; j < r->nt; j++) {
		if (!d->keep[j])
			continue;
		if (r->t[j].k < k && r->t[j].k > a)
			a = r->t[j].k;
		if (r->t[j].k > k && r->t[j].k < b)
			b = r->t[j].k;
	}
	n = s->off[b] - s->off[a];
	best = rss_split(s, a, k, b);
	if (n <= 2 || !(best > 0))
		return 0;
	var = best / (double)(n - 2);
	for (size_t j = a + 1; j < b; j++)
		if ((j + 2 <= k || j >= k + 2) && rss_split(s, a, j, b) - best <= c * var)
			return 1;
	return 0;
}

/* Boots of kernels k - 1 and k, the fewer. */
static size_t boots_next_to(const struct bm_cp_series *s, size_t k)
{
	size_t l = s->off[k] - s->off[k - 1], r = s->off[k + 1] - s->off[k];

	return l < r ? l : r;
}

/* Whether test j of r is a candidate not yet sure. */
static int unsure(const struct bm_cp_series *s, const struct bm_cp_result *r,
		  const struct bm_cp_decision *d, const struct bm_cp_confirm *c, size_t j)
{
	const struct bm_cp_test *t = &r->t[j];

	if (d->keep[j])
		return d->q[j] > c->sure || place_unsure(s, r, d, t->k, c->place);
	if (t->parent >= 0)
		return t->p <= c->near;
	return t->p <= c->near_root || boots_next_to(s, t->k) < (size_t)c->explore;
}

int bm_cp_confirm_want(const struct bm_cp_series *s, const struct bm_cp_result *r,
		       const struct bm_cp_decision *d, const struct bm_cp_confirm *c,
		       const struct bm_cmp_rules *rules, const char *unit, unsigned char *want)
{
	int n = 0;

	for (size_t j = 0; j < r->nt; j++) {
		const struct bm_cp_test *t = &r->t[j];

		if (t->twin >= 0 || !unsure(s, r, d, c, j))
			continue;
		n++;
		want_around(t->k, t->a, t->b, c->width, want);
		if (t->k2)
			want_around(t->k2, t->a, t->b, c->width, want);
	}
	for (size_t e = 0; s->nk >= 2 && e < s->nk; e += s->nk - 1)
		if (!want[e] && end_off(s, r, d, rules, unit, e)) {
			want[e] = 1;
			n++;
		}
	return n;
}

void bm_cp_confirm_default(struct bm_cp_confirm *c, double alpha)
{
	*c = (struct bm_cp_confirm){ .near_root = 0.3, .near = 0.1, .sure = alpha / 10,
				     .place = 12, .explore = 3, .width = 2 };
}
