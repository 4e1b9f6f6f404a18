// SPDX-License-Identifier: MIT
/*
 * Synthetic histories for bootmark history (docs/history.md, "Accuracy").
 *
 *   history_gen accuracy [--series N] [--seed S]
 *       precision and recall of history changes' search, per step size and
 *       against the naive method (Welch between neighbouring kernels, no
 *       correction), as the Markdown tables of docs/history.md.  The series
 *       are searched and decided by the same functions history changes
 *       calls (bm_cp_search, bm_cp_decide), one series per history.
 *   history_gen boots --out DIR [--kernels K] [--boots B | --total N] [--tests T] [--cov PCT]
 *       [--step KERNEL:PCT[:TESTS]] [--names rc|debian|plain|N1,N2,...] [--seed S]
 *       [--shuffle] [--damaged N] [--host NAME] [--beats N]
 *       boot folders as bootmark run leaves them (results.log with framed,
 *       checksummed records, console.log, meta.json): K kernels x B boots (or N
 *       boots in all, spread over the kernels), T
 *       dd records each (headline real, and utime and stime), noise at CoV
 *       PCT, a step of PCT % in real from kernel KERNEL (0-based) on, in the
 *       first TESTS tests (default all); --shuffle mixes the boots' dates;
 *       --damaged N cuts the last N boots short (no END: protocol-error);
 *       --beats N writes N heartbeats after each test (a long boot's log:
 *       make bench, part parse).
 *
 * Noise: the CoVs bootmark's own repeated boots show (docs/performance.md,
 * "repeat": the ten QEMU ext4 figures over 5 boots), normal around the mean.
 * Deterministic: one seed, one history.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmpstats.h"
#include "history.h"
#include "json.h"
#include "proto.h"
#include "util.h"

/* docs/performance.md, "repeat": qemu ext4 aio-libaio, aio-uring, bon-block-r,
 * bon-block-w, dd32r, dd32w, lmdd-r, lmdd-w, tio-rndrd, tio-seqwr (CoV %) */
static const double measured_cov[] = { 8.14, 6.75, 19.31, 14.80, 21.65, 4.18, 6.89, 3.31,
				       10.95, 8.20 };
#define NCOV (sizeof(measured_cov) / sizeof(measured_cov[0]))

/* docs/performance.md, "repeat", qemu-icount: the same ten figures over 5 boots
 * under --icount 1 --disk-cache unsafe, as bisection and the history test boot
 * (make bench, part suite qemu-icount, 2026-12-03), in the same order; and the
 * worst of all 33 figures of those boots (tio-rndrd-t1's rate) */
static const double icount_cov[] = { 0.31, 0.28, 0.15, 0.35, 0.11, 2.88, 0.20, 0.00,
				     0.95, 0.07 };
#define NICOV (sizeof(icount_cov) / sizeof(icount_cov[0]))
#define ICOUNT_WORST_COV 4.96

/* --- a small deterministic generator (splitmix64, Box-Muller) -------------------- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double unif(void)
{
	return ((double)(rnd() >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void)
{
	return sqrt(-2 * log(unif())) * cos(2 * M_PI * unif());
}

static int unif_int(int lo, int hi)
{
	return lo + (int)(rnd() % (uint64_t)(hi - lo + 1));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_of(const double *cov, size_t n)
{
	double v[16];

	memcpy(v, cov, n * sizeof(*v));
	qsort(v, n, sizeof(double), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double median_cov(void)
{
	return median_of(measured_cov, NCOV);
}

static double max_of(const double *cov, size_t n)
{
	double m = cov[0];

	for (size_t i = 1; i < n; i++)
		m = cov[i] > m ? cov[i] : m;
	return m;
}

/* --- accuracy ---------------------------------------------------------------- */

enum kind { K_STEP, K_NONE, K_OUTLIER, K_VARIANCE, K_PULSE };

