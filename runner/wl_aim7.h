/* SPDX-License-Identifier: MIT */
/* AIM7 workload: options, mixes, subtests and the pure computations,
 * shared by runner/wl_aim7.c, runner/aim7_*.c and their tests. */
#ifndef BM_RUNNER_WL_AIM7_H
#define BM_RUNNER_WL_AIM7_H

#include <stddef.h>
#include <stdint.h>

#include "result.h"

#define AIM7_TASKS_MAX  4096   /* per test: forked processes */
#define AIM7_LISTS_MAX  16     /* task counts in one job */
#define AIM7_MIX_MAX    40     /* subtests in one mix */
#define AIM7_JOBS_MAX   10000  /* jobs per task (LOADNUM) */

struct aim7_opts {
	char mix[48];        /* "fserver,dbase,shared": one set of tests each */
	char tasks[96];      /* "1,2,4,8": one test per count and mix */
	long long jobs;      /* LOADNUM: jobs per task before rounding (100) */
	uint64_t filesize;   /* workfile FILESIZE; 0: the mix's own */
	uint64_t poolsize;   /* workfile POOLSIZE; 0: the mix's own */
	long long seed;      /* job shuffle seed */
};

struct aim7_weight {
	const char *test;    /* subtest name as in the workfile: "disk_rd" */
	unsigned weight;
};

struct aim7_mix {
	const char *name;    /* "fserver" */
	uint64_t filesize;   /* bytes */
	uint64_t poolsize;   /* bytes */
	const struct aim7_weight *w;
	unsigned n;
};

/* What a subtest may use: its task's directory, the shared file
 * (tmpa.common, disk_kib KiB) and a per-task random state. */
struct aim7_env {
	const char *dir;
	const char *common;
	unsigned disk_kib;
	uint64_t rng;
	char *err;           /* message on failure, naming the operation */
	size_t errlen;
};

struct aim7_test {
	const char *name;
	int (*fn)(struct aim7_env *env);   /* 0 or -errno (err filled) */
	const char *unit;                 /* one line: the unit of work */
};

/* runner/aim7_mix.c */
const struct aim7_mix *aim7_mix_find(const char *name);
extern const char *const aim7_mix_names[];   /* NULL-terminated */
/* Job count of each weight (counts[n]): round(w/sum*loadnum), at least 1.
 * Returns the recomputed total. */
unsigned aim7_job_counts(const struct aim7_mix *m, unsigned loadnum, unsigned *counts);
/* The job list of one task: indexes into m->w, counts expanded, then
 * shuffled (Fisher-Yates, splitmix64 seeded with seed and task).  jobs
 * must hold the total of aim7_job_counts. */
unsigned aim7_job_list(const struct aim7_mix *m, unsigned loadnum, uint64_t seed,
		       unsigned task, unsigned *jobs);
uint64_t aim7_rand(uint64_t *state);           /* splitmix64 */
/* "1,2,4" -> {1,2,4}: the count, or -EINVAL. */
int aim7_tasks_parse(const char *list, unsigned *out, int max);
/* Jobs/Min = jobs_per_task / real * 60 * tasks. */
double aim7_jobs_min(unsigned jobs_per_task, unsigned tasks, double real);
/* JTI = (1 - stddev/mean of the children's times) * 100 (100 for one). */
double aim7_jti(const double *t, unsigned n);
/* The disk file of a task: FILESIZE + POOLSIZE/tasks, in KiB. */
unsigned aim7_disk_kib(uint64_t filesize, uint64_t poolsize, unsigned tasks);

/* runner/aim7_tests.c, aim7_tests2.c */
const struct aim7_test *aim7_test_find(const char *name);
extern const struct aim7_test aim7_disk_tests[];    /* NULL-name terminated */
extern const struct aim7_test aim7_cpu_tests[];
/* Creates the shared file of kib KiB (1 KiB writes, then fsync). */
int aim7_make_common(const char *path, unsigned kib, char *err, size_t errlen);

#endif
