// SPDX-License-Identifier: MIT
/*
 * bonnie's I/O tests on one file of size bytes (wl_bonnie.c has the list).
 * As bonnie++ 2.00a: the file is opened before the timer starts; inside it
 * are the I/O and Close(), that is fsync() then close().  Only the
 * create-opens (putc, block-w) take O_DIRECT; the others reopen O_RDWR.
 * Latency is the slowest chunk: chunk bytes, however many syscalls.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stats.h"
#include "wl_bonnie.h"

#define BON_BEAT_CHUNKS 8192    /* 64 MiB of 8 KiB chunks */

static int bon_open_new(const char *path, int direct)
{
	int fd;

	/* bonnie++'s "create from scratch": unlink, then O_EXCL. */
	unlink(path);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | (direct ? O_DIRECT : 0), 0600);
	return fd < 0 ? -errno : fd;
}

static int bon_open_old(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* bonnie++'s Close(): fsync, then close; the first failure is kept. */
static int bon_close(int fd)
{
	int ret = fsync(fd) ? -errno : 0;

	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

static int bon_read_full(int fd, unsigned char *buf, size_t len)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = read(fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENODATA;  /* the file is shorter than size */
		done += (size_t)n;
	}
	return 0;
}

static int bon_write_full(int fd, const unsigned char *buf, size_t len)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = write(fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENOSPC;
		done += (size_t)n;
	}
	return 0;
}

/* Page aligned, for O_DIRECT; zeroed, as bonnie++'s buffer starts. */
static unsigned char *bon_buffer(size_t len)
{
	void *b;

	if (posix_memalign(&b, 4096, len))
		return NULL;
	memset(b, 0, len);
	return b;
}

static int bon_putc(struct wl_ctx *ctx, int fd, const struct bonnie_opts *o,
		    struct bon_meas *m)
{
	uint64_t k, nchunks = o->charsize / o->chunk;
	size_t i;
	char c;

	for (k = 0; k < nchunks; k++) {
		uint64_t t0 = bm_now_ns();

		for (i = 0; i < o->chunk; i++) {
			c = (char)(i & 0x7f);
			if (write(fd, &c, 1) != 1)
				return errno ? -errno : -ENOSPC;
		}
		bon_unit_done(m, t0);
		bon_beat(ctx, k + 1, 128, "bonnie putc");
	}
	return 0;
}

static int bon_getc(struct wl_ctx *ctx, int fd, const struct bonnie_opts *o,
		    struct bon_meas *m)
{
	uint64_t k, nchunks = o->charsize / o->chunk;
	size_t i;
	ssize_t n;
	char c;

	for (k = 0; k < nchunks; k++) {
		uint64_t t0 = bm_now_ns();

		for (i = 0; i < o->chunk; i++) {
			n = read(fd, &c, 1);
			if (n != 1)
				return n < 0 ? -errno : -ENODATA;
		}
		bon_unit_done(m, t0);
		bon_beat(ctx, k + 1, 128, "bonnie getc");
	}
	return 0;
}

/* Block write, and prepare()'s file: one byte of the buffer changes per chunk. */
static int bon_block_w(struct wl_ctx *ctx, int fd, const struct bonnie_opts *o,
		       unsigned char *buf, struct bon_meas *m)
{
	uint64_t k, nchunks = o->size / o->chunk;
	size_t idx = 0;
	int ret;

	for (k = 0; k < nchunks; k++) {
		uint64_t t0;

		buf[idx]++;
		idx = (idx + 1) % o->chunk;
		t0 = bm_now_ns();
		ret = bon_write_full(fd, buf, o->chunk);
		if (ret)
			return ret;
		bon_unit_done(m, t0);
		bon_beat(ctx, k + 1, BON_BEAT_CHUNKS, "bonnie block-w");
	}
	return 0;
}

static int bon_rewrite(struct wl_ctx *ctx, int fd, const struct bonnie_opts *o,
		       unsigned char *buf, struct bon_meas *m)
{
	uint64_t k, nchunks = o->size / o->chunk;
	size_t idx = 0;
	int ret;

	for (k = 0; k < nchunks; k++) {
		uint64_t t0 = bm_now_ns();

		ret = bon_read_full(fd, buf, o->chunk);
		if (ret)
			return ret;
		idx %= o->chunk;
		buf[idx++]++;
		if (lseek(fd, -(off_t)o->chunk, SEEK_CUR) < 0)
			return -errno;
		ret = bon_write_full(fd, buf, o->chunk);
		if (ret)
			return ret;
		bon_unit_done(m, t0);
		bon_beat(ctx, k + 1, BON_BEAT_CHUNKS, "bonnie rewrite");
	}
	return 0;
}

static int bon_block_r(struct wl_ctx *ctx, int fd, const struct bonnie_opts *o,
		       unsigned char *buf, struct bon_meas *m)
{
	uint64_t k, nchunks = o->size / o->chunk;
	int ret;

	for (k = 0; k < nchunks; k++) {
		uint64_t t0 = bm_now_ns();

		ret = bon_read_full(fd, buf, o->chunk);
		if (ret)
			return ret;
		bon_unit_done(m, t0);
		bon_beat(ctx, k + 1, BON_BEAT_CHUNKS, "bonnie block-r");
	}
	return 0;
}

