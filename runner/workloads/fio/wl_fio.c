// SPDX-License-Identifier: MIT
/*
 * fio: runs fio 3.33 (execve, no shell) on the test filesystem with the
 * job's parameters, so bootmark's own workloads can be compared with fio on
 * the same kernel, disk and filesystem (make bench, tests/bench_appliance.sh).
 * Normal images hold no fio: the benchmark-only image part adds
 * /usr/bin/fio and its libraries (docs/performance.md); without it the test
 * fails with an E record that says so.
 *
 * prepare() writes the file a read test reads (fio would lay it out itself,
 * inside its run, with the page cache warm); run() spawns fio with
 * --output-format=terse and turns its figures into metrics: fio's own
 * bandwidth, runtime and getrusage CPU, beside the runner's window.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emit.h"
#include "rawdev.h"
#include "spawn.h"
#include "wl.h"
#include "wl_fio.h"

#define FIO_OUT_MAX   (16 << 10)
#define FIO_PREP_BS   (1u << 20)

/* An E record beside the runner's generic one (stderr in unit tests). */
static void fio_error(struct wl_ctx *ctx, const void *opts, const char *fmt, const char *a,
		      const char *b)
{
	struct bm_result r = { .nmetrics = 0 };
	struct emit_ctx ec = { .fs = ctx->fs, .test = r.test, .rep = ctx->rep };
	char msg[512];

	wl_fio_desc.describe(opts, 0, &r);
	snprintf(msg, sizeof(msg), fmt, a, b);
	if (ctx->priv)
		emit_error(ctx->priv, "bench", &ec, "%s", msg);
	else
		fprintf(stderr, "bootmark-runner: %s: %s\n", r.test, msg);
}

/* The file a read test reads: size bytes of a non-zero pattern. */
static int write_file(const char *path, uint64_t size)
{
	uint64_t done = 0;
	size_t n;
	ssize_t w;
	char *buf = malloc(FIO_PREP_BS);
	int fd, ret = 0;

	if (!buf)
		return -ENOMEM;
	memset(buf, 0x5a, FIO_PREP_BS);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		goto out_free;
	}
	while (done < size && !ret) {
		n = size - done < FIO_PREP_BS ? (size_t)(size - done) : FIO_PREP_BS;
		w = write(fd, buf, n);
		if (w <= 0)
			ret = w < 0 ? -errno : -EIO;
		else
			done += (uint64_t)w;
	}
	if (close(fd) && !ret)
		ret = -errno;
out_free:
	free(buf);
	return ret;
}

/*
 * What fio's --filename is: the file on the test filesystem; for a raw job
 * (target=disk, target=ng) in the appliance the test disk itself or its
 * NVMe generic char device; in host mode, where a job never touches a
 * disk, target=disk is a file of size bytes in the test directory (as
 * rawio's) and target=ng has nothing to run on.  0 or -errno.
 */
static int fio_path(struct wl_ctx *ctx, const struct fio_opts *o, char *path, size_t len)
{
	int t = fio_target_of(o);

	if (t == FIO_TARGET_NG && ctx->mnt)
		return -EOPNOTSUPP;
	if (t == FIO_TARGET_NG)
		return rawdev_nvme_generic(ctx->dev, path, len);
	if (t == FIO_TARGET_DISK && !ctx->mnt)
		snprintf(path, len, "%s", ctx->dev);
	else
		snprintf(path, len, "%s/fio.dat", ctx->mnt);
	return 0;
}

static int fio_prepare(struct wl_ctx *ctx, const void *opts, int idx)
{
	const struct fio_opts *o = opts;
	char path[512];
	int ret;

	/* no fio, no test: said before anything is written */
	if (access(o->bin, X_OK)) {
		fio_error(ctx, opts, "%s: %s (fio is only in the benchmark image part, "
			  "docs/performance.md)", o->bin, strerror(errno));
		return -ENOENT;
	}
	ret = fio_path(ctx, o, path, sizeof(path));
	if (ret) {
		fio_error(ctx, opts, "target=%s: %s (io_uring_cmd needs the appliance's NVMe test "
			  "disk, /dev/ngXnY)", o->target, strerror(-ret));
		return ret;
	}
	/* fio --size from offset 0: the disk's last MiB is bootmark's mark */
	if (fio_target_of(o) != FIO_TARGET_FILE && !ctx->mnt && ctx->dev_len &&
	    o->size > ctx->dev_len) {
		char n[24];

		snprintf(n, sizeof(n), "%llu", (unsigned long long)ctx->dev_len);
		fio_error(ctx, opts, "size= is more than the %s bytes of %s bootmark may use "
			  "(its last MiB is bootmark's ownership mark)", n, ctx->dev);
		return -ERANGE;
	}
	if (fio_target_of(o) != FIO_TARGET_FILE && !ctx->mnt)
		return 0;    /* the disk as it is: fio reads what is there */
	unlink(path);
	/* host mode's stand-in for the disk is laid out for writes too */
	if (fio_is_write(o) && fio_target_of(o) == FIO_TARGET_FILE)
		return 0;
	return write_file(path, o->size);
}

static void add_metrics(struct bm_result *r, const struct fio_terse *t)
{
	double secs = t->runtime_ms / 1000.0;

	bm_result_add(r, "bw", t->bw_kib / 1024.0, "MiB/s");
	bm_result_add(r, "bytes", (double)t->kib * 1024.0, "B");
	bm_result_add(r, "time", secs, "s");
	bm_result_add(r, "iops", t->iops, "ops/s");
	bm_result_add(r, "usr", t->usr_pct, "%");
	bm_result_add(r, "sys", t->sys_pct, "%");
	bm_result_add(r, "cpu_s", (t->usr_pct + t->sys_pct) / 100.0 * secs, "s");
}

static int fio_run(struct wl_ctx *ctx, const void *opts, int idx, struct bm_result *r)
{
	const struct fio_opts *o = opts;
	char path[512], args[2048], *argv[FIO_ARGV_MAX], *out, *tail, st[32];
	struct fio_terse t;
	int ret;

	out = malloc(FIO_OUT_MAX);
	if (!out)
		return -ENOMEM;
	ret = fio_path(ctx, o, path, sizeof(path));
	if (!ret)
		ret = fio_argv(o, path, args, sizeof(args), argv);
	if (ret < 0)
		goto out_free;
	ret = spawn_run(argv, out, FIO_OUT_MAX);
	if (ret) {
		/* the end of fio's output says why */
		tail = out + (strlen(out) > 300 ? strlen(out) - 300 : 0);
		if (ret < 0)
			snprintf(st, sizeof(st), "%s", strerror(-ret));
		else
			snprintf(st, sizeof(st), "%d", ret);
		fio_error(ctx, opts, "fio failed (%s): %s", st, tail);
		ret = ret < 0 ? ret : -EIO;
		goto out_free;
	}
	ret = fio_terse_parse(out, fio_is_write(o), &t);
	if (ret) {
		fio_error(ctx, opts, "fio's output is not terse version 3 (%s): %.300s",
			  strerror(-ret), out);
		goto out_free;
	}
	add_metrics(r, &t);
	if (t.error) {
		r->partial = 1;
		ret = -t.error;
	}
out_free:
	free(out);
	return ret;
}

const struct wl_ops wl_fio_ops = {
	.desc = &wl_fio_desc,
	.flags = 0,
	.prepare = fio_prepare,
	.run = fio_run,
	.inspect = NULL,
};
