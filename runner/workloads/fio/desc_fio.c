// SPDX-License-Identifier: MIT
/*
 * fio's description (wldesc.h): its options, the test a job is and its
 * label, its metrics and headline.  The engine is wl_fio.c.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "opts.h"
#include "wl_fio.h"
#include "wldesc.h"

static const char *const fio_rw_names[] = { "write", "read", "randread", "randwrite", NULL };

static const char *const fio_engine_names[] = { "psync", "libaio", "io_uring", "io_uring_cmd",
						NULL };

static const char *const fio_target_names[] = { "file", "disk", "ng", NULL };

int fio_target_of(const struct fio_opts *o)
{
	return o->target[0] == 'd' ? FIO_TARGET_DISK : o->target[0] == 'n' ? FIO_TARGET_NG
									      : FIO_TARGET_FILE;
}

static const struct bm_opt fio_opts_tab[] = {
	{ .name = "rw", .type = BM_OPT_STR, .off = offsetof(struct fio_opts, rw),
	  .len = sizeof(((struct fio_opts *)0)->rw), .def = "read", .choices = fio_rw_names,
	  .help = "fio --rw" },
	{ .name = "bs", .type = BM_OPT_SIZE, .off = offsetof(struct fio_opts, bs),
	  .def = "4k", .min = 512, .max = 64 << 20, .help = "fio --bs" },
	{ .name = "size", .type = BM_OPT_SIZE, .off = offsetof(struct fio_opts, size),
	  .def = "64M", .min = 1 << 20, .max = 0, .help = "fio --size: the file" },
	{ .name = "ioengine", .type = BM_OPT_STR, .off = offsetof(struct fio_opts, ioengine),
	  .len = sizeof(((struct fio_opts *)0)->ioengine), .def = "psync",
	  .choices = fio_engine_names, .help = "fio --ioengine" },
	{ .name = "iodepth", .type = BM_OPT_INT, .off = offsetof(struct fio_opts, iodepth),
	  .def = "1", .min = 1, .max = 1024, .help = "fio --iodepth" },
	{ .name = "direct", .type = BM_OPT_BOOL, .off = offsetof(struct fio_opts, direct),
	  .def = "0", .help = "fio --direct (O_DIRECT)" },
	{ .name = "number_ios", .type = BM_OPT_INT, .off = offsetof(struct fio_opts, number_ios),
	  .def = "0", .min = 0, .max = 1ll << 40, .help = "fio --number_ios; 0: the whole size" },
	{ .name = "end_fsync", .type = BM_OPT_BOOL, .off = offsetof(struct fio_opts, end_fsync),
	  .def = "0", .help = "fio --end_fsync" },
	{ .name = "gtod_reduce", .type = BM_OPT_BOOL, .off = offsetof(struct fio_opts, gtod_reduce),
	  .def = "0", .help = "fio --gtod_reduce: far fewer clock reads (costly under TCG)" },
	{ .name = "batch", .type = BM_OPT_INT, .off = offsetof(struct fio_opts, batch),
	  .def = "0", .min = 0, .max = 1024,
	  .help = "fio --iodepth_batch_submit and _complete_max (as bootmark's aio batches); "
		  "0: fio's default, one I/O per call" },
	{ .name = "fio", .type = BM_OPT_STR, .off = offsetof(struct fio_opts, bin),
	  .len = sizeof(((struct fio_opts *)0)->bin), .def = FIO_BIN_DEFAULT,
	  .help = "fio's path (the benchmark image part puts it there)" },
	{ .name = "target", .type = BM_OPT_STR, .off = offsetof(struct fio_opts, target),
	  .len = sizeof(((struct fio_opts *)0)->target), .def = "file",
	  .choices = fio_target_names,
	  .help = "file: <mnt>/fio.dat; disk: the test disk itself, ng: its /dev/ngXnY (raw jobs)" },
	{ .name = "sqthread_poll", .type = BM_OPT_BOOL,
	  .off = offsetof(struct fio_opts, sqthread_poll), .def = "0",
	  .help = "fio --sqthread_poll (io_uring)" },
	{ .name = "fixedbufs", .type = BM_OPT_BOOL, .off = offsetof(struct fio_opts, fixedbufs),
	  .def = "0", .help = "fio --fixedbufs (io_uring)" },
	{ .name = "hipri", .type = BM_OPT_BOOL, .off = offsetof(struct fio_opts, hipri),
	  .def = "0", .help = "fio --hipri (io_uring, io_uring_cmd: IORING_SETUP_IOPOLL)" },
	{ .name = "norandommap", .type = BM_OPT_BOOL, .off = offsetof(struct fio_opts, norandommap),
	  .def = "0", .help = "fio --norandommap (random offsets may repeat, as rawio's)" },
	{ .name = "iodepth_batch_submit", .type = BM_OPT_INT,
	  .off = offsetof(struct fio_opts, batch_submit), .def = "0", .min = 0, .max = 1024,
	  .help = "fio --iodepth_batch_submit; 0: not given (fio's 1)" },
	{ .name = "iodepth_batch_complete", .type = BM_OPT_INT,
	  .off = offsetof(struct fio_opts, batch_complete), .def = "0", .min = 0, .max = 1024,
	  .help = "fio --iodepth_batch_complete (its _min, and _max with it); 0: not given" },
	BM_OPT_END
};

static int fio_check(const void *opts, char *err, size_t errlen)
{
	const struct fio_opts *o = opts;

	int uring = !strncmp(o->ioengine, "io_uring", 8);

	if (o->size < o->bs) {
		snprintf(err, errlen, "option 'size': smaller than bs");
		return -EINVAL;
	}
	if ((o->sqthread_poll || o->fixedbufs || o->hipri) && !uring) {
		snprintf(err, errlen, "options 'sqthread_poll', 'fixedbufs', 'hipri': io_uring's "
			 "and io_uring_cmd's, not %s's", o->ioengine);
		return -EINVAL;
	}
	if ((fio_target_of(o) == FIO_TARGET_NG) != !strcmp(o->ioengine, "io_uring_cmd")) {
		snprintf(err, errlen, "option 'target': io_uring_cmd runs on target=ng, the NVMe "
			 "generic char device, and nothing else does");
		return -EINVAL;
	}
	if (o->batch && (o->batch_submit || o->batch_complete || fio_target_of(o))) {
		snprintf(err, errlen, "option 'batch': aio's pairing on a file; with "
			 "iodepth_batch_submit/_complete or a raw target give those instead");
		return -EINVAL;
	}
	return 0;
}

static int fio_raw(const void *opts)
{
	return fio_target_of(opts) != FIO_TARGET_FILE;
}

/* The word rawio's label gives the same engine (wl_rawio's rawio_engine_words). */
static const char *fio_engine_word(const struct fio_opts *o)
{
	if (!strcmp(o->ioengine, "io_uring_cmd"))
		return o->hipri ? "nvmehi" : "nvme";
	if (strcmp(o->ioengine, "io_uring"))
		return o->ioengine;
	return o->sqthread_poll ? "sqpoll" : o->fixedbufs ? "fixed" : o->hipri ? "hipri" : "uring";
}

