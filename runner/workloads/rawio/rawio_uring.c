// SPDX-License-Identifier: MIT
/*
 * rawio's io_uring engine, fio 3.33's engines/io_uring.c on bootmark's raw
 * rings (runner/engine/uring.c):
 *
 * - setup (fio_ioring_queue_init, fio_ioring_cmd_queue_init): qd entries,
 *   IOPOLL for hipri, SQPOLL for sqthread_poll, SQE128|CQE32 for NVMe
 *   passthrough, CQSIZE (cq_entries = qd), COOP_TASKRUN, SINGLE_ISSUER |
 *   DEFER_TASKRUN; on EINVAL the same retries, dropping DEFER_TASKRUN and
 *   SINGLE_ISSUER, then COOP_TASKRUN, then CQSIZE; then one
 *   IORING_REGISTER_PROBE (fio_ioring_probe: IORING_OP_READ and WRITE, so
 *   no readv/writev), IORING_REGISTER_BUFFERS of the qd slots for
 *   fixedbufs, IORING_REGISTER_FILES of the file for sqthread_poll (fio
 *   registers files whenever it polls with a thread: fio_ioring_init);
 * - ->queue: the slot's SQE (fio_ioring_prep: READ/WRITE, READ_FIXED/
 *   WRITE_FIXED with buf_index = slot; fio_ioring_cmd_prep: URING_CMD with
 *   cmd_op NVME_URING_CMD_IO and the NVMe command in the SQE's last 80
 *   bytes), then the slot into the SQ ring's array (fio_ioring_queue);
 * - ->commit (fio_ioring_commit): io_uring_enter(queued, 0, GETEVENTS)
 *   until all are taken, their issue time read after each call that took
 *   some (fio_ioring_queued); with SQPOLL only when the ring says
 *   NEED_WAKEUP, as io_uring_enter(queued, 0, SQ_WAKEUP), and no issue
 *   time (fio 3.33 returns before fio_ioring_queued there);
 * - ->getevents (fio_ioring_getevents): reap up to max from the CQ ring;
 *   while fewer than min, io_uring_enter(0, min left, GETEVENTS), or, with
 *   SQPOLL, spin on the ring.  A passthrough completion's res is the NVMe
 *   status: 0 is the whole block.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "rawio_eng.h"
#include "uring.h"

_Static_assert(sizeof(struct rio_nvme_cmd) == 72, "nvme_uring_cmd ABI");

struct rio_q {
	struct uring u;
	int engine;
	int fd;
	unsigned qd, bs, queued;
	char *buf;
	int sqpoll, fixed, nvme;
	uint32_t nsid;
	unsigned lba_shift;
};

void rio_nvme_prep(struct rio_nvme_cmd *cmd, int write, uint32_t nsid, unsigned lba_shift,
		   void *buf, uint32_t len, uint64_t off)
{
	uint64_t slba = off >> lba_shift;

	memset(cmd, 0, sizeof(*cmd));
	cmd->opcode = write ? RIO_NVME_WRITE : RIO_NVME_READ;
	cmd->cdw10 = (uint32_t)(slba & 0xffffffffu);
	cmd->cdw11 = (uint32_t)(slba >> 32);
	cmd->cdw12 = (len >> lba_shift) - 1;
	cmd->addr = (uint64_t)(uintptr_t)buf;
	cmd->data_len = len;
	cmd->nsid = nsid;
}

static void uring_fini(struct rio_q *q)
{
	if (!q)
		return;
	uring_free(&q->u);
	free(q);
}

/* The setup flags fio asks for, before its retries. */
static unsigned setup_flags(int engine)
{
	unsigned f = URING_SETUP_CQSIZE | URING_SETUP_COOP_TASKRUN | URING_SETUP_SINGLE_ISSUER |
		     URING_SETUP_DEFER_TASKRUN;

	if (rawio_engine_polled(engine))
		f |= URING_SETUP_IOPOLL;
	if (engine == RIO_SQPOLL)
		f |= URING_SETUP_SQPOLL;
	if (rawio_engine_nvme(engine))
		f |= URING_SETUP_SQE128 | URING_SETUP_CQE32;
	return f;
}

