// SPDX-License-Identifier: MIT
/*
 * bonnie's report.  Every bonnie test is a record of its own; a row is the
 * records of one job (same params) on one filesystem and kernel (label)
 * and repeat, put back together as bonnie++ would have printed them:
 *
 *   the classic Bonnie table (seed 001's shape, Tim Bray's format:
 *   "%5d %4.1f" per test) and a latency block in the same grid;
 *   a bonnie++-style file-test table (" %5d %3d" per test) and latencies;
 *   one bonnie++ CSV line, format 1.98, per row, for bon_csv2html.
 *
 * A test whose own elapsed time is under 0.5 s prints "+++++" (and "+++"
 * for %CPU) as bonnie++ does, in the tables and in the CSV; the record
 * keeps the number.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "report_bonnie.h"

#define BON_MIN_TIME 0.5        /* bonnie++'s MinTime */
#define BON_IO_TESTS 6
#define BON_LABEL_MIN 8

static const char *const bon_tests[BON_REPORT_TESTS] = {
	"bon-putc", "bon-block-w", "bon-rewrite", "bon-getc", "bon-block-r", "bon-seeks",
	"bon-seq-create", "bon-seq-stat", "bon-seq-del", "bon-rnd-create", "bon-rnd-stat",
	"bon-rnd-del",
};

struct bon_row {
	const char *label, *fs, *params;
	int rep, partial;
	const struct bm_rres *t[BON_REPORT_TESTS];
};

int report_bonnie_index(const char *test)
{
	int i;

	for (i = 0; i < BON_REPORT_TESTS; i++)
		if (!strcmp(bon_tests[i], test))
			return i;
	return -1;
}

/* Records -> rows, in order of first appearance; returns the row count. */
static size_t bon_group(const struct bm_rrow *rows, size_t n, struct bon_row *out)
{
	const char *label;
	size_t i, j, nr = 0;
	int t;

	for (i = 0; i < n; i++) {
		const struct bm_rres *r = rows[i].r;

		t = report_bonnie_index(r->test);
		if (t < 0)
			continue;
		label = rows[i].label ? rows[i].label : r->fs;
		for (j = 0; j < nr; j++)
			if (!strcmp(out[j].label, label) && out[j].rep == r->rep &&
			    !strcmp(out[j].params, r->params) && !out[j].t[t])
				break;
		if (j == nr) {
			memset(&out[nr], 0, sizeof(out[nr]));
			out[nr].label = label;
			out[nr].fs = r->fs;
			out[nr].params = r->params;
			out[nr].rep = r->rep;
			nr++;
		}
		out[j].t[t] = r;
		out[j].partial |= r->partial;
	}
	return nr;
}

/* Rows of one filesystem together (first appearance), run order within. */
static void bon_by_fs(struct bon_row *rows, size_t n)
{
	struct bon_row *tmp = malloc((n ? n : 1) * sizeof(*tmp));
	size_t i, j, k = 0;

	if (!tmp)
		return;
	for (i = 0; i < n; i++) {
		for (j = 0; j < i && strcmp(rows[j].fs, rows[i].fs); j++)
			;
		if (j < i)
			continue;
		for (j = i; j < n; j++)
			if (!strcmp(rows[j].fs, rows[i].fs))
				tmp[k++] = rows[j];
	}
	memcpy(rows, tmp, n * sizeof(*tmp));
	free(tmp);
}

static const struct bm_rres *bon_any(const struct bon_row *row, int from, int to)
{
	int i;

	for (i = from; i < to; i++)
		if (row->t[i])
			return row->t[i];
	return NULL;
}

static long long bon_param(const struct bm_rres *r, const char *k, long long dflt)
{
	char buf[32];
	uint64_t v;

	if (!r || !bm_rres_param(r, k, buf, sizeof(buf)) || bm_parse_size(buf, &v))
		return dflt;
	return (long long)v;
}

