/* SPDX-License-Identifier: MIT */
/*
 * Batched aio random file reads (seed 002): options, the two submission
 * interfaces behind one small engine API, and the pure computations shared
 * with tests/wl_aio_test.c.
 */
#ifndef BM_RUNNER_WL_AIO_H
#define BM_RUNNER_WL_AIO_H

#include <stddef.h>
#include <stdint.h>

#include "report.h"
#include "result.h"
#include "stats.h"

#define AIO_BS          4096u        /* every iocb reads one 4 KiB block */
#define AIO_FILES_MAX   10000000ll
#define AIO_QD_MAX      1024
#define AIO_THREADS_MAX 1024
#define AIO_FSIZES_MAX  8
#define AIO_FSIZE_MAX   (64u << 20)
#define AIO_DIR_FILES   1000u        /* files per subdirectory */

enum { AIO_LIBAIO, AIO_URING, AIO_NENGINES };
enum { AIO_COLD, AIO_WARM, AIO_NCACHE };

struct aio_opts {
	long long files;     /* F */
	char fsize[64];      /* "40k,128k": S, one set of tests each */
	long long qd;        /* Q: 4 KiB iocbs in flight per file */
	long long threads;   /* T */
	char engine[32];     /* subset of libaio,io_uring */
	int direct;          /* O_DIRECT (fallback to buffered with an E record) */
	char cache[16];      /* subset of cold,warm */
	char order[8];       /* seq: blocks in file order; random: shuffled */
};

enum { AIO_SEQ, AIO_RANDOM };
/* AIO_SEQ or AIO_RANDOM for the option's text. */
int aio_order_of(const struct aio_opts *o);

/* One test: which engine, file size, cache state. */
struct aio_test {
	int engine;
	uint32_t fsize;
	int cache;
	int random;          /* order=random: "-rand" in the label */
};

/* "40k,128k" -> sizes; count or -EINVAL (not a size, not a multiple of
 * 4 KiB, 0, above AIO_FSIZE_MAX, more than max). */
int aio_fsizes_parse(const char *list, uint32_t *out, int max);
/* Test idx of the job (engine-major, then fsize, then cache): 0 or -EINVAL. */
int aio_test_of(const struct aio_opts *o, int idx, struct aio_test *t);
/* "aio-libaio-40k", "aio-uring-128k-warm". */
void aio_label(char *buf, size_t len, const struct aio_test *t);
extern const struct bm_report_ops report_aio_ops;
/* "libaio", "io_uring": by AIO_LIBAIO, AIO_URING (desc_aio.c). */
extern const char *const aio_engine_names[];
/* The deterministic random order of files 0..n-1 (Fisher-Yates, fixed seed). */
void aio_shuffle(uint32_t *perm, uint32_t n);
/* Thread t of nt reads perm[first, first + count). */
void aio_share(uint32_t n, unsigned nt, unsigned t, uint32_t *first, uint32_t *count);
/* Path of file i under dir: "<dir>/aio/d<i/1000>/f<i>". */
void aio_path(char *buf, size_t len, const char *dir, uint32_t i);
/* The content prepare() writes at byte off of file i (len a multiple of 8,
 * off 8-aligned): 64-bit words that name the file and the offset. */
void aio_fill(void *buf, uint32_t file, uint64_t off, size_t len);
/* MiB/s (2^20 bytes, aio-stress's MB) of files of fsize read in secs. */
double aio_rate(uint64_t files, uint32_t fsize, double secs);

/* What one test measured: the clock from the threads' release to the
 * last join, CPU of the process around it, counts, per-file latencies. */
struct aio_sum {
	double secs;
	struct bm_cpu cpu0, cpu1;
	uint64_t files, iocbs, submits;
	uint32_t fsize;
	const struct bm_lat *lat;
};
/* files_s, rate, lat_*, iocbs, submits, files, time, cpu, direct. */
void aio_add_metrics(struct bm_result *r, const struct aio_sum *s, int direct);
/* cache=warm: reads files 0..n-1 under dir once, buffered. 0 or -errno. */
int aio_warm(const char *dir, uint32_t n, uint32_t fsize);
/* T threads read the shuffled files of dir through the test's engine
 * (O_DIRECT when direct); fills sum (sum->lat = lat) even after an error:
 * 0 or the first thread's -errno. */
int aio_run_threads(const char *dir, const struct aio_opts *o, const struct aio_test *t,
		    int direct, struct aio_sum *sum, struct bm_lat *lat);

/*
 * Engines.  A queue reads whole files with at most qd 4 KiB reads in flight:
 * one submit call for the first min(qd, blocks) reads, then, as completions
 * are reaped, one submit call per refill.  submits counts the calls that
 * submit (io_submit, io_uring_enter with to_submit > 0).
 */
struct aio_q;

struct aio_engine {
	const char *name;          /* "libaio", "uring" (the label's word) */
	/* 0 or -errno (io_uring: -ENOSYS/-EPERM when the kernel refuses). */
	int (*init)(struct aio_q **q, unsigned qd);
	/* Reads fsize bytes of fd into buf (fsize/4k reads), block order[i]
	 * i-th (NULL: in file order); 0 or -errno. */
	int (*read_file)(struct aio_q *q, int fd, void *buf, uint32_t fsize,
			 const uint32_t *order, uint64_t *iocbs, uint64_t *submits);
	void (*fini)(struct aio_q *q);
};

extern const struct aio_engine aio_libaio_engine;
extern const struct aio_engine aio_uring_engine;
const struct aio_engine *aio_engine_of(int engine);

/* The next block to submit and the ones still out, shared by both engines. */
struct aio_file_state {
	uint32_t next, nblocks, inflight, done;
};
/* How many reads to submit now with room free slots. */
uint32_t aio_batch(const struct aio_file_state *s, uint32_t room);
/* The block the i-th read asks for: order[i], or i when order is NULL. */
static inline uint32_t aio_block(const uint32_t *order, uint32_t i)
{
	return order ? order[i] : i;
}

/*
 * io_uring ring arithmetic (runner/engine/uring.h), read-specific: a fake
 * ring in plain memory tests it.  Declared, not included: this header is
 * the description's too, which sees no engine header.
 */
struct uring_sq;
struct uring_cq;
/* Queues a read of len bytes at off of fd into buf with user_data ud, in the
 * SQE of the tail's own slot: 0, or -EBUSY when the ring is full.  The tail
 * is published (release). */
int aio_sq_push(struct uring_sq *sq, int fd, void *buf, uint32_t len, uint64_t off,
		uint64_t ud);
/* Takes one completion: 1 (res, ud filled), 0 when empty. */
int aio_cq_pop(struct uring_cq *cq, int32_t *res, uint64_t *ud);

#endif
