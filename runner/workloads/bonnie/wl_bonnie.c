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
	/* bonnie_continues: the file or files are the ones the test before left */
	if (ctx->continued)
		return 0;
	/* Leftovers of an earlier test in the same directory (the unit test). */
	bon_cleanup(ctx);
	if (t >= BON_FIRST_FILE_TEST)
		return bon_files_prepare(ctx, o, t);
	if (t == BON_PUTC || t == BON_BLOCK_W)
		return 0;
	return bon_io_prepare(ctx, o);
}

/* putc, block-w and the creates start from an empty filesystem
 * (bon_cleanup finds nothing on a fresh one); the random create with
 * cache=chained replays the sequential tests first. */
static int bonnie_prepares(const void *opts, int idx)
{
	const struct bonnie_opts *o = opts;
	int t = bon_test_of(o, idx);

	if (t == BON_PUTC || t == BON_BLOCK_W || t == BON_SEQ_CREATE)
		return 0;
	return t != BON_RND_CREATE || !strcmp(o->cache, "chained");
}

static int bonnie_run(struct wl_ctx *ctx, const void *opts, int idx, struct bm_result *r)
{
	const struct bonnie_opts *o = opts;
	int t = bon_test_of(o, idx), ret;

	if (t < 0)
		return t;
	/* what the test before this one leaves behind in a single run: the
	 * file's pages (not for the creating tests, whose unlink drops them,
	 * nor for rewrite, which starts from prepare()'s block write itself,
	 * nor where the test before has just left them: ctx->continued) */
	if (t != BON_PUTC && t != BON_BLOCK_W && t != BON_REWRITE && t < BON_FIRST_FILE_TEST &&
	    !strcmp(o->cache, "chained") && !ctx->continued) {
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

/*
 * Where prepare() re-enacts the very test bonnie++ runs just before this
 * one, cache=chained keeps what it left instead of the runner's remount and
 * drop.  Rewrite follows block-w's write and Close() (bon_io_prepare is
 * that block write): it starts right after 2 x RAM has gone to the disk,
 * where after a drop and a read bootmark's rewrite ran 1.3x bonnie++'s.  A
 * stat reads the files its create has just written and synced, part of
 * them cached (bon_files_prepare), and a delete follows the stat; from a
 * dropped cache every stat read each file from the disk (seq-stat 0.52x
 * bonnie++'s).  The random create follows the sequential tests, re-enacted
 * by its prepare().
 */
static int bonnie_keep_cache(const struct wl_ctx *ctx, const void *opts, int idx)
{
	const struct bonnie_opts *o = opts;
	int t = bon_test_of(o, idx);

	if (strcmp(o->cache, "chained"))
		return 0;
	if (ctx && ctx->continued)
		return 1;
	return t == BON_REWRITE || (t >= BON_FIRST_FILE_TEST && t != BON_SEQ_CREATE);
}

/*
 * In one bonnie++ run each test after block-w works on what the one before
 * left: rewrite, getc, block-r and seeks on block-w's file and its cached
 * pages, stat on the files create made, delete removes them, the random
 * create follows the sequential delete.  Where the runner keeps the
 * directory (host mode), the test takes that over (no prepare(), no drop,
 * no warm read) instead of rebuilding it: rebuilding in fresh directories
 * freed the 512 MiB of the fidelity bench's files four times before the
 * random create where bonnie++ frees it once, on a filesystem mounted with
 * discard, and the random create ran 0.55x bonnie++'s (docs/performance.md);
 * the I/O tests wrote and freed the 2 GiB file five times.  Only for
 * cache=chained, and only when the test before is bonnie++'s own predecessor
 * (putc, block-w and seq-create start on files of their own).
 */
static int bonnie_continues(const void *opts, int idx)
{
	const struct bonnie_opts *o = opts;
	int t = bon_test_of(o, idx), prev = idx > 0 ? bon_test_of(o, idx - 1) : -1;

	if (strcmp(o->cache, "chained") || prev < 0)
		return 0;
	if (t == BON_PUTC || t == BON_BLOCK_W || t == BON_SEQ_CREATE)
		return 0;
	return prev == t - 1;
}

const struct wl_ops wl_bonnie_ops = {
	.desc = &wl_bonnie_desc,
	.flags = 0,
	.prepare = bonnie_prepare,
	.run = bonnie_run,
	.inspect = NULL,
	.keep_cache = bonnie_keep_cache,
	.continues = bonnie_continues,
	.prepares = bonnie_prepares,
};