/* bonnie++ prints a test under MinTime (0.5 s) as +++++; a record with
 * no elapsed time or no rate has no figure at all (bonnie++'s blank cell
 * for Elapsed == 0), never a 0. */
static int bon_fast(const struct bm_rres *r)
{
	return bm_rres_metric(r, "elapsed") && bm_rres_value(r, "elapsed", 0) < BON_MIN_TIME;
}

static int bon_blank(const struct bm_rres *r)
{
	return !r || !bm_rres_metric(r, "rate") || !bm_rres_metric(r, "elapsed");
}

/* bonnie++'s %CPU: the record's, or int(cpu_s / elapsed * 100); -1 when
 * the record has neither (printed as missing, not as 0). */
static int bon_cpu(const struct bm_rres *r)
{
	double e = bm_rres_value(r, "elapsed", 0);

	if (bm_rres_metric(r, "cpu"))
		return (int)bm_rres_value(r, "cpu", 0);
	if (!bm_rres_metric(r, "cpu_s") || e <= 0)
		return -1;
	return (int)(bm_rres_value(r, "cpu_s", 0) / e * 100.0);
}

void report_bonnie_lat(char *buf, size_t len, double lat_us)
{
	double s = lat_us / 1e6;

	if (lat_us <= 0)
		snprintf(buf, len, "%s", "");
	else if (s > 99.999999)
		snprintf(buf, len, "%ds", (int)s);
	else if (s > 0.099999)
		snprintf(buf, len, "%dms", (int)(s * 1000.0));
	else
		snprintf(buf, len, "%dus", (int)lat_us);
}

/* ---- CSV, format 1.98 (bonnie++ 1.98 .. 2.00a, bon_csv2html's indexes) ---- */

struct bon_csv {
	char f[BON_CSV_FIELDS][40];
};

static void bon_csv_test(struct bon_csv *c, int at, const struct bm_rres *r, int seeks)
{
	double rate;

	if (!r)
		return;
	if (bon_fast(r)) {
		snprintf(c->f[at], sizeof(c->f[at]), "+++++");
		snprintf(c->f[at + 1], sizeof(c->f[at + 1]), "+++");
		return;
	}
	if (bon_blank(r))
		return;
	rate = bm_rres_value(r, "rate", 0);
	if (!seeks)
		snprintf(c->f[at], sizeof(c->f[at]), "%d", (int)rate);
	else
		snprintf(c->f[at], sizeof(c->f[at]), rate >= 1000.0 ? "%.0f" : "%.1f", rate);
	if (bon_cpu(r) >= 0)
		snprintf(c->f[at + 1], sizeof(c->f[at + 1]), "%d", bon_cpu(r));
}

/* Indexes 0..8: what ran, as DoReportIO() writes it (io_chunk_size empty). */
static void bon_csv_head(struct bon_csv *c, const char *name,
			 const struct bm_rres *io, const struct bm_rres *any)
{
	long long mib = bon_param(io, "size", 0) >> 20;
	char ver[16];
	size_t i;

	snprintf(c->f[0], sizeof(c->f[0]), "1.98");
	if (!any || !bm_rres_param(any, "version", ver, sizeof(ver)))
		snprintf(ver, sizeof(ver), "2.00a");
	snprintf(c->f[1], sizeof(c->f[1]), "bootmark-%s", ver);
	snprintf(c->f[2], sizeof(c->f[2]), "%.39s", name);
	for (i = 0; c->f[2][i]; i++)
		if (c->f[2][i] == ',' || c->f[2][i] == '\n')
			c->f[2][i] = '_';
	snprintf(c->f[3], sizeof(c->f[3]), "1");
	snprintf(c->f[4], sizeof(c->f[4]), "%lld", bon_param(any, "seed", 0));
	if (!io)
		return;  /* as bonnie++ -s 0: the I/O fields stay empty */
	if (mib && mib % 1024 == 0)
		snprintf(c->f[5], sizeof(c->f[5]), "%lldG", mib / 1024);
	else
		snprintf(c->f[5], sizeof(c->f[5]), "%lldM", mib);
	snprintf(c->f[7], sizeof(c->f[7]), "%lld", bon_param(io, "seeks", 8192));
	snprintf(c->f[8], sizeof(c->f[8]), "%lld", bon_param(io, "seekers", 5));
}

