/* SPDX-License-Identifier: MIT */
/*
 * bootmark compare end to end on fixture boots: two run directories whose
 * results.log files are written by the real encoder (bm_line_*), with a
 * known slowdown of the second kernel, and one boot that lost its END; then
 * the rules that make a change (docs/results.md): the Benjamini-Hochberg
 * family, --min-change, --min-abs-time and the headline grouping.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare.h"
#include "proto.h"
#include "tap.h"
#include "testutil.h"
#include "util.h"

#define RUN "c0ffee02"

static void put(FILE *f, struct bm_line *l)
{
	if (bm_line_finish(l) <= 0)
		tap_bail("encoder failed");
	fputs(l->buf, f);
}

/* One boot: HELLO, one dd result with real and bw, END unless cut. */
static void boot(const char *dir, const char *kernel, double real, int end)
{
	char path[PATH_MAX];
	struct bm_line l;
	FILE *f = NULL;

	if (mkdir(dir, 0755) || bm_path(path, sizeof(path), "%s/results.log", dir) ||
	    !(f = fopen(path, "w"))) {
		tap_bail("cannot create a fixture boot");
		return;
	}
	bm_line_start(&l, RUN, 1, 'H');
	bm_line_add(&l, "v", "1");
	bm_line_add(&l, "kernel", kernel);
	bm_line_add(&l, "suite", "smoke");
	put(f, &l);
	bm_line_start(&l, RUN, 2, 'R');
	bm_line_add(&l, "wl", "dd");
	bm_line_add(&l, "test", "dd32w");
	bm_line_add(&l, "fs", "ext4");
	bm_line_add(&l, "rep", "1");
	bm_line_add(&l, "partial", "0");
	bm_line_addf(&l, "m_real", "%.3f:s", real);
	bm_line_addf(&l, "m_bw", "%.3f:MiB/s", 32 / real);
	bm_line_add(&l, "m_extents", "1:count");
	put(f, &l);
	if (end) {
		bm_line_start(&l, RUN, 3, 'Z');
		bm_line_add(&l, "n", "3");
		bm_line_add(&l, "results", "1");
		bm_line_add(&l, "errors", "0");
		put(f, &l);
	}
	fclose(f);
	/* no END because the kernel panicked: a boot whose results are not
	 * trusted (a merely damaged stream would keep them) */
	if (!end && (bm_path(path, sizeof(path), "%s/console.log", dir) ||
		     bm_write_file_atomic(path, "Kernel panic - not syncing: test\n", 33)))
		tap_bail("cannot write a fixture console");
}

/* One boot with one R record of wl/test whose metrics are the words
 * "name=value:unit" of ms, each value times 1 + rel. */
static void boot_kv(const char *dir, const char *kernel, const char *wl, const char *test,
		    const char *ms, double rel)
{
	char path[PATH_MAX], word[128], name[64];
	struct bm_line l;
	const char *p = ms;
	FILE *f = NULL;
	int n;

	if (mkdir(dir, 0755) || bm_path(path, sizeof(path), "%s/results.log", dir) ||
	    !(f = fopen(path, "w"))) {
		tap_bail("cannot create a fixture boot");
		return;
	}
	bm_line_start(&l, RUN, 1, 'H');
	bm_line_add(&l, "v", "1");
	bm_line_add(&l, "kernel", kernel);
	put(f, &l);
	bm_line_start(&l, RUN, 2, 'R');
	bm_line_add(&l, "wl", wl);
	bm_line_add(&l, "test", test);
	bm_line_add(&l, "fs", "ext4");
	bm_line_add(&l, "rep", "1");
	bm_line_add(&l, "partial", "0");
	while (sscanf(p, " %127s%n", word, &n) == 1) {
		char *eq = strchr(word, '='), *colon = strchr(word, ':');

		p += n;
		if (!eq || !colon)
			tap_bail("bad fixture word");
		snprintf(name, sizeof(name), "m_%.*s", (int)(eq - word), word);
		bm_line_addf(&l, name, "%.9g:%s", strtod(eq + 1, NULL) * (1 + rel), colon + 1);
	}
	put(f, &l);
	bm_line_start(&l, RUN, 3, 'Z');
	bm_line_add(&l, "n", "3");
	bm_line_add(&l, "results", "1");
	bm_line_add(&l, "errors", "0");
	put(f, &l);
	fclose(f);
}

static const struct bm_cmp_rules rules_default = { .alpha = 0.01, .min_change = 5,
						   .min_abs_time = 0.01 };

