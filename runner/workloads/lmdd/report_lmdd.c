// SPDX-License-Identifier: MIT
/*
 * lmdd's report, shaped like seed 001 (SGI, 2000):
 *
 *     lmdd (across blocksizes 1K to 1024K)
 *     Write Read
 *     TEST3 10-11 MB/s ~19MB/s
 *
 * One section per sweep (the params other than bs, e.g. "size=256M"): the
 * seed's summary, each cell the range of MB/s across block sizes; then
 * the per-block-size table the summary comes from; then every test's
 * result as lmdd printed it ("%.4f MB in %.4f secs, %.4f MB/sec").
 * Repeats are averaged in the tables and listed one by one in the lines;
 * partial results appear only in the lines.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lmdd.h"
#include "opts.h"
#include "report.h"

#define LABEL_MIN 13
#define KEY_LEN 160

struct lmdd_row {               /* one row label within a sweep */
	const char *label;
	double sum[2][LMDD_BS_MAX]; /* [write, read][column] MB/s */
	int cnt[2][LMDD_BS_MAX];
};

struct lmdd_sweep {
	uint64_t bs[LMDD_BS_MAX];   /* columns, ascending */
	int ncol;
	struct lmdd_row *row;
	size_t nrow;
	int width;                  /* label column */
};

/* The sweep a result belongs to: its params without bs. */
static void sweep_key(const struct bm_rres *h, char *buf, size_t len)
{
	bm_rres_params_without(h, "bs", buf, len);
}

/* 0 write, 1 read, -1 not an lmdd test label. */
static int test_dir(const struct bm_rres *h)
{
	if (!strncmp(h->test, "lmdd-w-", 7))
		return 0;
	if (!strncmp(h->test, "lmdd-r-", 7))
		return 1;
	return -1;
}

static int test_bs(const struct bm_rres *h, uint64_t *bs)
{
	char buf[32];

	if (!bm_rres_param(h, "bs", buf, sizeof(buf)))
		return -1;
	return bm_parse_size(buf, bs) ? -1 : 0;
}

static int in_sweep(const struct bm_rrow *row, const char *key)
{
	char k[KEY_LEN];
	uint64_t bs;

	sweep_key(row->r, k, sizeof(k));
	return !strcmp(k, key) && test_dir(row->r) >= 0 && !test_bs(row->r, &bs);
}

static int column_of(const struct lmdd_sweep *s, uint64_t bs)
{
	int i;

	for (i = 0; i < s->ncol; i++)
		if (s->bs[i] == bs)
			return i;
	return -1;
}

static void add_column(struct lmdd_sweep *s, uint64_t bs)
{
	int i;

	if (column_of(s, bs) >= 0 || s->ncol == LMDD_BS_MAX)
		return;
	for (i = s->ncol; i > 0 && s->bs[i - 1] > bs; i--)
		s->bs[i] = s->bs[i - 1];
	s->bs[i] = bs;
	s->ncol++;
}

static struct lmdd_row *row_of(struct lmdd_sweep *s, const char *label)
{
	size_t i;

	for (i = 0; i < s->nrow; i++)
		if (!strcmp(s->row[i].label, label))
			return &s->row[i];
	s->row[s->nrow].label = label;
	if ((int)strlen(label) > s->width)
		s->width = (int)strlen(label);
	return &s->row[s->nrow++];
}

static int sweep_fill(struct lmdd_sweep *s, const struct bm_rrow *rows, size_t n,
		      const char *key)
{
	const struct bm_rmetric *m;
	struct lmdd_row *r;
	uint64_t bs;
	size_t i;
	int c, d;

	memset(s, 0, sizeof(*s));
	s->width = LABEL_MIN;
	s->row = calloc(n ? n : 1, sizeof(*s->row));
	if (!s->row)
		return -1;
	for (i = 0; i < n; i++)
		if (in_sweep(&rows[i], key) && !test_bs(rows[i].r, &bs))
			add_column(s, bs);
	for (i = 0; i < n; i++) {
		if (!in_sweep(&rows[i], key))
			continue;
		r = row_of(s, rows[i].label ? rows[i].label : "");
		test_bs(rows[i].r, &bs);
		c = column_of(s, bs);
		d = test_dir(rows[i].r);
		m = bm_rres_metric(rows[i].r, "rate");
		if (c < 0 || !m || rows[i].r->partial)
			continue;
		r->sum[d][c] += m->value;
		r->cnt[d][c]++;
	}
	return 0;
}

/* Three significant digits, never an exponent: 0.952, 11.5, 187. */
static void rate_num(char *buf, size_t len, double v)
{
	snprintf(buf, len, v >= 99.95 ? "%.0f" : v >= 9.995 ? "%.1f" : "%.2f", v);
}

/* The seed's cell: "10.2-11.3 MB/s", or "11.5 MB/s" when it does not vary. */
static void range_cell(char *buf, size_t len, const struct lmdd_row *r, int d, int ncol)
{
	char lo[24], hi[24];
	double min = 0, max = 0, v;
	int c, seen = 0;

	for (c = 0; c < ncol; c++) {
		if (!r->cnt[d][c])
			continue;
		v = r->sum[d][c] / r->cnt[d][c];
		if (!seen++ || v < min)
			min = v;
		if (seen == 1 || v > max)
			max = v;
	}
	if (!seen) {
		snprintf(buf, len, "-");
		return;
	}
	rate_num(lo, sizeof(lo), min);
	rate_num(hi, sizeof(hi), max);
	if (!strcmp(lo, hi))
		snprintf(buf, len, "%s MB/s", lo);
	else
		snprintf(buf, len, "%s-%s MB/s", lo, hi);
}

