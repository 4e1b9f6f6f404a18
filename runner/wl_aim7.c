// SPDX-License-Identifier: MIT
/*
 * AIM7 (AIM Suite VII multitask / OSDL reaim), re-implemented.  One test
 * per (mix, task count): T forked tasks each run the mix's job list
 * (runner/aim7_mix.c) in their own directory, all released at once.
 *
 * AIM7 forks the tasks, sleeps, then signals them all to start; here they
 * block reading a pipe whose write end the parent closes: the release,
 * and the clock starts there.  Real is release to the last task's exit;
 * CPU is the tasks' user+system time (RUSAGE_CHILDREN, which also counts
 * the helpers a task forks and reaps: stream_pipe, shared_memory), as
 * AIM7's tms_cutime + tms_cstime.
 *
 * prepare() (not measured) writes tmpa.common, the file disk_rd and
 * disk_cp read, of FILESIZE + POOLSIZE/tasks KiB, makes the task
 * directories, and brings up the loopback interface for tcp/udp_test.
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

#include "log.h"
#include "netlo.h"
#include "stats.h"
#include "wl.h"
#include "wl_aim7.h"

#define MiB (1024ull * 1024ull)
#define BEAT_NS 5000000000ll

static const struct bm_opt aim7_opts_tab[] = {
	{ .name = "mix", .type = BM_OPT_LIST, .off = offsetof(struct aim7_opts, mix),
	  .len = sizeof(((struct aim7_opts *)0)->mix), .def = "fserver",
	  .choices = aim7_mix_names, .help = "workfiles: fserver, dbase, shared" },
	{ .name = "tasks", .type = BM_OPT_LIST, .off = offsetof(struct aim7_opts, tasks),
	  .len = sizeof(((struct aim7_opts *)0)->tasks), .def = "1,2,4,8",
	  .help = "task counts, one test each per mix (1..4096)" },
	{ .name = "jobs", .type = BM_OPT_INT, .off = offsetof(struct aim7_opts, jobs),
	  .def = "100", .min = 1, .max = AIM7_JOBS_MAX,
	  .help = "LOADNUM: jobs per task before rounding (reaim -j)" },
	{ .name = "filesize", .type = BM_OPT_SIZE, .off = offsetof(struct aim7_opts, filesize),
	  .def = "10M", .min = 1024, .max = 1ll << 40, .help = "workfile FILESIZE" },
	{ .name = "poolsize", .type = BM_OPT_SIZE, .off = offsetof(struct aim7_opts, poolsize),
	  .def = "20M", .min = 0, .max = 1ll << 40, .help = "workfile POOLSIZE, shared by the tasks" },
	{ .name = "seed", .type = BM_OPT_INT, .off = offsetof(struct aim7_opts, seed),
	  .def = "1", .min = 0, .max = 1ll << 62, .help = "seed of the job order" },
	BM_OPT_END
};

/* Per task, in a MAP_SHARED page the parent reads after the exits. */
struct aim7_slot {
	int ret;
	double secs;         /* release to this task's end */
	char msg[240];
};

/* Test idx: mix idx / ntasks, task count idx % ntasks. */
static const struct aim7_mix *aim7_test(const struct aim7_opts *o, int idx, unsigned *tasks)
{
	char buf[sizeof(o->mix)], *save = NULL, *tok;
	unsigned list[AIM7_LISTS_MAX];
	int nt = aim7_tasks_parse(o->tasks, list, AIM7_LISTS_MAX), i = 0;

	if (nt < 0 || idx < 0)
		return NULL;
	snprintf(buf, sizeof(buf), "%s", o->mix);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save), i++) {
		if (i != idx / nt)
			continue;
		*tasks = list[idx % nt];
		return aim7_mix_find(tok);
	}
	return NULL;
}

static int aim7_check(const void *opts, char *err, size_t errlen)
{
	const struct aim7_opts *o = opts;
	unsigned list[AIM7_LISTS_MAX];

	if (aim7_tasks_parse(o->tasks, list, AIM7_LISTS_MAX) < 0) {
		snprintf(err, errlen, "option 'tasks': \"%s\" is not a comma list of at most %d "
			 "task counts, each 1..%d", o->tasks, AIM7_LISTS_MAX, AIM7_TASKS_MAX);
		return -EINVAL;
	}
	if (!o->mix[0]) {
		snprintf(err, errlen, "option 'mix': empty, want fserver, dbase or shared");
		return -EINVAL;
	}
	return 0;
}

static int aim7_ntests(const void *opts)
{
	unsigned t;
	int n = 0;

	while (aim7_test(opts, n, &t))
		n++;
	return n;
}

static int aim7_describe(const void *opts, int idx, struct bm_result *r)
{
	const struct aim7_opts *o = opts;
	const struct aim7_mix *m;
	char fs[32], ps[32];
	unsigned t;

	m = aim7_test(o, idx, &t);
	if (!m)
		return -EINVAL;
	bm_fmt_size(fs, sizeof(fs), o->filesize, "kMGT");
	bm_fmt_size(ps, sizeof(ps), o->poolsize, "kMGT");
	snprintf(r->wl, sizeof(r->wl), "aim7");
	snprintf(r->test, sizeof(r->test), "aim7-%s-t%u", m->name, t);
	snprintf(r->params, sizeof(r->params), "mix=%s tasks=%u jobs=%lld filesize=%s poolsize=%s",
		 m->name, t, o->jobs, fs, ps);
	return 0;
}

static void aim7_paths(const struct wl_ctx *ctx, char *top, char *common, size_t len)
{
	snprintf(top, len, "%s/aim7", ctx->mnt);
	snprintf(common, len, "%s/aim7/tmpa.common", ctx->mnt);
}