static char *run_compare(char *const *dirs, int nd, enum bm_cmp_fmt fmt, int *rc)
{
	struct bm_compare_opts o = { .fmt = fmt, .rules = rules_default, .color = 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		tap_bail("open_memstream");
	*rc = bm_compare(f, dirs, nd, &o);
	fclose(f);
	return buf;
}

static const char *line_with(const char *text, const char *what, char *buf, size_t len)
{
	const char *p = strstr(text, what), *s, *e;

	if (!p)
		return "";
	for (s = p; s > text && s[-1] != '\n'; s--)
		;
	e = strchr(p, '\n');
	snprintf(buf, len, "%.*s", (int)(e ? e - s : (long)strlen(s)), s);
	return buf;
}

static void build(struct bm_cmp *c, const char *dir, const struct bm_cmp_rules *ru)
{
	memset(c, 0, sizeof(*c));
	if (bm_cmp_add_dir(c, dir) || bm_cmp_build(c, ru))
		tap_bail("compare of a fixture failed");
}

static const struct bm_cmp_row *row(const struct bm_cmp *c, const char *metric, int k)
{
	size_t i;

	for (i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i].metric, metric) && c->rows[i].kidx == k)
			return &c->rows[i];
	tap_bail("no such row");
	return NULL;
}

/*
 * Samples are a value times 1, 1 + e, 1 - e (n = 3 a side); p-values from
 * scipy.stats.ttest_ind(equal_var=False) (Welch): e = 2%, B 10% higher:
 * t = 5.83, p = 0.00445; B 1% higher: p = 0.575.  e = 0.2%, B 2% higher:
 * p = 0.000266; 14 us against 4.1 ms: p = 1.3e-06.
 */
static void rules(const char *tmp)
{
	static const double e2[] = { 0, 0.02, -0.02 }, e02[] = { 0, 0.002, -0.002 };
	static const char noise_a[] = "n1=10:count n2=20:count n3=30:count n4=40:count "
				      "n5=50:count n6=60:count n7=70:count n8=80:count n9=90:count";
	static const char noise_b[] = "n1=10.1:count n2=20.2:count n3=30.3:count n4=40.4:count "
				      "n5=50.5:count n6=60.6:count n7=70.7:count n8=80.8:count "
				      "n9=90.9:count";
	char d[PATH_MAX], b[PATH_MAX * 2], ms[512];
	struct bm_cmp_rules ru = rules_default;
	const struct bm_cmp_row *r;
	struct bm_cmp c;
	int i, j;

	/* 1: the same +10% change alone and among 9 unchanged metrics */
	for (j = 0; j < 2; j++) {
		snprintf(d, sizeof(d), "%s/family%d", tmp, j);
		mkdir(d, 0755);
		for (i = 0; i < 3; i++) {
			snprintf(b, sizeof(b), "%s/a.b%d", d, i + 1);
			snprintf(ms, sizeof(ms), "real=1:s %s", j ? noise_a : "");
			boot_kv(b, "6.1.0-1-amd64", "dd", "dd32w", ms, e2[i]);
			snprintf(b, sizeof(b), "%s/b.b%d", d, i + 1);
			snprintf(ms, sizeof(ms), "real=1.1:s %s", j ? noise_b : "");
			boot_kv(b, "6.1.0-2-amd64", "dd", "dd32w", ms, e2[i]);
		}
		build(&c, d, &ru);
		r = row(&c, "real", 1);
		if (!j) {
			tap_ok(fabs(r->p_welch - 0.004447005) < 1e-8 && r->q == r->p_welch &&
			       r->changed && r->verdict < 0 && c.nentries == 1 && c.entries[0].head == r,
			       "alone: q = p = %.5f <= 0.01, a regression", r->q);
		} else {
			tap_ok(c.ntested == 10 && fabs(r->q - 10 * r->p_welch) < 1e-12 && !r->sig &&
			       !r->changed && r->big && c.nentries == 0,
			       "among 10 tests: q = 10 p = %.4f > 0.01, no finding (p alone would be one)",
			       r->q);
			tap_ok(fabs(row(&c, "n5", 1)->q - 0.5752281616) < 1e-8,
			       "the 9 others: q = max(p) = 0.575 (%.9f)", row(&c, "n5", 1)->q);
			ru.alpha = 0.05;
			bm_cmp_free(&c);
			build(&c, d, &ru);
			r = row(&c, "real", 1);
			tap_ok(r->changed && c.nentries == 1, "--alpha 0.05: a regression again");
			ru.alpha = 0.01;
		}
		bm_cmp_free(&c);
	}

	/* 2: lmdd's headline rate unchanged; process user time 14 us -> 4.1 ms,
	 * stime +2% and real +20%, all three significant */
	snprintf(d, sizeof(d), "%s/minchange", tmp);
	mkdir(d, 0755);
	for (i = 0; i < 3; i++) {
		snprintf(b, sizeof(b), "%s/a.b%d", d, i + 1);
		boot_kv(b, "6.1.0-1-amd64", "lmdd", "lmdd-r-4k",
			"rate=100:MB/s putime=0.000014:s stime=1:s real=0.5:s", e02[i]);
		snprintf(b, sizeof(b), "%s/b.b%d", d, i + 1);
		boot_kv(b, "6.1.0-2-amd64", "lmdd", "lmdd-r-4k",
			"rate=100:MB/s putime=0.0041:s stime=1.02:s real=0.6:s", e02[i]);
	}
	build(&c, d, &ru);
	r = row(&c, "putime", 1);
	tap_ok(r->sig && r->change > 28000 && !r->big && !r->changed,
	       "putime %+.0f%% (q %.2g) is 4.1 ms: below --min-abs-time 10ms, no change", r->change, r->q);
	r = row(&c, "stime", 1);
	tap_ok(r->sig && !r->big && !r->changed, "stime +2%%: significant (q %.2g) but below 5%%", r->q);
	r = row(&c, "real", 1);
	tap_ok(r->changed && r->verdict < 0 && !r->headline, "real +20%%: a change (%+.1f%%, q %.2g)",
	       r->change, r->q);
	r = row(&c, "rate", 1);
	tap_ok(r->headline && !r->changed, "rate is lmdd's headline, unchanged");
	tap_ok(c.nentries == 1 && c.entries[0].kind == BM_KIND_OTHER && c.entries[0].head == r &&
	       c.entries[0].nsec == 1 && !strcmp(c.entries[0].sec[0]->metric, "real"),
	       "one entry, not a finding: headline unchanged, real changed under it");
	bm_cmp_free(&c);
	ru.min_change = 1;
	ru.min_abs_time = 0;
	build(&c, d, &ru);
	tap_ok(row(&c, "stime", 1)->changed && row(&c, "putime", 1)->changed &&
	       c.nentries == 1 && c.entries[0].nsec == 3,
	       "--min-change 1 --min-abs-time 0: stime and putime are changes too");
	bm_cmp_free(&c);
}

