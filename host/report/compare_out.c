// SPDX-License-Identifier: MIT
/* Printing the rows of "bootmark compare" as text, Markdown, CSV, JSON. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "export.h"
#include "json.h"
#include "report.h"
#include "schema.h"

#define RED   "\033[31m"
#define GREEN "\033[32m"
#define RESET "\033[0m"

static const char *const dir_name[] = { "none", "higher", "lower" };
static const char *const verdict_name[] = { "regression", "", "improvement" };

/* Undefined values print as "-", never "nan". */
static const char *num(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (isnan(v))
		snprintf(buf, len, "-");
	else if (a >= 1000 || a == 0)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 100)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 1)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.3g", v);
	return buf;
}

static const char *pct(char *buf, size_t len, double v, int sign)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, sign ? "%+.2f%%" : "%.1f", v);
	return buf;
}

static const char *pval(char *buf, size_t len, double p)
{
	if (isnan(p))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, p >= 0.0001 ? "%.4f" : "%.1e", p);
	return buf;
}

static void row_label(char *buf, size_t len, const struct bm_cmp *c, const struct bm_cmp_row *r)
{
	char k[128];

	bm_kernel_short(c->kernels[r->kidx], k, sizeof(k));
	bm_report_label(buf, len, r->fs, k);
}

static const char *block_title(char *buf, size_t len, const struct bm_cmp_row *r)
{
	snprintf(buf, len, "%s (%s%s%s)", r->metric, r->unit[0] ? r->unit : "no unit",
		 r->dir == BM_DIR_HIGHER ? ", higher is better, hmean" :
		 r->dir == BM_DIR_LOWER ? ", lower is better" : "",
		 r->dir == BM_DIR_NONE ? ", no better direction" : "");
	return buf;
}

static void print_missing(FILE *f, const struct bm_cmp *c, const char *prefix)
{
	size_t i;

	for (i = 0; i < c->nboots; i++) {
		const struct bm_cmp_boot *b = &c->boots[i];
		char k[128];

		if (b->r.status == BM_ST_COMPLETED)
			continue;
		bm_kernel_short(b->kernel, k, sizeof(k));
		fprintf(f, "%s%s: boot %d of %d (%s): %s (%s) \xe2\x80\x94 %s\n", prefix, k, b->nth,
			c->kboots[b->kidx], b->label, bm_status_name(b->r.status), b->r.status_why,
			bm_cmp_boot_note(b));
	}
}

static void text_block(FILE *f, const struct bm_cmp *c, size_t from, size_t to,
		       const struct bm_compare_opts *o)
{
	char lab[160], t[160], v[9][32];
	size_t i;
	int w = 0;

	for (i = from; i < to; i++) {
		row_label(lab, sizeof(lab), c, &c->rows[i]);
		if ((int)strlen(lab) > w)
			w = (int)strlen(lab);
	}
	fprintf(f, "\n: %s : %s\n", c->rows[from].test, block_title(t, sizeof(t), &c->rows[from]));
	fprintf(f, "%*s  %3s %9s %9s %6s %9s %9s %9s %8s %8s %8s\n", w, "", "N",
		c->rows[from].hmean ? "HMEAN" : "MEAN", "STDDEV", "COV%", "MIN", "MAX", "CHANGE",
		"P-WELCH", "Q-BH", "P-MWU");
	for (i = from; i < to; i++) {
		const struct bm_cmp_row *r = &c->rows[i];
		int col = o->color && r->verdict;

		row_label(lab, sizeof(lab), c, r);
		fprintf(f, "%s%-*s: %3zu %9s %9s %6s %9s %9s %9s %8s %8s %8s%s%s\n",
			col ? (r->verdict < 0 ? RED : GREEN) : "", w, lab, r->s.n,
			num(v[0], 32, r->center), num(v[1], 32, r->s.stddev),
			pct(v[2], 32, r->s.cov * 100, 0), num(v[3], 32, r->s.min),
			num(v[4], 32, r->s.max), pct(v[5], 32, r->change, 1),
			pval(v[6], 32, r->p_welch), pval(v[8], 32, r->q), pval(v[7], 32, r->p_mwu),
			r->changed ? " *" : "", col ? RESET : "");
	}
}

