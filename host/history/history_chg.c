// SPDX-License-Identifier: MIT
/*
 * bootmark history changes: every series searched (history_cp.c), then one
 * decision over all of them with compare's rules (history.h,
 * bm_cp_decide): a history of 440 metrics tests hundreds of segments, and
 * at p <= 0.01 each a few would change by chance alone, so the q-values are
 * Benjamini-Hochberg's over the whole family, as compare's are.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "cmpstats.h"
#include "history.h"
#include "sha256.h"
#include "util.h"

static double side_mean(const struct bm_cp_series *s, size_t from, size_t to)
{
	double sum = 0;
	size_t i;

	for (i = s->off[from]; i < s->off[to]; i++)
		sum += s->x[i];
	return sum / (double)(s->off[to] - s->off[from]);
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/*
 * The series' resolution, in seconds for a time (0 for other units, and
 * when no two values differ): the smallest step between two of its values.
 * A CPU time from getrusage moves in clock ticks (4 ms at HZ=250), an
 * elapsed time in the microseconds the runner prints; a move of the means
 * smaller than that is below what the values can show, whatever its test
 * says.  It replaces compare's fixed 10 ms under --min-abs-time auto.
 */
static double resolution(const struct bm_cp_series *s, const char *unit)
{
	size_t n = s->off[s->nk], i;
	double scale = bm_cmp_time_scale(unit), *v, q = INFINITY;

	if (!(scale > 0) || n < 2 || !(v = malloc(n * sizeof(double))))
		return 0;
	memcpy(v, s->x, n * sizeof(double));
	qsort(v, n, sizeof(double), cmp_double);
	for (i = 1; i < n; i++)
		if (v[i] > v[i - 1] && v[i] - v[i - 1] < q)
			q = v[i] - v[i - 1];
	free(v);
	return isfinite(q) ? q * scale : 0;
}

static const struct bm_cp_test *sort_tests;

static int cmp_by_k(const void *x, const void *y)
{
	size_t a = sort_tests[*(const int *)x].k, b = sort_tests[*(const int *)y].k;

	return a < b ? -1 : a > b;
}

/* The kept tests of one series by position, into c; their number. */
static int kept(const struct bm_cp_result *r, const int *keep, int *c)
{
	int nc = 0;
	size_t j;

	for (j = 0; j < r->nt; j++)
		if (keep[j])
			c[nc++] = (int)j;
	sort_tests = r->t;
	qsort(c, (size_t)nc, sizeof(int), cmp_by_k);
	return nc;
}

/*
 * The reportable tests of one series, tested again between their
 * neighbours (the weakest above alpha goes, then all are tested again:
 * a split placed a few kernels off, whose true place a later split found,
 * goes here), then judged by size (the smallest move below compare's
 * minimum goes, then all are judged again).
 */
static int prune(const struct bm_cp_series *s, const struct bm_cp_result *r, const char *unit,
		 const struct bm_cmp_rules *rules, int *keep)
{
	int *c = malloc((r->nt + 1) * sizeof(int)), nc, i, pass;
	struct bm_cmp_rules own = *rules;

	if (!c)
		return -ENOMEM;
	if (own.min_abs_auto)
		own.min_abs_time = resolution(s, unit);
	for (pass = 0; pass < 2; pass++)
		while ((nc = kept(r, keep, c))) {
			int worst = -1;
			double worst_v = -INFINITY;

			for (i = 0; i < nc; i++) {
				size_t k = r->t[c[i]].k, a = i ? r->t[c[i - 1]].k : 0;
				size_t b = i + 1 < nc ? r->t[c[i + 1]].k : s->nk;
				double ml = side_mean(s, a, k), mr = side_mean(s, k, b), v;

				if (pass == 0) {
					v = bm_cp_test_at(s, a, k, b);
					if (!(v > rules->alpha))
						continue;
				} else {
					if (bm_cmp_big_change(ml, mr, unit, &own))
						continue;
					v = ml != 0 ? -fabs(mr - ml) / fabs(ml) : -INFINITY;
				}
				if (worst < 0 || v > worst_v) {
					worst = i;
					worst_v = v;
				}
			}
			if (worst < 0)
				break;
			keep[c[worst]] = 0;
		}
	free(c);
	return 0;
}

