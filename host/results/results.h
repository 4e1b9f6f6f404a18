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
#include "watch.h"

/* The class of one boot (docs/exit-codes.md, docs/reliability.md).  The
 * names and exit codes are a contract: fault-injection tests assert them. */
enum bm_status {
	BM_ST_COMPLETED,         /* HELLO..END complete, no E record */
	BM_ST_NO_CONSOLE,        /* not one console byte, no record */
	BM_ST_NO_RUNNER,         /* console output but no HELLO */
	BM_ST_INITRAMFS_ERROR,   /* the kernel could not unpack or start init */
	BM_ST_PANIC,             /* "Kernel panic - not syncing" on the console */
	BM_ST_KERNEL_WARNING,    /* complete, warnings on the console, --fail-on-warning */
	BM_ST_HANG,              /* the silence watchdog stopped QEMU */
	BM_ST_UNEXPECTED_REBOOT, /* the kernel restarted before END */
	BM_ST_SETUP_FAILURE,     /* complete, first E record: setup/module/config/disk */
	BM_ST_BENCH_ERROR,       /* complete, first E record: bench/internal/watchdog */
	BM_ST_PROTOCOL_ERROR,    /* bm_stream_check() failed after a HELLO */
	BM_ST_DISK_REFUSED,      /* the runner refused the test disk (E class "refused") */
	BM_ST_TIMEOUT,           /* the hard --timeout stopped QEMU before END */
	BM_ST_INFRA_ERROR,       /* the host failed: QEMU could not start, or exited non-zero */
	BM_ST_INTERRUPTED,       /* SIGINT, SIGTERM or SIGHUP stopped the boot before END */
};

/*
 * What the host saw of one boot besides its logs; meta.json keeps it, so
 * that every reader of a boot folder decides the same class as run did.
 */
struct bm_boot_facts {
	enum bm_watch w;
	const char *why;          /* the watchdog's words, or NULL */
	int qemu_status;          /* waitpid status of QEMU; -1 unknown */
	long long planned;        /* tests the host's suite plans for one boot; 0 unknown */
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
	size_t bytes;           /* 0: no-console */
	int banner;             /* "Linux version" seen */
	int banners;            /* how often (a second = the kernel restarted) */
	int panic;              /* "Kernel panic - not syncing" seen */
	int init_fail;          /* unpacking failed / no working init / kill init */
	int warnings;           /* Oops, BUG, WARNING, KASAN... (one per report) */
	int restarts;           /* "reboot: Restarting system" */
	int fail_on_warning;    /* set by the caller after the scan: --fail-on-warning */
	char panic_line[200];
	char init_line[200];
	char warn_line[200];    /* the first warning */
	int after_cut, init_kind;  /* the scan's own state (bm_console_line) */
};

/* What a boot keeps at most of its R and E records (docs/reliability.md,
 * "Hostile logs"): 8192 each, ten times the seeds suite on all six
 * filesystems; run refuses a suite that plans more tests per boot.  With
 * the stream's BM_STREAM_KEEP_MAX this bounds what one boot costs to read. */
#define BM_RESULTS_MAX 8192

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
	long long end_tests;    /* END's tests= (planned by the runner); -1 absent */
	long long end_raw;      /* END's raw=: of those, on the test disk itself; 0 absent */
	uint64_t max_seq;
	unsigned bad_crc, foreign, conflicts, hellos;
	int stream_rc;          /* bm_stream_check(), or -EPROTO for what follows */
	char stream_why[256];
	unsigned unkept_res, unkept_err;  /* R and E records past BM_RESULTS_MAX */
	unsigned bad_values;    /* records with a value that cannot be a measurement */
	char bad_value[200];    /* the first of them (values.c) */
	int kernel_warnings;    /* copied from the console by bm_classify */
	char kernel_warning_first[200];
	enum bm_status status;
	char status_why[256];
};

