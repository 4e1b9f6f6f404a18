// SPDX-License-Identifier: MIT
/*
 * tiobench's table, as tiobench.pl printed it (seed 003, Dec 2002): the
 * unit information, then one block per phase in tiobench.pl's order
 * (Sequential Reads, Random Reads, Sequential Writes, Random Writes), a
 * row per (label, thread count).  The columns follow tiobench.pl's
 * formats: identifier 28 left, size 6 and block 5 centred, CPU% the
 * number's text cut to 5 characters (so 0.75012 shows as "0.750%"),
 * numbers too wide for their column filled with '#'.  "File Size" is all
 * threads' files together in MiB, as tiobench.pl's --size.
 *
 * A last block, which the originals never had, gives the latency
 * percentiles of every row from bootmark's histogram.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "report.h"

static const char *const tio_keys[] = { "seqrd", "rndrd", "seqwr", "rndwr" };
static const char *const tio_titles[] = {
	"Sequential Reads", "Random Reads", "Sequential Writes", "Random Writes",
};
#define TIO_NBLOCKS 4

static const char tio_head[] =
	"                              File  Blk   Num                   Avg      Maximum      Lat%     Lat%    CPU\n"
	"Identifier                    Size  Size  Thr   Rate  (CPU%)  Latency    Latency      >2s      >10s    Eff\n"
	"---------------------------- ------ ----- ---  ------ ------ --------- -----------  -------- -------- -----\n";

static const char tio_pct_head[] =
	"                                    File  Blk   Num        p50       p99     p99.9\n"
	"Identifier                   Test   Size  Size  Thr    Latency   Latency   Latency\n"
	"---------------------------- ----- ------ ----- ---  --------- --------- ---------\n";

static const char tio_units[] =
	"Unit information\n"
	"================\n"
	"File size = megabytes (2^20 bytes), all threads' files together\n"
	"Blk Size  = bytes\n"
	"Rate      = megabytes (2^20 bytes) per second\n"
	"CPU%      = percentage of CPU used during the test\n"
	"Latency   = milliseconds\n"
	"Lat%      = percent of requests that took longer than X seconds\n"
	"CPU Eff   = Rate divided by CPU% - throughput per cpu load\n";

/* Block index of a "tio-seqrd-t8" label, or -1. */
static int tio_block_of(const struct bm_rres *h)
{
	size_t n = strlen(tio_keys[0]);
	int k;

	if (strncmp(h->test, "tio-", 4))
		return -1;
	for (k = 0; k < TIO_NBLOCKS; k++)
		if (!strncmp(h->test + 4, tio_keys[k], n) && h->test[4 + n] == '-')
			return k;
	return -1;
}

/* A perl format numeric field: printf, or all '#' when it does not fit;
 * a metric the record lacks (NAN) prints as "-", never as 0. */
static void tio_num(char *buf, size_t len, int width, int prec, double v)
{
	int n;

	if (isnan(v)) {
		snprintf(buf, len, "%*s", width, "-");
		return;
	}
	n = snprintf(buf, len, "%*.*f", width, prec, v);

	if (n > width && (size_t)width < len) {
		memset(buf, '#', (size_t)width);
		buf[width] = '\0';
	}
}

/* A perl @||| field: centred, the odd space on the right, cut to width. */
static void tio_center(char *buf, size_t len, int width, const char *s)
{
	int n = (int)strlen(s), left;

	if (n > width)
		n = width;
	left = (width - n) / 2;
	snprintf(buf, len, "%*s%.*s%*s", left, "", n, s, width - n - left, "");
}

/* "(CPU%)": tiobench.pl puts the number's text in a 5 wide text field. */
static void tio_cpu(char *buf, size_t len, double cpu)
{
	char t[64];

	if (isnan(cpu)) {
		snprintf(buf, len, "%6s", "-");
		return;
	}
	snprintf(t, sizeof(t), "%.15g", cpu);
	snprintf(buf, len, "%5.5s%%", t);
}

/* Size (all threads, MiB), block size and threads from params. */
static void tio_params(const struct bm_rres *h, char *size, char *bs, char *thr, size_t len)
{
	char v[32];
	uint64_t sz = 0, b = 0;
	long thr_n = 0;

	if (bm_rres_param(h, "threads", v, sizeof(v)))
		thr_n = strtol(v, NULL, 10);
	if (bm_rres_param(h, "size", v, sizeof(v)))
		bm_parse_size(v, &sz);
	if (bm_rres_param(h, "bs", v, sizeof(v)))
		bm_parse_size(v, &b);
	snprintf(thr, len, "%ld", thr_n);
	snprintf(bs, len, "%llu", (unsigned long long)b);
	if ((sz * (uint64_t)thr_n) % (1024 * 1024) == 0)
		snprintf(size, len, "%llu", (unsigned long long)(sz * (uint64_t)thr_n >> 20));
	else
		snprintf(size, len, "%.2f", (double)sz * (double)thr_n / 1048576.0);
}

static void tio_ident(char *buf, size_t len, const struct bm_rrow *row, int show_rep)
{
	char l[160];

	snprintf(l, sizeof(l), "%s", row->label ? row->label : "");
	if (show_rep)
		snprintf(l + strlen(l), sizeof(l) - strlen(l), " #%d", row->r->rep);
	snprintf(buf, len, "%-28.28s", l);
}

