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
 * instead (runner/workloads/tiobench/tio_io.c): the write opens O_CREAT|O_TRUNC and appends,
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

/* The sequential write starts from an empty filesystem (the unlink finds
 * nothing on a fresh one). */
static int tio_prepares(const void *opts, int idx)
{
	unsigned t;

	return tio_test(opts, idx, &t) != TIO_SEQWR;
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
	.desc = &wl_tiobench_desc,
	.flags = 0,
	.prepare = tio_prepare,
	.run = tio_run,
	.inspect = tio_inspect,
	.prepares = tio_prepares,
};
