// SPDX-License-Identifier: MIT
/*
 * bonnie's I/O tests on one file of size bytes (wl_bonnie.c has the list;
 * the seek test is in wl_bonnie_seek.c).  As bonnie++ 2.00a (bonnie++.cpp
 * TestFileOps, bon_io.cpp): the file is opened before the timer starts;
 * inside it are the I/O and Close(), that is fsync() then close().  Only
 * the create-opens (putc, block-w) take O_DIRECT; the others reopen O_RDWR.
 * Latency is the slowest chunk: chunk bytes, however many syscalls.  The
 * timed part runs in a forked child of one thread, as bonnie++'s process
 * is (bon_io_solo() below says why).
 *
 * version=1.02c (bonnie++ 1.02c/1.03 bon_io.cpp) and version=bray (Tim
 * Bray's bonnie.c) differ in three ways, each below: the per-char tests are
 * stdio putc()/getc() over the whole file, Close() does not fsync, and
 * Bray's rewrite and block read loop until read() comes back short.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stats.h"
#include "wl.h"
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

int bon_open_old(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* bonnie++ 2.00a's Close(): fsync, then close; the first failure is kept. */
static int bon_close(int fd)
{
	int ret = fsync(fd) ? -errno : 0;

	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* 1.02c's close() fsyncs only with -b (not supported), Bonnie's never. */
int bon_close_v(int fd, int version)
{
	if (version == BON_V200A)
		return bon_close(fd);
	return close(fd) ? -errno : 0;
}

int bon_read_full(int fd, unsigned char *buf, size_t len)
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

int bon_write_full(int fd, const unsigned char *buf, size_t len)
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
unsigned char *bon_buffer(size_t len)
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

/* 1.02c's write_block_putc() and Bonnie's putc loop: stdio over the whole
 * file, byte i & 0x7f; fflush before the close (1.02c calls fflush(NULL),
 * Bonnie's fclose flushes). */
static int bon_putc_stdio(struct wl_ctx *ctx, FILE *f, const struct bonnie_opts *o,
			  struct bon_meas *m)
{
	uint64_t k, nchunks = o->size / o->chunk;
	size_t i;

	for (k = 0; k < nchunks; k++) {
		uint64_t t0 = bm_now_ns();

		for (i = 0; i < o->chunk; i++)
			if (putc((int)(i & 0x7f), f) == EOF)
				return errno ? -errno : -ENOSPC;
		bon_unit_done(m, t0);
		bon_beat(ctx, k + 1, BON_BEAT_CHUNKS, "bonnie putc");
	}
	return fflush(f) ? -errno : 0;
}

static int bon_getc_stdio(struct wl_ctx *ctx, FILE *f, const struct bonnie_opts *o,
			  struct bon_meas *m)
{
	uint64_t k, nchunks = o->size / o->chunk;
	unsigned counts[256] = { 0 };
	size_t i;
	int c;

	for (k = 0; k < nchunks; k++) {
		uint64_t t0 = bm_now_ns();

		for (i = 0; i < o->chunk; i++) {
			c = getc(f);
			if (c == EOF)
				return ferror(f) ? -EIO : -ENODATA;
			counts[c]++;    /* as Bonnie's chars[]: the byte is used */
		}
		bon_unit_done(m, t0);
		bon_beat(ctx, k + 1, BON_BEAT_CHUNKS, "bonnie getc");
	}
	return counts[0] == UINT32_MAX ? -EIO : 0;
}

/* Bonnie's rewrite and block read: read() chunks until one comes back short
 * (the last read returns 0), so the loop does one read past the end. */
static int bon_bray_loop(struct wl_ctx *ctx, int fd, const struct bonnie_opts *o,
			 unsigned char *buf, struct bon_meas *m, int rewrite)
{
	size_t idx = 0;
	uint64_t k = 0, t0 = bm_now_ns();
	ssize_t n;

	for (;;) {
		n = read(fd, buf, o->chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if ((size_t)n != o->chunk)
			return 0;
		if (rewrite) {
			idx %= o->chunk / sizeof(int);
			((int *)(void *)buf)[idx++]++;
			if (lseek(fd, -(off_t)n, SEEK_CUR) < 0)
				return -errno;
			if (write(fd, buf, (size_t)n) != n)
				return errno ? -errno : -ENOSPC;
		}
		bon_unit_done(m, t0);
		t0 = bm_now_ns();
		bon_beat(ctx, ++k, BON_BEAT_CHUNKS, rewrite ? "bonnie rewrite" : "bonnie block-r");
	}
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
	fd = bon_close_v(fd, bon_ver(o));
	if (!ret)
		ret = fd;
out_free_buf:
	free(buf);
	return ret;
}

static int bon_io_test(struct wl_ctx *ctx, const struct bonnie_opts *o, int test, int fd,
		       unsigned char *buf, struct bon_meas *m)
{
	if (bon_ver(o) == BON_VBRAY && (test == BON_REWRITE || test == BON_BLOCK_R))
		return bon_bray_loop(ctx, fd, o, buf, m, test == BON_REWRITE);
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

int bon_io_warm(struct wl_ctx *ctx, const struct bonnie_opts *o)
{
	size_t len = 1 << 20;
	unsigned char *buf = bon_buffer(len);
	char path[512];
	uint64_t k = 0;
	ssize_t n;
	int fd, ret = 0;

	if (!buf)
		return -ENOMEM;
	bon_path(ctx, path, sizeof(path));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto out_free_buf;
	}
	while ((n = read(fd, buf, len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		bon_beat(ctx, ++k, 256, "bonnie warm");
	}
	close(fd);
out_free_buf:
	free(buf);
	return ret;
}

/* The per-char tests of 1.02c and Bonnie: the fd wrapped in a stdio stream
 * ("w+"/"r+" as 1.02c's fopen, Bonnie's fdopen(fd, "r+")), timed from the
 * first putc/getc to the fclose. */
static int bon_stdio_run(struct wl_ctx *ctx, const struct bonnie_opts *o, int test, int fd,
			 struct bon_meas *m)
{
	struct bon_timer t;
	FILE *f = fdopen(fd, "r+");
	int ret, cret;

	if (!f) {
		ret = -errno;
		close(fd);
		return ret;
	}
	bon_timer_start(&t);
	ret = test == BON_PUTC ? bon_putc_stdio(ctx, f, o, m) : bon_getc_stdio(ctx, f, o, m);
	cret = fclose(f) ? -errno : 0;
	bon_timer_stop(&t, m);
	return ret ? ret : cret;
}

/* The timed part of one I/O test: the test and its Close() (the per-char
 * tests of 1.02c and Bonnie through stdio).  Consumes fd. */
static int bon_io_timed(struct wl_ctx *ctx, const struct bonnie_opts *o, int test, int fd,
			unsigned char *buf, struct bon_meas *m)
{
	struct bon_timer t;
	int ret, cret;

	if (bon_ver(o) != BON_V200A && (test == BON_PUTC || test == BON_GETC))
		return bon_stdio_run(ctx, o, test, fd, m);
	bon_timer_start(&t);
	ret = bon_io_test(ctx, o, test, fd, buf, m);
	cret = bon_close_v(fd, bon_ver(o));
	bon_timer_stop(&t, m);
	return ret ? ret : cret;
}

struct bon_solo_out {
	struct bon_meas m;
	int ret;
};

static int bon_pipe_io(int fd, void *p, size_t len, int writing)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = writing ? write(fd, (char *)p + done, len - done)
			    : read(fd, (char *)p + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

/*
 * bonnie++ (every version) runs its I/O tests in a process of one thread
 * that alone holds the file.  The runner has more threads (its heartbeat),
 * and for a process whose file table is shared the kernel's fdget_pos()
 * takes a reference on the file and its f_pos_lock on every read() and
 * write(): for 2.00a's per-char tests, a million 1-byte calls per MiB, that
 * was 10-15% of their rate (docs/performance.md, "Fidelity run").  So the
 * timed part runs in a forked child, which has one thread, after the parent
 * has closed its copy of the descriptor; the child's own clock and
 * getrusage(RUSAGE_SELF) are bonnie++'s, and it sends them back through a
 * pipe.  The child never calls ctx->beat (the emitter is the parent's; the
 * parent's heartbeat thread goes on).  If fork() fails, the test runs here.
 */
static int bon_io_solo(struct wl_ctx *ctx, const struct bonnie_opts *o, int test, int fd,
		       unsigned char *buf, struct bon_meas *m)
{
	struct bon_solo_out out;
	int go[2], res[2], st, ret;
	char g = 'g';
	pid_t pid;

	if (pipe2(go, O_CLOEXEC))
		return bon_io_timed(ctx, o, test, fd, buf, m);
	if (pipe2(res, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		return bon_io_timed(ctx, o, test, fd, buf, m);
	}
	pid = fork();
	if (pid == 0) {
		struct wl_ctx c = *ctx;

		c.beat = NULL;
		close(go[1]);
		close(res[0]);
		memset(&out, 0, sizeof(out));
		if (bon_pipe_io(go[0], &g, 1, 0))
			_exit(1);
		out.ret = bon_io_timed(&c, o, test, fd, buf, &out.m);
		_exit(bon_pipe_io(res[1], &out, sizeof(out), 1) ? 1 : 0);
	}
	close(go[0]);
	close(res[1]);
	if (pid < 0) {
		close(go[1]);
		close(res[0]);
		return bon_io_timed(ctx, o, test, fd, buf, m);
	}
	close(fd);      /* the child is the file's only holder */
	ret = bon_pipe_io(go[1], &g, 1, 1);
	close(go[1]);
	if (!ret)
		ret = bon_pipe_io(res[0], &out, sizeof(out), 0);
	close(res[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (ret)
		return -EIO;    /* the child died before it reported */
	*m = out.m;
	return out.ret;
}

int bon_io_run(struct wl_ctx *ctx, const struct bonnie_opts *o, int test,
	       struct bm_result *r)
{
	int ret;
	struct bon_meas m = { 0 };
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
	/* 2.00a's TestFileOps seeks the reopened file to 0 before rewrite's and
	 * block read's timer (bonnie++.cpp; seen in its trace, trace_bonnie.sh) */
	if ((test == BON_REWRITE || test == BON_BLOCK_R) && bon_ver(o) == BON_V200A &&
	    lseek(fd, 0, SEEK_SET) < 0) {
		ret = -errno;
		close(fd);
		goto out_free_buf;
	}
	ret = bon_io_solo(ctx, o, test, fd, buf, &m);
	bon_add_common(r, &m, (double)(m.units * o->chunk) / 1024.0, "KiB/s");
	bm_result_add(r, "bytes", (double)(m.units * o->chunk), "B");
out_free_buf:
	free(buf);
	return ret;
}
