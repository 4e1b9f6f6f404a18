// SPDX-License-Identifier: MIT
/*
 * Capture's byte sources.  Each hides its outages: a serial device that
 * went away (a USB UART unplugged) is reopened every second, a console
 * server that dropped us is reconnected with backoff (1 s doubling to
 * 10 s), a followed log file that was truncated or replaced (rotation:
 * another inode at the path) is read again from its start.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "capture_src.h"
#include "util.h"

#define CONNECT_TIMEOUT_S 5
#define BACKOFF_MIN_S 1.0
#define BACKOFF_MAX_S 10.0
#define FILE_POLL_MS 200

static const struct { unsigned baud; speed_t sp; } bauds[] = {
	{ 9600, B9600 }, { 19200, B19200 }, { 38400, B38400 }, { 57600, B57600 },
	{ 115200, B115200 }, { 230400, B230400 }, { 460800, B460800 }, { 921600, B921600 },
	{ 1500000, B1500000 }, { 3000000, B3000000 },
};

double bm_src_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int speed_of(unsigned baud, speed_t *sp)
{
	for (size_t i = 0; i < sizeof(bauds) / sizeof(bauds[0]); i++)
		if (bauds[i].baud == baud) {
			*sp = bauds[i].sp;
			return 0;
		}
	return -EINVAL;
}

static int parse_serial(struct bm_src *s, const char *arg, char *err, size_t errlen)
{
	const char *comma = strrchr(arg, ',');
	speed_t sp;
	char *end;

	s->baud = 115200;
	snprintf(s->path, sizeof(s->path), "%.*s", comma ? (int)(comma - arg) : (int)strlen(arg), arg);
	if (comma) {
		errno = 0;
		unsigned long v = strtoul(comma + 1, &end, 10);

		if (errno || end == comma + 1 || *end || v > 4000000 || speed_of((unsigned)v, &sp)) {
			snprintf(err, errlen, "bad baud rate '%s' in --serial (9600 .. 3000000, a standard rate)",
				 comma + 1);
			return -EINVAL;
		}
		s->baud = (unsigned)v;
	}
	if (!s->path[0]) {
		snprintf(err, errlen, "--serial wants DEVICE[,BAUD]");
		return -EINVAL;
	}
	return bm_path(s->desc, sizeof(s->desc), "serial:%s,%u", s->path, s->baud);
}

static int parse_tcp(struct bm_src *s, const char *arg, char *err, size_t errlen)
{
	const char *colon = strrchr(arg, ':'), *h = arg;
	size_t hl = colon ? (size_t)(colon - arg) : 0;
	char *end;
	unsigned long port;

	if (!colon || !hl || !colon[1]) {
		snprintf(err, errlen, "--tcp wants HOST:PORT, not '%s'", arg);
		return -EINVAL;
	}
	if (h[0] == '[' && hl >= 2 && h[hl - 1] == ']') {  /* [::1]:7000 */
		h++;
		hl -= 2;
	}
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (errno || *end || !port || port > 65535 || hl >= sizeof(s->host)) {
		snprintf(err, errlen, "--tcp wants HOST:PORT with a port 1-65535, not '%s'", arg);
		return -EINVAL;
	}
	snprintf(s->host, sizeof(s->host), "%.*s", (int)hl, h);
	snprintf(s->port, sizeof(s->port), "%lu", port);
	return bm_path(s->desc, sizeof(s->desc), "tcp:%s", arg);
}

int bm_src_parse(struct bm_src *s, enum bm_src_kind kind, const char *arg, int follow,
		 char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->fd = -1;
	s->follow = follow;
	s->report = stderr;
	s->backoff = BACKOFF_MIN_S;
	if (kind == BM_SRC_SERIAL)
		return parse_serial(s, arg, err, errlen);
	if (kind == BM_SRC_TCP)
		return parse_tcp(s, arg, err, errlen);
	if (bm_path(s->path, sizeof(s->path), "%s", arg) ||
	    bm_path(s->desc, sizeof(s->desc), "file:%s", arg)) {
		snprintf(err, errlen, "--file path too long");
		return -EINVAL;
	}
	return 0;
}

