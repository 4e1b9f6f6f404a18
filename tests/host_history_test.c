/* SPDX-License-Identifier: MIT */
/*
 * bootmark history's parts without QEMU: the release order, the E-divisive
 * statistic against its definition, the location-corrected p against a
 * simulation, change points on series whose answer is known (a step, none,
 * a lone outlier, a change of variance alone, the four-kernel history of
 * make check), Benjamini-Hochberg over the family as compare computes it,
 * and the file: created, migrated forward from version 1, a newer schema,
 * another program's database and a file that is no database refused and
 * left as they were, a boot added twice stored once.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "cmpstats.h"
#include "history.h"
#include "sha256.h"
#include "tap.h"
#include "testrec.h"
#include "testutil.h"
#include "util.h"

static uint64_t rs = 42;

static double unif(void)
{
	uint64_t z = (rs += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return ((double)((z ^ (z >> 31)) >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void)
{
	return sqrt(-2 * log(unif())) * cos(2 * M_PI * unif());
}

static void test_order(void)
{
	/* each before the next, in release order */
	static const char *const v[] = {
		"6.1.0-9-amd64", "6.1.0-10-amd64", "6.1.0-53-amd64", "6.12.100+deb12-amd64",
		"6.12.117+deb12-amd64", "6.13-rc1", "6.13-rc3", "6.13.0-rc3-00123-gabcdef1",
		"6.13-rc10", "6.13", "6.13.1", "6.14-rc1", NULL,
	};
	static const char *const deb[] = {
		"6.1.123-1~deb11u1", "6.1.123-1", "6.1.123-1+deb12u1", "6.1.123-1+deb12u2", "6.1.123-2",
		"6.1.124-1", NULL,
	};
	int i, ok = 1;

	for (i = 0; v[i + 1]; i++)
		if (bm_kver_cmp(v[i], v[i + 1]) >= 0 || bm_kver_cmp(v[i + 1], v[i]) <= 0) {
			tap_diag("%s should come before %s", v[i], v[i + 1]);
			ok = 0;
		}
	tap_ok(ok, "releases: 6.13-rc3 < 6.13, Debian's 6.1.0-53 and 6.12.117+deb12 forms in order");
	for (i = 0, ok = 1; deb[i + 1]; i++)
		if (bm_kver_cmp(deb[i], deb[i + 1]) >= 0) {
			tap_diag("%s should come before %s", deb[i], deb[i + 1]);
			ok = 0;
		}
	tap_ok(ok, "Debian package versions: ~deb11u1 < -1 < +deb12u1 < +deb12u2 < -2");
	tap_ok(!bm_kver_cmp("6.13.0", "6.13") && !bm_kver_cmp("6.13.0-rc3", "6.13-rc3") &&
	       !bm_kver_cmp("6.1.0-53-amd64", "6.1.0-53-amd64"),
	       "6.13.0 is 6.13, 6.13.0-rc3 is 6.13-rc3 (make kernelversion and the tags)");
}

/* Q-hat by its definition (Matteson & James 2014, exponent 1), O(n^2) */
static double qhat(const double *x, size_t n, size_t m)
{
	double cross = 0, wl = 0, wr = 0, a = (double)m, b = (double)(n - m), q;
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			double d = fabs(x[i] - x[j]);

			if (j < m)
				wl += d;
			else if (i >= m)
				wr += d;
			else
				cross += d;
		}
	q = 2 * cross / (a * b);
	if (a > 1)
		q -= 2 * wl / (a * (a - 1));
	if (b > 1)
		q -= 2 * wr / (b * (b - 1));
	return q * a * b / (a + b);
}

static void test_edivisive(void)
{
	double x[90];
	size_t m[100], np, i, best, want, trial;
	int ok = 1;

	for (trial = 0; trial < 50 && ok; trial++) {
		size_t n = 20 + trial;
		double bq = -INFINITY;

		for (i = 0; i < n; i++)
			x[i] = (i >= n / 3 ? 1.5 : 1) + 0.3 * normal() + (trial % 3 ? 0 : (double)(i % 4));
		for (np = 0, i = 2; i + 2 <= n; i += 1 + trial % 2)
			m[np++] = i;
		best = bm_cp_edivisive(x, n, m, np);
		for (want = m[0], i = 0; i < np; i++)
			if (qhat(x, n, m[i]) > bq) {
				bq = qhat(x, n, m[i]);
				want = m[i];
			}
		ok = best == want;
		if (!ok)
			tap_diag("trial %zu: Fenwick %zu, definition %zu", trial, best, want);
	}
	tap_ok(ok, "E-divisive's position in O(n log n) is the definition's argmax (50 series)");
}

