// SPDX-License-Identifier: MIT
/*
 * The libaio engine of wl_aio: one io_setup(qd) context per thread,
 * io_prep_pread of 4 KiB blocks, a batch per io_submit, completions
 * reaped with io_getevents(min_nr = 1).
 */
#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <string.h>

#include "wl_aio.h"

struct aio_q {
	io_context_t ctx;
	unsigned qd;
	unsigned nfree;
	struct iocb *iocb;          /* qd control blocks */
	struct iocb **free;         /* stack of unused ones */
	struct iocb **batch;        /* the batch being submitted */
	struct io_event *ev;
};

static void libaio_fini(struct aio_q *q)
{
	if (!q)
		return;
	if (q->ctx)
		io_destroy(q->ctx);
	free(q->iocb);
	free(q->free);
	free(q->batch);
	free(q->ev);
	free(q);
}

static int libaio_init(struct aio_q **out, unsigned qd)
{
	struct aio_q *q = calloc(1, sizeof(*q));
	unsigned i;
	int ret;

	if (!q)
		return -ENOMEM;
	q->qd = qd;
	q->iocb = calloc(qd, sizeof(*q->iocb));
	q->free = calloc(qd, sizeof(*q->free));
	q->batch = calloc(qd, sizeof(*q->batch));
	q->ev = calloc(qd, sizeof(*q->ev));
	if (!q->iocb || !q->free || !q->batch || !q->ev) {
		ret = -ENOMEM;
		goto out_fini;
	}
	ret = io_setup((int)qd, &q->ctx);
	if (ret) {
		q->ctx = 0;
		goto out_fini;
	}
	for (i = 0; i < qd; i++)
		q->free[i] = &q->iocb[i];
	q->nfree = qd;
	*out = q;
	return 0;

out_fini:
	libaio_fini(q);
	return ret;
}

/* io_submit of the n prepared iocbs; a short count is retried. */
static int libaio_submit(struct aio_q *q, unsigned n, uint64_t *submits)
{
	struct iocb **p = q->batch;
	int r;

	while (n) {
		r = io_submit(q->ctx, (long)n, p);
		(*submits)++;
		if (r < 0)
			return r;
		if (r == 0)
			return -EIO;
		n -= (unsigned)r;
		p += r;
	}
	return 0;
}

static int libaio_read_file(struct aio_q *q, int fd, void *buf, uint32_t fsize,
			    const uint32_t *order, uint64_t *iocbs, uint64_t *submits)
{
	struct aio_file_state s = { .nblocks = fsize / AIO_BS };
	struct iocb *cb;
	uint32_t n, i, b;
	int r, k;

	while (s.done < s.nblocks) {
		n = aio_batch(&s, q->qd - s.inflight);
		for (i = 0; i < n; i++, s.next++) {
			cb = q->free[--q->nfree];
			b = aio_block(order, s.next);
			io_prep_pread(cb, fd, (char *)buf + (uint64_t)b * AIO_BS, AIO_BS,
				      (long long)b * AIO_BS);
			cb->data = cb;
			q->batch[i] = cb;
		}
		if (n) {
			r = libaio_submit(q, n, submits);
			if (r)
				return r;
			*iocbs += n;
			s.inflight += n;
		}
		r = io_getevents(q->ctx, 1, (long)s.inflight, q->ev, NULL);
		if (r == -EINTR)
			continue;
		if (r < 0)
			return r;
		for (k = 0; k < r; k++) {
			q->free[q->nfree++] = q->ev[k].obj;
			if ((long)q->ev[k].res < 0)
				return (int)(long)q->ev[k].res;
			if (q->ev[k].res != AIO_BS)
				return -EIO;
			s.inflight--;
			s.done++;
		}
	}
	return 0;
}

const struct aio_engine aio_libaio_engine = {
	.name = "libaio",
	.init = libaio_init,
	.read_file = libaio_read_file,
	.fini = libaio_fini,
};
