// SPDX-License-Identifier: MIT
/* history series and history changes as text, CSV and JSON (history.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "history.h"
#include "json.h"
#include "schema.h"
#include "text.h"

const char *bm_hist_verdict_word(int verdict)
{
	return verdict < 0 ? "worse" : verdict > 0 ? "better" : "changed";
}

void bm_hist_series_title(char *buf, size_t len, const struct bm_hist_data *d,
			  const struct bm_hist_series *s)
{
	const struct bm_hist_metric *m = &d->metrics[s->metric];
	char name[256];

	snprintf(buf, len, "%s (%s) on %s, host %s, suite %s, %s",
		 bm_hist_metric_name(name, sizeof(name), m), m->unit,
		 s->profile >= 0 ? d->profiles[s->profile].fs : "any profile",
		 s->host ? s->host : "any", s->suite ? s->suite : "any",
		 s->method ? s->method : "any method");
}

/* Per kernel of a series: its values' summary and how many boots gave them. */
struct krow {
	int pos, boots;
	struct bm_summary s;
};

static size_t kernel_rows(const struct bm_hist_series *s, struct krow *rows, double *buf)
{
	size_t i, j, n = 0;

	for (i = 0; i < s->npt; i = j) {
		int boots = 0;

		for (j = i; j < s->npt && s->pt[j].kpos == s->pt[i].kpos; j++) {
			buf[j - i] = s->pt[j].v;
			boots += j == i || s->pt[j].boot != s->pt[j - 1].boot;
		}
		rows[n].pos = s->pt[i].kpos;
		rows[n].boots = boots;
		bm_summarize(buf, j - i, &rows[n].s);
		n++;
	}
	return n;
}

static void fmt_num(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.6g", v);
}

static void csv_text(FILE *f, const char *s, int last)
{
	bm_csv_field(f, s ? s : "");
	fputc(last ? '\n' : ',', f);
}

static void csv_num(FILE *f, double v, int last)
{
	char b[40] = "";

	if (!isnan(v))
		bm_fmt_double(b, sizeof(b), v);
	fprintf(f, "%s%c", b, last ? '\n' : ',');
}

static void series_json_head(struct bm_json *j, const struct bm_hist_data *d,
			     const struct bm_hist_series *s)
{
	const struct bm_hist_metric *m = &d->metrics[s->metric];
	const struct bm_hist_profile *p = s->profile >= 0 ? &d->profiles[s->profile] : NULL;
	char name[256];

	bm_json_kstr(j, "metric", bm_hist_metric_name(name, sizeof(name), m));
	bm_json_kstr(j, "unit", m->unit);
	bm_json_kstr(j, "fs", p ? p->fs : "*");
	bm_json_kstr(j, "mkfs", p ? p->mkfs : "*");
	bm_json_kstr(j, "mount", p ? p->mount : "*");
	bm_json_kstr(j, "host", s->host ? s->host : "*");
	bm_json_kstr(j, "suite", s->suite ? s->suite : "*");
	bm_json_kstr(j, "method", s->method ? s->method : "*");
}

