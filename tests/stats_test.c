// SPDX-License-Identifier: MIT
/* common/stats.c with known inputs: histogram buckets, percentiles,
 * thresholds at exactly 2 s and 10 s, merge, CPU%. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "stats.h"
#include "tap.h"

#define SEC 1000000000ull

static struct bm_lat *lat_new(void)
{
	struct bm_lat *l = malloc(sizeof(*l));

	if (!l)
		tap_bail("out of memory");
	bm_lat_init(l);
	return l;
}

/* Every value's bucket contains it; buckets are contiguous and ordered. */
static void test_buckets(void)
{
	uint64_t v, step, bad = 0, checked = 0;
	unsigned i, idx;

	for (v = 0; v < 100000; v++, checked++) {
		idx = bm_lat_index(v);
		if (idx >= BM_LAT_BUCKETS || bm_lat_bucket_lo(idx) > v || bm_lat_bucket_hi(idx) < v)
			bad++;
	}
	/* Larger values: powers of two and their neighbours, and a sweep. */
	for (i = 1; i < 64; i++) {
		uint64_t p = 1ull << i, near[3] = { p - 1, p, p + 1 };
		int j;

		for (j = 0; j < 3; j++, checked++) {
			idx = bm_lat_index(near[j]);
			if (idx >= BM_LAT_BUCKETS || bm_lat_bucket_lo(idx) > near[j] ||
			    bm_lat_bucket_hi(idx) < near[j])
				bad++;
		}
	}
	for (v = 100000, step = 7; v < (1ull << 50); v += step, step += step / 3 + 1, checked++) {
		idx = bm_lat_index(v);
		if (idx >= BM_LAT_BUCKETS || bm_lat_bucket_lo(idx) > v || bm_lat_bucket_hi(idx) < v)
			bad++;
	}
	tap_ok(bad == 0, "%llu values each inside their bucket's [lo,hi] (%llu bad)",
	       (unsigned long long)checked, (unsigned long long)bad);
	TAP_EQ_INT(bm_lat_index(UINT64_MAX), BM_LAT_BUCKETS - 1, "UINT64_MAX in the last bucket");
	tap_ok(bm_lat_bucket_hi(BM_LAT_BUCKETS - 1) == UINT64_MAX, "last bucket is open ended");

	bad = 0;
	TAP_EQ_INT(bm_lat_bucket_lo(0), 0, "bucket 0 starts at 0");
	for (i = 1; i < BM_LAT_BUCKETS; i++) {
		if (bm_lat_bucket_lo(i) != bm_lat_bucket_hi(i - 1) + 1)
			bad++;
		if (bm_lat_index(bm_lat_bucket_lo(i)) != i)
			bad++;
	}
	tap_ok(bad == 0, "%u buckets contiguous, lo maps back to its bucket", BM_LAT_BUCKETS);
	TAP_EQ_INT(bm_lat_index(127), 127, "exact below 128");
	TAP_EQ_INT(bm_lat_index(128), 128, "128 starts the log-linear range");
	tap_ok(bm_lat_bucket_lo(bm_lat_index(1000000)) == 999424 &&
	       bm_lat_bucket_hi(bm_lat_index(1000000)) == 1007615,
	       "1 ms falls in [999424, 1007615] (width 8192 = 2^(19-6))");
}

static void test_empty(void)
{
	struct bm_lat *l = lat_new();

	TAP_EQ_INT(l->n, 0, "empty: n 0");
	tap_ok(bm_lat_mean(l) == 0.0, "empty: mean 0");
	TAP_EQ_INT(bm_lat_percentile(l, 50), 0, "empty: p50 0");
	TAP_EQ_INT(bm_lat_percentile(l, 99.9), 0, "empty: p99.9 0");
	tap_ok(bm_lat_pct(l, 0) == 0.0, "empty: pct 0");
	free(l);
}

static int within(double got, double want, double rel)
{
	double d = got > want ? got - want : want - got;

	return d <= want * rel;
}

