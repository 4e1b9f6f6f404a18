// SPDX-License-Identifier: MIT
/*
 * bonnie's seek test, as each version's seek_test() does it, step by step:
 *
 * bonnie++ 2.00a (bon_io.cpp CFileOp::seek_test and CFileOp::action):
 *  1. tickets: getNum() each, negated when % 10 == 0 (a rewrite), then one
 *     END (INT_MIN) per seeker;
 *  2. the parent reopens the file (reopen(false)) and starts the seekers,
 *     pthreads, each with its own O_RDWR fd, each blocked in read() on one
 *     control pipe;
 *  3. sleep(3) (seek_sleep= sets another), then one write() of every
 *     ticket down the pipe (it blocks while the pipe is full), then the
 *     parent's Close(): fsync + close of its own fd, while the seekers run;
 *  4. a seeker takes its start time and RUSAGE_SELF (the whole process)
 *     after its first 4-byte ticket read, does lseek + read of chunk
 *     abs(ticket) % chunks, and for a negative ticket changes byte
 *     chunk % chunk_size, lseeks back and writes the chunk; it reads the
 *     next ticket (a syscall per seek) until END; then Close() (fsync +
 *     close), end time, CPU; the report goes up a feedback pipe;
 *  5. seeks/s = seeks / (last end - first start); %CPU sums the seekers'
 *     process-wide deltas; latency is the slowest doseek() alone;
 *  6. a seeker's thread ends by deleting its CFileOp (thread_func), whose
 *     destructor unlinks the file: the first seeker done removes it while
 *     the others may still be in their Close().  The last close then drops
 *     the inode, and its truncate and block frees (discards, on a
 *     filesystem mounted with discard) land inside that seeker's window:
 *     measured with 2.00a itself, a 256 MiB file, 262,144 seeks, one
 *     seeker in two runs ended 55-60 ms after the other four, all of it in
 *     close() (ext4_evict_inode, blkdev_issue_discard).  The seekers here
 *     unlink as 2.00a's do.
 *
 * bonnie++ 1.02c (1.03's bon_io.cpp seeker/seek_test) and Tim Bray's
 * Bonnie (bonnie.c): 3 forked processes, 1-byte tickets (1, then a 0 per
 * seeker), sleep(5) before the write, no parent fd; each child seeks to
 * random() % chunks with its own random stream, rewrites on its own seek
 * count % 10 == 0 (its first seek included), closes without fsync, and
 * reports its own CPU (not inflated).  1.02c changes byte rand() % chunk;
 * Bonnie an int at random() % (ints - 2) + 1.
 *
 * The seekers' fds and buffers are opened by the parent before they start
 * (both are untimed in every version): a seeker that could not open would
 * otherwise leave the parent blocked on a full ticket pipe.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stats.h"
#include "wl.h"
#include "wl_bonnie.h"

#define BON_END_TICKET INT32_MIN

/* What a seeker sends up the feedback pipe (2.00a's report_s, plus the
 * counts and an error). */
struct bon_seek_rep {
	double cpu_s;
	uint64_t start_ns, end_ns, lat_max_ns;
	long units, rewrites;
	int err;
};

struct bon_seeker {
	const struct bonnie_opts *o;
	const char *path;           /* the file; 2.00a's seekers unlink it */
	int ver, idx;
	int fd, ctl, fb;            /* file; control read end; feedback write end */
	uint64_t chunks, rng;
	unsigned char *buf;
	pthread_t th;
	pid_t pid;
	int started;
};

static double bon_self_cpu(void)
{
	struct bm_cpu c;

	return bm_cpu_now(&c, RUSAGE_SELF) ? 0 : c.user_s + c.sys_s;
}

static int bon_read_ticket(struct bon_seeker *s, int32_t *t)
{
	unsigned char c;
	ssize_t n;

	do {
		n = s->ver == BON_V200A ? read(s->ctl, t, sizeof(*t)) : read(s->ctl, &c, 1);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n != (s->ver == BON_V200A ? (ssize_t)sizeof(*t) : 1))
		return -EPIPE;  /* "Can't read ticket." */
	if (s->ver != BON_V200A)
		*t = c ? 1 : BON_END_TICKET;
	return 0;
}

