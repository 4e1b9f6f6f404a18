// SPDX-License-Identifier: MIT
/*
 * rawio: random blocks of the test disk itself through one of the kernel's
 * I/O interfaces, as fio 3.33 drives each (rawio_loop.c, rawio_*.c).
 *
 * The target: in the appliance the test disk, unmounted (ctx->mnt is NULL:
 * a raw job, wldesc.h), O_DIRECT, or for NVMe passthrough its
 * generic char device /dev/ngXnY; in host mode a file of size bytes that
 * prepare() writes in the test directory, O_DIRECT.  prepare() checks what
 * the test needs of the target (a region inside it, a block the device
 * can address, poll queues for the polled engines, an NVMe namespace for
 * passthrough) and sets the engine up once with one read through it: what
 * the kernel refuses is an E record saying why, and the test is skipped.
 * run() sets the engine up again, outside the clock, and measures the loop.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>  /* BLKGETSIZE64, in musl and glibc alike */
#include <sys/stat.h>
#include <unistd.h>

#include "emit.h"
#include "rawdev.h"
#include "rawio_eng.h"
#include "seqio.h"
#include "wl.h"

#define RIO_SEED     0x52415749ull      /* "RAWI": the same offsets for every engine */
#define RIO_FILE     "rawio.dat"
#define RIO_SYSDEV   "/sys/dev/block"
#define RIO_PREP_BS  (1u << 20)

/* Where a test does its I/O. */
struct rio_target {
	char path[PATH_MAX + 64]; /* what is opened: the disk, its ng device, the file */
	int fd;
	uint64_t size;            /* bytes of the disk or file */
	dev_t dev;                /* the block device (its queue/ attributes) */
	unsigned lbs;             /* its logical block size */
	uint32_t nsid;            /* passthrough */
};

const struct rio_engine *rio_engine_of(int engine)
{
	if (engine == RIO_PSYNC)
		return &rio_psync_engine;
	return engine == RIO_LIBAIO ? &rio_libaio_engine : &rio_uring_engine;
}

/* An E record naming the test, beside the runner's generic one (stderr in
 * unit tests, where ctx->priv is NULL). */
