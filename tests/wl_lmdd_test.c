// SPDX-License-Identifier: MIT
/* runner/workloads/lmdd/wl_lmdd.c and desc_lmdd_arith.c: arithmetic, labels, options, and
 * real writes and reads in a temp dir on the host. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsrun.h"
#include "lmdd.h"
#include "tap.h"
#include "testutil.h"
#include "wl.h"
#include "wl_lmdd.h"

static void test_arithmetic(void)
{
	uint64_t bs[LMDD_BS_MAX];
	const char *bad;
	char buf[128];

	tap_ok(lmdd_mb(1000000) == 1.0, "1e6 bytes are 1 MB (10^6, as lmbench)");
	tap_ok(lmdd_mb(33554432) == 33.554432, "32 MiB are 33.554432 MB");
	tap_ok(lmdd_rate(1.0, 0.5) == 2.0, "1 MB in 0.5 s is 2 MB/s");
	tap_ok(lmdd_rate(1.0, 0) == 0, "no time: rate 0, not inf");
	lmdd_line(buf, sizeof(buf), lmdd_mb(1000000), 0.5);
	TAP_EQ_STR(buf, "1.0000 MB in 0.5000 secs, 2.0000 MB/sec", "lmdd line, 1e6 B in 0.5 s");
	lmdd_line(buf, sizeof(buf), lmdd_mb(33554432), 2.0);
	TAP_EQ_STR(buf, "33.5544 MB in 2.0000 secs, 16.7772 MB/sec", "lmdd line, 32 MiB in 2 s");
	lmdd_line(buf, sizeof(buf), lmdd_mb(268435456), 13.421773);
	TAP_EQ_STR(buf, "268.4355 MB in 13.4218 secs, 20.0000 MB/sec", "lmdd line, 256 MiB");

	lmdd_bs_name(buf, sizeof(buf), 512);
	TAP_EQ_STR(buf, "512", "bs 512");
	lmdd_bs_name(buf, sizeof(buf), 1024);
	TAP_EQ_STR(buf, "1k", "bs 1k");
	lmdd_bs_name(buf, sizeof(buf), 1 << 20);
	TAP_EQ_STR(buf, "1024k", "bs 1M is 1024k, as the seed's 1K to 1024K");
	lmdd_bs_name(buf, sizeof(buf), 4 << 20);
	TAP_EQ_STR(buf, "4m", "bs 4M");
	lmdd_bs_name(buf, sizeof(buf), 1536);
	TAP_EQ_STR(buf, "1536", "bs 1536");
	lmdd_bs_name(buf, sizeof(buf), 3 << 19);
	TAP_EQ_STR(buf, "1536k", "bs 1.5M");

	TAP_EQ_INT(lmdd_parse_bs("4k,64k,1m", bs, LMDD_BS_MAX, NULL), 3, "three sizes");
	tap_ok(bs[0] == 4096 && bs[1] == 65536 && bs[2] == 1 << 20, "parsed 4k 64k 1m");
	TAP_EQ_INT(lmdd_parse_bs("4k,x,8k", bs, LMDD_BS_MAX, &bad), -EINVAL, "x is no size");
	TAP_EQ_STR(bad ? bad : "", "x,8k", "bad item located");
	TAP_EQ_INT(lmdd_parse_bs("4k,,8k", bs, LMDD_BS_MAX, NULL), -EINVAL, "empty item");
	TAP_EQ_INT(lmdd_parse_bs("256", bs, LMDD_BS_MAX, NULL), -EINVAL, "below 512");
	TAP_EQ_INT(lmdd_parse_bs("128m", bs, LMDD_BS_MAX, NULL), -EINVAL, "above 64M");
	TAP_EQ_INT(lmdd_parse_bs("1k,2k,4k", bs, 2, NULL), -E2BIG, "more than max");
}

static void *opts(const char *args, int want_ok)
{
	char err[256] = "";
	void *o = NULL;
	int ret = fsrun_job_opts(&wl_lmdd_ops, args, &o, err, sizeof(err));

	tap_ok(want_ok ? ret == 0 : ret < 0, "lmdd %s: %s %s", args,
	       want_ok ? "accepted" : "rejected", err);
	return o;
}

static void check_label(void *o, int idx, const char *test, const char *params)
{
	struct bm_result r;

	memset(&r, 0, sizeof(r));
	TAP_EQ_INT(wl_lmdd_ops.desc->describe(o, idx, &r), 0, "describe");
	TAP_EQ_STR(r.test, test, "label");
	TAP_EQ_STR(r.params, params, "params");
	TAP_EQ_STR(r.wl, "lmdd", "wl");
}

static void test_options(void)
{
	struct lmdd_opts bad;
	struct bm_result r;
	char err[160];
	void *o;

	tap_ok(wl_find("lmdd") == &wl_lmdd_ops, "lmdd is registered");
	o = opts("", 1);
	if (o) {
		TAP_EQ_INT(((struct lmdd_opts *)o)->size, 32 << 20, "default size 32M");
		TAP_EQ_INT(wl_lmdd_ops.desc->ntests(o), 22, "11 block sizes x (w, r)");
		check_label(o, 0, "lmdd-w-1k", "size=32M bs=1k");
		check_label(o, 1, "lmdd-r-1k", "size=32M bs=1k");
		check_label(o, 4, "lmdd-w-4k", "size=32M bs=4k");
		check_label(o, 21, "lmdd-r-1024k", "size=32M bs=1024k");
		TAP_EQ_INT(((struct lmdd_opts *)o)->fsync, 0, "no fsync unless told, as lmdd");
		memset(&r, 0, sizeof(r));
		TAP_EQ_INT(wl_lmdd_ops.desc->describe(o, 22, &r), -EINVAL, "no 23rd test");
		free(o);
	}
	o = opts("bs=4k fsync=1", 1);
	if (o) {
		check_label(o, 0, "lmdd-w-4k", "size=32M bs=4k fsync=1");
		free(o);
	}
	o = opts("bs=4k,64k,1m size=16M", 1);
	if (o) {
		TAP_EQ_INT(wl_lmdd_ops.desc->ntests(o), 6, "smoke: 6 tests");
		check_label(o, 3, "lmdd-r-64k", "size=16M bs=64k");
		check_label(o, 4, "lmdd-w-1024k", "size=16M bs=1024k");
		free(o);
	}
	o = opts("bs=4k size=256M direct=1 tests=r", 1);
	if (o) {
		TAP_EQ_INT(wl_lmdd_ops.desc->ntests(o), 1, "tests=r: one test");
		check_label(o, 0, "lmdd-r-4k", "size=256M bs=4k direct=1");
		free(o);
	}
	free(opts("bs=4k,3x", 0));
	free(opts("bs=256", 0));
	free(opts("bs=128M", 0));
	free(opts("bs=", 0));
	free(opts("bs=2m size=1M", 0));
	free(opts("size=1k", 0));
	free(opts("tests=w,x", 0));
	free(opts("direct=maybe", 0));
	memset(&bad, 0, sizeof(bad));
	snprintf(bad.bs, sizeof(bad.bs), "4k,2m");
	bad.size = 1 << 20;
	TAP_EQ_INT(lmdd_check(&bad, err, sizeof(err)), -EINVAL, "size below bs");
	TAP_EQ_STR(err, "option 'size': 1048576 bytes is less than bs 2097152", "message");
	snprintf(bad.bs, sizeof(bad.bs), "4k,3x,8k");
	lmdd_check(&bad, err, sizeof(err));
	TAP_EQ_STR(err, "option 'bs': '3x' is not a block size (512 .. 64M)", "names the item");
}

/* prepare + run + the checks every successful test passes. */
static int run_one(struct wl_ctx *ctx, void *o, int idx, const char *label, double want_mb)
{
	const struct bm_metric *rate, *secs, *mb;
	struct bm_result r;
	char path[512];
	struct stat st;
	int ret;

	memset(&r, 0, sizeof(r));
	wl_lmdd_ops.desc->describe(o, idx, &r);
	TAP_EQ_STR(r.test, label, "label");
	ret = wl_lmdd_ops.prepare(ctx, o, idx);
	TAP_EQ_INT(ret, 0, "prepare");
	ret = wl_lmdd_ops.run(ctx, o, idx, &r);
	TAP_EQ_INT(ret, 0, "run");
	TAP_EQ_INT(r.partial, 0, "not partial");
	rate = tu_metric(&r, "rate");
	secs = tu_metric(&r, "secs");
	mb = tu_metric(&r, "mb");
	tap_ok(mb && mb->value == want_mb && !strcmp(mb->unit, "MB"), "%s moved %.6f MB",
	       label, want_mb);
	tap_ok(secs && secs->value > 0 && secs->value < 60 && !strcmp(secs->unit, "s"),
	       "%s took %.6f s", label, secs ? secs->value : -1);
	tap_ok(rate && secs && mb && !strcmp(rate->unit, "MB/s") &&
	       fabs(rate->value - mb->value / secs->value) < 1e-9 * rate->value,
	       "%s rate %.1f MB/s = mb / secs", label, rate ? rate->value : -1);
	snprintf(path, sizeof(path), "%s/lmdd.dat", ctx->mnt);
	tap_ok(stat(path, &st) == 0 && (double)st.st_size == want_mb * 1e6,
	       "%s file is %.0f bytes", label, want_mb * 1e6);
	return ret;
}

