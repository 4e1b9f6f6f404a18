// SPDX-License-Identifier: MIT
/*
 * The seed-004 table (report.h: bm_report_generic): dd's report
 * (runner/workloads/dd/report_dd.c) and the fallback for any workload
 * without one of its own.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define LABEL_MIN 8

static const char *const main_cols[] = { "real", "utime", "stime", "read", "written", NULL };

/* Converts to KiB; the unit is kept when it is not a size. */
static int to_kib(const struct bm_rmetric *m, double *v)
{
	if (!strcmp(m->unit, "KiB"))
		*v = m->value;
	else if (!strcmp(m->unit, "B"))
		*v = m->value / 1024;
	else if (!strcmp(m->unit, "MiB"))
		*v = m->value * 1024;
	else
		return -1;
	return 0;
}

static void cell(char *buf, size_t len, const struct bm_rres *h, const char *name)
{
	const struct bm_rmetric *m = bm_rres_metric(h, name);
	double v;

	if (!m || !isfinite(m->value)) {
		snprintf(buf, len, "-");
		return;
	}
	if (!strcmp(name, "real")) {
		snprintf(buf, len, "%.2f", m->value);
	} else if (!strcmp(name, "utime") || !strcmp(name, "stime")) {
		/* seconds -> USER_HZ ticks, the unit of /proc/stat */
		snprintf(buf, len, "%.0f", strcmp(m->unit, "s") ? m->value : m->value * 100);
	} else if (!to_kib(m, &v)) {
		snprintf(buf, len, "%.0f", v);
	} else {
		snprintf(buf, len, "%g%s", m->value, m->unit);
	}
}

static int is_main(const char *name)
{
	int i;

	for (i = 0; main_cols[i]; i++)
		if (!strcmp(main_cols[i], name))
			return 1;
	return 0;
}

/* Integers as integers (32768 bytes, not 3.2768e+04), the rest to 4 digits. */
static void num(char *buf, size_t len, double v)
{
	if (v == (double)(long long)v && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

/* Counts first, as the seed's "5 extents", then "name value unit". */
static void details(char *buf, size_t len, const struct bm_rres *h)
{
	size_t used = 0;
	unsigned i;
	int pass;
	char v[32];

	buf[0] = '\0';
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < h->nm && used < len; i++) {
			const struct bm_rmetric *m = &h->m[i];
			const char *sp = used ? " " : "";
			int count = !strcmp(m->unit, "count");

			if (is_main(m->name) || count != !pass)
				continue;
			/* a byte count only says more than the label when the
			 * test stopped early */
			if (!h->partial && !strcmp(m->unit, "B"))
				continue;
			num(v, sizeof(v), m->value);
			if (count)
				used += (size_t)snprintf(buf + used, len - used, "%s%s %s", sp, v, m->name);
			else
				used += (size_t)snprintf(buf + used, len - used, "%s%s %s %s", sp, m->name,
							 v, m->unit);
		}
	}
	if (h->partial && used < len)
		snprintf(buf + used, len - used, "%s(partial)", used ? " " : "");
}

static void label_of(const struct bm_rrow *row, int show_rep, char *buf, size_t len)
{
	snprintf(buf, len, "%s", row->label ? row->label : "");
	if (show_rep)
		snprintf(buf + strlen(buf), len - strlen(buf), " #%d", row->r->rep);
}

static void print_row(FILE *f, int width, const struct bm_rrow *row, int show_rep)
{
	char c[5][32], det[512], label[160];
	int i;

	for (i = 0; i < 5; i++)
		cell(c[i], sizeof(c[i]), row->r, main_cols[i]);
	details(det, sizeof(det), row->r);
	label_of(row, show_rep, label, sizeof(label));
	/* no trailing blank when there are no details */
	fprintf(f, "%-*s: %7s %5s %5s %9s %9s%s%s\n", width, label, c[0], c[1], c[2],
		c[3], c[4], det[0] ? " " : "", det);
}

/* One block: rows idx[0..m) of one test, in the order they print. */
static void print_block(FILE *f, const struct bm_rrow *rows, const size_t *idx, size_t m)
{
	char label[160];
	int width = LABEL_MIN, show_rep = 0;
	size_t k;

	for (k = 0; k < m; k++)
		show_rep |= rows[idx[k]].r->rep > 1;
	for (k = 0; k < m; k++) {
		label_of(&rows[idx[k]], show_rep, label, sizeof(label));
		if ((int)strlen(label) > width)
			width = (int)strlen(label);
	}
	width++;  /* "EXT4 6.1.0-53 :" */
	fprintf(f, ": %s :\n", rows[idx[0]].r->test);
	fprintf(f, "%-*s  %7s %5s %5s %9s %9s %s\n", width, "", "REAL", "UTIME", "STIME",
		"READ", "WRITTEN", "DETAILS");
	for (k = 0; k < m; k++)
		print_row(f, width, &rows[idx[k]], show_rep);
}

/* One block per test label, in order of first appearance; within a block
 * the filesystems in order of first appearance, run order within one, so
 * kernels of one fs sit side by side. */
void bm_report_generic(FILE *f, const struct bm_rrow *rows, size_t n)
{
	const char **keys = calloc(n + 1, sizeof(*keys));
	size_t *idx = calloc(n + 1, sizeof(*idx)), g, k, m;
	struct bm_rgroups t, fs;

	if (!keys || !idx)
		goto out_free;
	for (k = 0; k < n; k++)
		keys[k] = rows[k].r->test;
	if (bm_rgroups_make(&t, keys, n))
		goto out_free;
	for (g = 0; g < t.ngroups; g++) {
		const size_t *in = t.order + t.start[g];

		m = t.start[g + 1] - t.start[g];
		for (k = 0; k < m; k++)
			keys[k] = rows[in[k]].r->fs;
		if (bm_rgroups_make(&fs, keys, m))
			break;
		for (k = 0; k < m; k++)
			idx[k] = in[fs.order[k]];
		bm_rgroups_free(&fs);
		if (g)
			fputc('\n', f);
		print_block(f, rows, idx, m);
	}
	bm_rgroups_free(&t);
out_free:
	free(keys);
	free(idx);
}
