/* SPDX-License-Identifier: MIT */
/*
 * Issue 43, case 11: a value that cannot be a measurement ("m_real=nan:s", "-1:s", ":s",
 * "1,5:s", END "tests=-1", or tests=0 with results) came with a valid CRC,
 * was dropped without a word, and the boot stayed completed: the gate then
 * said "boot each kernel twice or more" with three boots, or passed a
 * negative time as an improvement, and history changes passed over it.  It
 * is the host's error now: protocol-error, the reason naming record and
 * value, and the gate's and history's words say what was missing.  What is
 * impossible comes from the metric's definition: aim7's jti may be negative.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot.h"
#include "cli.h"
#include "results.h"
#include "tap.h"
#include "testcli.h"
#include "testrec.h"
#include "testutil.h"
#include "util.h"

static char tmp[] = "/tmp/bm-values.XXXXXX";

/* A boot of one result of workload wl (metrics "m_a=v:u m_b=v:u", no spaces
 * in values) and END's extra pairs ("tests=1"); into f. */
static void boot_log(FILE *f, const char *run, const char *wl, const char *metrics,
		     const char *end_extra)
{
	/* the kernel from the run id: runs "b..." are another kernel's */
	const char *h[] = { "v", "1", "kernel", run[0] == 'b' ? "6.12.1-amd64" : "6.1.0-53-amd64",
			    "fs", "ext4", NULL };
	const char *kv[40] = { "wl", wl, "test", "t1", "fs", "ext4", "rep", "1", "params", "x=1",
			       "mkfs", "", "mount", "", "partial", "0" };
	char buf[512], ebuf[128], *save = NULL, *tok;
	const char *z[16] = { "n", "3", "results", "1", "errors", "0" };
	int n = 16, k = 6;

	snprintf(buf, sizeof(buf), "%s", metrics);
	for (tok = strtok_r(buf, " ", &save); tok && n < 38; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');

		*eq = '\0';
		kv[n++] = tok;
		kv[n++] = eq + 1;
	}
	kv[n] = NULL;
	snprintf(ebuf, sizeof(ebuf), "%s", end_extra);
	for (tok = strtok_r(ebuf, " ", &save); tok && k < 14; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');

		*eq = '\0';
		z[k++] = tok;
		z[k++] = eq + 1;
	}
	z[k] = NULL;
	tu_put_rec(f, run, 1, 'H', h);
	tu_put_rec(f, run, 2, 'R', kv);
	tu_put_rec(f, run, 3, 'Z', z);
}

static void judge(struct bm_results *r, const char *wl, const char *metrics, const char *end)
{
	struct bm_stream s;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	boot_log(f, "5eed0043", wl, metrics, end);
	fclose(f);
	bm_stream_init(&s, "");
	bm_stream_feed_text(&s, text, len);
	if (bm_results_from_stream(r, &s))
		tap_bail("results");
	bm_classify(r, NULL, BM_WATCH_NONE, NULL);
	bm_stream_free(&s);
	free(text);
}

static void test_bad_values(void)
{
	static const char *const bad[] = { "nan:s", "inf:s", "-inf:s", "-1:s", ":s", "1,5:s",
					   "1e400:s", "0x10:s", "1.5", "1.5:", "\t1:s", "1.5:sssssssssssssssssss" };
	char metrics[128], want[64];
	struct bm_results r;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(metrics, sizeof(metrics), "m_real=%s m_bw=10:MiB/s", bad[i]);
		judge(&r, "dd", metrics, "tests=1");
		snprintf(want, sizeof(want), "m_real=%s", strcmp(bad[i], "\t1:s") ? bad[i] : "?1:s");
		tap_ok(r.status == BM_ST_PROTOCOL_ERROR && strstr(r.status_why, want) &&
		       strstr(r.status_why, "R record seq 2 (ext4 t1 rep 1)"),
		       "m_real=%s: protocol-error, the value named: %s", bad[i], r.status_why);
		tap_ok(r.nres == 1 && !bm_rres_metric(&r.res[0], "real") &&
		       bm_rres_metric(&r.res[0], "bw"),
		       "... kept out of the values, the record's others kept");
		bm_results_free(&r);
	}
	judge(&r, "dd", "m_real=1.5:s m_bw=-1:MiB/s", "tests=1");
	tap_ok(r.status == BM_ST_PROTOCOL_ERROR && strstr(r.status_why, "m_bw=-1:MiB/s") &&
	       strstr(r.status_why, "below zero"), "a negative rate: %s", r.status_why);
	bm_results_free(&r);
}