struct cell {
	const char *what;
	enum kind kind;
	int nk, boots;
	double cov, step;          /* %, % */
	int width;                 /* K_PULSE: kernels the step lasts before it is undone */
};

struct series {
	double *x;
	size_t *off;
	int nk;
	int chg[2], nchg;          /* the first kernel after each change */
	int outlier_at;            /* kernel holding the outlier; -1 none */
};

/* The kernel a step or variance change starts at: at least a quarter of
 * the kernels (and two) on each side, so that both sides are history. */
static int change_kernel(int nk)
{
	int margin = nk / 4 > 2 ? nk / 4 : 2;

	return unif_int(margin, nk - margin);
}

/* The first kernel of a pulse: as change_kernel(), the pulse inside. */
static int pulse_kernel(int nk, int width)
{
	int margin = nk / 4 > 2 ? nk / 4 : 2;

	return unif_int(margin, nk - margin - width);
}

static void make_series(const struct cell *c, struct series *s)
{
	int k, b, n = 0, at = c->kind == K_STEP || c->kind == K_VARIANCE ? change_kernel(c->nk) :
			       c->kind == K_PULSE ? pulse_kernel(c->nk, c->width) : -1;
	int end = c->kind == K_PULSE ? at + c->width : c->nk;

	s->nk = c->nk;
	s->nchg = c->kind == K_STEP ? 1 : c->kind == K_PULSE ? 2 : 0;
	s->chg[0] = at;
	s->chg[1] = end;
	s->outlier_at = -1;
	for (k = 0; k < c->nk; k++) {
		s->off[k] = (size_t)n;
		for (b = 0; b < c->boots; b++) {
			int up = (c->kind == K_STEP || c->kind == K_PULSE) && k >= at && k < end;
			double mean = 100 * (up ? 1 + c->step / 100 : 1);
			double sd = c->cov * (c->kind == K_VARIANCE && k >= at ? 3 : 1);

			s->x[n++] = mean * (1 + sd / 100 * normal());
		}
	}
	s->off[c->nk] = (size_t)n;
	if (c->kind == K_OUTLIER) {
		/* one boot: 5 to 30 sigma off, or 3 to 30 times the value (a host
		 * that stalled the guest's I/O), either way */
		int i = unif_int(0, n - 1);
		double f = unif() < 0.7 ? 1 + (5 + 25 * unif()) * c->cov / 100 : 3 + 27 * unif();

		s->x[i] = unif() < 0.5 ? s->x[i] * f : s->x[i] / f;
		for (k = 0; k < c->nk && s->off[k + 1] <= (size_t)i; k++)
			;
		s->outlier_at = k;
	}
}

/* Neighbouring kernels by Welch's test at alpha, with compare's minimum change. */
static int naive(const struct series *s, const struct bm_cmp_rules *ru, int *at)
{
	int k, n = 0;

	for (k = 1; k < s->nk; k++) {
		const double *a = s->x + s->off[k - 1], *b = s->x + s->off[k];
		size_t na = s->off[k] - s->off[k - 1], nb = s->off[k + 1] - s->off[k];
		struct bm_summary sa, sb;
		struct bm_welch w;

		bm_welch_test(a, na, b, nb, &w);
		bm_summarize(a, na, &sa);
		bm_summarize(b, nb, &sb);
		if (w.p < ru->alpha && bm_cmp_big_change(sa.mean, sb.mean, "MiB/s", ru))
			at[n++] = k;
	}
	return n;
}

struct score {
	long tp0, tp1, fp0, fp1, steps, at_outlier, oracle;
};

/* A ceiling: Welch's test between all boots before and after the step
 * (a pulse: inside it and outside), its kernels known (no search, no
 * correction), p < alpha; a pulse counts for both its ends. */
