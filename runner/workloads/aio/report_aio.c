// SPDX-License-Identifier: MIT
/*
 * The aio table, shaped like seed 002 (Nathan Roberts' figures for the aio
 * batching patch, 2009): a block per file size, a row per kernel with a
 * "(w/o drop_caches)" row for cache=warm, files read per second.  The seed
 * had one column per I/O scheduler (NOOP); here the columns are the two
 * interfaces, each with files/s, MiB/s and the mean per-file latency.
 * A block also differs by files, qd, threads, the order of a file's reads
 * (seq or random) and the O_DIRECT that ran (the record's direct metric:
 * a filesystem that refuses O_DIRECT reads buffered, "direct=0 (1 asked)"),
 * shown in its heading.  Repeats are averaged; a partial result is marked
 * '*'; a metric a record lacks leaves its cell "-", never 0.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

#define AIO_RBLOCKS 16
#define AIO_RROWS   64

static const char *const aio_rengines[] = { "libaio", "io_uring" };

struct aio_cell {
	double files_s, rate, lat;
	int n, partial;
	int nf, nr, nl;      /* records that had files_s, rate, lat_avg */
};

struct aio_rrow {
	const char *label;
	int warm;
	struct aio_cell c[2];
};

struct aio_rblock {
	char fsize[16], rest[128];
	unsigned nrows;
	struct aio_rrow rows[AIO_RROWS];
};

static void aio_block_key(const struct bm_rres *h, char *fsize, size_t flen, char *rest,
			  size_t rlen)
{
	char f[32] = "?", q[32] = "?", t[32] = "?", d[8] = "?", o[16] = "seq", ran[32];
	const struct bm_rmetric *m = bm_rres_metric(h, "direct");

	if (!bm_rres_param(h, "fsize", fsize, flen))
		snprintf(fsize, flen, "?");
	bm_rres_param(h, "files", f, sizeof(f));
	bm_rres_param(h, "qd", q, sizeof(q));
	bm_rres_param(h, "threads", t, sizeof(t));
	bm_rres_param(h, "direct", d, sizeof(d));
	bm_rres_param(h, "order", o, sizeof(o));
	/* the direct that ran, and what was asked when it differs */
	if (m && isfinite(m->value) && (int)m->value != (d[0] == '1'))
		snprintf(ran, sizeof(ran), "%d (%s asked)", (int)m->value, d);
	else
		snprintf(ran, sizeof(ran), "%s", m && isfinite(m->value) ? (m->value ? "1" : "0") : d);
	snprintf(rest, rlen, "files=%s qd=%s threads=%s order=%s direct=%s", f, q, t, o, ran);
}

static struct aio_rblock *aio_find_block(struct aio_rblock *b, unsigned *nb,
					 const struct bm_rres *h)
{
	char fsize[16], rest[128];
	unsigned i;

	aio_block_key(h, fsize, sizeof(fsize), rest, sizeof(rest));
	for (i = 0; i < *nb; i++)
		if (!strcmp(b[i].fsize, fsize) && !strcmp(b[i].rest, rest))
			return &b[i];
	if (*nb == AIO_RBLOCKS)
		return NULL;
	memset(&b[*nb], 0, sizeof(b[*nb]));
	snprintf(b[*nb].fsize, sizeof(b[*nb].fsize), "%s", fsize);
	snprintf(b[*nb].rest, sizeof(b[*nb].rest), "%s", rest);
	return &b[(*nb)++];
}

