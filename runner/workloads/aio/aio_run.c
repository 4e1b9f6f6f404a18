// SPDX-License-Identifier: MIT
/*
 * wl_aio's measured part and its pure computations: the shuffled file
 * order, the threads' shares, the file content, the rate.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "opts.h"
#include "wl_aio.h"

#define MiB (1024.0 * 1024.0)

const struct aio_engine *aio_engine_of(int engine)
{
	return engine == AIO_URING ? &aio_uring_engine : &aio_libaio_engine;
}

/* xorshift64*: small, deterministic, the same on every libc. */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

void aio_shuffle(uint32_t *perm, uint32_t n)
{
	uint64_t seed = 0x20091006ull;   /* the seed's date */
	uint32_t i, j, tmp;

	for (i = 0; i < n; i++)
		perm[i] = i;
	for (i = n; i > 1; i--) {
		j = (uint32_t)(next_rand(&seed) % i);
		tmp = perm[i - 1];
		perm[i - 1] = perm[j];
		perm[j] = tmp;
	}
}

void aio_share(uint32_t n, unsigned nt, unsigned t, uint32_t *first, uint32_t *count)
{
	uint64_t a = (uint64_t)n * t / nt, b = (uint64_t)n * (t + 1) / nt;

	*first = (uint32_t)a;
	*count = (uint32_t)(b - a);
}

void aio_path(char *buf, size_t len, const char *dir, uint32_t i)
{
	snprintf(buf, len, "%s/aio/d%04u/f%07u", dir, i / AIO_DIR_FILES, i);
}

void aio_fill(void *buf, uint32_t file, uint64_t off, size_t len)
{
	uint64_t *w = buf, tag = ((uint64_t)file + 1) * 0x9e3779b97f4a7c15ull;
	size_t i;

	for (i = 0; i < len / 8; i++)
		w[i] = tag ^ (off / 8 + i);
}

double aio_rate(uint64_t files, uint32_t fsize, double secs)
{
	return secs > 0 ? (double)files * fsize / MiB / secs : 0.0;
}

uint32_t aio_batch(const struct aio_file_state *s, uint32_t room)
{
	uint32_t left = s->nblocks - s->next;

	return left < room ? left : room;
}

void aio_add_metrics(struct bm_result *r, const struct aio_sum *s, int direct)
{
	const struct bm_lat *l = s->lat;

	bm_result_add(r, "files_s", s->secs > 0 ? (double)s->files / s->secs : 0, "files/s");
	bm_result_add(r, "rate", aio_rate(s->files, s->fsize, s->secs), "MiB/s");
	bm_result_add(r, "time", s->secs, "s");
	bm_result_add(r, "cpu", bm_cpu_pct(&s->cpu0, &s->cpu1, s->secs), "%");
	bm_result_add(r, "lat_avg", bm_lat_mean(l) / 1e6, "ms");
	bm_result_add(r, "lat_max", l->n ? (double)l->max_ns / 1e6 : 0.0, "ms");
	bm_result_add(r, "lat_p99", (double)bm_lat_percentile(l, 99.0) / 1e6, "ms");
	bm_result_add(r, "files", (double)s->files, "count");
	bm_result_add(r, "iocbs", (double)s->iocbs, "count");
	bm_result_add(r, "submits", (double)s->submits, "count");
	bm_result_add(r, "direct", direct, "count");
}

int aio_warm(const char *dir, uint32_t n, uint32_t fsize)
{
	char path[512], *buf = malloc(fsize);
	uint32_t i;
	ssize_t got;
	int fd, ret = 0;

	if (!buf)
		return -ENOMEM;
	for (i = 0; i < n && !ret; i++) {
		aio_path(path, sizeof(path), dir, i);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			ret = -errno;
			break;
		}
		got = read(fd, buf, fsize);
		if (got != (ssize_t)fsize)
			ret = got < 0 ? -errno : -EIO;
		close(fd);
	}
	free(buf);
	return ret;
}

/* The start line: threads wait for go, so the clock starts when all are
 * ready; stop tells them to leave when not all could be started. */
struct aio_gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned ready;
	int go, stop;
};

struct aio_thread {
	pthread_t tid;
	const char *dir;
	const struct aio_engine *eng;
	const uint32_t *files;
	const uint32_t *order;      /* the blocks' order in each file, NULL: seq */
	uint32_t nfiles, fsize;
	unsigned qd;
	int flags;
	struct aio_gate *gate;
	uint64_t done, iocbs, submits;
	struct bm_lat lat;
	int ret;
};