static void test_percentiles(void)
{
	struct bm_lat *l = lat_new();
	uint64_t v, p50, p99, p999;

	for (v = 1; v <= 1000; v++)
		bm_lat_add(l, v);
	p50 = bm_lat_percentile(l, 50);
	p99 = bm_lat_percentile(l, 99);
	p999 = bm_lat_percentile(l, 99.9);
	tap_ok(within((double)p50, 500, 1.0 / 64), "1..1000 ns: p50 %llu ~ 500",
	       (unsigned long long)p50);
	tap_ok(within((double)p99, 990, 1.0 / 64), "1..1000 ns: p99 %llu ~ 990",
	       (unsigned long long)p99);
	tap_ok(within((double)p999, 999, 1.0 / 64), "1..1000 ns: p99.9 %llu ~ 999",
	       (unsigned long long)p999);
	TAP_EQ_INT(bm_lat_percentile(l, 0), 1, "p0 is the min");
	TAP_EQ_INT(bm_lat_percentile(l, 100), 1000, "p100 is the max");
	TAP_EQ_INT(l->min_ns, 1, "min 1");
	TAP_EQ_INT(l->max_ns, 1000, "max 1000");
	tap_ok(bm_lat_mean(l) == 500.5, "mean 500.5");
	free(l);

	/* Exact range: nearest rank exactly, 99.9% of 1000 values is rank 999. */
	l = lat_new();
	for (v = 1; v <= 100; v++)
		bm_lat_add(l, v);
	TAP_EQ_INT(bm_lat_percentile(l, 50), 50, "1..100: p50 is 50 (nearest rank)");
	TAP_EQ_INT(bm_lat_percentile(l, 99), 99, "1..100: p99 is 99");
	TAP_EQ_INT(bm_lat_percentile(l, 29), 29, "1..100: p29 is 29 (0.29*100 is 28.999..)");
	TAP_EQ_INT(bm_lat_percentile(l, 99.5), 100, "1..100: p99.5 is rank 100");
	free(l);
	l = lat_new();
	for (v = 0; v < 1000; v++)
		bm_lat_add(l, v < 999 ? 10 : 100);
	TAP_EQ_INT(bm_lat_percentile(l, 99.9), 10, "999x10 + 1x100: p99.9 is 10 (rank 999)");
	TAP_EQ_INT(bm_lat_percentile(l, 99.95), 100, "p99.95 is 100");
	free(l);

	/* A skewed distribution in milliseconds: 90% 1 ms, 9% 10 ms, 1% 1 s. */
	l = lat_new();
	for (v = 0; v < 10000; v++)
		bm_lat_add(l, v < 9000 ? 1000000 : v < 9900 ? 10000000 : SEC);
	p50 = bm_lat_percentile(l, 50);
	p99 = bm_lat_percentile(l, 99);
	p999 = bm_lat_percentile(l, 99.9);
	tap_ok(within((double)p50, 1e6, 1.0 / 64), "skewed: p50 %llu ~ 1 ms", (unsigned long long)p50);
	tap_ok(within((double)p99, 1e7, 1.0 / 64), "skewed: p99 %llu ~ 10 ms", (unsigned long long)p99);
	tap_ok(within((double)p999, 1e9, 1.0 / 64), "skewed: p99.9 %llu ~ 1 s",
	       (unsigned long long)p999);
	free(l);
}

/* tiotest counts lat > 2.0 s and > 10.0 s: exactly 2 s is not over. */
static void test_thresholds(void)
{
	struct bm_lat *l = lat_new();

	bm_lat_add(l, 2 * SEC);
	bm_lat_add(l, 10 * SEC);
	TAP_EQ_INT(l->over_2s, 1, "exactly 2 s not counted, exactly 10 s is over 2 s");
	TAP_EQ_INT(l->over_10s, 0, "exactly 10 s not counted over 10 s");
	bm_lat_add(l, 2 * SEC + 1);
	bm_lat_add(l, 10 * SEC + 1);
	TAP_EQ_INT(l->over_2s, 3, "2 s + 1 ns and 10 s + 1 ns counted over 2 s");
	TAP_EQ_INT(l->over_10s, 1, "10 s + 1 ns counted over 10 s");
	bm_lat_add(l, 1);
	bm_lat_add(l, SEC);
	bm_lat_add(l, 3);
	bm_lat_add(l, 4);
	tap_ok(bm_lat_pct(l, l->over_2s) == 37.5, "pct over 2 s: 3 of 8 = 37.5%%");
	tap_ok(bm_lat_pct(l, l->over_10s) == 12.5, "pct over 10 s: 1 of 8 = 12.5%%");
	free(l);
}