/* doseek(): lseek + read a chunk; a rewrite changes one byte (2.00a:
 * chunk % chunk_size; 1.02c: rand() % chunk_size; Bonnie: an int at
 * random() % (ints - 2) + 1), lseeks back and writes it. */
static int bon_doseek(struct bon_seeker *s, uint64_t where, int update)
{
	size_t chunk = s->o->chunk;
	off_t off = (off_t)(where * chunk);
	int ret;

	if (lseek(s->fd, off, SEEK_SET) < 0)
		return -errno;
	ret = bon_read_full(s->fd, s->buf, chunk);
	if (ret || !update)
		return ret;
	if (s->ver == BON_V200A)
		s->buf[where % chunk]--;
	else if (s->ver == BON_V102C)
		s->buf[bon_rng_next(&s->rng) % chunk]--;
	else
		((int *)(void *)s->buf)[bon_rng_next(&s->rng) % (chunk / sizeof(int) - 2) + 1]--;
	if (lseek(s->fd, off, SEEK_SET) < 0)
		return -errno;
	return bon_write_full(s->fd, s->buf, chunk);
}

static void bon_seeker_body(struct bon_seeker *s)
{
	struct bon_seek_rep rep = { 0 };
	long count = 0;
	int32_t ticket;
	double cpu0;
	int ret;

	ret = bon_read_ticket(s, &ticket);
	rep.start_ns = bm_now_ns();
	cpu0 = bon_self_cpu();
	while (!ret && ticket != BON_END_TICKET) {
		uint64_t where, t0;
		int update;

		if (s->ver == BON_V200A) {
			update = ticket < 0;
			where = (uint64_t)(ticket < 0 ? -(int64_t)ticket : ticket) % s->chunks;
		} else {
			update = count++ % BON_UPDATE_SEEK == 0;
			where = bon_rng_next(&s->rng) % s->chunks;
		}
		t0 = bm_now_ns();
		ret = bon_doseek(s, where, update);
		if (ret)
			break;
		t0 = bm_now_ns() - t0;
		if (t0 > rep.lat_max_ns)
			rep.lat_max_ns = t0;
		rep.units++;
		rep.rewrites += update;
		ret = bon_read_ticket(s, &ticket);
	}
	if (s->fd >= 0) {
		int cret = bon_close_v(s->fd, s->ver);

		s->fd = -1;
		if (!ret)
			ret = cret;
	}
	rep.end_ns = bm_now_ns();
	rep.cpu_s = bon_self_cpu() - cpu0;
	rep.err = ret;
	/* a report is under PIPE_BUF: one write, never interleaved */
	if (write(s->fb, &rep, sizeof(rep)) != (ssize_t)sizeof(rep))
		rep.err = -EPIPE;
	/* 2.00a: ~CFileOp() after action(); its error is not looked at */
	if (s->ver == BON_V200A)
		(void)unlink(s->path);
}

static void *bon_seeker_thread(void *arg)
{
	bon_seeker_body(arg);
	return NULL;
}

/* Tickets for the version: 2.00a's ints, or 1.02c's and Bonnie's bytes. */
static void *bon_tickets(const struct bonnie_opts *o, long seeks, long procs, size_t *len)
{
	uint64_t rng = bon_rng_init(o->seed, BON_SEEKS, 0);
	long i;

	if (bon_ver(o) == BON_V200A) {
		int32_t *t = malloc((size_t)(seeks + procs) * sizeof(*t));

		if (!t)
			return NULL;
		bon_make_tickets(t, seeks, &rng);
		for (i = seeks; i < seeks + procs; i++)
			t[i] = BON_END_TICKET;
		*len = (size_t)(seeks + procs) * sizeof(*t);
		return t;
	} else {
		unsigned char *t = malloc((size_t)(seeks + procs));

		if (!t)
			return NULL;
		memset(t, 1, (size_t)seeks);
		memset(t + seeks, 0, (size_t)procs);
		*len = (size_t)(seeks + procs);
		return t;
	}
}