static void test_good_values(void)
{
	static const struct {
		const char *wl, *metrics;
	} good[] = {
		{ "dd", "m_real=0:s m_bw=0:MiB/s m_extents=0:count" },
		{ "dd", "m_real=-0:s m_bw=1e3:MiB/s" },
		{ "dd", "m_real=.5:s m_newthing=-3:zz" },  /* a metric no description lists */
		{ "aim7", "m_real=2.5:s m_jti=-50:% m_jobs_min=1200.5:jobs/min" },
	};
	struct bm_results r;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		judge(&r, good[i].wl, good[i].metrics, "tests=1");
		tap_ok(r.status == BM_ST_COMPLETED, "%s %s: %s %s", good[i].wl, good[i].metrics,
		       bm_status_name(r.status), r.status_why);
		bm_results_free(&r);
	}
	judge(&r, "aim7", "m_real=2.5:s m_jti=-50:%", "tests=1");
	tap_ok(bm_rres_value(&r.res[0], "jti", 0) == -50, "aim7's jti of -50 is kept");
	bm_results_free(&r);
}

static void test_end_counts(void)
{
	static const struct {
		const char *end, *why;
	} bad[] = {
		{ "tests=-1", "tests=-1 is not a count" },
		{ "tests=abc", "tests=abc is not a count" },
		{ "tests=0", "tests=0 plans fewer tests than the 1 result records that arrived" },
		{ "tests=1 raw=-1", "raw=-1 is not a count" },
	};
	struct bm_results r;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		judge(&r, "dd", "m_real=1:s", bad[i].end);
		tap_ok(r.status == BM_ST_PROTOCOL_ERROR && strstr(r.status_why, bad[i].why),
		       "END %s: %s", bad[i].end, r.status_why);
		bm_results_free(&r);
	}
}

/* A boot folder root/label of one dd result (metrics as boot_log). */
static void boot_dir(const char *root, const char *label, const char *run, const char *metrics)
{
	char dir[PATH_MAX], path[PATH_MAX];
	FILE *f = NULL;

	if (bm_path(dir, sizeof(dir), "%s/%s", root, label) || bm_mkdir_p(dir, 0755) ||
	    bm_path(path, sizeof(path), "%s/results.log", dir) || !(f = fopen(path, "w")))
		tap_bail("cannot make a boot folder");
	boot_log(f, run, "dd", metrics, "tests=1");
	fclose(f);
	if (bm_path(path, sizeof(path), "%s/console.log", dir) || !(f = fopen(path, "w")))
		tap_bail("cannot make a console.log");
	fputs("[    0.000000] Linux version 6.1.0-53-amd64\n", f);
	fclose(f);
}

/* Two kernels of three boots each; kernel B's boots get b1, b2, b3. */
static void two_kernels(const char *root, const char *b1, const char *b2, const char *b3)
{
	static const char *const a[] = { "m_real=1.00:s", "m_real=1.02:s", "m_real=0.98:s" };
	const char *b[] = { b1, b2, b3 };
	char label[32], run[16];
	int i;

	bm_rm_rf(root);
	for (i = 0; i < 3; i++) {
		snprintf(label, sizeof(label), "kA.b%d", i + 1);
		snprintf(run, sizeof(run), "a000000%d", i + 1);
		boot_dir(root, label, run, a[i]);
		snprintf(label, sizeof(label), "kB.b%d", i + 1);
		snprintf(run, sizeof(run), "b000000%d", i + 1);
		boot_dir(root, label, run, b[i]);
	}
}