static void test_pmax(void)
{
	size_t m[19], i, r, hit = 0, reps = 20000;
	double bound, x[60];

	for (i = 0; i < 19; i++)
		m[i] = 3 * (i + 1);
	bound = bm_cp_pmax(3.3, m, 19, 60);
	tap_ok(fabs(bound - 0.01253) < 2e-4, "P(max |Z| >= 3.3) over 19 positions of 60 values: "
	       "%.5f (the up-crossing bound)", bound);
	tap_ok(bound < 19 * erfc(3.3 / M_SQRT2), "below Bonferroni's %.4f",
	       19 * erfc(3.3 / M_SQRT2));
	/* known-variance statistics of pure noise: how often the largest is >= 3.3 */
	for (r = 0; r < reps; r++) {
		double sum = 0, left = 0, mx = 0;

		for (i = 0; i < 60; i++)
			sum += (x[i] = normal());
		for (i = 0; i < 59; i++) {
			left += x[i];
			if ((i + 1) % 3 == 0) {
				double a = (double)(i + 1), z;

				z = (left / a - (sum - left) / (60 - a)) / sqrt(1 / a + 1 / (60 - a));
				mx = fmax(mx, fabs(z));
			}
		}
		hit += mx >= 3.3;
	}
	tap_ok((double)hit / (double)reps <= bound && (double)hit / (double)reps > bound / 2,
	       "simulated: %.4f of %zu noise series reach it: the bound holds and is close",
	       (double)hit / (double)reps, reps);
}

/* nk kernels of nb values each: base 100, CoV cov, times (1 + step) from kernel at */
struct fixture {
	double x[600];
	size_t off[101];
	struct bm_cp_series s;
};

/* Kernel boundaries of nk kernels of nb values, the values as they are. */
static void fill_off(struct fixture *f, size_t nk, size_t nb)
{
	for (size_t k = 0; k <= nk; k++)
		f->off[k] = k * nb;
	f->s = (struct bm_cp_series){ .x = f->x, .off = f->off, .nk = nk };
}

static void fill(struct fixture *f, size_t nk, size_t nb, double cov, size_t at, double step)
{
	size_t k, b, n = 0;

	for (k = 0; k < nk; k++) {
		f->off[k] = n;
		for (b = 0; b < nb; b++)
			f->x[n++] = 100 * (k >= at ? 1 + step : 1) * (1 + cov * normal());
	}
	f->off[nk] = n;
	f->s = (struct bm_cp_series){ .x = f->x, .off = f->off, .nk = nk };
}

/* The kernels after each change reported, in order, as "k,k"; "" none. */
static void changes(const struct fixture *f, char *out, size_t len)
{
	struct bm_cmp_rules ru = { .alpha = 0.01, .min_change = 5, .min_abs_time = 0.01 };
	const char *unit = "MiB/s";
	struct bm_cp_result r;
	struct bm_cp_decision d;
	size_t k, j;

	out[0] = '\0';
	if (bm_cp_search(&f->s, ru.alpha, &r) || bm_cp_decide(&f->s, &r, 1, &ru, &unit, &d))
		tap_bail("out of memory");
	for (k = 1; k < f->s.nk; k++)
		for (j = 0; j < r.nt; j++)
			if (d.keep[j] && r.t[j].k == k)
				snprintf(out + strlen(out), len - strlen(out), "%s%zu", out[0] ? "," : "", k);
	bm_cp_decision_free(&d, 1);
	bm_cp_result_free(&r);
}

