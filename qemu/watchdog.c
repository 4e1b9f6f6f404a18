// SPDX-License-Identifier: MIT
/*
 * Watching a QEMU boot.  Progress is new bytes on the results UART; console
 * output counts only until the first record, because a kernel that spews
 * warnings in a loop is not making progress (reliability.md: console
 * noise is not a heartbeat).  A panic on the console ends the boot even if
 * QEMU does not exit by itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "outdir.h"
#include "proto.h"
#include "qemu.h"
#include "stats.h"
#include "util.h"

#define POLL_MS 200
#define PANIC_TEXT "Kernel panic - not syncing"
#define CARRY 32  /* longest pattern we look for, kept across reads */

/* 1 exited, 0 deadline or a new stop signal (when stop_on_sig), -errno. */
static int wait_until(pid_t pid, double deadline, int *status, int stop_on_sig)
{
	int sigs = bm_stop_count();

	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return 1;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (bm_now_s() >= deadline || (stop_on_sig && bm_stop_count() != sigs))
			return 0;
		usleep(50 * 1000);
	}
}

int bm_proc_stop(pid_t pid)
{
	int status = 0;

	kill(pid, SIGTERM);
	/* a second Ctrl-C while QEMU winds down: no more waiting */
	if (wait_until(pid, bm_now_s() + 5, &status, 1) == 1)
		return status;
	kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

static off_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_size;
}

struct con_tail {
	int fd;
	off_t off;
	char carry[CARRY];
	size_t ncarry;
	int marker;     /* a protocol marker seen: the HELLO on a shared UART */
	int new_marker; /* ... in the bytes of the last con_read() */
	int panic;
};

/* Reads what is new in console.log; returns the number of new bytes. */
static size_t con_read(struct con_tail *t, const char *path)
{
	char buf[CARRY + 65536];
	size_t total = 0;
	ssize_t n;

	if (t->fd < 0) {
		t->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (t->fd < 0)
			return 0;
	}
	t->new_marker = 0;
	for (;;) {
		memcpy(buf, t->carry, t->ncarry);
		n = pread(t->fd, buf + t->ncarry, sizeof(buf) - t->ncarry, t->off);
		if (n <= 0)
			break;
		t->off += n;
		total += (size_t)n;
		n += (ssize_t)t->ncarry;
		if (memmem(buf, (size_t)n, PANIC_TEXT, strlen(PANIC_TEXT)))
			t->panic = 1;
		if (memmem(buf, (size_t)n, BM_PROTO_MAGIC " ", strlen(BM_PROTO_MAGIC) + 1))
			t->marker = t->new_marker = 1;
		t->ncarry = (size_t)n < CARRY ? (size_t)n : CARRY;
		memcpy(t->carry, buf + n - (ssize_t)t->ncarry, t->ncarry);
	}
	return total;
}

static void finish(struct bm_watch_result *r, enum bm_watch v, pid_t pid, double t0,
		   const char *why)
{
	r->verdict = v;
	r->status = bm_proc_stop(pid);
	r->seconds = bm_now_s() - t0;
	snprintf(r->why, sizeof(r->why), "%s", why);
}

/* Our end of QEMU's QMP socket, now the watch's to close; -1 none. */
static int take_qmp(const struct bm_watch_cfg *c)
{
	int fd = -1;

	if (c->fds && c->fds->qmp) {
		fd = c->fds->qmp_own;
		c->fds->qmp_own = -1;
	}
	return fd;
}

int bm_qemu_watch(char *const argv[], const struct bm_watch_cfg *c, struct bm_watch_result *r)
{
	struct con_tail con = { .fd = -1 };
	struct bm_qmp qmp;
	double t0, last, panic_at = 0, sampled = 0;
	off_t res_size = 0;
	char why[160];
	int log_fd, rc, hello, own_catch;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	log_fd = bm_out_open(c->qemu_log, O_WRONLY | O_CLOEXEC, 0644);
	if (log_fd < 0)
		return log_fd;
	rc = bm_proc_start(argv, log_fd, &pid);
	close(log_fd);
	bm_qmp_start(&qmp, take_qmp(c));
	if (c->fds)
		bm_qemu_close_fds(c->fds);  /* QEMU has its copies; its locks go with it */
	if (rc) {
		bm_qmp_end(&qmp);
		return rc;
	}
	t0 = last = bm_now_s();
	/* A command that does not catch the stop signals itself still must not
	 * leave an orphaned QEMU behind (a killed make bench did): catch them
	 * here, and die by them once QEMU is stopped. */
	own_catch = bm_stop_catch();
	for (;;) {
		double t;
		off_t sz;

		if (bm_stop_signal()) {
			snprintf(why, sizeof(why), "stopped by %s", bm_stop_name(bm_stop_signal()));
			finish(r, BM_WATCH_INTERRUPTED, pid, t0, why);
			break;
		}
		if (waitpid(pid, &r->status, WNOHANG) == pid) {
			r->verdict = BM_WATCH_EXITED;
			r->seconds = bm_now_s() - t0;
			bm_status_str(r->status, r->why, sizeof(r->why));
			break;
		}
		t = bm_now_s();
		sz = c->results_log ? file_size(c->results_log) : 0;
		if (sz > res_size) {
			res_size = sz;
			last = t;
		}
		hello = res_size > 0 || con.marker;
		/* protocol lines on the console count (shared UART), noise
		 * only before the first record */
		if (con_read(&con, c->console_log) && (!hello || con.new_marker))
			last = t;
		if (c->progress)
			c->progress(c->progress_arg, c->results_log, t - t0, t);
		if (c->sample && (!sampled || t - sampled >= c->sample_s)) {
			c->sample(c->sample_arg, pid);
			sampled = t;
		}
		/* the host's disk is full: QEMU paused the guest, which then is
		 * silent as a hung kernel is, but the fault is the host's */
		if (bm_qmp_poll(&qmp, why, sizeof(why))) {
			finish(r, BM_WATCH_HOSTIO, pid, t0, why);
			break;
		}
		if (con.panic && !panic_at)
			panic_at = t;
		if (panic_at && t - panic_at > c->panic_grace_s) {
			finish(r, BM_WATCH_PANIC, pid, t0, "kernel panic; QEMU did not exit");
			break;
		}
		if (t - last > c->silence_s) {
			snprintf(why, sizeof(why), "no progress for %d s", c->silence_s);
			finish(r, BM_WATCH_SILENCE, pid, t0, why);
			break;
		}
		if (t - t0 > c->timeout_s) {
			snprintf(why, sizeof(why), "hard timeout of %d s reached", c->timeout_s);
			finish(r, BM_WATCH_TIMEOUT, pid, t0, why);
			break;
		}
		usleep(POLL_MS * 1000);
	}
	if (con.fd >= 0)
		close(con.fd);
	bm_qmp_end(&qmp);
	if (own_catch) {
		if (r->verdict == BM_WATCH_INTERRUPTED)
			bm_stop_reraise();  /* returns only if the old action ignores it */
		bm_stop_release();
	}
	return 0;
}
