// SPDX-License-Identifier: MIT
/*
 * tiobench: tiotest 0.4.2 (mkuoppal/tiobench), re-implemented.  T threads,
 * one file each of `size` bytes, moved in `bs` blocks with pread/pwrite:
 *
 *   seqwr  blocks = size/bs writes at 0, bs, 2bs ...
 *   rndwr  `random` writes at (rand_r(&seed) % blocks) * bs
 *   seqrd  as seqwr, reading
 *   rndrd  as rndwr, reading
 *
 * Every thread opens O_RDWR|O_CREAT (+O_DIRECT, +O_SYNC), ftruncate()s the
 * file to size, does its I/O, then fsync() and close(): all of it after the
 * release and before the join, so inside the parent's timer, as in 0.4.
 * Random phases count the ops performed (0.3.3 and the 2023 fix), not the
 * whole-file blocks the 0.4.0-0.4.2 code added.
 *
 * version=0.3.3 follows tiotest 0.3.3's do_write_test() and friends
 * instead (runner/tio_io.c): the write opens O_CREAT|O_TRUNC and appends,
 * no ftruncate; read()/write() after an lseek() that is outside the
 * latency; random blocks are rand_r() % (blocks - 1), so the last block is
 * never touched; only the write phases fsync; CPU is each thread's own
 * time, summed (LinuxThreads' per-thread getrusage).
 *
 * tiotest runs the four phases back to back on the same files; here each
 * (thread count, phase) is a test on a fresh filesystem, and prepare()
 * rebuilds what the earlier phases left: for every phase but seqwr, the
 * T files written concurrently by T threads exactly as seqwr does.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wl.h"
#include "wl_tiobench.h"

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

/* Knuth's multiplicative hash of index+1: distinct, odd-spread, never 0. */
unsigned tio_seed(unsigned thread)
{
	return (thread + 1u) * 2654435761u;
}

uint64_t tio_rand_block(unsigned *seed, uint64_t blocks)
{
	uint64_t r = (unsigned)rand_r(seed);

	if (blocks > (uint64_t)RAND_MAX)
		r |= (uint64_t)(unsigned)rand_r(seed) << 16;
	return r % blocks;
}

double tio_rate(uint64_t ops, uint64_t bs, double secs)
{
	return secs > 0 ? (double)ops * (double)bs / (double)MiB / secs : 0.0;
}

double tio_eff(double rate, double cpu_pct)
{
	return rate / (cpu_pct / 100.0 + 0.00001);
}

void tio_add_metrics(struct bm_result *r, const struct tio_sum *s)
{
	const struct bm_lat *l = s->lat;
	double rate = tio_rate(s->ops, s->bs, s->secs);
	double cpu = bm_cpu_pct(&s->cpu0, &s->cpu1, s->secs);

	bm_result_add(r, "rate", rate, "MiB/s");
	bm_result_add(r, "cpu", cpu, "%");
	bm_result_add(r, "time", s->secs, "s");
	bm_result_add(r, "ops", (double)s->ops, "count");
	bm_result_add(r, "lat_avg", bm_lat_mean(l) / 1e6, "ms");
	bm_result_add(r, "lat_max", l->n ? (double)l->max_ns / 1e6 : 0.0, "ms");
	bm_result_add(r, "lat_p50", (double)bm_lat_percentile(l, 50.0) / 1e6, "ms");
	bm_result_add(r, "lat_p99", (double)bm_lat_percentile(l, 99.0) / 1e6, "ms");
	bm_result_add(r, "lat_p999", (double)bm_lat_percentile(l, 99.9) / 1e6, "ms");
	bm_result_add(r, "pct_2s", bm_lat_pct(l, l->over_2s), "%");
	bm_result_add(r, "pct_10s", bm_lat_pct(l, l->over_10s), "%");
	bm_result_add(r, "eff", tio_eff(rate, cpu), "MiB/cpu-s");
}

/* Test idx is thread count idx / nphases, phase idx % nphases. */
static int tio_test(const struct tio_opts *o, int idx, unsigned *threads)
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

/* Removes the files of threads 0..n-1: leftovers must not make a seqwr an
 * overwrite in host mode, and host mode leaves the directory as it was. */
static void tio_unlink(const char *dir, unsigned n)
{
	char path[512];
	unsigned i;

	for (i = 0; i < n; i++) {
		tio_path(path, sizeof(path), dir, i);
		unlink(path);
	}
}

static int tio_prepare(struct wl_ctx *ctx, const void *opts, int idx)
{
	struct tio_sum sum;
	struct bm_lat *lat;
	unsigned t;
	int k = tio_test(opts, idx, &t), ret;

	if (k < 0)
		return k;
	tio_unlink(ctx->mnt, t);
	if (k == TIO_SEQWR)
		return 0;
	lat = malloc(sizeof(*lat));
	if (!lat)
		return -ENOMEM;
	ret = tio_phase_run(ctx->mnt, opts, TIO_SEQWR, t, &sum, lat);
	free(lat);
	return ret;
}

static int tio_run(struct wl_ctx *ctx, const void *opts, int idx, struct bm_result *r)
{
	const struct tio_opts *o = opts;
	struct tio_sum sum;
	struct bm_lat *lat;
	unsigned t;
	int k = tio_test(o, idx, &t), ret;

	if (k < 0)
		return k;
	lat = malloc(sizeof(*lat));
	if (!lat)
		return -ENOMEM;
	ret = tio_phase_run(ctx->mnt, o, k, t, &sum, lat);
	if (sum.secs > 0 || sum.ops)
		tio_add_metrics(r, &sum);
	if (ret)
		r->partial = 1;
	free(lat);
	return ret;
}

static void tio_inspect(struct wl_ctx *ctx, const void *opts, int idx, struct bm_result *r)
{
	unsigned t;

	if (tio_test(opts, idx, &t) >= 0)
		tio_unlink(ctx->mnt, t);
}

const struct wl_ops wl_tiobench_ops = {
	.name = "tiobench",
	.flags = 0,
	.opts = tio_opts_tab,
	.opts_size = sizeof(struct tio_opts),
	.check = tio_check,
	.ntests = tio_ntests,
	.describe = tio_describe,
	.prepare = tio_prepare,
	.run = tio_run,
	.inspect = tio_inspect,
};
