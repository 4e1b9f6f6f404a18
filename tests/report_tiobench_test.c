// SPDX-License-Identifier: MIT
/* runner/workloads/tiobench/report_tiobench.c against a golden file: tiobench.pl's blocks,
 * seed 003's numbers in its columns, and the percentile block. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "report.h"
#include "tap.h"
#include "testutil.h"
#include "wl_tiobench.h"
#include "wldesc.h"

#define EXPECTED "tests/data/report_tiobench.expected"

struct row_in {
	const char *fs, *test, *params;
	int rep, partial;
	double v[10];   /* rate cpu lat_avg lat_max pct_2s pct_10s eff p50 p99 p999 */
};

static const char *const names[10] = {
	"rate", "cpu", "lat_avg", "lat_max", "pct_2s", "pct_10s", "eff",
	"lat_p50", "lat_p99", "lat_p999",
};
static const char *const units[10] = {
	"MiB/s", "%", "ms", "ms", "%", "%", "MiB/cpu-s", "ms", "ms", "ms",
};

#define P1 "threads=1 size=8M bs=4k random=500"
#define P4 "threads=4 size=8M bs=4k random=500"
#define S3 "threads=10 size=25M bs=4k random=400"

static const struct row_in fixture[] = {
	/* seed 003, 2.5.51 with mm2: 252 MB (25 MiB x 10 threads, 250 MiB) */
	{ "ext2", "tio-seqrd-t10", S3, 1, 0,
	  { 8.81, 5.345123, 12.244, 1894.78, 0, 0, 164.796, 11.5, 80.25, 1500.1 } },
	{ "ext2", "tio-rndrd-t10", S3, 1, 0,
	  { 0.51, 0.7501234, 206.139, 1306.27, 0, 0, 67.99, 190.0, 900.0, 1300.0 } },
	{ "ext2", "tio-seqwr-t10", S3, 1, 0,
	  { 17.56, 32.6843, 3.841, 28833.24, 0.05625, 0.00156, 53.73, 0.01, 12.0, 9000 } },
	{ "ext2", "tio-rndwr-t10", S3, 1, 0,
	  { 0.72, 1.01342, 3.694, 4066.2, 0.075, 0, 71.07, 0.02, 3.1, 4000 } },
	/* smoke-like rows: two filesystems, two thread counts */
	{ "ext4", "tio-seqwr-t1", P1, 1, 0, { 45.2, 98.5, 0.085, 12.5, 0, 0, 45.88, 0.004, 0.2, 9.5 } },
	{ "ext4", "tio-seqrd-t1", P1, 1, 0, { 120.04, 60.1, 0.032, 3.2, 0, 0, 199.7, 0.02, 0.5, 3 } },
	{ "xfs", "tio-seqwr-t1", P1, 1, 0, { 40.0, 100, 0.09, 15, 0, 0, 39.99, 0.005, 0.3, 12 } },
	{ "xfs", "tio-seqrd-t1", P1, 1, 1, { 110.5, 55.5, 0.035, 4.1, 0, 0, 199.1, 0.02, 0.6, 4 } },
	{ "ext4", "tio-seqwr-t4", P4, 1, 0,
	  { 1234567.0, 250.25, 0.07, 123456789.0, 12.5, 100, 123456, 0.003, 0.1, 11 } },
	{ "xfs", "tio-seqwr-t4", P4, 1, 0, { 50.5, 120.0, 0.3, 20.0, 0, 0, 42.08, 0.1, 2, 19 } },
};
#define NFIX (sizeof(fixture) / sizeof(fixture[0]))

static void fill(struct bm_rres *h, const struct row_in *in)
{
	unsigned i;

	memset(h, 0, sizeof(*h));
	snprintf(h->wl, sizeof(h->wl), "tiobench");
	snprintf(h->test, sizeof(h->test), "%s", in->test);
	snprintf(h->fs, sizeof(h->fs), "%s", in->fs);
	snprintf(h->params, sizeof(h->params), "%s", in->params);
	h->rep = in->rep;
	h->partial = in->partial;
	for (i = 0; i < 10; i++) {
		snprintf(h->m[i].name, sizeof(h->m[i].name), "%s", names[i]);
		snprintf(h->m[i].unit, sizeof(h->m[i].unit), "%s", units[i]);
		h->m[i].value = in->v[i];
	}
	h->nm = 10;
}

int main(void)
{
	static struct bm_rres res[NFIX + 2];
	struct bm_rrow rows[NFIX + 2];
	char labels[NFIX + 2][64], *out = NULL;
	size_t len = 0, i;
	FILE *f;

	tap_plan(0);
	tap_ok(bm_report_find("tiobench") == &report_tiobench_ops, "tiobench formatter registered");
	for (i = 0; i < NFIX; i++) {
		fill(&res[i], &fixture[i]);
		snprintf(labels[i], sizeof(labels[i]), "%s", i < 4 ? "2.5.51" : "");
		if (i >= 4)
			bm_report_label(labels[i], sizeof(labels[i]), fixture[i].fs, "6.1.0-53");
		rows[i].label = labels[i];
		rows[i].r = &res[i];
	}
	f = open_memstream(&out, &len);
	if (!f)
		tap_bail("open_memstream failed");
	fputs("# seed 003 and smoke-like rows\n", f);
	report_tiobench_ops.print(f, rows, NFIX);
	/* Repeats: every label of the table gets " #<rep>". */
	fputs("# two repeats\n", f);
	report_tiobench_ops.print(f, rows + 4, 2);
	rows[NFIX].label = labels[4];
	rows[NFIX].r = &res[NFIX];
	fill(&res[NFIX], &fixture[4]);
	res[NFIX].rep = 2;
	res[NFIX].m[0].value = 47.5;
	report_tiobench_ops.print(f, rows + NFIX, 1);
	fputs("# both repeats in one table\n", f);
	rows[NFIX + 1] = rows[4];
	report_tiobench_ops.print(f, rows + NFIX, 2);
	/* Rows of another workload or an unknown phase print nothing. */
	fputs("# nothing\n", f);
	snprintf(res[NFIX + 1].test, sizeof(res[NFIX + 1].test), "dd32w");
	rows[NFIX + 1].r = &res[NFIX + 1];
	report_tiobench_ops.print(f, rows + NFIX + 1, 1);
	fclose(f);
	tu_golden(EXPECTED, "/tmp/report_tiobench.expected.actual", "table", out, len);
	free(out);
	return tap_done();
}