static int oracle(const struct series *s, double alpha)
{
	struct bm_welch w;
	size_t at, end, n = s->off[s->nk], i, o = 0;
	double *y;

	if (!s->nchg)
		return 0;
	at = s->off[s->chg[0]];
	end = s->nchg > 1 ? s->off[s->chg[1]] : n;
	y = malloc(n * sizeof(double));
	if (!y)
		exit(111);
	for (i = 0; i < n; i++)
		if (i < at || i >= end)
			y[o++] = s->x[i];
	for (i = at; i < end; i++)
		y[o++] = s->x[i];
	bm_welch_test(y, n - (end - at), y + n - (end - at), end - at, &w);
	free(y);
	return w.p < alpha ? s->nchg : 0;
}

/* Detections at[0..n) against the series' changes, exactly and within a
 * kernel: each change found once, by the nearest detection not yet used. */
static void score(const struct series *s, const int *at, int n, struct score *sc)
{
	int i, c, hit0[2] = { 0, 0 }, hit1[2] = { 0, 0 };

	sc->steps += s->nchg;
	for (i = 0; i < n; i++) {
		int m0 = -1, m1 = -1;

		for (c = 0; c < s->nchg; c++) {
			int d = abs(at[i] - s->chg[c]);

			if (d == 0 && !hit0[c])
				m0 = c;
			if (d <= 1 && !hit1[c] && (m1 < 0 || d < abs(at[i] - s->chg[m1])))
				m1 = c;
		}
		if (m0 >= 0) {
			hit0[m0] = 1;
			sc->tp0++;
		} else {
			sc->fp0++;
		}
		if (m1 >= 0) {
			hit1[m1] = 1;
			sc->tp1++;
		} else {
			sc->fp1++;
		}
		sc->at_outlier += s->outlier_at >= 0 &&
				  (at[i] == s->outlier_at || at[i] == s->outlier_at + 1);
	}
}

static int bootmark(const struct series *s, const struct bm_cmp_rules *ru, int *at)
{
	struct bm_cp_series cs = { .x = s->x, .off = s->off, .nk = (size_t)s->nk };
	struct bm_cp_result r;
	struct bm_cp_decision d;
	const char *unit = "MiB/s";
	size_t j;
	int n = 0;

	if (bm_cp_search(&cs, ru->alpha, &r) || bm_cp_decide(&cs, &r, 1, ru, &unit, &d)) {
		fprintf(stderr, "history_gen: out of memory\n");
		exit(111);
	}
	for (j = 0; j < r.nt; j++)
		if (d.keep[j])
			at[n++] = (int)r.t[j].k;
	bm_cp_decision_free(&d, 1);
	bm_cp_result_free(&r);
	return n;
}

static void fmt_ratio(char *buf, size_t len, long a, long b)
{
	if (b)
		snprintf(buf, len, "%.2f", (double)a / (double)b);
	else
		snprintf(buf, len, "-");
}

static void run_cell(const struct cell *c, int nseries)
{
	struct bm_cmp_rules ru = { .alpha = 0.01, .min_change = 5, .min_abs_time = 0.01 };
	struct score b = { 0 }, v = { 0 };
	struct series s;
	int at[128], i, n;
	char p0[16], r0[16], r1[16], np[16], nr[16], orc[16];

	s.x = malloc((size_t)(c->nk * c->boots) * sizeof(double));
	s.off = malloc((size_t)(c->nk + 1) * sizeof(size_t));
	if (!s.x || !s.off)
		exit(111);
	for (i = 0; i < nseries; i++) {
		make_series(c, &s);
		b.oracle += oracle(&s, ru.alpha);
		n = bootmark(&s, &ru, at);
		score(&s, at, n, &b);
		n = naive(&s, &ru, at);
		score(&s, at, n, &v);
	}
	fmt_ratio(p0, sizeof(p0), b.tp1, b.tp1 + b.fp1);
	fmt_ratio(r0, sizeof(r0), b.tp0, b.steps);
	fmt_ratio(r1, sizeof(r1), b.tp1, b.steps);
	fmt_ratio(np, sizeof(np), v.tp1, v.tp1 + v.fp1);
	fmt_ratio(nr, sizeof(nr), v.tp1, v.steps);
	fmt_ratio(orc, sizeof(orc), b.oracle, b.steps);
	printf("| %s | %d | %d | %.2f%% | %s | %s | %s | %.1f | %s | %s | %.1f | %s |", c->what,
	       c->nk, c->boots, c->cov, p0, r1, r0, 100.0 * (double)b.fp1 / nseries, np, nr,
	       100.0 * (double)v.fp1 / nseries, orc);
	if (c->kind == K_OUTLIER)
		printf(" at the outlier: %ld |\n", b.at_outlier);
	else
		printf(" |\n");
	free(s.x);
	free(s.off);
}