/* The file the later tests find, written as block-w writes it. */
int bon_io_prepare(struct wl_ctx *ctx, const struct bonnie_opts *o)
{
	struct bon_meas m = { 0 };
	char path[512];
	unsigned char *buf = bon_buffer(o->chunk);
	int fd, ret;

	if (!buf)
		return -ENOMEM;
	bon_path(ctx, path, sizeof(path));
	fd = bon_open_new(path, 0);
	if (fd < 0) {
		ret = fd;
		goto out_free_buf;
	}
	ret = bon_block_w(ctx, fd, o, buf, &m);
	fd = bon_close(fd);
	if (!ret)
		ret = fd;
out_free_buf:
	free(buf);
	return ret;
}

static int bon_io_test(struct wl_ctx *ctx, const struct bonnie_opts *o, int test, int fd,
		       unsigned char *buf, struct bon_meas *m)
{
	switch (test) {
	case BON_PUTC:
		return bon_putc(ctx, fd, o, m);
	case BON_GETC:
		return bon_getc(ctx, fd, o, m);
	case BON_BLOCK_W:
		return bon_block_w(ctx, fd, o, buf, m);
	case BON_REWRITE:
		return bon_rewrite(ctx, fd, o, buf, m);
	case BON_BLOCK_R:
		return bon_block_r(ctx, fd, o, buf, m);
	}
	return -EINVAL;
}

int bon_io_run(struct wl_ctx *ctx, const struct bonnie_opts *o, int test,
	       struct bm_result *r)
{
	int ret, cret;
	struct bon_meas m = { 0 };
	struct bon_timer t;
	unsigned char *buf = bon_buffer(o->chunk);
	char path[512];
	int fd;

	if (!buf)
		return -ENOMEM;
	bon_path(ctx, path, sizeof(path));
	if (test == BON_PUTC || test == BON_BLOCK_W)
		fd = bon_open_new(path, o->direct);
	else
		fd = bon_open_old(path);
	if (fd < 0) {
		ret = fd;
		goto out_free_buf;
	}
	bon_timer_start(&t);
	ret = bon_io_test(ctx, o, test, fd, buf, &m);
	cret = bon_close(fd);
	bon_timer_stop(&t, &m);
	if (!ret)
		ret = cret;
	bon_add_common(r, &m, (double)(m.units * o->chunk) / 1024.0, "KiB/s");
	bm_result_add(r, "bytes", (double)(m.units * o->chunk), "B");
out_free_buf:
	free(buf);
	return ret;
}

/* Random seeks: seekers threads, each with its own fd, take tickets from
 * one queue, as bonnie++ 2.00a's threads take them from a pipe. */
struct bon_seek_queue {
	const uint32_t *tickets;
	long n, next;               /* next: taken with an atomic add */
	uint64_t chunks;            /* of the file */
	size_t chunk;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int go;                     /* 1: start, -1: give up */
};

struct bon_seeker {
	pthread_t th;
	struct bon_seek_queue *q;
	int fd;
	unsigned char *buf;
	uint64_t start_ns, end_ns;
	double cpu_s;               /* the process's CPU over this thread's run */
	struct bon_meas m;
	long rewrites;
	int err;
};

/* bonnie++'s doseek(): lseek and read a chunk; a rewrite changes a byte,
 * seeks back and writes it. */
static int bon_doseek(struct bon_seeker *s, uint32_t ticket)
{
	uint64_t where = ticket % s->q->chunks;
	off_t off = (off_t)(where * s->q->chunk);
	uint64_t t0 = bm_now_ns();
	int ret;

	if (lseek(s->fd, off, SEEK_SET) < 0)
		return -errno;
	ret = bon_read_full(s->fd, s->buf, s->q->chunk);
	if (ret)
		return ret;
	if (ticket % BON_UPDATE_SEEK == 0) {
		s->buf[where % s->q->chunk]--;
		if (lseek(s->fd, off, SEEK_SET) < 0)
			return -errno;
		ret = bon_write_full(s->fd, s->buf, s->q->chunk);
		if (ret)
			return ret;
		s->rewrites++;
	}
	bon_unit_done(&s->m, t0);
	return 0;
}

static void *bon_seeker_main(void *arg)
{
	struct bon_seeker *s = arg;
	struct bon_seek_queue *q = s->q;
	struct bon_timer t;
	long i;
	int go, ret;

	pthread_mutex_lock(&q->lock);
	while (!q->go)
		pthread_cond_wait(&q->cond, &q->lock);
	go = q->go;
	pthread_mutex_unlock(&q->lock);
	if (go < 0)
		return NULL;
	bon_timer_start(&t);
	s->start_ns = t.t0_ns;
	for (;;) {
		i = __atomic_fetch_add(&q->next, 1, __ATOMIC_RELAXED);
		if (i >= q->n)
			break;
		s->err = bon_doseek(s, q->tickets[i]);
		if (s->err)
			break;
	}
	ret = bon_close(s->fd);
	s->fd = -1;
	if (!s->err)
		s->err = ret;
	s->end_ns = bm_now_ns();
	bon_timer_stop(&t, &s->m);
	s->cpu_s = s->m.cpu_s;
	return NULL;
}