const char *bm_status_name(enum bm_status st);
/* The class named name, or -1. */
int bm_status_parse(const char *name);
/* The exit code of a boot of this class: 0 completed, 10..21, 111 infra-error. */
int bm_status_exit(enum bm_status st);
/* True for the classes where the run went to END ("ran, with errors" included). */
int bm_status_ran(enum bm_status st);
/* True when the boot's R records may be used: it ran to END, or its stream
 * was damaged (protocol-error: every R that arrived intact is CRC-checked). */
int bm_status_usable(enum bm_status st);

/* 0 when every value of rec can be what its key says (a measurement of
 * its metric, END's counts, a repetition), else -EINVAL and why names the
 * record and the value (host/results/values.c). */
int bm_rec_values_check(const struct bm_record *rec, char *why, size_t len);
/* Drops from h the metrics whose value in rec cannot be a measurement. */
void bm_rres_keep_measurements(struct bm_rres *h, const struct bm_record *rec);

/* Feeds text line by line into s (CR and CRLF line ends accepted). */
void bm_stream_feed_text(struct bm_stream *s, const char *text, size_t len);
int bm_results_from_stream(struct bm_results *r, const struct bm_stream *s);
/* Reads a log file (run "" = the first HELLO's run) into r. */
int bm_results_load(struct bm_results *r, const char *path, const char *run);
/* r as a boot that left no record: the stream is "no records", not complete. */
void bm_results_empty(struct bm_results *r, const char *run);
/* Planned tests (END's tests=) that have neither an R nor an E record; 0 when
 * all are accounted for or the plan is unknown.  first gets "fs test rep N"
 * of one such test when the R/E records let it be named, else "". */
long long bm_results_unaccounted(const struct bm_results *r, char *first, size_t len);
void bm_results_free(struct bm_results *r);
const char *bm_hello_get(const struct bm_results *r, const char *key);

/*
 * A log read in pieces (host/results/logread.c): fn gets each line, without
 * its '\n' ('\r' is the reader's to split on), and its offset in the file;
 * memory is one piece (BM_LOG_PIECE), whatever the log's size.  A line longer
 * than a piece comes in parts, cut where no record can straddle the cut.
 * 0, fn's non-zero return, or -errno (-EINVAL: not a regular file; a FIFO
 * is never waited on).  *size gets the bytes read.
 */
#define BM_LOG_PIECE (1u << 20)
typedef int (*bm_log_line_fn)(void *arg, const char *line, size_t len, uint64_t off);
int bm_log_lines(const char *path, bm_log_line_fn fn, void *arg, uint64_t *size);

/* Console facts (bm_console) line by line: begin, a line ('\r' and '\n' end
 * lines within it too), end with the bytes the console held. */
void bm_console_begin(struct bm_console *c);
void bm_console_line(struct bm_console *c, const char *line, size_t len);
void bm_console_end(struct bm_console *c, size_t bytes);
void bm_console_scan(const char *text, size_t len, struct bm_console *c);
/* The facts of the lines of log file path that start in [off, off + n):
 * 0 or -errno (-ENOENT: no such file; c is then the facts of no console). */
int bm_console_read(const char *path, uint64_t off, uint64_t n, struct bm_console *c);
/* The part of a log of several runs that belongs to run: from after the
 * previous run's last record (or a restart or banner after it) to before the
 * next run's first record (or the banner before it); the whole text when run
 * has no record in it.  Sets *off and *n. */
void bm_console_segment(const char *text, size_t len, const char *run, size_t *off,
			size_t *n);
/* The same for a log file, read in pieces; 0 or -errno. */
int bm_console_segment_file(const char *path, const char *run, uint64_t *off, uint64_t *n);
/* Sets r->status and r->status_why (and copies the warnings into r); the order
 * of decision is docs/reliability.md's.  c may be NULL (no console known). */
void bm_classify(struct bm_results *r, const struct bm_console *c,
		 enum bm_watch w, const char *watch_why);
/* The same with everything the host saw (a boot of run, or its meta.json). */
void bm_classify_boot(struct bm_results *r, const struct bm_console *c,
		      const struct bm_boot_facts *f);

#endif
