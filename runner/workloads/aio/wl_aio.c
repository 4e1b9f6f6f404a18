// SPDX-License-Identifier: MIT
/*
 * aio: batched random file reads, seed 002 (Jeff Moyer's aio request
 * batching, LKML Oct 2009: "read 1 million random 40K files (no file is
 * read more than once), 16 4K iocbs at a time, 100 threads").
 *
 * prepare() writes F files of S bytes; the runner then drops caches and
 * remounts.  run() shuffles the files with a fixed seed and gives each of
 * T threads an equal share; a thread opens a file (O_DIRECT by default),
 * reads it whole with qd 4 KiB reads in flight through its engine (libaio
 * or raw io_uring), closes it.  The clock runs from the threads' release
 * to the last join.  cache=warm reads every file once, buffered, in run()
 * before that clock starts (the runner's drop after prepare() would undo
 * it there): inode, extent and page caches are hot, as in the seed's
 * "w/o drop_caches" rows.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emit.h"
#include "wl.h"
#include "wl_aio.h"

/* A precise E record beside the runner's generic one (ctx->priv is the
 * emitter in both modes; NULL in unit tests, where stderr gets it). */
static void aio_error(struct wl_ctx *ctx, const struct aio_test *t, const char *fmt,
		      const char *a, const char *b)
{
	char label[32], msg[256];
	struct emit_ctx ec = { .fs = ctx->fs, .test = label, .rep = ctx->rep };

	aio_label(label, sizeof(label), t);
	snprintf(msg, sizeof(msg), fmt, a, b);
	if (ctx->priv)
		emit_error(ctx->priv, "bench", &ec, "%s", msg);
	else
		fprintf(stderr, "bootmark-runner: %s: %s\n", label, msg);
}

static int write_file(const char *path, void *buf, uint32_t fsize, uint32_t i)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), ret = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	aio_fill(buf, i, 0, fsize);
	n = write(fd, buf, fsize);
	if (n != (ssize_t)fsize)
		ret = n < 0 ? -errno : -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* What the last prepare() found of O_DIRECT here (0 or its refusal's -errno),
 * for the run() that follows it in the same process: a run() of its own probe
 * was one more open and close of a file inside the test than fio makes
 * (tests/trace_aio.sh).  1: not probed (a run() with no prepare()). */
static int aio_direct_err = 1;

/* 0 when O_DIRECT opens work here, else the -errno of the refusal. */
static int direct_probe(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int aio_prepare(struct wl_ctx *ctx, const void *opts, int idx)
{
	const struct aio_opts *o = opts;
	struct aio_q *q;
	struct aio_test t;
	char path[512];
	void *buf;
	uint32_t i;
	int ret = 0;

	if (aio_test_of(o, idx, &t))
		return -EINVAL;
	/* an interface the kernel refuses skips the test before any writing */
	ret = aio_engine_of(t.engine)->init(&q, (unsigned)o->qd);
	if (ret) {
		aio_error(ctx, &t, "%s unavailable: %s (io_uring: see sysctl "
			  "kernel.io_uring_disabled); test skipped", aio_engine_names[t.engine],
			  strerror(-ret));
		return ret;
	}
	aio_engine_of(t.engine)->fini(q);
	if (posix_memalign(&buf, AIO_BS, t.fsize))
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/aio", ctx->mnt);
	if (mkdir(path, 0755) && errno != EEXIST) {
		ret = -errno;
		goto out_free;
	}
	for (i = 0; i < (uint32_t)o->files && !ret; i++) {
		if (i % AIO_DIR_FILES == 0) {
			aio_path(path, sizeof(path), ctx->mnt, i);
			*strrchr(path, '/') = '\0';
			if (mkdir(path, 0755) && errno != EEXIST) {
				ret = -errno;
				break;
			}
			if (ctx->beat)
				ctx->beat(ctx, "aio prepare");
		}
		aio_path(path, sizeof(path), ctx->mnt, i);
		ret = write_file(path, buf, t.fsize, i);
	}
	if (!ret && o->direct) {
		aio_path(path, sizeof(path), ctx->mnt, 0);
		ret = aio_direct_err = direct_probe(path);
		if (ret)
			aio_error(ctx, &t, "O_DIRECT refused on %s (%s): reading buffered, "
				  "metric direct=0", ctx->fs, strerror(-ret));
		ret = 0;
	}
out_free:
	free(buf);
	return ret;
}

static int aio_run(struct wl_ctx *ctx, const void *opts, int idx, struct bm_result *r)
{
	const struct aio_opts *o = opts;
	struct aio_sum sum;
	struct bm_lat *lat;
	struct aio_test t;
	char path[512];
	int direct = 0, ret;

	if (aio_test_of(o, idx, &t))
		return -EINVAL;
	if (o->direct) {
		aio_path(path, sizeof(path), ctx->mnt, 0);
		direct = (aio_direct_err == 1 ? direct_probe(path) : aio_direct_err) == 0;
		aio_direct_err = 1;
	}
	lat = malloc(sizeof(*lat));
	if (!lat)
		return -ENOMEM;
	if (t.cache == AIO_WARM) {
		ret = aio_warm(ctx->mnt, (uint32_t)o->files, t.fsize);
		if (ret)
			goto out_free;
	}
	ret = aio_run_threads(ctx->mnt, o, &t, direct, &sum, lat);
	if (sum.secs > 0 || sum.files)
		aio_add_metrics(r, &sum, direct);
	if (ret)
		r->partial = 1;
out_free:
	free(lat);
	return ret;
}

const struct wl_ops wl_aio_ops = {
	.desc = &wl_aio_desc,
	.flags = 0,
	.prepare = aio_prepare,
	.run = aio_run,
	.inspect = NULL,
};