static void test_search(void)
{
	struct fixture f;
	char got[128];
	int i, bad = 0;

	fill(&f, 20, 3, 0.03, 8, 0.20);
	changes(&f, got, sizeof(got));
	TAP_EQ_STR(got, "8", "a +20% step at kernel 8 of 20 (3 boots, CoV 3%) is one change, at 8");
	fill(&f, 30, 3, 0.03, 10, 0.20);
	for (i = 60; i < 90; i++)
		f.x[i] *= 0.8;   /* from kernel 20 back down */
	changes(&f, got, sizeof(got));
	TAP_EQ_STR(got, "10,20", "a step up at 10 and back down at 20: two changes");
	/* issue 44: a regression fixed two kernels later, 0 0 1 1 0 0, which no
	 * single split finds (each side of any split mixes the pulse in) */
	fill(&f, 6, 3, 0.005, 2, 0.13);
	for (i = 12; i < 18; i++)
		f.x[i] /= 1.13;
	changes(&f, got, sizeof(got));
	TAP_EQ_STR(got, "2,4", "a pulse of two kernels in six (+13%, CoV 0.5%): a change at each end");
	fill(&f, 20, 3, 0.003, 9, 0.10);
	for (i = 33; i < 60; i++)
		f.x[i] /= 1.10;
	changes(&f, got, sizeof(got));
	TAP_EQ_STR(got, "9,11", "a pulse of two kernels in twenty (+10%, CoV 0.3%): at 9 and 11");
	for (i = 0; i < 50; i++) {
		fill(&f, 20, 3, 0.08, 0, 0);
		changes(&f, got, sizeof(got));
		bad += got[0] != '\0';
	}
	TAP_EQ_INT(bad, 0, "50 series of noise (CoV 8%): no change");
	for (i = 0, bad = 0; i < 50; i++) {
		fill(&f, 20, i % 2 ? 1 : 3, 0.08, 0, 0);
		f.x[(size_t)(i * 7) % (f.off[20])] *= i % 3 ? 3 : 0.2;
		changes(&f, got, sizeof(got));
		bad += got[0] != '\0';
	}
	TAP_EQ_INT(bad, 0, "50 series with one boot 3x or 0.2x its value: no change");
	for (i = 0, bad = 0; i < 50; i++) {
		fill(&f, 20, 3, 0.05, 0, 0);
		for (size_t j = 30; j < 60; j++)
			f.x[j] = 100 + (f.x[j] - 100) * 3;
		changes(&f, got, sizeof(got));
		bad += got[0] != '\0';
	}
	TAP_EQ_INT(bad, 0, "50 series whose variance triples at kernel 10, mean unchanged: no change");
	/* make check's real history: four kernels, one boot each, virtual time */
	{
		double v[] = { 0.247372, 0.247362, 0.381040, 0.381114 };
		size_t off[] = { 0, 1, 2, 3, 4 };

		f.s = (struct bm_cp_series){ .x = v, .off = off, .nk = 4 };
		changes(&f, got, sizeof(got));
		TAP_EQ_STR(got, "2", "four kernels of one boot, +54% from the third: one change, at 2");
		v[2] = 0.247370;
		v[3] = 0.247380;
		changes(&f, got, sizeof(got));
		TAP_EQ_STR(got, "", "the same four without the switch: none");
	}
}

/* The kernels after each change of f in unit s under floor (0: auto). */
static void changes_s(const struct fixture *f, double floor, char *out, size_t len)
{
	struct bm_cmp_rules ru = { .alpha = 0.01, .min_change = 5, .min_abs_time = floor,
				   .min_abs_auto = floor == 0 };
	const char *unit = "s";
	struct bm_cp_result r;
	struct bm_cp_decision d;
	size_t j;

	out[0] = '\0';
	if (bm_cp_search(&f->s, ru.alpha, &r) || bm_cp_decide(&f->s, &r, 1, &ru, &unit, &d))
		tap_bail("out of memory");
	for (j = 0; j < r.nt; j++)
		if (d.keep[j])
			snprintf(out + strlen(out), len - strlen(out), "%s%zu", out[0] ? "," : "",
				 r.t[j].k);
	bm_cp_decision_free(&d, 1);
	bm_cp_result_free(&r);
}