static void upper_bs(char *buf, size_t len, uint64_t bs)
{
	lmdd_bs_name(buf, len, bs);
	for (; *buf; buf++)
		*buf = (char)toupper((unsigned char)*buf);
}

static void print_summary(FILE *f, const struct lmdd_sweep *s, const char *key)
{
	char lo[16], hi[16], w[64], r[64];
	size_t i;

	upper_bs(lo, sizeof(lo), s->bs[0]);
	upper_bs(hi, sizeof(hi), s->bs[s->ncol - 1]);
	if (s->ncol > 1)
		fprintf(f, "lmdd (across blocksizes %s to %s)", lo, hi);
	else
		fprintf(f, "lmdd (blocksize %s)", lo);
	fprintf(f, "%s%s\n", key[0] ? " " : "", key);
	fprintf(f, "%-*s %-16s %s\n", s->width, "", "Write", "Read");
	fprintf(f, "%.*s ---------------- ----------------\n", s->width,
		"----------------------------------------------------------------");
	for (i = 0; i < s->nrow; i++) {
		range_cell(w, sizeof(w), &s->row[i], 0, s->ncol);
		range_cell(r, sizeof(r), &s->row[i], 1, s->ncol);
		fprintf(f, "%-*s %-16s %s\n", s->width, s->row[i].label, w, r);
	}
}

static void print_table(FILE *f, const struct lmdd_sweep *s, int d)
{
	char name[16];
	size_t i;
	int c;

	fprintf(f, "%-*s", s->width, d ? "Read MB/s" : "Write MB/s");
	for (c = 0; c < s->ncol; c++) {
		lmdd_bs_name(name, sizeof(name), s->bs[c]);
		fprintf(f, " %8s", name);
	}
	fputc('\n', f);
	for (i = 0; i < s->nrow; i++) {
		fprintf(f, "%-*s", s->width, s->row[i].label);
		for (c = 0; c < s->ncol; c++) {
			if (s->row[i].cnt[d][c])
				fprintf(f, " %8.2f", s->row[i].sum[d][c] / s->row[i].cnt[d][c]);
			else
				fprintf(f, " %8s", "-");
		}
		fputc('\n', f);
	}
}

/* lmdd's own output, one line per test run. */
static void print_lines(FILE *f, const struct lmdd_sweep *s, const struct bm_rrow *rows,
			size_t n, const char *key)
{
	const struct bm_rres *h;
	char line[128], test[48];
	size_t i;

	for (i = 0; i < n; i++) {
		if (!in_sweep(&rows[i], key))
			continue;
		h = rows[i].r;
		snprintf(test, sizeof(test), h->rep > 1 ? "%s #%d" : "%s", h->test, h->rep);
		if (bm_rres_metric(h, "mb") && bm_rres_metric(h, "secs"))
			lmdd_line(line, sizeof(line), bm_rres_value(h, "mb", 0),
				  bm_rres_value(h, "secs", 0));
		else    /* a missing figure is missing, never 0 */
			snprintf(line, sizeof(line), "- MB in - secs, - MB/sec (no figure)");
		fprintf(f, "%-*s %-16s %s%s\n", s->width, rows[i].label ? rows[i].label : "",
			test, line, h->partial ? " (partial)" : "");
	}
}

static void print_sweep(FILE *f, const struct bm_rrow *rows, size_t n, const char *key)
{
	struct lmdd_sweep s;

	if (sweep_fill(&s, rows, n, key))
		return;
	print_summary(f, &s, key);
	fputc('\n', f);
	print_table(f, &s, 0);
	fputc('\n', f);
	print_table(f, &s, 1);
	fputc('\n', f);
	print_lines(f, &s, rows, n, key);
	free(s.row);
}

/* One section per sweep, in order of its first row (bm_rgroups_make). */
static void lmdd_print(FILE *f, const struct bm_rrow *rows, size_t n)
{
	char (*key)[KEY_LEN] = calloc(n + 1, sizeof(*key));
	const char **keys = calloc(n + 1, sizeof(*keys));
	struct bm_rrow *sub = calloc(n + 1, sizeof(*sub));
	size_t i, g, k, sweeps = 0;
	struct bm_rgroups gr;

	if (!key || !keys || !sub)
		goto out_free;
	for (i = 0; i < n; i++) {
		sweep_key(rows[i].r, key[i], sizeof(key[i]));
		keys[i] = in_sweep(&rows[i], key[i]) ? key[i] : NULL;
	}
	if (bm_rgroups_make(&gr, keys, n))
		goto out_free;
	for (g = 0; g < gr.ngroups; g++) {
		for (k = 0, i = gr.start[g]; i < gr.start[g + 1]; i++)
			sub[k++] = rows[gr.order[i]];
		if (sweeps++)
			fputc('\n', f);
		print_sweep(f, sub, k, keys[gr.order[gr.start[g]]]);
	}
	bm_rgroups_free(&gr);
	/* A record this formatter cannot place still shows, in the generic table. */
	for (i = 0; i < n; i++) {
		if (!keys[i]) {
			if (sweeps++)
				fputc('\n', f);
			bm_report_generic(f, rows + i, 1);
		}
	}
out_free:
	free(key);
	free(keys);
	free(sub);
}

const struct bm_report_ops report_lmdd_ops = {
	.wl = "lmdd",
	.print = lmdd_print,
};
