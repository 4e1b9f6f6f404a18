// SPDX-License-Identifier: MIT
/*
 * QEMU's monitor (QMP) on a socket pair, read by the watchdog for one
 * event: BLOCK_IO_ERROR with action "stop".  QEMU's default for a drive's
 * write errors is werror=enospc: when the host's filesystem under disk.img
 * is full, QEMU pauses the guest and waits for someone to make room.  The
 * guest then fell silent and the silence watchdog called the boot a hang,
 * the kernel's fault (a bisection marked it bad); the event says it is the
 * host's (issue 43).  Only the event is read: no command but the
 * capabilities handshake QMP needs before it sends events.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "qemu.h"

#define QMP_HELLO "{\"execute\": \"qmp_capabilities\"}\n"

int bm_qmp_pair(int *qemu_end, int *own)
{
	int sv[2];

	*qemu_end = *own = -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, sv))
		return -errno;
	/* QEMU's end: inherited, and blocking as QEMU expects it */
	if (fcntl(sv[1], F_SETFD, 0) || fcntl(sv[1], F_SETFL, 0)) {
		close(sv[0]);
		close(sv[1]);
		return -errno;
	}
	*own = sv[0];
	*qemu_end = sv[1];
	return 0;
}

void bm_qmp_argv(struct bm_argv *a, int fd)
{
	bm_argv_add(a, "-chardev");
	bm_argv_addf(a, "socket,id=qmp,fd=%d", fd);
	bm_argv_add(a, "-mon");
	bm_argv_add(a, "chardev=qmp,mode=control");
}

void bm_qmp_start(struct bm_qmp *q, int fd)
{
	memset(q, 0, sizeof(*q));
	q->fd = fd;
	q->done = fd < 0;
	/* sits in the socket until QEMU reads it; a QEMU that is gone is no error
	 * (MSG_NOSIGNAL: no SIGPIPE) */
	if (fd >= 0 && send(fd, QMP_HELLO, strlen(QMP_HELLO), MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		q->done = 1;
}

void bm_qmp_end(struct bm_qmp *q)
{
	if (q->fd >= 0)
		close(q->fd);
	q->fd = -1;
	q->done = 1;
}

/* The string value of "key" in one JSON line (whitespace as QEMU puts it,
 * or none), escapes kept as they are; 0 or -ENOENT. */
static int str_of(const char *line, const char *key, char *out, size_t len)
{
	char pat[40];
	const char *p;
	size_t n = 0;

	snprintf(pat, sizeof(pat), "\"%s\"", key);
	p = strstr(line, pat);
	if (!p)
		return -ENOENT;
	p += strlen(pat);
	p += strspn(p, " \t");
	if (*p++ != ':')
		return -ENOENT;
	p += strspn(p, " \t");
	if (*p++ != '"')
		return -ENOENT;
	while (*p && *p != '"' && n + 1 < len) {
		if (*p == '\\' && p[1])
			out[n++] = *p++;
		if (n + 1 < len)
			out[n++] = *p++;
	}
	out[n] = '\0';
	return 0;
}

/* 1 when line is a BLOCK_IO_ERROR that stopped the guest (why filled). */
static int stopped(const char *line, char *why, size_t len)
{
	char v[32], reason[128] = "", op[16] = "";

	if (str_of(line, "event", v, sizeof(v)) || strcmp(v, "BLOCK_IO_ERROR") ||
	    str_of(line, "action", v, sizeof(v)) || strcmp(v, "stop"))
		return 0;
	str_of(line, "reason", reason, sizeof(reason));
	str_of(line, "operation", op, sizeof(op));
	snprintf(why, len, "QEMU paused the guest: a %s of the test disk's image failed on the "
		 "host (%s)", op[0] ? op : "request", reason[0] ? reason : "I/O error");
	return 1;
}

int bm_qmp_poll(struct bm_qmp *q, char *why, size_t len)
{
	ssize_t n;
	char *nl;

	while (!q->done) {
		n = recv(q->fd, q->buf + q->n, sizeof(q->buf) - 1 - q->n, MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
				q->done = 1;  /* QEMU closed it: nothing more to hear */
			return 0;
		}
		q->n += (size_t)n;
		q->buf[q->n] = '\0';
		while ((nl = strchr(q->buf, '\n'))) {
			*nl = '\0';
			if (stopped(q->buf, why, len))
				return 1;
			q->n -= (size_t)(nl + 1 - q->buf);
			memmove(q->buf, nl + 1, q->n + 1);
		}
		if (q->n == sizeof(q->buf) - 1)
			q->n = 0;  /* a line longer than any event we want: dropped */
	}
	return 0;
}