static void table_head(void)
{
	printf("| series | kernels | boots | CoV | precision | recall | recall (exact) | false / 100 "
	       "series | naive precision | naive recall | naive false / 100 series | known kernel | |\n");
	printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
}

static int accuracy(int nseries)
{
	static const double steps[] = { 2, 5, 10, 20 };
	double med = median_cov(), lo = measured_cov[7], hi = measured_cov[4];
	char what[64];
	size_t i;

	printf("Median measured CoV %.2f%% (of %zu, docs/performance.md); %d series per row.\n\n",
	       med, NCOV, nseries);
	printf("#### Step size (20 kernels, 3 boots each, median CoV)\n\n");
	table_head();
	for (i = 0; i < 4; i++) {
		struct cell c = { what, K_STEP, 20, 3, med, steps[i], 0 };

		snprintf(what, sizeof(what), "step %+g%%", steps[i]);
		run_cell(&c, nseries);
	}
	run_cell(&(struct cell){ "no change", K_NONE, 20, 3, med, 0, 0 }, nseries);
	run_cell(&(struct cell){ "one outlier", K_OUTLIER, 20, 3, med, 0, 0 }, nseries);
	run_cell(&(struct cell){ "variance x3 only", K_VARIANCE, 20, 3, med, 0, 0 }, nseries);
	printf("\n#### Boots per kernel (step +10%%, 20 kernels, median CoV)\n\n");
	table_head();
	for (int b = 1; b <= 5; b++) {
		snprintf(what, sizeof(what), "step +10%%");
		run_cell(&(struct cell){ what, K_STEP, 20, b, med, 10, 0 }, nseries);
	}
	run_cell(&(struct cell){ "one outlier", K_OUTLIER, 20, 1, med, 0, 0 }, nseries);
	printf("\n#### Kernels (step +10%%, 3 boots each, median CoV)\n\n");
	table_head();
	for (int k = 10; k <= 60; k += k < 20 ? 10 : k < 40 ? 20 : 20) {
		run_cell(&(struct cell){ "step +10%", K_STEP, k, 3, med, 10, 0 }, nseries);
		run_cell(&(struct cell){ "no change", K_NONE, k, 3, med, 0, 0 }, nseries);
	}
	printf("\n#### Noise (20 kernels, 3 boots each; lowest, median and highest measured CoV)\n\n");
	table_head();
	for (i = 0; i < 3; i++) {
		double cov = i == 0 ? lo : i == 1 ? med : hi;

		for (size_t j = 0; j < 4; j++) {
			snprintf(what, sizeof(what), "step %+g%%", steps[j]);
			run_cell(&(struct cell){ what, K_STEP, 20, 3, cov, steps[j], 0 }, nseries);
		}
		run_cell(&(struct cell){ "one outlier", K_OUTLIER, 20, 3, cov, 0, 0 }, nseries);
	}
	printf("\n#### Boots in virtual time (--icount 1; 20 kernels, 3 boots each; median and "
	       "highest of the ten figures, worst of all 33)\n\n");
	table_head();
	for (i = 0; i < 3; i++) {
		double cov = i == 0 ? median_of(icount_cov, NICOV) :
			     i == 1 ? max_of(icount_cov, NICOV) : ICOUNT_WORST_COV;

		for (size_t j = 0; j < 4; j++) {
			snprintf(what, sizeof(what), "step %+g%%", steps[j]);
			run_cell(&(struct cell){ what, K_STEP, 20, 3, cov, steps[j], 0 }, nseries);
		}
		run_cell(&(struct cell){ "no change", K_NONE, 20, 3, cov, 0, 0 }, nseries);
		run_cell(&(struct cell){ "one outlier", K_OUTLIER, 20, 3, cov, 0, 0 }, nseries);
		run_cell(&(struct cell){ "variance x3 only", K_VARIANCE, 20, 3, cov, 0, 0 }, nseries);
	}
	/* last, so that every row above keeps its random numbers */
	printf("\n#### Pulses: a step undone 2 or 3 kernels later (20 kernels, 3 boots each; "
	       "both ends counted; real time at the median CoV, virtual time at the median and "
	       "highest of the ten figures and the worst of all 33)\n\n");
	table_head();
	for (i = 0; i < 4; i++) {
		double cov = i == 0 ? med : i == 1 ? median_of(icount_cov, NICOV) :
			     i == 2 ? max_of(icount_cov, NICOV) : ICOUNT_WORST_COV;

		for (int st = 10; st <= 20; st += 10)
			for (int w = 2; w <= 3; w++) {
				snprintf(what, sizeof(what), "pulse %+d%%, %d kernels", st, w);
				run_cell(&(struct cell){ what, K_PULSE, 20, 3, cov, st, w }, nseries);
			}
	}
	return 0;
}

