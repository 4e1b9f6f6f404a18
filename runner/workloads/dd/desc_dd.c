// SPDX-License-Identifier: MIT
/*
 * dd's description (wldesc.h): its options, the tests a job expands into
 * and their labels, its metrics, headline and plot.  The engine is wl_dd.c.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>

#include "opts.h"
#include "wl_dd.h"
#include "wldesc.h"

#define MiB (1024ull * 1024ull)

static const char *const dd_test_names[] = { "w", "r", "rw", NULL };

static const struct bm_opt dd_opts[] = {
	{ .name = "size", .type = BM_OPT_SIZE, .off = offsetof(struct dd_opts, size),
	  .def = "32M", .min = 1 << 20, .max = 0, .help = "file size (at least 1M)" },
	{ .name = "bs", .type = BM_OPT_SIZE, .off = offsetof(struct dd_opts, bs),
	  .def = "1M", .min = 512, .max = 64 << 20, .help = "block size of each read/write" },
	{ .name = "tests", .type = BM_OPT_LIST, .off = offsetof(struct dd_opts, tests),
	  .len = sizeof(((struct dd_opts *)0)->tests), .def = "w,r,rw",
	  .choices = dd_test_names, .help = "tests to run: w (write), r (read), rw (rewrite)" },
	BM_OPT_END
};

/* Which test the idx-th item of the tests list is, or -EINVAL. */
int dd_kind(const struct dd_opts *o, int idx)
{
	return bm_list_item(o->tests, idx, dd_test_names);
}

static int dd_ntests(const void *opts)
{
	int n = 0;

	while (dd_kind(opts, n) >= 0)
		n++;
	return n;
}

static int dd_describe(const void *opts, int idx, struct bm_result *r)
{
	const struct dd_opts *o = opts;
	char sz[32], bs[32];
	int k = dd_kind(o, idx);

	if (k < 0)
		return k;
	/* In MiB when exact, like the label: "size=2048M" for dd2048w. */
	if (o->size % MiB == 0)
		snprintf(sz, sizeof(sz), "%lluM", (unsigned long long)(o->size / MiB));
	else
		bm_fmt_size(sz, sizeof(sz), o->size, "KMGT");
	bm_fmt_size(bs, sizeof(bs), o->bs, "KMGT");
	snprintf(r->wl, sizeof(r->wl), "dd");
	snprintf(r->test, sizeof(r->test), "dd%llu%s",
		 (unsigned long long)(o->size / MiB), dd_test_names[k]);
	snprintf(r->params, sizeof(r->params), "size=%s bs=%s", sz, bs);
	return 0;
}

static const struct bm_wl_metric dd_metrics[] = {
	{ "extents", "count", BM_BETTER_NONE },
	{ "bytes", "B", BM_BETTER_NONE },
	{ "bw", "MiB/s", BM_BETTER_HIGHER },
	{ NULL, NULL, BM_BETTER_NONE },
};

static const struct bm_wl_plot dd_plots[] = {
	{ .metric = "bw", .prefix = "", .name = "dd", .xlabel = "test", .bars = 1, .logx = 0 },
	{ .metric = NULL },
};

const struct bm_wl_desc wl_dd_desc = {
	.name = "dd",
	.opts = dd_opts,
	.opts_size = sizeof(struct dd_opts),
	.ntests = dd_ntests,
	.describe = dd_describe,
	.metrics = dd_metrics,
	.headline = "real",
	.plots = dd_plots,
	.report = &report_dd_ops,
	.example = "size=4M bs=64k",
	/* the seed's `dd ...; sync` (GNU coreutils dd): its sync is our syncfs
	 * (the test filesystem's); we stop reading at the size where dd reads
	 * to a 0-byte read, and never ask lseek(0, SEEK_CUR); conv=notrunc's
	 * open keeps O_CREAT, our rewrite opens the file it overwrites */
	.traced = "GNU dd (coreutils); sync=syncfs eof-read lseek-cur creat-notrunc",
};
