// SPDX-License-Identifier: MIT
/*
 * Change points of one series (history.h, docs/history.md "The search").
 *
 * The values are boots (a test's records) kernel after kernel; a change can
 * only sit between two kernels.  As Apache Otava (formerly Hunter, Fleming
 * et al., ICPE 2023, arXiv 2301.03034) does, the position of a split is
 * where E-divisive's divergence Q-hat (Matteson & James, JASA 2014, with
 * exponent 1) is largest, and whether it is real is a t-test between the
 * two sides, not a permutation test: the same data give the same answer.
 * Three differences from Otava, all for honest p-values: the split must
 * pass Student's test as well as Welch's (sides of unequal variance are what
 * a variance-only change and a lone outlier give), and still pass with the
 * one value that supports it most left out (no single value makes a
 * change); and its p-value is that of the largest of the segment's
 * two-sample statistics, since the split was chosen among many positions,
 * bounded by counting up-crossings (Hunter 1976, Worsley 1982) over the
 * positions in order, whose correlations depend only on their sizes.  A
 * segment whose split passes is searched on both sides (binary
 * segmentation); every segment tested is one test of the Benjamini-Hochberg
 * family (history_chg.c).  A side needs two values: a lone value has no
 * variance.
 *
 * A regression fixed a few kernels later is a pulse, and no single split
 * finds it: either side of any split mixes the pulse with what is around
 * it.  So a segment no split passes is tested once more, as circular binary
 * segmentation does (Olshen, Venkatraman, Lucito and Wigler, Biostatistics
 * 2004): the run of kernels inside it whose mean differs most from the rest
 * (the pooled t of the run against the rest, every run with two values
 * inside and two on each side), tested by Student's test with the value
 * that supports it most left out (not Welch's too: a short run's own
 * variance is a guess of few degrees of freedom, and the rest of the segment
 * knows the noise), corrected by Bonferroni over the runs (no up-crossing
 * bound is at hand for two ends; the count is what a run of the few kernels
 * a history holds can afford).  That test is one more of the family.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmpstats.h"
#include "history.h"

#define MIN_SIDE 2

/* 8-point Gauss-Legendre on [-1, 1] */
static const double gl_x[4] = { 0.1834346424956498, 0.5255324099163290, 0.7966664774136267,
				0.9602898564975363 };
static const double gl_w[4] = { 0.3626837833783620, 0.3137066458778873, 0.2223810344533745,
				0.1012285362903763 };

static double upper_tail(double z)
{
	return 0.5 * erfc(z / M_SQRT2);
}