/* --- boot folders --------------------------------------------------------------- */

struct boots_opts {
	const char *out, *names, *host;
	int kernels, boots, tests, step_at, step_tests, shuffle, damaged, total, beats;
	double cov, step;
};

static void kernel_name(const struct boots_opts *o, int k, char *buf, size_t len)
{
	if (strchr(o->names, ',')) {      /* a list of names, one per kernel */
		const char *p = o->names;
		int i;

		for (i = 0; i < k && strchr(p, ','); i++)
			p = strchr(p, ',') + 1;
		snprintf(buf, len, "%.*s", (int)strcspn(p, ","), p);
	} else if (!strcmp(o->names, "debian"))
		snprintf(buf, len, "6.1.0-%d-amd64", 10 + k);
	else if (!strcmp(o->names, "plain"))
		snprintf(buf, len, "6.1.%d", k + 1);
	else if (k % 10 < 7)       /* 6.M-rc1..rc7, 6.M, 6.M.1, 6.M.2 */
		snprintf(buf, len, "6.%d.0-rc%d", 1 + k / 10, k % 10 + 1);
	else if (k % 10 == 7)
		snprintf(buf, len, "6.%d.0", 1 + k / 10);
	else
		snprintf(buf, len, "6.%d.%d", 1 + k / 10, k % 10 - 7);
}

static int put_rec(FILE *f, const char *run, uint64_t seq, char type, const char *const *kv)
{
	struct bm_line l;
	int i;

	bm_line_start(&l, run, seq, type);
	for (i = 0; kv[i]; i += 2)
		bm_line_add(&l, kv[i], kv[i + 1]);
	if (bm_line_finish(&l) < 0)
		return -EINVAL;
	return fputs(l.buf, f) < 0 ? -EIO : 0;
}

