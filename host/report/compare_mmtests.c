// SPDX-License-Identifier: MIT
/*
 * "bootmark compare --format mmtests": the rows as mmtests' compare-kernels
 * prints them (docs/results.md, "mmtests layout"): one section per workload
 * and filesystem, the kernels as columns, the baseline first, one line per
 * (test, metric) with each kernel's center and its gain over the baseline,
 * the gain between stars when the row is a change.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "report.h"

#define COL 22          /* one kernel's column: "%11s (%7.2f%%)" */

/* mmtests' gain: positive is better, whichever way the metric goes. */
static double gain(const struct bm_cmp_row *r)
{
	if (r->kidx == 0)
		return 0;
	return r->dir == BM_DIR_LOWER ? -r->change : r->change;
}

static void cell(FILE *f, const struct bm_cmp_row *r)
{
	char v[32], g[32];
	double x = r ? gain(r) : NAN;

	if (x == 0)
		x = 0;  /* no "-0.00%" */

	if (!r) {
		fprintf(f, "%*s", COL, "-");
		return;
	}
	bm_cmp_num(v, sizeof(v), r->center);
	if (isnan(x))
		snprintf(g, sizeof(g), "%8s", "-");
	else
		snprintf(g, sizeof(g), "%7.2f%%", x);
	/* compare-kernels: "( 1.35%)", and "* 1.35%*" when significant */
	fprintf(f, "%11s %s%s%s", v, r->changed ? "*" : "(", g, r->changed ? "*" : ")");
}

/* The row of kernel k among rows [from, to) of one block, for fs. */
static const struct bm_cmp_row *row_of(const struct bm_cmp *c, size_t from, size_t to,
				       const char *fs, size_t k)
{
	size_t i;

	for (i = from; i < to; i++)
		if ((size_t)c->rows[i].kidx == k && !strcmp(c->rows[i].fs, fs))
			return &c->rows[i];
	return NULL;
}

static size_t block_end(const struct bm_cmp *c, size_t i)
{
	size_t j;

	for (j = i + 1; j < c->nrows && c->rows[j].block == c->rows[i].block; j++)
		;
	return j;
}

/* Whether (wl, fs) had a section before row i. */
static int seen_before(const struct bm_cmp *c, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (!strcmp(c->rows[j].wl, c->rows[i].wl) && !strcmp(c->rows[j].fs, c->rows[i].fs))
			return 1;
	return 0;
}

static void section(FILE *f, const struct bm_cmp *c, const char *wl, const char *fs)
{
	char name[200], k[128];
	size_t i, j, n;
	int w = 0;

	for (i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i].wl, wl) && !strcmp(c->rows[i].fs, fs)) {
			snprintf(name, sizeof(name), "%s-%s", c->rows[i].metric, c->rows[i].test);
			if ((int)strlen(name) > w)
				w = (int)strlen(name);
		}
	fprintf(f, "\n%s %s\n%*s", wl, fs, 10 + w, "");
	for (n = 0; n < c->nkernels; n++) {
		bm_kernel_short(c->kernels[n], k, sizeof(k));
		fprintf(f, " %*s", COL, k);
	}
	fputc('\n', f);
	for (i = 0; i < c->nrows; i = j) {
		const struct bm_cmp_row *first;

		j = block_end(c, i);
		if (strcmp(c->rows[i].wl, wl))
			continue;
		first = row_of(c, i, j, fs, 0);
		for (n = 0; !first && n < c->nkernels; n++)
			first = row_of(c, i, j, fs, n);
		if (!first)
			continue;
		snprintf(name, sizeof(name), "%s-%s", first->metric, first->test);
		fprintf(f, "%-9s %-*s", first->hmean ? "Hmean" : "Amean", w, name);
		for (n = 0; n < c->nkernels; n++) {
			fputc(' ', f);
			cell(f, row_of(c, i, j, fs, n));
		}
		fputc('\n', f);
	}
}

void bm_cmp_print_mmtests(FILE *f, const struct bm_cmp *c)
{
	char rules[512];
	size_t i;

	bm_cmp_rules_line(rules, sizeof(rules), c);
	fprintf(f, "bootmark compare, mmtests layout: baseline %s; gain in %% (positive is "
		   "better; for a metric without a better direction, the change); *gain* "
		   "marks a change: %s\n", c->nkernels ? c->kernels[0] : "-", rules);
	for (i = 0; i < c->nrows; i++)
		if (!seen_before(c, i))
			section(f, c, c->rows[i].wl, c->rows[i].fs);
}