/* A raw job's label and params, after rawio's: "fio-uring-r4k-q16-b4". */
static void fio_describe_raw(const struct fio_opts *o, const char *bs, const char *size,
			     struct bm_result *r)
{
	unsigned s = o->batch_submit ? (unsigned)o->batch_submit : 1;
	unsigned c = o->batch_complete ? (unsigned)o->batch_complete : 1;
	char b[24] = "", flags[48], params[320];
	size_t n;

	if (s != c)
		snprintf(b, sizeof(b), "-b%ux%u", s, c);
	else if (s > 1)
		snprintf(b, sizeof(b), "-b%u", s);
	snprintf(r->test, sizeof(r->test), "fio-%.6s-%s%.5s-q%d%s", fio_engine_word(o),
		 !strcmp(o->rw, "randread") ? "r" : !strcmp(o->rw, "randwrite") ? "w" :
		 !strcmp(o->rw, "read") ? "sr" : "sw", bs, (int)o->iodepth, b);
	snprintf(flags, sizeof(flags), "%s%s%s", o->sqthread_poll ? "+sqthread_poll" : "",
		 o->fixedbufs ? "+fixedbufs" : "", o->hipri ? "+hipri" : "");
	/* all three io_uring flags at once overrun the record's params: cut, not refused */
	snprintf(params, sizeof(params),
		 "target=%.4s rw=%.9s bs=%.8s size=%.8s ioengine=%.12s%s iodepth=%d "
		 "iodepth_batch=%ux%u number_ios=%lld direct=%d%s", o->target, o->rw, bs, size,
		 o->ioengine, flags, (int)o->iodepth, s, c, o->number_ios, !!o->direct,
		 o->norandommap ? " norandommap=1" : "");
	n = strlen(params) < sizeof(r->params) ? strlen(params) : sizeof(r->params) - 1;
	memcpy(r->params, params, n);
	r->params[n] = '\0';
}

static int fio_ntests(const void *opts)
{
	return 1;
}

static int fio_describe(const void *opts, int idx, struct bm_result *r)
{
	const struct fio_opts *o = opts;
	char bs[32], size[32];

	if (idx)
		return -EINVAL;
	bm_fmt_size(bs, sizeof(bs), o->bs, "kMGT");
	bm_fmt_size(size, sizeof(size), o->size, "kMGT");
	snprintf(r->wl, sizeof(r->wl), "fio");
	if (fio_raw(o)) {
		fio_describe_raw(o, bs, size, r);
		return 0;
	}
	/* "fio-randread-4k-libaio-dio": at most 30 characters */
	snprintf(r->test, sizeof(r->test), "fio-%.9s-%.5s-%.6s%s", o->rw, bs, o->ioengine,
		 o->direct ? "-dio" : "");
	snprintf(r->params, sizeof(r->params),
		 "rw=%.9s bs=%.8s size=%.8s ioengine=%.6s iodepth=%d direct=%d number_ios=%lld "
		 "end_fsync=%d%s batch=%d", o->rw, bs, size, o->ioengine, (int)o->iodepth,
		 !!o->direct, o->number_ios, !!o->end_fsync, o->gtod_reduce ? " gtod_reduce=1" : "",
		 (int)o->batch);
	return 0;
}

static const struct bm_wl_metric fio_metrics[] = {
	{ "bw", "MiB/s", BM_BETTER_HIGHER },
	{ "bytes", "B", BM_BETTER_NONE },
	{ "time", "s", BM_BETTER_LOWER },
	{ "iops", "ops/s", BM_BETTER_HIGHER },
	{ "usr", "%", BM_BETTER_NONE },
	{ "sys", "%", BM_BETTER_NONE },
	{ "cpu_s", "s", BM_BETTER_LOWER },
	{ NULL, NULL, BM_BETTER_NONE },
};

const struct bm_wl_desc wl_fio_desc = {
	.name = "fio",
	.opts = fio_opts_tab,
	.opts_size = sizeof(struct fio_opts),
	.check = fio_check,
	.ntests = fio_ntests,
	.describe = fio_describe,
	.metrics = fio_metrics,
	.headline = "bw",
	.raw = fio_raw,
};
