/* SPDX-License-Identifier: MIT */
/*
 * bonnie workload (desc_bonnie.c: options, labels; wl_bonnie.c: arithmetic;
 * wl_bonnie_io.c: I/O tests and seeks; wl_bonnie_files.c:
 * the file tests), shared with its unit test.
 * The arithmetic is in pure functions so that the test can check it exactly.
 */
#ifndef BM_RUNNER_WL_BONNIE_H
#define BM_RUNNER_WL_BONNIE_H

#include <stddef.h>
#include <stdint.h>

#include "result.h"
#include "report.h"

#define BON_SEEKERS_MAX 64
#define BON_UPDATE_SEEK 10      /* a ticket % 10 == 0 rewrites its chunk */

/* Which program's definitions the tests follow (docs/workloads.md, "bonnie
 * versions"): bonnie++ 2.00a (the default), bonnie++ 1.02c, and Tim Bray's
 * original Bonnie (bonnie.c, "Copyright (c) Tim Bray, 1990-1996"). */
enum bon_version { BON_V200A, BON_V102C, BON_VBRAY };

/* Tests in bonnie++ 2.00a's order; each is one result record. */
enum bon_test {
	BON_PUTC, BON_BLOCK_W, BON_REWRITE, BON_GETC, BON_BLOCK_R, BON_SEEKS,
	BON_SEQ_CREATE, BON_SEQ_STAT, BON_SEQ_DEL, BON_RND_CREATE, BON_RND_STAT, BON_RND_DEL,
	BON_NTESTS
};
#define BON_FIRST_FILE_TEST BON_SEQ_CREATE

struct wl_ctx;

extern const struct bm_report_ops report_bonnie_ops;

struct bonnie_opts {
	uint64_t size;          /* file of the I/O tests, whole MiB (-s) */
	uint64_t chunk;         /* I/O chunk, a power of two 256..1M (-s size:chunk) */
	uint64_t charsize;      /* bytes of the per-char tests (-f), 0 = none */
	long long seeks;        /* seek tickets (-s size:chunk:seeks) */
	long long seekers;      /* seeker threads (-s size:chunk:seeks:procs) */
	int direct;             /* O_DIRECT on the create-opens (-D) */
	long long num;          /* file tests: num * 1024 files (-n num) */
	uint64_t max_size;      /* file size range (-n num:max:min) */
	uint64_t min_size;
	long long dirs;         /* %05d subdirectories (-n num:max:min:dirs) */
	int files;              /* 0: no file tests */
	long long seed;         /* PRNG seed (-z); each test derives its own stream */
	char tests[128];        /* subset, by name: "putc,block-w,..." */
	char version[8];        /* "2.00a", "1.02c", "bray" */
	char cache[8];          /* "chained": the page cache the test before leaves; "cold" */
	long long seek_sleep;   /* s before the seek tickets; -1: the version's */
};

/* The version of a job, and its seek counts: seeks=0 / seekers=0 mean the
 * version's own (2.00a: 8192 over 5 threads, 1.02c: 8192 over 3 forked
 * processes, Bonnie: 4000 over 3 processes). */
int bon_ver(const struct bonnie_opts *o);
long bon_nseeks(const struct bonnie_opts *o);
long bon_nseekers(const struct bonnie_opts *o);
/* The seconds the parent sleeps before it writes the seek tickets:
 * seek_sleep, or the version's (2.00a 3, 1.02c and Bonnie 5). */
unsigned bon_seek_sleep(const struct bonnie_opts *o);

/* 0, or -EINVAL with a message naming the bad option in err. */
int bonnie_check(const struct bonnie_opts *o, char *err, size_t errlen);
/* Test idx (0..ntests-1) of the job -> enum bon_test, or -EINVAL. */
int bon_test_of(const struct bonnie_opts *o, int idx);
/* "bon-putc" ... */
const char *bon_label(int test);

/* Deterministic PRNG (splitmix64): a stream per (seed, test, purpose) so
 * that prepare() and run() can rebuild the same names and sizes. */
uint64_t bon_rng_init(long long seed, int test, int purpose);
/* Next value in [0, 2^31), like bonnie++'s non-negative Rand::getNum(). */
uint32_t bon_rng_next(uint64_t *state);