/* z with P(|Z| >= z) = p: bisection on erfc, which is monotone. */
static double z_of_p(double p)
{
	double lo = 0, hi = 40;
	int i;

	if (!(p < 1))
		return 0;
	if (!(p > 0))
		return hi;
	for (i = 0; i < 200 && hi - lo > 1e-12; i++) {
		double mid = (lo + hi) / 2;

		if (erfc(mid / M_SQRT2) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * Owen's T(h, a) = 1/(2 pi) * integral over [0, a] of
 * exp(-h^2 (1 + x^2) / 2) / (1 + x^2) dx, composite Gauss-Legendre with
 * pieces no wider than 1/h, where the integrand falls off.
 */
static double owen_t(double h, double a)
{
	int pieces = 1 + (int)(a * h), i, j;
	double w = a / pieces, sum = 0;

	if (pieces > 64) {
		pieces = 64;
		w = a / pieces;
	}
	for (i = 0; i < pieces; i++) {
		double mid = (i + 0.5) * w;

		for (j = 0; j < 4; j++)
			for (int s = -1; s <= 1; s += 2) {
				double x = mid + s * gl_x[j] * w / 2, q = 1 + x * x;

				sum += gl_w[j] * w / 2 * exp(-h * h * q / 2) / q;
			}
	}
	return sum / (2 * M_PI);
}

/*
 * P(max over positions of |Z_i| >= z): the standardized differences of the
 * means of the two sides, for left sizes m[0] < m[1] < ... of n values, are
 * normal with corr(Z_i, Z_j) = sqrt(m_i (n - m_j) / (m_j (n - m_i))).
 * P(max Z >= z) <= P(Z_0 >= z) + sum P(Z_{i-1} < z <= Z_i), and the pair
 * probability is 2 T(z, sqrt((1 - rho) / (1 + rho))) (Owen 1956); twice
 * that for both signs.  Never above Bonferroni, much below it for the
 * neighbouring positions of one series, which move together.
 */
double bm_cp_pmax(double z, const size_t *m, size_t npos, size_t n)
{
	double sum, nn = (double)n;
	size_t i;

	if (!npos)
		return 1;
	sum = upper_tail(z);
	for (i = 1; i < npos && sum < 0.5; i++) {
		double m1 = (double)m[i - 1], m2 = (double)m[i];
		double rho = sqrt(m1 * (nn - m2) / (m2 * (nn - m1)));

		sum += 2 * owen_t(z, sqrt((1 - rho) / (1 + rho)));
	}
	return fmin(1, 2 * sum);
}

/* --- E-divisive: Q-hat at every position, in O(n log n) ------------------- */

struct ranked {
	double v;
	size_t i;
};

static int cmp_ranked(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;

	if (a->v != b->v)
		return a->v < b->v ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

/* A Fenwick tree of counts and sums over the values' ranks. */
struct fenwick {
	size_t n;
	double *cnt, *sum;
};

static void fw_add(struct fenwick *f, size_t r, double v)
{
	for (r++; r <= f->n; r += r & -r) {
		f->cnt[r] += 1;
		f->sum[r] += v;
	}
}

static void fw_below(const struct fenwick *f, size_t r, double *c, double *s)
{
	*c = *s = 0;
	for (; r > 0; r -= r & -r) {
		*c += f->cnt[r];
		*s += f->sum[r];
	}
}

/*
 * w[j]: the sum of |x_a - x_b| over the pairs inside x[0..j) (dir > 0) or
 * x[j..n) (dir < 0): each value added costs the distances to those already
 * in, which the tree gives from the counts and sums below and above it.
 */
static void within(const double *x, size_t n, const size_t *rank, int dir, double *w,
		   struct fenwick *f)
{
	double C = 0, S = 0;
	size_t k;

	memset(f->cnt, 0, (n + 1) * sizeof(double));
	memset(f->sum, 0, (n + 1) * sizeof(double));
	if (dir > 0)
		w[0] = 0;
	else
		w[n] = 0;
	for (k = 0; k < n; k++) {
		size_t i = dir > 0 ? k : n - 1 - k;
		double c, s, d;

		fw_below(f, rank[i], &c, &s);
		d = x[i] * c - s + (S - s) - x[i] * (C - c);
		if (dir > 0)
			w[i + 1] = w[i] + d;
		else
			w[i] = w[i + 1] + d;
		fw_add(f, rank[i], x[i]);
		C += 1;
		S += x[i];
	}
}

size_t bm_cp_edivisive(const double *x, size_t n, const size_t *m, size_t npos)
{
	struct ranked *r = malloc(n * sizeof(*r));
	size_t *rank = malloc(n * sizeof(*rank)), i, best = m[0];
	double *wl = malloc((n + 1) * sizeof(double)), *wr = malloc((n + 1) * sizeof(double));
	struct fenwick f = { n, calloc(n + 1, sizeof(double)), calloc(n + 1, sizeof(double)) };
	double bestq = -INFINITY;

	if (!r || !rank || !wl || !wr || !f.cnt || !f.sum)
		goto out_free;
	for (i = 0; i < n; i++)
		r[i] = (struct ranked){ x[i], i };
	qsort(r, n, sizeof(*r), cmp_ranked);
	for (i = 0; i < n; i++)
		rank[r[i].i] = i;
	within(x, n, rank, 1, wl, &f);
	within(x, n, rank, -1, wr, &f);
	for (i = 0; i < npos; i++) {
		double a = (double)m[i], b = (double)(n - m[i]);
		double cross = wl[n] - wl[m[i]] - wr[m[i]], q;

		/* Q-hat = a b / (a + b) * (2/(a b) sum|x-y| - sum|x-x'|/C(a,2) - sum|y-y'|/C(b,2)) */
		q = 2 * cross / (a * b);
		if (a > 1)
			q -= 2 * wl[m[i]] / (a * (a - 1));
		if (b > 1)
			q -= 2 * wr[m[i]] / (b * (b - 1));
		q *= a * b / (a + b);
		if (q > bestq) {
			bestq = q;
			best = m[i];
		}
	}
out_free:
	free(r);
	free(rank);
	free(wl);
	free(wr);
	free(f.cnt);
	free(f.sum);
	return best;
}

/* --- binary segmentation -------------------------------------------------- */

static int push_test(struct bm_cp_result *r, const struct bm_cp_test *t)
{
	struct bm_cp_test *nt = realloc(r->t, (r->nt + 1) * sizeof(*nt));

	if (!nt)
		return -ENOMEM;
	r->t = nt;
	r->t[r->nt++] = *t;
	return 0;
}

/*
 * The p of a split between x[0..m) and x[m..n): the larger of Welch's and
 * Student's (pooled variance).  Welch alone is too ready when a small side
 * happens to vary little (3 values against 57: its variance is a guess);
 * Student alone makes a lone outlier on a small side a shift of its mean.
 * Two sides without any variance are certain: equal or not.  Student's
 * alone when pooled (a run's test, where the leave-one-out takes the
 * outlier).
 */
static void split_p(const double *x, size_t m, size_t n, int pooled, double *p, double *t)
{
	struct bm_summary a, b;
	struct bm_welch w;
	double sp, ts, ps;

	bm_welch_test(x, m, x + m, n - m, &w);
	bm_summarize(x, m, &a);
	bm_summarize(x + m, n - m, &b);
	if (isnan(w.p)) {
		*p = a.mean == b.mean ? 1 : 0;
		*t = a.mean == b.mean ? 0 : b.mean > a.mean ? INFINITY : -INFINITY;
		return;
	}
	sp = sqrt(((double)(m - 1) * a.stddev * a.stddev + (double)(n - m - 1) * b.stddev * b.stddev) /
		  (double)(n - 2));
	ts = (b.mean - a.mean) / (sp * sqrt(1.0 / (double)m + 1.0 / (double)(n - m)));
	ps = 2 * (1 - bm_t_cdf(fabs(ts), (double)(n - 2)));
	*p = pooled ? ps : fmax(w.p, ps);
	*t = -w.t;   /* bm_welch_test's t is a - b */
}

/*
 * No single value makes a change: the split's p is also taken with the
 * value that supports it most left out, the lowest of the lower side or the
 * highest of the higher side (each side keeping MIN_SIDE + 1 or more), and
 * the largest p counts.  A lone outlier on a small side already inflates
 * that side's variance (Welch); this covers one on a large side, which
 * moves its mean.
 */
static int robust_p(const double *x, size_t m, size_t n, int pooled, double *p, double *t)
{
	double *y = malloc(n * sizeof(double)), pp, tt, lo_mean = 0, hi_mean = 0;
	size_t i, side;

	split_p(x, m, n, pooled, p, t);
	if (!y)
		return -ENOMEM;
	for (i = 0; i < m; i++)
		lo_mean += x[i] / (double)m;
	for (i = m; i < n; i++)
		hi_mean += x[i] / (double)(n - m);
	for (side = 0; side < 2; side++) {
		size_t from = side ? m : 0, to = side ? n : m, drop = from, k = 0;
		int lower = side ? hi_mean < lo_mean : lo_mean < hi_mean;

		if (to - from < MIN_SIDE + 1)
			continue;
		for (i = from; i < to; i++)
			if (lower ? x[i] < x[drop] : x[i] > x[drop])
				drop = i;
		for (i = 0; i < n; i++)
			if (i != drop)
				y[k++] = x[i];
		split_p(y, side ? m : m - 1, n - 1, pooled, &pp, &tt);
		*p = fmax(*p, pp);
	}
	free(y);
	return 0;
}

/* The left sizes of segment [a, b)'s positions with MIN_SIDE values on
 * each side, into m (b - a slots); their number. */
static size_t positions(const struct bm_cp_series *s, size_t a, size_t b, size_t *m)
{
	size_t n = s->off[b] - s->off[a], k, np = 0;

	for (k = a + 1; k < b; k++) {
		size_t left = s->off[k] - s->off[a];

		if (left >= MIN_SIDE && n - left >= MIN_SIDE && (!np || left > m[np - 1]))
			m[np++] = left;
	}
	return np;
}

double bm_cp_test_at(const struct bm_cp_series *s, size_t a, size_t k, size_t b)
{
	size_t n = s->off[b] - s->off[a], *m = malloc((b - a + 1) * sizeof(*m)), np;
	double p, t;

	if (!m)
		return NAN;
	np = positions(s, a, b, m);
	if (s->off[k] - s->off[a] < MIN_SIDE || s->off[b] - s->off[k] < MIN_SIDE) {
		free(m);
		return 1;
	}
	if (robust_p(s->x + s->off[a], s->off[k] - s->off[a], n, 0, &p, &t))
		p = NAN;
	else
		p = bm_cp_pmax(z_of_p(p), m, np, n);
	free(m);
	return p;
}

/* Tests segment [a, b) of s: 0 when tested (*t filled), 1 when it has no
 * position with two values on each side, -ENOMEM. */
static int test_segment(const struct bm_cp_series *s, size_t a, size_t b, struct bm_cp_test *t)
{
	const double *x = s->x + s->off[a];
	size_t n = s->off[b] - s->off[a], *m, np, best;

	m = malloc((b - a + 1) * sizeof(*m));
	if (!m)
		return -ENOMEM;
	np = positions(s, a, b, m);
	if (!np) {
		free(m);
		return 1;
	}
	best = bm_cp_edivisive(x, n, m, np);
	memset(t, 0, sizeof(*t));
	t->a = a;
	t->b = b;
	for (t->k = a + 1; s->off[t->k] - s->off[a] != best; t->k++)
		;
	t->npos = np;
	t->twin = -1;
	if (robust_p(x, best, n, 0, &t->p_raw, &t->t)) {
		free(m);
		return -ENOMEM;
	}
	t->p = bm_cp_pmax(z_of_p(t->p_raw), m, np, n);
	free(m);
	return 0;
}

/* The pooled two-sample t of n1 values (sum s1, sum of squares q1) against
 * n2 (s2, q2): the run's choice, not its test. */
static double pooled_t(double n1, double s1, double q1, double n2, double s2, double q2)
{
	double m1 = s1 / n1, m2 = s2 / n2;
	double ss = fmax(0, q1 - s1 * m1) + fmax(0, q2 - s2 * m2), sp = ss / (n1 + n2 - 2);

	if (!(sp > 0))
		return m1 == m2 ? 0 : INFINITY;
	return fabs(m1 - m2) / sqrt(sp * (1 / n1 + 1 / n2));
}

/* Tests segment [a, b) for a run [k, k2): 0 when tested (*t filled), 1 when
 * it has no run with MIN_SIDE values inside and on each side, -ENOMEM. */
static int test_run(const struct bm_cp_series *s, size_t a, size_t b, struct bm_cp_test *t)
{
	size_t n = s->off[b] - s->off[a], i, j, npairs = 0, bi = 0, bj = 0, k, o;
	double *cs = calloc(b - a + 1, sizeof(double)), *cq = calloc(b - a + 1, sizeof(double));
	double *y = malloc((n + 1) * sizeof(double)), x0 = s->x[s->off[a]], best = -1;
	int rc = 0;

	if (!cs || !cq || !y) {
		rc = -ENOMEM;
		goto out_free;
	}
	/* sums per kernel boundary, of values less the first (no cancellation) */
	for (k = a; k < b; k++) {
		cs[k - a + 1] = cs[k - a];
		cq[k - a + 1] = cq[k - a];
		for (i = s->off[k]; i < s->off[k + 1]; i++) {
			cs[k - a + 1] += s->x[i] - x0;
			cq[k - a + 1] += (s->x[i] - x0) * (s->x[i] - x0);
		}
	}
	for (i = a + 1; i < b; i++) {
		if (s->off[i] - s->off[a] < MIN_SIDE)
			continue;
		for (j = i + 1; j < b; j++) {
			double nin = (double)(s->off[j] - s->off[i]), v;

			if (nin < MIN_SIDE || s->off[b] - s->off[j] < MIN_SIDE)
				continue;
			npairs++;
			v = pooled_t(nin, cs[j - a] - cs[i - a], cq[j - a] - cq[i - a], (double)n - nin,
				     cs[b - a] - (cs[j - a] - cs[i - a]), cq[b - a] - (cq[j - a] - cq[i - a]));
			if (v > best) {
				best = v;
				bi = i;
				bj = j;
			}
		}
	}
	if (!npairs) {
		rc = 1;
		goto out_free;
	}
	/* the rest (left of the run, then right of it) against the run */
	for (o = 0, k = s->off[a]; k < s->off[bi]; k++)
		y[o++] = s->x[k];
	for (k = s->off[bj]; k < s->off[b]; k++)
		y[o++] = s->x[k];
	for (k = s->off[bi]; k < s->off[bj]; k++)
		y[o++] = s->x[k];
	*t = (struct bm_cp_test){ .a = a, .k = bi, .k2 = bj, .b = b, .npos = npairs, .twin = -1 };
	if (robust_p(y, n - (s->off[bj] - s->off[bi]), n, 1, &t->p_raw, &t->t)) {
		rc = -ENOMEM;
		goto out_free;
	}
	t->p = fmin(1, t->p_raw * (double)npairs);
out_free:
	free(cs);
	free(cq);
	free(y);
	return rc;
}

struct seg {
	size_t a, b;
	int parent;           /* the test whose split made the segment; -1 none */
};

/* Segment g by a split (run 0) or a run (run 1), the test recorded in r:
 * 1 when it passed (search on), 0 when not or untestable, -ENOMEM. */
static int tested(const struct bm_cp_series *s, const struct seg *g, double alpha, int run,
		  struct bm_cp_result *r, struct bm_cp_test *t)
{
	int rc = run ? test_run(s, g->a, g->b, t) : test_segment(s, g->a, g->b, t);

	if (rc)
		return rc == 1 ? 0 : rc;
	t->parent = g->parent;
	t->split = t->p <= alpha;
	rc = push_test(r, t);
	return rc ? rc : t->split;
}

int bm_cp_search(const struct bm_cp_series *s, double alpha, struct bm_cp_result *r)
{
	struct seg *stack;
	size_t ns = 0;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	if (s->nk < 2)
		return 0;
	/* each split adds two segments (a run three) and removes one: at most
	 * one per kernel on the stack */
	stack = malloc((s->nk + 2) * sizeof(*stack));
	if (!stack)
		return -ENOMEM;
	stack[ns++] = (struct seg){ 0, s->nk, -1 };
	while (ns && !rc) {
		struct seg g = stack[--ns];
		struct bm_cp_test t;

		rc = tested(s, &g, alpha, 0, r, &t);
		if (rc > 0) {
			/* the left side is searched first: tests in position order */
			stack[ns++] = (struct seg){ t.k, g.b, (int)r->nt - 1 };
			stack[ns++] = (struct seg){ g.a, t.k, (int)r->nt - 1 };
			rc = 0;
			continue;
		}
		if (!rc)
			rc = tested(s, &g, alpha, 1, r, &t);
		if (rc > 0) {
			int run = (int)r->nt - 1;
			struct bm_cp_test far = t;

			far.k = t.k2;
			far.k2 = 0;
			far.twin = run;
			/* 0 when recorded: the search goes on */
			if ((rc = push_test(r, &far)))
				break;
			stack[ns++] = (struct seg){ t.k2, g.b, run };
			stack[ns++] = (struct seg){ t.k, t.k2, run };
			stack[ns++] = (struct seg){ g.a, t.k, run };
		}
	}
	free(stack);
	if (rc)
		bm_cp_result_free(r);
	return rc;
}

void bm_cp_result_free(struct bm_cp_result *r)
{
	free(r->t);
	r->t = NULL;
	r->nt = 0;
}
