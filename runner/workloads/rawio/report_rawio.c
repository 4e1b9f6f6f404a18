// SPDX-License-Identifier: MIT
/*
 * The rawio table: a block per direction, block size, I/O count and region
 * (the params without engine, qd and batch), a row per result in run order:
 * where it ran (kernel, "RAW"), the engine, depth and batch, then IOPS,
 * MiB/s, the latency percentiles in microseconds (fio prints clat
 * percentiles in usec too) and CPU microseconds per I/O.  A partial result
 * is marked '*'; a metric a record lacks leaves its cell "-", never 0.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "wl_rawio.h"

static void block_key(const struct bm_rres *h, char *buf, size_t len)
{
	char rw[16] = "?", bs[16] = "?", ios[24] = "?", size[24] = "?";

	bm_rres_param(h, "rw", rw, sizeof(rw));
	bm_rres_param(h, "bs", bs, sizeof(bs));
	bm_rres_param(h, "ios", ios, sizeof(ios));
	bm_rres_param(h, "size", size, sizeof(size));
	snprintf(buf, len, "%s bs=%s ios=%s size=%s%s", rw, bs, ios, size,
		 strcmp(size, "0") ? "" : " (the whole disk)");
}

/* A cell of width w: the value times scale with prec decimals, or "-". */
static void cell(FILE *f, const struct bm_rres *h, const char *name, double scale, int w,
		 int prec)
{
	const struct bm_rmetric *m = bm_rres_metric(h, name);

	if (m && isfinite(m->value))
		fprintf(f, " %*.*f", w, prec, m->value * scale);
	else
		fprintf(f, " %*s", w, "-");
}

static void row(FILE *f, const struct bm_rrow *r)
{
	const struct bm_rres *h = r->r;
	char eng[24] = "?", qd[8] = "?", batch[16] = "?", label[40];

	bm_rres_param(h, "engine", eng, sizeof(eng));
	bm_rres_param(h, "qd", qd, sizeof(qd));
	bm_rres_param(h, "batch", batch, sizeof(batch));
	snprintf(label, sizeof(label), "%s%s", r->label, h->partial ? " *" : "");
	if (h->rep > 1)
		snprintf(label + strlen(label), sizeof(label) - strlen(label), " #%d", h->rep);
	fprintf(f, "%-22s: %-15s %4s %7s", label, eng, qd, batch);
	cell(f, h, "iops", 1, 9, 0);
	cell(f, h, "bw", 1, 8, 1);
	cell(f, h, "lat_p50", 1000, 8, 1);
	cell(f, h, "lat_p99", 1000, 8, 1);
	cell(f, h, "lat_p999", 1000, 8, 1);
	cell(f, h, "cpu_io", 1, 7, 1);
	fputc('\n', f);
}

/* A block per key, in order of its first row (bm_rgroups_make). */
static void rawio_print(FILE *f, const struct bm_rrow *rows, size_t n)
{
	char (*key)[128] = calloc(n + 1, sizeof(*key));
	const char **keys = calloc(n + 1, sizeof(*keys));
	struct bm_rgroups g;
	size_t i, b;

	if (!key || !keys)
		goto out_free;
	for (i = 0; i < n; i++) {
		block_key(rows[i].r, key[i], sizeof(key[i]));
		keys[i] = key[i];
	}
	if (bm_rgroups_make(&g, keys, n))
		goto out_free;
	for (b = 0; b < g.ngroups; b++) {
		fprintf(f, "%s: rawio %s :\n", b ? "\n" : "", keys[g.order[g.start[b]]]);
		fprintf(f, "%-22s  %-15s %4s %7s %9s %8s %8s %8s %8s %7s\n", "", "engine", "qd",
			"batch", "IOPS", "MiB/s", "p50 us", "p99 us", "p99.9 us", "CPU us");
		for (i = g.start[b]; i < g.start[b + 1]; i++)
			row(f, &rows[g.order[i]]);
	}
	bm_rgroups_free(&g);
out_free:
	free(key);
	free(keys);
}

const struct bm_report_ops report_rawio_ops = {
	.wl = "rawio",
	.print = rawio_print,
};
