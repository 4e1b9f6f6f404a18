/* SPDX-License-Identifier: MIT */
/*
 * The measurement window of the seed tables: wall clock, the "cpu" line of
 * /proc/stat (user+nice and system, whole machine, in USER_HZ ticks) and
 * the test disk's sectors read/written from /proc/diskstats.
 */
#ifndef BM_RUNNER_SYSSTAT_H
#define BM_RUNNER_SYSSTAT_H

#include <stdint.h>
#include "result.h"

struct sysstat_snap {
	double wall;            /* CLOCK_MONOTONIC seconds */
	uint64_t user_ticks;    /* user + nice */
	uint64_t sys_ticks;
	uint64_t rd_sectors, wr_sectors;
	int ok;                 /* 0 when a source could not be read */
};

/* Parses the aggregate "cpu " line of /proc/stat text. 0 or -EINVAL. */
int sysstat_parse_stat(const char *text, uint64_t *user_nice, uint64_t *sys);
/* Finds dev in /proc/diskstats text; sectors from columns 6 and 10.
 * 0, -ENOENT when absent, -EINVAL when malformed. */
int sysstat_parse_diskstats(const char *text, const char *dev,
			    uint64_t *rd_sectors, uint64_t *wr_sectors);
/* Reads procdir/stat and procdir/diskstats (procdir normally "/proc") and the
 * clock: begin reads the clock last and end reads it first, so the window's
 * wall time does not include our own /proc reads.  0 or -EIO (s->ok = 0). */
int sysstat_begin(struct sysstat_snap *s, const char *procdir, const char *dev);
int sysstat_end(struct sysstat_snap *s, const char *procdir, const char *dev);
/* Adds real, utime, stime (s) and read, written (KiB) from b - a. */
void sysstat_add_metrics(const struct sysstat_snap *a, const struct sysstat_snap *b,
			 long hz, struct bm_result *r);

#endif