/* Raw 8N1 at the baud, no flow control, CLOCAL: a console cable has no modem lines. */
static int open_serial(struct bm_src *s)
{
	struct termios t;
	speed_t sp = B115200;
	int fd, rc;

	fd = open(s->path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	speed_of(s->baud, &sp);
	if (tcgetattr(fd, &t)) {
		rc = -errno;
		goto out_close;
	}
	cfmakeraw(&t);
	t.c_cflag |= CLOCAL | CREAD;
	t.c_cflag &= ~(tcflag_t)CRTSCTS;
	t.c_iflag &= ~(tcflag_t)(IXON | IXOFF);
	cfsetispeed(&t, sp);
	cfsetospeed(&t, sp);
	if (tcsetattr(fd, TCSANOW, &t)) {
		rc = -errno;
		goto out_close;
	}
	s->fd = fd;
	return 0;
out_close:
	close(fd);
	return rc;
}

static int open_tcp(struct bm_src *s)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *ai, *a;
	struct timeval tv = { .tv_sec = CONNECT_TIMEOUT_S };
	int fd = -1, rc;

	rc = getaddrinfo(s->host, s->port, &hints, &ai);
	if (rc)
		return rc == EAI_SYSTEM ? -errno : -EHOSTUNREACH;
	rc = -ECONNREFUSED;
	for (a = ai; a; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
		if (fd < 0) {
			rc = -errno;
			continue;
		}
		/* on Linux the send timeout bounds connect() too */
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		if (!connect(fd, a->ai_addr, a->ai_addrlen))
			break;
		rc = -errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	if (fd < 0)
		return rc;
	s->fd = fd;
	return 0;
}

static int open_file(struct bm_src *s)
{
	struct stat st;
	int fd = open(s->path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		close(fd);
		return -errno;
	}
	s->fd = fd;
	s->dev = st.st_dev;
	s->ino = st.st_ino;
	s->off = 0;
	return 0;
}

static int src_open(struct bm_src *s)
{
	switch (s->kind) {
	case BM_SRC_SERIAL:
		return open_serial(s);
	case BM_SRC_TCP:
		return open_tcp(s);
	default:
		return open_file(s);
	}
}

int bm_src_open(struct bm_src *s)
{
	return src_open(s);
}

void bm_src_close(struct bm_src *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

/* The next reopen or reconnect: every second, or with the TCP backoff. */
static void schedule(struct bm_src *s, double now)
{
	if (s->kind != BM_SRC_TCP) {
		s->retry_at = now + BACKOFF_MIN_S;
		return;
	}
	s->retry_at = now + s->backoff;
	s->backoff = s->backoff * 2 > BACKOFF_MAX_S ? BACKOFF_MAX_S : s->backoff * 2;
}

/* The source went away: close, say so once per outage, try again later. */
static void lost(struct bm_src *s, int err, double now)
{
	bm_src_close(s);
	if (!s->down) {
		if (s->report)
			fprintf(s->report, "bootmark: %s: %s; reconnecting\n", s->desc,
				err ? strerror(err) : s->kind == BM_SRC_TCP ? "closed by the other end" :
				"hung up");
		s->down = 1;
		s->down_at = now;
	}
	schedule(s, now);
}

static void retry(struct bm_src *s, double now)
{
	if (src_open(s)) {
		schedule(s, now);
		return;
	}
	if (s->report)
		fprintf(s->report, "bootmark: %s: back after %.0f s\n", s->desc, now - s->down_at);
	s->down = 0;
}

/* tail -F: at EOF, another file at the path or a shorter one means start over. */
static ssize_t file_eof(struct bm_src *s, int timeout_ms)
{
	struct stat st;

	if (!s->follow)
		return -ENODATA;
	if (!stat(s->path, &st) && (st.st_dev != s->dev || st.st_ino != s->ino)) {
		bm_src_close(s);
		if (!open_file(s) && s->report)
			fprintf(s->report, "bootmark: %s was replaced; reading the new file\n", s->path);
		return 0;
	}
	if (!fstat(s->fd, &st) && st.st_size < s->off) {
		if (s->report)
			fprintf(s->report, "bootmark: %s was truncated; reading from its start\n", s->path);
		s->off = 0;
		lseek(s->fd, 0, SEEK_SET);
		return 0;
	}
	if (poll(NULL, 0, timeout_ms) < 0 && errno == EINTR)
		return -EINTR;
	return 0;
}

ssize_t bm_src_read(struct bm_src *s, char *buf, size_t len, int timeout_ms)
{
	struct pollfd pfd;
	double now = bm_src_now();
	ssize_t n;

	if (s->fd < 0) {
		if (s->kind == BM_SRC_FILE && !s->follow)
			return -ENODATA;
		if (now >= s->retry_at)
			retry(s, now);
		if (s->fd < 0) {
			if (poll(NULL, 0, timeout_ms) < 0 && errno == EINTR)
				return -EINTR;
			return 0;
		}
	}
	if (s->kind != BM_SRC_FILE) {
		pfd = (struct pollfd){ .fd = s->fd, .events = POLLIN };
		if (poll(&pfd, 1, timeout_ms) < 0)
			return errno == EINTR ? -EINTR : 0;
		if (!pfd.revents)
			return 0;
	}
	n = read(s->fd, buf, len);
	if (n > 0) {
		s->off += n;
		s->backoff = BACKOFF_MIN_S;
		return n;
	}
	if (n < 0 && errno == EINTR)
		return -EINTR;
	if (n < 0 && errno == EAGAIN)
		return 0;
	if (s->kind == BM_SRC_FILE)
		return n == 0 ? file_eof(s, timeout_ms) : -errno;
	lost(s, n < 0 ? errno : 0, now);
	return 0;
}