/* Indexes 21..25: num_files, max_size, min_size, num_dirs, file_chunk_size. */
static void bon_csv_files(struct bon_csv *c, const struct bm_rres *fr)
{
	long long max = bon_param(fr, "max_size", 0), min = bon_param(fr, "min_size", 0);
	long long dirs = bon_param(fr, "dirs", 1);

	snprintf(c->f[21], sizeof(c->f[21]), "%lld", bon_param(fr, "num", 16));
	if (max)
		snprintf(c->f[22], sizeof(c->f[22]), "%lld", max);
	if (max && min)
		snprintf(c->f[23], sizeof(c->f[23]), "%lld", min);
	if (dirs > 1)
		snprintf(c->f[24], sizeof(c->f[24]), "%lld", dirs);
	/* [25] file_chunk_size: empty for the default 8 KiB, the only one here */
}

int report_bonnie_csv(char *buf, size_t len, const char *name,
		      const struct bm_rres *const t[BON_REPORT_TESTS])
{
	const struct bm_rres *io = NULL, *fr = NULL;
	struct bon_csv c;
	size_t used = 0;
	int i;

	memset(&c, 0, sizeof(c));
	for (i = 0; i < BON_REPORT_TESTS; i++) {
		if (t[i] && i < BON_IO_TESTS && !io)
			io = t[i];
		if (t[i] && i >= BON_IO_TESTS && !fr)
			fr = t[i];
	}
	bon_csv_head(&c, name, io, io ? io : fr);
	if (fr)
		bon_csv_files(&c, fr);
	for (i = 0; i < BON_REPORT_TESTS; i++) {
		bon_csv_test(&c, i < BON_IO_TESTS ? 9 + 2 * i : 26 + 2 * (i - BON_IO_TESTS), t[i],
			     i == BON_IO_TESTS - 1);
		if (t[i])
			report_bonnie_lat(c.f[38 + i], sizeof(c.f[38 + i]),
					  bm_rres_value(t[i], "lat", 0));
	}
	for (i = 0; i < BON_CSV_FIELDS; i++) {
		size_t n = strlen(c.f[i]) + (i > 0);

		if (used + n >= len)
			return -E2BIG;
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "", c.f[i]);
	}
	return 0;
}

/* ---- the tables ---- */

/* Drops the blanks an empty last cell leaves. */
static void bon_puts(FILE *f, char *line)
{
	size_t n = strlen(line);

	while (n && line[n - 1] == ' ')
		line[--n] = '\0';
	fprintf(f, "%s\n", line);
}

static int bon_width(const struct bon_row *rows, size_t n, int from, int to)
{
	int w = BON_LABEL_MIN;
	size_t i;

	for (i = 0; i < n; i++)
		if (bon_any(&rows[i], from, to) && (int)strlen(rows[i].label) > w)
			w = (int)strlen(rows[i].label);
	return w;
}

/* Classic cells: "%5d %4.1f", seeks "%5.1f %4.1f"; %CPU unrounded as Bonnie,
 * "-" when the record has no CPU figure. */
