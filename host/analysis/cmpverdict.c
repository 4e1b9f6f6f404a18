// SPDX-License-Identifier: MIT
/*
 * What "bootmark compare" calls a change, and its summary (compare.h;
 * rules in docs/results.md, "Comparing kernels").  A smoke run tests
 * hundreds of (test, metric) rows against the baseline: at p < 0.01 each,
 * a few are "significant" by chance alone, and many more are real but
 * meaningless (4 ms of process CPU time against 14 us is +28000%).  So the
 * p-values are adjusted for the whole family (Benjamini-Hochberg), a change
 * must be large enough to matter, and each test is judged by its headline
 * metric, its other metrics only explaining it.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "headline.h"
#include "util.h"

/* "0.01", "5", "5%", "10ms": a number >= 0 and one of the suffixes (with
 * their scales); 0 or -EINVAL. */
static int parse_num(const char *s, const char *const *suffix, const double *scale, double *v)
{
	char *end;
	int i;

	errno = 0;
	*v = strtod(s, &end);
	if (errno || end == s || !isfinite(*v) || *v < 0)
		return -EINVAL;
	for (i = 0; suffix[i]; i++)
		if (!strcmp(end, suffix[i])) {
			*v *= scale[i];
			return 0;
		}
	return -EINVAL;
}

int bm_cmp_parse_rules(const struct bm_cmp_rule_text *t, struct bm_cmp_rules *r, int auto_ok)
{
	static const char *const none[] = { "", NULL }, *const pct[] = { "", "%", NULL };
	static const char *const times[] = { "", "s", "ms", "us", NULL };
	static const double one[] = { 1, 1 }, tscale[] = { 1, 1, 1e-3, 1e-6 };

	if (parse_num(t->alpha, none, one, &r->alpha) || !(r->alpha > 0 && r->alpha < 1)) {
		bm_msg("bad --alpha '%s': want a number between 0 and 1, e.g. 0.01", t->alpha);
		return -EINVAL;
	}
	if (parse_num(t->min_change, pct, one, &r->min_change)) {
		bm_msg("bad --min-change '%s': want a percentage >= 0, e.g. 5", t->min_change);
		return -EINVAL;
	}
	r->min_abs_auto = 0;
	if (auto_ok && !strcmp(t->min_abs_time, "auto")) {
		r->min_abs_auto = 1;
		r->min_abs_time = 0;
	} else if (parse_num(t->min_abs_time, times, tscale, &r->min_abs_time)) {
		bm_msg("bad --min-abs-time '%s': want a time >= 0 in s, ms or us, e.g. 10ms%s",
		       t->min_abs_time, auto_ok ? ", or auto" : "");
		return -EINVAL;
	}
	return 0;
}

/* Seconds per unit of the metrics that are durations of a whole test
 * (elapsed, user, system and process CPU time); per-request latencies in
 * ms, us or ns are not: a 10 ms floor would hide every change of them. */
double bm_cmp_time_scale(const char *unit)
{
	return !strcmp(unit, "s") ? 1 : !strcmp(unit, "min") ? 60 : 0;
}

int bm_cmp_big_change(double base, double center, const char *unit,
		      const struct bm_cmp_rules *ru)
{
	double d = center - base, scale = bm_cmp_time_scale(unit);

	if (!isfinite(d) || d == 0)
		return 0;
	/* a baseline centered on 0 has no relative change: any is large */
	if (base != 0 && fabs(d) / fabs(base) * 100 < ru->min_change)
		return 0;
	return !(scale > 0 && fabs(d) * scale < ru->min_abs_time);
}

static int big_enough(const struct bm_cmp_row *r, const struct bm_cmp_rules *ru)
{
	return bm_cmp_big_change(r->base_center, r->center, r->unit, ru);
}

static int same_group(const struct bm_cmp_row *a, const struct bm_cmp_row *b)
{
	return a->kidx == b->kidx && !strcmp(a->wl, b->wl) && !strcmp(a->test, b->test) &&
	       !strcmp(a->fs, b->fs);
}

