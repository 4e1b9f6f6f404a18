// SPDX-License-Identifier: MIT
/* runner/workloads/tiobench/wl_tiobench.c: options, labels, the computations with known
 * inputs, and the four phases run on the host in a temp dir. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsrun.h"
#include "tap.h"
#include "testutil.h"
#include "wl.h"
#include "wl_tiobench.h"

static double val(const struct bm_result *r, const char *name, const char *unit)
{
	const struct bm_metric *m = tu_metric(r, name);

	if (!m || strcmp(m->unit, unit))
		return -1;
	return m->value;
}

static void *opts(const char *args, int want_ok)
{
	char err[256] = "";
	void *o = NULL;
	int ret = fsrun_job_opts(&wl_tiobench_ops, args, &o, err, sizeof(err));

	tap_ok(want_ok ? ret == 0 : ret < 0, "tiobench %s: %s %s", args,
	       want_ok ? "accepted" : "rejected", err);
	return o;
}

static void label(void *o, int idx, const char *test, const char *params)
{
	struct bm_result r;

	memset(&r, 0, sizeof(r));
	TAP_EQ_INT(wl_tiobench_ops.desc->describe(o, idx, &r), 0, "describe");
	TAP_EQ_STR(r.wl, "tiobench", "wl");
	TAP_EQ_STR(r.test, test, "label");
	if (params)
		TAP_EQ_STR(r.params, params, "params");
}

static void test_options(void)
{
	struct bm_result r;
	void *o;

	tap_ok(wl_find("tiobench") == &wl_tiobench_ops, "tiobench is registered");
	o = opts("", 1);
	if (o) {
		struct tio_opts *t = o;

		TAP_EQ_INT(t->size, 10 << 20, "default size 10M per thread (tiotest -f 10)");
		TAP_EQ_INT(t->bs, 4096, "default bs 4096 (tiotest -b)");
		TAP_EQ_INT(t->random, 1000, "default random 1000 (tiotest 0.4.2 -r)");
		TAP_EQ_INT(wl_tiobench_ops.desc->ntests(o), 16, "threads 1,2,4,8 x 4 phases");
		label(o, 0, "tio-seqwr-t1", "threads=1 size=10M bs=4k random=1000");
		label(o, 5, "tio-rndwr-t2", "threads=2 size=10M bs=4k random=1000");
		label(o, 15, "tio-rndrd-t8", NULL);
		TAP_EQ_INT(wl_tiobench_ops.desc->describe(o, 16, &r), -EINVAL, "no 17th test");
		free(o);
	}
	o = opts("threads=1,8,16,32,64,128,256 size=32M bs=4k random=250", 1);
	if (o) {
		TAP_EQ_INT(wl_tiobench_ops.desc->ntests(o), 28, "seed 000 thread list: 28 tests");
		label(o, 4, "tio-seqwr-t8", "threads=8 size=32M bs=4k random=250");
		label(o, 27, "tio-rndrd-t256", "threads=256 size=32M bs=4k random=250");
		free(o);
	}
	o = opts("threads=4 phases=seqrd,rndrd size=1536k bs=8k direct=1 sync=yes", 1);
	if (o) {
		TAP_EQ_INT(wl_tiobench_ops.desc->ntests(o), 2, "two phases, one thread count");
		label(o, 0, "tio-seqrd-t4", "threads=4 size=1536k bs=8k random=1000 direct=1 sync=1");
		label(o, 1, "tio-rndrd-t4", NULL);
		free(o);
	}
	free(opts("threads=0", 0));
	free(opts("threads=1025", 0));
	free(opts("threads=1,,2", 0));
	free(opts("threads=1,2,", 0));
	free(opts("threads=4x", 0));
	free(opts("threads=-1", 0));
	free(opts("phases=seqwr,write", 0));
	free(opts("size=4k bs=8k", 0));
	free(opts("random=0", 0));
	free(opts("bs=100", 0));
}

static void test_pure(void)
{
	unsigned list[TIO_LISTS_MAX], s1, s2, i, same = 1, inrange = 1;
	uint64_t a[64];
	int n;

	n = tio_threads_parse("1,8,16,32,64,128,256", list, TIO_LISTS_MAX);
	tap_ok(n == 7 && list[0] == 1 && list[6] == 256, "thread list parsed (%d)", n);
	TAP_EQ_INT(tio_threads_parse("1,2,3", list, 2), -EINVAL, "more items than room");
	TAP_EQ_INT(tio_threads_parse("", list, 2), -EINVAL, "empty list");

	tap_ok(tio_rate(256, 4096, 2.0) == 0.5, "256 x 4 KiB in 2 s = 0.5 MiB/s");
	tap_ok(tio_rate(25600, 4096, 0.5) == 200.0, "100 MiB in 0.5 s = 200 MiB/s");
	tap_ok(tio_rate(1, 4096, 0) == 0.0, "no time: rate 0");
	tap_ok(tio_eff(8.81, 5.345) > 164.7 && tio_eff(8.81, 5.345) < 164.9,
	       "seed 003's first row: 8.81 MB/s at 5.345%% CPU, Eff %.3f (printed 165)",
	       tio_eff(8.81, 5.345));
	tap_ok(tio_eff(10, 0) == 10 / 0.00001, "no CPU: rate / 0.00001, as tiobench.pl");

	for (i = 0; i < 1000; i++)
		if (tio_seed(i) == 0 || tio_seed(i) == tio_seed(i + 1))
			same = 0;
	tap_ok(same, "seeds nonzero and differ between neighbours");
	s1 = tio_seed(3);
	for (i = 0; i < 64; i++) {
		a[i] = tio_rand_block(&s1, 256);
		inrange &= a[i] < 256;
	}
	tap_ok(inrange, "random blocks below blocks");
	s2 = tio_seed(3);
	same = 1;
	for (i = 0; i < 64; i++)
		same &= tio_rand_block(&s2, 256) == a[i];
	tap_ok(same, "same seed, same offsets (reproducible)");
	s1 = tio_seed(1);
	tap_ok(tio_rand_block(&s1, 1) == 0, "one block: always block 0");
	s1 = tio_seed(1);
	inrange = 1;
	for (i = 0; i < 1000; i++)
		inrange &= tio_rand_block(&s1, 1ull << 40) < (1ull << 40);
	tap_ok(inrange, "blocks above RAND_MAX stay in range");
}

/* tio_add_metrics on a known phase: 3 I/Os of 1, 3 and 2500 ms. */
static void test_metrics(void)
{
	struct bm_lat *l = malloc(sizeof(*l));
	struct tio_sum s = {
		.secs = 4.0, .cpu0 = { 1.0, 2.0 }, .cpu1 = { 1.5, 3.5 }, .ops = 1024,
		.bs = 4096,
	};
	struct bm_result r;

	if (!l)
		tap_bail("out of memory");
	bm_lat_init(l);
	bm_lat_add(l, 1000000);
	bm_lat_add(l, 3000000);
	bm_lat_add(l, 2500000000ull);
	s.lat = l;
	memset(&r, 0, sizeof(r));
	tio_add_metrics(&r, &s);
	TAP_EQ_INT(r.nmetrics, 12, "twelve metrics");
	tap_ok(val(&r, "rate", "MiB/s") == 1.0, "rate: 4 MiB in 4 s = 1 MiB/s");
	tap_ok(val(&r, "cpu", "%") == 50.0, "cpu: 2 s of CPU in 4 s = 50%%");
	tap_ok(val(&r, "time", "s") == 4.0, "time 4 s");
	tap_ok(val(&r, "ops", "count") == 1024, "ops 1024");
	tap_ok(val(&r, "lat_avg", "ms") == 2504.0 / 3, "lat_avg (1+3+2500)/3 ms");
	tap_ok(val(&r, "lat_max", "ms") == 2500.0, "lat_max 2500 ms");
	tap_ok(val(&r, "pct_2s", "%") == 100.0 / 3, "pct_2s 1 of 3");
	tap_ok(val(&r, "pct_10s", "%") == 0.0, "pct_10s 0");
	tap_ok(val(&r, "lat_p50", "ms") > 2.95 && val(&r, "lat_p50", "ms") < 3.05, "p50 ~3 ms");
	tap_ok(val(&r, "lat_p99", "ms") > 2500.0 * (1 - 1.0 / 128) &&
	       val(&r, "lat_p99", "ms") <= 2500.0, "p99 in the max's bucket: %.3f ms",
	       val(&r, "lat_p99", "ms"));
	tap_ok(val(&r, "lat_p999", "ms") == val(&r, "lat_p99", "ms"), "p99.9 the same bucket");
	tap_ok(val(&r, "eff", "MiB/cpu-s") == 1.0 / (0.5 + 0.00001), "eff = 1 / (0.5 + 0.00001)");
	free(l);
}