static void test_merge(void)
{
	struct bm_lat *a = lat_new(), *b = lat_new(), *e = lat_new(), *all = lat_new();
	uint64_t v;
	unsigned i, same = 1;

	for (v = 1; v <= 500; v++) {
		bm_lat_add(a, v * 1000);
		bm_lat_add(all, v * 1000);
	}
	for (v = 501; v <= 1000; v++) {
		bm_lat_add(b, v * 1000 + 11 * SEC);
		bm_lat_add(all, v * 1000 + 11 * SEC);
	}
	bm_lat_merge(a, e);      /* merging an empty one changes nothing */
	TAP_EQ_INT(a->min_ns, 1000, "merge of empty keeps min");
	bm_lat_merge(e, a);      /* into an empty one: a copy */
	TAP_EQ_INT(e->min_ns, 1000, "merge into empty takes min");
	TAP_EQ_INT(e->n, 500, "merge into empty takes n");
	bm_lat_merge(a, b);
	TAP_EQ_INT(a->n, 1000, "merged n");
	TAP_EQ_INT(a->min_ns, 1000, "merged min");
	TAP_EQ_INT(a->max_ns, 1000000 + 11 * SEC, "merged max");
	TAP_EQ_INT(a->over_2s, 500, "merged over 2 s");
	TAP_EQ_INT(a->over_10s, 500, "merged over 10 s");
	tap_ok(a->sum_ns == all->sum_ns, "merged sum");
	for (i = 0; i < BM_LAT_BUCKETS; i++)
		same &= a->bucket[i] == all->bucket[i];
	tap_ok(same, "merged buckets equal one histogram of all values");
	TAP_EQ_INT(bm_lat_percentile(a, 50), bm_lat_percentile(all, 50), "merged p50");
	TAP_EQ_INT(bm_lat_percentile(a, 99.9), bm_lat_percentile(all, 99.9), "merged p99.9");
	free(a);
	free(b);
	free(e);
	free(all);
}

static void test_cpu(void)
{
	struct bm_cpu a = { .user_s = 1.25, .sys_s = 2.0 }, b = { .user_s = 1.75, .sys_s = 3.0 };
	struct bm_cpu c0, c1;
	volatile uint64_t x = 0;
	uint64_t t0, i;

	tap_ok(bm_cpu_pct(&a, &b, 3.0) == 50.0, "(0.5 user + 1.0 sys) over 3 s is 50%%");
	tap_ok(bm_cpu_pct(&a, &b, 0.75) == 200.0, "over 0.75 s is 200%% (two CPUs)");
	tap_ok(bm_cpu_pct(&a, &b, 0) == 0.0, "zero wall time gives 0");
	tap_ok(bm_cpu_pct(&a, &a, 1.0) == 0.0, "no CPU used gives 0");

	TAP_EQ_INT(bm_cpu_now(&c0, RUSAGE_SELF), 0, "bm_cpu_now RUSAGE_SELF");
	/* Spin until getrusage shows 20 ms of CPU: on a loaded machine a fixed
	 * wall-clock loop may get far less CPU than it lasts, so the bound is
	 * wall time (10 s), and the check is that CPU time does grow. */
	t0 = bm_now_ns();
	do {
		for (i = 0; i < 100000; i++)
			x += i;
		bm_cpu_now(&c1, RUSAGE_SELF);
	} while (c1.user_s + c1.sys_s - c0.user_s - c0.sys_s < 0.02 &&
		 bm_now_ns() - t0 < 10000000000ull);
	TAP_EQ_INT(bm_cpu_now(&c1, RUSAGE_SELF), 0, "bm_cpu_now again");
	tap_ok(x > 0, "busy loop ran");
	tap_ok(c1.user_s >= c0.user_s && c1.sys_s >= c0.sys_s, "CPU times never go back");
	tap_ok(c1.user_s + c1.sys_s - c0.user_s - c0.sys_s >= 0.02,
	       "a busy loop shows 20 ms of CPU within 10 s (%.3f s)",
	       c1.user_s + c1.sys_s - c0.user_s - c0.sys_s);
	TAP_EQ_INT(bm_cpu_now(&c0, RUSAGE_CHILDREN), 0, "bm_cpu_now RUSAGE_CHILDREN");
	TAP_EQ_INT(bm_cpu_now(&c0, 12345), -EINVAL, "a bad who is -EINVAL");
	t0 = bm_now_ns();
	tap_ok(bm_now_ns() >= t0, "bm_now_ns is monotonic");
}

int main(void)
{
	tap_plan(0);
	test_buckets();
	test_empty();
	test_percentiles();
	test_thresholds();
	test_merge();
	test_cpu();
	return tap_done();
}
