// SPDX-License-Identifier: MIT
/* Writes framed records; see emit.h. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "emit.h"
#include "emit_int.h"

double emit_now(void)
{
	struct timespec ts;

	/* BOOTTIME: as PID 1 this is "seconds since boot", suspend included. */
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void emit_init_fd(struct emitter *e, int fd, const char *run)
{
	memset(e, 0, sizeof(*e));
	e->fd = fd;
	e->kfd = -1;
	snprintf(e->run, sizeof(e->run), "%s", run);
	pthread_mutex_init(&e->lock, NULL);
	pthread_cond_init(&e->cond, NULL);
	e->last_emit = emit_now();
	snprintf(e->phase, sizeof(e->phase), "boot");
}

/* 1 when path is the kernel's console: /dev/console or the last active one. */
static int is_console(const char *path)
{
	char buf[256], *last;
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	ssize_t n;
	int fd;

	if (!strcmp(path, "/dev/console"))
		return 1;
	fd = open("/sys/class/tty/console/active", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	last = strrchr(buf, ' ') ? strrchr(buf, ' ') + 1 : buf;
	return !strcmp(last, base);
}

/*
 * On a console that kernel messages share, the UART driver sends a tty
 * write in FIFO-sized bursts and printk's console output lands between
 * them: a record would be torn into 16-byte pieces under a flood of kernel
 * messages.  Handed to printk through /dev/kmsg it is printed whole, in
 * order with the kernel's own lines.  That needs /dev/kmsg without rate
 * limit (printk_devkmsg=on); where that cannot be set, -1: write directly.
 */
/* "on" in /proc/sys/kernel/printk_devkmsg (set there or on the command line). */
static int devkmsg_on(int fd)
{
	char v[16] = "";

	return lseek(fd, 0, SEEK_SET) == 0 && read(fd, v, sizeof(v) - 1) > 0 &&
	       !strncmp(v, "on", 2);
}

static int open_kmsg(void)
{
	int fd, kfd, on;

	fd = open("/proc/sys/kernel/printk_devkmsg", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* printk.devkmsg= on the command line locks it: then only read it */
	on = devkmsg_on(fd) || (pwrite(fd, "on\n", 3, 0) == 3 && devkmsg_on(fd));
	close(fd);
	if (!on)
		return -1;
	kfd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	return kfd < 0 ? -1 : kfd;
}

int emit_open(struct emitter *e, const char *path, const char *run)
{
	struct termios t;
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	/*
	 * The tty layer's output processing (ONLCR, tab expansion) would
	 * change the bytes after the CRC was computed.  Raw mode keeps them
	 * as written; the speed the kernel chose is left alone.
	 */
	if (isatty(fd) && tcgetattr(fd, &t) == 0) {
		speed_t ospeed = cfgetospeed(&t), ispeed = cfgetispeed(&t);

		cfmakeraw(&t);
		cfsetospeed(&t, ospeed);
		cfsetispeed(&t, ispeed);
		tcsetattr(fd, TCSANOW, &t);
	}
	emit_init_fd(e, fd, run);
	if (is_console(path))
		e->kfd = open_kmsg();
	return 0;
}

void emit_close(struct emitter *e)
{
	size_t i;

	emit_beat_stop(e);
	if (e->kfd >= 0)
		close(e->kfd);
	e->kfd = -1;
	for (i = 0; i < e->nr; i++)
		free(e->rlines[i]);
	free(e->rlines);
	e->rlines = NULL;
	e->nr = e->rcap = 0;
	if (e->fd > 2)
		close(e->fd);
	e->fd = -1;
}

/* One line, one write(): a line is never split by another writer's output. */
/* printk keeps a record whole up to 1 KiB with its prefixes; longer: direct. */
#define KMSG_LINE_MAX 900

static int write_kmsg(struct emitter *e, const char *buf, size_t len)
{
	char line[KMSG_LINE_MAX + 8];
	int n = snprintf(line, sizeof(line), "<0>%.*s", (int)len, buf);

	/* one write() is one printk record; level 0 passes any console loglevel */
	if (write(e->kfd, line, (size_t)n) != n)
		return -1;
	e->last_emit = emit_now();
	return 0;
}

static int write_line(struct emitter *e, const char *buf, size_t len)
{
	ssize_t n;
	size_t done = 0;

	if (e->kfd >= 0 && len <= KMSG_LINE_MAX && !write_kmsg(e, buf, len))
		return 0;

	while (done < len) {
		n = write(e->fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		done += (size_t)n;
	}
	e->last_emit = emit_now();
	return 0;
}

int emit_begin(struct emitter *e, struct bm_line *l, char type)
{
	return bm_line_start(l, e->run, ++e->seq, type);
}

/*
 * A record that does not fit would leave a hole in the sequence, which the
 * host reads as a lost line; an E record under the same seq says why.
 */
static int finish_or_replace(struct emitter *e, struct bm_line *l, int *replaced)
{
	int n = bm_line_finish(l);

	*replaced = n < 0;
	if (n >= 0)
		return n;
	bm_line_start(l, e->run, e->seq, BM_REC_ERROR);
	bm_line_add(l, "class", "internal");
	bm_line_addf(l, "msg", "record %llu could not be encoded: %s",
		     (unsigned long long)e->seq, strerror(-n));
	e->nerrors++;
	return bm_line_finish(l);
}

int emit_finish_write(struct emitter *e, struct bm_line *l)
{
	int replaced;
	int n = finish_or_replace(e, l, &replaced);

	if (n < 0)
		return n;
	return write_line(e, l->buf, (size_t)n);
}

static void add_ctx(struct bm_line *l, const struct emit_ctx *c)
{
	if (!c || !c->rep)
		return;
	bm_line_add(l, "fs", c->fs);
	bm_line_add(l, "test", c->test);
	bm_line_addf(l, "rep", "%d", c->rep);
}

int emit_hello(struct emitter *e, const struct bm_kv *kv, unsigned n)
{
	struct bm_line l;
	unsigned i;
	int ret;

	pthread_mutex_lock(&e->lock);
	emit_begin(e, &l, BM_REC_HELLO);
	for (i = 0; i < n; i++)
		bm_line_add(&l, kv[i].key, kv[i].val);
	ret = emit_finish_write(e, &l);
	pthread_mutex_unlock(&e->lock);
	return ret;
}

int emit_phase(struct emitter *e, const char *phase, const struct emit_ctx *c)
{
	struct bm_line l;
	int ret;

	pthread_mutex_lock(&e->lock);
	snprintf(e->phase, sizeof(e->phase), "%s", phase);
	emit_begin(e, &l, BM_REC_PHASE);
	bm_line_add(&l, "phase", phase);
	add_ctx(&l, c);
	/* seconds since boot as in B, to the ms: the host times the first mkfs */
	bm_line_addf(&l, "t", "%.3f", emit_now());
	ret = emit_finish_write(e, &l);
	pthread_mutex_unlock(&e->lock);
	return ret;
}

static int beat_locked(struct emitter *e)
{
	struct bm_line l;

	/* HELLO is seq 1: module loading and the disk wait come before it */
	if (!e->seq)
		return 0;
	emit_begin(e, &l, BM_REC_BEAT);
	bm_line_add(&l, "phase", e->phase);
	bm_line_addf(&l, "t", "%.1f", emit_now());
	return emit_finish_write(e, &l);
}

int emit_beat(struct emitter *e)
{
	int ret;

	pthread_mutex_lock(&e->lock);
	ret = beat_locked(e);
	pthread_mutex_unlock(&e->lock);
	return ret;
}

int emit_beat_maybe(struct emitter *e)
{
	int ret = 0;

	pthread_mutex_lock(&e->lock);
	if (e->beat_secs > 0 && emit_now() - e->last_emit >= (double)e->beat_secs)
		ret = beat_locked(e);
	pthread_mutex_unlock(&e->lock);
	return ret;
}

static void *beat_main(void *arg)
{
	struct emitter *e = arg;
	struct timespec ts;

	pthread_mutex_lock(&e->lock);
	while (!e->beat_stop) {
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 1;
		pthread_cond_timedwait(&e->cond, &e->lock, &ts);
		if (!e->beat_stop && emit_now() - e->last_emit >= (double)e->beat_secs)
			beat_locked(e);
	}
	pthread_mutex_unlock(&e->lock);
	return NULL;
}

int emit_beat_start(struct emitter *e, long long secs)
{
	int ret;

	if (secs <= 0)
		return -EINVAL;
	e->beat_secs = secs;
	e->beat_stop = 0;
	ret = pthread_create(&e->beat_thread, NULL, beat_main, e);
	if (ret)
		return -ret;
	e->beat_running = 1;
	return 0;
}

void emit_beat_stop(struct emitter *e)
{
	if (!e->beat_running)
		return;
	pthread_mutex_lock(&e->lock);
	e->beat_stop = 1;
	pthread_cond_signal(&e->cond);
	pthread_mutex_unlock(&e->lock);
	pthread_join(e->beat_thread, NULL);
	e->beat_running = 0;
}

void emit_fmt_value(char *buf, size_t len, double v)
{
	size_t n;

	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(buf, len, "%.0f", v);
		return;
	}
	snprintf(buf, len, "%.6f", v);
	n = strlen(buf);
	while (n > 1 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 1 && buf[n - 1] == '.')
		buf[--n] = '\0';
}

static int keep_rline(struct emitter *e, const char *buf, size_t len)
{
	char **nl;
	char *copy;

	if (e->nr == e->rcap) {
		size_t cap = e->rcap ? e->rcap * 2 : 32;

		nl = realloc(e->rlines, cap * sizeof(*nl));
		if (!nl)
			return -ENOMEM;
		e->rlines = nl;
		e->rcap = cap;
	}
	copy = malloc(len + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, len + 1);
	e->rlines[e->nr++] = copy;
	return 0;
}

void emit_set_lava(struct emitter *e, int on)
{
	pthread_mutex_lock(&e->lock);
	e->lava = on ? 1 : 0;
	pthread_mutex_unlock(&e->lock);
}

static void add_metrics(struct bm_line *l, const struct bm_result *r)
{
	char key[BM_KEY_MAX], num[64];
	unsigned i;

	for (i = 0; i < r->nmetrics; i++) {
		snprintf(key, sizeof(key), "m_%s", r->m[i].name);
		emit_fmt_value(num, sizeof(num), r->m[i].value);
		bm_line_addf(l, key, "%s:%s", num, r->m[i].unit);
	}
}

int emit_result(struct emitter *e, const struct bm_result *r,
		const struct emit_ctx *c, const char *mkfs, const char *mount_opts)
{
	return emit_result_kv(e, r, c, mkfs, mount_opts, NULL, 0);
}

int emit_result_kv(struct emitter *e, const struct bm_result *r,
		   const struct emit_ctx *c, const char *mkfs, const char *mount_opts,
		   const struct bm_kv *extra, unsigned nextra)
{
	struct bm_line l;
	unsigned i;
	int n, ret, replaced;

	pthread_mutex_lock(&e->lock);
	emit_begin(e, &l, BM_REC_RESULT);
	bm_line_add(&l, "wl", r->wl);
	bm_line_add(&l, "test", r->test);
	bm_line_add(&l, "fs", c->fs);
	bm_line_addf(&l, "rep", "%d", c->rep);
	bm_line_add(&l, "params", r->params);
	bm_line_add(&l, "mkfs", mkfs);
	bm_line_add(&l, "mount", mount_opts);
	bm_line_addf(&l, "partial", "%d", r->partial ? 1 : 0);
	for (i = 0; i < nextra; i++)
		bm_line_add(&l, extra[i].key, extra[i].val);
	add_metrics(&l, r);
	n = finish_or_replace(e, &l, &replaced);
	if (n < 0) {
		ret = n;
		goto out_unlock;
	}
	if (replaced) {
		ret = write_line(e, l.buf, (size_t)n);
		if (e->lava && (n = emit_lava_failure(e, "internal", c)) && !ret)
			ret = n;
		goto out_unlock;
	}
	/* Counted even if the copy fails: the record itself is still written. */
	ret = keep_rline(e, l.buf, (size_t)n);
	n = write_line(e, l.buf, (size_t)n);
	e->nresults++;
	if (!ret)
		ret = n;
	if (e->lava && (n = emit_lava_metrics(e, r, c)) && !ret)
		ret = n;
out_unlock:
	pthread_mutex_unlock(&e->lock);
	return ret;
}

int emit_error(struct emitter *e, const char *cls, const struct emit_ctx *c,
	       const char *fmt, ...)
{
	char msg[BM_VAL_MAX / 2];
	struct bm_line l;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "bootmark-runner: %s\n", msg);
	pthread_mutex_lock(&e->lock);
	emit_begin(e, &l, BM_REC_ERROR);
	bm_line_add(&l, "class", cls);
	bm_line_add(&l, "msg", msg);
	add_ctx(&l, c);
	ret = emit_finish_write(e, &l);
	e->nerrors++;
	if (e->lava) {
		int n = emit_lava_failure(e, cls, c);

		ret = ret ? ret : n;
	}
	pthread_mutex_unlock(&e->lock);
	return ret;
}

void emit_set_planned(struct emitter *e, unsigned n, unsigned raw)
{
	e->planned = n;
	e->planned_raw = raw;
}

int emit_end(struct emitter *e)
{
	struct bm_line l;
	size_t i;
	int ret = 0, r;

	emit_beat_stop(e);
	pthread_mutex_lock(&e->lock);
	for (i = 0; i < e->nr; i++) {
		r = write_line(e, e->rlines[i], strlen(e->rlines[i]));
		if (r && !ret)
			ret = r;
	}
	emit_begin(e, &l, BM_REC_END);
	bm_line_addf(&l, "n", "%llu", (unsigned long long)e->seq);
	bm_line_addf(&l, "results", "%u", e->nresults);
	bm_line_addf(&l, "errors", "%u", e->nerrors);
	if (e->planned)
		bm_line_addf(&l, "tests", "%u", e->planned);
	if (e->planned_raw)
		bm_line_addf(&l, "raw", "%u", e->planned_raw);
	r = emit_finish_write(e, &l);
	pthread_mutex_unlock(&e->lock);
	/* Records handed to printk (a shared console) are printed by whichever
	 * CPU holds the console, in order; reboot(2) stops the other CPUs, so
	 * when kernel messages flood the console the last records (the repeats,
	 * END) can still be queued behind them at power-off and are lost
	 * (tests/faults.sh, kmsg, once in CI).  A second lets the console
	 * catch up; records on a port of their own (QEMU's ttyS1) need none. */
	if (e->kfd >= 0)
		sleep(1);
	return ret ? ret : r;
}
