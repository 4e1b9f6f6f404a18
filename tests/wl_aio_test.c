// SPDX-License-Identifier: MIT
/* runner/workloads/aio/wl_aio.c: options, labels, file order, the io_uring ring
 * arithmetic on a fake ring, and short host runs of both engines that
 * check the counts exactly and the data read back. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsrun.h"
#include "tap.h"
#include "testutil.h"
#include "uring.h"
#include "wl.h"
#include "wl_aio.h"

static void *opts(const char *args, int want_ok)
{
	char err[256] = "";
	void *o = NULL;
	int ret = fsrun_job_opts(&wl_aio_ops, args, &o, err, sizeof(err));

	tap_ok(want_ok ? ret == 0 : ret < 0, "aio %s: %s %s", args,
	       want_ok ? "accepted" : "rejected", err);
	return o;
}

static void test_options(void)
{
	static const char *const labels[] = { "aio-libaio-40k", "aio-libaio-40k-warm",
		"aio-libaio-128k", "aio-libaio-128k-warm", "aio-uring-40k", "aio-uring-40k-warm",
		"aio-uring-128k", "aio-uring-128k-warm" };
	struct bm_result r;
	uint32_t sz[8];
	void *o;
	int i;

	o = opts("files=10", 1);
	TAP_EQ_INT(wl_aio_ops.desc->ntests(o), 4, "default: 2 engines x 2 sizes, cold");
	free(o);
	o = opts("fsize=40k,128k cache=cold,warm qd=16 threads=100 files=1000", 1);
	TAP_EQ_INT(wl_aio_ops.desc->ntests(o), 8, "2 x 2 x 2 tests");
	for (i = 0; i < 8; i++) {
		memset(&r, 0, sizeof(r));
		wl_aio_ops.desc->describe(o, i, &r);
		TAP_EQ_STR(r.test, labels[i], "label");
	}
	memset(&r, 0, sizeof(r));
	wl_aio_ops.desc->describe(o, 7, &r);
	TAP_EQ_STR(r.params, "engine=io_uring files=1000 fsize=128k qd=16 threads=100 direct=1 "
		   "cache=warm", "params");
	free(o);
	free(opts("fsize=6k", 0));
	free(opts("fsize=40k,,4k", 0));
	free(opts("engine=posix", 0));
	free(opts("qd=0", 0));
	free(opts("order=shuffled", 0));
	o = opts("engine=libaio fsize=64M files=1 threads=1 order=random", 1);
	memset(&r, 0, sizeof(r));
	TAP_EQ_INT(wl_aio_ops.desc->ntests(o), 1, "order=random: one test");
	wl_aio_ops.desc->describe(o, 0, &r);
	TAP_EQ_STR(r.test, "aio-libaio-64M-rand", "order=random label");
	TAP_EQ_STR(r.params, "engine=libaio files=1 fsize=64M qd=16 threads=1 direct=1 "
		   "cache=cold order=random", "order=random params");
	free(o);
	TAP_EQ_INT(aio_fsizes_parse("4k,1M", sz, 8), 2, "fsizes parse");
	TAP_EQ_INT((int)sz[1], 1 << 20, "1M");
	TAP_EQ_INT(aio_fsizes_parse("128M", sz, 8), -EINVAL, "above 64M");
}

static void test_order(void)
{
	uint32_t a[1000], b[1000], seen[1000] = { 0 }, first, cnt, total = 0, i, moved = 0;
	unsigned t;
	int ok = 1;

	aio_shuffle(a, 1000);
	aio_shuffle(b, 1000);
	for (i = 0; i < 1000; i++) {
		if (a[i] >= 1000 || seen[a[i]]++ || a[i] != b[i])
			ok = 0;
		moved += a[i] != i;
	}
	tap_ok(ok, "shuffle: a deterministic permutation");
	tap_ok(moved > 900, "shuffle: %u of 1000 files moved", moved);
	for (t = 0; t < 7; t++) {
		aio_share(1000, 7, t, &first, &cnt);
		if (first != total || (cnt != 142 && cnt != 143))
			ok = 0;
		total += cnt;
	}
	tap_ok(ok && total == 1000, "shares: contiguous, all files, 142 or 143 each");
}

/* The kernel's ring, faked in plain memory: 4 entries, counters near the
 * 32-bit wrap so the masks are exercised. */
#define AIO_SQE_SIZE 64
#define AIO_CQE_SIZE 16

static void test_ring(void)
{
	unsigned sh = 0xfffffffe, st = 0xfffffffe, mask = 3, ent = 4, arr[4];
	unsigned ch = 0xffffffff, ct = 0xffffffff;
	char sqes[4 * AIO_SQE_SIZE], cqes[4 * AIO_CQE_SIZE];
	struct uring_sq sq = { .head = &sh, .tail = &st, .mask = &mask, .entries = &ent,
			       .array = arr, .sqes = sqes, .sqe_size = AIO_SQE_SIZE };
	struct uring_cq cq = { .head = &ch, .tail = &ct, .mask = &mask, .cqes = cqes,
			       .cqe_size = AIO_CQE_SIZE };
	uint64_t ud, w;
	int32_t res;
	int i, ok = 1;

	for (i = 0; i < 4; i++)
		ok &= aio_sq_push(&sq, 3, NULL, 4096, (uint64_t)i * 4096, 100 + i) == 0;
	tap_ok(ok && st == 2, "sq: 4 pushes across the wrap, tail 2");
	TAP_EQ_INT(aio_sq_push(&sq, 3, NULL, 4096, 0, 9), -EBUSY, "sq full at 4");
	tap_ok(arr[2] == 2 && sqes[2 * AIO_SQE_SIZE] == URING_OP_READ, "slot of tail 0xfffffffe is 2");
	memcpy(&w, sqes + 0 * AIO_SQE_SIZE + 32, 8);
	TAP_EQ_INT((int)w, 102, "slot 0 holds the third push's user_data");
	sh = st;   /* the kernel consumed them */
	tap_ok(aio_sq_push(&sq, 3, NULL, 4096, 0, 9) == 0, "room again after the head moves");
	TAP_EQ_INT(aio_cq_pop(&cq, &res, &ud), 0, "cq empty");
	ud = 77;
	res = 4096;
	memcpy(cqes + 3 * AIO_CQE_SIZE, &ud, 8);
	memcpy(cqes + 3 * AIO_CQE_SIZE + 8, &res, 4);
	ud = 78;
	memcpy(cqes, &ud, 8);
	ct = ch + 2;
	ud = 0;
	tap_ok(aio_cq_pop(&cq, &res, &ud) == 1 && ud == 77 && res == 4096, "cq: slot 3 first");
	tap_ok(aio_cq_pop(&cq, &res, &ud) == 1 && ud == 78 && ch == 1, "cq: wraps to slot 0");
	TAP_EQ_INT(aio_cq_pop(&cq, &res, &ud), 0, "cq drained");
}

