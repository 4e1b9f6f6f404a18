/* SPDX-License-Identifier: MIT */
/*
 * Workload interface, in the manner of fio's ioengine_ops.
 *
 * One workload per file (runner/wl_<name>.c), ending in a
 * "const struct wl_ops wl_<name>_ops = { ... };".  The registry is the
 * explicit list in runner/workloads.def, no constructors.
 *
 * A suite line such as "dd size=512M bs=1M" selects a workload and sets
 * options from its table.  The job expands into ntests() tests; for each
 * test the runner recreates the filesystem (mkfs + mount), calls prepare()
 * (not measured), syncs and drops caches, then opens the measurement
 * window (wall clock, /proc/stat cpu, /proc/diskstats of the test disk),
 * calls run(), closes the window, calls inspect() for unmeasured details,
 * and adds the window's metrics (real, utime, stime, read, written) to the
 * result before emitting it.
 */
#ifndef BM_WL_H
#define BM_WL_H

#include <stddef.h>
#include "opts.h"
#include "result.h"

struct wl_ctx {
	const char *mnt;        /* mounted test filesystem, e.g. "/mnt/test" */
	const char *dev;        /* test block device, e.g. "/dev/vda" */
	const char *fs;         /* profile name: ext4, xfs ... */
	int rep;                /* repeat index, from 1 */
	/* Called by long workloads now and then; emits a heartbeat record
	 * when the heartbeat interval has passed. */
	void (*beat)(struct wl_ctx *ctx, const char *what);
	void *priv;             /* runner's own state */
};

struct wl_ops {
	const char *name;
	unsigned flags;
	const struct bm_opt *opts;  /* option table for the suite line */
	size_t opts_size;           /* size of the option struct it fills */
	/* Checks what one option cannot check alone (lists, size >= bs); may
	 * be NULL.  0, or -EINVAL and a message naming the option. */
	int (*check)(const void *o, char *err, size_t errlen);
	/* Number of tests this job expands into (dd: write, read, rewrite). */
	int (*ntests)(const void *o);
	/* Seed-style label of test idx, "dd512w"; fills r->wl/test/params. */
	int (*describe)(const void *o, int idx, struct bm_result *r);
	/* Unmeasured preparation on the fresh filesystem (may be NULL). */
	int (*prepare)(struct wl_ctx *ctx, const void *o, int idx);
	/* The measured part; adds workload-specific metrics to r. 0 or -errno;
	 * on failure r may hold partial values and r->partial is set. */
	int (*run)(struct wl_ctx *ctx, const void *o, int idx, struct bm_result *r);
	/* After the window closes: details that must not be measured, such
	 * as a file's extent count (may be NULL). */
	void (*inspect)(struct wl_ctx *ctx, const void *o, int idx, struct bm_result *r);
};

#define WL(name) extern const struct wl_ops wl_##name##_ops;
#include "workloads.def"
#undef WL

/* NULL-terminated, in workloads.def order. */
extern const struct wl_ops *const wl_registry[];
const struct wl_ops *wl_find(const char *name);

#endif
