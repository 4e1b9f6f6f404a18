// SPDX-License-Identifier: MIT
/*
 * Synthetic histories for bootmark history (docs/history.md, "Accuracy").
 *
 *   history_gen accuracy [--series N] [--seed S]
 *       precision and recall of history changes' search, per step size and
 *       against the naive method (Welch between neighbouring kernels, no
 *       correction), as the Markdown tables of docs/history.md.  The series
 *       are searched and decided by the same functions history changes
 *       calls (bm_cp_search, bm_cp_decide), one series per history; the last
 *       table boots again as history changes --confirm does (bm_cp_confirm_want:
 *       one more boot of each kernel it marks, a round, until none or the budget).
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

#include "history_gen.h"
#include "json.h"
#include "proto.h"
#include "util.h"

/* --- a small deterministic generator (splitmix64, Box-Muller) -------------------- */

uint64_t rng_state;

uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

double unif(void)
{
	return ((double)(rnd() >> 11) + 0.5) / 9007199254740992.0;
}

double normal(void)
{
	return sqrt(-2 * log(unif())) * cos(2 * M_PI * unif());
}

int unif_int(int lo, int hi)
{
	return lo + (int)(rnd() % (uint64_t)(hi - lo + 1));
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
