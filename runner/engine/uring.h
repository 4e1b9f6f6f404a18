/* SPDX-License-Identifier: MIT */
/*
 * io_uring on the raw system calls, for every workload that uses it (aio,
 * rawio): no liburing.  The structures and numbers are the kernel's uapi ABI
 * (include/uapi/linux/io_uring.h, Linux 6.1), spelled out because musl ships
 * no linux/ headers; tests/rawio_test.c compares each with the host's
 * linux-libc-dev.  A ring set up with IORING_SETUP_SQE128 has 128-byte SQEs
 * (the command area of IORING_OP_URING_CMD grows from 16 to 80 bytes), one
 * with IORING_SETUP_CQE32 32-byte CQEs (big_cqe[2] after the 16 bytes):
 * struct uring's sqe_size and cqe_size say which, and every slot is reached
 * through them.
 */
#ifndef BM_RUNNER_URING_H
#define BM_RUNNER_URING_H

#include <stddef.h>
#include <stdint.h>

/* io_uring_setup() flags (struct io_uring_params.flags) */
#define URING_SETUP_IOPOLL        (1u << 0)
#define URING_SETUP_SQPOLL        (1u << 1)
#define URING_SETUP_CQSIZE        (1u << 3)
#define URING_SETUP_COOP_TASKRUN  (1u << 8)
#define URING_SETUP_SQE128        (1u << 10)
#define URING_SETUP_CQE32         (1u << 11)
#define URING_SETUP_SINGLE_ISSUER (1u << 12)
#define URING_SETUP_DEFER_TASKRUN (1u << 13)
/* io_uring_params.features */
#define URING_FEAT_SINGLE_MMAP    (1u << 0)
/* io_uring_enter() flags */
#define URING_ENTER_GETEVENTS     (1u << 0)
#define URING_ENTER_SQ_WAKEUP     (1u << 1)
/* the SQ ring's flags word */
#define URING_SQ_NEED_WAKEUP      (1u << 0)
/* io_uring_sqe.flags */
#define URING_SQE_FIXED_FILE      (1u << 0)
/* io_uring_sqe.uring_cmd_flags */
#define URING_CMD_FIXED           (1u << 0)
/* opcodes (enum io_uring_op) */
#define URING_OP_READ_FIXED       4
#define URING_OP_WRITE_FIXED      5
#define URING_OP_READ             22     /* Linux 5.6 */
#define URING_OP_WRITE            23
#define URING_OP_URING_CMD        46     /* Linux 5.19 */
/* io_uring_register() opcodes */
#define URING_REGISTER_BUFFERS    0
#define URING_REGISTER_FILES      2
#define URING_REGISTER_PROBE      8
#define URING_OP_SUPPORTED        (1u << 0)   /* io_uring_probe_op.flags */
/* mmap offsets of the rings */
#define URING_OFF_SQ_RING         0ull
#define URING_OFF_CQ_RING         0x8000000ull
#define URING_OFF_SQES            0x10000000ull

struct uring_sq_offsets {
	uint32_t head, tail, ring_mask, ring_entries, flags, dropped, array, resv1;
	uint64_t resv2;
};

struct uring_cq_offsets {
	uint32_t head, tail, ring_mask, ring_entries, overflow, cqes, flags, resv1;
	uint64_t resv2;
};

struct uring_params {
	uint32_t sq_entries, cq_entries, flags, sq_thread_cpu, sq_thread_idle;
	uint32_t features, wq_fd, resv[3];
	struct uring_sq_offsets sq_off;
	struct uring_cq_offsets cq_off;
};

/* The 64-byte SQE, with the members the workloads use; with SQE128 the
 * URING_CMD command (cmd[]) starts at addr3 and runs 80 bytes. */
struct uring_sqe {
	uint8_t opcode, flags;
	uint16_t ioprio;
	int32_t fd;
	union {
		uint64_t off;
		struct {
			uint32_t cmd_op;     /* URING_CMD: the driver's command */
			uint32_t pad1;
		};
	};
	uint64_t addr;
	uint32_t len;
	union {
		uint32_t rw_flags;
		uint32_t uring_cmd_flags;
	};
	uint64_t user_data;
	uint16_t buf_index;          /* READ_FIXED, WRITE_FIXED, URING_CMD_FIXED */
	uint16_t personality;
	int32_t file_index;
	uint64_t addr3;              /* cmd[] from here */
	uint64_t pad2;
};