/* Elapsed from the first start to the last end, CPU summed over the
 * seekers: each one's process-wide getrusage() delta, as bonnie++ 2.00a
 * does, which counts the other threads' time too (see docs/workloads.md). */
static void bon_seeks_sum(const struct bon_seeker *s, long n, struct bon_meas *m,
			  long *rewrites)
{
	uint64_t first = UINT64_MAX, last = 0;
	long i;

	for (i = 0; i < n; i++) {
		if (s[i].start_ns < first)
			first = s[i].start_ns;
		if (s[i].end_ns > last)
			last = s[i].end_ns;
		m->cpu_s += s[i].cpu_s;
		m->units += s[i].m.units;
		if (s[i].m.lat_max_ns > m->lat_max_ns)
			m->lat_max_ns = s[i].m.lat_max_ns;
		*rewrites += s[i].rewrites;
	}
	m->elapsed = last > first ? (double)(last - first) / 1e9 : 0;
}

static void bon_seekers_free(struct bon_seeker *s, long n)
{
	long i;

	for (i = 0; i < n; i++) {
		if (s[i].fd >= 0)
			close(s[i].fd);
		free(s[i].buf);
	}
	free(s);
}

/* Opens every seeker's fd and buffer before any thread starts. */
static struct bon_seeker *bon_seekers_new(const char *path, struct bon_seek_queue *q,
					  long n, int *err)
{
	struct bon_seeker *s = calloc((size_t)n, sizeof(*s));
	long i;

	*err = -ENOMEM;
	if (!s)
		return NULL;
	for (i = 0; i < n; i++)
		s[i].fd = -1;
	for (i = 0; i < n; i++) {
		s[i].q = q;
		s[i].buf = bon_buffer(q->chunk);
		s[i].fd = bon_open_old(path);
		if (!s[i].buf || s[i].fd < 0) {
			*err = s[i].fd < 0 ? s[i].fd : -ENOMEM;
			bon_seekers_free(s, n);
			return NULL;
		}
	}
	*err = 0;
	return s;
}

static void bon_seek_start(struct bon_seek_queue *q, int go)
{
	pthread_mutex_lock(&q->lock);
	q->go = go;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

/* Starts the seekers together and waits for them; 0 or the first error. */
static int bon_seekers_run(struct bon_seeker *s, long n, struct bon_seek_queue *q,
			   struct bon_meas *all)
{
	struct bon_timer t;
	long i, started;
	int ret = 0;

	for (started = 0; started < n; started++) {
		ret = -pthread_create(&s[started].th, NULL, bon_seeker_main, &s[started]);
		if (ret)
			break;
	}
	bon_timer_start(&t);
	bon_seek_start(q, ret ? -1 : 1);
	for (i = 0; i < started; i++)
		pthread_join(s[i].th, NULL);
	bon_timer_stop(&t, all);
	for (i = 0; i < started && !ret; i++)
		ret = s[i].err;
	return ret;
}

int bon_seeks_run(struct wl_ctx *ctx, const struct bonnie_opts *o, struct bm_result *r)
{
	struct bon_seek_queue q = {
		.n = o->seeks, .chunks = o->size / o->chunk, .chunk = o->chunk,
		.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER,
	};
	uint64_t rng = bon_rng_init(o->seed, BON_SEEKS, 0);
	struct bon_meas m = { 0 }, all = { 0 };
	struct bon_seeker *s;
	uint32_t *tickets;
	long rewrites = 0;
	char path[512];
	int ret;

	tickets = malloc((size_t)o->seeks * sizeof(*tickets));
	if (!tickets)
		return -ENOMEM;
	bon_make_tickets(tickets, o->seeks, &rng);
	q.tickets = tickets;
	bon_path(ctx, path, sizeof(path));
	s = bon_seekers_new(path, &q, o->seekers, &ret);
	if (!s)
		goto out_free_tickets;
	ret = bon_seekers_run(s, o->seekers, &q, &all);
	bon_seeks_sum(s, o->seekers, &m, &rewrites);
	bon_add_common(r, &m, (double)m.units, "ops/s");
	bm_result_add(r, "ops", (double)m.units, "count");
	bm_result_add(r, "rewrites", (double)rewrites, "count");
	/* The honest figure beside bonnie++'s: the process's CPU once. */
	bm_result_add(r, "cpu_proc", bon_cpu_pct(all.cpu_s, all.elapsed), "%");
	bon_seekers_free(s, o->seekers);
out_free_tickets:
	free(tickets);
	return ret;
}
