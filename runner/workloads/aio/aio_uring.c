// SPDX-License-Identifier: MIT
/*
 * The io_uring engine of wl_aio, on the raw syscalls (no liburing): one
 * ring of qd entries per thread, IORING_OP_READ of 4 KiB blocks.  The ring
 * itself, the kernel's ABI spelled out, is runner/engine/uring.c, shared
 * with rawio.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uring.h"
#include "wl_aio.h"

struct aio_q {
	struct uring u;
	unsigned qd;
};

int aio_sq_push(struct uring_sq *sq, int fd, void *buf, uint32_t len, uint64_t off,
		uint64_t ud)
{
	unsigned slot = *sq->tail & *sq->mask;
	struct uring_sqe *e = uring_sqe_at(sq, slot);

	if (!uring_sq_space(sq))
		return -EBUSY;
	memset(e, 0, sizeof(*e));
	e->opcode = URING_OP_READ;
	e->fd = fd;
	e->off = off;
	e->addr = (uint64_t)(uintptr_t)buf;
	e->len = len;
	e->user_data = ud;
	return uring_sq_queue(sq, slot);
}

int aio_cq_pop(struct uring_cq *cq, int32_t *res, uint64_t *ud)
{
	const struct uring_cqe *e;

	if (!uring_cq_ready(cq))
		return 0;
	e = uring_cq_peek(cq, 0);
	*res = e->res;
	*ud = e->user_data;
	uring_cq_advance(cq, 1);
	return 1;
}

static void aio_uring_fini(struct aio_q *q)
{
	if (!q)
		return;
	uring_free(&q->u);
	free(q);
}

static int aio_uring_init(struct aio_q **out, unsigned qd)
{
	struct uring_params p;
	struct aio_q *q = calloc(1, sizeof(*q));
	int ret;

	if (!q)
		return -ENOMEM;
	memset(&p, 0, sizeof(p));
	q->qd = qd;
	ret = uring_setup(&q->u, qd, &p);
	if (ret) {
		free(q);
		return ret;
	}
	*out = q;
	return 0;
}

/* Submits the n queued SQEs; a short count is retried, each call counted. */
static int aio_uring_submit(struct aio_q *q, unsigned n, uint64_t *submits)
{
	int r;

	while (n) {
		r = uring_enter(q->u.fd, n, 0, 0);
		(*submits)++;
		if (r < 0)
			return r;
		if (r == 0)
			return -EIO;
		n -= (unsigned)r;
	}
	return 0;
}

static int aio_uring_read_file(struct aio_q *q, int fd, void *buf, uint32_t fsize,
			       const uint32_t *order, uint64_t *iocbs, uint64_t *submits)
{
	struct aio_file_state s = { .nblocks = fsize / AIO_BS };
	uint32_t n, i, b;
	uint64_t ud;
	int32_t res;
	int r;

	while (s.done < s.nblocks) {
		n = aio_batch(&s, q->qd - s.inflight);
		for (i = 0; i < n; i++, s.next++) {
			b = aio_block(order, s.next);
			if (aio_sq_push(&q->u.sq, fd, (char *)buf + (uint64_t)b * AIO_BS, AIO_BS,
					(uint64_t)b * AIO_BS, b))
				return -EBUSY;     /* cannot happen: inflight <= qd */
		}
		if (n) {
			r = aio_uring_submit(q, n, submits);
			if (r)
				return r;
			*iocbs += n;
			s.inflight += n;
		}
		if (!aio_cq_pop(&q->u.cq, &res, &ud)) {
			r = uring_enter(q->u.fd, 0, 1, URING_ENTER_GETEVENTS);
			if (r < 0 && r != -EINTR)
				return r;
			continue;
		}
		do {
			if (res < 0)
				return res;
			if ((uint32_t)res != AIO_BS || ud >= s.nblocks)
				return -EIO;
			s.inflight--;
			s.done++;
		} while (aio_cq_pop(&q->u.cq, &res, &ud));
	}
	return 0;
}

const struct aio_engine aio_uring_engine = {
	.name = "uring",
	.init = aio_uring_init,
	.read_file = aio_uring_read_file,
	.fini = aio_uring_fini,
};
