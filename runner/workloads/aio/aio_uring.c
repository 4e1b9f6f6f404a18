// SPDX-License-Identifier: MIT
/*
 * The io_uring engine of wl_aio, on the raw syscalls (no liburing): one
 * ring of qd entries per thread, IORING_OP_READ of 4 KiB blocks.  The
 * structures are the kernel's uapi ABI (include/uapi/linux/io_uring.h),
 * spelled out here because musl ships no linux/ headers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "wl_aio.h"

#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup 425
#endif
#ifndef SYS_io_uring_enter
#define SYS_io_uring_enter 426
#endif

#define OFF_SQ_RING      0ull
#define OFF_CQ_RING      0x8000000ull
#define OFF_SQES         0x10000000ull
#define FEAT_SINGLE_MMAP 1u
#define ENTER_GETEVENTS  1u

struct sq_offsets {
	uint32_t head, tail, ring_mask, ring_entries, flags, dropped, array, resv1;
	uint64_t resv2;
};

struct cq_offsets {
	uint32_t head, tail, ring_mask, ring_entries, overflow, cqes, flags, resv1;
	uint64_t resv2;
};

struct uring_params {
	uint32_t sq_entries, cq_entries, flags, sq_thread_cpu, sq_thread_idle;
	uint32_t features, wq_fd, resv[3];
	struct sq_offsets sq_off;
	struct cq_offsets cq_off;
};

struct uring_sqe {                /* the read subset of the 64-byte SQE */
	uint8_t opcode, flags;
	uint16_t ioprio;
	int32_t fd;
	uint64_t off, addr;
	uint32_t len, rw_flags;
	uint64_t user_data;
	uint64_t pad[3];
};

struct uring_cqe {
	uint64_t user_data;
	int32_t res;
	uint32_t flags;
};

_Static_assert(sizeof(struct uring_params) == 120, "io_uring_params ABI");
_Static_assert(sizeof(struct uring_sqe) == AIO_SQE_SIZE, "io_uring_sqe ABI");
_Static_assert(sizeof(struct uring_cqe) == AIO_CQE_SIZE, "io_uring_cqe ABI");

struct aio_q {
	int fd;
	unsigned qd;
	void *sq_map, *cq_map, *sqes;
	size_t sq_len, cq_len, sqes_len;
	struct aio_sqring sq;
	struct aio_cqring cq;
};

int aio_sq_push(struct aio_sqring *sq, int fd, void *buf, uint32_t len, uint64_t off,
		uint64_t ud)
{
	unsigned tail = *sq->tail, head = __atomic_load_n(sq->head, __ATOMIC_ACQUIRE);
	unsigned idx = tail & *sq->mask;
	struct uring_sqe *e = (struct uring_sqe *)sq->sqes + idx;

	if (tail - head >= *sq->entries)
		return -EBUSY;
	memset(e, 0, sizeof(*e));
	e->opcode = AIO_OP_READ;
	e->fd = fd;
	e->off = off;
	e->addr = (uint64_t)(uintptr_t)buf;
	e->len = len;
	e->user_data = ud;
	sq->array[idx] = idx;
	__atomic_store_n(sq->tail, tail + 1, __ATOMIC_RELEASE);
	return 0;
}

int aio_cq_pop(struct aio_cqring *cq, int32_t *res, uint64_t *ud)
{
	unsigned head = *cq->head, tail = __atomic_load_n(cq->tail, __ATOMIC_ACQUIRE);
	const struct uring_cqe *e;

	if (head == tail)
		return 0;
	e = (const struct uring_cqe *)cq->cqes + (head & *cq->mask);
	*res = e->res;
	*ud = e->user_data;
	__atomic_store_n(cq->head, head + 1, __ATOMIC_RELEASE);
	return 1;
}

static int uring_enter(int fd, unsigned submit, unsigned wait, unsigned flags)
{
	long r = syscall(SYS_io_uring_enter, fd, submit, wait, flags, NULL, 0);

	return r < 0 ? -errno : (int)r;
}