static void test_io(const char *dir)
{
	struct wl_ctx ctx = { .mnt = dir, .dev = "none", .fs = "host", .rep = 1 };
	char path[512];
	void *o;

	o = opts("size=1M bs=4k,64k", 1);
	if (o) {
		run_one(&ctx, o, 0, "lmdd-w-4k", 1.048576);
		run_one(&ctx, o, 1, "lmdd-r-4k", 1.048576);
		run_one(&ctx, o, 2, "lmdd-w-64k", 1.048576);
		run_one(&ctx, o, 3, "lmdd-r-64k", 1.048576);
		free(o);
	}
	/* As lmdd's move=: whole blocks only, 1000000 / 64k = 15 blocks. */
	o = opts("size=1000000 bs=64k tests=w", 1);
	if (o) {
		run_one(&ctx, o, 0, "lmdd-w-64k", 0.983040);
		free(o);
	}
	/* Reading a file shorter than size: an error with a partial result. */
	o = opts("size=2M bs=64k tests=r", 1);
	if (o) {
		struct bm_result r;
		int fd;

		snprintf(path, sizeof(path), "%s/lmdd.dat", dir);
		fd = open(path, O_WRONLY | O_TRUNC);
		if (fd >= 0)
			close(fd);
		memset(&r, 0, sizeof(r));
		tap_ok(wl_lmdd_ops.run(&ctx, o, 0, &r) == -ENODATA && r.partial,
		       "short file: -ENODATA, partial");
		free(o);
	}
	snprintf(path, sizeof(path), "%s/lmdd.dat", dir);
	unlink(path);
}