#define URING_SQE_CMD_OFF 48     /* offsetof(struct io_uring_sqe, cmd) */

struct uring_cqe {
	uint64_t user_data;
	int32_t res;
	uint32_t flags;              /* with CQE32, big_cqe[2] follows */
};

struct uring_probe_op {
	uint8_t op, resv;
	uint16_t flags;
	uint32_t resv2;
};

struct uring_probe {
	uint8_t last_op, ops_len;
	uint16_t resv;
	uint32_t resv2[3];
	struct uring_probe_op ops[];
};

/* The submission ring: head and tail are free-running 32-bit counters, the
 * array slot is counter & mask, the ring is full when tail - head == entries.
 * array[] names the SQE each entry submits (fio keeps one SQE per I/O slot). */
struct uring_sq {
	unsigned *head, *tail, *mask, *entries, *flags, *array;
	char *sqes;
	unsigned sqe_size;           /* 64, or 128 with SQE128 */
};

struct uring_cq {
	unsigned *head, *tail, *mask;
	char *cqes;
	unsigned cqe_size;           /* 16, or 32 with CQE32 */
};

struct uring {
	int fd;
	unsigned flags;              /* the setup flags the kernel took */
	unsigned features;
	struct uring_sq sq;
	struct uring_cq cq;
	void *sq_map, *cq_map, *sqe_map;
	size_t sq_len, cq_len, sqe_len;
};

/* io_uring_setup(entries, p), then the mmaps: one for both rings when the
 * kernel says FEAT_SINGLE_MMAP, as fio's fio_ioring_mmap() and the kernel's
 * own example do.  0 or -errno (the ring is then closed). */
int uring_setup(struct uring *u, unsigned entries, struct uring_params *p);
void uring_free(struct uring *u);
/* The sizes the mmaps take for these parameters (tests check the arithmetic). */
size_t uring_sq_len(const struct uring_params *p);
size_t uring_cq_len(const struct uring_params *p);
size_t uring_sqes_len(const struct uring_params *p);
/* io_uring_enter(fd, submit, wait, flags, NULL, 0): the count, or -errno. */
int uring_enter(int fd, unsigned submit, unsigned wait, unsigned flags);
/* io_uring_register(): 0 or -errno. */
int uring_register(int fd, unsigned op, const void *arg, unsigned nr);
/* One IORING_REGISTER_PROBE (as fio_ioring_probe()): 1 when the kernel takes
 * every one of the n opcodes ops, 0 when not, or -errno (Linux before 5.6
 * has no probe). */
int uring_probe(int fd, const unsigned *ops, unsigned n);

/* Ring arithmetic, on any memory (a fake ring in tests). */
static inline void *uring_sqe_at(const struct uring_sq *sq, unsigned slot)
{
	return sq->sqes + (size_t)slot * sq->sqe_size;
}

static inline const void *uring_cqe_at(const struct uring_cq *cq, unsigned pos)
{
	return cq->cqes + (size_t)(pos & *cq->mask) * cq->cqe_size;
}

/* Free entries of the submission ring. */
unsigned uring_sq_space(const struct uring_sq *sq);
/* Puts SQE slot at the tail and publishes it (release): 0, -EBUSY when full. */
int uring_sq_queue(struct uring_sq *sq, unsigned slot);
/* Completions waiting (acquire). */
unsigned uring_cq_ready(const struct uring_cq *cq);
/* The i-th waiting completion (i < uring_cq_ready()). */
static inline const struct uring_cqe *uring_cq_peek(const struct uring_cq *cq, unsigned i)
{
	return uring_cqe_at(cq, *cq->head + i);
}
/* Gives n completions back to the kernel (release). */
void uring_cq_advance(struct uring_cq *cq, unsigned n);

#endif