int bm_cp_decide(const struct bm_cp_series *s, const struct bm_cp_result *r, size_t n,
		 const struct bm_cmp_rules *rules, const char *const *units,
		 struct bm_cp_decision *d)
{
	size_t i, j, total = 0, at = 0, m;
	double *p = NULL, *q = NULL;
	int rc = -ENOMEM;

	memset(d, 0, n * sizeof(*d));
	for (i = 0; i < n; i++)
		total += r[i].nt;
	p = calloc(total + 1, sizeof(*p));
	q = calloc(total + 1, sizeof(*q));
	if (!p || !q)
		goto out_free;
	/* a run's far end is no test of its own */
	for (i = 0; i < n; i++)
		for (j = 0; j < r[i].nt; j++)
			if (r[i].t[j].twin < 0)
				p[at++] = r[i].t[j].p;
	if ((rc = bm_bh_qvalues(p, at, q, &m)))
		goto out_free;
	for (i = 0, at = 0; i < n && !rc; i++) {
		d[i].q = malloc((r[i].nt + 1) * sizeof(double));
		d[i].keep = calloc(r[i].nt + 1, sizeof(int));
		if (!d[i].q || !d[i].keep) {
			rc = -ENOMEM;
			break;
		}
		for (j = 0; j < r[i].nt; j++)
			d[i].q[j] = r[i].t[j].twin < 0 ? q[at++] : d[i].q[r[i].t[j].twin];
		/* tests come after their parents (a far end after its run): each
		 * inherits its parent's verdict */
		for (j = 0; j < r[i].nt; j++) {
			int par = r[i].t[j].parent;

			if (r[i].t[j].twin >= 0)
				d[i].keep[j] = d[i].keep[r[i].t[j].twin];
			else
				d[i].keep[j] = d[i].q[j] <= rules->alpha && r[i].t[j].split &&
					       (par < 0 || d[i].keep[par]);
		}
		rc = prune(&s[i], &r[i], units[i], rules, d[i].keep);
	}
out_free:
	free(p);
	free(q);
	if (rc)
		bm_cp_decision_free(d, n);
	return rc;
}

void bm_cp_decision_free(struct bm_cp_decision *d, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(d[i].q);
		free(d[i].keep);
		d[i].q = NULL;
		d[i].keep = NULL;
	}
}

/* --- from the history's series ------------------------------------------- */

struct work {
	struct bm_cp_series *s;
	struct bm_cp_result *r;
	struct bm_cp_decision *dec;
	const char **units;
	size_t **off;
	double **x;
	int **kpos;               /* series kernel index -> kernel position */
	size_t n;
};

/* The values of series s, kernel after kernel, as the search takes them. */
static int series_values(const struct bm_hist_series *hs, double **x, size_t **off, int **kpos,
			 struct bm_cp_series *s)
{
	size_t i, nk = 0;

	*x = malloc((hs->npt + 1) * sizeof(double));
	*off = malloc((hs->npt + 2) * sizeof(size_t));
	*kpos = malloc((hs->npt + 1) * sizeof(int));
	if (!*x || !*off || !*kpos)
		return -ENOMEM;
	for (i = 0; i < hs->npt; i++) {
		if (!i || hs->pt[i].kpos != hs->pt[i - 1].kpos) {
			(*off)[nk] = i;
			(*kpos)[nk++] = hs->pt[i].kpos;
		}
		(*x)[i] = hs->pt[i].v;
	}
	(*off)[nk] = hs->npt;
	*s = (struct bm_cp_series){ .x = *x, .off = *off, .nk = nk };
	return 0;
}

static void work_free(struct work *w)
{
	size_t i;

	if (w->dec)
		bm_cp_decision_free(w->dec, w->n);
	for (i = 0; i < w->n; i++) {
		if (w->r)
			bm_cp_result_free(&w->r[i]);
		if (w->x)
			free(w->x[i]);
		if (w->off)
			free(w->off[i]);
		if (w->kpos)
			free(w->kpos[i]);
	}
	free(w->s);
	free(w->r);
	free(w->dec);
	free(w->units);
	free(w->x);
	free(w->off);
	free(w->kpos);
}

