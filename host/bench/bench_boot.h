/* SPDX-License-Identifier: MIT */
/*
 * bench-boot's breakdown of a boot (docs/bench.md): where the time from
 * QEMU's start to the HELLO record went, from the wall time the host saw
 * it at and the guest's own clock in the record (t_* keys), and the first
 * mkfs from the P records that follow.
 */
#ifndef BM_BENCH_BOOT_H
#define BM_BENCH_BOOT_H

#include <stddef.h>

#include "proto.h"

enum bm_bb_phase {
	BM_BB_WALL,     /* QEMU start to the HELLO / trivial line, host clock */
	BM_BB_FW,       /* wall minus the guest's t at the line: QEMU, firmware, loading */
	BM_BB_KERNEL,   /* guest clock 0 to "Run /init" (less klog_skew; trivial: to its line) */
	BM_BB_UNPACK,   /* "Trying to unpack rootfs" to "Freeing initrd memory" */
	BM_BB_RUNNER,   /* "Run /init" to the runner's main() */
	BM_BB_SETUP,    /* mounts, console, configuration: module loading starts */
	BM_BB_MODULES,  /* boot modules loaded (results port, klog scan beside) */
	BM_BB_DISK,     /* the test disk found */
	BM_BB_HELLO,    /* safety checks, facts: HELLO formatted */
	BM_BB_MKFS,     /* first P mkfs to the P mount after it */
	BM_BB_RATE,     /* guest clock over host clock from HELLO to that P mount */
	BM_BB_SKEW,     /* printk clock minus CLOCK_BOOTTIME (klog_skew) */
	BM_BB_DRIFT,    /* its change from the runner's start to HELLO (klog_drift) */
	BM_BB_KCOST,    /* the runner's /dev/kmsg scan (klog_cost) */
	BM_BB_N
};

/* Short names ("firmware", "kernel", ...) and table labels, by phase. */
extern const char *const bm_bb_name[BM_BB_N];
extern const char *const bm_bb_label[BM_BB_N];

/* All phases of one boot, seconds; NAN is unknown. */
struct bm_bb {
	double v[BM_BB_N];
};

void bm_bb_init(struct bm_bb *p);
/* From the HELLO record and the wall time the host saw it at. */
void bm_bb_from_hello(struct bm_bb *p, const struct bm_record *hello, double wall);
/*
 * The trivial init's line "bootmark-trivial-init t=S.mmm" in buf: 1 and
 * the phases it gives (wall, firmware, kernel), 0 when no whole line is
 * there yet, -EBADMSG when the line carries no t= (an older trivial init:
 * only wall is set).
 */
int bm_bb_from_trivial(struct bm_bb *p, const char *buf, size_t len, double wall);
/*
 * Feeds one record of the run that follows HELLO: the first P mkfs, then
 * the P mount after it set BM_BB_MKFS.  1 once it is set, else 0.
 * *mkfs_t (NAN at first) keeps the P mkfs time between calls.
 */
int bm_bb_feed_phase(struct bm_bb *p, const struct bm_record *rec, double *mkfs_t);
/*
 * BM_BB_RATE from a later record: its guest time t and the wall time the
 * host saw it at, against HELLO's (wall - firmware).  Not set over less
 * than 0.2 s of wall time: the host's 5 ms polling would dominate.
 */
void bm_bb_clock_rate(struct bm_bb *p, double t, double wall);

#endif
