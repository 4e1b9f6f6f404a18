/* SPDX-License-Identifier: MIT */
/* tiobench workload: options and the pure computations, shared with its test. */
#ifndef BM_RUNNER_WL_TIOBENCH_H
#define BM_RUNNER_WL_TIOBENCH_H

#include <stddef.h>
#include <stdint.h>

#include "report.h"
#include "result.h"
#include "stats.h"

#define TIO_THREADS_MAX 1024   /* per test; each thread has a file and a bm_lat */
#define TIO_LISTS_MAX   16     /* thread counts in one job */

enum { TIO_SEQWR, TIO_RNDWR, TIO_SEQRD, TIO_RNDRD, TIO_NPHASES };

struct tio_opts {
	char threads[96];   /* "1,8,16,32": one set of tests per count */
	uint64_t size;      /* bytes per thread (tiotest -f, in MiB there) */
	uint64_t bs;        /* bytes per pread/pwrite (tiotest -b) */
	long long random;   /* random ops per thread (tiotest -r) */
	int direct;         /* O_DIRECT (tiotest -X) */
	int sync;           /* O_SYNC (tiotest -S) */
	char phases[32];    /* subset of seqwr,rndwr,seqrd,rndrd */
	char version[8];    /* "0.4.2" (default) or "0.3.3": whose open/IO/fsync/CPU rules */
};

/* desc_tiobench.c: test idx is thread count idx / nphases, phase idx %
 * nphases; the phase (TIO_SEQWR ...) and its thread count, or -EINVAL. */
int tio_test(const struct tio_opts *o, int idx, unsigned *threads);
extern const struct bm_report_ops report_tiobench_ops;

/* 1 when the job follows tiotest 0.3.3 (tiotest.c of tiobench 0.3.3). */
int tio_v033(const struct tio_opts *o);

/* What one measured phase gave: the parent's timer, the process's CPU
 * around it, the I/Os done and their merged latencies. */
struct tio_sum {
	double secs;
	struct bm_cpu cpu0, cpu1;
	uint64_t ops;
	uint64_t bs;
	const struct bm_lat *lat;
};

/* "1,8,16" -> {1,8,16}: the count, or -EINVAL (empty item, not a number,
 * 0, above TIO_THREADS_MAX, more than max items). */
int tio_threads_parse(const char *list, unsigned *out, int max);
/* Per-thread seed for rand_r(): fixed by the thread index, never 0. */
unsigned tio_seed(unsigned thread);
/* The block of a random op: rand_r() % blocks, widened as tiotest does
 * when blocks exceeds RAND_MAX. */
uint64_t tio_rand_block(unsigned *seed, uint64_t blocks);
/* tiotest's rate: ops * bs / 2^20 per second (MiB/s; tiobench says MB/s). */
double tio_rate(uint64_t ops, uint64_t bs, double secs);
/* tiobench.pl's CPU efficiency: rate / (cpu% / 100 + 0.00001). */
double tio_eff(double rate, double cpu_pct);
/* Adds rate, cpu, time, ops, latencies, pct_2s/10s and eff to r. */
void tio_add_metrics(struct bm_result *r, const struct tio_sum *s);

/* runner/workloads/tiobench/tio_io.c: the file of thread i, "<dir>/tiotest.<i>". */
void tio_path(char *buf, size_t len, const char *dir, unsigned thread);
/* Runs one phase with nthreads threads in dir, as tiotest's do_test():
 * threads start, wait at a barrier, and the parent times from their
 * release to the last join.  Fills sum (sum->lat = lat, the threads'
 * latencies merged), even after an error: 0 or the first thread's -errno. */
int tio_phase_run(const char *dir, const struct tio_opts *o, int phase,
		  unsigned nthreads, struct tio_sum *sum, struct bm_lat *lat);

#endif
