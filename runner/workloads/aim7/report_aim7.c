// SPDX-License-Identifier: MIT
/*
 * AIM7's report, shaped like seed 000 (Randy Hron, 2.5.70 kernels, 2003),
 * which is reaim's table without its first column:
 *
 *     AIM7 fserver workload
 *     kernel        Tasks Jobs/Min   JTI    Real     CPU Jobs/sec/task
 *     EXT4 6.1.0-53     4     92.7    98   261.6    35.1        0.3861
 *
 * One section per mix (and per set of the other parameters: jobs,
 * filesize, poolsize), one block per task count separated by blank lines,
 * rows by Jobs/Min, highest first, as in the seed.  JTI is reaim's column
 * (the seed left it out).  Repeats show as "#<rep>" after the label;
 * partial results are marked.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define KEY_LEN 160

/* The section a result belongs to: its params without tasks=. */
static void section_key(const struct bm_rres *h, char *buf, size_t len)
{
	bm_rres_params_without(h, "tasks", buf, len);
}

static int placeable(const struct bm_rres *h)
{
	char buf[16];

	return !strcmp(h->wl, "aim7") && bm_rres_metric(h, "jobs_min") &&
	       bm_rres_param(h, "mix", buf, sizeof(buf)) && bm_rres_param(h, "tasks", buf, sizeof(buf));
}

static long tasks_of(const struct bm_rres *h)
{
	char buf[16];

	return bm_rres_param(h, "tasks", buf, sizeof(buf)) ? strtol(buf, NULL, 10) : 0;
}

/* One cell: the metric, or "-" when the record lacks it (never 0). */
static const char *cell(char *buf, size_t len, const struct bm_rres *h, const char *name,
			int width, int prec)
{
	double v = bm_rres_value(h, name, NAN);

	if (isnan(v))
		snprintf(buf, len, "%*s", width, "-");
	else
		snprintf(buf, len, "%*.*f", width, prec, v);
	return buf;
}

static const struct bm_rrow *sort_rows;

/* Tasks ascending, then Jobs/Min descending, then run order. */
static int cmp_idx(const void *a, const void *b)
{
	const struct bm_rres *x = sort_rows[*(const size_t *)a].r;
	const struct bm_rres *y = sort_rows[*(const size_t *)b].r;
	long tx = tasks_of(x), ty = tasks_of(y);
	double jx = bm_rres_value(x, "jobs_min", 0), jy = bm_rres_value(y, "jobs_min", 0);

	if (tx != ty)
		return tx < ty ? -1 : 1;
	if (jx != jy)
		return jx > jy ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static void row_label(char *buf, size_t len, const struct bm_rrow *row, int reps)
{
	snprintf(buf, len, reps ? "%s #%d" : "%s", row->label ? row->label : "", row->r->rep);
}

static void print_section(FILE *f, const struct bm_rrow *rows, size_t n, const char *key)
{
	char k[KEY_LEN], mix[32], label[96], c[5][32];
	size_t *idx, m = 0, i;
	int width = 6, reps = 0;
	long prev = -1;

	idx = calloc(n, sizeof(*idx));
	if (!idx)
		return;
	for (i = 0; i < n; i++) {
		section_key(rows[i].r, k, sizeof(k));
		if (placeable(rows[i].r) && !strcmp(k, key)) {
			idx[m++] = i;
			reps |= rows[i].r->rep > 1;
		}
	}
	for (i = 0; i < m; i++) {
		row_label(label, sizeof(label), &rows[idx[i]], reps);
		if ((int)strlen(label) > width)
			width = (int)strlen(label);
	}
	sort_rows = rows;
	qsort(idx, m, sizeof(*idx), cmp_idx);
	bm_rres_param(rows[idx[0]].r, "mix", mix, sizeof(mix));
	fprintf(f, "AIM7 %s workload", mix);
	/* the parameters after mix=..., if any: "(jobs=100 filesize=10M poolsize=20M)" */
	if (strchr(key, ' '))
		fprintf(f, " (%s)", strchr(key, ' ') + 1);
	fprintf(f, "\n%-*s %5s %8s %5s %7s %7s %13s\n", width, "kernel", "Tasks", "Jobs/Min",
		"JTI", "Real", "CPU", "Jobs/sec/task");
	for (i = 0; i < m; i++) {
		const struct bm_rres *h = rows[idx[i]].r;

		if (prev >= 0 && tasks_of(h) != prev)
			fputc('\n', f);
		prev = tasks_of(h);
		row_label(label, sizeof(label), &rows[idx[i]], reps);
		fprintf(f, "%-*s %5ld %s %s %s %s %s%s\n", width, label, prev,
			cell(c[0], sizeof(c[0]), h, "jobs_min", 8, 1),
			cell(c[1], sizeof(c[1]), h, "jti", 5, 0),
			cell(c[2], sizeof(c[2]), h, "aim_real", 7, 1),
			cell(c[3], sizeof(c[3]), h, "cpu", 7, 1),
			cell(c[4], sizeof(c[4]), h, "jobs_sec_task", 13, 4),
			h->partial ? " (partial)" : "");
	}
	free(idx);
}

/* A section per key, in order of its first row (bm_rgroups_make). */
static void aim7_print(FILE *f, const struct bm_rrow *rows, size_t n)
{
	char (*key)[KEY_LEN] = calloc(n + 1, sizeof(*key));
	const char **keys = calloc(n + 1, sizeof(*keys));
	struct bm_rrow *sub = calloc(n + 1, sizeof(*sub));
	size_t i, k, s, sections = 0;
	struct bm_rgroups g;

	if (!key || !keys || !sub)
		goto out_free;
	for (i = 0; i < n; i++) {
		section_key(rows[i].r, key[i], sizeof(key[i]));
		keys[i] = placeable(rows[i].r) ? key[i] : NULL;
	}
	if (bm_rgroups_make(&g, keys, n))
		goto out_free;
	for (s = 0; s < g.ngroups; s++) {
		for (k = 0, i = g.start[s]; i < g.start[s + 1]; i++)
			sub[k++] = rows[g.order[i]];
		if (sections++)
			fputc('\n', f);
		print_section(f, sub, k, keys[g.order[g.start[s]]]);
	}
	bm_rgroups_free(&g);
	/* A record this formatter cannot place still shows, in the generic table. */
	for (i = 0; i < n; i++) {
		if (placeable(rows[i].r))
			continue;
		if (sections++)
			fputc('\n', f);
		bm_report_generic(f, rows + i, 1);
	}
out_free:
	free(key);
	free(keys);
	free(sub);
}

const struct bm_report_ops report_aim7_ops = {
	.wl = "aim7",
	.print = aim7_print,
};
