// SPDX-License-Identifier: MIT
/*
 * bonnie's description (wldesc.h): its options, the tests a job expands into
 * and their labels, its metrics, headline and plots.  The engine is wl_bonnie.c.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "opts.h"
#include "wl_bonnie.h"
#include "wldesc.h"

#define MiB (1024ull * 1024ull)

static const char *const bon_names[] = {
	"putc", "block-w", "rewrite", "getc", "block-r", "seeks",
	"seq-create", "seq-stat", "seq-del", "rnd-create", "rnd-stat", "rnd-del", NULL
};

static const char *const bon_versions[] = { "2.00a", "1.02c", "bray", NULL };

static const char *const bon_caches[] = { "chained", "cold", NULL };

/* Each version's test order: Bray's Bonnie rewrote the putc file before its
 * block write; bonnie++ writes by block first (bonnie++.cpp TestFileOps). */
static const int bon_order_pp[BON_NTESTS] = {
	BON_PUTC, BON_BLOCK_W, BON_REWRITE, BON_GETC, BON_BLOCK_R, BON_SEEKS,
	BON_SEQ_CREATE, BON_SEQ_STAT, BON_SEQ_DEL, BON_RND_CREATE, BON_RND_STAT, BON_RND_DEL,
};

static const int bon_order_bray[BON_NTESTS] = {
	BON_PUTC, BON_REWRITE, BON_BLOCK_W, BON_GETC, BON_BLOCK_R, BON_SEEKS,
	BON_SEQ_CREATE, BON_SEQ_STAT, BON_SEQ_DEL, BON_RND_CREATE, BON_RND_STAT, BON_RND_DEL,
};

static const char *const bon_labels[] = {
	"bon-putc", "bon-block-w", "bon-rewrite", "bon-getc", "bon-block-r", "bon-seeks",
	"bon-seq-create", "bon-seq-stat", "bon-seq-del", "bon-rnd-create", "bon-rnd-stat",
	"bon-rnd-del",
};

#define OPT(f) .off = offsetof(struct bonnie_opts, f)

static const struct bm_opt bonnie_opts_tab[] = {
	{ .name = "size", .type = BM_OPT_SIZE, OPT(size), .def = "32M", .min = 1 << 20,
	  .help = "file of the I/O tests, whole MiB (bonnie++ -s)" },
	{ .name = "chunk", .type = BM_OPT_SIZE, OPT(chunk), .def = "8k", .min = 256,
	  .max = 1 << 20, .help = "I/O chunk, a power of two (-s size:chunk)" },
	{ .name = "charsize", .type = BM_OPT_SIZE, OPT(charsize), .def = "3M", .min = 0,
	  .help = "bytes of the per-char tests, a multiple of chunk; 0: none (-f)" },
	{ .name = "seeks", .type = BM_OPT_INT, OPT(seeks), .def = "0", .min = 0,
	  .max = 1 << 24, .help = "random seeks (-s size:chunk:seeks); 0: the version's "
	  "(8192, Bonnie 4000)" },
	{ .name = "seekers", .type = BM_OPT_INT, OPT(seekers), .def = "0", .min = 0,
	  .max = BON_SEEKERS_MAX, .help = "seekers (-s size:chunk:seeks:procs); 0: the "
	  "version's (2.00a 5 threads, 1.02c and Bonnie 3 processes)" },
	{ .name = "direct", .type = BM_OPT_BOOL, OPT(direct), .def = "0",
	  .help = "O_DIRECT on the create-opens of putc and block-w (-D)" },
	{ .name = "num", .type = BM_OPT_INT, OPT(num), .def = "16", .min = 1, .max = 1024,
	  .help = "file tests: num*1024 files (-n num)" },
	{ .name = "max_size", .type = BM_OPT_SIZE, OPT(max_size), .def = "0",
	  .max = 1 << 30, .help = "largest file of the file tests (-n num:max)" },
	{ .name = "min_size", .type = BM_OPT_SIZE, OPT(min_size), .def = "0",
	  .max = 1 << 30, .help = "smallest file of the file tests (-n num:max:min)" },
	{ .name = "dirs", .type = BM_OPT_INT, OPT(dirs), .def = "1", .min = 1, .max = 99999,
	  .help = "subdirectories of the file tests (-n num:max:min:dirs)" },
	{ .name = "files", .type = BM_OPT_BOOL, OPT(files), .def = "1",
	  .help = "0: no file tests (-n 0)" },
	{ .name = "seed", .type = BM_OPT_INT, OPT(seed), .def = "0", .min = 0,
	  .max = 0xffffffffll, .help = "random seed of names, sizes, tickets (-z)" },
	{ .name = "tests", .type = BM_OPT_LIST, OPT(tests),
	  .len = sizeof(((struct bonnie_opts *)0)->tests),
	  .def = "putc,block-w,rewrite,getc,block-r,seeks,seq-create,seq-stat,seq-del,"
		 "rnd-create,rnd-stat,rnd-del",
	  .choices = bon_names, .help = "the tests to run, a subset of the default" },
	{ .name = "version", .type = BM_OPT_STR, OPT(version),
	  .len = sizeof(((struct bonnie_opts *)0)->version), .def = "2.00a",
	  .choices = bon_versions, .help = "whose definitions: bonnie++ 2.00a, bonnie++ "
	  "1.02c, or Tim Bray's Bonnie (bray)" },
	{ .name = "cache", .type = BM_OPT_STR, OPT(cache),
	  .len = sizeof(((struct bonnie_opts *)0)->cache), .def = "chained",
	  .choices = bon_caches, .help = "chained: each I/O test starts with the page cache "
	  "the test before it leaves in one bonnie run (rewrite, stat and delete: "
	  "what prepare()'s write or create left); cold: with a dropped cache" },
	{ .name = "seek_sleep", .type = BM_OPT_INT, OPT(seek_sleep), .def = "-1", .min = -1,
	  .max = 60, .help = "s the parent sleeps before the seek tickets, outside the seek "
	  "figure; -1: the version's (2.00a 3, 1.02c and Bonnie 5)" },
	BM_OPT_END
};