/* Reads back 5 files through the engine and compares with the pattern. */
static int verify(const struct aio_engine *e, const char *dir, int flags,
		  const uint32_t *order)
{
	char path[512];
	struct aio_q *q;
	uint64_t iocbs = 0, subs = 0;
	void *got, *want;
	int fd, bad = 0;
	uint32_t i;

	if (e->init(&q, 8))
		return -1;
	if (posix_memalign(&got, 4096, 40960) || !(want = malloc(40960)))
		abort();
	for (i = 0; i < 50; i += 10) {
		aio_path(path, sizeof(path), dir, i);
		fd = open(path, flags);
		memset(got, 0, 40960);
		if (fd < 0 || e->read_file(q, fd, got, 40960, order, &iocbs, &subs))
			bad++;
		aio_fill(want, i, 0, 40960);
		bad += memcmp(got, want, 40960) != 0;
		if (fd >= 0)
			close(fd);
	}
	e->fini(q);
	free(got);
	free(want);
	return bad || iocbs != 50 ? -1 : 0;
}

static void host_run(const char *dir, int engine, int direct)
{
	char args[128], name[64];
	struct wl_ctx ctx = { .mnt = dir, .fs = "tmp", .rep = 1 };
	struct bm_result r;
	struct aio_q *q;
	void *o;
	double subs;
	uint32_t order[10], i, moved;
	int flags;

	snprintf(name, sizeof(name), "%s direct=%d", engine ? "io_uring" : "libaio", direct);
	if (aio_engine_of(engine)->init(&q, 8)) {
		tap_skip("io_uring_setup refused here", "%s", name);
		return;
	}
	aio_engine_of(engine)->fini(q);
	snprintf(args, sizeof(args), "files=50 fsize=40k qd=8 threads=2 engine=%s direct=%d",
		 engine ? "io_uring" : "libaio", direct);
	o = opts(args, 1);
	memset(&r, 0, sizeof(r));
	TAP_EQ_INT(wl_aio_ops.prepare(&ctx, o, 0), 0, "prepare");
	TAP_EQ_INT(wl_aio_ops.run(&ctx, o, 0, &r), 0, "run");
	tap_ok(tu_val(&r, "files", "count") == 50, "%s: 50 files", name);
	tap_ok(tu_val(&r, "iocbs", "count") == 500, "%s: iocbs = 50 x 40k/4k", name);
	subs = tu_val(&r, "submits", "count");
	/* 10 blocks at qd 8: 8, then 2 more in one or two refills */
	tap_ok(subs >= 100 && subs <= 150, "%s: submits %.0f in [100,150]", name, subs);
	tap_ok(tu_val(&r, "files_s", "files/s") > 0 && tu_val(&r, "rate", "MiB/s") > 0, "%s: rates", name);
	tap_ok(tu_val(&r, "lat_max", "ms") >= tu_val(&r, "lat_avg", "ms") && tu_val(&r, "lat_avg", "ms") > 0,
	       "%s: lat_max >= lat_avg > 0", name);
	tap_ok(tu_val(&r, "rate", "MiB/s") * tu_val(&r, "time", "s") > 1.9 &&
	       tu_val(&r, "rate", "MiB/s") * tu_val(&r, "time", "s") < 1.96,
	       "%s: rate x time = 50 x 40 KiB", name);
	flags = O_RDONLY | (tu_val(&r, "direct", "count") == 1 ? O_DIRECT : 0);
	tap_ok(verify(aio_engine_of(engine), dir, flags, NULL) == 0,
	       "%s: data read back equals what prepare wrote", name);
	/* shuffled blocks land at their own offsets in the buffer */
	aio_shuffle(order, 10);
	for (i = 0, moved = 0; i < 10; i++)
		moved += order[i] != i;
	tap_ok(moved > 0 && verify(aio_engine_of(engine), dir, flags, order) == 0,
	       "%s: shuffled order (%u blocks moved) reads the same data", name, moved);
	free(o);
}

int main(void)
{
	char dir[] = "/tmp/bm-aio-test.XXXXXX", cmd[128];
	int e, d;

	tap_plan(0);
	test_options();
	test_order();
	test_ring();
	if (!mkdtemp(dir)) {
		tap_ok(0, "mkdtemp: %s", strerror(errno));
		return tap_done();
	}
	for (e = 0; e < AIO_NENGINES; e++)
		for (d = 0; d < 2; d++)
			host_run(dir, e, d);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		tap_ok(0, "cleanup %s", dir);
	return tap_done();
}
