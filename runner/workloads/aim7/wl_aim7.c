// SPDX-License-Identifier: MIT
/*
 * AIM7 (AIM Suite VII multitask.c), re-implemented.  One test per (mix,
 * task count): T forked tasks, each running its share of the workfile
 * (runner/workloads/aim7/desc_aim7_mix.c) in one shared directory, all started at once.
 *
 * As runtap(): the tasks are forked and report ready, the clock starts
 * (rt1), the parent sleeps SLEEP (10) seconds and fires the start signal;
 * Real is rt1 to the last task's exit, so it holds the sleep, and so does
 * each task's elapsed time, which JTI uses.  CPU is the tasks' user +
 * system time (RUSAGE_CHILDREN: AIM's tms_cutime + tms_cstime, which also
 * holds what the tasks' own children used).
 *
 * A task is AIM's child: aim_srand(user) (user = 0..T-1, plus seed=), then
 * LOADNUM draws without replacement, each job run with AIM's arguments;
 * aim_rand() also gives the disk tests their offsets, so the jobs' order
 * and their I/O are AIM's for a given task index.
 *
 * prepare() (not measured) makes <mnt>/aim7, the directory every task
 * works in (AIM's current directory: its config names no disk
 * directories), with tmpa.common of FILESIZE + POOLSIZE/tasks KiB as
 * disk_create_all_files() writes it, the fakeh tree disk_src searches,
 * aim_1.sh and ./true; it brings up lo for tcp/udp_test.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hosttree.h"
#include "log.h"
#include "netlo.h"
#include "stats.h"
#include "wl.h"
#include "wl_aim7.h"

#define MiB (1024ull * 1024ull)
#define BEAT_NS 5000000000ll

/* Per task, in a MAP_SHARED page the parent reads after the exits. */
struct aim7_slot {
	int ret;
	double secs;         /* rt1 to this task's end */
	char msg[240];
};

static void aim7_top(const struct wl_ctx *ctx, char *top, size_t len)
{
	snprintf(top, len, "%s/aim7", ctx->mnt);
}

static int mix_uses(const struct aim7_mix *m, const char *test)
{
	unsigned i;

	for (i = 0; i < m->n; i++)
		if (!strcmp(m->w[i].test, test))
			return 1;
	return 0;
}