static int write_log(const char *dir, const char *run, const char *rel,
		     const struct boots_opts *o, int k, int cut)
{
	char path[PATH_MAX], test[32], real[48], ut[48], st[48], n[64];
	uint64_t seq = 1;
	FILE *f;
	int t, rc = 0;

	if (bm_path(path, sizeof(path), "%s/results.log", dir) || !(f = fopen(path, "w")))
		return -EIO;
	{
		const char *h[] = { "v", "1", "kernel", rel, "machine", "x86_64", "cpu", "QEMU TCG CPU",
				    "ncpu", "2", "mem_kb", "1001234", "suite", "synthetic", "fs", "ext4",
				    NULL };

		rc |= put_rec(f, run, seq++, 'H', h);
	}
	for (t = 0; t < o->tests && !(cut && t == o->tests / 2); t++) {
		double base = 0.2 + 0.05 * (t % 11);
		double step = k >= o->step_at && o->step_at >= 0 && t < o->step_tests ? o->step : 0;
		double v = base * (1 + step / 100) * (1 + o->cov / 100 * normal());
		const char *r[] = { "wl", "dd", "test", test, "fs", "ext4", "rep", "1",
				    "params", "size=64M bs=1M", "mkfs", "mkfs.ext4 -F -q", "mount", "noatime",
				    "partial", "0", "m_real", real, "m_utime", ut, "m_stime", st, NULL };

		snprintf(test, sizeof(test), "dd%03dr", t);
		snprintf(real, sizeof(real), "%.6f:s", v > 0 ? v : base / 10);
		snprintf(ut, sizeof(ut), "%.4f:s", 0.01 + 0.001 * (t % 5));
		snprintf(st, sizeof(st), "%.4f:s", 0.1 * v);
		rc |= put_rec(f, run, seq++, 'R', r);
		for (int b = 0; b < o->beats; b++) {
			char when[32];
			const char *hb[] = { "phase", "run", "t", when, NULL };

			snprintf(when, sizeof(when), "%.1f", 2.0 + 0.5 * (double)(seq % 100000));
			rc |= put_rec(f, run, seq++, 'B', hb);
		}
	}
	if (!cut) {
		const char *z[] = { "n", n, "results", NULL, "errors", "0", NULL };
		char results[16];

		snprintf(n, sizeof(n), "%llu", (unsigned long long)seq);
		snprintf(results, sizeof(results), "%d", o->tests);
		z[3] = results;
		rc |= put_rec(f, run, seq, 'Z', z);
	}
	if (fclose(f))
		rc = -EIO;
	return rc;
}

/* 2026-01-01T00:00:00Z plus s seconds */
static void utc(char *buf, size_t len, long s)
{
	time_t t = 1767225600 + s;
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int write_meta(const char *dir, const char *label, const char *run, const char *rel,
		      const char *host, long when)
{
	char path[PATH_MAX], spec[160], start[32], end[32];
	struct bm_json j;
	FILE *f;

	if (bm_path(path, sizeof(path), "%s/meta.json", dir) || !(f = fopen(path, "w")))
		return -EIO;
	snprintf(spec, sizeof(spec), "deb:%s", rel);
	utc(start, sizeof(start), when);
	utc(end, sizeof(end), when + 20);
	bm_json_init(&j, f, 1);
	bm_json_obj_begin(&j);
	bm_json_kstr(&j, "label", label);
	bm_json_kstr(&j, "spec", spec);
	bm_json_kstr(&j, "kernel_release", rel);
	bm_json_kstr(&j, "run", run);
	bm_json_kstr(&j, "accel", "tcg");
	bm_json_key(&j, "host");
	bm_json_obj_begin(&j);
	bm_json_kstr(&j, "nodename", host);
	bm_json_obj_end(&j);
	bm_json_kstr(&j, "start", start);
	bm_json_kstr(&j, "end", end);
	bm_json_kstr(&j, "watchdog", "exited");
	bm_json_kstr(&j, "watchdog_why", "");
	bm_json_kint(&j, "qemu_exit", 0);
	bm_json_key(&j, "qemu_signal");
	bm_json_null(&j);
	bm_json_kint(&j, "icount", 0);
	bm_json_obj_end(&j);
	fputc('\n', f);
	return fclose(f) ? -EIO : 0;
}

/* Boots of kernel k: --boots each, or --total spread over the kernels
 * (the first ones get one more). */
static int boots_of(const struct boots_opts *o, int k)
{
	if (!o->total)
		return o->boots;
	return o->total / o->kernels + (k < o->total % o->kernels);
}

static int boots(const struct boots_opts *o)
{
	int k, b, total = 0, i = 0;
	long *when;

	for (k = 0; k < o->kernels; k++)
		total += boots_of(o, k);
	when = malloc((size_t)total * sizeof(long));
	if (!when || bm_mkdir_p(o->out, 0755))
		return 111;
	for (k = 0; k < total; k++)
		when[k] = 600L * k;
	for (k = total - 1; o->shuffle && k > 0; k--) {   /* Fisher-Yates */
		int r = unif_int(0, k);
		long t = when[k];

		when[k] = when[r];
		when[r] = t;
	}
	for (k = 0; k < o->kernels; k++)
		for (b = 1; b <= boots_of(o, k); b++, i++) {
			char rel[64], label[96], dir[PATH_MAX], run[16], path[PATH_MAX];
			FILE *f;

			kernel_name(o, k, rel, sizeof(rel));
			snprintf(label, sizeof(label), "%s.b%d", rel, b);
			snprintf(run, sizeof(run), "%08x", (unsigned)(rnd() & 0xffffffffu));
			if (bm_path(dir, sizeof(dir), "%s/%s", o->out, label) || bm_mkdir_p(dir, 0755) ||
			    write_log(dir, run, rel, o, k, i >= total - o->damaged) ||
			    write_meta(dir, label, run, rel, o->host, when[i]) ||
			    bm_path(path, sizeof(path), "%s/console.log", dir) || !(f = fopen(path, "w"))) {
				fprintf(stderr, "history_gen: cannot write %s\n", dir);
				free(when);
				return 111;
			}
			fprintf(f, "[    0.000000] Linux version %s (synthetic)\n", rel);
			fclose(f);
		}
	free(when);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: history_gen accuracy [--series N] [--seed S]\n"
			"       history_gen boots --out DIR [--kernels K] [--boots B | --total N] [--tests T] "
			"[--cov PCT]\n"
			"                   [--step KERNEL:PCT[:TESTS]] [--names rc|debian|plain|N1,N2,..] "
			"[--shuffle]\n"
			"                   [--damaged N] [--host NAME] [--beats N] [--seed S]\n");
	return 100;
}