static int mix_uses(const struct aim7_mix *m, const char *test)
{
	unsigned i;

	for (i = 0; i < m->n; i++)
		if (!strcmp(m->w[i].test, test))
			return 1;
	return 0;
}

/* Removes dir and what the jobs leave in it (at most two levels: the task
 * directory and dir_rtns_1's "dirs"); missing is fine. */
static void rm_tree(const char *dir, int depth)
{
	char path[600];
	struct dirent *de;
	DIR *d = opendir(dir);

	if (d) {
		while ((de = readdir(d))) {
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			if (unlink(path) && (errno == EISDIR || errno == EPERM) && depth < 3)
				rm_tree(path, depth + 1);
		}
		closedir(d);
	}
	rmdir(dir);
}

static void task_dir(char *buf, size_t len, const char *top, unsigned i)
{
	snprintf(buf, len, "%s/t%u", top, i);
}

static int aim7_prepare(struct wl_ctx *ctx, const void *opts, int idx)
{
	const struct aim7_opts *o = opts;
	const struct aim7_mix *m;
	char top[512], common[512], dir[600], err[600];
	unsigned t, i;
	int ret;

	m = aim7_test(o, idx, &t);
	if (!m)
		return -EINVAL;
	if (mix_uses(m, "tcp_test") || mix_uses(m, "udp_test")) {
		ret = bm_netlo_up();
		if (ret) {
			rlog(RLOG_ERR, "bootmark-runner: cannot bring up the loopback interface "
			     "lo for tcp_test/udp_test: %s", strerror(-ret));
			return -ENETDOWN;
		}
	}
	aim7_paths(ctx, top, common, sizeof(top));
	rm_tree(top, 0);
	if (mkdir(top, 0755))
		return -errno;
	for (i = 0; i < t; i++) {
		task_dir(dir, sizeof(dir), top, i);
		if (mkdir(dir, 0755))
			return -errno;
	}
	ret = aim7_make_common(common, aim7_disk_kib(o->filesize, o->poolsize, t),
			       err, sizeof(err));
	if (ret)
		rlog(RLOG_ERR, "bootmark-runner: aim7: %s", err);
	return ret;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One task: wait for the release, run the job list, report in the slot. */
static void __attribute__((noreturn))
task_main(const struct aim7_opts *o, const struct aim7_mix *m, const char *top,
	  unsigned t, unsigned i, int gate, const volatile double *release,
	  struct aim7_slot *slot)
{
	char dir[600], common[600], c;
	const struct aim7_test *test;
	struct aim7_env env;
	unsigned *jobs, n, j;
	int ret = 0;

	jobs = malloc(sizeof(*jobs) * (AIM7_MIX_MAX + (size_t)o->jobs * 2));
	if (!jobs) {
		slot->ret = -ENOMEM;
		_exit(1);
	}
	n = aim7_job_list(m, (unsigned)o->jobs, (uint64_t)o->seed, i, jobs);
	task_dir(dir, sizeof(dir), top, i);
	snprintf(common, sizeof(common), "%s/tmpa.common", top);
	memset(&env, 0, sizeof(env));
	env.dir = dir;
	env.common = common;
	env.disk_kib = aim7_disk_kib(o->filesize, o->poolsize, t);
	env.rng = (uint64_t)o->seed ^ ((uint64_t)(i + 1) << 32);
	env.err = slot->msg;
	env.errlen = sizeof(slot->msg);
	while (read(gate, &c, 1) < 0 && errno == EINTR)
		;
	for (j = 0; j < n && !ret; j++) {
		test = aim7_test_find(m->w[jobs[j]].test);
		if (!test) {
			snprintf(slot->msg, sizeof(slot->msg), "no subtest %s", m->w[jobs[j]].test);
			ret = -ENOSYS;
			break;
		}
		ret = test->fn(&env);
	}
	slot->secs = now_s() - *release;
	slot->ret = ret;
	_exit(ret ? 1 : 0);
}

struct aim7_shared {
	double release;      /* CLOCK_MONOTONIC at the release */
	struct aim7_slot slot[];
};

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
	return now_s();
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
	char top[512], common[512];
	struct aim7_shared *sh;
	struct bm_cpu c0, c1;
	int gate[2], *status = NULL, ret = 0;
	double *secs = NULL, end;
	pid_t *pid = NULL;
	size_t shlen;

	m = aim7_test(o, idx, &t);
	if (!m)
		return -EINVAL;
	aim7_paths(ctx, top, common, sizeof(top));
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
	bm_cpu_now(&c0, RUSAGE_CHILDREN);
	for (started = 0; started < t; started++) {
		pid[started] = fork();
		if (pid[started] < 0) {
			ret = -errno;
			break;
		}
		if (!pid[started]) {
			close(gate[1]);
			task_main(o, m, top, t, started, gate[0], &sh->release, &sh->slot[started]);
		}
	}
	close(gate[0]);
	if (ret)            /* a task that cannot start: no test at all */
		for (i = 0; i < started; i++)
			kill(pid[i], SIGKILL);
	sh->release = now_s();
	close(gate[1]);     /* the release: every task's read() returns 0 */
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
	aim7_metrics(r, jobs, t, end - sh->release, &c0, &c1, aim7_jti(secs, t));
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
	char top[512], common[512];

	(void)opts;
	(void)idx;
	(void)r;
	aim7_paths(ctx, top, common, sizeof(top));
	rm_tree(top, 0);
}

const struct wl_ops wl_aim7_ops = {
	.name = "aim7",
	.flags = 0,
	.opts = aim7_opts_tab,
	.opts_size = sizeof(struct aim7_opts),
	.check = aim7_check,
	.ntests = aim7_ntests,
	.describe = aim7_describe,
	.prepare = aim7_prepare,
	.run = aim7_run,
	.inspect = aim7_inspect,
};