static void aio_add(struct aio_rblock *b, const struct bm_rrow *row)
{
	const struct bm_rres *h = row->r;
	char eng[16] = "", cache[16] = "";
	struct aio_cell *c;
	unsigned i;
	int e, warm;

	bm_rres_param(h, "engine", eng, sizeof(eng));
	bm_rres_param(h, "cache", cache, sizeof(cache));
	e = !strcmp(eng, aio_rengines[1]);
	warm = !strcmp(cache, "warm");
	for (i = 0; i < b->nrows; i++)
		if (!strcmp(b->rows[i].label, row->label) && b->rows[i].warm == warm)
			break;
	if (i == b->nrows) {
		if (b->nrows == AIO_RROWS)
			return;
		b->rows[b->nrows].label = row->label;
		b->rows[b->nrows++].warm = warm;
	}
	c = &b->rows[i].c[e];
	if (bm_rres_metric(h, "files_s")) {
		c->files_s += bm_rres_value(h, "files_s", 0);
		c->nf++;
	}
	if (bm_rres_metric(h, "rate")) {
		c->rate += bm_rres_value(h, "rate", 0);
		c->nr++;
	}
	if (bm_rres_metric(h, "lat_avg")) {
		c->lat += bm_rres_value(h, "lat_avg", 0);
		c->nl++;
	}
	c->n++;
	c->partial |= h->partial;
}

static void aio_print_block(FILE *f, const struct aio_rblock *b)
{
	char name[128], up[16];
	unsigned i, k;
	int e, w = 36, len;

	/* the seed's 36 columns, wider when a label needs it */
	for (i = 0; i < b->nrows; i++) {
		len = (int)strlen(b->rows[i].label) + (b->rows[i].warm ? 18 : 0);
		if (len + 1 > w)
			w = len + 1;
	}

	for (k = 0; k < sizeof(up) - 1 && b->fsize[k]; k++)
		up[k] = (char)(b->fsize[k] >= 'a' && b->fsize[k] <= 'z' ? b->fsize[k] - 32
									 : b->fsize[k]);
	up[k] = '\0';
	fprintf(f, "%s  (%s)\n", up, b->rest);
	fprintf(f, "-------------------------------------------------------------------"
		   "-----------------------\n");
	fprintf(f, "%-*s %-27s %s\n", w, "Kernel", "LIBAIO", "IO_URING");
	fprintf(f, "%-*s %7s  %8s %8s %7s  %8s %8s\n", w, "------", "files/s", "MiB/s", "lat ms",
		"files/s", "MiB/s", "lat ms");
	for (i = 0; i < b->nrows; i++) {
		snprintf(name, sizeof(name), "%s%s", b->rows[i].label,
			 b->rows[i].warm ? " (w/o drop_caches)" : "");
		fprintf(f, "%-*s", w, name);
		for (e = 0; e < 2; e++) {
			const struct aio_cell *c = &b->rows[i].c[e];

			if (!c->n) {
				fprintf(f, " %8s %8s %8s", "-", "-", "-");
				continue;
			}
			if (c->nf)
				fprintf(f, " %7.0f%c", c->files_s / c->nf, c->partial ? '*' : ' ');
			else
				fprintf(f, " %7s%c", "-", c->partial ? '*' : ' ');
			if (c->nr)
				fprintf(f, " %8.1f", c->rate / c->nr);
			else
				fprintf(f, " %8s", "-");
			if (c->nl)
				fprintf(f, " %8.3f", c->lat / c->nl);
			else
				fprintf(f, " %8s", "-");
		}
		fprintf(f, "\n");
	}
	fprintf(f, "\n");
}

static void aio_print(FILE *f, const struct bm_rrow *rows, size_t n)
{
	static struct aio_rblock blocks[AIO_RBLOCKS];
	struct aio_rblock *b;
	unsigned nb = 0, i;
	size_t k;

	for (k = 0; k < n; k++) {
		b = aio_find_block(blocks, &nb, rows[k].r);
		if (b)
			aio_add(b, &rows[k]);
	}
	for (i = 0; i < nb; i++)
		aio_print_block(f, &blocks[i]);
	fprintf(f, "Unit of measure is \"files read per second\"; MiB/s = 2^20 bytes per "
		   "second; lat = mean ms per file, first submit to last completion; "
		   "* = partial.\n");
}

const struct bm_report_ops report_aio_ops = {
	.wl = "aio",
	.print = aio_print,
};
