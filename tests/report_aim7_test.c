// SPDX-License-Identifier: MIT
/* AIM7's report (runner/workloads/aim7/report_aim7.c) against a golden file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "report.h"
#include "tap.h"
#include "testutil.h"
#include "wl_aim7.h"
#include "wldesc.h"

#define EXPECTED "tests/data/report_aim7.expected"
#define NRES 16

static struct bm_rres res[NRES];
static struct bm_rrow rows[NRES];
static size_t nres;


/* A result as the runner emits it, from Real, CPU and the job count. */
static struct bm_rres *add(const char *label, const char *fs, const char *mix, int tasks,
			   int jobs, double real, double cpu, double jti)
{
	struct bm_rres *h = &res[nres];

	memset(h, 0, sizeof(*h));
	h->seq = nres + 2;
	h->rep = 1;
	snprintf(h->wl, sizeof(h->wl), "aim7");
	snprintf(h->fs, sizeof(h->fs), "%s", fs);
	snprintf(h->test, sizeof(h->test), "aim7-%s-t%d", mix, tasks);
	snprintf(h->params, sizeof(h->params),
		 "mix=%s tasks=%d jobs=100 filesize=10M poolsize=20M", mix, tasks);
	tu_rmetric(h, "real", real + 0.01, "s");
	tu_rmetric(h, "utime", cpu / 3, "s");
	tu_rmetric(h, "stime", cpu * 2 / 3, "s");
	tu_rmetric(h, "read", 1000, "KiB");
	tu_rmetric(h, "written", 2000, "KiB");
	tu_rmetric(h, "jobs_min", jobs / real * 60 * tasks, "jobs/min");
	tu_rmetric(h, "aim_real", real, "s");
	tu_rmetric(h, "cpu", cpu, "s");
	tu_rmetric(h, "utime_c", cpu / 3, "s");
	tu_rmetric(h, "stime_c", cpu * 2 / 3, "s");
	tu_rmetric(h, "jobs_sec_task", jobs / real, "jobs/s");
	tu_rmetric(h, "jti", jti, "%");
	tu_rmetric(h, "jobs", jobs, "count");
	tu_rmetric(h, "tasks", tasks, "count");
	rows[nres].label = label;
	rows[nres].r = h;
	nres++;
	return h;
}

static void fixture(void)
{
	struct bm_rres *h;

	/* seed 000's fserver rows: 101 jobs per task */
	add("EXT4 6.1.0-53", "ext4", "fserver", 4, 101, 306.9, 34.2, 97.6);
	add("EXT4 6.1.0-53", "ext4", "fserver", 8, 101, 354.9, 58.8, 95.1);
	add("XFS 6.1.0-53", "xfs", "fserver", 4, 101, 261.6, 35.1, 99.2);
	add("XFS 6.1.0-53", "xfs", "fserver", 8, 101, 323.7, 60.2, 94.4);
	/* dbase: 99 jobs per task */
	add("EXT4 6.1.0-53", "ext4", "dbase", 32, 99, 311.0, 153.0, 91.3);
	h = add("XFS 6.1.0-53", "xfs", "dbase", 32, 99, 276.8, 155.6, 90.0);
	h->partial = 1;
	/* shared with other parameters: a section of its own */
	h = add("EXT4 6.1.0-53", "ext4", "shared", 2, 31, 0.5, 0.4, 88.0);
	snprintf(h->params, sizeof(h->params), "mix=shared tasks=2 jobs=20 filesize=16k poolsize=16k");
	/* a record this formatter cannot place goes to the generic table */
	h = add("EXT4 6.1.0-53", "ext4", "fserver", 1, 101, 1.0, 1.0, 100);
	h->nm = 5;
}

int main(void)
{
	char *out = NULL, *out2 = NULL;
	size_t len = 0, len2 = 0;
	FILE *f;

	tap_plan(0);
	fixture();
	tap_ok(bm_report_find("aim7") == &report_aim7_ops, "aim7 has its formatter");
	f = open_memstream(&out, &len);
	if (!f)
		tap_bail("open_memstream failed");
	report_aim7_ops.print(f, rows, nres);
	fclose(f);
	tu_golden(EXPECTED, "/tmp/report_aim7.actual", "report", out, len);
	tap_ok(strstr(out, "    92.7 ") != NULL, "seed 000's 92.7 Jobs/Min comes back");
	f = open_memstream(&out2, &len2);
	if (!f)
		tap_bail("open_memstream failed");
	bm_report_print(f, rows, nres);
	fclose(f);
	tap_ok(len == len2 && !memcmp(out, out2, len), "bm_report_print gives the same table");
	free(out);
	free(out2);
	f = open_memstream(&out, &len);
	report_aim7_ops.print(f, rows, 0);
	fclose(f);
	TAP_EQ_INT(len, 0, "no rows, no output");
	free(out);
	return tap_done();
}
