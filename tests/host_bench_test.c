// SPDX-License-Identifier: MIT
/* host/bench/bench_boot.c and bench_out.c: bench-boot's breakdown from HELLO, the
 * trivial line and P records, and its summary's figures. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_boot.h"
#include "bench_cmd.h"
#include "proto.h"
#include "tap.h"

#define RUN "0a1b2c3d"

/* Encodes and decodes one record, as bench-boot reads results.log. */
static void mkrec(struct bm_record *rec, char type, const char *const *kv)
{
	struct bm_line l;
	size_t pos = 0;

	bm_line_start(&l, RUN, 1, type);
	for (; kv[0]; kv += 2)
		bm_line_add(&l, kv[0], kv[1]);
	if (bm_line_finish(&l) < 0 || bm_scan(l.buf, l.len, &pos, rec) != 1)
		tap_bail("cannot build a record");
}

static int near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

static void test_hello(void)
{
	static const char *const kv[] = {
		"t_runner", "4.792", "t_setup", "4.892", "t_modules", "5.289", "t_disk", "5.793",
		"t_hello", "6.093",
		"t_unpack0", "2.410", "t_unpack1", "2.818", "t_init", "4.827",
		"klog_skew", "0.100", "klog_drift", "-0.002", "klog_cost", "0.0208", NULL,
	};
	static const char *const none[] = { "v", "1", NULL };
	static const char *const bad[] = { "t_hello", "x", "t_init", "-1", NULL };
	struct bm_record rec;
	struct bm_bb p;

	mkrec(&rec, BM_REC_HELLO, kv);
	bm_bb_init(&p);
	bm_bb_from_hello(&p, &rec, 15.0);
	tap_ok(near(p.v[BM_BB_WALL], 15.0), "wall");
	tap_ok(near(p.v[BM_BB_FW], 15.0 - 6.093), "firmware = wall - t_hello");
	tap_ok(near(p.v[BM_BB_KERNEL], 4.727), "kernel = t_init - klog_skew (BOOTTIME)");
	tap_ok(near(p.v[BM_BB_UNPACK], 0.408), "unpack = t_unpack1 - t_unpack0");
	tap_ok(near(p.v[BM_BB_RUNNER], 0.065), "runner = t_runner - kernel");
	tap_ok(near(p.v[BM_BB_SETUP], 0.100), "setup = t_setup - t_runner");
	tap_ok(near(p.v[BM_BB_MODULES], 0.397), "modules = t_modules - t_setup");
	tap_ok(near(p.v[BM_BB_DISK], 0.504), "disk");
	tap_ok(near(p.v[BM_BB_HELLO], 0.300), "hello");
	tap_ok(near(p.v[BM_BB_FW] + p.v[BM_BB_KERNEL] + p.v[BM_BB_RUNNER] + p.v[BM_BB_SETUP] +
		    p.v[BM_BB_MODULES] +
		    p.v[BM_BB_DISK] + p.v[BM_BB_HELLO], 15.0),
	       "the phases add up to the wall time");
	tap_ok(near(p.v[BM_BB_SKEW], 0.1) && near(p.v[BM_BB_DRIFT], -0.002) &&
	       near(p.v[BM_BB_KCOST], 0.0208), "klog skew, drift, cost");
	tap_ok(isnan(p.v[BM_BB_MKFS]), "mkfs unknown from HELLO alone");

	mkrec(&rec, BM_REC_HELLO, none);
	bm_bb_init(&p);
	bm_bb_from_hello(&p, &rec, 5.0);
	tap_ok(near(p.v[BM_BB_WALL], 5.0) && isnan(p.v[BM_BB_FW]) && isnan(p.v[BM_BB_KERNEL]) &&
	       isnan(p.v[BM_BB_UNPACK]) && isnan(p.v[BM_BB_SKEW]), "an older runner: wall only");
	mkrec(&rec, BM_REC_HELLO, bad);
	bm_bb_init(&p);
	bm_bb_from_hello(&p, &rec, 5.0);
	tap_ok(isnan(p.v[BM_BB_FW]) && isnan(p.v[BM_BB_KERNEL]), "bad or negative values: unknown");
}

static void test_trivial(void)
{
	static const char line[] = "junk\nbootmark-trivial-init t=4.112\n";
	struct bm_bb p;

	bm_bb_init(&p);
	TAP_EQ_INT(bm_bb_from_trivial(&p, line, strlen(line) - 1, 11.0), 0, "no whole line yet");
	TAP_EQ_INT(bm_bb_from_trivial(&p, line, strlen(line), 11.872), 1, "the line");
	tap_ok(near(p.v[BM_BB_KERNEL], 4.112) && near(p.v[BM_BB_FW], 11.872 - 4.112),
	       "kernel = its t, firmware = wall - t");
	bm_bb_init(&p);
	TAP_EQ_INT(bm_bb_from_trivial(&p, "bootmark-trivial-init\n", 22, 3.0), -EBADMSG,
		   "an older trivial init without t=");
	tap_ok(near(p.v[BM_BB_WALL], 3.0) && isnan(p.v[BM_BB_FW]), "still gives the wall time");
	TAP_EQ_INT(bm_bb_from_trivial(&p, "bootmark-trivial-init t=x\n", 26, 3.0), -EBADMSG,
		   "t= not a number");
	TAP_EQ_INT(bm_bb_from_trivial(&p, "bootmark-trivial-init t=1.5\r\n", 29, 3.0), 1,
		   "a CR before the newline is fine");
}