static size_t bon_io_cell(char *buf, size_t len, const struct bm_rres *r, int seeks)
{
	char cpu[16];
	double e, c, rate;

	if (!r)
		return (size_t)snprintf(buf, len, "%5s %4s ", "", "");
	if (bon_fast(r))
		return (size_t)snprintf(buf, len, "%5s %4s ", "+++++", "+++");
	if (bon_blank(r))
		return (size_t)snprintf(buf, len, "%5s %4s ", "-", "-");
	e = bm_rres_value(r, "elapsed", 0);
	c = bm_rres_metric(r, "cpu_s") ? bm_rres_value(r, "cpu_s", 0) / e * 100.0
				       : bm_rres_value(r, "cpu", NAN);
	if (isnan(c))
		snprintf(cpu, sizeof(cpu), "%4s", "-");
	else
		snprintf(cpu, sizeof(cpu), "%4.1f", c);
	rate = bm_rres_value(r, "rate", 0);
	/* bonnie++'s rule for seeks, which keeps 1000/s and more in the column */
	if (seeks)
		return (size_t)snprintf(buf, len, rate >= 1000.0 ? "%5.0f %s " : "%5.1f %s ", rate,
					cpu);
	return (size_t)snprintf(buf, len, "%5d %s ", (int)rate, cpu);
}

static void bon_print_io(FILE *f, const struct bon_row *rows, size_t n)
{
	int w = bon_width(rows, n, 0, BON_IO_TESTS), i;
	char line[512], lat[32];
	size_t k, used;

	fprintf(f, "%*s-------Sequential Output-------- ---Sequential Input-- --Random--\n",
		w + 6, "");
	fprintf(f, "%*s-Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --Seeks---\n",
		w + 6, "");
	fprintf(f, "%-*s %4s K/sec %%CPU K/sec %%CPU K/sec %%CPU K/sec %%CPU K/sec %%CPU  /sec %%CPU\n",
		w, "Machine", "MB");
	for (k = 0; k < n; k++) {
		const struct bm_rres *io = bon_any(&rows[k], 0, BON_IO_TESTS);

		if (!io)
			continue;
		used = (size_t)snprintf(line, sizeof(line), "%-*s %4lld ", w, rows[k].label,
					bon_param(io, "size", 0) >> 20);
		for (i = 0; i < BON_IO_TESTS; i++)
			used += bon_io_cell(line + used, sizeof(line) - used, rows[k].t[i],
					    i == BON_IO_TESTS - 1);
		if (rows[k].partial)
			snprintf(line + used, sizeof(line) - used, "(partial)");
		bon_puts(f, line);
	}
	fprintf(f, "%-*s %4s -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --Seeks---\n",
		w, "Latency", "");
	for (k = 0; k < n; k++) {
		if (!bon_any(&rows[k], 0, BON_IO_TESTS))
			continue;
		used = (size_t)snprintf(line, sizeof(line), "%-*s %4s ", w, rows[k].label, "");
		for (i = 0; i < BON_IO_TESTS; i++) {
			lat[0] = '\0';
			if (rows[k].t[i])
				report_bonnie_lat(lat, sizeof(lat), bm_rres_value(rows[k].t[i], "lat", 0));
			used += (size_t)snprintf(line + used, sizeof(line) - used, "%10s ", lat);
		}
		bon_puts(f, line);
	}
}

/* bonnie++'s files column: "16", "16:4096:1024", "16/4". */
static void bon_files_spec(char *buf, size_t len, const struct bon_row *row)
{
	const struct bm_rres *fr = bon_any(row, BON_IO_TESTS, BON_REPORT_TESTS);
	long long max = bon_param(fr, "max_size", 0), dirs = bon_param(fr, "dirs", 1);
	size_t n = (size_t)snprintf(buf, len, "%lld", bon_param(fr, "num", 16));

	if (max && n < len)
		n += (size_t)snprintf(buf + n, len - n, ":%lld:%lld", max,
				      bon_param(fr, "min_size", 0));
	if (dirs > 1 && n < len)
		snprintf(buf + n, len - n, "/%lld", dirs);
}

static size_t bon_file_cell(char *buf, size_t len, const struct bm_rres *r)
{
	if (!r)
		return (size_t)snprintf(buf, len, " %5s %3s", "", "");
	if (bon_fast(r))
		return (size_t)snprintf(buf, len, " %5s %3s", "+++++", "+++");
	if (bon_blank(r))
		return (size_t)snprintf(buf, len, " %5s %3s", "-", "-");
	if (bon_cpu(r) < 0)
		return (size_t)snprintf(buf, len, " %5d %3s", (int)bm_rres_value(r, "rate", 0), "-");
	return (size_t)snprintf(buf, len, " %5d %3d", (int)bm_rres_value(r, "rate", 0),
				bon_cpu(r));
}

