/* SPDX-License-Identifier: MIT */
/*
 * The suite loop: for every job, filesystem, test and repeat, recreate the
 * filesystem (mkfs, mount), prepare, drop caches, measure run(), unmount
 * and emit one R record.  A job on the test disk itself (bm_wl_desc.raw)
 * runs once per test and repeat instead, on the unmounted disk, and a test
 * of it that wrote leaves the disk's ends zeroed.  Every mkfs gets the
 * disk less its last MiB, bootmark's ownership mark (diskmark.h), checked
 * before each write.  Failures become E records and the loop moves on.
 */
#ifndef BM_RUNNER_FSRUN_H
#define BM_RUNNER_FSRUN_H

#include "config.h"
#include "disk.h"
#include "emit.h"
#include "modload.h"
#include "profile.h"
#include "wl.h"

#define FSRUN_FS_MAX 8

struct fsrun {
	const struct runner_cfg *cfg;
	struct emitter *em;
	const struct bm_moddb *mi;        /* NULL: no module tree, load nothing */
	const struct disk_info *disk;
	struct bm_suite suite;
	struct bm_fsprof prof[FSRUN_FS_MAX];
	int prof_state[FSRUN_FS_MAX];   /* 0 untried, 1 ready, -1 unusable */
	unsigned nprof;
	const struct wl_ops *wl[BM_SUITE_JOBS];
	void *opts[BM_SUITE_JOBS];
	long hz;
};

/* Parses the job's "k=v ..." into a freshly allocated option struct. */
int fsrun_job_opts(const struct wl_ops *w, const char *args, void **out,
		   char *err, size_t errlen);
/* Loads suite, profiles and job options; a problem is an E class=config. */
int fsrun_setup(struct fsrun *r, const struct runner_cfg *cfg, struct emitter *em,
		const struct bm_moddb *mi, const struct disk_info *disk);
/* Tests the loaded suite expands into: jobs x tests x filesystems x repeats,
 * a raw job's (bm_wl_desc.raw) once per repeat (bm_wl_job_planned). */
unsigned fsrun_planned(const struct fsrun *r);
/* Of those, the raw jobs' tests (END raw=). */
unsigned fsrun_planned_raw(const struct fsrun *r);
/* Runs everything; returns -EBUSY when the disk was left unusable, -EPERM
 * when it lost bootmark's ownership mark (an E record of class refused). */
int fsrun_run(struct fsrun *r);
void fsrun_free(struct fsrun *r);

#endif
