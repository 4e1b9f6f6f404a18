// SPDX-License-Identifier: MIT
/* io_uring on the raw system calls (uring.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "uring.h"

#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup 425
#endif
#ifndef SYS_io_uring_enter
#define SYS_io_uring_enter 426
#endif
#ifndef SYS_io_uring_register
#define SYS_io_uring_register 427
#endif

_Static_assert(sizeof(struct uring_params) == 120, "io_uring_params ABI");
_Static_assert(sizeof(struct uring_sqe) == 64, "io_uring_sqe ABI");
_Static_assert(offsetof(struct uring_sqe, addr3) == URING_SQE_CMD_OFF, "io_uring_sqe cmd");
_Static_assert(sizeof(struct uring_cqe) == 16, "io_uring_cqe ABI");
_Static_assert(sizeof(struct uring_probe) == 16, "io_uring_probe ABI");
_Static_assert(sizeof(struct uring_probe_op) == 8, "io_uring_probe_op ABI");

size_t uring_sq_len(const struct uring_params *p)
{
	return p->sq_off.array + p->sq_entries * sizeof(unsigned);
}

size_t uring_cq_len(const struct uring_params *p)
{
	size_t cqe = p->flags & URING_SETUP_CQE32 ? 32 : 16;

	return p->cq_off.cqes + p->cq_entries * cqe;
}

size_t uring_sqes_len(const struct uring_params *p)
{
	return p->sq_entries * (size_t)(p->flags & URING_SETUP_SQE128 ? 128 : 64);
}

int uring_enter(int fd, unsigned submit, unsigned wait, unsigned flags)
{
	long r = syscall(SYS_io_uring_enter, fd, submit, wait, flags, NULL, 0);

	return r < 0 ? -errno : (int)r;
}

int uring_register(int fd, unsigned op, const void *arg, unsigned nr)
{
	return syscall(SYS_io_uring_register, fd, op, arg, nr) < 0 ? -errno : 0;
}

int uring_probe(int fd, const unsigned *ops, unsigned n)
{
	const unsigned nops = 256;
	struct uring_probe *p = calloc(1, sizeof(*p) + nops * sizeof(p->ops[0]));
	unsigned i;
	int ret;

	if (!p)
		return -ENOMEM;
	ret = uring_register(fd, URING_REGISTER_PROBE, p, nops);
	for (i = 0; !ret && i < n; i++)
		if (ops[i] >= p->ops_len || !(p->ops[ops[i]].flags & URING_OP_SUPPORTED))
			break;
	if (!ret)
		ret = i == n;
	free(p);
	return ret;
}

void uring_free(struct uring *u)
{
	if (u->sqe_map)
		munmap(u->sqe_map, u->sqe_len);
	if (u->cq_map && u->cq_map != u->sq_map)
		munmap(u->cq_map, u->cq_len);
	if (u->sq_map)
		munmap(u->sq_map, u->sq_len);
	if (u->fd >= 0)
		close(u->fd);
	memset(u, 0, sizeof(*u));
	u->fd = -1;
}

static void *ring_map(int fd, size_t len, uint64_t off)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
		       (off_t)off);

	return p == MAP_FAILED ? NULL : p;
}

int uring_setup(struct uring *u, unsigned entries, struct uring_params *p)
{
	char *sq, *cq;

	memset(u, 0, sizeof(*u));
	u->fd = (int)syscall(SYS_io_uring_setup, entries, p);
	if (u->fd < 0) {
		u->fd = -1;
		return -errno;
	}
	u->flags = p->flags;
	u->features = p->features;
	u->sq_len = uring_sq_len(p);
	u->cq_len = uring_cq_len(p);
	if (p->features & URING_FEAT_SINGLE_MMAP) {
		if (u->cq_len > u->sq_len)
			u->sq_len = u->cq_len;
		u->cq_len = u->sq_len;
	}
	u->sqe_len = uring_sqes_len(p);
	u->sq_map = ring_map(u->fd, u->sq_len, URING_OFF_SQ_RING);
	if (u->sq_map)
		u->cq_map = p->features & URING_FEAT_SINGLE_MMAP ?
			u->sq_map : ring_map(u->fd, u->cq_len, URING_OFF_CQ_RING);
	u->sqe_map = ring_map(u->fd, u->sqe_len, URING_OFF_SQES);
	if (!u->sq_map || !u->cq_map || !u->sqe_map) {
		uring_free(u);
		return -ENOMEM;
	}
	sq = u->sq_map;
	cq = u->cq_map;
	u->sq = (struct uring_sq){
		.head = (unsigned *)(sq + p->sq_off.head), .tail = (unsigned *)(sq + p->sq_off.tail),
		.mask = (unsigned *)(sq + p->sq_off.ring_mask),
		.entries = (unsigned *)(sq + p->sq_off.ring_entries),
		.flags = (unsigned *)(sq + p->sq_off.flags),
		.array = (unsigned *)(sq + p->sq_off.array), .sqes = u->sqe_map,
		.sqe_size = p->flags & URING_SETUP_SQE128 ? 128 : 64,
	};
	u->cq = (struct uring_cq){
		.head = (unsigned *)(cq + p->cq_off.head), .tail = (unsigned *)(cq + p->cq_off.tail),
		.mask = (unsigned *)(cq + p->cq_off.ring_mask), .cqes = cq + p->cq_off.cqes,
		.cqe_size = p->flags & URING_SETUP_CQE32 ? 32 : 16,
	};
	return 0;
}

unsigned uring_sq_space(const struct uring_sq *sq)
{
	return *sq->entries - (*sq->tail - __atomic_load_n(sq->head, __ATOMIC_ACQUIRE));
}

int uring_sq_queue(struct uring_sq *sq, unsigned slot)
{
	unsigned tail = *sq->tail;

	if (!uring_sq_space(sq))
		return -EBUSY;
	sq->array[tail & *sq->mask] = slot;
	__atomic_store_n(sq->tail, tail + 1, __ATOMIC_RELEASE);
	return 0;
}

unsigned uring_cq_ready(const struct uring_cq *cq)
{
	return __atomic_load_n(cq->tail, __ATOMIC_ACQUIRE) - *cq->head;
}

void uring_cq_advance(struct uring_cq *cq, unsigned n)
{
	if (n)
		__atomic_store_n(cq->head, *cq->head + n, __ATOMIC_RELEASE);
}
