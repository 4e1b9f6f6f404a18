/* SPDX-License-Identifier: MIT */
/*
 * A results folder OUT/<label>/ read back, whatever booted it (docs/results.md,
 * "The results folder"): its logs, meta.json's facts, results.json.
 */
#ifndef BM_BOOT_H
#define BM_BOOT_H

#include <limits.h>
#include <stdio.h>

#include "results.h"

/* Reads OUT/<label>/results.log, or console.log when it holds no record. */
int bm_boot_load(const char *dir, const char *run, struct bm_results *r, struct bm_console *con);
/*
 * A boot folder as every reader takes it (compare, report, export, bisect):
 * its logs, classified with what its meta.json says the host saw (watchdog,
 * QEMU's exit, a signal, the planned tests), so the class is the one run
 * decided.  Folders without meta.json (parse --out, capture of old) are
 * classified from their logs alone, except one QEMU wrote (qemu.log): its
 * end was never seen, so it is infra-error unless the guest's own words
 * (panic, initramfs-error, disk-refused, unexpected-reboot) decide.  0, or
 * -errno when no log can be read.
 */
int bm_boot_read(const char *dir, const char *run, struct bm_results *r);
/* The same, with kernel warnings failing the boot (parse --fail-on-warning)
 * even where the run did not ask for it. */
int bm_boot_read_strict(const char *dir, const char *run, int fail_on_warning,
			struct bm_results *r);

/* The host's load over a boot, as its meta.json recorded it (hostload.h). */
struct bm_load_info {
	int known;           /* meta.json has the load_* keys */
	int disturbed;       /* bm_load_disturbed() held */
	int other_qemu;      /* other QEMU processes seen at once */
	int icount;          /* virtual time: timings immune to the load */
	int exclusive;       /* run --exclusive held the host */
	double others_pct;   /* CPU share used by all but the boot's QEMU; -1 unknown */
	double steal_pct, load1_max;
};
/* 0, or -ENOENT when dir's meta.json holds no load record. */
int bm_boot_load_info(const char *dir, struct bm_load_info *li);

/* meta.json's names of the watchdog verdicts; bm_watch_parse: -1 unknown. */
const char *bm_watch_name(enum bm_watch w);
int bm_watch_parse(const char *name);
/* fn's JSON through a memory stream, then atomically to path.  0 or -errno. */
int bm_write_json(const char *path, void (*fn)(FILE *, const void *), const void *arg);
/* results.json for one boot (also used by "parse --out"). */
int bm_write_results_json(const char *path, const struct bm_results *r);
void bm_results_json(FILE *f, const struct bm_results *r);

#endif
