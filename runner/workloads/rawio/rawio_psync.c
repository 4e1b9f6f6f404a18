// SPDX-License-Identifier: MIT
/*
 * rawio's psync engine: fio 3.33's engines/sync.c, ioengine=psync:
 * fio_psyncio_queue() is one pread(2) or pwrite(2) of the whole block at
 * its offset, done before ->queue returns (FIO_Q_COMPLETED).
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "rawio_eng.h"

struct rio_q {
	int fd;
	unsigned bs;
	char *buf;
};

static int psync_init(struct rio_q **out, const struct rio_setup *s, char *why, size_t len)
{
	struct rio_q *q = calloc(1, sizeof(*q));

	if (!q)
		return -ENOMEM;
	q->fd = s->fd;
	q->bs = s->bs;
	q->buf = s->buf;
	*out = q;
	return 0;
}

static int psync_queue(struct rio_q *q, unsigned slot, uint64_t off, int write, int32_t *res,
		       struct rio_count *c)
{
	char *buf = q->buf + (size_t)slot * q->bs;
	ssize_t n = write ? pwrite(q->fd, buf, q->bs, (off_t)off)
			  : pread(q->fd, buf, q->bs, (off_t)off);

	c->submits++;
	*res = n < 0 ? -errno : (int32_t)n;
	return 1;
}

static void psync_fini(struct rio_q *q)
{
	free(q);
}

const struct rio_engine rio_psync_engine = {
	.init = psync_init,
	.queue = psync_queue,
	.commit = NULL,
	.getevents = NULL,
	.fini = psync_fini,
};