static int bon_write_tickets(int fd, const void *p, size_t len)
{
	const char *b = p;
	ssize_t n;

	while (len) {
		n = write(fd, b, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		b += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Starts seeker i as the version does: a pthread (2.00a) or a fork. */
static int bon_seeker_start(struct bon_seeker *s, int ctl_wr, int fb_rd)
{
	int e;

	if (s->ver == BON_V200A) {
		e = pthread_create(&s->th, NULL, bon_seeker_thread, s);
		s->started = !e;
		return -e;
	}
	s->pid = fork();
	if (s->pid < 0)
		return -errno;
	if (s->pid == 0) {
		close(ctl_wr);
		close(fb_rd);
		bon_seeker_body(s);
		_exit(0);
	}
	s->started = 1;
	close(s->fd);       /* the child's copy is the one that seeks */
	s->fd = -1;
	return 0;
}

static void bon_seeker_reap(struct bon_seeker *s)
{
	int st;

	if (!s->started)
		return;
	if (s->ver == BON_V200A)
		pthread_join(s->th, NULL);
	else
		while (waitpid(s->pid, &st, 0) < 0 && errno == EINTR)
			;
	s->started = 0;
}

/* One report per seeker; heartbeats while they run. */
static int bon_read_reports(struct wl_ctx *ctx, int fb, long n, struct bon_seek_rep *rep)
{
	struct pollfd p = { .fd = fb, .events = POLLIN };
	size_t got = 0, want = (size_t)n * sizeof(*rep);
	ssize_t r;

	while (got < want) {
		if (poll(&p, 1, 1000) == 0) {
			if (ctx->beat)
				ctx->beat(ctx, "bonnie seeks");
			continue;
		}
		r = read(fb, (char *)rep + got, want - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EPIPE;
		got += (size_t)r;
	}
	return 0;
}

/* 2.00a's add_delta_report(): first start, last stop, CPU summed. */
static void bon_seek_sum(const struct bon_seek_rep *rep, long n, struct bon_meas *m,
			 long *rewrites, int *err)
{
	uint64_t first = UINT64_MAX, last = 0;
	long i;

	for (i = 0; i < n; i++) {
		if (rep[i].start_ns < first)
			first = rep[i].start_ns;
		if (rep[i].end_ns > last)
			last = rep[i].end_ns;
		m->cpu_s += rep[i].cpu_s;
		m->units += (uint64_t)rep[i].units;
		if (rep[i].lat_max_ns > m->lat_max_ns)
			m->lat_max_ns = rep[i].lat_max_ns;
		*rewrites += rep[i].rewrites;
		if (rep[i].err && !*err)
			*err = rep[i].err;
	}
	m->elapsed = last > first ? (double)(last - first) / 1e9 : 0;
}

struct bon_seek_run {
	char path[512];
	int ctl[2], fb[2];
	int parent_fd;
	struct bon_seeker *s;
	long n;
	void *tickets;
	size_t tlen;
	struct bon_seek_rep *rep;
};

static void bon_seek_free(struct bon_seek_run *sr)
{
	long i;

	for (i = 0; sr->s && i < sr->n; i++) {
		if (sr->s[i].fd >= 0)
			close(sr->s[i].fd);
		free(sr->s[i].buf);
	}
	for (i = 0; i < 2; i++) {
		if (sr->ctl[i] >= 0)
			close(sr->ctl[i]);
		if (sr->fb[i] >= 0)
			close(sr->fb[i]);
	}
	if (sr->parent_fd >= 0)
		close(sr->parent_fd);
	free(sr->s);
	free(sr->tickets);
	free(sr->rep);
}

static int bon_seek_setup(struct wl_ctx *ctx, const struct bonnie_opts *o,
			  struct bon_seek_run *sr)
{
	long seeks = bon_nseeks(o), i;
	char *path = sr->path;

	sr->n = bon_nseekers(o);
	sr->tickets = bon_tickets(o, seeks, sr->n, &sr->tlen);
	sr->s = calloc((size_t)sr->n, sizeof(*sr->s));
	sr->rep = calloc((size_t)sr->n, sizeof(*sr->rep));
	if (!sr->tickets || !sr->s || !sr->rep)
		return -ENOMEM;
	for (i = 0; i < sr->n; i++)
		sr->s[i].fd = -1;
	if (pipe2(sr->ctl, O_CLOEXEC) || pipe2(sr->fb, O_CLOEXEC))
		return -errno;
	bon_path(ctx, path, sizeof(sr->path));
	if (bon_ver(o) == BON_V200A) {
		sr->parent_fd = bon_open_old(path);     /* seek_test()'s reopen(false) */
		if (sr->parent_fd < 0)
			return sr->parent_fd;
	}
	for (i = 0; i < sr->n; i++) {
		struct bon_seeker *s = &sr->s[i];

		s->o = o;
		s->path = path;
		s->ver = bon_ver(o);
		s->idx = (int)i;
		s->chunks = o->size / o->chunk;
		s->rng = bon_rng_init(o->seed, BON_SEEKS, 1 + (int)i);
		s->ctl = sr->ctl[0];
		s->fb = sr->fb[1];
		s->buf = bon_buffer(o->chunk);
		s->fd = bon_open_old(path);
		if (!s->buf)
			return -ENOMEM;
		if (s->fd < 0)
			return s->fd;
	}
	return 0;
}

int bon_seeks_run(struct wl_ctx *ctx, const struct bonnie_opts *o, struct bm_result *r)
{
	struct bon_seek_run sr = { .ctl = { -1, -1 }, .fb = { -1, -1 }, .parent_fd = -1 };
	struct bon_meas m = { 0 };
	struct bon_timer all;
	long i, rewrites = 0;
	int ret, err = 0;

	ret = bon_seek_setup(ctx, o, &sr);
	if (ret)
		goto out_free;
	for (i = 0; i < sr.n && !ret; i++)
		ret = bon_seeker_start(&sr.s[i], sr.ctl[1], sr.fb[0]);
	if (ctx->beat)
		ctx->beat(ctx, "bonnie seeks");
	if (!ret)
		sleep(bon_seek_sleep(o));
	bon_timer_start(&all);
	if (!ret)
		ret = bon_write_tickets(sr.ctl[1], sr.tickets, sr.tlen);
	if (sr.parent_fd >= 0) {        /* 2.00a: Close() while the seekers run */
		int cret = bon_close_v(sr.parent_fd, BON_V200A);

		sr.parent_fd = -1;
		if (!ret)
			ret = cret;
	}
	/* the seekers see EOF on the control pipe once it is closed: a failed
	 * start or write cannot leave one blocked */
	close(sr.ctl[1]);
	sr.ctl[1] = -1;
	if (!ret)
		ret = bon_read_reports(ctx, sr.fb[0], sr.n, sr.rep);
	for (i = 0; i < sr.n; i++)
		bon_seeker_reap(&sr.s[i]);
	bon_timer_stop(&all, &m);
	/* 2.00a's seek_test() ends by deleting its own CFileOp, whose destructor
	 * unlinks the file a seeker has already removed: one more unlink, untimed
	 * (seen in its trace, tests/trace_bonnie.sh) */
	if (bon_ver(o) == BON_V200A)
		(void)unlink(sr.path);
	if (!ret) {
		double cpu_all = m.cpu_s, wall = m.elapsed;

		m.cpu_s = 0;
		bon_seek_sum(sr.rep, sr.n, &m, &rewrites, &err);
		ret = err;
		bon_add_common(r, &m, (double)m.units, "ops/s");
		bm_result_add(r, "ops", (double)m.units, "count");
		bm_result_add(r, "rewrites", (double)rewrites, "count");
		/* the honest figure beside 2.00a's inflated one: the process's
		 * CPU once (2.00a's seekers are threads of this process) */
		if (bon_ver(o) == BON_V200A)
			bm_result_add(r, "cpu_proc", bon_cpu_pct(cpu_all, wall), "%");
	}
out_free:
	for (i = 0; sr.s && i < sr.n; i++)
		bon_seeker_reap(&sr.s[i]);
	bon_seek_free(&sr);
	return ret;
}