static void uring_fini(struct aio_q *q)
{
	if (!q)
		return;
	if (q->sqes)
		munmap(q->sqes, q->sqes_len);
	if (q->cq_map && q->cq_map != q->sq_map)
		munmap(q->cq_map, q->cq_len);
	if (q->sq_map)
		munmap(q->sq_map, q->sq_len);
	if (q->fd >= 0)
		close(q->fd);
	free(q);
}

static void *ring_map(int fd, size_t len, uint64_t off)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
		       (off_t)off);

	return p == MAP_FAILED ? NULL : p;
}

static int uring_init(struct aio_q **out, unsigned qd)
{
	struct uring_params p;
	struct aio_q *q = calloc(1, sizeof(*q));
	char *sq, *cq;
	int ret;

	if (!q)
		return -ENOMEM;
	memset(&p, 0, sizeof(p));
	q->qd = qd;
	q->fd = (int)syscall(SYS_io_uring_setup, qd, &p);
	if (q->fd < 0) {
		ret = -errno;
		goto out_free;
	}
	q->sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	q->cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct uring_cqe);
	if (p.features & FEAT_SINGLE_MMAP) {
		if (q->cq_len > q->sq_len)
			q->sq_len = q->cq_len;
		q->cq_len = q->sq_len;
	}
	q->sqes_len = p.sq_entries * sizeof(struct uring_sqe);
	ret = -ENOMEM;
	q->sq_map = ring_map(q->fd, q->sq_len, OFF_SQ_RING);
	if (!q->sq_map)
		goto out_fini;
	q->cq_map = p.features & FEAT_SINGLE_MMAP ? q->sq_map
						   : ring_map(q->fd, q->cq_len, OFF_CQ_RING);
	q->sqes = ring_map(q->fd, q->sqes_len, OFF_SQES);
	if (!q->cq_map || !q->sqes)
		goto out_fini;
	sq = q->sq_map;
	cq = q->cq_map;
	q->sq = (struct aio_sqring){
		.head = (unsigned *)(sq + p.sq_off.head), .tail = (unsigned *)(sq + p.sq_off.tail),
		.mask = (unsigned *)(sq + p.sq_off.ring_mask),
		.entries = (unsigned *)(sq + p.sq_off.ring_entries),
		.array = (unsigned *)(sq + p.sq_off.array), .sqes = q->sqes,
	};
	q->cq = (struct aio_cqring){
		.head = (unsigned *)(cq + p.cq_off.head), .tail = (unsigned *)(cq + p.cq_off.tail),
		.mask = (unsigned *)(cq + p.cq_off.ring_mask), .cqes = cq + p.cq_off.cqes,
	};
	*out = q;
	return 0;

out_fini:
	uring_fini(q);
	return ret;
out_free:
	free(q);
	return ret;
}

/* Submits the n queued SQEs; a short count is retried, each call counted. */
static int uring_submit(struct aio_q *q, unsigned n, uint64_t *submits)
{
	int r;

	while (n) {
		r = uring_enter(q->fd, n, 0, 0);
		(*submits)++;
		if (r < 0)
			return r;
		if (r == 0)
			return -EIO;
		n -= (unsigned)r;
	}
	return 0;
}

static int uring_read_file(struct aio_q *q, int fd, void *buf, uint32_t fsize,
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
			if (aio_sq_push(&q->sq, fd, (char *)buf + (uint64_t)b * AIO_BS, AIO_BS,
					(uint64_t)b * AIO_BS, b))
				return -EBUSY;     /* cannot happen: inflight <= qd */
		}
		if (n) {
			r = uring_submit(q, n, submits);
			if (r)
				return r;
			*iocbs += n;
			s.inflight += n;
		}
		if (!aio_cq_pop(&q->cq, &res, &ud)) {
			r = uring_enter(q->fd, 0, 1, ENTER_GETEVENTS);
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
		} while (aio_cq_pop(&q->cq, &res, &ud));
	}
	return 0;
}

const struct aio_engine aio_uring_engine = {
	.name = "uring",
	.init = uring_init,
	.read_file = uring_read_file,
	.fini = uring_fini,
};
