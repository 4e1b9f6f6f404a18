/* SPDX-License-Identifier: MIT */
/*
 * rawio: random blocks of the test disk itself, no filesystem, through the
 * kernel's I/O interfaces as fio's engines drive them (psync, libaio,
 * io_uring and its SQPOLL, fixed-buffer and polled rings, NVMe passthrough
 * with IORING_OP_URING_CMD).  Options, tests and labels, and the pieces the
 * description, the engine and tests/rawio_test.c share.
 */
#ifndef BM_RUNNER_WL_RAWIO_H
#define BM_RUNNER_WL_RAWIO_H

#include <stddef.h>
#include <stdint.h>

#include "report.h"
#include "result.h"
#include "stats.h"

#define RIO_QD_MAX    512            /* the label stays within 31 characters */
#define RIO_BS_MAX    (1u << 20)
#define RIO_LIST_MAX  8              /* depths, batches */

/* The engines, in the order of rawio_engine_names[]: what fio 3.33 runs
 * for each is in docs/workloads.md ("rawio"). */
enum {
	RIO_PSYNC,       /* ioengine=psync */
	RIO_LIBAIO,      /* ioengine=libaio */
	RIO_URING,       /* ioengine=io_uring */
	RIO_SQPOLL,      /* ioengine=io_uring sqthread_poll=1 */
	RIO_FIXED,       /* ioengine=io_uring fixedbufs=1 */
	RIO_HIPRI,       /* ioengine=io_uring hipri=1 (IORING_SETUP_IOPOLL) */
	RIO_NVME,        /* ioengine=io_uring_cmd cmd_type=nvme */
	RIO_NVMEHI,      /* ioengine=io_uring_cmd cmd_type=nvme hipri=1 */
	RIO_NENGINES
};

/* "psync", "libaio", "io_uring", ...: the option's words (desc_rawio.c). */
extern const char *const rawio_engine_names[];
/* The label's word of each: "psync", "libaio", "uring", "sqpoll", ... */
extern const char *const rawio_engine_words[];
/* 1 for the two polled engines (queue/io_poll), 1 for the passthrough ones. */
int rawio_engine_polled(int engine);
int rawio_engine_nvme(int engine);

struct rawio_opts {
	char engine[112];    /* a list of rawio_engine_names */
	char rw[24];         /* randread and/or randwrite */
	uint64_t bs;
	char qd[48];         /* depths, powers of two */
	char batch[64];      /* "S" or "SxC" items: submit and completion batch */
	long long ios;       /* I/Os per test */
	uint64_t size;       /* the region from offset 0; 0: the whole disk */
};

/* One test. */
struct rawio_test {
	int engine;
	int write;           /* randwrite */
	unsigned qd, submit, complete;
};

/* "1,8,4x16" -> (S, C) pairs: count, or -EINVAL (not S or SxC, 0, above
 * RIO_QD_MAX, more than max items). */
int rawio_batches_parse(const char *list, unsigned *sub, unsigned *comp, int max);
/* "1,32" -> depths: count, or -EINVAL (not a power of two up to RIO_QD_MAX). */
int rawio_depths_parse(const char *list, unsigned *qd, int max);
/* Test idx of the job: engine-major, then rw, depth and batch; psync has
 * one test per rw (depth 1, no batch: fio caps a synchronous engine's
 * depth at 1), a batch above the depth is no test of that depth.
 * 0 or -EINVAL. */
int rawio_test_of(const struct rawio_opts *o, int idx, struct rawio_test *t);
/* "raw-uring-r4k-q32-b8", "raw-nvme-w4k-q1", at most 31 characters. */
void rawio_label(char *buf, size_t len, const struct rawio_test *t, uint64_t bs);
extern const struct bm_report_ops report_rawio_ops;

/* Per-I/O latencies, as fio 3.33 splits them: lat from the I/O's start
 * (get_io_u) to the clock read when its batch is reaped; clat from its
 * issue time to the same; slat from start to issue.  The issue time is
 * psync's before its pread/pwrite (td_io_queue: clat, no slat), a batch
 * engine's after the call that submitted it (slat and clat); SQPOLL has
 * none (fio 3.33 takes none there). */
struct rawio_lats {
	struct bm_lat lat, clat, slat;
};

/* What one test measured. */
struct rawio_sum {
	double secs;                 /* first queue to last completion */
	/* getrusage around the loop: RUSAGE_THREAD, the thread that does the
	 * I/O (fio's usr_cpu and sys_cpu: lib/getrusage.c), and RUSAGE_SELF,
	 * the runner with its SQPOLL thread and io-wq workers */
	struct bm_cpu cpu0, cpu1, all0, all1;
	uint64_t ios, bs;
	uint64_t submits, waits;     /* calls that submitted, that waited */
	const struct rawio_lats *lat;
};
/* iops, bw, lat_*, clat_* and slat_avg (when there are samples), cpu_io,
 * cpu_io_all, usr, sys, time, ios, submits, waits. */
void rawio_add_metrics(struct bm_result *r, const struct rawio_sum *s);

#endif
