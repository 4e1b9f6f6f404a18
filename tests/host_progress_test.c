/* SPDX-License-Identifier: MIT */
/*
 * The live progress line (host/backend/progress.c): the incremental reader of
 * results.log (lines split across reads, several records per read,
 * damaged and over-long lines, the end-of-run repeats), the count of
 * finished tests, the estimate and the suite expansion behind it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile.h"
#include "progress.h"
#include "proto.h"
#include "tap.h"
#include "testrec.h"

#define RUN "c0ffee01"

static const char *rec(uint64_t seq, char type, const char *pairs)
{
	return tu_rec(RUN, seq, type, pairs);
}

static void feed(struct bm_progress *p, const char *s, double now)
{
	bm_progress_feed(p, s, strlen(s), now);
}

static void test_reader(void)
{
	struct bm_progress p;
	char two[2 * BM_LINE_MAX], bad[BM_LINE_MAX], longline[3000];
	const char *l;
	size_t half;

	bm_progress_init(&p, NULL, "6.1.0-53-amd64", 1, 1, NULL);
	feed(&p, rec(1, 'H', "v=1 kernel=6.1.0-53-amd64"), 1);
	/* a P record split in the middle: nothing until its newline */
	l = rec(2, 'P', "phase=mkfs fs=ext4 test=dd32w rep=1");
	half = strlen(l) / 2;
	bm_progress_feed(&p, l, half, 10);
	TAP_EQ_INT(p.started, 0, "half a record changes nothing");
	feed(&p, l + half, 10);
	TAP_EQ_INT(p.started, 1, "the second half completes the P record");
	TAP_EQ_STR(p.fs, "ext4", "fs from the P record");
	TAP_EQ_STR(p.test, "dd32w", "test from the P record");
	TAP_EQ_INT(bm_progress_done(&p), 0, "the first test is running, none done");

	/* several records in one read: a heartbeat, then the result */
	snprintf(two, sizeof(two), "%s[ 3.1] kernel noise\n%s",
		 rec(3, 'B', "phase=run t=12.5"), rec(4, 'R', "wl=dd test=dd32w fs=ext4 rep=1"));
	feed(&p, two, 12);
	TAP_EQ_STR(p.phase, "run", "phase from the heartbeat");
	tap_ok(fabs(p.guest_t - 12.5) < 1e-9, "guest time from the heartbeat");
	TAP_EQ_INT(bm_progress_done(&p), 1, "R record: one test done");

	/* a damaged record is counted and ignored */
	snprintf(bad, sizeof(bad), "%s", rec(5, 'P', "phase=mkfs fs=ext4 test=dd32r rep=1"));
	bad[strlen(bad) - 3] ^= 1;  /* one CRC digit */
	feed(&p, bad, 13);
	TAP_EQ_INT(p.damaged, 1, "damaged record counted");
	TAP_EQ_INT(p.started, 1, "damaged record not applied");
	TAP_EQ_STR(p.test, "dd32w", "state unchanged by the damaged record");

	/* an over-long line (no record fits) is dropped up to its newline */
	memset(longline, 'x', sizeof(longline) - 2);
	longline[sizeof(longline) - 2] = '\n';
	longline[sizeof(longline) - 1] = '\0';
	feed(&p, longline, 13);
	feed(&p, rec(6, 'P', "phase=mkfs fs=ext4 test=dd32r rep=1"), 20);
	TAP_EQ_INT(p.started, 2, "record after an over-long line is read");
	TAP_EQ_INT(bm_progress_done(&p), 1, "second test running: one done");

	feed(&p, rec(7, 'E', "class=setup msg=mount%20failed fs=ext4 test=dd32r rep=1"), 25);
	TAP_EQ_INT(bm_progress_done(&p), 2, "E record naming the test ends it");
	/* the end-of-run repeat of an R record: seq already seen */
	feed(&p, rec(4, 'R', "wl=dd test=dd32w fs=ext4 rep=1"), 26);
	TAP_EQ_INT(bm_progress_done(&p), 2, "repeated R record not counted twice");
	feed(&p, rec(8, 'Z', "n=8 results=1 errors=1"), 27);
	TAP_EQ_INT(p.ended, 1, "Z record seen");
	TAP_EQ_INT(bm_progress_done(&p), 2, "done after Z");
}

