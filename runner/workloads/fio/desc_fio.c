// SPDX-License-Identifier: MIT
/*
 * fio's description (wldesc.h): its options, the test a job is and its
 * label, its metrics and headline.  The engine is wl_fio.c.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>

#include "opts.h"
#include "wl_fio.h"
#include "wldesc.h"

static const char *const fio_rw_names[] = { "write", "read", "randread", "randwrite", NULL };

static const char *const fio_engine_names[] = { "psync", "libaio", NULL };

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
	BM_OPT_END
};

static int fio_check(const void *opts, char *err, size_t errlen)
{
	const struct fio_opts *o = opts;

	if (o->size < o->bs) {
		snprintf(err, errlen, "option 'size': smaller than bs");
		return -EINVAL;
	}
	return 0;
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
};