static void *aio_thread_main(void *arg)
{
	struct aio_thread *a = arg;
	struct aio_q *q = NULL;
	char path[512];
	void *buf = NULL;
	uint64_t t0;
	uint32_t i;
	int fd, r;

	a->ret = a->eng->init(&q, a->qd);
	if (!a->ret && posix_memalign(&buf, AIO_BS, a->fsize))
		a->ret = -ENOMEM;
	pthread_mutex_lock(&a->gate->lock);
	a->gate->ready++;
	pthread_cond_broadcast(&a->gate->cond);
	while (!a->gate->go)
		pthread_cond_wait(&a->gate->cond, &a->gate->lock);
	if (a->gate->stop && !a->ret)
		a->ret = -ECANCELED;
	pthread_mutex_unlock(&a->gate->lock);
	for (i = 0; i < a->nfiles && !a->ret; i++) {
		aio_path(path, sizeof(path), a->dir, a->files[i]);
		fd = open(path, a->flags);
		if (fd < 0) {
			a->ret = -errno;
			break;
		}
		t0 = bm_now_ns();
		r = a->eng->read_file(q, fd, buf, a->fsize, a->order, &a->iocbs, &a->submits);
		if (!r) {
			bm_lat_add(&a->lat, bm_now_ns() - t0);
			a->done++;
		}
		close(fd);
		a->ret = r;
	}
	free(buf);
	if (q)
		a->eng->fini(q);
	return NULL;
}

int aio_run_threads(const char *dir, const struct aio_opts *o, const struct aio_test *t,
		    int direct, struct aio_sum *sum, struct bm_lat *lat)
{
	unsigned nt = (unsigned)o->threads, i, started = 0;
	uint32_t n = (uint32_t)o->files, first, cnt, *perm, *order = NULL;
	struct aio_thread *th;
	struct aio_gate gate = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0 };
	uint64_t t0 = 0;
	int ret = 0;

	memset(sum, 0, sizeof(*sum));
	bm_lat_init(lat);
	sum->lat = lat;
	sum->fsize = t->fsize;
	perm = malloc(n * sizeof(*perm));
	th = calloc(nt, sizeof(*th));
	if (!perm || !th) {
		ret = -ENOMEM;
		goto out_free;
	}
	aio_shuffle(perm, n);
	/* order=random: fio's randread on each file, every block once; one
	 * shuffle shared by all files and threads (read only) */
	if (aio_order_of(o) == AIO_RANDOM) {
		order = malloc(t->fsize / AIO_BS * sizeof(*order));
		if (!order) {
			ret = -ENOMEM;
			goto out_free;
		}
		aio_shuffle(order, t->fsize / AIO_BS);
	}
	for (i = 0; i < nt; i++) {
		aio_share(n, nt, i, &first, &cnt);
		th[i] = (struct aio_thread){ .dir = dir, .eng = aio_engine_of(t->engine),
			.files = perm + first, .nfiles = cnt, .fsize = t->fsize, .order = order,
			.qd = (unsigned)o->qd, .gate = &gate,
			.flags = O_RDONLY | O_CLOEXEC | (direct ? O_DIRECT : 0) };
		bm_lat_init(&th[i].lat);
		if (pthread_create(&th[i].tid, NULL, aio_thread_main, &th[i])) {
			ret = -EAGAIN;
			break;
		}
		started++;
	}
	/* all set up (engine, buffer) before the clock starts */
	pthread_mutex_lock(&gate.lock);
	while (gate.ready < started)
		pthread_cond_wait(&gate.cond, &gate.lock);
	gate.stop = started < nt;
	bm_cpu_now(&sum->cpu0, RUSAGE_SELF);
	t0 = bm_now_ns();
	gate.go = 1;
	pthread_cond_broadcast(&gate.cond);
	pthread_mutex_unlock(&gate.lock);
	for (i = 0; i < started; i++) {
		pthread_join(th[i].tid, NULL);
		if (th[i].ret && !ret)
			ret = th[i].ret;
		sum->files += th[i].done;
		sum->iocbs += th[i].iocbs;
		sum->submits += th[i].submits;
		bm_lat_merge(lat, &th[i].lat);
	}
	sum->secs = (double)(bm_now_ns() - t0) / 1e9;
	bm_cpu_now(&sum->cpu1, RUSAGE_SELF);
out_free:
	free(order);
	free(th);
	free(perm);
	return ret;
}
