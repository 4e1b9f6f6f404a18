// SPDX-License-Identifier: MIT
/* runner/workloads/dbench/report_dbench.c against a golden file: seed 004's dbench blocks
 * (its EXT4 figures), the per-op table and dbench's final line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "report.h"
#include "tap.h"
#include "testutil.h"
#include "wl_dbench.h"
#include "wldesc.h"

#define EXPECTED "tests/data/report_dbench.expected"
#define NV 14

struct row_in {
	const char *fs, *test, *params;
	int rep, partial;
	double v[NV];
};

static const char *const names[NV] = {
	"real", "utime", "stime", "read", "written", "tput", "lat_max",
	"n_create", "avg_create", "max_create", "n_read", "avg_read", "max_read", "n_find",
};
static const char *const units[NV] = {
	"s", "s", "s", "KiB", "KiB", "MB/s", "ms", "count", "ms", "ms", "count", "ms", "ms", "count",
};

static const struct row_in fixture[] = {
	/* seed 004's EXT4 rows; the per-op figures are made up */
	{ "ext4", "dbench2", "clients=2 time=600 warmup=120 loadfile=client.txt.xz", 1, 0,
	  { 2.76, 1.32, 4.04, 8, 0, 251.927, 21.211, 43426, 0.038, 17.082, 67817, 0.006, 6.011, 0 } },
	{ "xfs", "dbench2", "clients=2 time=600 warmup=120 loadfile=client.txt.xz", 1, 1,
	  { 13.86, 1.25, 4.9, 116, 23966, 49.4258, 300.5, 100, 1.5, 30, 0, 0, 0, 12 } },
	{ "ext4", "dbench4", "clients=4 time=600 warmup=120 loadfile=client.txt.xz", 1, 0,
	  { 5.35, 2.91, 7.59, 12, 4280, 258.937, 9.1, 80000, 0.02, 9.1, 120000, 0.005, 3.2, 30000 } },
};
#define NFIX (sizeof(fixture) / sizeof(fixture[0]))

static void fill(struct bm_rres *h, const struct row_in *in)
{
	unsigned i;

	memset(h, 0, sizeof(*h));
	snprintf(h->wl, sizeof(h->wl), "dbench");
	snprintf(h->test, sizeof(h->test), "%s", in->test);
	snprintf(h->fs, sizeof(h->fs), "%s", in->fs);
	snprintf(h->params, sizeof(h->params), "%s", in->params);
	h->rep = in->rep;
	h->partial = in->partial;
	for (i = 0; i < NV; i++) {
		snprintf(h->m[i].name, sizeof(h->m[i].name), "%s", names[i]);
		snprintf(h->m[i].unit, sizeof(h->m[i].unit), "%s", units[i]);
		h->m[i].value = in->v[i];
	}
	h->nm = NV;
}

int main(void)
{
	static struct bm_rres res[NFIX + 1];
	struct bm_rrow rows[NFIX + 1];
	char labels[NFIX][64], *out = NULL;
	size_t len = 0, i;
	FILE *f;

	tap_plan(0);
	tap_ok(bm_report_find("dbench") == &report_dbench_ops, "dbench formatter registered");
	for (i = 0; i < NFIX; i++) {
		fill(&res[i], &fixture[i]);
		bm_report_label(labels[i], sizeof(labels[i]), fixture[i].fs, "6.1.0-53");
		rows[i].label = labels[i];
		rows[i].r = &res[i];
	}
	f = open_memstream(&out, &len);
	if (!f)
		tap_bail("open_memstream failed");
	fputs("# seed 004 shape, two client counts, two filesystems\n", f);
	report_dbench_ops.print(f, rows, NFIX);
	fputs("# a second repeat labels every row with #<rep>\n", f);
	rows[NFIX] = rows[0];
	fill(&res[NFIX], &fixture[0]);
	res[NFIX].rep = 2;
	rows[NFIX].r = &res[NFIX];
	report_dbench_ops.print(f, rows + NFIX - 1, 2);
	fputs("# another workload's rows print nothing\n", f);
	snprintf(res[NFIX].wl, sizeof(res[NFIX].wl), "dd");
	report_dbench_ops.print(f, rows + NFIX, 1);
	fclose(f);
	tu_golden(EXPECTED, "/tmp/report_dbench.expected.actual", "table", out, len);
	free(out);
	return tap_done();
}
