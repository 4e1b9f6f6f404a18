// SPDX-License-Identifier: MIT
/* runner/workloads/aim7/wl_aim7.c and the subtests: options, labels, every subtest of the
 * three workfiles once in a directory made as prepare() makes it, AIM's
 * disk work unit, and short runs with 1 and 2 tasks on the host. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fsrun.h"
#include "hosttree.h"
#include "netlo.h"
#include "stats.h"
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

static void test_options(void)
{
	struct bm_result r;
	void *o;

	free(opts("tasks=1,2,0", 0));
	free(opts("tasks=1,,2", 0));
	free(opts("mix=fserver,webserver", 0));
	free(opts("jobs=0", 0));
	free(opts("filesize=10Q", 0));
	free(opts("filesize=512", 0));
	o = opts("mix=fserver,dbase tasks=1,8", 1);
	if (!o)
		return;
	TAP_EQ_INT(wl_aim7_ops.desc->ntests(o), 4, "2 mixes x 2 task counts");
	memset(&r, 0, sizeof(r));
	TAP_EQ_INT(wl_aim7_ops.desc->describe(o, 3, &r), 0, "describe test 3");
	TAP_EQ_STR(r.test, "aim7-dbase-t8", "label");
	TAP_EQ_STR(r.params, "mix=dbase tasks=8 jobs=100 filesize=1M poolsize=25M sleep=10",
		   "params: workfile.dbase's FILESIZE and POOLSIZE, AIM7's SLEEP");
	wl_aim7_ops.desc->describe(o, 0, &r);
	TAP_EQ_STR(r.params, "mix=fserver tasks=1 jobs=100 filesize=10M poolsize=20M sleep=10",
		   "params: workfile.fserver's sizes");
	tap_ok(wl_aim7_ops.desc->describe(o, 4, &r) < 0, "no test 4");
	free(o);
	o = opts("mix=shared tasks=64 filesize=2M poolsize=0 seed=3 sleep=1", 1);
	if (o) {
		wl_aim7_ops.desc->describe(o, 0, &r);
		TAP_EQ_STR(r.params, "mix=shared tasks=64 jobs=100 filesize=2M poolsize=0 sleep=1 "
			   "seed=3", "params: sizes, sleep and seed given");
		free(o);
	}
}

/* Every subtest once in a directory made as prepare() makes it, timed;
 * the disk tests with a 64 KiB disk_iteration_count. */
static void test_subtests(const char *dir)
{
	const struct aim7_test *lists[] = {
		aim7_disk_tests, aim7_arith_tests, aim7_num_tests, aim7_proc_tests,
	}, *t;
	char here[512], err[256];
	struct aim7_env env;
	double t0;
	int k, ret, net = bm_netlo_up(), n = 0;

	if (!getcwd(here, sizeof(here)) || chdir(dir)) {
		tap_ok(0, "cannot enter %s", dir);
		return;
	}
	TAP_EQ_INT(aim7_make_common(64, err, sizeof(err)), 0, "tmpa.common written");
	TAP_EQ_INT(aim7_make_fakeh(err, sizeof(err)), 0, "fakeh tree made");
	TAP_EQ_INT(aim7_make_scripts(err, sizeof(err)), 0, "aim_1.sh and ./true made");
	aim7_num_init();
	memset(&env, 0, sizeof(env));
	env.disk_kib = 64;
	env.load = 1;
	env.mktemp_counter = -1;
	env.err = err;
	env.errlen = sizeof(err);
	for (k = 0; k < 4; k++)
		for (t = lists[k]; t->name; t++) {
			n++;
			if (net && (!strcmp(t->name, "tcp_test") || !strcmp(t->name, "udp_test"))) {
				tap_skip("lo is down and cannot be brought up", "%s", t->name);
				continue;
			}
			err[0] = '\0';
			t0 = bm_now_s();
			ret = t->fn(&env);
			tap_ok(ret == 0, "%s (%s) runs once (%.2f ms) %s", t->name, t->src,
			       (bm_now_s() - t0) * 1e3, err);
			tap_ok(aim7_test_find(t->name) == t, "%s is found by name", t->name);
		}
	TAP_EQ_INT(n, 54, "54 subtests: every one the three workfiles name");
	tap_ok(env.mktemp_counter > 0, "aim_mktemp counted up (%d names)", env.mktemp_counter);
	tap_ok(access("tmpb.0000000000", F_OK) && access("link0000000000", F_OK),
	       "no temporary file left behind");
	if (chdir(here))
		tap_ok(0, "cannot go back to %s", here);
}