/* The file reader keeps its offset: appended bytes only. */
static void test_file(void)
{
	char path[] = "/tmp/bm_progress_testXXXXXX";
	struct bm_progress p;
	const char *l = rec(2, 'P', "phase=mkfs fs=xfs test=dd32w rep=1");
	size_t half = strlen(l) / 2;
	int fd = mkstemp(path);
	FILE *f;

	if (fd < 0)
		tap_bail("mkstemp");
	f = fdopen(fd, "w");
	bm_progress_init(&p, NULL, "k", 1, 1, NULL);
	TAP_EQ_INT(bm_progress_read(&p, path, 1), 0, "empty file: nothing new");
	fwrite(l, 1, half, f);
	fflush(f);
	TAP_EQ_INT(bm_progress_read(&p, path, 1), half, "half a line read");
	TAP_EQ_INT(p.started, 0, "... and kept back");
	fputs(l + half, f);
	fputs(rec(3, 'R', "wl=dd test=dd32w fs=xfs rep=1"), f);
	fflush(f);
	bm_progress_read(&p, path, 5);
	TAP_EQ_INT(p.started, 1, "rest of the line appended: P applied");
	TAP_EQ_INT(bm_progress_done(&p), 1, "and the R after it");
	TAP_EQ_INT(bm_progress_read(&p, path, 6), 0, "nothing new on the next poll");
	TAP_EQ_INT(p.last_seq, 3, "each record taken once");
	fclose(f);
	unlink(path);
	TAP_EQ_INT(bm_progress_read(&p, "/nonexistent/results.log", 7), 0, "missing file: 0");
}

static void test_estimate(void)
{
	static struct bm_plan pl;
	static struct bm_suite su;
	struct bm_progress p;
	char err[256], line[200];
	int rc;

	tap_ok(fabs(bm_progress_left(12, 3, 30) - 90) < 1e-9, "9 tests left at 10 s each: 90 s");
	tap_ok(bm_progress_left(12, 0, 30) < 0, "nothing done: unknown");
	tap_ok(bm_progress_left(0, 3, 30) < 0, "no plan: unknown");
	tap_ok(bm_progress_left(3, 3, 30) == 0, "all done: 0");
	tap_ok(fabs(bm_progress_left(7, 2, 5) - 12.5) < 1e-9, "5 left at 2.5 s: 12.5 s");

	rc = bm_suite_parse(&su, "t", "suite disk_size=1G repeat=2\ndd size=32M bs=1M\n", err,
			    sizeof(err));
	TAP_EQ_INT(rc, 0, "suite parses");
	TAP_EQ_INT(bm_plan_make(&pl, &su, 2, err, sizeof(err)), 0, "plan from the suite");
	TAP_EQ_INT(pl.ntests, 3, "dd expands into 3 tests");
	TAP_EQ_INT(pl.total, 12, "3 tests x 2 fs x repeat 2");
	TAP_EQ_STR(bm_plan_wl(&pl, "dd32r"), "dd", "workload of dd32r");
	TAP_EQ_STR(bm_plan_wl(&pl, "nope"), "", "unknown test: no workload");
	rc = bm_suite_parse(&su, "t", "suite disk_size=1G\ndd size=32M bs=1M bogus=1\n", err,
			    sizeof(err));
	TAP_EQ_INT(rc, 0, "suite with a bad job option parses (the runner checks options)");
	TAP_EQ_INT(bm_plan_make(&pl, &su, 1, err, sizeof(err)), -EINVAL,
		   "bad job options: plan refused");
	tap_ok(strstr(err, "suites/t:2: dd: ") && strstr(err, "bogus"),
	       "the message names the line and the option: %s", err);
	bm_suite_parse(&su, "t", "nosuchwl x=1\n", err, sizeof(err));
	TAP_EQ_INT(bm_plan_make(&pl, &su, 1, err, sizeof(err)), -EINVAL, "unknown workload refused");
	TAP_EQ_STR(err, "suites/t:1: unknown workload \"nosuchwl\"", "... and named");

	bm_suite_parse(&su, "t", "suite disk_size=1G repeat=2\ndd size=32M bs=1M\n", err,
		       sizeof(err));
	bm_plan_make(&pl, &su, 2, err, sizeof(err));
	bm_progress_init(&p, &pl, "6.1.0-53-amd64", 2, 3, NULL);
	bm_progress_line(&p, 5, line, sizeof(line));
	TAP_EQ_STR(line, "6.1.0-53-amd64 2/3  booting  0:05", "line before the first test");
	feed(&p, rec(2, 'P', "phase=mkfs fs=ext4 test=dd32w rep=1"), 100);
	feed(&p, rec(3, 'R', "wl=dd test=dd32w fs=ext4 rep=1"), 110);
	feed(&p, rec(4, 'P', "phase=mkfs fs=ext4 test=dd32r rep=1"), 111);
	feed(&p, rec(5, 'R', "wl=dd test=dd32r fs=ext4 rep=1"), 120);
	feed(&p, rec(6, 'P', "phase=run fs=ext4 test=dd32rw rep=1"), 121);
	bm_progress_line(&p, 75, line, sizeof(line));
	/* 2 done in 20 s, 10 left: ~100 s */
	TAP_EQ_STR(line, "6.1.0-53-amd64 2/3 rep 1  ext4  dd dd32rw (run)  1:15  ~1:40",
		   "line with the estimate");
}

int main(void)
{
	tap_plan(0);
	test_reader();
	test_file();
	test_estimate();
	return tap_done();
}
