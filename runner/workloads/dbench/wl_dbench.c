// SPDX-License-Identifier: MIT
/*
 * dbench: dbench 4.0's fileio backend replaying an NBENCH loadfile
 * (client.txt) with N clients, each in dir/clients/client<N>.  One job
 * expands into one test per client count, labelled "dbench<N>" as in seed 004.
 *
 * Clients are threads, where dbench forks processes: every operation is a
 * path or fd syscall on the client's own files, so the kernel sees the same
 * calls.  What threads share that processes do not (the fd table, POSIX
 * locks) never meets: no client touches another's files, so no lock can
 * conflict; only the fd table's lock is shared (docs/workloads.md).
 *
 * Timing is dbench 4.0's: a warm-up of t/5 s, then at the first 1 s tick
 * where every client has moved bytes the window opens; it closes after t s,
 * the clients stop and each deletes its files (dbench's cleanup).  All of
 * it is inside the runner's window, as timing the dbench command would be;
 * tput, ops and the latencies cover the timed window only.
 *
 * version=2 and version=1 are dbench 2.x and 1.x (dbench.c create_procs()
 * and main() of those releases): every client replays the loadfile once,
 * there is no warm-up and no time limit, and the clock runs from the start
 * signal to the last client's end.  2.x prints 1e-6 x all bytes / t; 1.x
 * printed 132 x nprocs / t, 132 being the MB of one pass of its loadfile,
 * which bootmark computes from the loadfile it replays.
 *
 * The loadfile is required: a missing or unreadable one ends the test with
 * an E record naming it.  loadfile=generated selects bootmark's own mix,
 * and says so in params (loadfile=generated) and in the tables.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "emit.h"
#include "log.h"
#include "stats.h"
#include "wl.h"
#include "wl_dbench.h"

double db_tput(uint64_t bytes, double secs)
{
	return secs > 0 ? 1e-6 * (double)bytes / secs : 0;
}

double db_tput_v1(double pass_mb, int clients, double secs)
{
	return secs > 0 ? pass_mb * clients / secs : 0;
}

double db_pass_mb(const struct db_load *l)
{
	double b = 0;
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->op[i].kind == DB_READX || l->op[i].kind == DB_WRITEX)
			b += (double)l->op[i].a[2];
	return b / 1e6;
}

/* The loadfile, parsed once for all the tests of a job (and of the next
 * job, when it names the same file). */
static struct {
	char path[256];
	long long lines;
	struct db_load l;
	int loaded;
} db_cache;

/* The E record naming the loadfile, beside the runner's generic one
 * (ctx->priv is the emitter; NULL in unit tests, where stderr gets it). */
static void db_error(struct wl_ctx *ctx, const struct db_opts *o, int idx, const char *msg)
{
	struct bm_result r;
	struct emit_ctx ec = { .fs = ctx->fs, .test = r.test, .rep = ctx->rep };

	memset(&r, 0, sizeof(r));
	wl_dbench_desc.describe(o, idx, &r);
	if (ctx->priv)
		emit_error(ctx->priv, "bench", &ec, "dbench: %s", msg);
	else
		fprintf(stderr, "bootmark-runner: %s: dbench: %s\n", r.test, msg);
}

static int db_get_load(const struct db_opts *o, const struct db_load **out, char *err,
		       size_t errlen)
{
	int ret, gen = !strcmp(o->loadfile, "generated");
	const char *path;

	err[0] = '\0';
	if (db_cache.loaded && !strcmp(db_cache.path, o->loadfile) && db_cache.lines == o->lines)
		goto out;
	if (db_cache.loaded)
		db_load_free(&db_cache.l);
	db_cache.loaded = 0;
	path = o->loadfile;
	/* On a bare host (host mode) the image's copy is not there; the host's own
	 * dbench package has the file it is packed from (Makefile, DBENCH_CLIENT):
	 * the same loadfile, so the records keep the option's value, and the
	 * console names the file read. */
	if (!gen && !strcmp(path, DB_DEFAULT_LOADFILE) && access(path, R_OK) && errno == ENOENT &&
	    !access(DB_HOST_LOADFILE, R_OK)) {
		rlog(RLOG_INFO, "dbench: no %s here: the host's %s, the file the image packs",
		     DB_DEFAULT_LOADFILE, DB_HOST_LOADFILE);
		path = DB_HOST_LOADFILE;
	}
	if (!gen && access(path, R_OK)) {
		ret = -errno;
		snprintf(err, errlen, "loadfile %s: %s (the image carries %s, Debian's client.txt, "
			 "and a host with Debian's dbench package %s; loadfile=generated selects "
			 "bootmark's own mix)", path, strerror(errno), DB_DEFAULT_LOADFILE,
			 DB_HOST_LOADFILE);
		return ret;
	}
	if (gen) {
		char *text;
		size_t len;

		ret = db_load_generate(&text, &len, DB_GENERATED_OPS);
		if (!ret) {
			ret = db_load_parse(&db_cache.l, text, len, "generated loadfile", err,
					    errlen);
			free(text);
		}
	} else {
		ret = db_load_file(&db_cache.l, path, err, errlen);
	}
	if (ret) {
		if (!err[0])
			snprintf(err, errlen, "loadfile %s: %s", path, strerror(-ret));
		return ret;
	}
	/* lines=N: the first N lines are one pass (ops are in line order) */
	if (o->lines)
		while (db_cache.l.n && db_cache.l.op[db_cache.l.n - 1].line > (uint32_t)o->lines)
			db_cache.l.n--;
	snprintf(db_cache.path, sizeof(db_cache.path), "%s", o->loadfile);
	db_cache.lines = o->lines;
	db_cache.loaded = 1;
out:
	*out = &db_cache.l;
	return 0;
}

