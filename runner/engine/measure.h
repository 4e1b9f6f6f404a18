/* SPDX-License-Identifier: MIT */
/*
 * One test's measurement, shared by the appliance (fsrun.c) and host mode
 * (hostmode.c) so the two windows can never drift apart:
 *
 *   P prepare, prepare() (unmeasured), env->drop() (sync, drop caches),
 *   P run, window opens (/proc/stat, /proc/diskstats, then the clock),
 *   run(), window closes (clock first), inspect() (unmeasured),
 *   result = real utime stime [read written] + the workload's metrics.
 *
 * Failures of prepare() or run() become E class=bench records.
 */
#ifndef BM_RUNNER_MEASURE_H
#define BM_RUNNER_MEASURE_H

#include "emit.h"
#include "wl.h"

struct measure_env {
	struct emitter *em;
	/* diskstats name of the device under the test ("vda", "sda2");
	 * NULL: there is none (tmpfs, overlay), read/written are left out
	 * rather than reported as 0. */
	const char *disk;
	long hz;                        /* USER_HZ: /proc/stat ticks per second */
	/* After prepare(), before the window: write back and drop caches
	 * (the appliance also remounts when prepared: prepare() may have
	 * written, wl_ops.prepares).  0, or -errno: the test is not run and
	 * drop() has said why. */
	int (*drop)(void *arg, int prepared);
	void *drop_arg;
	/* Also putime, pstime (s): getrusage(RUSAGE_SELF) over run(), the
	 * runner process and its threads only, as fio's usr_cpu/sys_cpu;
	 * utime/stime are the whole machine's.  Both modes set it: it is
	 * how bootmark's own cost is compared with fio's (docs/bench.md). */
	int rusage;
	/* The runner option strace= (sctrace.h): strace's path, and every
	 * run() is counted by strace -f -c, attached just before the window
	 * opens and stopped just after it closes; NULL: no tracing. */
	const char *strace;
};

/* Fills res (already described) with the window's and the workload's
 * metrics; 0 or the -errno of prepare()/run().  res->nmetrics stays 0
 * when prepare() failed: there is nothing to report. */
int measure_test(const struct measure_env *env, const struct wl_ops *w, const void *o,
		 struct wl_ctx *ctx, int idx, const struct emit_ctx *ec,
		 struct bm_result *res);
/* sync(), then "3" into /proc/sys/vm/drop_caches: 0 or -errno. */
int measure_drop_caches(void);
/* wl_ctx.beat for both modes: a B record when the heartbeat interval
 * has passed (ctx->priv is the emitter). */
void measure_beat(struct wl_ctx *ctx, const char *what);

#endif
