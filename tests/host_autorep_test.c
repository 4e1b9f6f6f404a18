/* SPDX-License-Identifier: MIT */
/* host/analysis/autorep.c: the --repeat auto decision, and the headline table. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "autorep.h"
#include "headline.h"
#include "repeat.h"
#include "tap.h"

static const struct bm_ar_limits lim = { .min = 3, .max = 10, .cov_pct = 3.0 };

/* {100, 101, 99}: stddev 1, CoV 1% -> stable as soon as min is reached */
static void stable_after_min(void)
{
	static const double v2[] = { 100, 101 }, v3[] = { 100, 101, 99 };
	struct bm_ar_series s = { "ext4 dd32w real", v2, 2 };
	struct bm_ar_kernel k = { .boots = 2, .completed = 2, .s = &s, .ns = 1 };
	struct bm_ar_verdict v;

	TAP_EQ_INT(bm_autorep_decide(&k, 1, &lim, &v), 1, "below min: another boot");
	k.boots = k.completed = 3;
	s.v = v3;
	s.n = 3;
	TAP_EQ_INT(bm_autorep_decide(&k, 1, &lim, &v), 0, "CoV 1% at min: stable");
	TAP_EQ_INT(v.worst, 0, "worst series named");
	tap_ok(fabs(v.worst_pct - 1.0) < 1e-9, "worst CoV 1%% (got %g)", v.worst_pct);
}

/* {100, 120, 80}: CoV 20% -> more until the cap, then stop */
static void unstable_until_cap(void)
{
	static const double v[] = { 100, 120, 80, 100, 120, 80, 100, 120, 80, 100 };
	struct bm_ar_series s = { "xfs tio-rndrd-t4 rate", v, 3 };
	struct bm_ar_kernel k = { .boots = 3, .completed = 3, .s = &s, .ns = 1 };
	struct bm_ar_verdict vd;
	int n, first_stop = 0;

	for (n = 3; n <= 10 && !first_stop; n++) {
		k.boots = k.completed = n;
		s.n = (size_t)n;
		if (!bm_autorep_decide(&k, 1, &lim, &vd))
			first_stop = n;
	}
	TAP_EQ_INT(first_stop, 10, "unstable: stops exactly at --repeat-max");
	tap_ok(vd.worst_pct > 3.0, "CoV at the cap still above 3%% (%g)", vd.worst_pct);
}

/* failed boots count toward the cap but add no data */
static void failed_boots(void)
{
	static const double v[] = { 100, 100 };
	struct bm_ar_series s = { "ext4 dd32w real", v, 2 };
	struct bm_ar_kernel k = { .boots = 4, .completed = 2, .s = &s, .ns = 1 };
	struct bm_ar_kernel none = { .boots = 5, .completed = 0, .s = NULL, .ns = 0 };
	struct bm_ar_verdict vd;

	TAP_EQ_INT(bm_autorep_decide(&k, 1, &lim, &vd), 1,
		   "4 boots, 2 completed: below min completed, boot again");
	TAP_EQ_INT(bm_autorep_decide(&none, 1, &lim, &vd), 1, "no data yet: boot again");
	tap_ok(isnan(vd.worst_pct) && vd.worst == -1, "no data: no worst CoV");
	none.boots = 10;
	TAP_EQ_INT(bm_autorep_decide(&none, 1, &lim, &vd), 0, "all 10 failed: cap reached");
	k.boots = 10;
	TAP_EQ_INT(bm_autorep_decide(&k, 1, &lim, &vd), 0, "cap counts failed boots");
}

/* two kernels, two series each: only the noisy one goes on */
static void mixed_kernels(void)
{
	static const double a1[] = { 50, 50, 50 }, a2[] = { 10, 10.1, 9.9 };
	static const double b1[] = { 50, 50, 50 }, b2[] = { 10, 12, 8 };
	static const double c1[] = { 5, 5 };
	const struct bm_ar_series sa[] = { { "a1", a1, 3 }, { "a2", a2, 3 } };
	const struct bm_ar_series sb[] = { { "b1", b1, 3 }, { "b2", b2, 3 } };
	const struct bm_ar_series sc[] = { { "c1", c1, 2 }, { "c2", c1, 1 } };
	struct bm_ar_kernel k[] = {
		{ .boots = 3, .completed = 3, .s = sa, .ns = 2 },
		{ .boots = 3, .completed = 3, .s = sb, .ns = 2 },
		{ .boots = 3, .completed = 3, .s = sc, .ns = 2 },
	};
	struct bm_ar_verdict v[3];

	TAP_EQ_INT(bm_autorep_decide(k, 3, &lim, v), 2, "two of three kernels need more");
	TAP_EQ_INT(v[0].more, 0, "kernel A stable");
	TAP_EQ_INT(v[1].more, 1, "kernel B noisy");
	TAP_EQ_INT(v[1].worst, 1, "kernel B: the second series is the worst");
	tap_ok(fabs(v[1].worst_pct - 20.0) < 1e-9, "kernel B worst CoV 20%% (%g)", v[1].worst_pct);
	TAP_EQ_INT(v[2].more, 1, "kernel C: a series with one value is not yet stable");
}