static int db_prepare(struct wl_ctx *ctx, const void *opts, int idx)
{
	const struct db_load *l;
	char path[512], err[512];
	int ret = db_get_load(opts, &l, err, sizeof(err));

	if (ret) {
		db_error(ctx, opts, idx, err);
		return ret;
	}
	/* dbench 4.0 makes <dir>/clients with the loadfile's own Mkdir (client.txt's
	 * second line: one client's mkdir wins, the others' fail; its trace,
	 * tests/trace_dbench.sh); for 1.x/2.x and bootmark's own mix it is made here */
	if (db_version(opts) == 4 && strcmp(((const struct db_opts *)opts)->loadfile, "generated"))
		return 0;
	snprintf(path, sizeof(path), "%s/clients", ctx->mnt);
	if (mkdir(path, 0777) && errno != EEXIST)
		return -errno;
	return 0;
}

struct db_shared {
	int phase;            /* 0 warm-up, 1 timed window, 2 stop */
	int abort;
	int go;               /* one pass (1.x, 2.x): the start signal */
	int done;             /* one pass: clients at the end of theirs */
};

struct db_thr {
	struct db_client c;
	struct db_shared *sh;
	pthread_t tid;
	uint64_t bytes[2];
	struct db_opstat st[2][DB_NKINDS];
	uint64_t end_ns;      /* one pass: when this client finished */
	int ret;
};

