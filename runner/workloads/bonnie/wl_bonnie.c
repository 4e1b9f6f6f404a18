// SPDX-License-Identifier: MIT
/*
 * bonnie: the tests of bonnie++ 2.00a (Russell Coker, after Tim Bray's
 * Bonnie), one result record per test, each on a fresh filesystem:
 *
 *   bon-putc     1-byte write() calls over charsize bytes of a new file
 *   bon-block-w  a new file of size bytes in chunk writes (O_CREAT|O_EXCL)
 *   bon-rewrite  read a chunk, change a byte, lseek back, write it
 *   bon-getc     1-byte read() calls over the first charsize bytes
 *   bon-block-r  the whole file in chunk reads
 *   bon-seeks    seeks tickets over seekers threads, a fd each; a ticket
 *                names a chunk (ticket % chunks) and rewrites it when
 *                ticket % 10 == 0
 *   bon-seq-*, bon-rnd-*: the file tests, in wl_bonnie_files.c
 *
 * As bonnie++'s Close(), every test ends with fsync() and close() inside
 * its timer.  The tests that need the file find it written by prepare(),
 * unmeasured, where bonnie++ reuses what the test before left.
 * The seeks and file-test paths are in the other files of the workload.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "log.h"
#include "stats.h"
#include "wl.h"
#include "wl_bonnie.h"

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
	  "the test before it leaves in one bonnie run; cold: with a dropped cache" },
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
		snprintf(r->params + n, sizeof(r->params) - n, " cache=%s", o->cache);
	return 0;
}

uint64_t bon_rng_init(long long seed, int test, int purpose)
{
	return (uint64_t)seed * 0x9e3779b97f4a7c15ull ^ ((uint64_t)test << 32) ^
	       (uint64_t)purpose;
}

uint32_t bon_rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (uint32_t)((z ^ (z >> 31)) >> 33);
}

int bon_cpu_pct(double cpu_s, double elapsed_s)
{
	if (elapsed_s <= 0)
		return 0;
	return (int)(cpu_s / elapsed_s * 100.0);
}

long bon_make_tickets(int32_t *t, long n, uint64_t *rng)
{
	long i, updates = 0;

	for (i = 0; i < n; i++) {
		t[i] = (int32_t)bon_rng_next(rng);
		if (t[i] % BON_UPDATE_SEEK == 0 && t[i]) {
			t[i] = -t[i];
			updates++;
		}
	}
	return updates;
}

static double bon_cpu_now(void)
{
	struct bm_cpu c;

	if (bm_cpu_now(&c, RUSAGE_SELF))
		return 0;
	return c.user_s + c.sys_s;
}

void bon_timer_start(struct bon_timer *t)
{
	t->cpu0_s = bon_cpu_now();
	t->t0_ns = bm_now_ns();
}

void bon_timer_stop(const struct bon_timer *t, struct bon_meas *m)
{
	uint64_t t1 = bm_now_ns();

	m->elapsed = (double)(t1 - t->t0_ns) / 1e9;
	m->cpu_s = bon_cpu_now() - t->cpu0_s;
}

void bon_unit_done(struct bon_meas *m, uint64_t t0_ns)
{
	uint64_t d = bm_now_ns() - t0_ns;

	if (d > m->lat_max_ns)
		m->lat_max_ns = d;
	m->units++;
}

void bon_beat(struct wl_ctx *ctx, uint64_t done, uint64_t step, const char *what)
{
	if (ctx->beat && step && done % step == 0)
		ctx->beat(ctx, what);
}

void bon_add_common(struct bm_result *r, const struct bon_meas *m, double work,
		    const char *rate_unit)
{
	if (m->elapsed > 0)
		bm_result_add(r, "rate", work / m->elapsed, rate_unit);
	bm_result_add(r, "cpu", bon_cpu_pct(m->cpu_s, m->elapsed), "%");
	bm_result_add(r, "cpu_s", m->cpu_s, "s");
	bm_result_add(r, "elapsed", m->elapsed, "s");
	bm_result_add(r, "lat", (double)m->lat_max_ns / 1e3, "us");
}

void bon_path(const struct wl_ctx *ctx, char *buf, size_t len)
{
	snprintf(buf, len, "%s/Bonnie.%d", ctx->mnt, (int)getpid());
}

static int bonnie_prepare(struct wl_ctx *ctx, const void *opts, int idx)
{
	const struct bonnie_opts *o = opts;
	int t = bon_test_of(o, idx);

	if (t < 0)
		return t;
	/* Leftovers of an earlier test in the same directory (the unit test). */
	bon_cleanup(ctx);
	if (t >= BON_FIRST_FILE_TEST)
		return bon_files_prepare(ctx, o, t);
	if (t == BON_PUTC || t == BON_BLOCK_W)
		return 0;
	return bon_io_prepare(ctx, o);
}

static int bonnie_run(struct wl_ctx *ctx, const void *opts, int idx, struct bm_result *r)
{
	const struct bonnie_opts *o = opts;
	int t = bon_test_of(o, idx), ret;

	if (t < 0)
		return t;
	/* what the test before this one leaves behind in a single run: the
	 * file's pages (not for the creating tests, whose unlink drops them) */
	if (t != BON_PUTC && t != BON_BLOCK_W && t < BON_FIRST_FILE_TEST &&
	    !strcmp(o->cache, "chained")) {
		ret = bon_io_warm(ctx, o);
		if (ret) {
			r->partial = 1;
			return ret;
		}
	}
	if (t >= BON_FIRST_FILE_TEST)
		ret = bon_files_run(ctx, o, t, r);
	else if (t == BON_SEEKS)
		ret = bon_seeks_run(ctx, o, r);
	else
		ret = bon_io_run(ctx, o, t, r);
	if (ret)
		r->partial = 1;
	return ret;
}

const struct wl_ops wl_bonnie_ops = {
	.name = "bonnie",
	.flags = 0,
	.opts = bonnie_opts_tab,
	.opts_size = sizeof(struct bonnie_opts),
	.check = bonnie_check_op,
	.ntests = bonnie_ntests,
	.describe = bonnie_describe,
	.prepare = bonnie_prepare,
	.run = bonnie_run,
	.inspect = NULL,
};
