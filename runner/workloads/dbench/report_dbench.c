// SPDX-License-Identifier: MIT
/*
 * dbench's report: seed 004's table (one block per client count, DETAILS
 * "Throughput 222.623 MB/sec 4 procs"), then for every row what dbench
 * 4.0 prints at the end of a run: its per-op table (the ops the record
 * carries, in dbench's order) and the final Throughput line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define LABEL_MIN 8

/* dbench's per-op table names, in its order, and the record's metric stem. */
static const struct {
	const char *name, *stem;
} db_rows[] = {
	{ "NTCreateX", "create" }, { "Close", "close" }, { "Qpathinfo", "qpath" },
	{ "Find", "find" }, { "WriteX", "write" }, { "ReadX", "read" },
};

static void db_cell(char *buf, size_t len, const struct bm_rres *h, const char *name)
{
	const struct bm_rmetric *m = bm_rres_metric(h, name);
	double v;

	if (!m || !isfinite(m->value)) {
		snprintf(buf, len, "-");
		return;
	}
	v = m->value;
	if (!strcmp(name, "real"))
		snprintf(buf, len, "%.2f", v);
	else if (!strcmp(name, "utime") || !strcmp(name, "stime"))
		snprintf(buf, len, "%.0f", strcmp(m->unit, "s") ? v : v * 100);
	else if (!strcmp(m->unit, "MiB"))
		snprintf(buf, len, "%.0f", v * 1024);
	else if (!strcmp(m->unit, "B"))
		snprintf(buf, len, "%.0f", v / 1024);
	else
		snprintf(buf, len, "%.0f", v);
}

/* dbench's "%g" of the throughput, or "-" when the record has none. */
static void db_tput_text(char *buf, size_t len, const struct bm_rres *h)
{
	double v = bm_rres_value(h, "tput", NAN);

	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%g", v);
}

/* The table says when a row replayed bootmark's own mix, and which dbench
 * clock and formula (1.x, 2.x) a row follows. */
static const char *db_load_note(const struct bm_rres *h)
{
	char lf[64] = "", v[8] = "";
	int gen = bm_rres_param(h, "loadfile", lf, sizeof(lf)) && !strcmp(lf, "generated");

	bm_rres_param(h, "version", v, sizeof(v));
	if (!strcmp(v, "1"))
		return gen ? " (dbench 1.x, generated loadfile)" : " (dbench 1.x)";
	if (!strcmp(v, "2"))
		return gen ? " (dbench 2.x, generated loadfile)" : " (dbench 2.x)";
	return gen ? " (generated loadfile, not client.txt)" : "";
}

static int db_procs(const struct bm_rres *h)
{
	char buf[16];

	return bm_rres_param(h, "clients", buf, sizeof(buf)) ? atoi(buf) : 0;
}

static void db_label(char *buf, size_t len, const struct bm_rrow *row, int show_rep)
{
	snprintf(buf, len, "%s", row->label ? row->label : "");
	if (show_rep)
		snprintf(buf + strlen(buf), len - strlen(buf), " #%d", row->r->rep);
}

static int db_show_rep(const struct bm_rrow *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(rows[i].r->wl, "dbench") && rows[i].r->rep > 1)
			return 1;
	return 0;
}

static void db_block(FILE *f, const struct bm_rrow *rows, size_t n, const char *test, int rep)
{
	static const char *const cols[] = { "real", "utime", "stime", "read", "written" };
	char label[160], c[5][32], tput[32];
	int width = LABEL_MIN;
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		db_label(label, sizeof(label), &rows[i], rep);
		if (!strcmp(rows[i].r->test, test) && (int)strlen(label) > width)
			width = (int)strlen(label);
	}
	width++;
	fprintf(f, ": %s :\n%-*s  %7s %5s %5s %9s %9s %s\n", test, width, "", "REAL", "UTIME",
		"STIME", "READ", "WRITTEN", "DETAILS");
	for (i = 0; i < n; i++) {
		const struct bm_rres *h = rows[i].r;

		if (strcmp(h->test, test))
			continue;
		for (k = 0; k < 5; k++)
			db_cell(c[k], sizeof(c[k]), h, cols[k]);
		db_label(label, sizeof(label), &rows[i], rep);
		db_tput_text(tput, sizeof(tput), h);
		fprintf(f, "%-*s: %7s %5s %5s %9s %9s Throughput %s MB/sec %d procs%s%s\n", width,
			label, c[0], c[1], c[2], c[3], c[4], tput, db_procs(h), db_load_note(h),
			h->partial ? " (partial)" : "");
	}
}

