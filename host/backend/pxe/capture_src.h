/* SPDX-License-Identifier: MIT */
/*
 * Byte sources of "bootmark capture": a serial line (raw mode, reopened
 * when a USB UART goes away), a TCP console server (reconnected with
 * backoff) and a log file (optionally followed as it grows, tail -F).
 */
#ifndef BM_HOST_CAPTURE_SRC_H
#define BM_HOST_CAPTURE_SRC_H

#include <limits.h>
#include <stdio.h>
#include <sys/types.h>

enum bm_src_kind { BM_SRC_SERIAL, BM_SRC_TCP, BM_SRC_FILE };

struct bm_src {
	enum bm_src_kind kind;
	char path[PATH_MAX];     /* serial device or log file */
	unsigned baud;
	char host[256], port[32];
	int follow;              /* file: keep reading as it grows */
	int fd;
	dev_t dev;               /* file: the one open, to see a rotation */
	ino_t ino;
	off_t off;
	double retry_at;         /* monotonic s: next reopen or reconnect */
	double backoff;          /* tcp: 1 .. 10 s */
	int down;                /* in an outage (said once on report) */
	double down_at;
	FILE *report;            /* outage messages (stderr) */
	char desc[PATH_MAX + 16];  /* "serial:/dev/ttyUSB0,115200" for meta.json */
};

/* "DEV[,BAUD]", "HOST:PORT" ("[v6]:PORT") or "LOG"; 0 or -EINVAL with err. */
int bm_src_parse(struct bm_src *s, enum bm_src_kind kind, const char *arg, int follow,
		 char *err, size_t errlen);
/* The first open; a failure here is the caller's to report (-errno). */
int bm_src_open(struct bm_src *s);
/*
 * Waits up to timeout_ms for bytes.  Returns the count, 0 when none came
 * (an outage is handled inside: reopen, reconnect), -ENODATA at the end of
 * a file that is not followed, -EINTR when a signal came.
 */
ssize_t bm_src_read(struct bm_src *s, char *buf, size_t len, int timeout_ms);
void bm_src_close(struct bm_src *s);
/* Monotonic seconds. */
double bm_src_now(void);

#endif
