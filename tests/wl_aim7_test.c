// SPDX-License-Identifier: MIT
/* runner/wl_aim7.c and the subtests: options, labels, every subtest once
 * in a temp dir, and short runs with 1 and 2 tasks on the host. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fsrun.h"
#include "netlo.h"
#include "tap.h"
#include "testutil.h"
#include "wl.h"
#include "wl_aim7.h"

static void *opts(const char *args, int want_ok)
{
	char err[256] = "";
	void *o = NULL;
	int ret = fsrun_job_opts(&wl_aim7_ops, args, &o, err, sizeof(err));

	tap_ok(want_ok ? ret == 0 : ret < 0, "aim7 %s: %s %s", args,
	       want_ok ? "accepted" : "rejected", err);
	return o;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_options(void)
{
	struct bm_result r;
	void *o;

	free(opts("tasks=1,2,0", 0));
	free(opts("tasks=1,,2", 0));
	free(opts("mix=fserver,webserver", 0));
	free(opts("jobs=0", 0));
	o = opts("mix=fserver,dbase tasks=1,8", 1);
	if (!o)
		return;
	TAP_EQ_INT(wl_aim7_ops.ntests(o), 4, "2 mixes x 2 task counts");
	memset(&r, 0, sizeof(r));
	TAP_EQ_INT(wl_aim7_ops.describe(o, 3, &r), 0, "describe test 3");
	TAP_EQ_STR(r.test, "aim7-dbase-t8", "label");
	TAP_EQ_STR(r.params, "mix=dbase tasks=8 jobs=100 filesize=10M poolsize=20M", "params");
	tap_ok(wl_aim7_ops.describe(o, 4, &r) < 0, "no test 4");
	free(o);
}

/* Every subtest once, with a 64 KiB disk file, timed. */
static void test_subtests(const char *dir)
{
	const struct aim7_test *lists[] = { aim7_disk_tests, aim7_cpu_tests }, *t;
	char tdir[512], common[512], err[256];
	struct aim7_env env;
	double t0;
	int k, ret, net = bm_netlo_up();

	snprintf(tdir, sizeof(tdir), "%s/t0", dir);
	snprintf(common, sizeof(common), "%s/tmpa.common", dir);
	mkdir(tdir, 0755);
	TAP_EQ_INT(aim7_make_common(common, 64, err, sizeof(err)), 0, "tmpa.common written");
	for (k = 0; k < 2; k++)
		for (t = lists[k]; t->name; t++) {
			if (net && (!strcmp(t->name, "tcp_test") || !strcmp(t->name, "udp_test"))) {
				tap_skip("lo is down and cannot be brought up", "%s", t->name);
				continue;
			}
			memset(&env, 0, sizeof(env));
			err[0] = '\0';
			env.dir = tdir;
			env.common = common;
			env.disk_kib = 64;
			env.rng = 42;
			env.err = err;
			env.errlen = sizeof(err);
			t0 = now_s();
			ret = t->fn(&env);
			tap_ok(ret == 0, "%s runs once (%.2f ms) %s", t->name, (now_s() - t0) * 1e3, err);
			tap_ok(aim7_test_find(t->name) == t, "%s is found by name", t->name);
		}
	unlink(common);
	rmdir(tdir);
}

static void test_names(void)
{
	static const char *const mixes[] = { "fserver", "dbase", "shared" };
	const struct aim7_mix *m;
	unsigned i, k, missing = 0;

	for (k = 0; k < 3; k++) {
		m = aim7_mix_find(mixes[k]);
		for (i = 0; m && i < m->n; i++)
			if (!aim7_test_find(m->w[i].test)) {
				tap_diag("%s: no subtest %s", mixes[k], m->w[i].test);
				missing++;
			}
	}
	tap_ok(!missing, "every subtest of the three mixes exists");
}

/* A short run as the runner does it: prepare, run, inspect. */
static void test_run(const char *dir)
{
	struct wl_ctx ctx = { .mnt = dir, .dev = "", .fs = "host", .rep = 1 };
	struct bm_result r;
	double real, jm, jobs;
	char top[600];
	struct stat st;
	void *o;
	int idx;

	o = opts("mix=fserver tasks=1,2 jobs=20 filesize=64k poolsize=64k", 1);
	if (!o)
		return;
	for (idx = 0; idx < 2; idx++) {
		memset(&r, 0, sizeof(r));
		wl_aim7_ops.describe(o, idx, &r);
		if (wl_aim7_ops.prepare(&ctx, o, idx)) {
			tap_skip("prepare failed (loopback down?)", "%s", r.test);
			continue;
		}
		TAP_EQ_INT(wl_aim7_ops.run(&ctx, o, idx, &r), 0, "run");
		wl_aim7_ops.inspect(&ctx, o, idx, &r);
		real = tu_val(&r, "aim_real", "s");
		jm = tu_val(&r, "jobs_min", "jobs/min");
		jobs = tu_val(&r, "jobs", "count");
		TAP_EQ_INT((int)jobs, 31, "31 jobs per task (each fserver subtest once)");
		tap_ok(real > 0 && real < 60, "%s: real %.3f s", r.test, real);
		tap_ok(jm > 0 && jm > jobs / real * 60 * (idx + 1) * 0.999 &&
		       jm < jobs / real * 60 * (idx + 1) * 1.001, "jobs_min %.1f = jobs/real*60*tasks", jm);
		tap_ok(tu_val(&r, "jobs_sec_task", "jobs/s") > 0, "jobs/sec/task %.2f",
		       tu_val(&r, "jobs_sec_task", "jobs/s"));
		tap_ok(tu_val(&r, "cpu", "s") > 0 && tu_val(&r, "cpu", "s") <=
		       tu_val(&r, "utime_c", "s") + tu_val(&r, "stime_c", "s") + 1e-9,
		       "cpu %.3f s = utime_c + stime_c", tu_val(&r, "cpu", "s"));
		tap_ok(tu_val(&r, "jti", "%") > 0 && tu_val(&r, "jti", "%") <= 100, "jti %.1f %%",
		       tu_val(&r, "jti", "%"));
		TAP_EQ_INT((int)tu_val(&r, "tasks", "count"), idx + 1, "tasks");
		tap_ok(!r.partial, "not partial");
	}
	snprintf(top, sizeof(top), "%s/aim7", dir);
	tap_ok(stat(top, &st) && errno == ENOENT, "inspect removed %s", top);
	free(o);
}

int main(void)
{
	char dir[] = "/tmp/bm-aim7-XXXXXX";

	tap_plan(0);
	test_options();
	test_names();
	tu_mkdtemp(dir);
	test_subtests(dir);
	test_run(dir);
	rmdir(dir);
	return tap_done();
}
