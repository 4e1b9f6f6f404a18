// SPDX-License-Identifier: MIT
/*
 * lmdd: lmbench3's dd, swept over block sizes (seed 001, "lmdd (across
 * blocksizes 1K to 1024K)").  For every block size B the job expands into
 * two tests, each on a fresh filesystem:
 *
 *   lmdd-w-<B>  lmdd if=internal of=F bs=B move=SIZE [fsync=1]
 *               open O_WRONLY|O_CREAT|O_TRUNC, then the clock starts;
 *               SIZE/B writes (and with fsync=1 an fsync()) before it
 *               stops, close() after.  lmdd fsyncs only when told
 *               (lmdd.c: fsync=1), and so does this.
 *   lmdd-r-<B>  lmdd if=F of=internal bs=B
 *               prepare() writes F in B blocks; the runner drops caches;
 *               open O_RDONLY, clock, SIZE/B reads, clock, close().
 *
 * rate, secs and mb are lmdd's own figures (MB = 10^6 bytes, lmdd.h); the
 * runner's m_real window is wider: it also holds open() and close().
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lmdd.h"
#include "log.h"
#include "seqio.h"
#include "stats.h"
#include "wl.h"
#include "wl_lmdd.h"

#define LMDD_BEAT_BYTES (64ull << 20)

enum { LMDD_WRITE, LMDD_READ };

static const char *const lmdd_test_names[] = { "w", "r", NULL };

static const struct bm_opt lmdd_opts_tab[] = {
	{ .name = "bs", .type = BM_OPT_LIST, .off = offsetof(struct lmdd_opts, bs),
	  .len = sizeof(((struct lmdd_opts *)0)->bs),
	  .def = "1k,2k,4k,8k,16k,32k,64k,128k,256k,512k,1024k",
	  .help = "block sizes, 512..64M each: a write and a read test per size" },
	{ .name = "size", .type = BM_OPT_SIZE, .off = offsetof(struct lmdd_opts, size),
	  .def = "32M", .min = 4096, .max = 0,
	  .help = "bytes moved per test (lmdd move=), at least the largest bs" },
	{ .name = "direct", .type = BM_OPT_BOOL, .off = offsetof(struct lmdd_opts, direct),
	  .def = "0", .help = "O_DIRECT on the file, as lmdd direct=1" },
	{ .name = "tests", .type = BM_OPT_LIST, .off = offsetof(struct lmdd_opts, tests),
	  .len = sizeof(((struct lmdd_opts *)0)->tests), .def = "w,r",
	  .choices = lmdd_test_names, .help = "w (write), r (read)" },
	{ .name = "fsync", .type = BM_OPT_BOOL, .off = offsetof(struct lmdd_opts, fsync),
	  .def = "0", .help = "fsync() the written file before the clock stops (lmdd fsync=1)" },
	BM_OPT_END
};

/* Which direction the d-th item of the tests list is, or -EINVAL.
 * lmdd_test_names is in enum order, so the choice index is the direction. */
static int lmdd_dir(const struct lmdd_opts *o, int d)
{
	return bm_list_item(o->tests, d, lmdd_test_names);
}

static int lmdd_ndirs(const struct lmdd_opts *o)
{
	int n = 0;

	while (lmdd_dir(o, n) >= 0)
		n++;
	return n;
}

int lmdd_check(const struct lmdd_opts *o, char *err, size_t errlen)
{
	uint64_t bs[LMDD_BS_MAX];
	const char *bad = NULL;
	int n, i;

	n = lmdd_parse_bs(o->bs, bs, LMDD_BS_MAX, &bad);
	if (n == -E2BIG) {
		snprintf(err, errlen, "option 'bs': more than %d block sizes", LMDD_BS_MAX);
		return -EINVAL;
	}
	if (n < 0) {
		snprintf(err, errlen, "option 'bs': '%.*s' is not a block size (512 .. 64M)",
			 (int)strcspn(bad, ","), bad);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		if (bs[i] > o->size) {
			snprintf(err, errlen, "option 'size': %llu bytes is less than bs %llu",
				 (unsigned long long)o->size, (unsigned long long)bs[i]);
			return -EINVAL;
		}
	}
	return 0;
}

static int lmdd_check_op(const void *opts, char *err, size_t errlen)
{
	return lmdd_check(opts, err, errlen);
}

/* Tests are block-size major: w-1k, r-1k, w-2k, ... as the sweep ran. */
static int lmdd_ntests(const void *opts)
{
	const struct lmdd_opts *o = opts;
	uint64_t bs[LMDD_BS_MAX];
	char err[160];
	int n;

	/* the runner has called lmdd_check_op(); a bad job has no tests */
	if (lmdd_check(o, err, sizeof(err)))
		return 0;
	n = lmdd_parse_bs(o->bs, bs, LMDD_BS_MAX, NULL);
	return n * lmdd_ndirs(o);
}

/* The idx-th test's block size and direction. */
static int lmdd_test(const struct lmdd_opts *o, int idx, uint64_t *bs, int *dir)
{
	uint64_t all[LMDD_BS_MAX];
	int n = lmdd_parse_bs(o->bs, all, LMDD_BS_MAX, NULL), nd = lmdd_ndirs(o);

	if (n < 1 || nd < 1 || idx < 0 || idx >= n * nd)
		return -EINVAL;
	*bs = all[idx / nd];
	*dir = lmdd_dir(o, idx % nd);
	return 0;
}