void bm_hist_print_series(FILE *f, const struct bm_hist_data *d, enum bm_hist_fmt fmt)
{
	struct bm_json j;
	size_t i, k, n, maxpt = 1;
	struct krow *rows;
	double *buf;
	char t[512], a[40], b[40], c[40], e[40];

	for (i = 0; i < d->nseries; i++)
		maxpt = d->series[i].npt > maxpt ? d->series[i].npt : maxpt;
	rows = calloc(maxpt, sizeof(*rows));
	buf = calloc(maxpt, sizeof(*buf));
	if (!rows || !buf)
		goto out_free;
	if (fmt == BM_HIST_JSON) {
		bm_json_init(&j, f, 1);
		bm_json_obj_begin(&j);
		bm_json_kstr(&j, "schema", BM_SCHEMA_HSERIES);
		bm_json_kint(&j, "version", 1);
		bm_json_key(&j, "series");
		bm_json_arr_begin(&j);
	} else if (fmt == BM_HIST_CSV) {
		fprintf(f, "metric,unit,fs,mkfs,mount,host,suite,method,position,kernel,boots,n,"
			   "mean,cov_pct,min,max\n");
	}
	for (i = 0; i < d->nseries; i++) {
		const struct bm_hist_series *s = &d->series[i];
		const struct bm_hist_profile *p = s->profile >= 0 ? &d->profiles[s->profile] : NULL;

		n = kernel_rows(s, rows, buf);
		if (fmt == BM_HIST_JSON) {
			bm_json_obj_begin(&j);
			series_json_head(&j, d, s);
			bm_json_key(&j, "kernels");
			bm_json_arr_begin(&j);
			for (k = 0; k < n; k++) {
				bm_json_obj_begin(&j);
				bm_json_kint(&j, "position", rows[k].pos);
				bm_json_kstr(&j, "kernel", bm_hist_kernel_at(d, rows[k].pos)->name);
				bm_json_kint(&j, "boots", rows[k].boots);
				bm_json_kint(&j, "n", (long long)rows[k].s.n);
				bm_json_knum(&j, "mean", rows[k].s.mean);
				bm_json_knum(&j, "cov_pct", rows[k].s.cov * 100);
				bm_json_knum(&j, "min", rows[k].s.min);
				bm_json_knum(&j, "max", rows[k].s.max);
				bm_json_obj_end(&j);
			}
			bm_json_arr_end(&j);
			bm_json_kint(&j, "left_out", s->nexcl);
			bm_json_kstr(&j, "left_out_classes", s->excl);
			bm_json_obj_end(&j);
			continue;
		}
		if (fmt == BM_HIST_CSV) {
			char name[256];

			for (k = 0; k < n; k++) {
				csv_text(f, bm_hist_metric_name(name, sizeof(name), &d->metrics[s->metric]), 0);
				csv_text(f, d->metrics[s->metric].unit, 0);
				csv_text(f, p ? p->fs : "*", 0);
				csv_text(f, p ? p->mkfs : "*", 0);
				csv_text(f, p ? p->mount : "*", 0);
				csv_text(f, s->host ? s->host : "*", 0);
				csv_text(f, s->suite ? s->suite : "*", 0);
				csv_text(f, s->method ? s->method : "*", 0);
				fprintf(f, "%d,", rows[k].pos);
				csv_text(f, bm_hist_kernel_at(d, rows[k].pos)->name, 0);
				fprintf(f, "%d,%zu,", rows[k].boots, rows[k].s.n);
				csv_num(f, rows[k].s.mean, 0);
				csv_num(f, rows[k].s.cov * 100, 0);
				csv_num(f, rows[k].s.min, 0);
				csv_num(f, rows[k].s.max, 1);
			}
			continue;
		}
		bm_hist_series_title(t, sizeof(t), d, s);
		fprintf(f, "%s%s\n", i ? "\n" : "", t);
		if (p)
			fprintf(f, "  mkfs: %s; mount: %s\n", p->mkfs, p->mount);
		fprintf(f, "  %-36s %5s %5s %12s %8s %12s %12s\n", "kernel", "boots", "n", "mean",
			"cov%", "min", "max");
		for (k = 0; k < n; k++) {
			fmt_num(a, sizeof(a), rows[k].s.mean);
			if (rows[k].s.n > 1 && !isnan(rows[k].s.cov))
				snprintf(b, sizeof(b), "%.2f", rows[k].s.cov * 100);
			else
				snprintf(b, sizeof(b), "-");
			fmt_num(c, sizeof(c), rows[k].s.min);
			fmt_num(e, sizeof(e), rows[k].s.max);
			fprintf(f, "  %-36s %5d %5zu %12.12s %8.8s %12.12s %12.12s\n",
				bm_hist_kernel_at(d, rows[k].pos)->name, rows[k].boots, rows[k].s.n, a, b,
				c, e);
		}
		if (s->nexcl)
			fprintf(f, "  left out: %d boot%s that did not complete (%s)\n", s->nexcl,
				s->nexcl == 1 ? "" : "s", s->excl);
	}
	if (fmt == BM_HIST_JSON) {
		bm_json_arr_end(&j);
		bm_json_obj_end(&j);
		fputc('\n', f);
	} else if (fmt == BM_HIST_TEXT && !d->nseries) {
		fprintf(f, "no series: the history has the metric, but no completed boot of it "
			   "matches the filters given (--fs, --host, --suite, --method)\n");
	}
out_free:
	free(rows);
	free(buf);
}