/* bonnie++'s %CPU: int(cpu / elapsed * 100), 0 when elapsed <= 0. */
int bon_cpu_pct(double cpu_s, double elapsed_s);
/* Seek tickets as bonnie++ 2.00a's seek_test() draws them: getNum(), and
 * negated when % 10 == 0 (a rewrite; ticket 0 cannot be negated, so it is
 * a plain seek).  Returns how many are rewrites.  The chunk of a ticket is
 * abs(ticket) % total_chunks. */
long bon_make_tickets(int32_t *t, long n, uint64_t *rng);

/* What one measured test found, before it becomes metrics. */
struct bon_meas {
	double elapsed;         /* s, bonnie++'s own timer: fsync+close inside */
	double cpu_s;           /* getrusage(RUSAGE_SELF) user+sys over the timer */
	uint64_t lat_max_ns;    /* the slowest unit: a chunk, a seek, a file */
	uint64_t units;         /* chunks, seeks or files done */
};

/* bonnie++'s BonTimer: wall clock and the process's CPU time. */
struct bon_timer {
	uint64_t t0_ns;
	double cpu0_s;
};
void bon_timer_start(struct bon_timer *t);
/* Sets m->elapsed and m->cpu_s. */
void bon_timer_stop(const struct bon_timer *t, struct bon_meas *m);
/* One unit done, started at t0_ns: counts it and keeps the maximum. */
void bon_unit_done(struct bon_meas *m, uint64_t t0_ns);
/* ctx->beat every step units (when there is a ctx->beat). */
void bon_beat(struct wl_ctx *ctx, uint64_t done, uint64_t step, const char *what);

/* rate, cpu, cpu_s, elapsed, lat (us) into r; rate = work / elapsed. */
void bon_add_common(struct bm_result *r, const struct bon_meas *m, double work,
		    const char *rate_unit);

/* The I/O file and the file-test directory: "<mnt>/Bonnie.<pid>". */
void bon_path(const struct wl_ctx *ctx, char *buf, size_t len);
/* Removes what a test of this workload left in ctx->mnt (unmeasured). */
void bon_cleanup(const struct wl_ctx *ctx);

/* I/O tests (wl_bonnie_io.c). */
int bon_io_prepare(struct wl_ctx *ctx, const struct bonnie_opts *o);
int bon_io_run(struct wl_ctx *ctx, const struct bonnie_opts *o, int test,
	       struct bm_result *r);
/* Helpers the seek test shares: O_RDWR reopen, whole-chunk read and write
 * (0 or -errno), a page-aligned zeroed buffer, and the version's Close():
 * fsync then close for 2.00a, close alone for 1.02c and Bonnie. */
int bon_open_old(const char *path);
int bon_read_full(int fd, unsigned char *buf, size_t len);
int bon_write_full(int fd, const unsigned char *buf, size_t len);
unsigned char *bon_buffer(size_t len);
int bon_close_v(int fd, int version);
/* cache=chained: before the timer, one sequential read of the whole file,
 * so that the page cache holds what the test before this one leaves in a
 * single bonnie run (the file's tail, as much as memory holds). */
int bon_io_warm(struct wl_ctx *ctx, const struct bonnie_opts *o);

/* The seek test (wl_bonnie_seek.c), as each version's seek_test(). */
int bon_seeks_run(struct wl_ctx *ctx, const struct bonnie_opts *o, struct bm_result *r);

/* File tests (wl_bonnie_files.c). */
int bon_files_prepare(struct wl_ctx *ctx, const struct bonnie_opts *o, int test);
int bon_files_run(struct wl_ctx *ctx, const struct bonnie_opts *o, int test,
		  struct bm_result *r);

/* n = num * 1024 names as bonnie++ 2.00a makes them: sequential
 * "%010x" + 0..12 random alphanumerics, random: the random part first.
 * With dirs > 1 a name is prefixed "%05d/" (file i in directory
 * i / (n / dirs + 1), as 2.00a counts).  NULL when out of memory;
 * free with bon_names_free(). */
char **bon_names_make(long n, long dirs, int random_order, uint64_t *rng);
/* The same for a version: 1.02c writes the index as %07d. */
char **bon_names_make_v(long n, long dirs, int random_order, uint64_t *rng, int version);
void bon_names_free(char **names);
/* bonnie++'s random_sort(): swap i with getNum() % n, for every i. */
void bon_names_shuffle(char **names, long n, uint64_t *rng);

#endif