/* q-values over the family, then each row's decision. */
static int decide_rows(struct bm_cmp *c)
{
	double *p, *q;
	size_t i;
	int rc = -ENOMEM;

	p = calloc(c->nrows + 1, sizeof(*p));
	q = calloc(c->nrows + 1, sizeof(*q));
	if (!p || !q)
		goto out_free;
	for (i = 0; i < c->nrows; i++)
		p[i] = c->rows[i].p_welch;
	if ((rc = bm_bh_qvalues(p, c->nrows, q, &c->ntested)))
		goto out_free;
	c->nuntested = 0;
	for (i = 0; i < c->nrows; i++) {
		struct bm_cmp_row *r = &c->rows[i];
		const char *h = bm_headline_metric(r->wl);

		r->q = q[i];
		r->headline = h && !strcmp(h, r->metric);
		if (r->kidx && isnan(r->q))
			c->nuntested++;
		r->sig = r->q <= c->rules.alpha;
		r->big = r->kidx && big_enough(r, &c->rules);
		r->changed = r->sig && r->big;
		r->verdict = 0;
		if (r->changed && r->dir != BM_DIR_NONE)
			r->verdict = (r->change > 0 || (isnan(r->change) && r->center > r->base_center)) ==
				     (r->dir == BM_DIR_HIGHER) ? 1 : -1;
	}
out_free:
	free(p);
	free(q);
	return rc;
}

/* Group numbers in order of first appearance; returns how many. */
static int number_groups(struct bm_cmp *c)
{
	size_t i, j;
	int n = 0;

	for (i = 0; i < c->nrows; i++) {
		for (j = 0; j < i && !same_group(&c->rows[j], &c->rows[i]); j++)
			;
		c->rows[i].group = j < i ? c->rows[j].group : n++;
	}
	return n;
}

static enum bm_cmp_kind group_kind(const struct bm_cmp_row *head, size_t nsec)
{
	if (head && head->verdict < 0)
		return BM_KIND_REGRESSION;
	if (head && head->verdict > 0)
		return BM_KIND_IMPROVEMENT;
	return nsec || (head && head->changed) ? BM_KIND_OTHER : (enum bm_cmp_kind)-1;
}

/* Adds group g as an entry if it is of kind k. */
static void add_entry(struct bm_cmp *c, int g, enum bm_cmp_kind k)
{
	const struct bm_cmp_row *head = NULL;
	struct bm_cmp_entry *e = &c->entries[c->nentries];
	size_t i, first = 0, nsec = 0;

	for (i = 0; i < c->nrows; i++) {
		const struct bm_cmp_row *r = &c->rows[i];

		if (r->group != g)
			continue;
		if (r->kidx == 0)
			return;
		if (r->headline)
			head = r;
		else if (r->changed)
			nsec++;
	}
	if (group_kind(head, nsec) != k)
		return;
	for (i = 0; i < c->nentries; i++)
		first += c->entries[i].nsec;
	*e = (struct bm_cmp_entry){ .kind = k, .head = head, .sec = c->secs + first };
	for (i = 0; i < c->nrows; i++)
		if (c->rows[i].group == g && !c->rows[i].headline && c->rows[i].changed)
			e->sec[e->nsec++] = &c->rows[i];
	c->nentries++;
}

int bm_cmp_decide(struct bm_cmp *c)
{
	int rc, ng, g, k;

	if ((rc = decide_rows(c)))
		return rc;
	ng = number_groups(c);
	c->entries = calloc((size_t)ng + 1, sizeof(*c->entries));
	c->secs = calloc(c->nrows + 1, sizeof(*c->secs));
	if (!c->entries || !c->secs)
		return -ENOMEM;
	for (k = BM_KIND_REGRESSION; k <= BM_KIND_OTHER; k++)
		for (g = 0; g < ng; g++)
			add_entry(c, g, (enum bm_cmp_kind)k);
	return 0;
}

const char *bm_cmp_group_name(char *buf, size_t len, const struct bm_cmp_row *r)
{
	snprintf(buf, len, "%s/%s/%s", r->wl, r->test, r->fs);
	return buf;
}

void bm_cmp_rules_line(char *buf, size_t len, const struct bm_cmp *c)
{
	const struct bm_cmp_rules *r = &c->rules;
	double t = r->min_abs_time;

	snprintf(buf, len, "a change is Benjamini-Hochberg q <= %g over the %zu Welch tests against "
		 "the baseline (%zu more rows untested: n < 2 or no variance), |change| >= %g%% and, "
		 "for times in s, >= %g %s", r->alpha, c->ntested, c->nuntested, r->min_change,
		 t >= 1 || t == 0 ? t : t >= 1e-3 ? t * 1e3 : t * 1e6,
		 t >= 1 || t == 0 ? "s" : t >= 1e-3 ? "ms" : "us");
}