/* 8 hex digits naming the change: its series and its two kernels. */
static void change_id(const struct bm_hist_data *d, const struct bm_hist_series *s, int before,
		      int after, char id[9])
{
	char key[2048], hex[65], m[256];
	const struct bm_hist_profile *p = s->profile >= 0 ? &d->profiles[s->profile] : NULL;

	snprintf(key, sizeof(key), "%s|%s|%s|%s|%s|%s|%s|%s|%s|%s",
		 bm_hist_metric_name(m, sizeof(m), &d->metrics[s->metric]),
		 d->metrics[s->metric].unit, p ? p->fs : "*", p ? p->mkfs : "*", p ? p->mount : "*",
		 s->host ? s->host : "*", s->suite ? s->suite : "*", s->method ? s->method : "*",
		 bm_hist_kernel_at(d, before)->name, bm_hist_kernel_at(d, after)->name);
	bm_sha256_hex(key, strlen(key), hex);
	memcpy(id, hex, 8);
	id[8] = '\0';
}

static void side(const struct bm_cp_series *s, const int *kpos, size_t a, size_t b,
		 struct bm_hist_side *sd)
{
	sd->from = kpos[a];
	sd->to = kpos[b - 1];
	bm_summarize(s->x + s->off[a], s->off[b] - s->off[a], &sd->s);
}

static int add_change(struct bm_hist_changes *out, const struct bm_hist_data *d, size_t si,
		      const struct work *w, size_t j, size_t a, size_t b)
{
	const struct bm_cp_test *t = &w->r[si].t[j];
	const struct bm_hist_metric *m = &d->metrics[d->series[si].metric];
	struct bm_hist_change *c;
	enum bm_cmp_dir dir = bm_cmp_direction(m->wl, m->name, m->unit);
	void *nc = realloc(out->c, (out->n + 1) * sizeof(*out->c));

	if (!nc)
		return -ENOMEM;
	out->c = nc;
	c = &out->c[out->n++];
	memset(c, 0, sizeof(*c));
	c->series = (int)si;
	c->before = w->kpos[si][t->k - 1];
	c->after = w->kpos[si][t->k];
	side(&w->s[si], w->kpos[si], a, t->k, &c->l);
	side(&w->s[si], w->kpos[si], t->k, b, &c->r);
	c->change = c->l.s.mean != 0 ? (c->r.s.mean - c->l.s.mean) / fabs(c->l.s.mean) * 100 : NAN;
	c->verdict = dir == BM_DIR_NONE ? 0 :
		     (c->r.s.mean > c->l.s.mean) == (dir == BM_DIR_HIGHER) ? 1 : -1;
	c->p = t->p;
	c->q = w->dec[si].q[j];
	change_id(d, &d->series[si], c->before, c->after, c->id);
	out->regressions += c->verdict < 0;
	out->improvements += c->verdict > 0;
	return 0;
}

/* The changes of series si in position order, each between its neighbours. */
static int collect(struct bm_hist_changes *out, const struct bm_hist_data *d, size_t si,
		   const struct work *w)
{
	const struct bm_cp_result *r = &w->r[si];
	int *c = malloc((r->nt + 1) * sizeof(int)), nc = 0, i, rc = 0;
	size_t j;

	if (!c)
		return -ENOMEM;
	for (j = 0; j < r->nt; j++)
		if (w->dec[si].keep[j])
			c[nc++] = (int)j;
	sort_tests = r->t;
	qsort(c, (size_t)nc, sizeof(int), cmp_by_k);
	for (i = 0; i < nc && !rc; i++)
		rc = add_change(out, d, si, w, (size_t)c[i], i ? r->t[c[i - 1]].k : 0,
				i + 1 < nc ? r->t[c[i + 1]].k : w->s[si].nk);
	free(c);
	return rc;
}