int main(void)
{
	static const double a[] = { 1.00, 1.02, 0.98 }, b[] = { 1.50, 1.53, 1.47 };
	char tmp[] = "/tmp/bm-compare-XXXXXX", d1[PATH_MAX], d2[PATH_MAX], p[PATH_MAX * 2];
	char line[512], *out;
	char *dirs[2] = { d1, d2 };
	int i, rc;

	tap_plan(0);
	tu_mkdtemp(tmp);
	snprintf(d1, sizeof(d1), "%s/old", tmp);
	snprintf(d2, sizeof(d2), "%s/new", tmp);
	if (mkdir(d1, 0755) || mkdir(d2, 0755))
		tap_bail("mkdir");
	for (i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/6.1.0-53-amd64.b%d", d1, i + 1);
		boot(p, "6.1.0-53-amd64", a[i], 1);
		snprintf(p, sizeof(p), "%s/6.12.117+deb12-amd64.b%d", d2, i + 1);
		boot(p, "6.12.117+deb12-amd64", b[i], 1);
	}
	snprintf(p, sizeof(p), "%s/6.12.117+deb12-amd64.b4", d2);
	boot(p, "6.12.117+deb12-amd64", 0.5, 0);  /* panicked: must not count */

	out = run_compare(dirs, 2, BM_CMP_TEXT, &rc);
	TAP_EQ_INT(rc, 0, "compare succeeds");
	tap_ok(strstr(out, "baseline 6.1.0-53-amd64") != NULL, "first kernel is the baseline");
	line_with(out, "boot 4 of 4", line, sizeof(line));
	tap_ok(strstr(line, "6.12.117+deb12: boot 4 of 4 (6.12.117+deb12-amd64.b4): "
			    "panic") && strstr(line, "results missing"),
	       "boot that panicked listed as missing: %s", line);
	tap_ok(strstr(out, ": dd32w : real (s, lower is better)") != NULL, "seed-style block header");
	line_with(strstr(out, ": dd32w : real") ? strstr(out, ": dd32w : real") : "",
		  "EXT4 6.12.117+deb12:", line, sizeof(line));
	/* mean 1.5 vs 1.0: +50%, and the cut boot's 0.5 is not in it */
	tap_ok(strstr(line, "  3 ") && strstr(line, "+50.00%") && strstr(line, " *"),
	       "row has n=3, +50.00%% and the mark: %s", line);
	tap_ok(strstr(out, "Significant regressions:\n  dd32w real EXT4 6.12.117+deb12: 1.50 vs 1.00 s "
			   "(+50.00%") != NULL,
	       "slower real (dd's headline) listed as the test's regression");
	line_with(out, "      bw: ", line, sizeof(line));
	tap_ok(strstr(line, "(-33.33%") && strstr(line, " regression") &&
	       strstr(strstr(out, "dd32w real EXT4"), "      bw: ") == strchr(strstr(out, "dd32w real EXT4"), '\n') + 1 &&
	       strstr(out, "bw (MiB/s, higher is better, hmean)") != NULL,
	       "bandwidth drop (by hmean) listed under it, not as a finding of its own: %s", line);
	tap_ok(!strstr(out, "dd32w bw EXT4"), "no second finding for the same test");
	tap_ok(strstr(out, "Significant improvements:\n  none\n") != NULL, "no improvement");
	tap_ok(strstr(out, "over the 2 Welch tests against the baseline (1 more rows untested") != NULL,
	       "the family: real and bw; extents has no variance");
	line_with(strstr(out, ": dd32w : extents") ? strstr(out, ": dd32w : extents") : "",
		  "EXT4 6.12.117+deb12", line, sizeof(line));
	tap_ok(line[0] && !strstr(line, "nan") && !strstr(line, " *") && strstr(line, "+0.00%"),
	       "identical counts: no NaN, no mark: %s", line);
	free(out);

	out = run_compare(dirs, 2, BM_CMP_CSV, &rc);
	tap_ok(!rc && strstr(out, "dd,dd32w,ext4,real,s,6.12.117+deb12-amd64,6.1.0-53-amd64,3,mean,1.5,")
	       && strstr(out, ",1,1,lower,regression,1,dd/dd32w/ext4\n"), "CSV row of the regression");
	free(out);
	out = run_compare(dirs, 2, BM_CMP_JSON, &rc);
	tap_ok(!rc && strstr(out, "\"verdict\": \"regression\"") && strstr(out, "\"status\": \"panic\""),
	       "JSON has the verdict and the missing boot");
	tap_ok(strstr(out, "\"findings\": [\n    {\n      \"kind\": \"regression\"") &&
	       strstr(out, "\"group\": \"dd/dd32w/ext4\",\n      \"headline\": {\n        \"metric\": \"real\"") &&
	       strstr(out, "\"secondary\": [\n        {\n          \"metric\": \"bw\""),
	       "JSON findings: one regression, headline real, bw secondary");
	tap_ok(strstr(out, "\"tested\": 2") && strstr(out, "\"min_abs_time_s\": 0.01") &&
	       strstr(out, "\"q_bh\": ") && strstr(out, "\"headline\": true"),
	       "JSON rules and per-row q, headline flag");
	free(out);
	out = run_compare(dirs, 2, BM_CMP_MMTESTS, &rc);
	line_with(out, "Amean     real-dd32w ", line, sizeof(line));
	/* lower is better: +50% of time is a gain of -50%, a change: between stars */
	tap_ok(!rc && strstr(line, "1.00 (   0.00%)") && strstr(line, "1.50 * -50.00%*"),
	       "mmtests: the baseline's real, then the slower kernel's, starred: %s", line);
	line_with(out, "Hmean     bw-dd32w ", line, sizeof(line));
	tap_ok(strstr(line, "21.33 * -33.33%*") != NULL, "mmtests: bw by hmean, its drop starred: %s", line);
	line_with(out, "Amean     extents-dd32w ", line, sizeof(line));
	tap_ok(strstr(line, "(   0.00%)") && !strchr(line, '*'),
	       "mmtests: an unchanged count, no star: %s", line);
	tap_ok(strstr(out, "\ndd ext4\n") && strstr(out, "6.1.0-53") < strstr(out, "6.12.117+deb12") &&
	       strstr(out, "missing: 6.12.117+deb12: boot 4 of 4"),
	       "mmtests: a section per workload and fs, the kernels as columns, the missing boot");
	free(out);
	out = run_compare(dirs, 1, BM_CMP_MARKDOWN, &rc);
	tap_ok(!rc && strstr(out, "### dd32w: real") && !strstr(out, "\\*") &&
	       strstr(out, "Significant regressions:\n- none\n"),
	       "one kernel alone: Markdown blocks, nothing to compare against");
	free(out);

	rules(tmp);

	snprintf(p, sizeof(p), "%s/nothing", tmp);
	mkdir(p, 0755);
	dirs[0] = p;
	out = run_compare(dirs, 1, BM_CMP_TEXT, &rc);
	TAP_EQ_INT(rc, -EINVAL, "a directory without boots is bad input");
	free(out);
	bm_rm_rf(tmp);
	return tap_done();
}
