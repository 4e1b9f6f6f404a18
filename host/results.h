/* SPDX-License-Identifier: MIT */
/*
 * The results of one boot, built from the protocol stream (common/proto.h),
 * and its classification into a status.  Tables, JSON and CSV are made
 * from this model; the serial log stays the single source of truth.
 */
#ifndef BM_HOST_RESULTS_H
#define BM_HOST_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#include "proto.h"
#include "report.h"  /* struct bm_rres: one R record */

enum bm_status {
	BM_ST_COMPLETED,       /* HELLO..END complete, no errors */
	BM_ST_BOOT_FAILURE,    /* no HELLO record */
	BM_ST_PANIC,           /* "Kernel panic - not syncing" on the console */
	BM_ST_HANG,            /* the watchdog stopped QEMU */
	BM_ST_PROTOCOL_ERROR,  /* bm_stream_check() failed after a HELLO */
	BM_ST_RUN_ERROR,       /* complete, but E records or Z errors > 0 */
	BM_ST_INFRA_ERROR,     /* QEMU could not be started */
	BM_ST_DISK_REFUSED,    /* the runner refused the test disk (E class "refused") */
};

/* How the QEMU process ended, as seen by the watchdog. */
enum bm_watch {
	BM_WATCH_NONE,     /* not watched (bootmark parse) */
	BM_WATCH_EXITED,   /* QEMU exited by itself */
	BM_WATCH_SILENCE,  /* killed: no progress for --silence-timeout */
	BM_WATCH_TIMEOUT,  /* killed: --timeout reached */
	BM_WATCH_PANIC,    /* killed after a panic, QEMU did not exit */
	BM_WATCH_NOSTART,  /* QEMU could not be started */
};

struct bm_herr {            /* one E record */
	uint64_t seq;
	char cls[16];
	char msg[256];
	char fs[32];
	char test[32];
	int rep;
};

struct bm_console {         /* what the console log says */
	int banner;             /* "Linux version" seen */
	int panic;              /* "Kernel panic - not syncing" seen */
	int init_fail;          /* unpacking failed / no working init / kill init */
	char panic_line[200];
	char init_line[200];
};

struct bm_results {
	char run[BM_RUN_LEN + 1];
	char source[16];        /* "results.log", "console.log" or a path */
	int have_hello;
	struct bm_record hello;
	struct bm_rres *res;
	size_t nres;
	struct bm_herr *err;
	size_t nerr;
	int have_end;
	long long end_results, end_errors;
	uint64_t max_seq;
	unsigned bad_crc, foreign, conflicts, hellos;
	int stream_rc;          /* bm_stream_check() */
	char stream_why[256];
	enum bm_status status;
	char status_why[256];
};

const char *bm_status_name(enum bm_status st);

/* Feeds text line by line into s (CR and CRLF line ends accepted). */
void bm_stream_feed_text(struct bm_stream *s, const char *text, size_t len);
int bm_results_from_stream(struct bm_results *r, const struct bm_stream *s);
/* Reads a log file (run "" = the first HELLO's run) into r. */
int bm_results_load(struct bm_results *r, const char *path, const char *run);
void bm_results_free(struct bm_results *r);
const char *bm_hello_get(const struct bm_results *r, const char *key);

void bm_console_scan(const char *text, size_t len, struct bm_console *c);
/* Sets r->status and r->status_why. */
void bm_classify(struct bm_results *r, const struct bm_console *c,
		 enum bm_watch w, const char *watch_why);

#endif
