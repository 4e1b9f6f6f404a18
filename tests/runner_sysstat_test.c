// SPDX-License-Identifier: MIT
/* runner/engine/sysstat.c: /proc/stat and /proc/diskstats from fixtures in tests/data. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sysstat.h"
#include "tap.h"

static const struct bm_metric *metric(const struct bm_result *r, const char *name)
{
	unsigned i;

	for (i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->m[i].name, name))
			return &r->m[i];
	return NULL;
}

static void test_parse(void)
{
	uint64_t u = 0, s = 0, rd = 0, wr = 0;

	TAP_EQ_INT(sysstat_parse_stat("intr 1\ncpu  10 2 30 4\ncpu0 1 1 1 1\n", &u, &s), 0,
		   "cpu line found after other lines");
	TAP_EQ_INT(u, 12, "user + nice");
	TAP_EQ_INT(s, 30, "system");
	TAP_EQ_INT(sysstat_parse_stat("cpu0 1 2 3\n", &u, &s), -EINVAL, "per-cpu only: error");
	TAP_EQ_INT(sysstat_parse_stat("cpu  x\n", &u, &s), -EINVAL, "malformed cpu line");
	TAP_EQ_INT(sysstat_parse_diskstats(" 253 16 vda 1 2 33 4 5 6 77 8\n 253 17 vda1 1 2 3 4 5 6 7 8\n",
					   "vda", &rd, &wr), 0, "vda found");
	TAP_EQ_INT(rd, 33, "sectors read: column 6");
	TAP_EQ_INT(wr, 77, "sectors written: column 10");
	TAP_EQ_INT(sysstat_parse_diskstats(" 253 17 vda1 1 2 3 4 5 6 7 8\n", "vda", &rd, &wr),
		   -ENOENT, "a partition is not the disk");
	TAP_EQ_INT(sysstat_parse_diskstats(" 253 16 vda 1 2\n", "vda", &rd, &wr), -EINVAL,
		   "short line is an error");
}

static void test_window(void)
{
	struct sysstat_snap a, b;
	struct bm_result r;
	const struct bm_metric *m;

	memset(&r, 0, sizeof(r));
	TAP_EQ_INT(sysstat_begin(&a, "tests/data/sysstat_a", "vda"), 0, "fixture a");
	TAP_EQ_INT(sysstat_end(&b, "tests/data/sysstat_b", "vda"), 0, "fixture b");
	sysstat_add_metrics(&a, &b, 100, &r);
	TAP_EQ_INT(r.nmetrics, 5, "five window metrics");
	TAP_EQ_STR(r.m[0].name, "real", "real first");
	m = metric(&r, "utime");
	tap_ok(m && fabs(m->value - 0.05) < 1e-9 && !strcmp(m->unit, "s"), "utime 5 ticks = 0.05 s");
	m = metric(&r, "stime");
	tap_ok(m && fabs(m->value - 5.5) < 1e-9, "stime 550 ticks = 5.5 s");
	m = metric(&r, "read");
	tap_ok(m && m->value == 32 && !strcmp(m->unit, "KiB"), "read 64 sectors = 32 KiB");
	m = metric(&r, "written");
	tap_ok(m && m->value == 525436, "written 1050872 sectors = 525436 KiB (seed dd512w ext3)");
	m = metric(&r, "real");
	tap_ok(m && m->value >= 0 && m->value < 5, "real is a small non-negative time");
	TAP_EQ_INT(sysstat_begin(&a, "tests/data/sysstat_a", "vdz"), -EIO, "unknown disk");
	TAP_EQ_INT(sysstat_begin(&a, "tests/data/nosuchdir", "vda"), -EIO, "no /proc");
}

int main(void)
{
	tap_plan(0);
	test_parse();
	test_window();
	return tap_done();
}