static void rio_error(struct wl_ctx *ctx, const struct rawio_opts *o, const struct rawio_test *t,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void rio_error(struct wl_ctx *ctx, const struct rawio_opts *o, const struct rawio_test *t,
		      const char *fmt, ...)
{
	char label[32], msg[400];
	struct emit_ctx ec = { .fs = ctx->fs, .test = label, .rep = ctx->rep };
	va_list ap;

	rawio_label(label, sizeof(label), t, o->bs);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (ctx->priv)
		emit_error(ctx->priv, "bench", &ec, "%s", msg);
	else
		fprintf(stderr, "bootmark-runner: %s: %s\n", label, msg);
}

void rawio_add_metrics(struct bm_result *r, const struct rawio_sum *s)
{
	double cpu = (s->cpu1.user_s - s->cpu0.user_s) + (s->cpu1.sys_s - s->cpu0.sys_s);
	double all = (s->all1.user_s - s->all0.user_s) + (s->all1.sys_s - s->all0.sys_s);
	double secs = s->secs > 0 ? s->secs : 0;
	const struct bm_lat *lat = &s->lat->lat, *clat = &s->lat->clat;

	bm_result_add(r, "iops", secs ? (double)s->ios / secs : 0, "ops/s");
	bm_result_add(r, "bw", secs ? (double)s->ios * s->bs / 1048576.0 / secs : 0, "MiB/s");
	bm_result_add(r, "lat_avg", bm_lat_mean(lat) / 1e6, "ms");
	bm_result_add(r, "lat_p50", (double)bm_lat_percentile(lat, 50.0) / 1e6, "ms");
	bm_result_add(r, "lat_p99", (double)bm_lat_percentile(lat, 99.0) / 1e6, "ms");
	bm_result_add(r, "lat_p999", (double)bm_lat_percentile(lat, 99.9) / 1e6, "ms");
	bm_result_add(r, "lat_max", lat->n ? (double)lat->max_ns / 1e6 : 0, "ms");
	/* fio's defaults report clat with percentiles and slat's mean */
	if (clat->n) {
		bm_result_add(r, "clat_avg", bm_lat_mean(clat) / 1e6, "ms");
		bm_result_add(r, "clat_p50", (double)bm_lat_percentile(clat, 50.0) / 1e6, "ms");
		bm_result_add(r, "clat_p99", (double)bm_lat_percentile(clat, 99.0) / 1e6, "ms");
		bm_result_add(r, "clat_p999", (double)bm_lat_percentile(clat, 99.9) / 1e6, "ms");
	}
	if (s->lat->slat.n)
		bm_result_add(r, "slat_avg", bm_lat_mean(&s->lat->slat) / 1e6, "ms");
	bm_result_add(r, "cpu_io", s->ios ? cpu * 1e6 / (double)s->ios : 0, "us");
	bm_result_add(r, "cpu_io_all", s->ios ? all * 1e6 / (double)s->ios : 0, "us");
	bm_result_add(r, "usr", secs ? 100.0 * (s->cpu1.user_s - s->cpu0.user_s) / secs : 0, "%");
	bm_result_add(r, "sys", secs ? 100.0 * (s->cpu1.sys_s - s->cpu0.sys_s) / secs : 0, "%");
	bm_result_add(r, "time", secs, "s");
	bm_result_add(r, "ios", (double)s->ios, "count");
	bm_result_add(r, "submits", (double)s->submits, "count");
	bm_result_add(r, "waits", (double)s->waits, "count");
}

/* The host-mode file: size bytes of seqio's non-zero pattern, so that every
 * read finds blocks the filesystem has allocated (as fio lays a file out). */
static int write_file(const char *path, uint64_t size)
{
	unsigned char *buf = seqio_buffer(RIO_PREP_BS);
	uint64_t done = 0;
	ssize_t w;
	int fd, ret = 0;

	if (!buf)
		return -ENOMEM;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = -errno;
		goto out_free;
	}
	while (done < size && !ret) {
		w = write(fd, buf, size - done < RIO_PREP_BS ? (size_t)(size - done) : RIO_PREP_BS);
		if (w <= 0)
			ret = w < 0 ? -errno : -EIO;
		else
			done += (uint64_t)w;
	}
	if (fsync(fd) && !ret)
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
out_free:
	free(buf);
	return ret;
}

/* The size of the block device at path (BLKGETSIZE64). */
static int blk_size(const char *path, uint64_t *size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, BLKGETSIZE64, size))
		ret = -errno;
	close(fd);
	return ret;
}

/* Opens the test's target; on failure why says what failed. */
static int target_open(struct wl_ctx *ctx, const struct rawio_test *t, struct rio_target *tg,
		       char *why, size_t len)
{
	int flags = (t->write ? O_RDWR : O_RDONLY) | O_CLOEXEC;
	char lbs[16];
	struct stat st;
	int ret;

	memset(tg, 0, sizeof(*tg));
	tg->fd = -1;
	if (ctx->mnt) {
		snprintf(tg->path, sizeof(tg->path), "%s/%s", ctx->mnt, RIO_FILE);
		flags |= O_DIRECT;
	} else if (rawio_engine_nvme(t->engine)) {
		ret = rawdev_nvme_generic(ctx->dev, tg->path, sizeof(tg->path));
		if (ret == -ENODEV) {
			snprintf(why, len, "the test disk %s is not an NVMe namespace (nvmeXnY): "
				 "passthrough needs its /dev/ngXnY", ctx->dev);
			return ret;
		}
		if (ret) {
			snprintf(why, len, "no NVMe generic char device %.64s for %.64s (Linux 5.13)",
				 tg->path, ctx->dev);
			return ret;
		}
	} else {
		/* not O_EXCL, as fio: the runner has the disk unmounted and
		 * waits for every holder to let go after the test (fsrun.c) */
		snprintf(tg->path, sizeof(tg->path), "%s", ctx->dev);
		flags |= O_DIRECT;
	}
	tg->fd = open(tg->path, flags);
	if (tg->fd < 0) {
		snprintf(why, len, "cannot open %.200s", tg->path);
		return -errno;
	}
	ret = 0;
	if (ctx->mnt) {
		if (fstat(tg->fd, &st))
			ret = -errno;
		tg->size = (uint64_t)st.st_size;
		tg->dev = st.st_dev;
	} else {
		if (stat(ctx->dev, &st))
			ret = -errno;
		tg->dev = st.st_rdev;
		if (!ret)
			ret = blk_size(ctx->dev, &tg->size);
		/* the disk's last MiB is bootmark's ownership mark, never written */
		if (!ret && ctx->dev_len && ctx->dev_len < tg->size)
			tg->size = ctx->dev_len;
	}
	if (!ret && rawio_engine_nvme(t->engine)) {
		ret = ioctl(tg->fd, RIO_NVME_IOCTL_ID);
		tg->nsid = ret > 0 ? (uint32_t)ret : 0;
		ret = ret > 0 ? 0 : -errno;
	}
	if (ret) {
		snprintf(why, len, "%.200s: cannot tell its size or namespace", tg->path);
		close(tg->fd);
		tg->fd = -1;
		return ret;
	}
	tg->lbs = 512;
	if (!rawdev_queue_attr(RIO_SYSDEV, tg->dev, "logical_block_size", lbs, sizeof(lbs)))
		tg->lbs = (unsigned)atoi(lbs) > 0 ? (unsigned)atoi(lbs) : 512;
	return 0;
}

