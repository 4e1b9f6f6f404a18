/* SPDX-License-Identifier: MIT */
/*
 * rawio's engines behind one interface, in the manner of fio's
 * ioengine_ops (prep+queue, commit, getevents), and the loop that drives
 * them as fio's do_io() does (rawio_loop.c).  Engine side only: the
 * description never sees this header.
 */
#ifndef BM_RUNNER_RAWIO_ENG_H
#define BM_RUNNER_RAWIO_ENG_H

#include <stddef.h>
#include <stdint.h>

#include "wl_rawio.h"

/* What an engine does I/O on and with. */
struct rio_setup {
	int engine;               /* RIO_* */
	unsigned qd, bs;
	char *buf;                /* qd * bs bytes, page aligned: slot i at buf + i * bs */
	int fd;                   /* O_DIRECT block device or file; the ng char device */
	uint32_t nsid;            /* passthrough: the namespace (NVME_IOCTL_ID) */
	unsigned lba_shift;       /* passthrough: log2 of the logical block */
};

/* One completion: the slot and the bytes moved, or -errno. */
struct rio_ev {
	unsigned slot;
	int32_t res;
};

/* System calls, as the metrics count them, and the loop's hook for the
 * I/Os an engine hands to the kernel. */
struct rio_count {
	uint64_t submits;         /* calls that submitted I/O: pread/pwrite too */
	uint64_t waits;           /* calls that waited for or reaped completions */
	/* Called by an asynchronous engine after each call that handed the
	 * n oldest queued I/Os to the kernel, with stamp 1: the loop reads the
	 * clock once and that is their issue time (fio 3.33's
	 * fio_libaio_queued() and fio_ioring_queued(), one fio_gettime() per
	 * submitting call); stamp 0 when they were handed over without one
	 * (SQPOLL: fio_ioring_commit() returns before fio_ioring_queued()).
	 * NULL: nobody is told (a probe). */
	void (*issued)(struct rio_count *c, unsigned n, int stamp);
};

static inline void rio_issued(struct rio_count *c, unsigned n, int stamp)
{
	if (c->issued && n)
		c->issued(c, n, stamp);
}

struct rio_q;

struct rio_engine {
	/* Sets the engine up (rings, registered buffers and files, as fio's
	 * init and post_init): 0 or -errno with why filled. */
	int (*init)(struct rio_q **q, const struct rio_setup *s, char *why, size_t len);
	/* fio's ->prep and ->queue: slot's I/O at off into the engine's queue.
	 * 0 queued; 1 done already (a synchronous engine: *res is the bytes
	 * or -errno); -errno. */
	int (*queue)(struct rio_q *q, unsigned slot, uint64_t off, int write, int32_t *res,
		     struct rio_count *c);
	/* fio's ->commit: submits what is queued.  NULL: synchronous. */
	int (*commit)(struct rio_q *q, struct rio_count *c);
	/* fio's ->getevents: from min to max completions into ev; the count
	 * or -errno. */
	int (*getevents)(struct rio_q *q, unsigned min, unsigned max, struct rio_ev *ev,
			 struct rio_count *c);
	void (*fini)(struct rio_q *q);
};

extern const struct rio_engine rio_psync_engine;
extern const struct rio_engine rio_libaio_engine;
extern const struct rio_engine rio_uring_engine;    /* io_uring and uring_cmd variants */
const struct rio_engine *rio_engine_of(int engine);

/* One test's I/O, for the loop. */
struct rio_job {
	unsigned qd, submit, complete;
	int write;
	uint64_t ios;             /* I/Os to issue */
	uint64_t nblocks;         /* region / bs: offsets are (random % nblocks) * bs */
	unsigned bs;
	uint64_t seed;
};

/* The next random block (xorshift64*, as aio's shuffle; fio's norandommap). */
uint64_t rio_next_block(uint64_t *state, uint64_t nblocks);

/* Runs the job on an engine that is set up: fills sum and lat, even after
 * an error; 0 or the first -errno. */
int rio_loop(const struct rio_engine *e, struct rio_q *q, const struct rio_job *j,
	     struct rawio_sum *sum, struct rawio_lats *lat);

/*
 * NVMe passthrough (include/uapi/linux/nvme_ioctl.h), spelled out: the
 * command that IORING_OP_URING_CMD carries in a 128-byte SQE.
 */
struct rio_nvme_cmd {
	uint8_t opcode, flags;
	uint16_t rsvd1;
	uint32_t nsid, cdw2, cdw3;
	uint64_t metadata, addr;
	uint32_t metadata_len, data_len;
	uint32_t cdw10, cdw11, cdw12, cdw13, cdw14, cdw15;
	uint32_t timeout_ms, rsvd2;
};
#define RIO_NVME_READ   0x02      /* nvme_cmd_read */
#define RIO_NVME_WRITE  0x01      /* nvme_cmd_write */
/* _IOWR('N', 0x80, struct nvme_uring_cmd), _IO('N', 0x40) */
#define RIO_NVME_URING_CMD_IO (0xc0000000u | (72u << 16) | ('N' << 8) | 0x80u)
#define RIO_NVME_IOCTL_ID     (('N' << 8) | 0x40u)

/* Fills cmd as fio's fio_nvme_uring_cmd_prep(): opcode, nsid, buffer,
 * starting LBA in cdw10/11 and the count of LBAs less one in cdw12. */
void rio_nvme_prep(struct rio_nvme_cmd *cmd, int write, uint32_t nsid, unsigned lba_shift,
		   void *buf, uint32_t len, uint64_t off);

#endif
