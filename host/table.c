// SPDX-License-Identifier: MIT
/* Seed-style tables from the results model. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"

#define LABEL_MIN 8

static const char *const main_cols[] = { "real", "utime", "stime", "read", "written", NULL };

void bm_kernel_short(const char *rel, char *buf, size_t len)
{
	static const char flavour[] = "-amd64";
	size_t n = strlen(rel), f = sizeof(flavour) - 1;

	/* The flavour says nothing when every kernel here is amd64. */
	if (n > f && !strcmp(rel + n - f, flavour))
		n -= f;
	snprintf(buf, len, "%.*s", (int)n, rel);
}

static void row_label(const struct bm_table_boot *b, const struct bm_hres *h,
		      int show_rep, char *buf, size_t len)
{
	size_t i, n;

	n = (size_t)snprintf(buf, len, "%s", h->fs[0] ? h->fs : "?");
	for (i = 0; i < n && i < len; i++)
		buf[i] = (char)toupper((unsigned char)buf[i]);
	if (b->kernel && b->kernel[0])
		snprintf(buf + strlen(buf), len - strlen(buf), " %s", b->kernel);
	if (show_rep)
		snprintf(buf + strlen(buf), len - strlen(buf), " #%d", h->rep);
}

/* Converts to KiB; the unit is kept when it is not a size. */
static int to_kib(const struct bm_hmetric *m, double *v)
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

static void cell(char *buf, size_t len, const struct bm_hres *h, const char *name)
{
	const struct bm_hmetric *m = bm_hres_metric(h, name);
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
static void details(char *buf, size_t len, const struct bm_hres *h)
{
	size_t used = 0;
	unsigned i;
	int pass;
	char v[32];

	buf[0] = '\0';
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < h->nm && used < len; i++) {
			const struct bm_hmetric *m = &h->m[i];
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

static void print_row(FILE *f, int width, const char *label, const struct bm_hres *h)
{
	char c[5][32], det[512];
	int i;

	for (i = 0; i < 5; i++)
		cell(c[i], sizeof(c[i]), h, main_cols[i]);
	details(det, sizeof(det), h);
	/* no trailing blank when there are no details */
	fprintf(f, "%-*s: %7s %5s %5s %9s %9s%s%s\n", width, label, c[0], c[1], c[2],
		c[3], c[4], det[0] ? " " : "", det);
}

/* Tests in order of first appearance; returns a malloc'd array of names. */
static const char **collect_tests(const struct bm_table_boot *boots, size_t n, size_t *count)
{
	const char **t = NULL;
	size_t nt = 0, i, j, k;

	for (i = 0; i < n; i++) {
		for (j = 0; j < boots[i].r->nres; j++) {
			const char *name = boots[i].r->res[j].test;
			const char **nt2;

			for (k = 0; k < nt && strcmp(t[k], name); k++)
				;
			if (k < nt)
				continue;
			nt2 = realloc(t, (nt + 1) * sizeof(*t));
			if (!nt2)
				break;
			t = nt2;
			t[nt++] = name;
		}
	}
	*count = nt;
	return t;
}

static int width_for(const struct bm_table_boot *boots, size_t n, const char *test,
		     int show_rep)
{
	char label[128];
	int width = LABEL_MIN;
	size_t i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < boots[i].r->nres; j++) {
			if (strcmp(boots[i].r->res[j].test, test))
				continue;
			row_label(&boots[i], &boots[i].r->res[j], show_rep, label, sizeof(label));
			if ((int)strlen(label) > width)
				width = (int)strlen(label);
		}
	}
	return width + 1;  /* "EXT4 6.1.0-53 :" */
}

/* Rows grouped by filesystem, then boot order: kernels side by side. */
static void print_rows(FILE *f, const struct bm_table_boot *boots, size_t n, const char *test,
		       int show_rep, int width)
{
	const char *fs[64];
	char label[128];
	size_t nfs = 0, i, j, k;

	for (i = 0; i < n; i++)
		for (j = 0; j < boots[i].r->nres; j++) {
			const struct bm_hres *h = &boots[i].r->res[j];

			if (strcmp(h->test, test))
				continue;
			for (k = 0; k < nfs && strcmp(fs[k], h->fs); k++)
				;
			if (k == nfs && nfs < sizeof(fs) / sizeof(fs[0]))
				fs[nfs++] = h->fs;
		}
	for (k = 0; k < nfs; k++)
		for (i = 0; i < n; i++)
			for (j = 0; j < boots[i].r->nres; j++) {
				const struct bm_hres *h = &boots[i].r->res[j];

				if (strcmp(h->test, test) || strcmp(h->fs, fs[k]))
					continue;
				row_label(&boots[i], h, show_rep, label, sizeof(label));
				print_row(f, width, label, h);
			}
}

static void print_test(FILE *f, const struct bm_table_boot *boots, size_t n, const char *test)
{
	int width, show_rep = 0;
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < boots[i].r->nres; j++)
			if (!strcmp(boots[i].r->res[j].test, test) && boots[i].r->res[j].rep > 1)
				show_rep = 1;
	width = width_for(boots, n, test, show_rep);
	fprintf(f, ": %s :\n", test);
	fprintf(f, "%-*s  %7s %5s %5s %9s %9s %s\n", width, "", "REAL", "UTIME", "STIME",
		"READ", "WRITTEN", "DETAILS");
	print_rows(f, boots, n, test, show_rep, width);
}

void bm_table_print(FILE *f, const struct bm_table_boot *boots, size_t n)
{
	const char **tests;
	size_t nt, i;

	tests = collect_tests(boots, n, &nt);
	for (i = 0; i < nt; i++) {
		if (i)
			fputc('\n', f);
		print_test(f, boots, n, tests[i]);
	}
	free(tests);
}