static int lmdd_describe(const void *opts, int idx, struct bm_result *r)
{
	const struct lmdd_opts *o = opts;
	char sz[32], b[16];
	uint64_t bs;
	int dir, ret = lmdd_test(o, idx, &bs, &dir);

	if (ret)
		return ret;
	bm_fmt_size(sz, sizeof(sz), o->size, "KMGT");
	lmdd_bs_name(b, sizeof(b), bs);
	snprintf(r->wl, sizeof(r->wl), "lmdd");
	snprintf(r->test, sizeof(r->test), "lmdd-%s-%s", lmdd_test_names[dir], b);
	snprintf(r->params, sizeof(r->params), "size=%s bs=%s%s%s", sz, b,
		 o->direct ? " direct=1" : "", o->fsync ? " fsync=1" : "");
	return 0;
}

static void lmdd_path(const struct wl_ctx *ctx, char *buf, size_t len)
{
	snprintf(buf, len, "%s/lmdd.dat", ctx->mnt);
}

struct lmdd_io {
	uint64_t done;      /* bytes moved */
	uint64_t ns;        /* lmdd's timed interval */
};

static int lmdd_open(const struct wl_ctx *ctx, const struct lmdd_opts *o, int dir)
{
	int flags = dir == LMDD_WRITE ? O_WRONLY | O_CREAT | O_TRUNC : O_RDONLY;
	char path[512];
	int fd;

	lmdd_path(ctx, path, sizeof(path));
	fd = open(path, flags | O_CLOEXEC | (o->direct ? O_DIRECT : 0), 0644);
	if (fd >= 0)
		return fd;
	/* Else the E record would only say "Invalid argument". */
	if (errno == EINVAL && o->direct)
		rlog(RLOG_ERR, "lmdd: %s does not support O_DIRECT (direct=1)", ctx->mnt);
	return -errno;
}

/* One lmdd run: the clock runs from after open() to after the last
 * transfer (and the fsync when asked for); close() is outside it, as in
 * lmdd. */
static int lmdd_io(struct wl_ctx *ctx, const struct lmdd_opts *o, uint64_t bs, int dir,
		   int do_fsync, struct lmdd_io *io)
{
	unsigned char *buf = seqio_buffer(bs);
	uint64_t t0;
	int fd, ret;

	memset(io, 0, sizeof(*io));
	if (!buf)
		return -ENOMEM;
	fd = lmdd_open(ctx, o, dir);
	if (fd < 0) {
		ret = fd;
		goto out_free_buf;
	}
	t0 = bm_now_ns();
	ret = seqio_move(ctx, fd, buf, bs, o->size / bs * bs, dir == LMDD_WRITE,
			 dir == LMDD_WRITE ? "lmdd write" : "lmdd read", LMDD_BEAT_BYTES, &io->done);
	if (dir == LMDD_WRITE && do_fsync && fsync(fd) && !ret)
		ret = -errno;
	io->ns = bm_now_ns() - t0;
	if (ret == -EINVAL && o->direct)
		rlog(RLOG_ERR, "lmdd: O_DIRECT refused a %llu-byte transfer: bs must be a "
		     "multiple of the device's logical block size", (unsigned long long)bs);
	if (close(fd) && !ret)
		ret = -errno;
out_free_buf:
	free(buf);
	return ret;
}

/* A read test needs its file on disk, written in the same blocks. */
static int lmdd_prepare(struct wl_ctx *ctx, const void *opts, int idx)
{
	struct lmdd_io io;
	uint64_t bs;
	int dir, ret = lmdd_test(opts, idx, &bs, &dir);

	if (ret || dir == LMDD_WRITE)
		return ret;
	return lmdd_io(ctx, opts, bs, LMDD_WRITE, 1, &io);
}

static int lmdd_run(struct wl_ctx *ctx, const void *opts, int idx, struct bm_result *r)
{
	struct lmdd_io io;
	uint64_t bs;
	double mb, secs;
	int dir, ret = lmdd_test(opts, idx, &bs, &dir);

	if (ret)
		return ret;
	ret = lmdd_io(ctx, opts, bs, dir, ((const struct lmdd_opts *)opts)->fsync, &io);
	mb = lmdd_mb(io.done);
	secs = (double)io.ns / 1e9;
	if (io.ns)
		bm_result_add(r, "rate", lmdd_rate(mb, secs), "MB/s");
	bm_result_add(r, "secs", secs, "s");
	bm_result_add(r, "mb", mb, "MB");
	if (ret)
		r->partial = 1;
	return ret;
}

const struct wl_ops wl_lmdd_ops = {
	.name = "lmdd",
	.flags = 0,
	.opts = lmdd_opts_tab,
	.opts_size = sizeof(struct lmdd_opts),
	.check = lmdd_check_op,
	.ntests = lmdd_ntests,
	.describe = lmdd_describe,
	.prepare = lmdd_prepare,
	.run = lmdd_run,
	.inspect = NULL,
};
