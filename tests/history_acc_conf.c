// SPDX-License-Identifier: MIT
/*
 * history_gen accuracy, its last table: series booted again as history
 * changes --confirm does (docs/history.md, "Confirming in real time"): the
 * kernels bm_cp_confirm_want marks get one more boot each, a round, until
 * none is marked or the budget is spent.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmpstats.h"
#include "history.h"
#include "history_gen.h"

/* --- confirmation boots (history changes --confirm) ------------------------------ */

#define CONF_CAP 64                /* boots one kernel can have */
#define CONFIRM_BUDGET 8           /* boots a kernel on average at most: history changes --max-boots */

/* A series whose kernels can be booted again: the mean and sd of each. */
struct cseries {
	struct series s;
	double mean[128], sd[128], v[128 * CONF_CAP];
	int cnt[128];
};

static void cs_flatten(struct cseries *c)
{
	size_t n = 0;

	for (int k = 0; k < c->s.nk; k++) {
		c->s.off[k] = n;
		for (int i = 0; i < c->cnt[k]; i++)
			c->s.x[n++] = c->v[k * CONF_CAP + i];
	}
	c->s.off[c->s.nk] = n;
}

static void cs_boot(struct cseries *c, int k)
{
	c->v[k * CONF_CAP + c->cnt[k]++] = c->mean[k] * (1 + c->sd[k] / 100 * normal());
}

/* make_series()'s series, kept per kernel so that any kernel can be booted again. */
static void cs_make(const struct cell *ce, struct cseries *c)
{
	make_series(ce, &c->s);
	for (int k = 0; k < ce->nk; k++) {
		int up = (ce->kind == K_STEP && k >= c->s.chg[0]) ||
			 (ce->kind == K_PULSE && k >= c->s.chg[0] && k < c->s.chg[1]);

		c->mean[k] = 100 * (up ? 1 + ce->step / 100 : 1);
		c->sd[k] = ce->cov * (ce->kind == K_VARIANCE && k >= c->s.chg[0] ? 3 : 1);
		c->cnt[k] = (int)(c->s.off[k + 1] - c->s.off[k]);
		memcpy(c->v + k * CONF_CAP, c->s.x + c->s.off[k], (size_t)c->cnt[k] * sizeof(double));
	}
}

/* Search, decide, boot the kernels bm_cp_confirm_want marks, again, until
 * nothing is unsure or the budget (boots a kernel on average) is spent. */
static int confirm_series(struct cseries *c, const struct bm_cmp_rules *ru,
			  const struct bm_cp_confirm *cf, double budget, int *at, long *used)
{
	struct bm_cp_series cs = { .x = c->s.x, .off = c->s.off, .nk = (size_t)c->s.nk };
	const char *unit = "MiB/s";
	int n, total = 0, nk = c->s.nk;

	for (int k = 0; k < nk; k++)
		total += c->cnt[k];
	for (;;) {
		struct bm_cp_result r;
		struct bm_cp_decision d;
		unsigned char want[128] = { 0 };
		int nw = 0;

		cs_flatten(c);
		if (bm_cp_search(&cs, ru->alpha, &r) || bm_cp_decide(&cs, &r, 1, ru, &unit, &d))
			exit(111);
		n = 0;
		for (size_t j = 0; j < r.nt; j++)
			if (d.keep[j])
				at[n++] = (int)r.t[j].k;
		bm_cp_confirm_want(&cs, &r, &d, cf, ru, unit, want);
		for (int k = 0; k < nk; k++)
			nw += want[k] && c->cnt[k] < CONF_CAP;
		bm_cp_decision_free(&d, 1);
		bm_cp_result_free(&r);
		if (!nw || total + nw > budget * nk)
			break;
		for (int k = 0; k < nk; k++)
			if (want[k] && c->cnt[k] < CONF_CAP) {
				cs_boot(c, k);
				total++;
			}
	}
	*used += total;
	return n;
}

static void confirm_cell(const struct cell *ce, int nseries, const struct bm_cp_confirm *cf,
			 double budget)
{
	struct bm_cmp_rules ru = { .alpha = 0.01, .min_change = 5, .min_abs_time = 0.01 };
	struct score b = { 0 };
	struct cseries *c = calloc(1, sizeof(*c));
	int at[128], n;
	long used = 0;
	char p0[16], r0[16], r1[16];

	if (!c || !(c->s.x = malloc(128 * CONF_CAP * sizeof(double))) ||
	    !(c->s.off = malloc(129 * sizeof(size_t))))
		exit(111);
	for (int i = 0; i < nseries; i++) {
		cs_make(ce, c);
		n = confirm_series(c, &ru, cf, budget, at, &used);
		score(&c->s, at, n, &b);
	}
	fmt_ratio(p0, sizeof(p0), b.tp1, b.tp1 + b.fp1);
	fmt_ratio(r0, sizeof(r0), b.tp0, b.steps);
	fmt_ratio(r1, sizeof(r1), b.tp1, b.steps);
	printf("| %s | %d | %d | %.2f | %.2f%% | %s | %s | %s | %.1f |", ce->what, ce->nk,
	       ce->boots, (double)used / nseries / ce->nk, ce->cov, p0, r1, r0,
	       100.0 * (double)b.fp1 / nseries);
	if (ce->kind == K_OUTLIER)
		printf(" at the outlier: %ld |\n", b.at_outlier);
	else
		printf(" |\n");
	free(c->s.x);
	free(c->s.off);
	free(c);
}

/* The confirmation table: first boots 2 and 3 a kernel, then rounds while
 * something is unsure and the budget (history changes --max-boots 8) lasts. */
void confirm_table(int nseries)
{
	double med = median_cov(), lo = measured_cov[7], hi = measured_cov[4];
	struct bm_cp_confirm cf;
	char what[64];

	bm_cp_confirm_default(&cf, 0.01);
	printf("| series | kernels | first boots | boots / kernel | CoV | precision | recall | "
	       "recall (exact) | false / 100 series | |\n"
	       "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
	for (int i = 0; i < 3; i++) {
		double cov = i == 0 ? lo : i == 1 ? med : hi;

		for (int b0 = 2; b0 <= 3; b0++) {
			for (int st = 5; st <= 20; st *= 2) {
				snprintf(what, sizeof(what), "step %+d%%", st);
				confirm_cell(&(struct cell){ what, K_STEP, 20, b0, cov, st, 0 }, nseries,
					     &cf, CONFIRM_BUDGET);
			}
			confirm_cell(&(struct cell){ "pulse +10%, 2 kernels", K_PULSE, 20, b0, cov, 10,
						     2 }, nseries, &cf, CONFIRM_BUDGET);
			confirm_cell(&(struct cell){ "no change", K_NONE, 20, b0, cov, 0, 0 }, nseries,
				     &cf, CONFIRM_BUDGET);
			confirm_cell(&(struct cell){ "one outlier", K_OUTLIER, 20, b0, cov, 0, 0 },
				     nseries, &cf, CONFIRM_BUDGET);
		}
	}
}
