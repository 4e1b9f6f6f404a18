// SPDX-License-Identifier: MIT
/* Latency histogram and CPU time (stats.h). */
#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "stats.h"

void bm_lat_init(struct bm_lat *l)
{
	memset(l, 0, sizeof(*l));
	l->min_ns = UINT64_MAX;
}

/*
 * Below 2*SUB the index is the value.  Above, with e = msb - SUB_BITS, the
 * value's top SUB_BITS+1 bits (v >> e, in [SUB, 2*SUB)) select one of SUB
 * buckets of width 2^e: idx = SUB*e + (v >> e), continuous with the exact
 * range.
 */
unsigned bm_lat_index(uint64_t ns)
{
	unsigned msb, e;

	if (ns < 2 * BM_LAT_SUB)
		return (unsigned)ns;
	msb = 63u - (unsigned)__builtin_clzll(ns);
	e = msb - BM_LAT_SUB_BITS;
	if (e > BM_LAT_MAX_EXP)
		return BM_LAT_BUCKETS - 1;
	return BM_LAT_SUB * e + (unsigned)(ns >> e);
}

uint64_t bm_lat_bucket_lo(unsigned idx)
{
	unsigned e;

	if (idx < 2 * BM_LAT_SUB)
		return idx;
	e = idx / BM_LAT_SUB - 1;
	return (uint64_t)(idx - BM_LAT_SUB * e) << e;
}

uint64_t bm_lat_bucket_hi(unsigned idx)
{
	unsigned e;

	if (idx < 2 * BM_LAT_SUB)
		return idx;
	if (idx >= BM_LAT_BUCKETS - 1)
		return UINT64_MAX;      /* the last bucket takes every larger value */
	e = idx / BM_LAT_SUB - 1;
	return (((uint64_t)(idx - BM_LAT_SUB * e) + 1) << e) - 1;
}

void bm_lat_add(struct bm_lat *l, uint64_t ns)
{
	l->n++;
	l->sum_ns += ns;
	if (ns < l->min_ns)
		l->min_ns = ns;
	if (ns > l->max_ns)
		l->max_ns = ns;
	if (ns > 2000000000ull)
		l->over_2s++;
	if (ns > 10000000000ull)
		l->over_10s++;
	l->bucket[bm_lat_index(ns)]++;
}

void bm_lat_merge(struct bm_lat *dst, const struct bm_lat *src)
{
	unsigned i;

	if (!src->n)
		return;
	dst->n += src->n;
	dst->sum_ns += src->sum_ns;
	if (src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	dst->over_2s += src->over_2s;
	dst->over_10s += src->over_10s;
	for (i = 0; i < BM_LAT_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
}

double bm_lat_mean(const struct bm_lat *l)
{
	return l->n ? (double)l->sum_ns / (double)l->n : 0.0;
}

uint64_t bm_lat_percentile(const struct bm_lat *l, double p)
{
	uint64_t rank, seen = 0, v;
	unsigned i;
	double x;

	if (!l->n)
		return 0;
	if (p <= 0)
		return l->min_ns;
	if (p >= 100)
		return l->max_ns;
	/* ceil(p/100 * n) without libm; the product is rounded first, so
	 * that 99.9% of 1000 (999.0000000000001 in doubles) is rank 999. */
	x = p / 100.0 * (double)l->n;
	x -= x * 1e-12;
	rank = (uint64_t)x;
	if ((double)rank < x)
		rank++;
	if (rank < 1)
		rank = 1;
	for (i = 0; i < BM_LAT_BUCKETS; i++) {
		seen += l->bucket[i];
		if (seen >= rank)
			break;
	}
	if (i == BM_LAT_BUCKETS)
		return l->max_ns;
	v = bm_lat_bucket_lo(i) + (bm_lat_bucket_hi(i) - bm_lat_bucket_lo(i)) / 2;
	if (v < l->min_ns)
		v = l->min_ns;
	if (v > l->max_ns)
		v = l->max_ns;
	return v;
}

double bm_lat_pct(const struct bm_lat *l, uint64_t count)
{
	return l->n ? 100.0 * (double)count / (double)l->n : 0.0;
}

int bm_cpu_now(struct bm_cpu *c, int who)
{
	struct rusage ru;

	if (getrusage(who, &ru))
		return -errno;
	c->user_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	c->sys_s = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	return 0;
}

double bm_cpu_pct(const struct bm_cpu *a, const struct bm_cpu *b, double wall_s)
{
	if (wall_s <= 0)
		return 0.0;
	return 100.0 * ((b->user_s - a->user_s) + (b->sys_s - a->sys_s)) / wall_s;
}

uint64_t bm_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

double bm_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