/* Series si's kernels to boot again, by kernel position, into want. */
static int want_of(const struct bm_hist_data *d, const struct bm_cmp_rules *rules,
		   const struct bm_cp_confirm *cf, const struct work *w, size_t si,
		   unsigned char *want)
{
	unsigned char *k = calloc(w->s[si].nk + 1, 1);

	if (!k)
		return -ENOMEM;
	bm_cp_confirm_want(&w->s[si], &w->r[si], &w->dec[si], cf, rules, w->units[si], k);
	for (size_t i = 0; i < w->s[si].nk; i++)
		want[si * d->nkernels + (size_t)w->kpos[si][i]] |= k[i];
	free(k);
	return 0;
}

int bm_hist_changes_want(const struct bm_hist_data *d, const struct bm_cmp_rules *rules,
			 const struct bm_cp_confirm *cf, struct bm_hist_changes *out,
			 unsigned char *want)
{
	struct work w = { .n = d->nseries };
	size_t i;
	int rc = -ENOMEM;

	memset(out, 0, sizeof(*out));
	out->rules = *rules;
	out->nseries = d->nseries;
	w.s = calloc(w.n + 1, sizeof(*w.s));
	w.r = calloc(w.n + 1, sizeof(*w.r));
	w.dec = calloc(w.n + 1, sizeof(*w.dec));
	w.units = calloc(w.n + 1, sizeof(*w.units));
	w.x = calloc(w.n + 1, sizeof(*w.x));
	w.off = calloc(w.n + 1, sizeof(*w.off));
	w.kpos = calloc(w.n + 1, sizeof(*w.kpos));
	if (!w.s || !w.r || !w.dec || !w.units || !w.x || !w.off || !w.kpos)
		goto out_free;
	for (i = 0; i < w.n; i++) {
		w.units[i] = d->metrics[d->series[i].metric].unit;
		if ((rc = series_values(&d->series[i], &w.x[i], &w.off[i], &w.kpos[i], &w.s[i])) ||
		    (rc = bm_cp_search(&w.s[i], rules->alpha, &w.r[i])))
			goto out_free;
		for (size_t j = 0; j < w.r[i].nt; j++)
			out->ntested += w.r[i].t[j].twin < 0;
	}
	if ((rc = bm_cp_decide(w.s, w.r, w.n, rules, w.units, w.dec)))
		goto out_free;
	for (i = 0; i < w.n && !rc; i++)
		rc = collect(out, d, i, &w);
	for (i = 0; cf && i < w.n && !rc; i++)
		rc = want_of(d, rules, cf, &w, i, want);
out_free:
	work_free(&w);
	if (rc)
		bm_hist_changes_free(out);
	return rc;
}

int bm_hist_changes(const struct bm_hist_data *d, const struct bm_cmp_rules *rules,
		    struct bm_hist_changes *out)
{
	return bm_hist_changes_want(d, rules, NULL, out, NULL);
}

void bm_hist_changes_free(struct bm_hist_changes *c)
{
	free(c->c);
	c->c = NULL;
	c->n = 0;
}

int bm_hist_changes_verdicts(struct bm_hist *h, struct bm_hist_changes *c)
{
	sqlite3_stmt *st;
	size_t i;
	int rc;

	if (sqlite3_prepare_v2(h->db, "SELECT result, first_bad, out FROM bisections "
			       "WHERE change = ?1", -1, &st, NULL) != SQLITE_OK) {
		bm_msg("%s: cannot read the bisections: %s", h->path, sqlite3_errmsg(h->db));
		return -EIO;
	}
	for (i = 0; i < c->n; i++) {
		struct bm_hist_change *x = &c->c[i];

		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, x->id, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			snprintf(x->bisect_end, sizeof(x->bisect_end), "%s", sqlite3_column_text(st, 0));
			snprintf(x->bisect_first, sizeof(x->bisect_first), "%s",
				 sqlite3_column_text(st, 1));
			snprintf(x->bisect_out, sizeof(x->bisect_out), "%s", sqlite3_column_text(st, 2));
		} else if (rc != SQLITE_DONE) {
			bm_msg("%s: cannot read the bisections: %s", h->path, sqlite3_errmsg(h->db));
			sqlite3_finalize(st);
			return -EIO;
		}
	}
	sqlite3_finalize(st);
	return 0;
}
