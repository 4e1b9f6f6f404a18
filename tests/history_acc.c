// SPDX-License-Identifier: MIT
/*
 * history_gen accuracy: precision and recall of history changes' search
 * (docs/history.md, "Accuracy"), per step size and against the naive method
 * (Welch between neighbouring kernels, no correction); the series are
 * searched and decided by the same functions history changes calls
 * (bm_cp_search, bm_cp_decide), one series per history.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmpstats.h"
#include "history.h"
#include "history_gen.h"

/* docs/performance.md, "repeat": qemu ext4 aio-libaio, aio-uring, bon-block-r,
 * bon-block-w, dd32r, dd32w, lmdd-r, lmdd-w, tio-rndrd, tio-seqwr (CoV %) */
const double measured_cov[] = { 8.14, 6.75, 19.31, 14.80, 21.65, 4.18, 6.89, 3.31,
				       10.95, 8.20 };
#define NCOV (sizeof(measured_cov) / sizeof(measured_cov[0]))

/* docs/performance.md, "repeat", qemu-icount: the same ten figures over 5 boots
 * under --icount 1 --disk-cache unsafe, as bisection and the history test boot
 * (make bench, part suite qemu-icount, 2026-12-03), in the same order; and the
 * worst of all 33 figures of those boots (tio-rndrd-t1's rate) */
static const double icount_cov[] = { 0.31, 0.28, 0.15, 0.35, 0.11, 2.88, 0.20, 0.00,
				     0.95, 0.07 };