static void test_gate(void)
{
	char root[PATH_MAX], *out;
	const char *argv[] = { "compare", "--fail-on", "regression", root, NULL };
	int rc;

	snprintf(root, sizeof(root), "%s/gate", tmp);
	two_kernels(root, "m_real=1.5:s", "m_real=nan:s", "m_real=1.49:s");
	rc = tu_run_cmd(bm_cmd_compare, argv, &out, NULL);
	tap_ok(rc == 19 && strstr(out, "kB.b2 did not complete (protocol-error)") &&
	       strstr(out, "m_real=nan:s"), "a NaN among three boots: the gate names the boot "
	       "and the value, exit 19 (got %d)", rc);
	tap_ok(!strstr(out, "twice or more"), "... and asks for no more boots");
	free(out);

	two_kernels(root, "m_real=-1:s", "m_real=-1:s", "m_real=-1:s");
	rc = tu_run_cmd(bm_cmd_compare, argv, &out, NULL);
	tap_ok(rc == 19 && strstr(out, "m_real=-1:s") && strstr(out, "below zero"),
	       "a negative time is no improvement: exit 19 (got %d)", rc);
	free(out);

	/* complete boots whose records lack the headline metric */
	two_kernels(root, "m_bw=10:MiB/s", "m_bw=10:MiB/s", "m_bw=10:MiB/s");
	bm_rm_rf(root);
	two_kernels(root, "m_bw=10:MiB/s", "m_bw=11:MiB/s", "m_bw=12:MiB/s");
	{
		char path[PATH_MAX];
		int i;

		/* kernel A's records without m_real too */
		for (i = 1; i <= 3; i++) {
			char run[16];
			FILE *f = NULL;

			if (bm_path(path, sizeof(path), "%s/kA.b%d/results.log", root, i))
				tap_bail("path");
			snprintf(run, sizeof(run), "a000000%d", i);
			f = fopen(path, "w");
			if (!f)
				tap_bail("cannot rewrite a log");
			boot_log(f, run, "dd", "m_bw=10:MiB/s", "tests=1");
			fclose(f);
		}
	}
	rc = tu_run_cmd(bm_cmd_compare, argv, &out, NULL);
	tap_ok(rc == 100 && strstr(out, "every kernel has 3 boots or more") &&
	       !strstr(out, "twice or more"), "records without the headline metric: said so, "
	       "not \"boot twice\" (exit %d)", rc);
	free(out);

	bm_rm_rf(root);
	boot_dir(root, "kA", "a0000001", "m_real=1:s");
	boot_dir(root, "kB", "b0000001", "m_real=1:s");
	rc = tu_run_cmd(bm_cmd_compare, argv, &out, NULL);
	tap_ok(rc == 100 && strstr(out, "has 1 boot; boot each kernel twice or more"),
	       "one boot each: boot twice or more (exit %d)", rc);
	free(out);
	bm_rm_rf(root);
}

static void test_history(void)
{
	char root[PATH_MAX], db[PATH_MAX], *out;
	const char *add[] = { "history", "add", "--db", db, root, NULL };
	const char *chg[] = { "history", "changes", "--db", db, NULL };
	int rc;

	snprintf(root, sizeof(root), "%s/hist", tmp);
	snprintf(db, sizeof(db), "%s/h.db", tmp);
	two_kernels(root, "m_real=inf:s", "m_real=inf:s", "m_real=inf:s");
	rc = tu_run_cmd(bm_cmd_history, add, &out, NULL);
	tap_ok(rc == 0, "history add of 6 boots (exit %d)", rc);
	free(out);
	rc = tu_run_cmd(bm_cmd_history, chg, &out, NULL);
	tap_ok(strstr(out, "left out: 3 boots that did not complete (3 protocol-error)") &&
	       strstr(out, "m_real=inf:s"), "history changes says which boots it passed over "
	       "and why (exit %d)", rc);
	free(out);
	bm_rm_rf(root);
	unlink(db);
}

int main(void)
{
	tap_plan(0);
	tu_mkdtemp(tmp);
	test_bad_values();
	test_good_values();
	test_end_counts();
	test_gate();
	test_history();
	bm_rm_rf(tmp);
	return tap_done();
}
