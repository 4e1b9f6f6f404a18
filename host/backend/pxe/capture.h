/* SPDX-License-Identifier: MIT */
/*
 * "bootmark capture": a box's console (a UART, a console server, a growing
 * log file) read live, split into runs and written as OUT/<label>/ folders
 * with the same files a QEMU run leaves, so export, compare and report read
 * them alike.  The byte sources are in capture_src.c; this is the part that
 * needs no device: lines, runs, damaged records, the files.
 */
#ifndef BM_HOST_CAPTURE_H
#define BM_HOST_CAPTURE_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "progress.h"
#include "proto.h"
#include "results.h"

/* A console line longer than this is dropped (and counted): no record is
 * that long, and a stream without line ends is noise, not a boot log. */
#define BM_CAP_LINE_MAX 4096
/* One run's console.log stops growing here (a printk flood). */
#define BM_CAP_CON_MAX ((size_t)256 << 20)

/* --- lines: bytes -> lines (LF, CR or CRLF), across reads ----------------- */

typedef void (*bm_line_fn)(void *arg, const char *line, size_t len, uint64_t off,
			   unsigned long lineno);

struct bm_lines {
	char buf[BM_CAP_LINE_MAX];
	size_t n;
	int skipping;            /* inside an over-long line: drop up to its end */
	int cr;                  /* the last byte was CR: an LF now ends nothing */
	uint64_t off;            /* source offset of the next byte */
	uint64_t line_off;       /* offset of the current line's first byte */
	unsigned long lineno;    /* lines ended so far */
	unsigned long dropped;   /* over-long lines */
	bm_line_fn fn;
	void *arg;
};

void bm_lines_init(struct bm_lines *l, bm_line_fn fn, void *arg);
void bm_lines_feed(struct bm_lines *l, const char *buf, size_t len);
/* Ends a last line that has no line end (end of the source). */
void bm_lines_flush(struct bm_lines *l);

/* --- damaged records ------------------------------------------------------- */

struct bm_damage {
	char run[BM_RUN_LEN + 1];  /* "" when unreadable */
	uint64_t seq;              /* 0 when unreadable */
	const char *why;           /* "bad crc", "truncated", "bad framing" */
};

/* p points at a marker whose record bm_scan() refused; n bytes of line follow. */
void bm_damage_diagnose(const char *p, size_t n, struct bm_damage *d);

/* --- runs ------------------------------------------------------------------- */

struct bm_buf {
	char *p;
	size_t n, cap;
	int full;                /* BM_CAP_CON_MAX reached: later lines dropped */
};

struct bm_cap_run {
	char run[BM_RUN_LEN + 1];  /* "" until its first record */
	char kernel[128];          /* HELLO kernel=, else the banner's release */
	char base[128 + 8];        /* the label without its _N */
	char label[160];           /* OUT/<label>/; fixed at the first write */
	char dir[PATH_MAX];
	char start[32], end[32];   /* UTC, first and last line */
	unsigned idx;              /* 1, 2, ... in order of appearance */
	struct bm_stream s;
	struct bm_buf con, res;    /* console.log, results.log */
	double t0;                 /* host time it began */
	double last_at;            /* host time of its last line */
	int ended;                 /* Z, a reboot, silence or the end of capture */
	int notified;              /* on_end was called */
	enum bm_watch watch;
	char watch_why[64];
	unsigned damaged, recovered;
	uint64_t *dseq;            /* seqs of its damaged records (0 = unreadable) */
	int dirty;                 /* not written since it changed */
	struct bm_progress prog;
	struct bm_results r;       /* the last verdict (bm_cap_verdict) */
};

struct bm_cap;
typedef void (*bm_cap_end_fn)(void *arg, struct bm_cap *c, struct bm_cap_run *r);

struct bm_cap {
	const char *out;           /* NULL: keep everything in memory (tests) */
	const char *source;        /* for meta.json: "file:LOG", "tcp:H:P", ... */
	FILE *progress;            /* NULL: no progress lines */
	FILE *report;              /* damaged records, run events (stderr) */
	bm_cap_end_fn on_end;
	void *end_arg;
	struct bm_lines lines;
	struct bm_cap_run **runs;
	size_t nruns;
	struct bm_cap_run *cur;    /* the run console lines go to; NULL = preamble */
	struct bm_buf pre;         /* lines before any run: OUT/preamble.log */
	int pre_dirty;
	unsigned ended;            /* runs ended so far */
	unsigned damaged;          /* all damaged records */
	unsigned unattributed;     /* damaged before any run */
	double now;                /* host clock of the bytes being fed */
	int werr;                  /* first write error (-errno), sticky */
	struct bm_record rec;      /* scratch: large */
};

void bm_cap_init(struct bm_cap *c, const char *out);
void bm_cap_free(struct bm_cap *c);
/* Bytes from the source at host time now (seconds, any monotonic origin). */
void bm_cap_feed(struct bm_cap *c, const char *buf, size_t len, double now);
/* Silence verdicts and the progress line; silence 0 = off. */
void bm_cap_tick(struct bm_cap *c, double now, int silence);
/* Writes the runs that ended since the last call (their verdict, on_end),
 * with all set every changed run and the preamble; returns c->werr. */
int bm_cap_flush(struct bm_cap *c, int all);
/* The source ended: the last line, every open run ended, all written. */
int bm_cap_finish(struct bm_cap *c);
/* Sets r->r from its stream and console (status, recovered). */
void bm_cap_verdict(struct bm_cap_run *r);

#endif
