// SPDX-License-Identifier: MIT
/*
 * rawio's libaio engine: fio 3.33's engines/libaio.c.  io_queue_init(qd)
 * (fio_libaio_post_init); ->queue puts the slot's iocb, prepared by
 * io_prep_pread/io_prep_pwrite (fio_libaio_prep), in a ring of qd iocb
 * pointers (fio_libaio_queue); ->commit hands the queued ones to
 * io_submit, in two calls when they wrap the ring's end, the issue time
 * read after each call that took some (fio_libaio_commit,
 * fio_libaio_queued); ->getevents is io_getevents(min, max) with no
 * timeout (fio_libaio_getevents; userspace_reap is off by default).
 */
#include <errno.h>
#include <libaio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rawio_eng.h"

struct rio_q {
	io_context_t ctx;
	int fd;
	unsigned qd, bs;
	char *buf;
	struct iocb *iocb;          /* one per slot */
	struct iocb **ring;         /* fio's ld->iocbs: queued, from tail to head */
	unsigned head, tail, queued;
	struct io_event *events;
};

static void libaio_fini(struct rio_q *q)
{
	if (!q)
		return;
	if (q->ctx)
		io_destroy(q->ctx);
	free(q->iocb);
	free(q->ring);
	free(q->events);
	free(q);
}

static int libaio_init(struct rio_q **out, const struct rio_setup *s, char *why, size_t len)
{
	struct rio_q *q = calloc(1, sizeof(*q));
	int ret = -ENOMEM;

	if (!q)
		return -ENOMEM;
	q->fd = s->fd;
	q->qd = s->qd;
	q->bs = s->bs;
	q->buf = s->buf;
	q->iocb = calloc(s->qd, sizeof(*q->iocb));
	q->ring = calloc(s->qd, sizeof(*q->ring));
	q->events = calloc(s->qd, sizeof(*q->events));
	if (!q->iocb || !q->ring || !q->events)
		goto out_fini;
	ret = io_queue_init((int)s->qd, &q->ctx);
	if (ret) {
		q->ctx = 0;
		snprintf(why, len, "io_setup(%u)", s->qd);
		goto out_fini;
	}
	*out = q;
	return 0;

out_fini:
	libaio_fini(q);
	return ret;
}

static int libaio_queue(struct rio_q *q, unsigned slot, uint64_t off, int write, int32_t *res,
			struct rio_count *c)
{
	struct iocb *cb = &q->iocb[slot];
	char *buf = q->buf + (size_t)slot * q->bs;

	if (q->queued == q->qd)
		return -EBUSY;
	if (write)
		io_prep_pwrite(cb, q->fd, buf, q->bs, (long long)off);
	else
		io_prep_pread(cb, q->fd, buf, q->bs, (long long)off);
	q->ring[q->head] = cb;
	q->head = (q->head + 1) % q->qd;
	q->queued++;
	return 0;
}

static int libaio_commit(struct rio_q *q, struct rio_count *c)
{
	unsigned nr;
	int r;

	while (q->queued) {
		nr = q->queued < q->qd - q->tail ? q->queued : q->qd - q->tail;
		r = io_submit(q->ctx, (long)nr, q->ring + q->tail);
		c->submits++;
		if (r > 0) {
			q->queued -= (unsigned)r;
			q->tail = (q->tail + (unsigned)r) % q->qd;
			rio_issued(c, (unsigned)r, 1);     /* fio_libaio_queued() */
		} else if (r == -EAGAIN) {
			return 0;        /* fio: let the caller reap, then try again */
		} else if (r != -EINTR && r != 0) {
			return r;
		}
	}
	return 0;
}

static int libaio_getevents(struct rio_q *q, unsigned min, unsigned max, struct rio_ev *ev,
			    struct rio_count *c)
{
	unsigned events = 0, i;
	int r;

	do {
		r = io_getevents(q->ctx, (long)min, (long)(max - events), q->events + events, NULL);
		c->waits++;
		if (r > 0) {
			events += (unsigned)r;
		} else if ((min && r == 0) || r == -EAGAIN) {
			r = libaio_commit(q, c);
			if (r < 0)
				return r;
			if (min)
				usleep(10);
		} else if (r != -EINTR) {
			return r;
		}
	} while (events < min);
	for (i = 0; i < events; i++) {
		ev[i].slot = (unsigned)(q->events[i].obj - q->iocb);
		ev[i].res = (long)q->events[i].res < 0 ? (int32_t)(long)q->events[i].res
						       : (int32_t)q->events[i].res;
	}
	return (int)events;
}

const struct rio_engine rio_libaio_engine = {
	.init = libaio_init,
	.queue = libaio_queue,
	.commit = libaio_commit,
	.getevents = libaio_getevents,
	.fini = libaio_fini,
};
