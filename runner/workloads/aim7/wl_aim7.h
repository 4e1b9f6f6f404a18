/* SPDX-License-Identifier: MIT */
/* AIM7 workload: options, workfiles, subtests and the pure computations,
 * shared by its description (desc_aim7*.c), its engine (wl_aim7.c,
 * aim7_*.c) and their tests.  The facts
 * are AIM Suite VII's (multitask.c, suite.h, the workfiles and the test
 * sources; docs/workloads.md cites the function each subtest follows). */
#ifndef BM_RUNNER_WL_AIM7_H
#define BM_RUNNER_WL_AIM7_H

#include <stddef.h>
#include <stdint.h>

#include "report.h"
#include "result.h"

#define AIM7_TASKS_MAX  4096   /* per test: forked processes */
#define AIM7_LISTS_MAX  16     /* task counts in one job */
#define AIM7_MIX_MAX    60     /* subtests in one workfile (shared has 53) */
#define AIM7_JOBS_MAX   10000  /* jobs per task (LOADNUM) */
#define AIM7_NBUF       1024   /* suite.h NBUFSIZE: the disk tests' block */

struct aim7_opts {
	char mix[48];        /* "fserver,dbase,shared": one set of tests each */
	char tasks[96];      /* "1,2,4,8": one test per count and mix */
	long long jobs;      /* LOADNUM: jobs per task before rounding (100) */
	char filesize[24];   /* workfile FILESIZE; "": the workfile's own */
	char poolsize[24];   /* workfile POOLSIZE; "": the workfile's own */
	long long seed;      /* added to each task's aim_srand(user) seed; 0: AIM's */
	long long sleep;     /* s between the forks and the start signal (SLEEP 10) */
};

struct aim7_weight {
	const char *test;    /* subtest name as in the workfile: "disk_rd" */
	unsigned weight;
};

struct aim7_mix {
	const char *name;    /* "fserver" */
	const char *sccs;    /* the workfile's version line: "workfile.fserver:1.3" */
	uint64_t filesize;   /* bytes */
	uint64_t poolsize;   /* bytes */
	const struct aim7_weight *w;
	unsigned n;
};

/* What a subtest works with: AIM's per-process state (a task is a
 * process, so these are AIM's statics and globals). */
struct aim7_env {
	unsigned long seed;  /* aim_rand()'s state: job choice and disk offsets */
	unsigned disk_kib;   /* disk_iteration_count: FILESIZE + POOLSIZE/tasks */
	unsigned load;       /* current_user_load_number (shell_rtns_1's $1) */
	int mktemp_counter;  /* aim_mktemp()'s counter, -1 before the first call */
	int pipe_count;      /* pipe_test.c's size index */
	unsigned vals_i, vals10_i;  /* num_fcns.c's count and count10 */
	char *err;           /* message on failure, naming the operation */
	size_t errlen;
};

struct aim7_test {
	const char *name;
	int (*fn)(struct aim7_env *env);   /* 0 or -errno (err filled) */
	const char *src;                  /* AIM's file and function */
	const char *unit;                 /* one line: the unit of work */
};

/* desc_aim7.c: FILESIZE and POOLSIZE, the option when set, else the
 * workfile's (0 or -EINVAL); test idx is mix idx / ntasks, task count
 * idx % ntasks (NULL: no such test). */
int aim7_sizes(const struct aim7_opts *o, const struct aim7_mix *m, uint64_t *fs,
	       uint64_t *ps);
const struct aim7_mix *aim7_test(const struct aim7_opts *o, int idx, unsigned *tasks);
extern const struct bm_report_ops report_aim7_ops;

/* desc_aim7_mix.c: the workfiles and their pure arithmetic */
const struct aim7_mix *aim7_mix_find(const char *name);
extern const char *const aim7_mix_names[];   /* NULL-terminated */
/* multitask.c runtap(): counts[j] = the integer part of w_j/sum*loadnum,
 * +1 when the fraction is >= 0.5, and 1 for a test that would get none.
 * Returns the recomputed total (number_processes_per_user). */
unsigned aim7_job_counts(const struct aim7_mix *m, unsigned loadnum, unsigned *counts);
/* rand.c aim_rand(): seed = seed * 1103515245 + 12345 (an unsigned long),
 * returns bits 16..30. */
unsigned aim7_rand(unsigned long *seed);
/* runtap()'s sampling without replacement: k = aim_rand() % work; when
 * wlist[k] is spent, reduce_list() picks aim_rand() % (tests left) among
 * the tests with jobs left.  Takes one job from wlist; returns its index,
 * or -1 when none is left. */
int aim7_next_job(unsigned *wlist, unsigned work, unsigned long *seed);
/* "1,2,4" -> {1,2,4}: the count, or -EINVAL. */
int aim7_tasks_parse(const char *list, unsigned *out, int max);
/* Jobs/Min = jobs_per_task / real * 60 * tasks. */
double aim7_jobs_min(unsigned jobs_per_task, unsigned tasks, double real);
/* JTI = (1 - stddev/mean of the children's times) * 100 (100 for one). */
double aim7_jti(const double *t, unsigned n);
/* disk_iteration_count: FILESIZE + POOLSIZE/tasks, in KiB (truncated). */
unsigned aim7_disk_kib(uint64_t filesize, uint64_t poolsize, unsigned tasks);

/* runner/workloads/aim7/aim7_disk.c, aim7_arith.c, aim7_num.c, aim7_proc.c */
const struct aim7_test *aim7_test_find(const char *name);
extern const struct aim7_test aim7_disk_tests[];    /* NULL-name terminated */
extern const struct aim7_test aim7_arith_tests[];
extern const struct aim7_test aim7_num_tests[];
extern const struct aim7_test aim7_proc_tests[];
/* The shared directory's contents, in the task's cwd (AIM's "DISKS" with
 * an empty config: every task works in multitask's current directory):
 * tmpa.common (disk_create_all_files()), the fakeh tree disk_src searches
 * and aim_1.sh.  0 or -errno with err filled. */
int aim7_make_common(unsigned kib, char *err, size_t errlen);
int aim7_make_fakeh(char *err, size_t errlen);
int aim7_make_scripts(char *err, size_t errlen);
/* runner/workloads/aim7/aim7_str.c: num_fcns.c's string, memory, misc and shell subtests */
int aim7_string_rtns(struct aim7_env *env);
int aim7_mem_rtns_1(struct aim7_env *env);
int aim7_mem_rtns_2(struct aim7_env *env);
int aim7_misc_rtns_1(struct aim7_env *env);
int aim7_shell_rtns_1(struct aim7_env *env);
/* num_fcns_c()'s tables (vals, vals10, the sort table), filled once per
 * process before its first job, as AIM fills them before the fork. */
void aim7_num_init(void);
/* "disk_rr: write tmpb.0123400001: No space left on device"; returns -err. */
int aim7_fail(struct aim7_env *env, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* disk1.c aim_mktemp(): prefix, then the last 5 digits of the pid and a
 * 5-digit counter, as AIM fills its template's ten trailing characters. */
void aim7_mktemp(struct aim7_env *env, char *buf, size_t len, const char *prefix);

#endif