/* io_uring_setup with fio's retries on EINVAL. */
static int setup_ring(struct rio_q *q, char *why, size_t len)
{
	struct uring_params p;
	unsigned flags = setup_flags(q->engine);
	int ret;

	for (;;) {
		memset(&p, 0, sizeof(p));
		p.flags = flags;
		p.cq_entries = q->qd;
		ret = uring_setup(&q->u, q->qd, &p);
		if (ret != -EINVAL)
			break;
		if (flags & URING_SETUP_DEFER_TASKRUN)
			flags &= ~(URING_SETUP_DEFER_TASKRUN | URING_SETUP_SINGLE_ISSUER);
		else if (flags & URING_SETUP_COOP_TASKRUN)
			flags &= ~URING_SETUP_COOP_TASKRUN;
		else if (flags & URING_SETUP_CQSIZE)
			flags &= ~URING_SETUP_CQSIZE;
		else
			break;
	}
	if (ret)
		snprintf(why, len, "io_uring_setup(%u, flags 0x%x)", q->qd, flags);
	return ret;
}

/* The probe, the registered buffers and file: what the engine needs beyond
 * the ring. */
static int setup_extras(struct rio_q *q, char *why, size_t len)
{
	static const unsigned rw_ops[] = { URING_OP_READ, URING_OP_WRITE };
	static const unsigned cmd_ops[] = { URING_OP_URING_CMD };
	struct iovec *iov;
	unsigned i;
	int ret;

	ret = q->nvme ? uring_probe(q->u.fd, cmd_ops, 1) : uring_probe(q->u.fd, rw_ops, 2);
	if (ret <= 0) {
		snprintf(why, len, "%s", q->nvme ? "IORING_OP_URING_CMD (Linux 5.19)" :
			 "IORING_OP_READ and IORING_OP_WRITE (Linux 5.6)");
		return ret ? ret : -EOPNOTSUPP;
	}
	if (q->fixed) {
		iov = calloc(q->qd, sizeof(*iov));
		if (!iov)
			return -ENOMEM;
		for (i = 0; i < q->qd; i++)
			iov[i] = (struct iovec){ q->buf + (size_t)i * q->bs, q->bs };
		ret = uring_register(q->u.fd, URING_REGISTER_BUFFERS, iov, q->qd);
		free(iov);
		if (ret) {
			snprintf(why, len, "IORING_REGISTER_BUFFERS of %u x %u bytes", q->qd, q->bs);
			return ret;
		}
	}
	if (q->sqpoll) {
		ret = uring_register(q->u.fd, URING_REGISTER_FILES, &q->fd, 1);
		if (ret) {
			snprintf(why, len, "IORING_REGISTER_FILES");
			return ret;
		}
	}
	/* fio_ioring_post_init: every SQE zeroed once */
	memset(q->u.sq.sqes, 0, (size_t)q->qd * q->u.sq.sqe_size);
	return 0;
}

static int uring_init(struct rio_q **out, const struct rio_setup *s, char *why, size_t len)
{
	struct rio_q *q = calloc(1, sizeof(*q));
	int ret;

	if (!q)
		return -ENOMEM;
	q->u.fd = -1;
	q->engine = s->engine;
	q->fd = s->fd;
	q->qd = s->qd;
	q->bs = s->bs;
	q->buf = s->buf;
	q->sqpoll = s->engine == RIO_SQPOLL;
	q->fixed = s->engine == RIO_FIXED;
	q->nvme = rawio_engine_nvme(s->engine);
	q->nsid = s->nsid;
	q->lba_shift = s->lba_shift;
	ret = setup_ring(q, why, len);
	if (!ret)
		ret = setup_extras(q, why, len);
	if (ret) {
		uring_fini(q);
		return ret;
	}
	*out = q;
	return 0;
}

