/* SPDX-License-Identifier: MIT */
/*
 * bootmark compare end to end on fixture boots: two run directories whose
 * results.log files are written by the real encoder (bm_line_*), with a
 * known slowdown of the second kernel, and one boot that lost its END.
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

static char *run_compare(char *const *dirs, int nd, enum bm_cmp_fmt fmt, int *rc)
{
	struct bm_compare_opts o = { .fmt = fmt, .alpha = 0.01, .color = 0 };
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
	tap_ok(strstr(out, "dd32w real EXT4 6.12.117+deb12: 1.50 vs 1.00 s (+50.00%") != NULL,
	       "slower real listed as a regression");
	tap_ok(strstr(out, "dd32w bw EXT4 6.12.117+deb12:") != NULL &&
	       strstr(out, "bw (MiB/s, higher is better, hmean)") != NULL,
	       "bandwidth drop is a regression too, by hmean");
	tap_ok(strstr(out, "Significant improvements:\n  none\n") != NULL, "no improvement");
	line_with(strstr(out, ": dd32w : extents") ? strstr(out, ": dd32w : extents") : "",
		  "EXT4 6.12.117+deb12", line, sizeof(line));
	tap_ok(line[0] && !strstr(line, "nan") && !strstr(line, " *") && strstr(line, "+0.00%"),
	       "identical counts: no NaN, no mark: %s", line);
	free(out);

	out = run_compare(dirs, 2, BM_CMP_CSV, &rc);
	tap_ok(!rc && strstr(out, "dd,dd32w,ext4,real,s,6.12.117+deb12-amd64,6.1.0-53-amd64,3,mean,1.5,")
	       && strstr(out, ",1,lower,regression\n"), "CSV row of the regression");
	free(out);
	out = run_compare(dirs, 2, BM_CMP_JSON, &rc);
	tap_ok(!rc && strstr(out, "\"verdict\": \"regression\"") && strstr(out, "\"status\": \"panic\""),
	       "JSON has the verdict and the missing boot");
	free(out);
	out = run_compare(dirs, 1, BM_CMP_MARKDOWN, &rc);
	tap_ok(!rc && strstr(out, "### dd32w: real") && !strstr(out, "\\*") &&
	       strstr(out, "Significant regressions:\n- none\n"),
	       "one kernel alone: Markdown blocks, nothing to compare against");
	free(out);

	snprintf(p, sizeof(p), "%s/nothing", tmp);
	mkdir(p, 0755);
	dirs[0] = p;
	out = run_compare(dirs, 1, BM_CMP_TEXT, &rc);
	TAP_EQ_INT(rc, -EINVAL, "a directory without boots is bad input");
	free(out);
	bm_rm_rf(tmp);
	return tap_done();
}