#undef OPT

int bon_ver(const struct bonnie_opts *o)
{
	if (!strcmp(o->version, "1.02c"))
		return BON_V102C;
	if (!strcmp(o->version, "bray"))
		return BON_VBRAY;
	return BON_V200A;
}

long bon_nseeks(const struct bonnie_opts *o)
{
	if (o->seeks)
		return (long)o->seeks;
	return bon_ver(o) == BON_VBRAY ? 4000 : 8192;
}

long bon_nseekers(const struct bonnie_opts *o)
{
	if (o->seekers)
		return (long)o->seekers;
	return bon_ver(o) == BON_V200A ? 5 : 3;
}

static unsigned bon_version_sleep(const struct bonnie_opts *o)
{
	return bon_ver(o) == BON_V200A ? 3 : 5;
}

unsigned bon_seek_sleep(const struct bonnie_opts *o)
{
	return o->seek_sleep >= 0 ? (unsigned)o->seek_sleep : bon_version_sleep(o);
}

int bonnie_check(const struct bonnie_opts *o, char *err, size_t errlen)
{
	if (o->size % MiB) {
		snprintf(err, errlen, "size must be whole MiB, as bonnie++ -s");
		return -EINVAL;
	}
	if (o->chunk & (o->chunk - 1)) {
		snprintf(err, errlen, "chunk must be a power of two");
		return -EINVAL;
	}
	if (o->charsize % o->chunk) {
		snprintf(err, errlen, "charsize must be a multiple of chunk");
		return -EINVAL;
	}
	if (o->min_size > o->max_size) {
		snprintf(err, errlen, "min_size is larger than max_size");
		return -EINVAL;
	}
	return 0;
}

/* Whether test t runs: asked for, and not ruled out by the other options. */
static int bon_wanted(const struct bonnie_opts *o, int t)
{
	char buf[sizeof(o->tests)], *save = NULL, *tok;

	if ((t == BON_PUTC || t == BON_GETC) && !o->charsize)
		return 0;
	/* Linux refuses 1-byte O_DIRECT writes: bonnie++ -D needs -f, and so
	 * direct=1 leaves bon-putc out. */
	if (t == BON_PUTC && o->direct)
		return 0;
	if (t >= BON_FIRST_FILE_TEST && (!o->files || bon_ver(o) == BON_VBRAY))
		return 0;   /* Bray's Bonnie had no file tests */
	snprintf(buf, sizeof(buf), "%s", o->tests);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (!strcmp(tok, bon_names[t]))
			return 1;
	return 0;
}

int bon_test_of(const struct bonnie_opts *o, int idx)
{
	const int *order = bon_ver(o) == BON_VBRAY ? bon_order_bray : bon_order_pp;
	int k;

	if (idx < 0)
		return -EINVAL;
	for (k = 0; k < BON_NTESTS; k++)
		if (bon_wanted(o, order[k]) && idx-- == 0)
			return order[k];
	return -EINVAL;
}

const char *bon_label(int test)
{
	return test >= 0 && test < BON_NTESTS ? bon_labels[test] : "bon-?";
}

static int bonnie_check_op(const void *opts, char *err, size_t errlen)
{
	return bonnie_check(opts, err, errlen);
}

