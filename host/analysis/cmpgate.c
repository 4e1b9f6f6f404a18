// SPDX-License-Identifier: MIT
/*
 * The CI gate (cmpgate.h).  It judges by the summary entries, so exactly what
 * compare lists under "Significant regressions" (or any headline change)
 * stops a job: the false discovery control and the minimum change are the
 * summary's, and a test's secondary metrics never stop a job on their own.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "cmpgate.h"
#include "json.h"
#include "util.h"

const char *const bm_gate_modes[] = { "none", "regression", "change", NULL };

int bm_gate_parse(const char *s, enum bm_gate_mode *m)
{
	int i;

	*m = BM_GATE_OFF;
	if (!s || !s[0])
		return 0;
	for (i = 0; bm_gate_modes[i]; i++)
		if (!strcmp(s, bm_gate_modes[i])) {
			*m = (enum bm_gate_mode)i;
			return 0;
		}
	bm_msg("bad --fail-on '%s': want regression, change or none", s);
	return -EINVAL;
}

int bm_gate_trips(const struct bm_cmp_entry *e, enum bm_gate_mode m)
{
	if (m == BM_GATE_REGRESSION)
		return e->kind == BM_KIND_REGRESSION;
	return m == BM_GATE_CHANGE && e->head && e->head->changed;
}

/* t with P(T <= t) = p for Student's t with df degrees of freedom. */
static double t_quantile(double p, double df)
{
	double lo = 0, hi = 1e6;
	int i;

	for (i = 0; i < 200 && hi - lo > 1e-10 * (1 + lo); i++) {
		double mid = (lo + hi) / 2;

		if (bm_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

int bm_gate_row_cleared(const struct bm_cmp *c, const struct bm_cmp_row *r, enum bm_gate_mode m,
			double *bound)
{
	const struct bm_summary *b = &r->base_s;   /* compare paired them */
	double va, vb, se, df, d, far, scale;

	*bound = NAN;
	if (b->n < 2 || r->s.n < 2 || !(fabs(b->mean) > 0))
		return 0;
	va = r->s.stddev * r->s.stddev / (double)r->s.n;
	vb = b->stddev * b->stddev / (double)b->n;
	se = sqrt(va + vb);
	/* Welch-Satterthwaite; no variance at all: the difference is exact */
	df = se > 0 ? (va + vb) * (va + vb) /
		      (va * va / (double)(r->s.n - 1) + vb * vb / (double)(b->n - 1)) : 1;
	d = r->s.mean - b->mean;
	/* the move in the worse direction; both ways when any change fails */
	if (m == BM_GATE_CHANGE || r->dir == BM_DIR_NONE)
		d = fabs(d);
	else if (r->dir == BM_DIR_HIGHER)
		d = -d;
	far = d + (se > 0 ? t_quantile(1 - c->rules.alpha, df) * se : 0);
	*bound = far / fabs(b->mean) * 100;
	if (*bound < c->rules.min_change)
		return 1;
	scale = bm_cmp_time_scale(r->unit);
	return scale > 0 && far * scale < c->rules.min_abs_time;
}

/* The class of the boots, as run would exit: infra-error first, then the
 * first boot that did not complete. */
static const struct bm_cmp_boot *failed_boot(const struct bm_cmp *c, int *code)
{
	const struct bm_cmp_boot *first = NULL;
	size_t i;

	*code = 0;
	for (i = 0; i < c->nboots; i++) {
		const struct bm_cmp_boot *b = &c->boots[i];

		if (b->r.status == BM_ST_INFRA_ERROR) {
			*code = BM_EXIT_SYSTEM;
			return b;
		}
		if (!first && b->r.status != BM_ST_COMPLETED)
			first = b;
	}
	if (first)
		*code = bm_status_exit(first->r.status);
	return first;
}

/* Why no headline row could be tested, in the figures that tell the causes
 * apart: too few boots, values missing from boots there were, no variance. */
static void untested_why(const struct bm_cmp *c, const struct bm_gate *g, char *buf,
			 size_t len)
{
	size_t i, k, fewest = 0, maxn = 0;

	for (i = 0; i < c->nrows; i++)
		if (c->rows[i].headline && c->rows[i].s.n > maxn)
			maxn = c->rows[i].s.n;
	for (k = 1; k < c->nkernels; k++)
		if (c->kboots[k] < c->kboots[fewest])
			fewest = k;
	if (c->kboots[fewest] < 2)
		snprintf(buf, len, "no headline metric could be tested (%zu rows): kernel %.80s has "
			 "%d boot; boot each kernel twice or more, exit %d", g->nheads,
			 c->kernels[fewest], c->kboots[fewest], g->code);
	else if (maxn < 2)
		snprintf(buf, len, "no headline metric could be tested (%zu rows): every kernel has "
			 "%d boots or more, but no headline row holds two values: their records "
			 "lack them, exit %d", g->nheads, c->kboots[fewest], g->code);
	else
		snprintf(buf, len, "no headline metric could be tested (%zu rows, up to %zu values "
			 "each): no variance, exit %d", g->nheads, maxn, g->code);
}

/* 1 when a tested headline row's test trips the gate. */
static int row_trips(const struct bm_cmp *c, const struct bm_cmp_row *r, enum bm_gate_mode m)
{
	size_t i;

	for (i = 0; i < c->nentries; i++)
		if (c->entries[i].head == r)
			return bm_gate_trips(&c->entries[i], m);
	return 0;
}

/* The tested headline rows neither tripping nor cleared; the first max
 * into out. */
static size_t undecided(const struct bm_cmp *c, enum bm_gate_mode m, const struct bm_cmp_row **out,
			size_t max)
{
	size_t i, n = 0;
	double bound;

	for (i = 0; i < c->nrows; i++) {
		const struct bm_cmp_row *r = &c->rows[i];

		if (!r->kidx || !r->headline || isnan(r->p_welch) || row_trips(c, r, m) ||
		    bm_gate_row_cleared(c, r, m, &bound))
			continue;
		if (out && n < max)
			out[n] = r;
		n++;
	}
	return n;
}

void bm_gate_decide(const struct bm_cmp *c, enum bm_gate_mode m, struct bm_gate *g)
{
	const char *what = m == BM_GATE_CHANGE ? "change" : "regression";
	size_t i;

	memset(g, 0, sizeof(*g));
	g->mode = m;
	if (m == BM_GATE_OFF)
		return;
	for (i = 0; i < c->nrows; i++)
		if (c->rows[i].kidx && c->rows[i].headline) {
			g->nheads++;
			g->nuntested += isnan(c->rows[i].p_welch);
		}
	for (i = 0; i < c->nentries; i++)
		g->ntrip += (size_t)bm_gate_trips(&c->entries[i], m);
	g->nundecided = undecided(c, m, NULL, 0);
	for (i = 0; i < c->nboots; i++)
		g->realtime |= !c->boots[i].load.icount;
	g->boot = failed_boot(c, &g->code);
	if (g->boot) {
		/* its reason too: a value that is no measurement is named there */
		snprintf(g->why, sizeof(g->why), "boot %.100s did not complete (%s), exit %d%s%.150s",
			 g->boot->label, bm_status_name(g->boot->r.status), g->code,
			 g->boot->r.status_why[0] ? ": " : "", g->boot->r.status_why);
	} else if (c->nkernels < 2) {
		g->code = BM_EXIT_USAGE;
		snprintf(g->why, sizeof(g->why), "one kernel only: nothing to compare, exit %d",
			 g->code);
	} else if (g->nheads == g->nuntested) {
		g->code = BM_EXIT_USAGE;
		untested_why(c, g, g->why, sizeof(g->why));
	} else if (g->ntrip) {
		g->code = BM_EXIT_GATE;
		snprintf(g->why, sizeof(g->why), "FAIL, exit %d: %zu headline %s%s", g->code,
			 g->ntrip, what, g->ntrip > 1 ? "s" : "");
	} else if (g->nundecided && g->realtime) {
		g->code = BM_EXIT_UNDECIDED;
		snprintf(g->why, sizeof(g->why), "UNDECIDED, exit %d: no headline %s, but %zu of %zu "
			 "tested headline rows could still hide one (boot more: bootmark ci "
			 "--max-boots)", g->code, what, g->nundecided, g->nheads - g->nuntested);
	} else {
		snprintf(g->why, sizeof(g->why), "pass: no headline %s (%zu headline rows tested%s)",
			 what, g->nheads - g->nuntested,
			 g->nundecided ? "; in virtual time, some not shown smaller than a change" : "");
	}
}

/* Headline rows as large as a change whose own p passes alpha but whose q
 * over the family does not (issue 46: "+46%, p = 0.007" passing the gate
 * reads as a bug unless it says why). */
static void near_misses(FILE *f, const struct bm_cmp *c)
{
	char t[256], d[256];
	size_t i, fam = 0, n = 0;

	for (i = 0; i < c->nrows; i++)
		fam += !isnan(c->rows[i].q);
	for (i = 0; i < c->nrows; i++) {
		const struct bm_cmp_row *r = &c->rows[i];

		if (!r->headline || !r->kidx || !r->big || r->sig || isnan(r->p_welch) ||
		    r->p_welch > c->rules.alpha || isnan(r->q))
			continue;
		if (n++ < 5)
			fprintf(f, "  %s: %s: p passes alpha %g, q over the %zu rows compared "
				"(Benjamini-Hochberg) does not: not a change\n",
				bm_cmp_group_name(t, sizeof(t), r), bm_cmp_delta(d, sizeof(d), r),
				c->rules.alpha, fam);
	}
	if (n > 5)
		fprintf(f, "  ... and %zu more such rows\n", n - 5);
}

void bm_gate_print(FILE *f, const struct bm_cmp *c, const struct bm_gate *g)
{
	char t[256], d[256];
	size_t i;

	if (g->mode == BM_GATE_OFF)
		return;
	fprintf(f, "gate (--fail-on %s): %s\n", bm_gate_modes[g->mode], g->why);
	if (g->nuntested && g->nuntested < g->nheads)
		fprintf(f, "  (%zu of %zu headline rows untested: n < 2 or no variance)\n",
			g->nuntested, g->nheads);
	for (i = 0; i < c->nentries; i++) {
		const struct bm_cmp_entry *e = &c->entries[i];

		if (!bm_gate_trips(e, g->mode))
			continue;
		bm_cmp_entry_title(t, sizeof(t), c, e);
		fprintf(f, "  %s: %s %s\n", t, bm_cmp_delta(d, sizeof(d), e->head),
			bm_cmp_verdict_word(e->head));
	}
	near_misses(f, c);
	if (g->code == BM_EXIT_UNDECIDED) {
		const struct bm_cmp_row *u[10];
		size_t n = undecided(c, g->mode, u, 10);
		double bound;

		for (i = 0; i < n && i < 10; i++) {
			bm_gate_row_cleared(c, u[i], g->mode, &bound);
			fprintf(f, "  %s: %s, undecided: could be %+.1f%% worse (%g%% bound; a change is "
				"%g%%)\n", bm_cmp_group_name(t, sizeof(t), u[i]),
				bm_cmp_delta(d, sizeof(d), u[i]), bound, 100 * (1 - c->rules.alpha),
				c->rules.min_change);
		}
		if (n > 10)
			fprintf(f, "  ... and %zu more\n", n - 10);
	}
}

void bm_gate_json(struct bm_json *j, const struct bm_cmp *c, const struct bm_gate *g)
{
	char grp[256];
	size_t i;

	bm_json_obj_begin(j);
	bm_json_kstr(j, "fail_on", bm_gate_modes[g->mode]);
	bm_json_kint(j, "exit", g->code);
	bm_json_kstr(j, "verdict", !g->code ? "pass" : g->code == BM_EXIT_GATE ? "fail" :
		     g->code == BM_EXIT_UNDECIDED ? "undecided" :
		     g->boot ? "boot-failed" : "no-verdict");
	bm_json_kstr(j, "why", g->why);
	bm_json_kint(j, "headline_rows", (long long)g->nheads);
	bm_json_kint(j, "headline_untested", (long long)g->nuntested);
	bm_json_kint(j, "headline_undecided", (long long)g->nundecided);
	bm_json_key(j, "realtime");
	bm_json_bool(j, g->realtime);
	bm_json_key(j, "failed_boot");
	if (g->boot) {
		bm_json_obj_begin(j);
		bm_json_kstr(j, "label", g->boot->label);
		bm_json_kstr(j, "status", bm_status_name(g->boot->r.status));
		bm_json_kstr(j, "why", g->boot->r.status_why);
		bm_json_obj_end(j);
	} else {
		bm_json_null(j);
	}
	bm_json_key(j, "tripped");
	bm_json_arr_begin(j);
	for (i = 0; i < c->nentries; i++) {
		const struct bm_cmp_entry *e = &c->entries[i];

		if (!bm_gate_trips(e, g->mode))
			continue;
		bm_json_obj_begin(j);
		bm_json_kstr(j, "group", bm_cmp_group_name(grp, sizeof(grp), e->head));
		bm_json_kstr(j, "kernel", c->kernels[e->head->kidx]);
		bm_json_kstr(j, "metric", e->head->metric);
		bm_json_kstr(j, "unit", e->head->unit);
		bm_json_knum(j, "center", e->head->center);
		bm_json_knum(j, "baseline_center", e->head->base_center);
		bm_json_knum(j, "change_pct", e->head->change);
		bm_json_knum(j, "p_welch", e->head->p_welch);
		bm_json_knum(j, "q_bh", e->head->q);
		bm_json_kstr(j, "verdict", bm_cmp_verdict_word(e->head));
		bm_json_obj_end(j);
	}
	bm_json_arr_end(j);
	bm_json_key(j, "undecided");
	bm_json_arr_begin(j);
	if (g->mode != BM_GATE_OFF) {
		const struct bm_cmp_row *u[64];
		size_t n = undecided(c, g->mode, u, 64);
		double bound;

		for (i = 0; i < n && i < 64; i++) {
			bm_gate_row_cleared(c, u[i], g->mode, &bound);
			bm_json_obj_begin(j);
			bm_json_kstr(j, "group", bm_cmp_group_name(grp, sizeof(grp), u[i]));
			bm_json_kstr(j, "kernel", c->kernels[u[i]->kidx]);
			bm_json_kstr(j, "metric", u[i]->metric);
			bm_json_knum(j, "change_pct", u[i]->change);
			bm_json_knum(j, "worse_bound_pct", bound);
			bm_json_obj_end(j);
		}
	}
	bm_json_arr_end(j);
	bm_json_obj_end(j);
}
