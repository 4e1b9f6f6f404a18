/* SPDX-License-Identifier: MIT */
/*
 * Record emitter: frames records (common/proto.h) and writes each line with
 * one write() to the results device.  Keeps every R line so they can be
 * repeated byte-identical before Z; a heartbeat thread emits B records
 * while a phase runs, so a long sync() does not look like a hang.
 */
#ifndef BM_RUNNER_EMIT_H
#define BM_RUNNER_EMIT_H

#include <pthread.h>
#include <stdint.h>
#include "proto.h"
#include "result.h"

struct emit_ctx {
	const char *fs;
	const char *test;
	int rep;                 /* 0 = no fs/test/rep keys */
};

struct emitter {
	int fd;
	int kfd;                 /* /dev/kmsg when the records share the console, else -1 */
	char run[BM_RUN_LEN + 1];
	uint64_t seq;
	unsigned nresults, nerrors;
	char **rlines;           /* R lines as written, for the final repeat */
	size_t nr, rcap;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t beat_thread;
	int beat_running, beat_stop;
	long long beat_secs;
	double last_emit;        /* CLOCK_BOOTTIME seconds of the last record */
	char phase[16];
	int lava;                /* also M records: one per metric, one per failure */
	unsigned planned;        /* tests the suite expands into (END tests=); 0 unknown */
	unsigned planned_raw;    /* of those, on the test disk itself (END raw=) */
	char last_fail[BM_VAL_MAX]; /* id of the last failure M: one per failing test */
};

/* Opens path (O_WRONLY|O_NOCTTY; raw mode when it is a tty). 0 or -errno. */
int emit_open(struct emitter *e, const char *path, const char *run);
/* Uses an already open fd (tests: a pipe or a file). */
void emit_init_fd(struct emitter *e, int fd, const char *run);
void emit_close(struct emitter *e);

/*
 * With lava set, every R record is followed by one M record per metric and
 * every E record by one failure M (docs/protocol.md, docs/lava.md), which a
 * LAVA monitor pattern turns into test cases.
 */
void emit_set_lava(struct emitter *e, int on);
/* The number of tests the run plans (jobs x tests x filesystems x repeats,
 * a raw job's tests once per repeat), written in the END record as tests= so
 * the host can tell that every one left an R or E record, and how many of
 * them are raw (raw=, when not 0): an E record that names only a filesystem
 * accounts for that filesystem's share of the others (docs/protocol.md). */
void emit_set_planned(struct emitter *e, unsigned n, unsigned raw);
/*
 * The M id: "<fs>__<test>__r<rep>__<metric>", or without the metric for a
 * failed test, and "run__<cls>" for an error outside any test (fs NULL or
 * rep 0: what the E record names, which has no fs= key then).  Each part is
 * lowercased and every run of other bytes than [a-z0-9] becomes one "_",
 * trimmed at both ends, so an id is made of LAVA's word characters (LAVA
 * keeps it as it is) and "__" only ever separates parts (ids stay unique).
 */
void emit_lava_id(char *buf, size_t len, const char *fs, const char *test, int rep,
		  const char *metric, const char *cls);
/* A unit as an M record carries it: "%" is "percent", other bytes outside
 * '!'..'~' are "_", empty is "none" (no escape shows up in LAVA). */
void emit_lava_unit(char *buf, size_t len, const char *unit);

/* Starts/stops the heartbeat thread. */
int emit_beat_start(struct emitter *e, long long secs);
void emit_beat_stop(struct emitter *e);

int emit_hello(struct emitter *e, const struct bm_kv *kv, unsigned n);
int emit_phase(struct emitter *e, const char *phase, const struct emit_ctx *c);
/* A B record now if the interval has passed since the last record. */
int emit_beat_maybe(struct emitter *e);
int emit_beat(struct emitter *e);
int emit_result(struct emitter *e, const struct bm_result *r,
		const struct emit_ctx *c, const char *mkfs, const char *mount_opts);
/* emit_result with extra keys after partial= (host mode: cache=). */
int emit_result_kv(struct emitter *e, const struct bm_result *r,
		   const struct emit_ctx *c, const char *mkfs, const char *mount_opts,
		   const struct bm_kv *extra, unsigned nextra);
int emit_error(struct emitter *e, const char *cls, const struct emit_ctx *c,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Repeats the R lines, then writes Z. */
int emit_end(struct emitter *e);

/* "%.0f" for integral values, otherwise up to 6 decimals without trailing zeros. */
void emit_fmt_value(char *buf, size_t len, double v);
double emit_now(void);

#endif