static int bonnie_ntests(const void *opts)
{
	const struct bonnie_opts *o = opts;
	char err[160];
	int n = 0;

	/* the runner has called bonnie_check_op(); a bad job has no tests */
	if (bonnie_check(o, err, sizeof(err)))
		return 0;
	while (bon_test_of(o, n) >= 0)
		n++;
	return n;
}

/* Every test of a job carries the same params: the report joins a
 * job's records into one bonnie row by them. */
static int bonnie_describe(const void *opts, int idx, struct bm_result *r)
{
	const struct bonnie_opts *o = opts;
	char sz[24], ch[24], cs[24], mx[24], mn[24];
	int t = bon_test_of(o, idx);
	size_t n;

	if (t < 0)
		return t;
	bm_fmt_size(sz, sizeof(sz), o->size, "kMG");
	bm_fmt_size(ch, sizeof(ch), o->chunk, "kMG");
	bm_fmt_size(cs, sizeof(cs), o->charsize, "kMG");
	snprintf(r->wl, sizeof(r->wl), "bonnie");
	snprintf(r->test, sizeof(r->test), "%s", bon_labels[t]);
	n = (size_t)snprintf(r->params, sizeof(r->params),
			     "size=%s chunk=%s charsize=%s seeks=%lld seekers=%lld num=%lld "
			     "dirs=%lld seed=%lld", sz, ch, cs, (long long)bon_nseeks(o),
			     (long long)bon_nseekers(o), o->num, o->dirs, o->seed);
	if (o->max_size && n < sizeof(r->params)) {
		bm_fmt_size(mx, sizeof(mx), o->max_size, "kMG");
		bm_fmt_size(mn, sizeof(mn), o->min_size, "kMG");
		n += (size_t)snprintf(r->params + n, sizeof(r->params) - n,
				      " max_size=%s min_size=%s", mx, mn);
	}
	if (o->direct && n < sizeof(r->params))
		n += (size_t)snprintf(r->params + n, sizeof(r->params) - n, " direct=1");
	/* 2.00a's records stay as they were before the knob */
	if (bon_ver(o) != BON_V200A && n < sizeof(r->params))
		n += (size_t)snprintf(r->params + n, sizeof(r->params) - n, " version=%s",
				      o->version);
	if (strcmp(o->cache, "chained") && n < sizeof(r->params))
		n += (size_t)snprintf(r->params + n, sizeof(r->params) - n, " cache=%s", o->cache);
	/* only a sleep other than the version's: the records before the knob
	 * stay as they were */
	if (bon_seek_sleep(o) != bon_version_sleep(o) && n < sizeof(r->params))
		snprintf(r->params + n, sizeof(r->params) - n, " seek_sleep=%lld", o->seek_sleep);
	return 0;
}

static const struct bm_wl_metric bonnie_metrics[] = {
	{ "bytes", "B", BM_BETTER_NONE },
	{ "ops", "count", BM_BETTER_NONE },
	{ "rewrites", "count", BM_BETTER_NONE },
	{ "cpu_proc", "%", BM_BETTER_LOWER },
	{ "cpu", "%", BM_BETTER_LOWER },
	{ "cpu_s", "s", BM_BETTER_LOWER },
	{ "elapsed", "s", BM_BETTER_LOWER },
	{ "lat", "us", BM_BETTER_LOWER },
	{ "files", "count", BM_BETTER_NONE },
	{ "rate", "KiB/s", BM_BETTER_HIGHER },  /* files/s, ops/s for the file and seek tests */
	{ NULL, NULL, BM_BETTER_NONE },
};

static const struct bm_wl_plot bonnie_plots[] = {
	{ .metric = "rate", .prefix = "bon-", .name = "bonnie", .xlabel = "test", .bars = 1, .logx = 0 },
	{ .metric = NULL },
};

const struct bm_wl_desc wl_bonnie_desc = {
	.name = "bonnie",
	.opts = bonnie_opts_tab,
	.opts_size = sizeof(struct bonnie_opts),
	.check = bonnie_check_op,
	.ntests = bonnie_ntests,
	.describe = bonnie_describe,
	.metrics = bonnie_metrics,
	.headline = "rate",
	.plots = bonnie_plots,
	.report = &report_bonnie_ops,
	.example = "size=2M charsize=16k seeks=100 num=1 max_size=0",
	/* version=2.00a; musl reads a directory 2 KiB at a time where glibc reads
	 * 32 KiB; the file tests work from an open directory, bonnie++ chdir()s */
	.traced = "bonnie++ 2.00a; readdir-buffer dirfd",
};
