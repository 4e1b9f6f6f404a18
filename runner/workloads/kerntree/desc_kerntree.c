// SPDX-License-Identifier: MIT
/*
 * kerntree's description (wldesc.h): its options, the tests a job expands into
 * and their labels, its metrics and headline.  The engine is wl_kerntree.c.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "opts.h"
#include "ktree_gen.h"
#include "wl_kerntree.h"
#include "wldesc.h"

int ktree_parse_scale(const char *s, uint32_t *ppm)
{
	uint64_t whole = 0, frac = 0, div = 1;
	const char *p = s;

	/* Seed 004's tree: its kernuntar wrote 252016 KiB (ext3), 249884 KiB
	 * (ext4), about 1/5.5 of what the full 6.1-shaped tree writes. */
	if (!strcmp(s, "seed004")) {
		*ppm = KTREE_SCALE_SEED004_PPM;
		return 0;
	}
	/* Decimal digits by hand: strtod's rounding is not needed, nor locale. */
	for (; *p >= '0' && *p <= '9' && whole < 100; p++)
		whole = whole * 10 + (uint64_t)(*p - '0');
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			if (div < 1000000)
				frac = frac * 10 + (uint64_t)(*p - '0'), div *= 10;
	if (*p || p == s || !strcmp(s, "."))
		return -EINVAL;
	whole = whole * 1000000 + frac * (1000000 / div);
	if (whole < KTREE_SCALE_MIN_PPM || whole > KTREE_SCALE_MAX_PPM)
		return -EINVAL;
	*ppm = (uint32_t)whole;
	return 0;
}

static const char *const kt_tests[] = {
	"untar", "stat", "cat", "rm", "untar2", "stat2", "cat2", "rm2", NULL,
};

static const char *const kt_compress[] = { "none", "bzip2", NULL };

static const struct bm_opt kt_opts[] = {
	{ .name = "scale", .type = BM_OPT_STR, .off = offsetof(struct kerntree_opts, scale),
	  .len = sizeof(((struct kerntree_opts *)0)->scale), .def = "1",
	  .help = "size of the generated tree against Linux 6.1 (0.0001 .. 4), or seed004 "
	  "(0.18: the tree seed 004 untarred)" },
	{ .name = "seed", .type = BM_OPT_INT, .off = offsetof(struct kerntree_opts, seed),
	  .def = "1", .min = 0, .max = 2147483647, .help = "seed of names, sizes and text" },
	{ .name = "tarball", .type = BM_OPT_STR, .off = offsetof(struct kerntree_opts, tarball),
	  .len = sizeof(((struct kerntree_opts *)0)->tarball), .def = "",
	  .help = "absolute path of a tar to use instead of the generated tree (a .tar.bz2 "
	  "with compress=bzip2)" },
	{ .name = "tests", .type = BM_OPT_LIST, .off = offsetof(struct kerntree_opts, tests),
	  .len = sizeof(((struct kerntree_opts *)0)->tests),
	  .def = "untar,stat,cat,rm,untar2,stat2,cat2,rm2", .choices = kt_tests,
	  .help = "tests to run: untar stat cat rm, and with 2 for two trees at once" },
	{ .name = "compress", .type = BM_OPT_STR, .off = offsetof(struct kerntree_opts, compress),
	  .len = sizeof(((struct kerntree_opts *)0)->compress), .def = "none",
	  .choices = kt_compress, .help = "bzip2: untar through bzip2 -dc, as seed 004's tar xjf" },
	BM_OPT_END
};

int kt_bz2(const struct kerntree_opts *o)
{
	return !strcmp(o->compress, "bzip2");
}

/* Index into kt_tests of the idx-th item of the tests list, or -EINVAL. */
int kt_kind(const struct kerntree_opts *o, int idx)
{
	return bm_list_item(o->tests, idx, kt_tests);
}

int kerntree_check(const struct kerntree_opts *o, char *err, size_t errlen)
{
	uint32_t ppm;

	if (ktree_parse_scale(o->scale, &ppm)) {
		snprintf(err, errlen, "option 'scale': '%s' is not a number from 0.0001 to 4",
			 o->scale);
		return -EINVAL;
	}
	if (o->tarball[0] && o->tarball[0] != '/') {
		snprintf(err, errlen, "option 'tarball': '%s' is not an absolute path",
			 o->tarball);
		return -EINVAL;
	}
	return 0;
}

static int kt_check(const void *o, char *err, size_t errlen)
{
	return kerntree_check(o, err, errlen);
}

static int kt_ntests(const void *opts)
{
	int n = 0;

	while (kt_kind(opts, n) >= 0)
		n++;
	return n;
}

static int kt_describe(const void *opts, int idx, struct bm_result *r)
{
	const struct kerntree_opts *o = opts;
	int k = kt_kind(o, idx);

	if (k < 0)
		return k;
	snprintf(r->wl, sizeof(r->wl), "kerntree");
	snprintf(r->test, sizeof(r->test), "kern%s", kt_tests[k]);
	if (o->tarball[0])
		snprintf(r->params, sizeof(r->params), "tarball=%.120s", o->tarball);
	else
		snprintf(r->params, sizeof(r->params), "scale=%s seed=%lld", o->scale, o->seed);
	if (kt_bz2(o))
		snprintf(r->params + strlen(r->params), sizeof(r->params) - strlen(r->params),
			 " compress=bzip2");
	return 0;
}

static const struct bm_wl_metric kerntree_metrics[] = {
	{ "files", "count", BM_BETTER_NONE },
	{ "dirs", "count", BM_BETTER_NONE },
	{ "bytes", "B", BM_BETTER_NONE },
	{ NULL, NULL, BM_BETTER_NONE },
};

const struct bm_wl_desc wl_kerntree_desc = {
	.name = "kerntree",
	.opts = kt_opts,
	.opts_size = sizeof(struct kerntree_opts),
	.check = kt_check,
	.ntests = kt_ntests,
	.describe = kt_describe,
	.metrics = kerntree_metrics,
	.headline = "real",
	.example = "scale=0.001",
};