/* O_DIRECT works, or fails loudly: never a silent buffered run. */
static void test_direct(const char *dir, const char *what, int block_fs)
{
	struct wl_ctx ctx = { .mnt = dir, .dev = "none", .fs = "host", .rep = 1 };
	struct bm_result r;
	char path[512];
	void *o;
	int ret;

	o = opts("size=1M bs=64k direct=1", 1);
	if (!o)
		return;
	memset(&r, 0, sizeof(r));
	ret = wl_lmdd_ops.run(&ctx, o, 0, &r);
	if (ret == -EINVAL) {
		tap_ok(r.partial, "%s: O_DIRECT refused: -EINVAL and partial", what);
	} else {
		TAP_EQ_INT(ret, 0, "O_DIRECT write");
		tap_ok(tu_metric(&r, "mb") && tu_metric(&r, "mb")->value == 1.048576,
		       "%s: O_DIRECT write of 1 MiB", what);
		memset(&r, 0, sizeof(r));
		TAP_EQ_INT(wl_lmdd_ops.run(&ctx, o, 1, &r), 0, "O_DIRECT read");
	}
	free(o);
	/* 1000-byte blocks are no multiple of any logical block size (tmpfs,
	 * having no device, takes them). */
	o = block_fs ? opts("size=1M bs=1000 direct=1 tests=w", 1) : NULL;
	if (o) {
		memset(&r, 0, sizeof(r));
		ret = wl_lmdd_ops.run(&ctx, o, 0, &r);
		tap_ok(ret == -EINVAL && r.partial && tu_metric(&r, "mb") &&
		       tu_metric(&r, "mb")->value == 0,
		       "%s: unaligned O_DIRECT: -EINVAL, partial, 0 MB (got %d)", what, ret);
		free(o);
	}
	snprintf(path, sizeof(path), "%s/lmdd.dat", dir);
	unlink(path);
}

int main(void)
{
	char dir[] = "build/tmp-lmdd-XXXXXX", shm[] = "/dev/shm/bm-lmdd-XXXXXX";

	tap_plan(0);
	test_arithmetic();
	test_options();
	mkdir("build", 0755);
	tu_mkdtemp(dir);
	test_io(dir);
	test_direct(dir, "build/", 1);
	rmdir(dir);
	if (mkdtemp(shm)) {
		test_direct(shm, "tmpfs", 0);
		rmdir(shm);
	} else {
		tap_skip("no /dev/shm", "O_DIRECT on tmpfs");
	}
	return tap_done();
}
