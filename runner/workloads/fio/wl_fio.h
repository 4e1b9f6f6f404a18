/* SPDX-License-Identifier: MIT */
/*
 * fio as a workload (make bench's engine comparison in the appliance):
 * options, the argv built from them and the parser of fio's terse output,
 * shared with tests/wl_fio_test.c.
 */
#ifndef BM_RUNNER_WL_FIO_H
#define BM_RUNNER_WL_FIO_H

#include <stddef.h>
#include <stdint.h>

#define FIO_BIN_DEFAULT "/usr/bin/fio"
#define FIO_ARGV_MAX    32

enum { FIO_TARGET_FILE, FIO_TARGET_DISK, FIO_TARGET_NG };

struct fio_opts {
	char rw[16];           /* write, read, randread, randwrite */
	uint64_t bs, size;
	char ioengine[16];     /* psync, libaio, io_uring, io_uring_cmd */
	long long iodepth;
	int direct;
	long long number_ios;  /* 0: the whole size */
	int end_fsync;
	int gtod_reduce;       /* fewer clock reads: no latency figures */
	long long batch;       /* 0: fio's default (one I/O per io_submit/getevents) */
	char bin[128];         /* fio's path in the image */
	char target[8];        /* file (<mnt>/fio.dat), disk (the test disk), ng (its /dev/ngXnY) */
	int sqthread_poll, fixedbufs, hipri;   /* io_uring's and io_uring_cmd's options */
	int norandommap;
	long long batch_submit, batch_complete;  /* 0: unset (fio's 1) */
};

/* FIO_TARGET_* of o->target. */
int fio_target_of(const struct fio_opts *o);

/* What one terse line (version 3) says of one job. */
struct fio_terse {
	char version[32];       /* "fio-3.33" */
	int error;              /* fio's errno for the job, 0 when it ran */
	uint64_t kib;           /* KiB moved in the job's direction */
	double bw_kib;          /* KiB/s */
	double iops;
	double runtime_ms;
	double usr_pct, sys_pct;  /* of the runtime, fio's getrusage */
};

/* Parses the first line of text that starts with "3;" (fio prints warnings
 * before it).  write selects the write group (fields 47-50) over the read
 * group (6-9).  0, or -EINVAL when there is no such line or a field is not
 * a number, -EPROTO for a line of another layout (field count). */
int fio_terse_parse(const char *text, int write, struct fio_terse *t);

/* The argv for o with file path as --filename (the file, the disk or its
 * /dev/ngXnY; io_uring_cmd gets --cmd_type=nvme) (strings in buf): argc, or
 * -ENAMETOOLONG when buf is too small. */
int fio_argv(const struct fio_opts *o, const char *path, char *buf, size_t len,
	     char *argv[FIO_ARGV_MAX]);
/* 1 for write and randwrite. */
int fio_is_write(const struct fio_opts *o);

#endif
