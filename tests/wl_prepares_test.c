// SPDX-License-Identifier: MIT
/*
 * wl_ops.prepares: a workload that says a test has nothing to prepare must
 * leave the fresh filesystem as it found it, because the appliance then
 * skips the remount after preparation (fsrun.c).  Each such workload's
 * prepare() runs here in an empty directory for every test of a small job,
 * and what it leaves is compared with what prepares() claims, both ways.
 * measure_test() hands the claim to the drop step.
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emit.h"
#include "fsrun.h"
#include "measure.h"
#include "tap.h"
#include "testutil.h"
#include "wl.h"

/* Every workload of the registry that has prepares() runs its own small
 * job (its description's example, --examples); these add variants the
 * example does not reach. */
static const struct { const char *wl, *args; } variants[] = {
	{ "bonnie", "size=1M chunk=8k charsize=64k seeks=10 num=1 cache=cold" },
};

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	if (ftw->level)
		remove(path);
	return 0;
}

/* Empties dir and dates it back to 1970, so that any entry made in it
 * since, even one removed again, shows in its times (dir_touched). */
static void empty_dir(const char *dir)
{
	const struct timespec old[2] = { { 1, 0 }, { 1, 0 } };

	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	utimensat(AT_FDCWD, dir, old, 0);
}

static int dir_touched(const char *dir)
{
	struct stat st;

	return stat(dir, &st) || st.st_mtim.tv_sec != 1;
}

static void check_job(const char *dir, const char *wl, const char *args)
{
	const struct wl_ops *w = wl_find(wl);
	struct wl_ctx ctx = { .mnt = dir, .dev = "none", .fs = "host", .rep = 1 };
	char err[256] = "";
	void *o = NULL;
	int i, n, claims, left, touched, ret;

	if (!w || !w->prepares || fsrun_job_opts(w, args, &o, err, sizeof(err))) {
		tap_ok(0, "%s %s: a job with prepares(): %s", wl, args, err);
		return;
	}
	n = w->desc->ntests(o);
	for (i = 0; i < n; i++) {
		struct bm_result r;

		memset(&r, 0, sizeof(r));
		w->desc->describe(o, i, &r);
		empty_dir(dir);
		claims = w->prepares(o, i);
		ret = w->prepare ? w->prepare(&ctx, o, i) : 0;
		left = tu_entries(dir);
		touched = dir_touched(dir);
		/* a create and delete (bonnie's chained rnd-create replays the
		 * sequential tests) leaves no entry but changes the folder */
		tap_ok(!ret && (claims ? touched : !touched && left == 0),
		       "%s %s: prepares() says %d; prepare() left %d entries, folder %s (ret %d)",
		       wl, r.test, claims, left, touched ? "changed" : "as it was", ret);
	}
	empty_dir(dir);
	free(o);
}

static int drop_seen = -1;

static int fake_drop(void *arg, int prepared)
{
	(void)arg;
	drop_seen = prepared;
	return 0;
}

/* measure_test passes prepares()' answer to the drop step. */
static void check_measure(const char *dir)
{
	const struct wl_ops *w = wl_find("dd");
	struct wl_ctx ctx = { .mnt = dir, .dev = "none", .fs = "host", .rep = 1 };
	struct measure_env env = { .disk = NULL, .hz = 100, .drop = fake_drop };
	struct emitter em;
	char err[256] = "";
	void *o = NULL;
	int fd = open("/dev/null", O_WRONLY), i, want;

	if (fd < 0 || !w || fsrun_job_opts(w, "size=1M bs=64k", &o, err, sizeof(err))) {
		tap_ok(0, "dd job for measure_test: %s", err);
		if (fd >= 0)
			close(fd);
		return;
	}
	emit_init_fd(&em, fd, "0a1b2c3d");
	env.em = &em;
	for (i = 0; i < w->desc->ntests(o); i++) {
		struct emit_ctx ec = { .fs = "host", .test = "t", .rep = 1 };
		struct bm_result r;

		memset(&r, 0, sizeof(r));
		w->desc->describe(o, i, &r);
		want = w->prepares(o, i);
		drop_seen = -1;
		measure_test(&env, w, o, &ctx, i, &ec, &r);
		TAP_EQ_INT(drop_seen, want, "measure_test: drop() told prepared for each test");
	}
	empty_dir(dir);
	emit_close(&em);
	free(o);
}

int main(void)
{
	char dir[] = "build/tmp-prepares-XXXXXX";
	size_t i;

	tap_plan(0);
	mkdir("build", 0755);
	tu_mkdtemp(dir);
	for (const struct wl_ops *const *w = wl_registry; *w; w++) {
		if (!(*w)->prepares)
			continue;
		tap_ok((*w)->desc->example != NULL, "%s has prepares() and an example job",
		       (*w)->desc->name);
		if ((*w)->desc->example)
			check_job(dir, (*w)->desc->name, (*w)->desc->example);
	}
	for (i = 0; i < sizeof(variants) / sizeof(variants[0]); i++)
		check_job(dir, variants[i].wl, variants[i].args);
	check_measure(dir);
	rmdir(dir);
	return tap_done();
}
