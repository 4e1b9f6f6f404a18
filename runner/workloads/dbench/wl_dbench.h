/* SPDX-License-Identifier: MIT */
/* dbench workload: options and the pure computations, shared with its test. */
#ifndef BM_RUNNER_WL_DBENCH_H
#define BM_RUNNER_WL_DBENCH_H

#include <stdint.h>

#include "dbench_load.h"
#include "dbench_ops.h"
#include "report.h"
#include "result.h"

#define DB_CLIENTS_MAX 1024
#define DB_LISTS_MAX 16
#define DB_DEFAULT_LOADFILE "/etc/bootmark/data/client.txt.xz"
/* where Debian's dbench package puts the same file: host mode's default */
#define DB_HOST_LOADFILE "/usr/share/dbench/client.txt"
#define DB_GENERATED_OPS 100000

struct db_opts {
	char clients[96];    /* "4,8,16,32": one test per count */
	long long time;      /* dbench -t: the timed window, s */
	long long warmup;    /* s; -1: dbench's t/5 */
	char loadfile[256];  /* dbench -c; "generated" for bootmark's own */
	int sync;            /* dbench -s */
	int syncdirs;        /* dbench -S */
	char version[4];     /* "4" (4.0), "2" (2.x), "1" (1.x): whose clock and formula */
	long long lines;     /* replay only the loadfile's first lines; 0: all */
};

/* What a test measured, summed over the clients. */
struct db_sum {
	double secs;                          /* the timed window */
	uint64_t bytes;                       /* ReadX + WriteX sizes in the window */
	struct db_opstat st[DB_NKINDS];       /* per-op, in the window */
	uint64_t mism;
	double pass_mb;                       /* 1.x/2.x: the MB of one pass; 0 for 4.0 */
	int v1;                               /* 1.x: tput = pass_mb x clients / secs */
	int clients;
};

/* 1e-6 * bytes / secs: dbench's MB/sec (10^6 bytes); 0 when secs is 0. */
double db_tput(uint64_t bytes, double secs);
/* Adds tput, ops, lat_max, mism, time and n_/avg_/max_ of the six
 * commonest ops (docs/workloads.md) to r. */
void db_add_metrics(struct bm_result *r, const struct db_sum *s);
/* Warmup seconds for time t: dbench's t/5 when warmup < 0. */
long long db_warmup(long long t, long long warmup);
/* desc_dbench.c: the job's dbench version (4, 2 or 1) and the client count
 * of test idx (or -EINVAL). */
int db_version(const struct db_opts *o);
int db_clients(const struct db_opts *o, int idx);
extern const struct bm_report_ops report_dbench_ops;
/* dbench 1.x's "Throughput" (dbench.c main): the MB (10^6 bytes) of ReadX
 * and WriteX in one pass of its loadfile (132 for its own client.txt),
 * times the clients, over the run's seconds. */
double db_tput_v1(double pass_mb, int clients, double secs);
/* 10^-6 x the ReadX and WriteX sizes of one pass of l. */
double db_pass_mb(const struct db_load *l);

#endif
