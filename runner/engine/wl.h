/* SPDX-License-Identifier: MIT */
/*
 * Workload interface, in the manner of fio's ioengine_ops.
 *
 * One workload per folder (runner/workloads/<name>/): its description
 * (desc_<name>.c, wldesc.h: options, tests, labels, metrics), which the host
 * links too, and its engine (wl_<name>.c and helpers), ending in a
 * "const struct wl_ops wl_<name>_ops = { .desc = &wl_<name>_desc, ... };".
 * The registry is the explicit list in runner/workloads/workloads.def, no
 * constructors.
 *
 * A suite line such as "dd size=512M bs=1M" selects a workload and sets
 * options from its description's table.  The job expands into ntests() tests; for each
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
#include <stdint.h>
#include "opts.h"
#include "result.h"
#include "wldesc.h"

struct wl_ctx {
	/* Mounted test filesystem, e.g. "/mnt/test"; NULL for a job on the
	 * test disk itself (bm_wl_desc.raw) in the appliance: dev is then its
	 * target, unmounted, the job's alone.  Host mode always gives the
	 * test directory (a raw job makes its target file there) and never
	 * lets a job touch dev. */
	const char *mnt;
	const char *dev;        /* test block device, e.g. "/dev/vda" */
	/* Bytes of dev from offset 0 a raw job may use: the disk less its last
	 * MiB, bootmark's ownership mark (docs/disk-safety.md); 0 in host mode. */
	uint64_t dev_len;
	const char *fs;         /* profile name: ext4, xfs ...; "raw" (BM_WL_RAW_FS) */
	int rep;                /* repeat index, from 1 */
	/* Called by long workloads now and then; emits a heartbeat record
	 * when the heartbeat interval has passed. */
	void (*beat)(struct wl_ctx *ctx, const char *what);
	void *priv;             /* runner's own state */
	/* 1 when this test runs where the test before it ran and left its
	 * files (host mode, when continues() says so): prepare() takes them
	 * over instead of rebuilding them.  0 on a fresh filesystem. */
	int continued;
};

struct wl_ops {
	/* Options, tests and labels, metrics: what the host knows of it too. */
	const struct bm_wl_desc *desc;
	unsigned flags;
	/* Unmeasured preparation on the fresh filesystem (may be NULL). */
	int (*prepare)(struct wl_ctx *ctx, const void *o, int idx);
	/* The measured part; adds workload-specific metrics to r. 0 or -errno;
	 * on failure r may hold partial values and r->partial is set. */
	int (*run)(struct wl_ctx *ctx, const void *o, int idx, struct bm_result *r);
	/* After the window closes: details that must not be measured, such
	 * as a file's extent count (may be NULL). */
	void (*inspect)(struct wl_ctx *ctx, const void *o, int idx, struct bm_result *r);
	/* 1 when test idx must start from the page cache its prepare() left,
	 * not a dropped one (no remount either): prepare() re-enacts the test
	 * the original runs just before it in the same process, such as
	 * bonnie++'s create before its stat, or (ctx->continued) the test
	 * before left it.  May be NULL: always drop. */
	int (*keep_cache)(const struct wl_ctx *ctx, const void *o, int idx);
	/* 1 when test idx, in one run of the original, starts from exactly
	 * what test idx-1 leaves on the filesystem (bonnie++'s stat finds the
	 * files of its create).  Where the runner can keep that state (host
	 * mode: one directory for the chain) it sets ctx->continued; in the
	 * image every test gets a fresh filesystem and prepare() rebuilds the
	 * state.  May be NULL: no test continues another. */
	int (*continues)(const void *o, int idx);
	/* 0 when prepare() leaves test idx's fresh filesystem as the mount
	 * made it (a write test starts from an empty one): the appliance then
	 * drops the caches without remounting first.  May be NULL: prepare(),
	 * when there is one, writes for every test. */
	int (*prepares)(const void *o, int idx);
	/* Host mode's own check of a job's options, beyond the description's
	 * check(): what the appliance does not need but a directory does
	 * (rawio: size= is the size of the file it makes there).  0, or
	 * -EINVAL and a message; refused before anything runs.  May be NULL. */
	int (*host_check)(const void *o, char *err, size_t errlen);
};

#define WL(name) extern const struct wl_ops wl_##name##_ops; \
	extern const struct bm_wl_desc wl_##name##_desc;
#include "workloads.def"
#undef WL

/* NULL-terminated, in workloads.def order. */
extern const struct wl_ops *const wl_registry[];
const struct wl_ops *wl_find(const char *name);

#endif
