// SPDX-License-Identifier: MIT
/*
 * tiobench's description (wldesc.h): its options, the tests a job expands into
 * and their labels, its metrics, headline and plots.  The engine is wl_tiobench.c.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "opts.h"
#include "wl_tiobench.h"
#include "wldesc.h"

#define MiB (1024ull * 1024ull)

static const char *const tio_phase_names[] = { "seqwr", "rndwr", "seqrd", "rndrd", NULL };

static const char *const tio_versions[] = { "0.4.2", "0.3.3", NULL };

static const struct bm_opt tio_opts_tab[] = {
	{ .name = "threads", .type = BM_OPT_LIST, .off = offsetof(struct tio_opts, threads),
	  .len = sizeof(((struct tio_opts *)0)->threads), .def = "1,2,4,8",
	  .help = "thread counts, one set of tests each (1..1024)" },
	{ .name = "size", .type = BM_OPT_SIZE, .off = offsetof(struct tio_opts, size),
	  .def = "10M", .min = 512, .max = 0, .help = "file size per thread (at least bs)" },
	{ .name = "bs", .type = BM_OPT_SIZE, .off = offsetof(struct tio_opts, bs),
	  .def = "4k", .min = 512, .max = 64 << 20, .help = "bytes per pread/pwrite" },
	{ .name = "random", .type = BM_OPT_INT, .off = offsetof(struct tio_opts, random),
	  .def = "1000", .min = 1, .max = 1000000000, .help = "random ops per thread" },
	{ .name = "direct", .type = BM_OPT_BOOL, .off = offsetof(struct tio_opts, direct),
	  .def = "0", .help = "open with O_DIRECT (tiotest -X)" },
	{ .name = "sync", .type = BM_OPT_BOOL, .off = offsetof(struct tio_opts, sync),
	  .def = "0", .help = "open with O_SYNC (tiotest -S)" },
	{ .name = "phases", .type = BM_OPT_LIST, .off = offsetof(struct tio_opts, phases),
	  .len = sizeof(((struct tio_opts *)0)->phases), .def = "seqwr,rndwr,seqrd,rndrd",
	  .choices = tio_phase_names, .help = "phases, each a test per thread count" },
	{ .name = "version", .type = BM_OPT_STR, .off = offsetof(struct tio_opts, version),
	  .len = sizeof(((struct tio_opts *)0)->version), .def = "0.4.2", .choices = tio_versions,
	  .help = "tiotest 0.4.2 (pread/pwrite, ftruncate, fsync every phase) or 0.3.3 "
	  "(O_TRUNC append, lseek+read/write, fsync writes only)" },
	BM_OPT_END
};

int tio_v033(const struct tio_opts *o)
{
	return !strcmp(o->version, "0.3.3");
}

int tio_threads_parse(const char *list, unsigned *out, int max)
{
	return bm_parse_uint_list(list, out, max, 1, TIO_THREADS_MAX);
}

/* Test idx is thread count idx / nphases, phase idx % nphases. */
int tio_test(const struct tio_opts *o, int idx, unsigned *threads)
{
	unsigned list[TIO_LISTS_MAX];
	int nt = tio_threads_parse(o->threads, list, TIO_LISTS_MAX), np;

	if (nt < 0 || idx < 0 || o->size < o->bs)
		return -EINVAL;
	np = bm_list_count(o->phases);
	if (!np || idx >= nt * np)
		return -EINVAL;
	*threads = list[idx / np];
	return bm_list_item(o->phases, idx % np, tio_phase_names);
}

static int tio_check(const void *opts, char *err, size_t errlen)
{
	const struct tio_opts *o = opts;
	unsigned list[TIO_LISTS_MAX];

	if (tio_threads_parse(o->threads, list, TIO_LISTS_MAX) < 0) {
		snprintf(err, errlen, "option 'threads': \"%s\" is not a comma list of at most %d "
			 "thread counts, each 1..%d", o->threads, TIO_LISTS_MAX, TIO_THREADS_MAX);
		return -EINVAL;
	}
	if (o->size < o->bs) {
		snprintf(err, errlen, "option 'size': %llu bytes is less than bs %llu",
			 (unsigned long long)o->size, (unsigned long long)o->bs);
		return -EINVAL;
	}
	return 0;
}

static int tio_ntests(const void *opts)
{
	unsigned t;
	int n = 0;

	while (tio_test(opts, n, &t) >= 0)
		n++;
	return n;
}

static int tio_describe(const void *opts, int idx, struct bm_result *r)
{
	const struct tio_opts *o = opts;
	char sz[32], bs[32];
	unsigned t;
	int k = tio_test(o, idx, &t);

	if (k < 0)
		return k;
	if (o->size % MiB == 0)     /* MiB like tiotest -f, "size=2048M" */
		snprintf(sz, sizeof(sz), "%lluM", (unsigned long long)(o->size / MiB));
	else
		bm_fmt_size(sz, sizeof(sz), o->size, "kMGT");
	bm_fmt_size(bs, sizeof(bs), o->bs, "kMGT");
	snprintf(r->wl, sizeof(r->wl), "tiobench");
	snprintf(r->test, sizeof(r->test), "tio-%s-t%u", tio_phase_names[k], t);
	snprintf(r->params, sizeof(r->params), "threads=%u size=%s bs=%s random=%lld%s%s%s",
		 t, sz, bs, o->random, o->direct ? " direct=1" : "", o->sync ? " sync=1" : "",
		 tio_v033(o) ? " version=0.3.3" : "");
	return 0;
}

static const struct bm_wl_metric tiobench_metrics[] = {
	{ "rate", "MiB/s", BM_BETTER_HIGHER },
	{ "cpu", "%", BM_BETTER_LOWER },
	{ "time", "s", BM_BETTER_LOWER },
	{ "ops", "count", BM_BETTER_NONE },
	{ "lat_avg", "ms", BM_BETTER_LOWER },
	{ "lat_max", "ms", BM_BETTER_LOWER },
	{ "lat_p50", "ms", BM_BETTER_LOWER },
	{ "lat_p99", "ms", BM_BETTER_LOWER },
	{ "lat_p999", "ms", BM_BETTER_LOWER },
	{ "pct_2s", "%", BM_BETTER_NONE },
	{ "pct_10s", "%", BM_BETTER_NONE },
	{ "eff", "MiB/cpu-s", BM_BETTER_NONE },
	{ NULL, NULL, BM_BETTER_NONE },
};

static const struct bm_wl_plot tiobench_plots[] = {
	{ .metric = "rate", .prefix = "tio-", .name = "tiobench", .xlabel = "threads", .bars = 0, .logx = 1 },
	{ .metric = "lat_avg", .prefix = "tio-", .name = "tiobench", .xlabel = "threads", .bars = 0, .logx = 1 },
	{ .metric = NULL },
};

const struct bm_wl_desc wl_tiobench_desc = {
	.name = "tiobench",
	.opts = tio_opts_tab,
	.opts_size = sizeof(struct tio_opts),
	.check = tio_check,
	.ntests = tio_ntests,
	.describe = tio_describe,
	.metrics = tiobench_metrics,
	.headline = "rate",
	.plots = tiobench_plots,
	.report = &report_tiobench_ops,
	.example = "threads=1,2 size=1M bs=4k random=50",
};