static void md_block(FILE *f, const struct bm_cmp *c, size_t from, size_t to)
{
	char lab[160], t[160], v[9][32];
	size_t i;

	fprintf(f, "\n### %s: %s\n\n", c->rows[from].test, block_title(t, sizeof(t), &c->rows[from]));
	fprintf(f, "| | n | %s | stddev | CoV%% | min | max | change | p (Welch) | q (BH) | p (MWU) | |\n"
		   "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
		c->rows[from].hmean ? "hmean" : "mean");
	for (i = from; i < to; i++) {
		const struct bm_cmp_row *r = &c->rows[i];

		row_label(lab, sizeof(lab), c, r);
		fprintf(f, "| %s | %zu | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", lab, r->s.n,
			num(v[0], 32, r->center), num(v[1], 32, r->s.stddev),
			pct(v[2], 32, r->s.cov * 100, 0), num(v[3], 32, r->s.min),
			num(v[4], 32, r->s.max), pct(v[5], 32, r->change, 1),
			pval(v[6], 32, r->p_welch), pval(v[8], 32, r->q), pval(v[7], 32, r->p_mwu),
			r->changed ? (r->verdict < 0 ? "**\\*** regression" : r->verdict > 0 ?
				      "**\\*** improvement" : "**\\***") : "");
	}
}

static void human(FILE *f, const struct bm_cmp *c, const struct bm_compare_opts *o)
{
	int md = o->fmt == BM_CMP_MARKDOWN;
	char rules[512];
	size_t i, j;

	bm_cmp_rules_line(rules, sizeof(rules), c);
	fprintf(f, md ? "## bootmark compare\n\nBaseline **%s**; %s; `*` marks one.  Each test is "
			"listed by its headline metric, its other changed metrics under it.\n\n" :
			"bootmark compare: baseline %s\nrules: %s; * marks one; each test is listed by "
			"its headline metric, its other changed metrics under it\n",
		c->nkernels ? c->kernels[0] : "-", rules);
	print_missing(f, c, md ? "- " : "missing: ");
	bm_cmp_print_load(f, c, md);
	bm_cmp_print_summary(f, c, md);
	for (i = 0; i < c->nrows; i = j) {
		for (j = i + 1; j < c->nrows && c->rows[j].block == c->rows[i].block; j++)
			;
		if (md)
			md_block(f, c, i, j);
		else
			text_block(f, c, i, j, o);
	}
}

static const char *const csv_cols[] = {
	"workload", "variant", "fs", "metric", "unit", "kernel", "baseline", "n", "center",
	"mean", "hmean", "stddev", "cov_pct", "min", "max", "change_pct", "p_welch", "p_mwu",
	"q_bh", "significant", "min_change_ok", "better", "verdict", "headline", "group", NULL,
};

static void csv(FILE *f, const struct bm_cmp *c)
{
	char v[12][40], g[256];
	size_t i;
	int k;

	for (k = 0; csv_cols[k]; k++)
		fprintf(f, "%s%s", k ? "," : "", csv_cols[k]);
	fputc('\n', f);
	for (i = 0; i < c->nrows; i++) {
		const struct bm_cmp_row *r = &c->rows[i];
		const double d[] = { r->s.mean, r->s.hmean, r->s.stddev, r->s.cov * 100, r->s.min,
				     r->s.max, r->change, r->p_welch, r->p_mwu, r->q };

		for (k = 0; k < 10; k++) {
			if (isnan(d[k]))
				v[k][0] = '\0';
			else
				bm_fmt_double(v[k], sizeof(v[k]), d[k]);
		}
		bm_csv_field(f, r->wl);
		fputc(',', f);
		bm_csv_field(f, r->test);
		fputc(',', f);
		bm_csv_field(f, r->fs);
		fputc(',', f);
		bm_csv_field(f, r->metric);
		fputc(',', f);
		bm_csv_field(f, r->unit);
		fputc(',', f);
		bm_csv_field(f, c->kernels[r->kidx]);
		fprintf(f, ",%s,%zu,%s", c->kernels[0], r->s.n, r->hmean ? "hmean" : "mean");
		for (k = 0; k < 10; k++)
			fprintf(f, ",%s", v[k]);
		fprintf(f, ",%d,%d,%s,%s,%d,", r->sig, r->big, dir_name[r->dir],
			verdict_name[r->verdict + 1], r->headline);
		bm_csv_field(f, bm_cmp_group_name(g, sizeof(g), r));
		fputc('\n', f);
	}
}