/* What the test needs of its target; an E record when it is not there. */
static int target_check(struct wl_ctx *ctx, const struct rawio_opts *o,
			const struct rawio_test *t, const struct rio_target *tg)
{
	uint64_t region = o->size ? o->size : tg->size;

	if (region > tg->size || region < o->bs) {
		rio_error(ctx, o, t, "size %llu is not inside %s (%llu bytes%s)",
			  (unsigned long long)region, tg->path, (unsigned long long)tg->size,
			  ctx->mnt ? "" : " from its start: its last MiB is bootmark's mark");
		return -ERANGE;
	}
	if (o->bs % tg->lbs) {
		rio_error(ctx, o, t, "bs %llu is not a multiple of the logical block size %u of %s",
			  (unsigned long long)o->bs, tg->lbs, tg->path);
		return -EINVAL;
	}
	if (rawio_engine_polled(t->engine) && rawdev_io_poll(RIO_SYSDEV, tg->dev) != 1) {
		rio_error(ctx, o, t, "%s: %s%.200s has no poll queues (queue/io_poll is not 1; "
			  "NVMe: boot with nvme.poll_queues=N): test skipped",
			  rawio_engine_names[t->engine], ctx->mnt ? "the device under " : "",
			  ctx->mnt ? tg->path : ctx->dev);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* The engine on the target, with the slots' buffer: 0 or -errno (why). */
static int engine_up(const struct rawio_opts *o, const struct rawio_test *t,
		     const struct rio_target *tg, unsigned char **buf, struct rio_q **q,
		     char *why, size_t len)
{
	struct rio_setup s = { .engine = t->engine, .qd = t->qd, .bs = (unsigned)o->bs,
			       .fd = tg->fd, .nsid = tg->nsid };
	unsigned sh = 0;
	int ret;

	while ((1u << sh) < tg->lbs)
		sh++;
	s.lba_shift = sh;
	*buf = seqio_buffer((uint64_t)t->qd * o->bs);
	if (!*buf)
		return -ENOMEM;
	s.buf = (char *)*buf;
	ret = rio_engine_of(t->engine)->init(q, &s, why, len);
	if (ret) {
		free(*buf);
		*buf = NULL;
	}
	return ret;
}

/* One read of the first block through the engine, as the test will do it. */
static int engine_probe(const struct rawio_opts *o, const struct rawio_test *t,
			const struct rio_target *tg, char *why, size_t len)
{
	const struct rio_engine *e = rio_engine_of(t->engine);
	struct rio_job j = { .qd = 1, .submit = 1, .complete = 1, .ios = 1, .nblocks = 1,
			     .bs = (unsigned)o->bs, .seed = RIO_SEED };
	struct rawio_test one = *t;
	struct rawio_sum sum;
	struct rawio_lats *lat = malloc(sizeof(*lat));
	unsigned char *buf = NULL;
	struct rio_q *q = NULL;
	int ret;

	if (!lat)
		return -ENOMEM;
	one.qd = 1;
	ret = engine_up(o, &one, tg, &buf, &q, why, len);
	if (!ret) {
		ret = rio_loop(e, q, &j, &sum, lat);
		if (ret)
			snprintf(why, len, "a read of %llu bytes at 0 of %.200s",
				 (unsigned long long)o->bs, tg->path);
		e->fini(q);
	}
	free(buf);
	free(lat);
	return ret;
}

static int rawio_prepare(struct wl_ctx *ctx, const void *opts, int idx)
{
	const struct rawio_opts *o = opts;
	struct rio_target tg;
	struct rawio_test t;
	char why[300] = "", path[PATH_MAX];
	int ret;

	if (rawio_test_of(o, idx, &t))
		return -EINVAL;
	if (ctx->mnt && rawio_engine_nvme(t.engine)) {
		rio_error(ctx, o, &t, "%s: host mode runs on a file; NVMe passthrough needs the "
			  "appliance's NVMe test disk (/dev/ngXnY): test skipped",
			  rawio_engine_names[t.engine]);
		return -EOPNOTSUPP;
	}
	if (ctx->mnt) {
		snprintf(path, sizeof(path), "%s/%s", ctx->mnt, RIO_FILE);
		ret = write_file(path, o->size);
		if (ret)
			return ret;
	}
	ret = target_open(ctx, &t, &tg, why, sizeof(why));
	if (ret) {
		rio_error(ctx, o, &t, "%s: %s", why, strerror(-ret));
		return ret;
	}
	ret = target_check(ctx, o, &t, &tg);
	if (!ret) {
		ret = engine_probe(o, &t, &tg, why, sizeof(why));
		if (ret)
			rio_error(ctx, o, &t, "%s refused: %s: %s: test skipped",
				  rawio_engine_names[t.engine], why, strerror(-ret));
	}
	close(tg.fd);
	return ret;
}

static int rawio_run(struct wl_ctx *ctx, const void *opts, int idx, struct bm_result *r)
{
	const struct rawio_opts *o = opts;
	struct rio_target tg;
	struct rawio_test t;
	struct rawio_sum sum;
	struct rio_job j;
	struct rawio_lats *lat;
	unsigned char *buf = NULL;
	struct rio_q *q = NULL;
	char why[300] = "";
	int ret;

	if (rawio_test_of(o, idx, &t))
		return -EINVAL;
	lat = malloc(sizeof(*lat));
	if (!lat)
		return -ENOMEM;
	ret = target_open(ctx, &t, &tg, why, sizeof(why));
	if (ret)
		goto out_free;
	ret = engine_up(o, &t, &tg, &buf, &q, why, sizeof(why));
	if (ret)
		goto out_close;
	j = (struct rio_job){ .qd = t.qd, .submit = t.submit, .complete = t.complete,
			      .write = t.write, .ios = (uint64_t)o->ios, .bs = (unsigned)o->bs,
			      .nblocks = (o->size ? o->size : tg.size) / o->bs, .seed = RIO_SEED };
	ret = rio_loop(rio_engine_of(t.engine), q, &j, &sum, lat);
	rio_engine_of(t.engine)->fini(q);
	if (sum.ios || sum.secs > 0)
		rawio_add_metrics(r, &sum);
	if (ret)
		r->partial = 1;
	free(buf);
out_close:
	close(tg.fd);
out_free:
	if (ret && why[0])
		rio_error(ctx, o, &t, "%s: %s", why, strerror(-ret));
	free(lat);
	return ret;
}

static int rawio_host_check(const void *opts, char *err, size_t errlen)
{
	const struct rawio_opts *o = opts;

	if (!o->size) {
		snprintf(err, errlen, "option 'size': host mode needs it, the size of the file "
			 "rawio makes in DIR (0, the whole disk, is the appliance's)");
		return -EINVAL;
	}
	return 0;
}

const struct wl_ops wl_rawio_ops = {
	.desc = &wl_rawio_desc,
	.flags = 0,
	.prepare = rawio_prepare,
	.run = rawio_run,
	.inspect = NULL,
	.host_check = rawio_host_check,
};
