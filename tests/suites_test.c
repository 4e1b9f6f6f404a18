// SPDX-License-Identifier: MIT
/*
 * Every suite and filesystem profile that ships in configs/ loads, and every
 * job in every suite is accepted by the runner's own parser.  The runner
 * checks the whole suite before it touches the disk and powers off on the
 * first bad line, so a typo in configs/suites/seeds would otherwise only
 * show after a lab box has booted.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "fsrun.h"
#include "profile.h"
#include "progress.h"
#include "tap.h"
#include "wl.h"

/* The runner's count of planned tests (fsrun_planned, END tests=) and the
 * host's (bm_plan_make: meta.json planned_tests, the progress line) agree
 * for the suite on two filesystems: `completed` needs them equal. */
static void check_planned(const char *name, const struct bm_suite *s)
{
	static struct fsrun r;
	static struct bm_plan pl;
	char err[300];
	unsigned j, raw = 0;

	memset(&r, 0, sizeof(r));
	r.suite = *s;
	r.nprof = 2;
	for (j = 0; j < s->njobs; j++) {
		r.wl[j] = wl_find(s->job[j].wl);
		if (!r.wl[j] || fsrun_job_opts(r.wl[j], s->job[j].args, &r.opts[j], err, sizeof(err)))
			return;  /* check_suite says what is wrong */
		raw += bm_wl_job_raw(r.wl[j]->desc, r.opts[j]);
	}
	if (bm_plan_make(&pl, s, 2, err, sizeof(err)))
		tap_ok(0, "suite %s: the host's plan: %s", name, err);
	else
		tap_ok(fsrun_planned(&r) == pl.total, "suite %s on 2 filesystems: runner %u, host %u "
		       "planned tests (%u raw jobs, %u raw tests)", name, fsrun_planned(&r), pl.total,
		       raw, fsrun_planned_raw(&r));
	fsrun_free(&r);
}

static void check_suite(const char *name)
{
	struct bm_suite s;
	char err[300];
	unsigned j;

	if (bm_suite_load(&s, "configs/suites", name, err, sizeof(err))) {
		tap_ok(0, "suite %s loads: %s", name, err);
		return;
	}
	tap_ok(s.njobs > 0 && s.disk_size > 0, "suite %s: %u jobs, disk %llu bytes", name,
	       s.njobs, (unsigned long long)s.disk_size);
	for (j = 0; j < s.njobs; j++) {
		const struct wl_ops *w = wl_find(s.job[j].wl);
		void *o = NULL;
		int n = 0;

		err[0] = '\0';
		if (w && !fsrun_job_opts(w, s.job[j].args, &o, err, sizeof(err)))
			n = w->desc->ntests(o);
		tap_ok(n > 0, "suites/%s:%d: %s %s (%d tests)%s%s", name, s.job[j].line,
		       s.job[j].wl, s.job[j].args, n, err[0] ? ": " : "", err);
		free(o);
	}
	check_planned(name, &s);
}

static void check_profile(const char *name)
{
	struct bm_fsprof p;
	char err[300], buf[300], *argv[BM_ARGV_MAX];
	int n;

	if (bm_fsprof_load(&p, "configs/fs", name, err, sizeof(err))) {
		tap_ok(0, "profile %s loads: %s", name, err);
		return;
	}
	n = bm_fsprof_mkfs_argv(&p, "/dev/vda", buf, sizeof(buf), argv, BM_ARGV_MAX);
	tap_ok(n > 1 && !strcmp(argv[n - 1], "/dev/vda") && !strncmp(argv[0], "mkfs.", 5),
	       "profile %s: mkfs argv of %d words ends with the device", name, n);
	tap_ok(strstr(p.mount_opts, "noatime") != NULL, "profile %s mounts noatime, as the seeds",
	       name);
}

/* Calls fn for every regular file name in dir, in sorted order. */
static int each_file(const char *dir, void (*fn)(const char *))
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort), i, files = 0;

	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (ents[i]->d_name[0] != '.') {
			fn(ents[i]->d_name);
			files++;
		}
		free(ents[i]);
	}
	free(ents);
	return files;
}

int main(void)
{
	tap_plan(0);
	tap_ok(each_file("configs/suites", check_suite) >= 2, "configs/suites has the suites");
	tap_ok(each_file("configs/fs", check_profile) >= 4, "configs/fs has the profiles");
	return tap_done();
}