/* " %9.03f" of a latency, or the field as "-" when the record lacks it. */
static void db_ms(FILE *f, const struct bm_rres *h, const char *key)
{
	double v = bm_rres_value(h, key, NAN);

	if (isnan(v))
		fprintf(f, " %9s", "-");
	else
		fprintf(f, " %9.03f", v);
}

static void db_optable(FILE *f, const struct bm_rrow *row, int rep)
{
	const struct bm_rres *h = row->r;
	char label[160], key[32], tput[32], lat[32];
	size_t k;
	double cnt;

	db_label(label, sizeof(label), row, rep);
	fprintf(f, "%s %s (%s):\n\n Operation      Count    AvgLat    MaxLat\n"
		" ----------------------------------------\n", label, h->test, h->params);
	for (k = 0; k < sizeof(db_rows) / sizeof(db_rows[0]); k++) {
		snprintf(key, sizeof(key), "n_%s", db_rows[k].stem);
		cnt = bm_rres_value(h, key, 0);
		if (cnt <= 0)
			continue;  /* dbench omits ops that did not run */
		fprintf(f, " %-12s %7u", db_rows[k].name, (unsigned)cnt);
		snprintf(key, sizeof(key), "avg_%s", db_rows[k].stem);
		db_ms(f, h, key);
		snprintf(key, sizeof(key), "max_%s", db_rows[k].stem);
		db_ms(f, h, key);
		fputc('\n', f);
	}
	db_tput_text(tput, sizeof(tput), h);
	if (bm_rres_metric(h, "lat_max"))
		snprintf(lat, sizeof(lat), "%.03f", bm_rres_value(h, "lat_max", 0));
	else
		snprintf(lat, sizeof(lat), "-");
	fprintf(f, "\nThroughput %s MB/sec  %d clients  %d procs  max_latency=%s ms%s%s\n", tput,
		db_procs(h), db_procs(h), lat, db_load_note(h), h->partial ? " (partial)" : "");
}

/* A block per test label in order of its first row (bm_rgroups_make), then
 * every result's operation table in run order. */
static void db_print(FILE *f, const struct bm_rrow *rows, size_t n)
{
	const char **keys = calloc(n + 1, sizeof(*keys));
	struct bm_rrow *sub = calloc(n + 1, sizeof(*sub));
	int rep = db_show_rep(rows, n), blocks = 0;
	struct bm_rgroups g;
	size_t i, k, b;

	if (!keys || !sub)
		goto out_free;
	for (i = 0; i < n; i++)
		keys[i] = strcmp(rows[i].r->wl, "dbench") ? NULL : rows[i].r->test;
	if (bm_rgroups_make(&g, keys, n))
		goto out_free;
	for (b = 0; b < g.ngroups; b++) {
		for (k = 0, i = g.start[b]; i < g.start[b + 1]; i++)
			sub[k++] = rows[g.order[i]];
		if (blocks++)
			fputc('\n', f);
		db_block(f, sub, k, sub[0].r->test, rep);
	}
	bm_rgroups_free(&g);
	for (i = 0; i < n; i++) {
		if (strcmp(rows[i].r->wl, "dbench"))
			continue;
		fputc('\n', f);
		db_optable(f, &rows[i], rep);
	}
out_free:
	free(keys);
	free(sub);
}

const struct bm_report_ops report_dbench_ops = {
	.wl = "dbench",
	.print = db_print,
};