static void run_phase(struct wl_ctx *ctx, void *o, int idx, const char *want,
		      uint64_t want_ops, uint64_t fsize, unsigned threads)
{
	struct bm_result r;
	char path[512];
	struct stat st;
	unsigned i, ok = 1;
	int ret;

	memset(&r, 0, sizeof(r));
	wl_tiobench_ops.desc->describe(o, idx, &r);
	TAP_EQ_STR(r.test, want, "label");
	ret = wl_tiobench_ops.prepare(ctx, o, idx);
	TAP_EQ_INT(ret, 0, "prepare");
	ret = wl_tiobench_ops.run(ctx, o, idx, &r);
	TAP_EQ_INT(ret, 0, "run");
	TAP_EQ_INT(r.partial, 0, "not partial");
	tap_ok(val(&r, "ops", "count") == (double)want_ops, "%s: %.0f I/Os (want %llu)", want,
	       val(&r, "ops", "count"), (unsigned long long)want_ops);
	tap_ok(val(&r, "rate", "MiB/s") > 0, "%s: rate %.1f MiB/s", want, val(&r, "rate", "MiB/s"));
	tap_ok(val(&r, "time", "s") > 0 && val(&r, "time", "s") < 60, "%s: time %.4f s", want,
	       val(&r, "time", "s"));
	tap_ok(val(&r, "cpu", "%") >= 0, "%s: cpu %.1f%%", want, val(&r, "cpu", "%"));
	tap_ok(val(&r, "lat_avg", "ms") > 0 && val(&r, "lat_avg", "ms") <= val(&r, "lat_max", "ms"),
	       "%s: 0 < lat_avg %.4f <= lat_max %.3f ms", want, val(&r, "lat_avg", "ms"),
	       val(&r, "lat_max", "ms"));
	tap_ok(val(&r, "lat_p50", "ms") > 0 &&
	       val(&r, "lat_p50", "ms") <= val(&r, "lat_p99", "ms") &&
	       val(&r, "lat_p99", "ms") <= val(&r, "lat_p999", "ms") &&
	       val(&r, "lat_p999", "ms") <= val(&r, "lat_max", "ms"),
	       "%s: p50 %.4f <= p99 %.4f <= p99.9 %.4f <= max", want, val(&r, "lat_p50", "ms"),
	       val(&r, "lat_p99", "ms"), val(&r, "lat_p999", "ms"));
	tap_ok(val(&r, "pct_2s", "%") >= 0 && val(&r, "pct_2s", "%") <= 100 &&
	       val(&r, "pct_10s", "%") >= 0, "%s: pct_2s %.2f pct_10s %.2f", want,
	       val(&r, "pct_2s", "%"), val(&r, "pct_10s", "%"));
	tap_ok(val(&r, "eff", "MiB/cpu-s") > 0 || val(&r, "cpu", "%") == 0, "%s: eff %.0f", want,
	       val(&r, "eff", "MiB/cpu-s"));
	for (i = 0; i < threads; i++) {
		tio_path(path, sizeof(path), ctx->mnt, i);
		ok &= stat(path, &st) == 0 && (uint64_t)st.st_size == fsize;
	}
	tap_ok(ok, "%s: %u files of %llu bytes", want, threads, (unsigned long long)fsize);
	wl_tiobench_ops.inspect(ctx, o, idx, &r);
	tio_path(path, sizeof(path), ctx->mnt, 0);
	tap_ok(stat(path, &st) < 0 && errno == ENOENT, "%s: files removed after the test", want);
}