/* issue 44: the floor for times follows the series' resolution */
static void test_floor(void)
{
	struct fixture f;
	char got[128];
	size_t i;

	/* dd32r of the issue: 0.0687 s, +13% for two kernels, CoV 0.2%, printed in us */
	fill(&f, 6, 3, 0.002, 2, 0.13);
	for (i = 0; i < 18; i++)
		f.x[i] = round(f.x[i] * 0.687 * 1e3) / 1e6;
	for (i = 12; i < 18; i++)
		f.x[i] = round(f.x[i] / 1.13 * 1e6) / 1e6;
	changes_s(&f, 0.01, got, sizeof(got));
	TAP_EQ_STR(got, "", "+13% of 0.0687 s (8.9 ms) at CoV 0.2%: no change under a fixed 10 ms");
	changes_s(&f, 0, got, sizeof(got));
	TAP_EQ_STR(got, "2,4", "the same under auto (resolution 1 us): a change at each end");
	/* CPU time in ticks of 4 ms: the mean moves by 2/3 of a tick, every boot alike */
	for (i = 0; i < 60; i++)
		f.x[i] = i < 30 || i % 3 == 0 ? 0.040 : 0.044;
	fill_off(&f, 20, 3);
	changes_s(&f, 1e-9, got, sizeof(got));
	TAP_EQ_STR(got, "10", "utime +2.7 ms in 4 ms ticks: a change with no floor");
	changes_s(&f, 0, got, sizeof(got));
	TAP_EQ_STR(got, "", "and none under auto: the move is below one tick, the series' resolution");
}

/* The kernels bm_cp_confirm_want marks in f, as "k,k"; the candidates in *n;
 * the root test's p and whether it is a change in *p, *kept. */
static int no_explore;

static void wanted(const struct fixture *f, char *out, size_t len, int *n, double *p, int *kept)
{
	struct bm_cmp_rules ru = { .alpha = 0.01, .min_change = 5, .min_abs_time = 0.01 };
	const char *unit = "MiB/s";
	struct bm_cp_confirm cf;
	struct bm_cp_result r;
	struct bm_cp_decision d;
	unsigned char want[100] = { 0 };

	bm_cp_confirm_default(&cf, ru.alpha);
	if (no_explore)
		cf.explore = 0;
	out[0] = '\0';
	if (bm_cp_search(&f->s, ru.alpha, &r) || bm_cp_decide(&f->s, &r, 1, &ru, &unit, &d))
		tap_bail("out of memory");
	*n = bm_cp_confirm_want(&f->s, &r, &d, &cf, &ru, unit, want);
	*p = r.nt ? r.t[0].p : 1;
	*kept = r.nt && d.keep[0];
	for (size_t k = 0; k < f->s.nk; k++)
		if (want[k])
			snprintf(out + strlen(out), len - strlen(out), "%s%zu", out[0] ? "," : "", k);
	bm_cp_decision_free(&d, 1);
	bm_cp_result_free(&r);
}

/* issue 44: which kernels history changes --confirm boots again */
static void test_confirm(void)
{
	double v[] = { 0.247372, 0.247362, 0.247370, 0.381040 }, p;
	size_t off[] = { 0, 1, 2, 3, 4 };
	struct fixture f;
	char got[128], name[320];
	int n, kept, i;

	f.s = (struct bm_cp_series){ .x = v, .off = off, .nk = 4 };
	changes(&f, got, sizeof(got));
	TAP_EQ_STR(got, "", "four kernels of one boot, +54% at the last: no change (one value is no side)");
	no_explore = 1;
	wanted(&f, got, sizeof(got), &n, &p, &kept);
	tap_ok(strchr(got, '3') != NULL, "the last kernel stands off its neighbours: booted again (%s)",
	       got);
	v[3] = 0.247380;
	wanted(&f, got, sizeof(got), &n, &p, &kept);
	TAP_EQ_STR(got, "", "the same four without the switch: none booted again for the ends");
	no_explore = 0;
	wanted(&f, got, sizeof(got), &n, &p, &kept);
	TAP_EQ_STR(got, "0,1,2,3", "but the kernels next to its first split have fewer than 3 boots: "
		   "booted around it, whatever its p");
	fill(&f, 20, 3, 0.03, 8, 0.20);
	wanted(&f, got, sizeof(got), &n, &p, &kept);
	tap_ok(kept && p < 1e-6 && !strstr(got, "7,8"),
	       "a +20%% step at CoV 3%%, found with p %.2g: not booted around (%s)", p, got[0] ? got : "-");
	/* a 10% step at CoV 8%, 3 boots: the first series whose split fails near alpha */
	for (i = 0; i < 200; i++) {
		fill(&f, 20, 3, 0.08, 10, 0.10);
		wanted(&f, got, sizeof(got), &n, &p, &kept);
		if (!kept && p > 0.01 && p <= 0.3)
			break;
	}
	snprintf(name, sizeof(name), "a 10%% step at CoV 8%% whose split fails at p %.3f (series %d): "
		 "the two kernels each side of it booted again (%s)", p, i, got);
	{
		struct bm_cp_result r;
		char around[64];

		if (bm_cp_search(&f.s, 0.01, &r))
			tap_bail("out of memory");
		snprintf(around, sizeof(around), "%zu,%zu,%zu,%zu", r.t[0].k - 2, r.t[0].k - 1,
			 r.t[0].k, r.t[0].k + 1);
		tap_ok(i < 200 && strstr(got, around) != NULL, "%s", name);
		bm_cp_result_free(&r);
	}
}