static void db_sleep_until(uint64_t ns)
{
	uint64_t now = bm_now_ns();
	struct timespec ts;

	if (now >= ns)
		return;
	ts.tv_sec = (time_t)((ns - now) / 1000000000u);
	ts.tv_nsec = (long)((ns - now) % 1000000000u);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void *db_client_main(void *arg)
{
	struct db_thr *t = arg;
	const struct db_load *l = t->c.l;
	uint64_t pass0 = bm_now_ns(), t0, dt, b;
	pid_t parent = getpid();
	size_t i = 0;
	int ph;

	while (__atomic_load_n(&t->sh->phase, __ATOMIC_ACQUIRE) < 2 &&
	       !__atomic_load_n(&t->sh->abort, __ATOMIC_RELAXED)) {
		const struct db_op *op = &l->op[i];

		/* a timestamped loadfile paces its lines (dbench's targett) */
		if (op->t > 0) {
			uint64_t due = pass0 + (uint64_t)(op->t * 1e9), now = bm_now_ns();

			if (due > now) {
				db_sleep_until(now + (due - now < 100000000u ? due - now : 100000000u));
				continue;
			}
		}
		/* a dbench 4.0 client asks before every operation whether its parent
		 * still lives, kill(parent, 0): one system call an operation (13,664
		 * for 13,663 operations in a 3 s strace of it), which bootmark makes
		 * too (docs/performance.md, "Fidelity by the system calls") */
		kill(parent, 0);
		t0 = bm_now_ns();
		t->ret = db_exec(&t->c, op, &b);
		dt = bm_now_ns() - t0;
		if (t->ret) {
			__atomic_store_n(&t->sh->abort, 1, __ATOMIC_RELAXED);
			break;
		}
		ph = __atomic_load_n(&t->sh->phase, __ATOMIC_ACQUIRE);
		if (ph < 2) {
			struct db_opstat *s = &t->st[ph][op->kind];

			s->n++;
			s->sum_ns += dt;
			if (dt > s->max_ns)
				s->max_ns = dt;
			__atomic_store_n(&t->bytes[ph], t->bytes[ph] + b, __ATOMIC_RELAXED);
		}
		if (++i == l->n) {  /* end of the loadfile: dbench rewinds */
			i = 0;
			pass0 = bm_now_ns();
		}
	}
	db_cleanup(&t->c);  /* in the client, as dbench 4.0's child_run ends */
	return NULL;
}

/* dbench 1.x/2.x: each client waits for the start signal (their pause()
 * for SIGCONT), replays the loadfile once, and ends.  Everything counts. */
static void *db_client_pass(void *arg)
{
	struct db_thr *t = arg;
	const struct db_load *l = t->c.l;
	uint64_t t0, dt, b;
	size_t i;

	while (!__atomic_load_n(&t->sh->go, __ATOMIC_ACQUIRE))
		db_sleep_until(bm_now_ns() + 100000);
	for (i = 0; i < l->n && !__atomic_load_n(&t->sh->abort, __ATOMIC_RELAXED); i++) {
		const struct db_op *op = &l->op[i];
		struct db_opstat *st = &t->st[1][op->kind];

		t0 = bm_now_ns();
		t->ret = db_exec(&t->c, op, &b);
		dt = bm_now_ns() - t0;
		if (t->ret) {
			__atomic_store_n(&t->sh->abort, 1, __ATOMIC_RELAXED);
			break;
		}
		st->n++;
		st->sum_ns += dt;
		if (dt > st->max_ns)
			st->max_ns = dt;
		t->bytes[1] += b;
	}
	t->end_ns = bm_now_ns();
	__atomic_add_fetch(&t->sh->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* 1.x/2.x's clock: from the start signal to the last client's end
 * (create_procs(): start_timer(), kill(0, SIGCONT), wait for all). */
static double db_control_pass(struct wl_ctx *ctx, struct db_thr *thr, int n,
			      struct db_shared *sh)
{
	uint64_t t0 = bm_now_ns(), last = t0, beat = t0;
	int i;

	__atomic_store_n(&sh->go, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&sh->done, __ATOMIC_ACQUIRE) < n) {
		db_sleep_until(bm_now_ns() + 1000000);
		if (ctx->beat && bm_now_ns() - beat >= 1000000000ull) {
			ctx->beat(ctx, "dbench");
			beat = bm_now_ns();
		}
	}
	for (i = 0; i < n; i++)
		if (thr[i].end_ns > last)
			last = thr[i].end_ns;
	return (double)(last - t0) / 1e9;
}

/* dbench's clock: 1 s ticks; opens the window at the first tick past the
 * warm-up where every client has moved bytes, closes it t s later. */
static double db_control(struct wl_ctx *ctx, const struct db_opts *o, struct db_thr *thr,
			 int n, struct db_shared *sh)
{
	long long warm = db_warmup(o->time, o->warmup);
	uint64_t t0 = bm_now_ns(), start = 0, now;
	unsigned long long tick, start_tick = 0;
	int i, ready;

	/* Whole ticks, not the clock, end the window: a late tick (TCG) must
	 * not stretch it by a second. */
	for (tick = 1;; tick++) {
		db_sleep_until(t0 + tick * 1000000000ull);
		if (__atomic_load_n(&sh->abort, __ATOMIC_RELAXED))
			break;
		now = bm_now_ns();
		if (!start && tick >= (unsigned long long)warm) {
			for (i = 0, ready = 1; i < n; i++)
				ready &= __atomic_load_n(&thr[i].bytes[0], __ATOMIC_RELAXED) > 0;
			if (ready) {
				start = now;
				start_tick = tick;
				__atomic_store_n(&sh->phase, 1, __ATOMIC_RELEASE);
			}
		} else if (start && tick >= start_tick + (unsigned long long)o->time) {
			__atomic_store_n(&sh->phase, 2, __ATOMIC_RELEASE);
			return (double)(now - start) / 1e9;
		}
		if (ctx->beat)
			ctx->beat(ctx, "dbench");
	}
	__atomic_store_n(&sh->phase, 2, __ATOMIC_RELEASE);
	return start ? (double)(bm_now_ns() - start) / 1e9 : 0;
}

static void db_sum_up(struct db_sum *s, const struct db_thr *thr, int n)
{
	int i, k;

	for (i = 0; i < n; i++) {
		s->bytes += thr[i].bytes[1];
		s->mism += thr[i].c.mism;
		for (k = 0; k < DB_NKINDS; k++) {
			const struct db_opstat *a = &thr[i].st[1][k];

			s->st[k].n += a->n;
			s->st[k].sum_ns += a->sum_ns;
			if (a->max_ns > s->st[k].max_ns)
				s->st[k].max_ns = a->max_ns;
		}
	}
}

static int db_run(struct wl_ctx *ctx, const void *opts, int idx, struct bm_result *r)
{
	const struct db_opts *o = opts;
	struct db_shared sh = { 0 };
	const struct db_load *l;
	struct db_sum s;
	struct db_thr *thr;
	char path[512], err[512];
	int n = db_clients(o, idx), i, started = 0, ret, pass = db_version(o) != 4;

	if (n < 0)
		return n;
	ret = db_get_load(o, &l, err, sizeof(err));
	if (ret) {
		db_error(ctx, o, idx, err);
		return ret;
	}
	thr = calloc((size_t)n, sizeof(*thr));
	if (!thr)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		thr[i].sh = &sh;
		ret = db_client_init(&thr[i].c, i, ctx->mnt, l, o->sync, o->syncdirs);
		if (ret)
			goto out_free_clients;
	}
	for (started = 0; started < n; started++) {
		ret = -pthread_create(&thr[started].tid, NULL,
				      pass ? db_client_pass : db_client_main, &thr[started]);
		if (ret) {
			__atomic_store_n(&sh.abort, 1, __ATOMIC_RELAXED);
			break;
		}
	}
	memset(&s, 0, sizeof(s));
	if (!ret && pass)
		s.secs = db_control_pass(ctx, thr, started, &sh);
	else if (!ret)
		s.secs = db_control(ctx, o, thr, n, &sh);
	else {
		__atomic_store_n(&sh.phase, 2, __ATOMIC_RELEASE);
		__atomic_store_n(&sh.go, 1, __ATOMIC_RELEASE);
	}
	for (i = 0; i < started; i++) {
		pthread_join(thr[i].tid, NULL);
		if (thr[i].ret && !ret) {
			rlog(RLOG_ERR, "dbench: %s", thr[i].c.err);
			ret = thr[i].ret;
		}
	}
	db_sum_up(&s, thr, n);
	if (pass) {
		s.pass_mb = db_pass_mb(l);
		s.v1 = db_version(o) == 1;
		s.clients = n;
	}
	db_add_metrics(r, &s);
	if (ret)
		r->partial = 1;
out_free_clients:
	for (i = 0; i < n; i++) {
		if (!thr[i].c.cleaned) {  /* 1.x/2.x, or a client that never ran */
			snprintf(path, sizeof(path), "%s/clients/client%d", ctx->mnt, i);
			db_deltree(path);
		}
		db_client_free(&thr[i].c);
	}
	free(thr);
	return ret;
}

static const struct {
	int kind;
	const char *n, *avg, *max;
} db_shown[] = {
	{ DB_NTCREATEX, "n_create", "avg_create", "max_create" },
	{ DB_CLOSE, "n_close", "avg_close", "max_close" },
	{ DB_READX, "n_read", "avg_read", "max_read" },
	{ DB_WRITEX, "n_write", "avg_write", "max_write" },
	{ DB_QPATHINFO, "n_qpath", "avg_qpath", "max_qpath" },
	{ DB_FINDFIRST, "n_find", "avg_find", "max_find" },
};

void db_add_metrics(struct bm_result *r, const struct db_sum *s)
{
	uint64_t ops = 0, max = 0;
	size_t i;
	int k;

	for (k = 0; k < DB_NKINDS; k++) {
		ops += s->st[k].n;
		if (s->st[k].max_ns > max)
			max = s->st[k].max_ns;
	}
	/* 1.x printed its loadfile's MB per pass x clients / t */
	bm_result_add(r, "tput", s->v1 ? db_tput_v1(s->pass_mb, s->clients, s->secs)
				       : db_tput(s->bytes, s->secs), "MB/s");
	bm_result_add(r, "ops", (double)ops, "count");
	bm_result_add(r, "lat_max", (double)max / 1e6, "ms");
	bm_result_add(r, "time", s->secs, "s");
	bm_result_add(r, "mism", (double)s->mism, "count");
	for (i = 0; i < sizeof(db_shown) / sizeof(db_shown[0]); i++) {
		const struct db_opstat *st = &s->st[db_shown[i].kind];

		bm_result_add(r, db_shown[i].n, (double)st->n, "count");
		bm_result_add(r, db_shown[i].avg, st->n ? (double)st->sum_ns / (double)st->n / 1e6 : 0,
			      "ms");
		bm_result_add(r, db_shown[i].max, (double)st->max_ns / 1e6, "ms");
	}
	if (s->pass_mb > 0)
		bm_result_add(r, "pass_mb", s->pass_mb, "MB");
}

const struct wl_ops wl_dbench_ops = {
	.desc = &wl_dbench_desc,
	.prepare = db_prepare,
	.run = db_run,
};
