// SPDX-License-Identifier: MIT
/* tiobench's threads: one phase of tiotest 0.4, or of 0.3.3 with
 * version=0.3.3 (wl_tiobench.h, wl_tiobench.c). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "seqio.h"
#include "wl_tiobench.h"

struct tio_shared {
	const struct tio_opts *o;
	const char *dir;
	int phase;
	pthread_mutex_t lock;
	pthread_cond_t ready_cond;  /* parent waits for every thread */
	pthread_cond_t go_cond;     /* threads wait for the release */
	unsigned ready;
	int go;                     /* 0 wait, 1 run, -1 give up */
};

struct tio_thread {
	struct tio_shared *sh;
	pthread_t tid;
	unsigned idx;
	unsigned char *buf;
	uint64_t ops;
	int err;
	struct bm_lat lat;
	struct bm_cpu cpu0, cpu1;   /* 0.3.3: this thread's own rusage */
};

void tio_path(char *buf, size_t len, const char *dir, unsigned thread)
{
	snprintf(buf, len, "%s/tiotest.%u", dir, thread);
}

/* One pread/pwrite, its latency recorded; a short transfer is an error. */
static int tio_io_one(struct tio_thread *t, int fd, uint64_t off, int writing)
{
	uint64_t bs = t->sh->o->bs, t0 = bm_now_ns();
	ssize_t n = writing ? pwrite(fd, t->buf, bs, (off_t)off)
			    : pread(fd, t->buf, bs, (off_t)off);
	int err = errno;

	bm_lat_add(&t->lat, bm_now_ns() - t0);
	if (n < 0)
		return -err;
	if ((uint64_t)n != bs)
		return writing ? -ENOSPC : -ENODATA;  /* disk full / file too short */
	t->ops++;
	return 0;
}

/* 0.3.3: lseek() (outside the latency), then one read()/write(). */
static int tio_io_seek(struct tio_thread *t, int fd, uint64_t off, int writing)
{
	uint64_t bs = t->sh->o->bs, t0;
	ssize_t n;
	int err;

	if (off != UINT64_MAX && lseek(fd, (off_t)off, SEEK_SET) < 0)
		return -errno;
	t0 = bm_now_ns();
	n = writing ? write(fd, t->buf, bs) : read(fd, t->buf, bs);
	err = errno;
	bm_lat_add(&t->lat, bm_now_ns() - t0);
	if (n < 0)
		return -err;
	if ((uint64_t)n != bs)
		return writing ? -ENOSPC : -ENODATA;
	t->ops++;
	return 0;
}

/* tiotest 0.3.3's do_write_test(), do_random_write_test(), do_read_test()
 * and do_random_read_test(): O_RDWR|O_CREAT|O_TRUNC, O_WRONLY or O_RDONLY;
 * sequential phases write/read on from offset 0, random ones lseek first
 * to block rand_r() % (blocks - 1); fsync only after writes. */
static int tio_io_file_033(struct tio_thread *t)
{
	const struct tio_opts *o = t->sh->o;
	int phase = t->sh->phase;
	int writing = phase == TIO_SEQWR || phase == TIO_RNDWR;
	int random = phase == TIO_RNDWR || phase == TIO_RNDRD;
	uint64_t blocks = o->size / o->bs, n = random ? (uint64_t)o->random : blocks, i, off;
	unsigned seed = tio_seed(t->idx);
	int fd, ret = 0, flags;
	char path[512];

	flags = phase == TIO_SEQWR ? O_RDWR | O_CREAT | O_TRUNC
				   : writing ? O_WRONLY : O_RDONLY;
	flags |= O_CLOEXEC | (o->direct ? O_DIRECT : 0) | (writing && o->sync ? O_SYNC : 0);
	tio_path(path, sizeof(path), t->sh->dir, t->idx);
	fd = open(path, flags, 0600);
	if (fd < 0)
		return -errno;
	for (i = 0; i < n && !ret; i++) {
		off = random ? tio_rand_block(&seed, blocks > 1 ? blocks - 1 : 1) * o->bs
			     : UINT64_MAX;
		ret = tio_io_seek(t, fd, off, writing);
	}
	if (writing && fsync(fd) && !ret)
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* tiotest 0.4's thread body: open, ftruncate, the I/O, fsync, close. */
static int tio_io_file(struct tio_thread *t)
{
	const struct tio_opts *o = t->sh->o;
	int phase = t->sh->phase;
	int writing = phase == TIO_SEQWR || phase == TIO_RNDWR;
	int random = phase == TIO_RNDWR || phase == TIO_RNDRD;
	uint64_t blocks = o->size / o->bs, n = random ? (uint64_t)o->random : blocks, i, b;
	unsigned seed = tio_seed(t->idx);
	int fd, ret = 0, flags = O_RDWR | O_CREAT | O_CLOEXEC;
	char path[512];

	flags |= (o->direct ? O_DIRECT : 0) | (o->sync ? O_SYNC : 0);
	tio_path(path, sizeof(path), t->sh->dir, t->idx);
	fd = open(path, flags, 0644);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)o->size)) {
		ret = -errno;
		goto out_close_fd;
	}
	for (i = 0; i < n && !ret; i++) {
		b = random ? tio_rand_block(&seed, blocks) : i;
		ret = tio_io_one(t, fd, b * o->bs, writing);
	}
	if (fsync(fd) && !ret)
		ret = -errno;