int main(int argc, char **argv)
{
	struct boots_opts o = { .names = "rc", .host = "synthetic-host", .kernels = 4, .boots = 2,
				.tests = 10, .step_at = -1, .cov = 1 };
	int i, nseries = 200;

	if (argc < 2)
		return usage();
	rng_state = 1;
	for (i = 2; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--shuffle")) {
			o.shuffle = 1;
			continue;
		}
		if (!v)
			return usage();
		i++;
		if (!strcmp(a, "--series"))
			nseries = atoi(v);
		else if (!strcmp(a, "--seed"))
			rng_state = strtoull(v, NULL, 10);
		else if (!strcmp(a, "--out"))
			o.out = v;
		else if (!strcmp(a, "--kernels"))
			o.kernels = atoi(v);
		else if (!strcmp(a, "--boots"))
			o.boots = atoi(v);
		else if (!strcmp(a, "--total"))
			o.total = atoi(v);
		else if (!strcmp(a, "--tests"))
			o.tests = atoi(v);
		else if (!strcmp(a, "--cov"))
			o.cov = atof(v);
		else if (!strcmp(a, "--names"))
			o.names = v;
		else if (!strcmp(a, "--host"))
			o.host = v;
		else if (!strcmp(a, "--damaged"))
			o.damaged = atoi(v);
		else if (!strcmp(a, "--beats"))
			o.beats = atoi(v);
		else if (!strcmp(a, "--step")) {
			o.step_tests = INT_MAX;
			if (sscanf(v, "%d:%lf:%d", &o.step_at, &o.step, &o.step_tests) < 2)
				return usage();
		} else
			return usage();
	}
	if (!strcmp(argv[1], "accuracy"))
		return nseries > 0 ? accuracy(nseries) : usage();
	if (!strcmp(argv[1], "boots") && o.out && o.kernels > 0 && o.boots > 0 && o.tests > 0)
		return boots(&o);
	return usage();
}