static void json(FILE *f, const struct bm_cmp *c)
{
	struct bm_json j;
	char g[256];
	size_t i;

	bm_json_init(&j, f, 1);
	bm_json_obj_begin(&j);
	bm_json_kstr(&j, "schema", BM_SCHEMA_COMPARE);
	bm_json_kstr(&j, "baseline", c->nkernels ? c->kernels[0] : "");
	bm_json_knum(&j, "alpha", c->rules.alpha);
	bm_cmp_json_summary(&j, c);
	bm_cmp_json_load(&j, c);
	bm_json_key(&j, "missing");
	bm_json_arr_begin(&j);
	for (i = 0; i < c->nboots; i++) {
		const struct bm_cmp_boot *b = &c->boots[i];

		if (b->r.status == BM_ST_COMPLETED)
			continue;
		bm_json_obj_begin(&j);
		bm_json_kstr(&j, "kernel", b->kernel);
		bm_json_kint(&j, "boot", b->nth);
		bm_json_kint(&j, "of", c->kboots[b->kidx]);
		bm_json_kstr(&j, "label", b->label);
		bm_json_kstr(&j, "status", bm_status_name(b->r.status));
		bm_json_kstr(&j, "why", b->r.status_why);
		bm_json_key(&j, "results_used");
		bm_json_bool(&j, !bm_cmp_boot_missing(b));
		bm_json_obj_end(&j);
	}
	bm_json_arr_end(&j);
	bm_json_key(&j, "rows");
	bm_json_arr_begin(&j);
	for (i = 0; i < c->nrows; i++) {
		const struct bm_cmp_row *r = &c->rows[i];

		bm_json_obj_begin(&j);
		bm_json_kstr(&j, "workload", r->wl);
		bm_json_kstr(&j, "variant", r->test);
		bm_json_kstr(&j, "fs", r->fs);
		bm_json_kstr(&j, "metric", r->metric);
		bm_json_kstr(&j, "unit", r->unit);
		bm_json_kstr(&j, "kernel", c->kernels[r->kidx]);
		bm_json_kint(&j, "n", (long long)r->s.n);
		bm_json_kstr(&j, "center", r->hmean ? "hmean" : "mean");
		bm_json_knum(&j, "mean", r->s.mean);
		bm_json_knum(&j, "hmean", r->s.hmean);
		bm_json_knum(&j, "stddev", r->s.stddev);
		bm_json_knum(&j, "cov_pct", r->s.cov * 100);
		bm_json_knum(&j, "min", r->s.min);
		bm_json_knum(&j, "max", r->s.max);
		bm_json_knum(&j, "change_pct", r->change);
		bm_json_knum(&j, "p_welch", r->p_welch);
		bm_json_knum(&j, "p_mwu", r->p_mwu);
		bm_json_knum(&j, "q_bh", r->q);
		bm_json_key(&j, "significant");
		bm_json_bool(&j, r->sig);
		bm_json_key(&j, "min_change_ok");
		bm_json_bool(&j, r->big);
		bm_json_key(&j, "changed");
		bm_json_bool(&j, r->changed);
		bm_json_kstr(&j, "better", dir_name[r->dir]);
		bm_json_kstr(&j, "verdict", verdict_name[r->verdict + 1]);
		bm_json_key(&j, "headline");
		bm_json_bool(&j, r->headline);
		bm_json_kstr(&j, "group", bm_cmp_group_name(g, sizeof(g), r));
		bm_json_obj_end(&j);
	}
	bm_json_arr_end(&j);
	bm_json_obj_end(&j);
	fputc('\n', f);
}

void bm_cmp_print(FILE *f, const struct bm_cmp *c, const struct bm_compare_opts *o)
{
	switch (o->fmt) {
	case BM_CMP_CSV:
		print_missing(stderr, c, "bootmark: ");
		csv(f, c);
		break;
	case BM_CMP_JSON:
		json(f, c);
		break;
	case BM_CMP_MMTESTS:
		bm_cmp_print_mmtests(f, c);
		print_missing(f, c, "missing: ");
		break;
	default:
		human(f, c, o);
	}
}

const char *bm_cmp_num(char *buf, size_t len, double v)
{
	return num(buf, len, v);
}

const char *bm_cmp_pval(char *buf, size_t len, double p)
{
	return pval(buf, len, p);
}