/* Removes <mnt>/aim7 and everything the jobs left in it; missing is fine. */
static void rm_top(const struct wl_ctx *ctx)
{
	int fd = open(ctx->mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return;
	hosttree_remove(fd, "aim7");
	close(fd);
}

/* The shared directory's files, made from inside it (the makers use
 * relative names, as the tasks do); the runner's cwd is restored. */
static int make_shared(const char *top, unsigned kib, char *err, size_t errlen)
{
	int here = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret;

	if (here < 0)
		return -errno;
	if (chdir(top)) {
		ret = -errno;
		snprintf(err, errlen, "cannot enter %s: %s", top, strerror(errno));
		goto out_close;
	}
	ret = aim7_make_common(kib, err, errlen);
	if (!ret)
		ret = aim7_make_fakeh(err, errlen);
	if (!ret)
		ret = aim7_make_scripts(err, errlen);
	if (fchdir(here) && !ret)
		ret = -errno;
out_close:
	close(here);
	return ret;
}

static int aim7_prepare(struct wl_ctx *ctx, const void *opts, int idx)
{
	const struct aim7_opts *o = opts;
	const struct aim7_mix *m;
	char top[512], err[600];
	uint64_t fs, ps;
	unsigned t;
	int ret;

	m = aim7_test(o, idx, &t);
	if (!m || aim7_sizes(o, m, &fs, &ps))
		return -EINVAL;
	if (mix_uses(m, "tcp_test") || mix_uses(m, "udp_test")) {
		ret = bm_netlo_up();
		if (ret) {
			rlog(RLOG_ERR, "bootmark-runner: cannot bring up the loopback interface "
			     "lo for tcp_test/udp_test: %s", strerror(-ret));
			return -ENETDOWN;
		}
	}
	aim7_top(ctx, top, sizeof(top));
	rm_top(ctx);
	if (mkdir(top, 0755))
		return -errno;
	ret = make_shared(top, aim7_disk_kib(fs, ps, t), err, sizeof(err));
	if (ret)
		rlog(RLOG_ERR, "bootmark-runner: aim7: %s", err);
	return ret;
}

/* One task, runtap()'s child: seeded with its user number, it waits for
 * the start signal, then draws and runs its jobs; reports in its slot. */
static void __attribute__((noreturn))
task_main(const struct aim7_opts *o, const struct aim7_mix *m, const char *top,
	  unsigned t, unsigned i, int gate, int ready, const volatile double *rt1,
	  struct aim7_slot *slot)
{
	unsigned wlist[AIM7_MIX_MAX], n, j;
	const struct aim7_test *test;
	struct aim7_env env;
	uint64_t fs, ps;
	int ret = 0, k;
	char c = 1;

	n = aim7_job_counts(m, (unsigned)o->jobs, wlist);
	aim7_sizes(o, m, &fs, &ps);
	memset(&env, 0, sizeof(env));
	env.seed = (unsigned long)i + (unsigned long)o->seed;    /* aim_srand(user) */
	env.disk_kib = aim7_disk_kib(fs, ps, t);
	env.load = t;
	env.mktemp_counter = -1;
	env.err = slot->msg;
	env.errlen = sizeof(slot->msg);
	aim7_num_init();
	if (chdir(top)) {
		slot->ret = -errno;
		snprintf(slot->msg, sizeof(slot->msg), "cannot enter %.200s", top);
		_exit(1);
	}
	if (write(ready, &c, 1) != 1)
		_exit(1);
	close(ready);
	while (read(gate, &c, 1) < 0 && errno == EINTR)
		;
	for (j = 0; j < n && !ret; j++) {
		k = aim7_next_job(wlist, m->n, &env.seed);
		test = k < 0 ? NULL : aim7_test_find(m->w[k].test);
		if (!test) {
			snprintf(slot->msg, sizeof(slot->msg), "no subtest %s",
				 k < 0 ? "left" : m->w[k].test);
			ret = -ENOSYS;
			break;
		}
		ret = test->fn(&env);
	}
	slot->secs = bm_now_s() - *rt1;
	slot->ret = ret;
	_exit(ret ? 1 : 0);
}

struct aim7_shared {
	double rt1;          /* CLOCK_MONOTONIC when every task was ready */
	struct aim7_slot slot[];
};

/* The parent's side of runtap()'s start: wait for each task's "ready"
 * byte (the umbilical pipe), take rt1, sleep SLEEP seconds (heartbeats
 * on), then fire the start signal by closing the gate. */
static int start_tasks(struct wl_ctx *ctx, const struct aim7_opts *o, int ready, int gate,
		       unsigned n, struct aim7_shared *sh)
{
	unsigned got = 0;
	long long s;
	char c;
	ssize_t r;

	while (got < n) {
		r = read(ready, &c, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -ECHILD;    /* a task died before ready */
		got++;
	}
	sh->rt1 = bm_now_s();
	for (s = 0; s < o->sleep; s++) {
		sleep(1);
		if (ctx->beat)
			ctx->beat(ctx, "aim7");
	}
	close(gate);
	return 0;
}

/* Reaps every task, polling each millisecond so that long runs still send
 * heartbeats; returns the time of the last exit seen. */
static double reap_all(struct wl_ctx *ctx, pid_t *pid, unsigned n, int *status)
{
	struct timespec ms = { 0, 1000000 }, last, t;
	unsigned left = n, i;
	int st;

	clock_gettime(CLOCK_MONOTONIC, &last);
	while (left) {
		for (i = 0; i < n; i++) {
			if (pid[i] <= 0 || waitpid(pid[i], &st, WNOHANG) != pid[i])
				continue;
			status[i] = st;
			pid[i] = 0;
			left--;
		}
		if (!left)
			break;
		nanosleep(&ms, NULL);
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (ctx->beat && (t.tv_sec - last.tv_sec) * 1000000000ll +
		    (t.tv_nsec - last.tv_nsec) > BEAT_NS) {
			ctx->beat(ctx, "aim7");
			last = t;
		}
	}
	return bm_now_s();
}

static void aim7_metrics(struct bm_result *r, unsigned jobs, unsigned t, double real,
			 const struct bm_cpu *c0, const struct bm_cpu *c1, double jti)
{
	double ut = c1->user_s - c0->user_s, st = c1->sys_s - c0->sys_s;

	bm_result_add(r, "jobs_min", aim7_jobs_min(jobs, t, real), "jobs/min");
	bm_result_add(r, "aim_real", real, "s");
	bm_result_add(r, "cpu", ut + st, "s");
	bm_result_add(r, "utime_c", ut, "s");
	bm_result_add(r, "stime_c", st, "s");
	bm_result_add(r, "jobs_sec_task", real > 0 ? jobs / real : 0.0, "jobs/s");
	bm_result_add(r, "jti", jti, "%");
	bm_result_add(r, "jobs", jobs, "count");
	bm_result_add(r, "tasks", t, "count");
}

static int aim7_run(struct wl_ctx *ctx, const void *opts, int idx, struct bm_result *r)
{
	const struct aim7_opts *o = opts;
	const struct aim7_mix *m;
	unsigned counts[AIM7_MIX_MAX], t, i, started = 0, jobs;
	char top[512];
	struct aim7_shared *sh;
	struct bm_cpu c0, c1;
	int gate[2], ready[2], *status = NULL, ret = 0;
	double *secs = NULL, end;
	pid_t *pid = NULL;
	size_t shlen;

	m = aim7_test(o, idx, &t);
	if (!m)
		return -EINVAL;
	aim7_top(ctx, top, sizeof(top));
	jobs = aim7_job_counts(m, (unsigned)o->jobs, counts);
	shlen = sizeof(*sh) + t * sizeof(sh->slot[0]);
	sh = mmap(NULL, shlen, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return -errno;
	pid = calloc(t, sizeof(*pid));
	status = calloc(t, sizeof(*status));
	secs = calloc(t, sizeof(*secs));
	if (!pid || !status || !secs) {
		ret = -ENOMEM;
		goto out_free;
	}
	if (pipe2(gate, O_CLOEXEC)) {
		ret = -errno;
		goto out_free;
	}
	if (pipe2(ready, O_CLOEXEC)) {
		ret = -errno;
		close(gate[0]);
		close(gate[1]);
		goto out_free;
	}
	bm_cpu_now(&c0, RUSAGE_CHILDREN);
	for (started = 0; started < t; started++) {
		pid[started] = fork();
		if (pid[started] < 0) {
			ret = -errno;
			break;
		}
		if (!pid[started]) {
			close(gate[1]);
			close(ready[0]);
			task_main(o, m, top, t, started, gate[0], ready[1], &sh->rt1,
				  &sh->slot[started]);
		}
	}
	close(gate[0]);
	close(ready[1]);
	if (!ret)
		ret = start_tasks(ctx, o, ready[0], gate[1], t, sh);
	close(ready[0]);
	if (ret) {          /* a task that cannot start: no test at all */
		for (i = 0; i < started; i++)
			kill(pid[i], SIGKILL);
		close(gate[1]);
	}
	end = reap_all(ctx, pid, started, status);
	bm_cpu_now(&c1, RUSAGE_CHILDREN);
	if (ret)
		goto out_free;
	for (i = 0; i < t; i++) {
		secs[i] = sh->slot[i].secs;
		if (ret)
			continue;
		if (sh->slot[i].ret || !WIFEXITED(status[i]) || WEXITSTATUS(status[i])) {
			ret = sh->slot[i].ret ? sh->slot[i].ret : -EIO;
			rlog(RLOG_ERR, "bootmark-runner: aim7 task %u: %s", i,
			     sh->slot[i].msg[0] ? sh->slot[i].msg : "died");
		}
	}
	aim7_metrics(r, jobs, t, end - sh->rt1, &c0, &c1, aim7_jti(secs, t));
	if (ret)
		r->partial = 1;
out_free:
	free(secs);
	free(status);
	free(pid);
	munmap(sh, shlen);
	return ret;
}

static void aim7_inspect(struct wl_ctx *ctx, const void *opts, int idx, struct bm_result *r)
{
	(void)opts;
	(void)idx;
	(void)r;
	rm_top(ctx);
}

const struct wl_ops wl_aim7_ops = {
	.desc = &wl_aim7_desc,
	.flags = 0,
	.prepare = aim7_prepare,
	.run = aim7_run,
	.inspect = aim7_inspect,
};