static void test_bh(void)
{
	struct bm_cmp_rules ru = { .alpha = 0.01, .min_change = 5, .min_abs_time = 0.01 };
	const char *units[3] = { "s", "s", "s" };
	struct fixture f[3];
	struct bm_cp_result r[3];
	struct bm_cp_series s[3];
	struct bm_cp_decision d[3];
	double p[64], q[64];
	size_t i, j, n = 0, m;
	int ok = 1;

	fill(&f[0], 20, 3, 0.03, 8, 0.2);
	fill(&f[1], 20, 3, 0.03, 0, 0);
	fill(&f[2], 12, 2, 0.05, 6, 0.1);
	for (i = 0; i < 3; i++) {
		s[i] = f[i].s;
		if (bm_cp_search(&s[i], ru.alpha, &r[i]))
			tap_bail("out of memory");
		for (j = 0; j < r[i].nt; j++)
			if (r[i].t[j].twin < 0)
				p[n++] = r[i].t[j].p;
	}
	if (bm_cp_decide(s, r, 3, &ru, units, d) || bm_bh_qvalues(p, n, q, &m))
		tap_bail("out of memory");
	for (i = 0, n = 0; i < 3; i++)
		for (j = 0; j < r[i].nt; j++)
			ok &= r[i].t[j].twin < 0 ? d[i].q[j] == q[n++] : d[i].q[j] == d[i].q[r[i].t[j].twin];
	tap_ok(ok && m == n, "q-values: compare's Benjamini-Hochberg over all %zu tests of 3 series", n);
	bm_cp_decision_free(d, 3);
	for (i = 0; i < 3; i++)
		bm_cp_result_free(&r[i]);
}

/* --- the file ---------------------------------------------------------------- */

static int file_hash(const char *path, char hex[65])
{
	return bm_sha256_file(path, hex);
}

static void boot_folder(const char *dir, const char *run, const char *kernel, double v)
{
	char path[PATH_MAX], kv[256], *log;
	FILE *f;

	if (bm_mkdir_p(dir, 0755))
		tap_bail("mkdir");
	if (bm_path(path, sizeof(path), "%s/results.log", dir))
		tap_bail("path");
	if (!(f = fopen(path, "w")))
		tap_bail("results.log");
	snprintf(kv, sizeof(kv), "v=1 kernel=%s suite=bisect fs=ext4", kernel);
	fputs(tu_rec(run, 1, 'H', kv), f);
	snprintf(kv, sizeof(kv), "wl=dd test=dd64r fs=ext4 rep=1 partial=0 m_real=%g:s m_utime=0.01:s",
		 v);
	fputs(tu_rec(run, 2, 'R', kv), f);
	fputs(tu_rec(run, 3, 'Z', "n=3 results=1 errors=0"), f);
	fclose(f);
	if (bm_path(path, sizeof(path), "%s/console.log", dir))
		tap_bail("path");
	log = "Linux version 6.1.0-53-amd64\n";
	if (!(f = fopen(path, "w")) || fputs(log, f) < 0 || fclose(f))
		tap_bail("console.log");
}