out_close_fd:
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

static void *tio_thread_main(void *arg)
{
	struct tio_thread *t = arg;
	struct tio_shared *sh = t->sh;
	int go;

	pthread_mutex_lock(&sh->lock);
	sh->ready++;
	pthread_cond_signal(&sh->ready_cond);
	while (!sh->go)
		pthread_cond_wait(&sh->go_cond, &sh->lock);
	go = sh->go;
	pthread_mutex_unlock(&sh->lock);
	if (go > 0 && tio_v033(sh->o)) {
		bm_cpu_now(&t->cpu0, RUSAGE_THREAD);
		t->err = tio_io_file_033(t);
		bm_cpu_now(&t->cpu1, RUSAGE_THREAD);
	} else if (go > 0) {
		t->err = tio_io_file(t);
	}
	return NULL;
}

/* Starts the threads; every one waits for the release.  0 or -errno. */
static int tio_start(struct tio_thread *th, unsigned n, unsigned *created)
{
	int e;

	for (*created = 0; *created < n; (*created)++) {
		e = pthread_create(&th[*created].tid, NULL, tio_thread_main, &th[*created]);
		if (e)
			return -e;
	}
	return 0;
}

/* Releases the waiting threads (or tells them to give up) and joins them;
 * the parent's timer and rusage span release to last join, as tiotest's. */
static void tio_release_join(struct tio_shared *sh, struct tio_thread *th, unsigned created,
			     int give_up, struct tio_sum *sum)
{
	uint64_t t0 = 0;
	unsigned i;

	pthread_mutex_lock(&sh->lock);
	while (sh->ready < created)
		pthread_cond_wait(&sh->ready_cond, &sh->lock);
	if (!give_up) {
		bm_cpu_now(&sum->cpu0, RUSAGE_SELF);
		t0 = bm_now_ns();
	}
	sh->go = give_up ? -1 : 1;
	pthread_cond_broadcast(&sh->go_cond);
	pthread_mutex_unlock(&sh->lock);
	for (i = 0; i < created; i++)
		pthread_join(th[i].tid, NULL);
	if (!give_up) {
		sum->secs = (double)(bm_now_ns() - t0) / 1e9;
		bm_cpu_now(&sum->cpu1, RUSAGE_SELF);
	}
}

int tio_phase_run(const char *dir, const struct tio_opts *o, int phase,
		  unsigned nthreads, struct tio_sum *sum, struct bm_lat *lat)
{
	struct tio_shared sh = { .o = o, .dir = dir, .phase = phase };
	struct tio_thread *th;
	unsigned i, created = 0;
	int ret = 0;

	memset(sum, 0, sizeof(*sum));
	sum->bs = o->bs;
	sum->lat = lat;
	bm_lat_init(lat);
	th = calloc(nthreads, sizeof(*th));
	if (!th)
		return -ENOMEM;
	for (i = 0; i < nthreads && !ret; i++) {
		th[i].sh = &sh;
		th[i].idx = i;
		bm_lat_init(&th[i].lat);
		th[i].buf = seqio_buffer(o->bs);
		if (!th[i].buf)
			ret = -ENOMEM;
	}
	if (ret)
		goto out_free_threads;
	pthread_mutex_init(&sh.lock, NULL);
	pthread_cond_init(&sh.ready_cond, NULL);
	pthread_cond_init(&sh.go_cond, NULL);
	ret = tio_start(th, nthreads, &created);
	tio_release_join(&sh, th, created, ret != 0, sum);
	for (i = 0; i < created; i++) {
		sum->ops += th[i].ops;
		bm_lat_merge(lat, &th[i].lat);
		if (!ret && th[i].err)
			ret = th[i].err;
	}
	/* 0.3.3 under LinuxThreads: each thread's own time, summed */
	if (tio_v033(o) && created && !ret) {
		sum->cpu1 = sum->cpu0;
		for (i = 0; i < created; i++) {
			sum->cpu1.user_s += th[i].cpu1.user_s - th[i].cpu0.user_s;
			sum->cpu1.sys_s += th[i].cpu1.sys_s - th[i].cpu0.sys_s;
		}
	}
	pthread_cond_destroy(&sh.go_cond);
	pthread_cond_destroy(&sh.ready_cond);
	pthread_mutex_destroy(&sh.lock);
out_free_threads:
	for (i = 0; i < nthreads; i++)
		free(th[i].buf);
	free(th);
	return ret;
}