#define NICOV (sizeof(icount_cov) / sizeof(icount_cov[0]))
#define ICOUNT_WORST_COV 4.96

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_of(const double *cov, size_t n)
{
	double v[16];

	memcpy(v, cov, n * sizeof(*v));
	qsort(v, n, sizeof(double), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double median_cov(void)
{
	return median_of(measured_cov, NCOV);
}

static double max_of(const double *cov, size_t n)
{
	double m = cov[0];

	for (size_t i = 1; i < n; i++)
		m = cov[i] > m ? cov[i] : m;
	return m;
}
/* --- accuracy ---------------------------------------------------------------- */

/* The kernel a step or variance change starts at: at least a quarter of
 * the kernels (and two) on each side, so that both sides are history. */
static int change_kernel(int nk)
{
	int margin = nk / 4 > 2 ? nk / 4 : 2;

	return unif_int(margin, nk - margin);
}

/* The first kernel of a pulse: as change_kernel(), the pulse inside. */
static int pulse_kernel(int nk, int width)
{
	int margin = nk / 4 > 2 ? nk / 4 : 2;

	return unif_int(margin, nk - margin - width);
}

void make_series(const struct cell *c, struct series *s)
{
	int k, b, n = 0, at = c->kind == K_STEP || c->kind == K_VARIANCE ? change_kernel(c->nk) :
			       c->kind == K_PULSE ? pulse_kernel(c->nk, c->width) : -1;
	int end = c->kind == K_PULSE ? at + c->width : c->nk;

	s->nk = c->nk;
	s->nchg = c->kind == K_STEP ? 1 : c->kind == K_PULSE ? 2 : 0;
	s->chg[0] = at;
	s->chg[1] = end;
	s->outlier_at = -1;
	for (k = 0; k < c->nk; k++) {
		s->off[k] = (size_t)n;
		for (b = 0; b < c->boots; b++) {
			int up = (c->kind == K_STEP || c->kind == K_PULSE) && k >= at && k < end;
			double mean = 100 * (up ? 1 + c->step / 100 : 1);
			double sd = c->cov * (c->kind == K_VARIANCE && k >= at ? 3 : 1);

			s->x[n++] = mean * (1 + sd / 100 * normal());
		}
	}
	s->off[c->nk] = (size_t)n;
	if (c->kind == K_OUTLIER) {
		/* one boot: 5 to 30 sigma off, or 3 to 30 times the value (a host
		 * that stalled the guest's I/O), either way */
		int i = unif_int(0, n - 1);
		double f = unif() < 0.7 ? 1 + (5 + 25 * unif()) * c->cov / 100 : 3 + 27 * unif();

		s->x[i] = unif() < 0.5 ? s->x[i] * f : s->x[i] / f;
		for (k = 0; k < c->nk && s->off[k + 1] <= (size_t)i; k++)
			;
		s->outlier_at = k;
	}
}

/* Neighbouring kernels by Welch's test at alpha, with compare's minimum change. */
static int naive(const struct series *s, const struct bm_cmp_rules *ru, int *at)
{
	int k, n = 0;

	for (k = 1; k < s->nk; k++) {
		const double *a = s->x + s->off[k - 1], *b = s->x + s->off[k];
		size_t na = s->off[k] - s->off[k - 1], nb = s->off[k + 1] - s->off[k];
		struct bm_summary sa, sb;
		struct bm_welch w;

		bm_welch_test(a, na, b, nb, &w);
		bm_summarize(a, na, &sa);
		bm_summarize(b, nb, &sb);
		if (w.p < ru->alpha && bm_cmp_big_change(sa.mean, sb.mean, "MiB/s", ru))
			at[n++] = k;
	}
	return n;
}

/* A ceiling: Welch's test between all boots before and after the step
 * (a pulse: inside it and outside), its kernels known (no search, no
 * correction), p < alpha; a pulse counts for both its ends. */
static int oracle(const struct series *s, double alpha)
{
	struct bm_welch w;
	size_t at, end, n = s->off[s->nk], i, o = 0;
	double *y;

	if (!s->nchg)
		return 0;
	at = s->off[s->chg[0]];
	end = s->nchg > 1 ? s->off[s->chg[1]] : n;
	y = malloc(n * sizeof(double));
	if (!y)
		exit(111);
	for (i = 0; i < n; i++)
		if (i < at || i >= end)
			y[o++] = s->x[i];
	for (i = at; i < end; i++)
		y[o++] = s->x[i];
	bm_welch_test(y, n - (end - at), y + n - (end - at), end - at, &w);
	free(y);
	return w.p < alpha ? s->nchg : 0;
}

/* Detections at[0..n) against the series' changes, exactly and within a
 * kernel: each change found once, by the nearest detection not yet used. */
void score(const struct series *s, const int *at, int n, struct score *sc)
{
	int i, c, hit0[2] = { 0, 0 }, hit1[2] = { 0, 0 };

	sc->steps += s->nchg;
	for (i = 0; i < n; i++) {
		int m0 = -1, m1 = -1;

		for (c = 0; c < s->nchg; c++) {
			int d = abs(at[i] - s->chg[c]);

			if (d == 0 && !hit0[c])
				m0 = c;
			if (d <= 1 && !hit1[c] && (m1 < 0 || d < abs(at[i] - s->chg[m1])))
				m1 = c;
		}
		if (m0 >= 0) {
			hit0[m0] = 1;
			sc->tp0++;
		} else {
			sc->fp0++;
		}
		if (m1 >= 0) {
			hit1[m1] = 1;
			sc->tp1++;
		} else {
			sc->fp1++;
		}
		sc->at_outlier += s->outlier_at >= 0 &&
				  (at[i] == s->outlier_at || at[i] == s->outlier_at + 1);
	}
}

static int bootmark(const struct series *s, const struct bm_cmp_rules *ru, int *at)
{
	struct bm_cp_series cs = { .x = s->x, .off = s->off, .nk = (size_t)s->nk };
	struct bm_cp_result r;
	struct bm_cp_decision d;
	const char *unit = "MiB/s";
	size_t j;
	int n = 0;

	if (bm_cp_search(&cs, ru->alpha, &r) || bm_cp_decide(&cs, &r, 1, ru, &unit, &d)) {
		fprintf(stderr, "history_gen: out of memory\n");
		exit(111);
	}
	for (j = 0; j < r.nt; j++)
		if (d.keep[j])
			at[n++] = (int)r.t[j].k;
	bm_cp_decision_free(&d, 1);
	bm_cp_result_free(&r);
	return n;
}

void fmt_ratio(char *buf, size_t len, long a, long b)
{
	if (b)
		snprintf(buf, len, "%.2f", (double)a / (double)b);
	else
		snprintf(buf, len, "-");
}

static void run_cell(const struct cell *c, int nseries)
{
	struct bm_cmp_rules ru = { .alpha = 0.01, .min_change = 5, .min_abs_time = 0.01 };
	struct score b = { 0 }, v = { 0 };
	struct series s;
	int at[128], i, n;
	char p0[16], r0[16], r1[16], np[16], nr[16], orc[16];

	s.x = malloc((size_t)(c->nk * c->boots) * sizeof(double));
	s.off = malloc((size_t)(c->nk + 1) * sizeof(size_t));
	if (!s.x || !s.off)
		exit(111);
	for (i = 0; i < nseries; i++) {
		make_series(c, &s);
		b.oracle += oracle(&s, ru.alpha);
		n = bootmark(&s, &ru, at);
		score(&s, at, n, &b);
		n = naive(&s, &ru, at);
		score(&s, at, n, &v);
	}
	fmt_ratio(p0, sizeof(p0), b.tp1, b.tp1 + b.fp1);
	fmt_ratio(r0, sizeof(r0), b.tp0, b.steps);
	fmt_ratio(r1, sizeof(r1), b.tp1, b.steps);
	fmt_ratio(np, sizeof(np), v.tp1, v.tp1 + v.fp1);
	fmt_ratio(nr, sizeof(nr), v.tp1, v.steps);
	fmt_ratio(orc, sizeof(orc), b.oracle, b.steps);
	printf("| %s | %d | %d | %.2f%% | %s | %s | %s | %.1f | %s | %s | %.1f | %s |", c->what,
	       c->nk, c->boots, c->cov, p0, r1, r0, 100.0 * (double)b.fp1 / nseries, np, nr,
	       100.0 * (double)v.fp1 / nseries, orc);
	if (c->kind == K_OUTLIER)
		printf(" at the outlier: %ld |\n", b.at_outlier);
	else
		printf(" |\n");
	free(s.x);
	free(s.off);
}

static void table_head(void)
{
	printf("| series | kernels | boots | CoV | precision | recall | recall (exact) | false / 100 "
	       "series | naive precision | naive recall | naive false / 100 series | known kernel | |\n");
	printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
}

int accuracy(int nseries)
{
	static const double steps[] = { 2, 5, 10, 20 };
	double med = median_cov(), lo = measured_cov[7], hi = measured_cov[4];
	char what[64];
	size_t i;

	printf("Median measured CoV %.2f%% (of %zu, docs/performance.md); %d series per row.\n\n",
	       med, NCOV, nseries);
	printf("#### Step size (20 kernels, 3 boots each, median CoV)\n\n");
	table_head();
	for (i = 0; i < 4; i++) {
		struct cell c = { what, K_STEP, 20, 3, med, steps[i], 0 };

		snprintf(what, sizeof(what), "step %+g%%", steps[i]);
		run_cell(&c, nseries);
	}
	run_cell(&(struct cell){ "no change", K_NONE, 20, 3, med, 0, 0 }, nseries);
	run_cell(&(struct cell){ "one outlier", K_OUTLIER, 20, 3, med, 0, 0 }, nseries);
	run_cell(&(struct cell){ "variance x3 only", K_VARIANCE, 20, 3, med, 0, 0 }, nseries);
	printf("\n#### Boots per kernel (step +10%%, 20 kernels, median CoV)\n\n");
	table_head();
	for (int b = 1; b <= 5; b++) {
		snprintf(what, sizeof(what), "step +10%%");
		run_cell(&(struct cell){ what, K_STEP, 20, b, med, 10, 0 }, nseries);
	}
	run_cell(&(struct cell){ "one outlier", K_OUTLIER, 20, 1, med, 0, 0 }, nseries);
	printf("\n#### Kernels (step +10%%, 3 boots each, median CoV)\n\n");
	table_head();
	for (int k = 10; k <= 60; k += k < 20 ? 10 : k < 40 ? 20 : 20) {
		run_cell(&(struct cell){ "step +10%", K_STEP, k, 3, med, 10, 0 }, nseries);
		run_cell(&(struct cell){ "no change", K_NONE, k, 3, med, 0, 0 }, nseries);
	}
	printf("\n#### Noise (20 kernels, 3 boots each; lowest, median and highest measured CoV)\n\n");
	table_head();
	for (i = 0; i < 3; i++) {
		double cov = i == 0 ? lo : i == 1 ? med : hi;

		for (size_t j = 0; j < 4; j++) {
			snprintf(what, sizeof(what), "step %+g%%", steps[j]);
			run_cell(&(struct cell){ what, K_STEP, 20, 3, cov, steps[j], 0 }, nseries);
		}
		run_cell(&(struct cell){ "one outlier", K_OUTLIER, 20, 3, cov, 0, 0 }, nseries);
	}
	printf("\n#### Boots in virtual time (--icount 1; 20 kernels, 3 boots each; median and "
	       "highest of the ten figures, worst of all 33)\n\n");
	table_head();
	for (i = 0; i < 3; i++) {
		double cov = i == 0 ? median_of(icount_cov, NICOV) :
			     i == 1 ? max_of(icount_cov, NICOV) : ICOUNT_WORST_COV;

		for (size_t j = 0; j < 4; j++) {
			snprintf(what, sizeof(what), "step %+g%%", steps[j]);
			run_cell(&(struct cell){ what, K_STEP, 20, 3, cov, steps[j], 0 }, nseries);
		}
		run_cell(&(struct cell){ "no change", K_NONE, 20, 3, cov, 0, 0 }, nseries);
		run_cell(&(struct cell){ "one outlier", K_OUTLIER, 20, 3, cov, 0, 0 }, nseries);
		run_cell(&(struct cell){ "variance x3 only", K_VARIANCE, 20, 3, cov, 0, 0 }, nseries);
	}
	/* last, so that every row above keeps its random numbers */
	printf("\n#### Pulses: a step undone 2 or 3 kernels later (20 kernels, 3 boots each; "
	       "both ends counted; real time at the median CoV, virtual time at the median and "
	       "highest of the ten figures and the worst of all 33)\n\n");
	table_head();
	for (i = 0; i < 4; i++) {
		double cov = i == 0 ? med : i == 1 ? median_of(icount_cov, NICOV) :
			     i == 2 ? max_of(icount_cov, NICOV) : ICOUNT_WORST_COV;

		for (int st = 10; st <= 20; st += 10)
			for (int w = 2; w <= 3; w++) {
				snprintf(what, sizeof(what), "pulse %+d%%, %d kernels", st, w);
				run_cell(&(struct cell){ what, K_PULSE, 20, 3, cov, st, w }, nseries);
			}
	}
	printf("\n#### Confirmation boots (history changes --confirm; 20 kernels, 2 or 3 boots "
	       "each first, then rounds until nothing is unsure or 8 boots a kernel are spent; "
	       "lowest, median and highest real-time CoV; %d series per row)\n\n", nseries * 5);
	confirm_table(nseries * 5);
	return 0;
}