static void bon_print_files(FILE *f, const struct bon_row *rows, size_t n)
{
	int w = bon_width(rows, n, BON_IO_TESTS, BON_REPORT_TESTS), sw = 6, i;
	char line[512], spec[64], lat[32];
	size_t k, used;

	for (k = 0; k < n; k++) {
		bon_files_spec(spec, sizeof(spec), &rows[k]);
		if (bon_any(&rows[k], BON_IO_TESTS, BON_REPORT_TESTS) && (int)strlen(spec) > sw)
			sw = (int)strlen(spec);
	}
	fprintf(f, "%*s ------Sequential Create------ --------Random Create--------\n",
		w + 1 + sw, "");
	fprintf(f, "%*s -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n",
		w + 1 + sw, "");
	fprintf(f, "%-*s %*s  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP\n",
		w, "Machine", sw, "files");
	for (k = 0; k < n; k++) {
		if (!bon_any(&rows[k], BON_IO_TESTS, BON_REPORT_TESTS))
			continue;
		bon_files_spec(spec, sizeof(spec), &rows[k]);
		used = (size_t)snprintf(line, sizeof(line), "%-*s %*s", w, rows[k].label, sw, spec);
		for (i = BON_IO_TESTS; i < BON_REPORT_TESTS; i++)
			used += bon_file_cell(line + used, sizeof(line) - used, rows[k].t[i]);
		if (rows[k].partial)
			snprintf(line + used, sizeof(line) - used, " (partial)");
		bon_puts(f, line);
	}
	fprintf(f, "%-*s %*s -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n",
		w, "Latency", sw, "");
	for (k = 0; k < n; k++) {
		if (!bon_any(&rows[k], BON_IO_TESTS, BON_REPORT_TESTS))
			continue;
		used = (size_t)snprintf(line, sizeof(line), "%-*s %*s", w, rows[k].label, sw, "");
		for (i = BON_IO_TESTS; i < BON_REPORT_TESTS; i++) {
			lat[0] = '\0';
			if (rows[k].t[i])
				report_bonnie_lat(lat, sizeof(lat), bm_rres_value(rows[k].t[i], "lat", 0));
			used += (size_t)snprintf(line + used, sizeof(line) - used, " %9s", lat);
		}
		bon_puts(f, line);
	}
}

static void report_bonnie_print(FILE *f, const struct bm_rrow *rows, size_t n)
{
	struct bon_row *br = malloc((n ? n : 1) * sizeof(*br));
	char csv[1024];
	int parts = 0;
	size_t nr, k;

	if (!br)
		return;
	nr = bon_group(rows, n, br);
	bon_by_fs(br, nr);
	for (k = 0; k < nr && !bon_any(&br[k], 0, BON_IO_TESTS); k++)
		;
	if (k < nr) {
		bon_print_io(f, br, nr);
		parts++;
	}
	for (k = 0; k < nr && !bon_any(&br[k], BON_IO_TESTS, BON_REPORT_TESTS); k++)
		;
	if (k < nr) {
		if (parts++)
			fputc('\n', f);
		bon_print_files(f, br, nr);
	}
	if (nr && parts)
		fprintf(f, "\nbonnie++ CSV, format 1.98 (bon_csv2html reads these lines):\n");
	for (k = 0; k < nr; k++)
		if (!report_bonnie_csv(csv, sizeof(csv), br[k].label, br[k].t))
			fprintf(f, "%s\n", csv);
	free(br);
}

const struct bm_report_ops report_bonnie_ops = {
	.wl = "bonnie",
	.print = report_bonnie_print,
};