static void prep(struct rio_q *q, unsigned slot, uint64_t off, int write)
{
	struct uring_sqe *e = uring_sqe_at(&q->u.sq, slot);
	char *buf = q->buf + (size_t)slot * q->bs;

	e->fd = q->sqpoll ? 0 : q->fd;
	e->flags = q->sqpoll ? URING_SQE_FIXED_FILE : 0;
	e->ioprio = 0;
	e->user_data = slot;
	if (q->nvme) {
		e->opcode = URING_OP_URING_CMD;
		e->cmd_op = RIO_NVME_URING_CMD_IO;
		e->pad1 = 0;
		e->uring_cmd_flags = 0;
		rio_nvme_prep((struct rio_nvme_cmd *)((char *)e + URING_SQE_CMD_OFF), write, q->nsid,
			      q->lba_shift, buf, q->bs, off);
		return;
	}
	e->opcode = q->fixed ? (write ? URING_OP_WRITE_FIXED : URING_OP_READ_FIXED)
			     : (write ? URING_OP_WRITE : URING_OP_READ);
	e->addr = (uint64_t)(uintptr_t)buf;
	e->len = q->bs;
	e->buf_index = q->fixed ? (uint16_t)slot : 0;
	e->rw_flags = 0;
	e->off = off;
}

static int uring_queue(struct rio_q *q, unsigned slot, uint64_t off, int write, int32_t *res,
		       struct rio_count *c)
{
	if (q->queued == q->qd)
		return -EBUSY;
	prep(q, slot, off, write);
	if (uring_sq_queue(&q->u.sq, slot))
		return -EBUSY;
	q->queued++;
	return 0;
}

static int uring_commit(struct rio_q *q, struct rio_count *c)
{
	int r;

	if (!q->queued)
		return 0;
	if (q->sqpoll) {
		/* the kernel's thread submits; it only needs waking when idle */
		if (__atomic_load_n(q->u.sq.flags, __ATOMIC_ACQUIRE) & URING_SQ_NEED_WAKEUP) {
			r = uring_enter(q->u.fd, q->queued, 0, URING_ENTER_SQ_WAKEUP);
			c->submits++;
			if (r < 0)
				return r;
		}
		/* fio 3.33 stamps no issue time here (fio_ioring_commit()) */
		rio_issued(c, q->queued, 0);
		q->queued = 0;
		return 0;
	}
	while (q->queued) {
		r = uring_enter(q->u.fd, q->queued, 0, URING_ENTER_GETEVENTS);
		c->submits++;
		if (r > 0) {
			q->queued -= (unsigned)r;
			rio_issued(c, (unsigned)r, 1);     /* fio_ioring_queued() */
		} else if (r == -EAGAIN || r == -EINTR)
			usleep(1);
		else if (r < 0)
			return r;
	}
	return 0;
}

/* Takes up to max completions off the CQ ring into ev (fio_ioring_cqring_reap
 * and ->event). */
static unsigned reap_ring(struct rio_q *q, unsigned max, struct rio_ev *ev)
{
	unsigned n = uring_cq_ready(&q->u.cq), i;
	const struct uring_cqe *e;

	if (n > max)
		n = max;
	for (i = 0; i < n; i++) {
		e = uring_cq_peek(&q->u.cq, i);
		ev[i].slot = (unsigned)e->user_data;
		if (q->nvme)  /* the NVMe status: 0 moved the whole block */
			ev[i].res = e->res == 0 ? (int32_t)q->bs : e->res < 0 ? e->res : -EIO;
		else
			ev[i].res = e->res;
	}
	uring_cq_advance(&q->u.cq, n);
	return n;
}

static int uring_getevents(struct rio_q *q, unsigned min, unsigned max, struct rio_ev *ev,
			   struct rio_count *c)
{
	unsigned events = 0, left = min, r;
	int w;

	do {
		r = reap_ring(q, max - events, ev + events);
		if (r) {
			events += r;
			left = left > r ? left - r : 0;
			continue;
		}
		if (q->sqpoll)
			continue;
		w = uring_enter(q->u.fd, 0, left, URING_ENTER_GETEVENTS);
		c->waits++;
		if (w < 0 && w != -EAGAIN && w != -EINTR)
			return w;
	} while (events < min);
	return (int)events;
}

const struct rio_engine rio_uring_engine = {
	.init = uring_init,
	.queue = uring_queue,
	.commit = uring_commit,
	.getevents = uring_getevents,
	.fini = uring_fini,
};
