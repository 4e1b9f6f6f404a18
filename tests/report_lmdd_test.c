// SPDX-License-Identifier: MIT
/* lmdd's report (runner/workloads/lmdd/report_lmdd.c) against a golden file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "report.h"
#include "tap.h"
#include "testutil.h"
#include "wl_lmdd.h"
#include "wldesc.h"

#define EXPECTED "tests/data/report_lmdd.expected"
#define NRES 20

static struct bm_rres res[NRES];
static struct bm_rrow rows[NRES];
static size_t nres;


/* A result as the runner emits it: window metrics, then rate, secs, mb. */
static struct bm_rres *add(const char *label, const char *fs, const char *test,
			   const char *params, double mb, double rate)
{
	struct bm_rres *h = &res[nres];

	memset(h, 0, sizeof(*h));
	h->seq = nres + 2;
	h->rep = 1;
	snprintf(h->wl, sizeof(h->wl), "lmdd");
	snprintf(h->fs, sizeof(h->fs), "%s", fs);
	snprintf(h->test, sizeof(h->test), "%s", test);
	snprintf(h->params, sizeof(h->params), "%s", params);
	tu_rmetric(h, "real", mb / rate + 0.01, "s");
	tu_rmetric(h, "utime", 0, "s");
	tu_rmetric(h, "stime", 0.12, "s");
	tu_rmetric(h, "read", 0, "KiB");
	tu_rmetric(h, "written", mb * 1e6 / 1024, "KiB");
	tu_rmetric(h, "rate", rate, "MB/s");
	tu_rmetric(h, "secs", mb / rate, "s");
	tu_rmetric(h, "mb", mb, "MB");
	rows[nres].label = label;
	rows[nres].r = h;
	nres++;
	return h;
}

static void fixture(void)
{
	static const char *const bs[] = { "4k", "64k", "1024k" };
	static const double ext4[2][3] = { { 10.2, 11.34, 10.9 }, { 18.51, 19.04, 19.0 } };
	static const double xfs[2][3] = { { 6.5, 7.25, 107.5 }, { 0.952, 1.0, 1.0 } };
	char test[32], params[64];
	struct bm_rres *h;
	int b, d;

	for (b = 0; b < 3; b++) {
		snprintf(params, sizeof(params), "size=16M bs=%s", bs[b]);
		for (d = 0; d < 2; d++) {
			snprintf(test, sizeof(test), "lmdd-%s-%s", d ? "r" : "w", bs[b]);
			add("EXT4 6.1.0-53", "ext4", test, params, 16.777216, ext4[d][b]);
		}
	}
	/* a repeat: averaged in the tables, its own lmdd line */
	h = add("EXT4 6.1.0-53", "ext4", "lmdd-w-4k", "size=16M bs=4k", 16.777216, 10.4);
	h->rep = 2;
	for (b = 0; b < 3; b++) {
		snprintf(params, sizeof(params), "size=16M bs=%s", bs[b]);
		for (d = 0; d < 2; d++) {
			snprintf(test, sizeof(test), "lmdd-%s-%s", d ? "r" : "w", bs[b]);
			h = add("XFS 6.1.0-53", "xfs", test, params,
				b == 2 && d ? 8.388608 : 16.777216, xfs[d][b]);
		}
	}
	h->partial = 1;  /* the last read stopped half way: not in the tables */
	/* a second sweep: O_DIRECT, writes only */
	add("EXT4 6.1.0-53", "ext4", "lmdd-w-4k", "size=16M bs=4k direct=1", 16.777216, 3.3);
	add("EXT4 6.1.0-53", "ext4", "lmdd-w-1k", "size=16M bs=1k direct=1", 16.777216, 0.8);
	/* a sweep of one block size */
	add("XFS 6.1.0-53", "xfs", "lmdd-r-512", "size=1M bs=512", 1.048576, 2.5);
	/* a record this formatter cannot place goes to the generic table */
	add("EXT4 6.1.0-53", "ext4", "lmdd-x-4k", "size=16M bs=4k", 16.777216, 1.0);
}

int main(void)
{
	char *out = NULL, *out2 = NULL;
	size_t len = 0, len2 = 0;
	FILE *f;

	tap_plan(0);
	fixture();
	tap_ok(bm_report_find("lmdd") == &report_lmdd_ops, "lmdd has its formatter");
	f = open_memstream(&out, &len);
	if (!f)
		tap_bail("open_memstream failed");
	report_lmdd_ops.print(f, rows, nres);
	fclose(f);
	tu_golden(EXPECTED, "/tmp/report_lmdd.actual", "report", out, len);
	/* Through the dispatcher: the same bytes. */
	f = open_memstream(&out2, &len2);
	if (!f)
		tap_bail("open_memstream failed");
	bm_report_print(f, rows, nres);
	fclose(f);
	tap_ok(len == len2 && !memcmp(out, out2, len), "bm_report_print gives the same table");
	free(out);
	free(out2);
	/* Nothing to print is no crash and no output. */
	f = open_memstream(&out, &len);
	report_lmdd_ops.print(f, rows, 0);
	fclose(f);
	TAP_EQ_INT(len, 0, "no rows, no output");
	free(out);
	return tap_done();
}