static void headline(void)
{
	TAP_EQ_STR(bm_headline_metric("dd"), "real", "dd -> real");
	TAP_EQ_STR(bm_headline_metric("tiobench"), "rate", "tiobench -> rate");
	TAP_EQ_STR(bm_headline_metric("dbench"), "tput", "dbench -> tput");
	TAP_EQ_STR(bm_headline_metric("aim7"), "jobs_min", "aim7 -> jobs_min");
	TAP_EQ_STR(bm_headline_metric("aio"), "files_s", "aio -> files_s");
	tap_ok(bm_headline_metric("nosuch") == NULL, "unknown workload: none");
}

static void put(struct bm_rres *h, const char *wl, const char *test, const char *m,
		double x, int partial)
{
	memset(h, 0, sizeof(*h));
	snprintf(h->wl, sizeof(h->wl), "%s", wl);
	snprintf(h->test, sizeof(h->test), "%s", test);
	snprintf(h->fs, sizeof(h->fs), "ext4");
	snprintf(h->m[0].name, sizeof(h->m[0].name), "%s", m);
	h->m[0].value = x;
	h->nm = 1;
	h->partial = partial;
}

/* host/analysis/repeat.c: one value per completed boot, the suite's repeats averaged */
static void samples(void)
{
	static const char *const labels[] = { "k1" };
	struct bm_ar_limits l = { .min = 2, .max = 4, .cov_pct = 3.0 };
	struct bm_rres h[4];
	struct bm_results res = { .res = h, .nres = 4, .status = BM_ST_COMPLETED };
	struct bm_rep rep;
	int booted[1] = { 1 }, need[1];
	FILE *null = fopen("/dev/null", "w");

	put(&h[0], "dd", "dd32w", "real", 2.0, 0);
	put(&h[1], "dd", "dd32w", "real", 4.0, 0);      /* rep 2: mean 3 */
	put(&h[2], "dd", "dd32w", "real", 100.0, 1);    /* partial: left out */
	put(&h[3], "dd", "dd32w", "bw", 10.0, 0);       /* m[0] is not real: no value */
	snprintf(h[3].m[0].name, sizeof(h[3].m[0].name), "bw");
	if (!null || bm_rep_init(&rep, labels, 1, &l)) {
		tap_ok(0, "bm_rep_init");
		return;
	}
	bm_rep_add_boot(&rep, 0, &res);
	TAP_EQ_INT(rep.k[0].ns, 1, "one headline series");
	TAP_EQ_STR(rep.k[0].s[0].key, "ext4 dd32w real", "series key");
	tap_ok(rep.k[0].s[0].n == 1 && rep.k[0].s[0].v[0] == 3.0, "boot value = mean of reps");
	res.status = BM_ST_HANG;
	bm_rep_add_boot(&rep, 0, &res);
	TAP_EQ_INT(rep.k[0].boots, 2, "failed boot counted");
	TAP_EQ_INT(rep.k[0].s[0].n, 1, "failed boot adds no value");
	TAP_EQ_INT(bm_rep_round(&rep, 2, booted, need, null), 1, "one completed: more");
	res.status = BM_ST_COMPLETED;
	bm_rep_add_boot(&rep, 0, &res);
	TAP_EQ_INT(bm_rep_round(&rep, 3, booted, need, null), 0, "two equal values: stable");
	TAP_EQ_INT(rep.nlog, 2, "two rounds logged");
	fclose(null);
	bm_rep_free(&rep);
}

int main(void)
{
	tap_plan(0);
	stable_after_min();
	unstable_until_cap();
	failed_boots();
	mixed_kernels();
	headline();
	samples();
	return tap_done();
}