static void tio_row(FILE *f, const struct bm_rrow *row, int show_rep)
{
	const struct bm_rres *h = row->r;
	char id[64], sz[32], bs[32], thr[32], csz[16], cbs[16], cpu[16];
	char rate[32], avg[32], max[32], p2[32], p10[32], eff[32];

	tio_ident(id, sizeof(id), row, show_rep);
	tio_params(h, sz, bs, thr, sizeof(sz));
	tio_center(csz, sizeof(csz), 6, sz);
	tio_center(cbs, sizeof(cbs), 5, bs);
	tio_num(rate, sizeof(rate), 6, 2, bm_rres_value(h, "rate", NAN));
	tio_cpu(cpu, sizeof(cpu), bm_rres_value(h, "cpu", NAN));
	tio_num(avg, sizeof(avg), 9, 3, bm_rres_value(h, "lat_avg", NAN));
	tio_num(max, sizeof(max), 11, 2, bm_rres_value(h, "lat_max", NAN));
	tio_num(p2, sizeof(p2), 8, 5, bm_rres_value(h, "pct_2s", NAN));
	tio_num(p10, sizeof(p10), 8, 5, bm_rres_value(h, "pct_10s", NAN));
	tio_num(eff, sizeof(eff), 5, 0, bm_rres_value(h, "eff", NAN));
	fprintf(f, "%s %s %s %3.3s  %s %s %s %s  %s %s %s%s\n", id, csz, cbs, thr, rate, cpu,
		avg, max, p2, p10, eff, h->partial ? "  (partial)" : "");
}

static void tio_pct_row(FILE *f, const struct bm_rrow *row, int show_rep)
{
	const struct bm_rres *h = row->r;
	char id[64], sz[32], bs[32], thr[32], csz[16], cbs[16], p[3][32];
	static const char *const names[] = { "lat_p50", "lat_p99", "lat_p999" };
	int i;

	tio_ident(id, sizeof(id), row, show_rep);
	tio_params(h, sz, bs, thr, sizeof(sz));
	tio_center(csz, sizeof(csz), 6, sz);
	tio_center(cbs, sizeof(cbs), 5, bs);
	for (i = 0; i < 3; i++)
		tio_num(p[i], sizeof(p[i]), 9, 3, bm_rres_value(h, names[i], NAN));
	fprintf(f, "%s %-5s %s %s %3.3s  %s %s %s\n", id, tio_keys[tio_block_of(h)], csz, cbs,
		thr, p[0], p[1], p[2]);
}

/* One phase block; pct selects the percentile rows.  Rows group by params
 * (which holds the thread count), in order of the group's first row (g);
 * groups are set apart by a blank line when one holds several rows (seed
 * 000's layout). */
static void tio_block(FILE *f, const struct bm_rrow *rows, const struct bm_rgroups *g,
		      int blk, int pct, int show_rep)
{
	size_t k, i, per, most = 0, printed = 0;

	for (k = 0; k < g->ngroups; k++) {
		for (i = g->start[k], per = 0; i < g->start[k + 1]; i++)
			per += tio_block_of(rows[g->order[i]].r) == blk;
		most = per > most ? per : most;
	}
	for (k = 0; k < g->ngroups; k++)
		for (i = g->start[k], per = 0; i < g->start[k + 1]; i++) {
			const struct bm_rrow *row = &rows[g->order[i]];

			if (tio_block_of(row->r) != blk)
				continue;
			if (printed && !per && most > 1)
				fputc('\n', f);
			if (pct)
				tio_pct_row(f, row, show_rep);
			else
				tio_row(f, row, show_rep);
			per++;
			printed++;
		}
}

static void tio_print(FILE *f, const struct bm_rrow *rows, size_t n)
{
	int blk, show_rep = 0, has[TIO_NBLOCKS] = { 0 }, any = 0;
	const char **keys;
	struct bm_rgroups g;
	size_t i;

	for (i = 0; i < n; i++) {
		blk = tio_block_of(rows[i].r);
		if (blk >= 0)
			has[blk] = any = 1;
		if (rows[i].r->rep > 1)
			show_rep = 1;
	}
	keys = calloc(n + 1, sizeof(*keys));
	if (!any || !keys)
		goto out_free;
	for (i = 0; i < n; i++)
		keys[i] = rows[i].r->params;
	if (bm_rgroups_make(&g, keys, n))
		goto out_free;
	fputs(tio_units, f);
	for (blk = 0; blk < TIO_NBLOCKS; blk++) {
		if (!has[blk])
			continue;
		fprintf(f, "\n%s\n%s", tio_titles[blk], tio_head);
		tio_block(f, rows, &g, blk, 0, show_rep);
	}
	fprintf(f, "\nLatency percentiles (milliseconds; bootmark's histogram, not in tiobench)\n%s",
		tio_pct_head);
	for (blk = 0, any = 0; blk < TIO_NBLOCKS; blk++) {
		if (!has[blk])
			continue;
		if (any++)
			fputc('\n', f);
		tio_block(f, rows, &g, blk, 1, show_rep);
	}
	bm_rgroups_free(&g);
out_free:
	free(keys);
}

const struct bm_report_ops report_tiobench_ops = {
	.wl = "tiobench",
	.print = tio_print,
};