static void test_mkfs(void)
{
	static const char *const beat[] = { "phase", "boot", "t", "6.7", NULL };
	static const char *const mount0[] = { "phase", "mount", "t", "6.5", NULL };
	static const char *const mkfs[] = { "phase", "mkfs", "fs", "ext4", "t", "6.682", NULL };
	static const char *const mkfs2[] = { "phase", "mkfs", "t", "6.900", NULL };
	static const char *const mount[] = { "phase", "mount", "t", "6.984", NULL };
	static const char *const old[] = { "phase", "mkfs", NULL };
	struct bm_record rec;
	double mkfs_t = NAN;
	struct bm_bb p;

	bm_bb_init(&p);
	mkrec(&rec, BM_REC_BEAT, beat);
	TAP_EQ_INT(bm_bb_feed_phase(&p, &rec, &mkfs_t), 0, "B record: nothing");
	mkrec(&rec, BM_REC_PHASE, mount0);
	TAP_EQ_INT(bm_bb_feed_phase(&p, &rec, &mkfs_t), 0, "a mount before any mkfs: nothing");
	mkrec(&rec, BM_REC_PHASE, old);
	TAP_EQ_INT(bm_bb_feed_phase(&p, &rec, &mkfs_t), 0, "P without t= (older runner): nothing");
	tap_ok(isnan(mkfs_t), "and no start");
	mkrec(&rec, BM_REC_PHASE, mkfs);
	TAP_EQ_INT(bm_bb_feed_phase(&p, &rec, &mkfs_t), 0, "P mkfs starts it");
	mkrec(&rec, BM_REC_PHASE, mkfs2);
	bm_bb_feed_phase(&p, &rec, &mkfs_t);
	tap_ok(near(mkfs_t, 6.682), "the first P mkfs counts");
	mkrec(&rec, BM_REC_PHASE, mount);
	TAP_EQ_INT(bm_bb_feed_phase(&p, &rec, &mkfs_t), 1, "P mount ends it");
	tap_ok(near(p.v[BM_BB_MKFS], 0.302), "first mkfs = P mount t - P mkfs t");
	TAP_EQ_INT(bm_bb_feed_phase(&p, &rec, &mkfs_t), 1, "and stays set");

	/* HELLO at wall 10.0, guest 6.0; the P mount at wall 11.0, guest 6.984 */
	p.v[BM_BB_WALL] = 10.0;
	p.v[BM_BB_FW] = 4.0;
	bm_bb_clock_rate(&p, 6.984, 10.1);
	tap_ok(isnan(p.v[BM_BB_RATE]), "no clock rate over less than 0.2 s");
	bm_bb_clock_rate(&p, 6.984, 11.0);
	tap_ok(near(p.v[BM_BB_RATE], 0.984), "clock rate = guest span / wall span");
}

/* The line of kind in out that starts "BB1|kind|", or NULL. */
static const char *bb1(const char *out, const char *kind)
{
	char key[64];

	snprintf(key, sizeof(key), "BB1|%s|", kind);
	return strstr(out, key);
}

/*
 * bm_bench_summary on five runs of two images: the verdict is median over
 * median (1.2 / 1.0), and each run's own ratio (1.1, 1.2, 1.0, 1.3; the
 * fifth run, whose floor boot is unknown, does not count) gives the
 * geometric mean and the range.
 */
static void test_summary(void)
{
	const double bm[] = { 1.1, 1.2, 1.0, 1.3, 9.0 }, tr[] = { 1.0, 1.0, 1.0, 1.0, NAN };
	struct bench *B = calloc(1, sizeof(*B));
	char out[8192] = "", *nl;
	FILE *f = tmpfile();
	int i, k, saved = dup(1);
	size_t n;

	if (!B || !f || saved < 0)
		tap_bail("cannot set up the summary test");
	B->o.runs = 5;
	B->nimg = 2;
	snprintf(B->img[0].name, sizeof(B->img[0].name), "bootmark");
	snprintf(B->img[1].name, sizeof(B->img[1].name), "trivial");
	for (k = 0; k < 2; k++) {
		snprintf(B->img[k].method, sizeof(B->img[k].method), "pvh");
		B->img[k].trivial = k;
		for (i = 0; i < 5; i++)
			for (int p = 0; p < BM_BB_N; p++)
				B->img[k].bb[i].v[p] = p == BM_BB_WALL ? (k ? tr[i] : bm[i]) : NAN;
	}
	fflush(stdout);
	dup2(fileno(f), 1);
	bm_bench_summary(B);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	rewind(f);
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = '\0';
	fclose(f);
	free(B);
	tap_ok(bb1(out, "ratio") && !strncmp(bb1(out, "ratio"), "BB1|ratio|1.200|<= 1.10|FAIL", 28),
	       "the verdict: median over median (%.28s)", bb1(out, "ratio") ? bb1(out, "ratio") : "none");
	nl = bb1(out, "pairs") ? strchr(bb1(out, "pairs"), '\n') : NULL;
	if (nl)
		*nl = '\0';
	tap_ok(nl && !strcmp(bb1(out, "pairs"), "BB1|pairs|1.145|1.000|1.300|4"),
	       "each run's ratio: geometric mean, lowest, highest, runs (%s)",
	       nl ? bb1(out, "pairs") : "none");
}

int main(void)
{
	test_hello();
	test_trivial();
	test_mkfs();
	test_summary();
	return tap_done();
}