/* --- changes ------------------------------------------------------------------ */

static void rules_line(FILE *f, const struct bm_hist_changes *c)
{
	const struct bm_cmp_rules *r = &c->rules;
	double t = r->min_abs_time;

	fprintf(f, "%zu series searched, %zu segments tested; a change is Benjamini-Hochberg "
		"q <= %g over those tests, |change| >= %g%% of the mean before and, for times in "
		"s, >= ", c->nseries, c->ntested, r->alpha, r->min_change);
	if (r->min_abs_auto)
		fprintf(f, "the series' resolution (the smallest step between two of its values)");
	else
		fprintf(f, "%g %s", t >= 1 || t == 0 ? t : t >= 1e-3 ? t * 1e3 : t * 1e6,
			t >= 1 || t == 0 ? "s" : t >= 1e-3 ? "ms" : "us");
	fprintf(f, " (compare's rules)\n");
}

static const char *side_text(char *buf, size_t len, const struct bm_hist_data *d,
			     const struct bm_hist_side *s)
{
	char m[40], v[40];

	bm_cmp_num(m, sizeof(m), s->s.mean);
	bm_cmp_num(v, sizeof(v), s->s.n > 1 ? s->s.cov * 100 : NAN);
	if (s->from == s->to)
		snprintf(buf, len, "%s: mean %s, CoV %s%%, n %zu", bm_hist_kernel_at(d, s->from)->name,
			 m, v, s->s.n);
	else
		snprintf(buf, len, "%s .. %s: mean %s, CoV %s%%, n %zu",
			 bm_hist_kernel_at(d, s->from)->name, bm_hist_kernel_at(d, s->to)->name, m, v,
			 s->s.n);
	return buf;
}

static void text_change(FILE *f, const struct bm_hist_data *d, const struct bm_hist_change *c)
{
	const struct bm_hist_series *s = &d->series[c->series];
	char t[512], a[40], b[40], p[40], q[40], l[600], r[600];

	bm_hist_series_title(t, sizeof(t), d, s);
	bm_cmp_num(a, sizeof(a), c->l.s.mean);
	bm_cmp_num(b, sizeof(b), c->r.s.mean);
	bm_cmp_pval(p, sizeof(p), c->p);
	bm_cmp_pval(q, sizeof(q), c->q);
	fprintf(f, "  [%s] %s\n", c->id, t);
	fprintf(f, "      %s -> %s: %s -> %s %s (%+.2f%%, %s), p=%s, q=%s\n",
		bm_hist_kernel_at(d, c->before)->name, bm_hist_kernel_at(d, c->after)->name, a, b,
		d->metrics[s->metric].unit, c->change, bm_hist_verdict_word(c->verdict), p, q);
	fprintf(f, "      before %s\n      after  %s\n", side_text(l, sizeof(l), d, &c->l),
		side_text(r, sizeof(r), d, &c->r));
	if (c->bisect_end[0])
		fprintf(f, "      bisected: %s%s%s (%s)\n", c->bisect_end,
			c->bisect_first[0] ? ", first bad " : "", c->bisect_first, c->bisect_out);
}

/*
 * The boots no series holds because they did not complete: counted by class
 * into buf ("2 protocol-error"), the first of them into *first.  A boot
 * whose values are no measurements is one of them (protocol-error, its reason
 * naming the value): a step to such a value is never searched, and the
 * changes say so instead of passing over it.  Returns their number.
 */
