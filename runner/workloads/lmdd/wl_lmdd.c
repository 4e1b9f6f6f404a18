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

static int lmdd_prepares(const void *opts, int idx)
{
	uint64_t bs;
	int dir;

	return lmdd_test(opts, idx, &bs, &dir) || dir != LMDD_WRITE;
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
	.desc = &wl_lmdd_desc,
	.flags = 0,
	.prepare = lmdd_prepare,
	.run = lmdd_run,
	.inspect = NULL,
	.prepares = lmdd_prepares,
};