static long long count(struct bm_hist *h, const char *sql)
{
	sqlite3_stmt *st;
	long long n = -1;

	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static void test_file(const char *tmp)
{
	char db[PATH_MAX], other[PATH_MAX], text[PATH_MAX], dir[PATH_MAX], h1[65], h2[65];
	struct bm_hist_add_opts ao = { .quiet = 1 };
	struct bm_hist_add_stats st = { 0 };
	struct bm_hist h;
	FILE *f;

	snprintf(db, sizeof(db), "%s/old.db", tmp);
	TAP_EQ_INT(bm_hist_create_at(&h, db, 1), 0, "a history made at schema version 1");
	snprintf(dir, sizeof(dir), "%s/run/6.1.0-53-amd64", tmp);
	boot_folder(dir, "5eed0023", "6.1.0-53-amd64", 0.25);
	TAP_EQ_INT(bm_hist_add_dir(&h, dir, &ao, &st), 0, "a boot added to it");
	bm_hist_close(&h);
	TAP_EQ_INT(bm_hist_open(&h, db, 0), 0, "opened by this bootmark");
	TAP_EQ_INT(h.version, BM_HIST_SCHEMA, "migrated forward to the current version");
	tap_ok(count(&h, "SELECT count(*) FROM boots") == 1 &&
	       count(&h, "SELECT count(*) FROM bisections") == 0, "its boot kept, version 2's table there");
	TAP_EQ_INT(bm_hist_add_dir(&h, dir, &ao, &st), 0, "the same boot added again");
	tap_ok(st.added == 1 && st.known == 1 && count(&h, "SELECT count(*) FROM boots") == 1 &&
	       count(&h, "SELECT count(*) FROM results") == 2, "stored once (run id and label)");
	bm_hist_exec(&h, "PRAGMA user_version = 99", "test");
	bm_hist_close(&h);
	/* the WAL holds the last write until a checkpoint: hash the file as it is now */
	if (file_hash(db, h1))
		tap_bail("hash");
	TAP_EQ_INT(bm_hist_open(&h, db, BM_HIST_CREATE), -EINVAL, "a newer schema (99) is refused");
	tap_ok(!file_hash(db, h2) && !strcmp(h1, h2), "and left unchanged");
	snprintf(text, sizeof(text), "%s/notes.txt", tmp);
	if (!(f = fopen(text, "w")) || fputs("not a database\n", f) < 0 || fclose(f))
		tap_bail("notes.txt");
	file_hash(text, h1);
	TAP_EQ_INT(bm_hist_open(&h, text, BM_HIST_CREATE), -EINVAL, "a text file is refused");
	tap_ok(!file_hash(text, h2) && !strcmp(h1, h2), "and left unchanged");
	snprintf(other, sizeof(other), "%s/other.db", tmp);
	{
		sqlite3 *o;

		if (sqlite3_open(other, &o) || sqlite3_exec(o, "CREATE TABLE t (a); INSERT INTO t VALUES (1)",
							    NULL, NULL, NULL))
			tap_bail("other.db");
		sqlite3_close(o);
	}
	file_hash(other, h1);
	TAP_EQ_INT(bm_hist_open(&h, other, BM_HIST_CREATE), -EINVAL,
		   "another program's SQLite database is refused");
	tap_ok(!file_hash(other, h2) && !strcmp(h1, h2), "and left unchanged");
	snprintf(other, sizeof(other), "%s/none.db", tmp);
	TAP_EQ_INT(bm_hist_open(&h, other, 0), -ENOENT, "a missing history is not created by readers");
	tap_ok(access(other, F_OK) != 0, "and no file appears");
}

int main(void)
{
	char tmp[] = "/tmp/bm-history-test.aaaaaa";

	memset(tmp + strlen(tmp) - 6, 'X', 6);   /* mkdtemp's template */
	tap_plan(0);
	test_order();
	test_edivisive();
	test_pmax();
	test_search();
	test_floor();
	test_confirm();
	test_bh();
	tu_mkdtemp(tmp);
	test_file(tmp);
	bm_rm_rf(tmp);
	return tap_done();
}