static int left_out(const struct bm_hist_data *d, char *buf, size_t len,
		    const struct bm_hist_boot **first)
{
	const char *cls[16];
	int cnt[16], ncls = 0, n = 0, i;
	size_t b, o = 0;

	*first = NULL;
	buf[0] = '\0';
	for (b = 0; b < d->nboots; b++) {
		const struct bm_hist_boot *x = &d->boots[b];

		if (x->completed)
			continue;
		n++;
		*first = *first ? *first : x;
		for (i = 0; i < ncls && strcmp(cls[i], x->cls); i++)
			;
		if (i == ncls && ncls < 16) {
			cls[ncls] = x->cls;
			cnt[ncls++] = 0;
		}
		if (i < ncls)
			cnt[i]++;
	}
	for (i = 0; i < ncls && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%d %s", i ? ", " : "", cnt[i], cls[i]);
	return n;
}

static void text(FILE *f, const struct bm_hist_data *d, const struct bm_hist_changes *c)
{
	static const char *const heads[] = { "Regressions", "Improvements",
					     "Other changes (the metric has no better direction)" };
	static const int want[] = { -1, 1, 0 };
	size_t i;
	int h, any;

	const struct bm_hist_boot *first;
	char classes[256];
	int nout;

	rules_line(f, c);
	nout = left_out(d, classes, sizeof(classes), &first);
	if (nout) {
		fprintf(f, "left out: %d boot%s that did not complete (%s), first %s: ", nout,
			nout == 1 ? "" : "s", classes, first->label);
		bm_text_fput(f, first->why, strlen(first->why), 0);  /* the guest's words */
		fputc('\n', f);
	}
	fprintf(f, "%zu change%s: %d regression%s, %d improvement%s\n", c->n, c->n == 1 ? "" : "s",
		c->regressions, c->regressions == 1 ? "" : "s", c->improvements,
		c->improvements == 1 ? "" : "s");
	for (h = 0; h < 3; h++) {
		fprintf(f, "\n%s:\n", heads[h]);
		for (i = 0, any = 0; i < c->n; i++)
			if (c->c[i].verdict == want[h]) {
				text_change(f, d, &c->c[i]);
				any = 1;
			}
		if (!any)
			fprintf(f, "  none\n");
	}
}

static void csv_changes(FILE *f, const struct bm_hist_data *d, const struct bm_hist_changes *c)
{
	size_t i;
	char name[256];

	fprintf(f, "id,metric,unit,fs,mkfs,mount,host,suite,method,before,after,before_first,"
		   "after_last,mean_before,cov_before_pct,n_before,mean_after,cov_after_pct,n_after,"
		   "change_pct,verdict,p,q,bisect_result,bisect_first_bad\n");
	for (i = 0; i < c->n; i++) {
		const struct bm_hist_change *x = &c->c[i];
		const struct bm_hist_series *s = &d->series[x->series];
		const struct bm_hist_profile *p = s->profile >= 0 ? &d->profiles[s->profile] : NULL;

		csv_text(f, x->id, 0);
		csv_text(f, bm_hist_metric_name(name, sizeof(name), &d->metrics[s->metric]), 0);
		csv_text(f, d->metrics[s->metric].unit, 0);
		csv_text(f, p ? p->fs : "*", 0);
		csv_text(f, p ? p->mkfs : "*", 0);
		csv_text(f, p ? p->mount : "*", 0);
		csv_text(f, s->host ? s->host : "*", 0);
		csv_text(f, s->suite ? s->suite : "*", 0);
		csv_text(f, s->method ? s->method : "*", 0);
		csv_text(f, bm_hist_kernel_at(d, x->before)->name, 0);
		csv_text(f, bm_hist_kernel_at(d, x->after)->name, 0);
		csv_text(f, bm_hist_kernel_at(d, x->l.from)->name, 0);
		csv_text(f, bm_hist_kernel_at(d, x->r.to)->name, 0);
		csv_num(f, x->l.s.mean, 0);
		csv_num(f, x->l.s.n > 1 ? x->l.s.cov * 100 : NAN, 0);
		fprintf(f, "%zu,", x->l.s.n);
		csv_num(f, x->r.s.mean, 0);
		csv_num(f, x->r.s.n > 1 ? x->r.s.cov * 100 : NAN, 0);
		fprintf(f, "%zu,", x->r.s.n);
		csv_num(f, x->change, 0);
		csv_text(f, bm_hist_verdict_word(x->verdict), 0);
		csv_num(f, x->p, 0);
		csv_num(f, x->q, 0);
		csv_text(f, x->bisect_end, 0);
		csv_text(f, x->bisect_first, 1);
	}
}

static void json_side(struct bm_json *j, const char *key, const struct bm_hist_data *d,
		      const struct bm_hist_side *s)
{
	bm_json_key(j, key);
	bm_json_obj_begin(j);
	bm_json_kstr(j, "first", bm_hist_kernel_at(d, s->from)->name);
	bm_json_kstr(j, "last", bm_hist_kernel_at(d, s->to)->name);
	bm_json_knum(j, "mean", s->s.mean);
	bm_json_knum(j, "cov_pct", s->s.n > 1 ? s->s.cov * 100 : NAN);
	bm_json_kint(j, "n", (long long)s->s.n);
	bm_json_obj_end(j);
}

static void json_changes(FILE *f, const struct bm_hist_data *d, const struct bm_hist_changes *c)
{
	const struct bm_hist_boot *first;
	char classes[256];
	struct bm_json j;
	size_t i;

	bm_json_init(&j, f, 1);
	bm_json_obj_begin(&j);
	bm_json_kstr(&j, "schema", BM_SCHEMA_HCHANGES);
	bm_json_kint(&j, "version", 1);
	bm_json_key(&j, "rules");
	bm_json_obj_begin(&j);
	bm_json_knum(&j, "fdr_alpha", c->rules.alpha);
	bm_json_knum(&j, "min_change_pct", c->rules.min_change);
	bm_json_knum(&j, "min_abs_time_s", c->rules.min_abs_time);
	/* "resolution": min_abs_time_s is 0 and each series' own step is the floor */
	bm_json_kstr(&j, "min_abs_time_rule", c->rules.min_abs_auto ? "resolution" : "fixed");
	bm_json_kint(&j, "series", (long long)c->nseries);
	bm_json_kint(&j, "tested", (long long)c->ntested);
	bm_json_obj_end(&j);
	bm_json_kint(&j, "regressions", c->regressions);
	bm_json_kint(&j, "improvements", c->improvements);
	bm_json_kint(&j, "left_out", left_out(d, classes, sizeof(classes), &first));
	bm_json_kstr(&j, "left_out_classes", classes);
	bm_json_kstr(&j, "left_out_first", first ? first->label : "");
	bm_json_kstr(&j, "left_out_first_why", first ? first->why : "");
	bm_json_key(&j, "changes");
	bm_json_arr_begin(&j);
	for (i = 0; i < c->n; i++) {
		const struct bm_hist_change *x = &c->c[i];
		const struct bm_hist_series *s = &d->series[x->series];

		bm_json_obj_begin(&j);
		bm_json_kstr(&j, "id", x->id);
		series_json_head(&j, d, s);
		bm_json_kstr(&j, "before", bm_hist_kernel_at(d, x->before)->name);
		bm_json_kstr(&j, "after", bm_hist_kernel_at(d, x->after)->name);
		bm_json_kint(&j, "before_position", x->before);
		bm_json_kint(&j, "after_position", x->after);
		json_side(&j, "left", d, &x->l);
		json_side(&j, "right", d, &x->r);
		bm_json_knum(&j, "change_pct", x->change);
		bm_json_kstr(&j, "verdict", bm_hist_verdict_word(x->verdict));
		bm_json_knum(&j, "p", x->p);
		bm_json_knum(&j, "q", x->q);
		bm_json_key(&j, "bisect");
		if (x->bisect_end[0]) {
			bm_json_obj_begin(&j);
			bm_json_kstr(&j, "result", x->bisect_end);
			bm_json_kstr(&j, "first_bad", x->bisect_first);
			bm_json_kstr(&j, "out", x->bisect_out);
			bm_json_obj_end(&j);
		} else {
			bm_json_null(&j);
		}
		bm_json_obj_end(&j);
	}
	bm_json_arr_end(&j);
	bm_json_obj_end(&j);
	fputc('\n', f);
}

void bm_hist_print_changes(FILE *f, const struct bm_hist_data *d,
			   const struct bm_hist_changes *c, enum bm_hist_fmt fmt)
{
	if (fmt == BM_HIST_JSON)
		json_changes(f, d, c);
	else if (fmt == BM_HIST_CSV)
		csv_changes(f, d, c);
	else
		text(f, d, c);
}