static void test_io(const char *dir)
{
	struct wl_ctx ctx = { .mnt = dir, .dev = "none", .fs = "host", .rep = 1 };
	struct bm_result r;
	void *o;

	o = opts("threads=2 size=1M bs=4k random=100", 1);
	if (o) {
		/* seq: size/bs per thread x threads; random: random x threads */
		run_phase(&ctx, o, 0, "tio-seqwr-t2", 256 * 2, 1 << 20, 2);
		run_phase(&ctx, o, 1, "tio-rndwr-t2", 100 * 2, 1 << 20, 2);
		run_phase(&ctx, o, 2, "tio-seqrd-t2", 256 * 2, 1 << 20, 2);
		run_phase(&ctx, o, 3, "tio-rndrd-t2", 100 * 2, 1 << 20, 2);
		free(o);
	}
	/* size not a multiple of bs: tiotest's blocks = size / bs, file = size */
	o = opts("threads=3 size=10000 bs=4k random=7 phases=seqrd,rndwr", 1);
	if (o) {
		run_phase(&ctx, o, 0, "tio-seqrd-t3", 2 * 3, 10000, 3);
		run_phase(&ctx, o, 1, "tio-rndwr-t3", 7 * 3, 10000, 3);
		free(o);
	}
	o = opts("threads=2 size=64k bs=4k random=10 direct=1 sync=1 phases=seqwr,rndrd", 1);
	if (o) {
		memset(&r, 0, sizeof(r));
		if (wl_tiobench_ops.run(&ctx, o, 0, &r) == -EINVAL) {
			tap_skip("no O_DIRECT here", "direct=1 sync=1");
		} else {
			wl_tiobench_ops.inspect(&ctx, o, 0, &r);
			run_phase(&ctx, o, 0, "tio-seqwr-t2", 16 * 2, 64 << 10, 2);
			run_phase(&ctx, o, 1, "tio-rndrd-t2", 10 * 2, 64 << 10, 2);
		}
		free(o);
	}
	/* tiotest 0.3.3: O_TRUNC append, lseek + read/write, fsync writes only,
	 * the threads' own CPU summed */
	o = opts("threads=2 size=256k bs=4k random=40 version=0.3.3", 1);
	if (o) {
		label(o, 1, "tio-rndwr-t2", "threads=2 size=256k bs=4k random=40 version=0.3.3");
		run_phase(&ctx, o, 0, "tio-seqwr-t2", 64 * 2, 256 << 10, 2);
		run_phase(&ctx, o, 1, "tio-rndwr-t2", 40 * 2, 256 << 10, 2);
		run_phase(&ctx, o, 2, "tio-seqrd-t2", 64 * 2, 256 << 10, 2);
		run_phase(&ctx, o, 3, "tio-rndrd-t2", 40 * 2, 256 << 10, 2);
		free(o);
	}
	/* A directory that does not exist: the error, flagged partial. */
	o = opts("threads=2 size=64k phases=seqwr", 1);
	if (o) {
		struct wl_ctx bad = { .mnt = "/nonexistent/bootmark", .dev = "none", .fs = "host" };

		memset(&r, 0, sizeof(r));
		TAP_EQ_INT(wl_tiobench_ops.run(&bad, o, 0, &r), -ENOENT, "missing dir: -ENOENT");
		TAP_EQ_INT(r.partial, 1, "missing dir: partial");
		free(o);
	}
}

int main(void)
{
	char dir[] = "build/tmp-tio-XXXXXX";

	tap_plan(0);
	test_options();
	test_pure();
	test_metrics();
	/* Under build/, not /tmp: tmpfs has no O_DIRECT. */
	mkdir("build", 0755);
	tu_mkdtemp(dir);
	test_io(dir);
	rmdir(dir);
	return tap_done();
}
