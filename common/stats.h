/* SPDX-License-Identifier: MIT */
/*
 * Statistics the workloads share: a log-linear latency histogram (as
 * HdrHistogram and fio do it: exact below 128 ns, then 64 linear buckets
 * per power of two, so any percentile is within 1/64 = 1.6% of the true
 * value), tiotest's "% of requests over 2 s / 10 s", and CPU time from
 * getrusage.
 */
#ifndef BM_STATS_H
#define BM_STATS_H

#include <stdint.h>

#define BM_LAT_SUB_BITS 6
#define BM_LAT_SUB      (1u << BM_LAT_SUB_BITS)
#define BM_LAT_MAX_EXP  40   /* buckets up to 2^47 ns (~39 hours); the last takes the rest */
#define BM_LAT_BUCKETS  (BM_LAT_SUB * (BM_LAT_MAX_EXP + 2))

struct bm_lat {
	uint64_t n;
	uint64_t sum_ns;
	uint64_t min_ns, max_ns;
	uint64_t over_2s, over_10s;   /* strictly greater than, as tiotest */
	uint32_t bucket[BM_LAT_BUCKETS];
};

void bm_lat_init(struct bm_lat *l);
void bm_lat_add(struct bm_lat *l, uint64_t ns);
void bm_lat_merge(struct bm_lat *dst, const struct bm_lat *src);
unsigned bm_lat_index(uint64_t ns);
/* Smallest and largest value that land in bucket idx. */
uint64_t bm_lat_bucket_lo(unsigned idx);
uint64_t bm_lat_bucket_hi(unsigned idx);
/* Mean in ns (0 when empty). */
double bm_lat_mean(const struct bm_lat *l);
/* p in [0,100]: the value at rank ceil(p/100 * n) (nearest rank), reported
 * as its bucket's midpoint, clamped to the observed min and max. */
uint64_t bm_lat_percentile(const struct bm_lat *l, double p);
/* 100 * count / n, 0 when empty. */
double bm_lat_pct(const struct bm_lat *l, uint64_t count);

/* Process CPU time from getrusage(RUSAGE_SELF or RUSAGE_CHILDREN). */
struct bm_cpu {
	double user_s, sys_s;
};

int bm_cpu_now(struct bm_cpu *c, int who);
/* 100 * (user + sys) / wall, as bonnie's %CPU and tiotest's CPU%. */
double bm_cpu_pct(const struct bm_cpu *a, const struct bm_cpu *b, double wall_s);

/* CLOCK_MONOTONIC in ns, and in seconds. */
uint64_t bm_now_ns(void);
double bm_now_s(void);

#endif
