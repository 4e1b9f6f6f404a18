/* SPDX-License-Identifier: MIT */
/*
 * The live progress line of "bootmark run": what the guest is doing now,
 * read from the P (phase) and B (heartbeat) records as they land in
 * results.log, and a rough estimate of the time left.
 */
#ifndef BM_HOST_PROGRESS_H
#define BM_HOST_PROGRESS_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "profile.h"
#include "proto.h"

#define BM_PLAN_MAX 512

/* The tests one boot runs, from the suite, as the runner expands it. */
struct bm_plan {
	unsigned ntests;          /* the suite's tests, once each (raw ones included) */
	unsigned total;           /* sum of bm_wl_job_planned: each test per filesystem
				   * and repeat, a raw one per repeat (fs=raw) */
	char wl[BM_PLAN_MAX][16];
	char test[BM_PLAN_MAX][32];
	unsigned char raw[BM_PLAN_MAX];  /* test i runs on the test disk itself */
};

/* Expands su with the runner's own option parser; 0, or -EINVAL with the
 * runner's message for the first bad line ("suites/NAME:LINE: ...") in err. */
int bm_plan_make(struct bm_plan *pl, const struct bm_suite *su, unsigned nfs, char *err,
		 size_t errlen);
/* The workload of test label test, or "" when the plan does not know it. */
const char *bm_plan_wl(const struct bm_plan *pl, const char *test);

struct bm_progress {
	/* incremental reader of results.log */
	off_t off;
	char part[BM_LINE_MAX];   /* an incomplete last line, kept for the next read */
	size_t npart;
	int skipping;             /* inside an over-long line: drop up to its end */
	uint64_t last_seq;        /* records up to here are counted (the end repeats them) */
	unsigned damaged;         /* markers whose record did not decode */
	/* what the guest does */
	char phase[16], fs[32], test[32];
	int rep;
	double guest_t;           /* t= of the last heartbeat */
	unsigned started;         /* tests begun (P phase=mkfs; a raw one: prepare) */
	int cur_done;             /* the current test has its R or E record */
	int ended;                /* Z seen */
	double first_at;          /* host seconds at the first test, 0 = none yet */
	/* the line */
	const struct bm_plan *plan;  /* NULL: no estimate */
	const char *kernel;
	int idx, n;               /* boot idx of n */
	int tty;
	FILE *out;
	char shown[64];           /* fs and test of the last plain line */
	char last[200];           /* the line on screen */
	double done_at;           /* host seconds when the last test finished */
	int dirty;                /* a tty line is on screen */
};

void bm_progress_init(struct bm_progress *p, const struct bm_plan *plan, const char *kernel,
		      int idx, int n, FILE *out);
/* Takes the records of one chunk of bytes; lines may be split anywhere. */
void bm_progress_feed(struct bm_progress *p, const char *buf, size_t len, double now);
/* Reads what is new in path; returns the number of new bytes. */
size_t bm_progress_read(struct bm_progress *p, const char *path, double now);
/* Tests finished so far. */
unsigned bm_progress_done(const struct bm_progress *p);
/* Seconds left: (total - done) * spent / done; -1 when unknown. */
double bm_progress_left(unsigned total, unsigned done, double spent);
/* Formats the line (no newline) into buf. */
void bm_progress_line(const struct bm_progress *p, double elapsed, char *buf, size_t len);
/* Watchdog callback (struct bm_watch_cfg): arg is a struct bm_progress. */
void bm_progress_tick(void *arg, const char *results_log, double elapsed, double now);
/* Clears a tty line so the next message starts clean. */
void bm_progress_end(struct bm_progress *p);

#endif
