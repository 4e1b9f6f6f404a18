// SPDX-License-Identifier: MIT
/*
 * lmdd's description (wldesc.h): its options, the tests a job expands into
 * and their labels, its metrics, headline and plots.  The engine is wl_lmdd.c.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "lmdd.h"
#include "opts.h"
#include "wl_lmdd.h"
#include "wldesc.h"

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
int lmdd_test(const struct lmdd_opts *o, int idx, uint64_t *bs, int *dir)
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

static const struct bm_wl_metric lmdd_metrics[] = {
	{ "rate", "MB/s", BM_BETTER_HIGHER },
	{ "secs", "s", BM_BETTER_LOWER },
	{ "mb", "MB", BM_BETTER_NONE },
	{ NULL, NULL, BM_BETTER_NONE },
};

static const struct bm_wl_plot lmdd_plots[] = {
	{ .metric = "rate", .prefix = "lmdd-", .name = "lmdd", .xlabel = "block size (KiB)", .bars = 0, .logx = 1 },
	{ .metric = NULL },
};

const struct bm_wl_desc wl_lmdd_desc = {
	.name = "lmdd",
	.opts = lmdd_opts_tab,
	.opts_size = sizeof(struct lmdd_opts),
	.check = lmdd_check_op,
	.ntests = lmdd_ntests,
	.describe = lmdd_describe,
	.metrics = lmdd_metrics,
	.headline = "rate",
	.plots = lmdd_plots,
	.report = &report_lmdd_ops,
	.example = "bs=4k,64k size=1M",
};