/* disk_rr's offsets are aim_rand()'s: the same seed reads the same blocks,
 * and a sync_disk_update over n blocks draws n/2 offsets. */
static void test_disk_units(const char *dir)
{
	const struct aim7_test *upd = aim7_test_find("sync_disk_update");
	unsigned long s = 5;
	char here[512], err[256];
	struct aim7_env env;
	unsigned i;

	if (!upd || !getcwd(here, sizeof(here)) || chdir(dir)) {
		tap_ok(0, "cannot set up %s", dir);
		return;
	}
	memset(&env, 0, sizeof(env));
	env.seed = 5;
	env.disk_kib = 40;
	env.mktemp_counter = -1;
	env.err = err;
	env.errlen = sizeof(err);
	TAP_EQ_INT(upd->fn(&env), 0, "sync_disk_update runs");
	for (i = 0; i < 20; i++)
		aim7_rand(&s);
	TAP_EQ_INT(env.seed, s, "sync_disk_update drew n/2 = 20 offsets (AIM's loop = blocks/2)");
	if (chdir(here))
		tap_ok(0, "cannot go back to %s", here);
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

	o = opts("mix=fserver tasks=1,2 jobs=20 filesize=64k poolsize=64k sleep=1", 1);
	if (!o)
		return;
	for (idx = 0; idx < 2; idx++) {
		memset(&r, 0, sizeof(r));
		wl_aim7_ops.desc->describe(o, idx, &r);
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
		tap_ok(real > 1.0 && real < 120, "%s: real %.3f s holds the 1 s sleep", r.test, real);
		tap_ok(jm > 0 && jm > jobs / real * 60 * (idx + 1) * 0.999 &&
		       jm < jobs / real * 60 * (idx + 1) * 1.001, "jobs_min %.1f = jobs/real*60*tasks", jm);
		tap_ok(tu_val(&r, "jobs_sec_task", "jobs/s") > 0, "jobs/sec/task %.2f",
		       tu_val(&r, "jobs_sec_task", "jobs/s"));
		tap_ok(tu_val(&r, "cpu", "s") > 0 && tu_val(&r, "cpu", "s") <=
		       tu_val(&r, "utime_c", "s") + tu_val(&r, "stime_c", "s") + 1e-9,
		       "cpu %.3f s = utime_c + stime_c", tu_val(&r, "cpu", "s"));
		tap_ok(tu_val(&r, "jti", "%") > 0 && tu_val(&r, "jti", "%") <= 100 &&
		       tu_val(&r, "jti", "%") == (int)tu_val(&r, "jti", "%"), "jti %.1f %% (an int)",
		       tu_val(&r, "jti", "%"));
		TAP_EQ_INT((int)tu_val(&r, "tasks", "count"), idx + 1, "tasks");
		tap_ok(!r.partial, "not partial");
	}
	snprintf(top, sizeof(top), "%s/aim7", dir);
	tap_ok(stat(top, &st) && errno == ENOENT, "inspect removed %s", top);
	free(o);
}

/* The temp dir and what the subtests left in it (the fakeh tree). */
static void rm_dir(const char *dir)
{
	int fd = open("/tmp", O_RDONLY | O_DIRECTORY);

	if (fd >= 0) {
		hosttree_remove(fd, strrchr(dir, '/') + 1);
		close(fd);
	}
}

int main(void)
{
	char dir[] = "/tmp/bm-aim7-XXXXXX";

	tap_plan(0);
	test_options();
	test_names();
	tu_mkdtemp(dir);
	test_subtests(dir);
	test_disk_units(dir);
	test_run(dir);
	rm_dir(dir);
	return tap_done();
}
