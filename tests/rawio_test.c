// SPDX-License-Identifier: MIT
/*
 * runner/workloads/rawio: options, tests and labels, the raw flag and the
 * planned counts, the io_uring and NVMe passthrough ABI as spelled out
 * against the host's linux-libc-dev headers, the SQE128/CQE32 ring
 * arithmetic on a fake ring, the loop's calls into an engine against fio's
 * do_io() (a recording engine), real reads and writes on a file through
 * psync, libaio and io_uring (io_uring skipped with the reason when the
 * host refuses it), and the E records of passthrough where there is no
 * NVMe namespace.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <linux/nvme_ioctl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "emit.h"
#include "fsrun.h"
#include "rawdev.h"
#include "rawio_eng.h"
#include "tap.h"
#include "testutil.h"
#include "uring.h"
#include "wl.h"
#include "wl_rawio.h"

static void *opts(const char *args, int want_ok)
{
	char err[256] = "";
	void *o = NULL;
	int ret = fsrun_job_opts(&wl_rawio_ops, args, &o, err, sizeof(err));

	tap_ok(want_ok ? ret == 0 : ret < 0, "rawio %s: %s %s", args,
	       want_ok ? "accepted" : "rejected", err);
	return o;
}

static void test_options(void)
{
	static const char *const labels[] = { "raw-psync-r4k-q1", "raw-libaio-r4k-q1",
		"raw-libaio-r4k-q32", "raw-uring-r4k-q1", "raw-uring-r4k-q32" };
	static const char *const bad[] = { "qd=3", "qd=1024", "qd=0", "batch=0", "batch=4x",
		"batch=x4", "batch=4x0", "batch=1,,2", "engine=spdk", "bs=1000", "bs=4k size=2k",
		"rw=read", "ios=0" };
	const struct bm_wl_desc *d = wl_rawio_ops.desc;
	struct bm_result r;
	struct rawio_test t;
	char err[200];
	unsigned i;
	void *o;

	o = opts("", 1);
	TAP_EQ_INT(d->ntests(o), 5, "default: psync once, libaio and io_uring at qd 1 and 32");
	for (i = 0; i < 5; i++) {
		memset(&r, 0, sizeof(r));
		d->describe(o, (int)i, &r);
		TAP_EQ_STR(r.test, labels[i], "label of test");
	}
	memset(&r, 0, sizeof(r));
	d->describe(o, 2, &r);
	TAP_EQ_STR(r.params, "engine=libaio rw=randread bs=4k qd=32 batch=1x1 ios=20000 size=0",
		   "params of test 2");
	TAP_EQ_INT(d->describe(o, 5, &r), -EINVAL, "no test 5");
	tap_ok(d->raw && d->raw(o) == 1, "every rawio job runs on the disk itself");
	TAP_EQ_INT(bm_wl_job_planned(d, o, 3, 2), 10, "raw: 5 tests x 2 repeats, whatever the 3 fs");
	TAP_EQ_INT(wl_rawio_ops.host_check(o, err, sizeof(err)), -EINVAL,
		   "host mode refuses size=0");
	free(o);
	o = opts("size=64M", 1);
	TAP_EQ_INT(wl_rawio_ops.host_check(o, err, sizeof(err)), 0, "host mode takes size=64M");
	free(o);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		free(opts(bad[i], 0));
	free(opts("engine=sqpoll qd=1 batch=2", 0));   /* a batch above every depth: no test */
	o = opts("engine=io_uring,uring_cmd rw=randread,randwrite qd=1,8 batch=1,4x2,16", 1);
	TAP_EQ_INT(d->ntests(o), 2 * 2 * 3, "batches above the depth are no test: 2 x 2 x (1 + 2)");
	tap_ok(!rawio_test_of(o, 11, &t) && t.engine == RIO_NVME && t.write && t.qd == 8 &&
	       t.submit == 4 && t.complete == 2, "test 11: uring_cmd randwrite qd 8 batch 4x2");
	memset(&r, 0, sizeof(r));
	d->describe(o, 11, &r);
	TAP_EQ_STR(r.test, "raw-nvme-w4k-q8-b4x2", "label with S and C");
	free(o);
	/* the longest label fits the record's 31 characters */
	t = (struct rawio_test){ .engine = RIO_NVMEHI, .write = 1, .qd = 512, .submit = 512,
				 .complete = 256 };
	rawio_label(r.test, sizeof(r.test), &t, 128 << 10);
	TAP_EQ_STR(r.test, "raw-nvmehi-w128k-q512-b512x256", "the longest label");
	o = NULL;
	if (!fsrun_job_opts(wl_find("dd"), "size=1M", &o, err, sizeof(err)))
		TAP_EQ_INT(bm_wl_job_planned(wl_find("dd")->desc, o, 3, 2),
			   wl_find("dd")->desc->ntests(o) * 3 * 2, "dd: per filesystem");
	free(o);
}

#define SAME(mine, theirs, what) TAP_EQ_INT((long long)(mine), (long long)(theirs), what)

/* Every number and layout uring.h and rawio_eng.h spell out, against the
 * kernel's own headers as Debian ships them (linux-libc-dev). */
static void test_abi(void)
{
	SAME(sizeof(struct uring_sqe), sizeof(struct io_uring_sqe), "sqe size");
	SAME(offsetof(struct uring_sqe, off), offsetof(struct io_uring_sqe, off), "sqe off");
	SAME(offsetof(struct uring_sqe, cmd_op), offsetof(struct io_uring_sqe, cmd_op), "cmd_op");
	SAME(offsetof(struct uring_sqe, addr), offsetof(struct io_uring_sqe, addr), "sqe addr");
	SAME(offsetof(struct uring_sqe, len), offsetof(struct io_uring_sqe, len), "sqe len");
	SAME(offsetof(struct uring_sqe, rw_flags), offsetof(struct io_uring_sqe, rw_flags), "rw");
	SAME(offsetof(struct uring_sqe, uring_cmd_flags),
	     offsetof(struct io_uring_sqe, uring_cmd_flags), "uring_cmd_flags");
	SAME(offsetof(struct uring_sqe, user_data), offsetof(struct io_uring_sqe, user_data), "ud");
	SAME(offsetof(struct uring_sqe, buf_index), offsetof(struct io_uring_sqe, buf_index),
	     "buf_index");
	SAME(URING_SQE_CMD_OFF, offsetof(struct io_uring_sqe, cmd), "the command area");
	SAME(sizeof(struct uring_cqe), sizeof(struct io_uring_cqe), "cqe size (without big_cqe)");
	SAME(offsetof(struct uring_cqe, res), offsetof(struct io_uring_cqe, res), "cqe res");
	SAME(sizeof(struct uring_params), sizeof(struct io_uring_params), "params size");
	SAME(offsetof(struct uring_params, sq_off), offsetof(struct io_uring_params, sq_off),
	     "params sq_off");
	SAME(offsetof(struct uring_params, cq_off), offsetof(struct io_uring_params, cq_off),
	     "params cq_off");
	SAME(offsetof(struct uring_sq_offsets, array), offsetof(struct io_sqring_offsets, array),
	     "sq_off.array");
	SAME(offsetof(struct uring_cq_offsets, cqes), offsetof(struct io_cqring_offsets, cqes),
	     "cq_off.cqes");
	SAME(sizeof(struct uring_probe), sizeof(struct io_uring_probe), "probe");
	SAME(sizeof(struct uring_probe_op), sizeof(struct io_uring_probe_op), "probe op");
	SAME(URING_SETUP_IOPOLL, IORING_SETUP_IOPOLL, "IOPOLL");
	SAME(URING_SETUP_SQPOLL, IORING_SETUP_SQPOLL, "SQPOLL");
	SAME(URING_SETUP_CQSIZE, IORING_SETUP_CQSIZE, "CQSIZE");
	SAME(URING_SETUP_COOP_TASKRUN, IORING_SETUP_COOP_TASKRUN, "COOP_TASKRUN");
	SAME(URING_SETUP_SQE128, IORING_SETUP_SQE128, "SQE128");
	SAME(URING_SETUP_CQE32, IORING_SETUP_CQE32, "CQE32");
	SAME(URING_SETUP_SINGLE_ISSUER, IORING_SETUP_SINGLE_ISSUER, "SINGLE_ISSUER");
	SAME(URING_SETUP_DEFER_TASKRUN, IORING_SETUP_DEFER_TASKRUN, "DEFER_TASKRUN");
	SAME(URING_FEAT_SINGLE_MMAP, IORING_FEAT_SINGLE_MMAP, "FEAT_SINGLE_MMAP");
	SAME(URING_ENTER_GETEVENTS, IORING_ENTER_GETEVENTS, "ENTER_GETEVENTS");
	SAME(URING_ENTER_SQ_WAKEUP, IORING_ENTER_SQ_WAKEUP, "ENTER_SQ_WAKEUP");
	SAME(URING_SQ_NEED_WAKEUP, IORING_SQ_NEED_WAKEUP, "SQ_NEED_WAKEUP");
	SAME(URING_SQE_FIXED_FILE, IOSQE_FIXED_FILE, "IOSQE_FIXED_FILE");
	SAME(URING_CMD_FIXED, IORING_URING_CMD_FIXED, "URING_CMD_FIXED");
	SAME(URING_OP_READ_FIXED, IORING_OP_READ_FIXED, "OP_READ_FIXED");
	SAME(URING_OP_WRITE_FIXED, IORING_OP_WRITE_FIXED, "OP_WRITE_FIXED");
	SAME(URING_OP_READ, IORING_OP_READ, "OP_READ");
	SAME(URING_OP_WRITE, IORING_OP_WRITE, "OP_WRITE");
	SAME(URING_OP_URING_CMD, IORING_OP_URING_CMD, "OP_URING_CMD");
	SAME(URING_REGISTER_BUFFERS, IORING_REGISTER_BUFFERS, "REGISTER_BUFFERS");
	SAME(URING_REGISTER_FILES, IORING_REGISTER_FILES, "REGISTER_FILES");
	SAME(URING_REGISTER_PROBE, IORING_REGISTER_PROBE, "REGISTER_PROBE");
	SAME(URING_OP_SUPPORTED, IO_URING_OP_SUPPORTED, "OP_SUPPORTED");
	SAME(URING_OFF_SQ_RING, IORING_OFF_SQ_RING, "OFF_SQ_RING");
	SAME(URING_OFF_CQ_RING, IORING_OFF_CQ_RING, "OFF_CQ_RING");
	SAME(URING_OFF_SQES, IORING_OFF_SQES, "OFF_SQES");
	SAME(sizeof(struct rio_nvme_cmd), sizeof(struct nvme_uring_cmd), "nvme_uring_cmd size");
	SAME(offsetof(struct rio_nvme_cmd, nsid), offsetof(struct nvme_uring_cmd, nsid), "nsid");
	SAME(offsetof(struct rio_nvme_cmd, addr), offsetof(struct nvme_uring_cmd, addr), "addr");
	SAME(offsetof(struct rio_nvme_cmd, data_len), offsetof(struct nvme_uring_cmd, data_len),
	     "data_len");
	SAME(offsetof(struct rio_nvme_cmd, cdw10), offsetof(struct nvme_uring_cmd, cdw10), "cdw10");
	SAME(offsetof(struct rio_nvme_cmd, cdw12), offsetof(struct nvme_uring_cmd, cdw12), "cdw12");
	SAME(offsetof(struct rio_nvme_cmd, timeout_ms), offsetof(struct nvme_uring_cmd, timeout_ms),
	     "timeout_ms");
	SAME(RIO_NVME_URING_CMD_IO, NVME_URING_CMD_IO, "NVME_URING_CMD_IO");
	SAME(RIO_NVME_IOCTL_ID, NVME_IOCTL_ID, "NVME_IOCTL_ID");
	tap_ok(sizeof(struct rio_nvme_cmd) <= 128 - URING_SQE_CMD_OFF,
	       "the NVMe command fits a 128-byte SQE's command area");
}

/* A 4-entry ring in plain memory with 128-byte SQEs and 32-byte CQEs,
 * counters near the 32-bit wrap. */
static void test_ring128(void)
{
	unsigned sh = 0xfffffffe, st = 0xfffffffe, mask = 3, ent = 4, arr[4] = { 0 };
	unsigned ch = 0xffffffff, ct = 0xffffffff, i;
	static char sqes[4 * 128], cqes[4 * 32];
	struct uring_sq sq = { .head = &sh, .tail = &st, .mask = &mask, .entries = &ent,
			       .array = arr, .sqes = sqes, .sqe_size = 128 };
	struct uring_cq cq = { .head = &ch, .tail = &ct, .mask = &mask, .cqes = cqes,
			       .cqe_size = 32 };
	struct uring_params p = { .sq_entries = 4, .cq_entries = 4,
				  .flags = URING_SETUP_SQE128 | URING_SETUP_CQE32 };
	const struct uring_cqe *e;
	struct uring_cqe c;
	uint64_t big;

	TAP_EQ_INT((char *)uring_sqe_at(&sq, 3) - sqes, 3 * 128, "SQE slot 3 at 384 with SQE128");
	for (i = 0; i < 4; i++)
		TAP_EQ_INT(uring_sq_queue(&sq, 3 - i), 0, "queue a slot");
	TAP_EQ_INT(uring_sq_queue(&sq, 0), -EBUSY, "full at 4");
	tap_ok(st == 2 && arr[2] == 3 && arr[3] == 2 && arr[0] == 1 && arr[1] == 0,
	       "the array names the slots across the wrap");
	sh = st;
	TAP_EQ_INT(uring_sq_space(&sq), 4, "room again once the kernel took them");
	TAP_EQ_INT(uring_cq_ready(&cq), 0, "cq empty");
	for (i = 0; i < 2; i++) {
		c = (struct uring_cqe){ .user_data = 40 + i, .res = (int32_t)i };
		big = 0xb16b00b5 + i;
		memcpy(cqes + ((ch + i) & 3) * 32, &c, sizeof(c));
		memcpy(cqes + ((ch + i) & 3) * 32 + 16, &big, 8);   /* big_cqe[0] */
	}
	ct = ch + 2;
	TAP_EQ_INT(uring_cq_ready(&cq), 2, "two completions");
	e = uring_cq_peek(&cq, 0);
	tap_ok((char *)e == cqes + 3 * 32 && e->user_data == 40, "the first at slot 3, 32 bytes each");
	e = uring_cq_peek(&cq, 1);
	memcpy(&big, (const char *)e + 16, 8);
	tap_ok((char *)e == cqes && e->user_data == 41 && big == 0xb16b00b6,
	       "the second wraps to slot 0, big_cqe after it");
	uring_cq_advance(&cq, 2);
	tap_ok(ch == 1 && !uring_cq_ready(&cq), "the head moves by 2 across the wrap");
	p.sq_off.array = 64;
	p.cq_off.cqes = 64;
	TAP_EQ_INT(uring_sqes_len(&p), 4 * 128, "SQE array: entries x 128");
	TAP_EQ_INT(uring_cq_len(&p), 64 + 4 * 32, "CQ ring: cqes offset + entries x 32");
	TAP_EQ_INT(uring_sq_len(&p), 64 + 4 * 4, "SQ ring: array offset + entries x 4");
	p.flags = 0;
	tap_ok(uring_sqes_len(&p) == 4 * 64 && uring_cq_len(&p) == 64 + 4 * 16,
	       "without them: 64 and 16");
}

static void test_nvme_prep(void)
{
	struct rio_nvme_cmd c;
	char buf[8];

	rio_nvme_prep(&c, 0, 1, 9, buf, 4096, 8192);
	tap_ok(c.opcode == RIO_NVME_READ && c.nsid == 1 && c.cdw10 == 16 && c.cdw11 == 0 &&
	       c.cdw12 == 7 && c.data_len == 4096 && c.addr == (uint64_t)(uintptr_t)buf,
	       "read of 4k at 8k, 512-byte LBAs: slba 16, 8 LBAs (cdw12 7)");
	rio_nvme_prep(&c, 1, 3, 12, buf, 8192, (5ull << 32) << 12);
	tap_ok(c.opcode == RIO_NVME_WRITE && c.nsid == 3 && c.cdw10 == 0 && c.cdw11 == 5 &&
	       c.cdw12 == 1, "write of 8k past 2^32 LBAs of 4k: cdw11 holds the high half");
}

/* A recording engine: every call, as fio's ops would see them. */
struct rio_q {
	char log[512];
	unsigned queued, inflight, slots[64], nslots;
	int sync, nostamp;          /* nostamp: hands I/O over as SQPOLL does */
};

static void rec(struct rio_q *q, const char *fmt, unsigned a, unsigned b)
{
	size_t n = strlen(q->log);

	snprintf(q->log + n, sizeof(q->log) - n, fmt, a, b);
}

static int fake_queue(struct rio_q *q, unsigned slot, uint64_t off, int write, int32_t *res,
		      struct rio_count *c)
{
	rec(q, "q ", 0, 0);
	if (q->sync) {
		*res = 4096;
		return 1;
	}
	q->slots[q->nslots++] = slot;
	q->queued++;
	return 0;
}

static int fake_commit(struct rio_q *q, struct rio_count *c)
{
	rec(q, "c%u ", q->queued, 0);
	q->inflight += q->queued;
	rio_issued(c, q->queued, !q->nostamp);
	q->queued = 0;
	return 0;
}

static int fake_getevents(struct rio_q *q, unsigned min, unsigned max, struct rio_ev *ev,
			  struct rio_count *c)
{
	unsigned i;

	rec(q, "g%u/%u ", min, max);
	for (i = 0; i < min; i++) {
		ev[i].slot = q->slots[0];
		ev[i].res = 4096;
		memmove(q->slots, q->slots + 1, --q->nslots * sizeof(q->slots[0]));
	}
	q->inflight -= min;
	return (int)min;
}

static const struct rio_engine fake = {
	.queue = fake_queue, .commit = fake_commit, .getevents = fake_getevents,
};

static void loop_case_stamp(unsigned qd, unsigned s, unsigned c, unsigned ios, int sync,
			    int nostamp, const char *want, const char *what);

static void loop_case(unsigned qd, unsigned s, unsigned c, unsigned ios, int sync,
		      const char *want, const char *what)
{
	loop_case_stamp(qd, s, c, ios, sync, 0, want, what);
}

static void loop_case_stamp(unsigned qd, unsigned s, unsigned c, unsigned ios, int sync,
			    int nostamp, const char *want, const char *what)
{
	static struct rio_q q;
	struct rio_job j = { .qd = qd, .submit = s, .complete = c, .ios = ios, .nblocks = 100,
			     .bs = 4096, .seed = 1 };
	struct rio_engine e = fake;
	struct rawio_sum sum;
	struct rawio_lats *lat = malloc(sizeof(*lat));
	size_t n;

	memset(&q, 0, sizeof(q));
	q.sync = sync;
	q.nostamp = nostamp;
	if (sync)
		e.commit = NULL;
	TAP_EQ_INT(rio_loop(&e, &q, &j, &sum, lat), 0, what);
	n = strlen(q.log);
	if (n)
		q.log[n - 1] = '\0';
	TAP_EQ_STR(q.log, want, what);
	TAP_EQ_INT(sum.ios, ios, "every I/O counted done");
	tap_ok(lat->lat.n == ios, "a latency per I/O");
	/* fio 3.33: psync has an issue time (clat) but no slat; a batch engine
	 * both; SQPOLL neither */
	tap_ok(lat->clat.n == (nostamp ? 0 : ios) && lat->slat.n == (sync || nostamp ? 0 : ios),
	       "clat %llu and slat %llu samples (%s)", (unsigned long long)lat->clat.n,
	       (unsigned long long)lat->slat.n, sync ? "psync" : nostamp ? "SQPOLL" : "batches");
	tap_ok(lat->clat.n == 0 || lat->clat.max_ns <= lat->lat.max_ns,
	       "issue to reaped is within start to reaped");
	free(lat);
}

/* The calls fio 3.33's do_io() makes into an engine (backend.c, ioengines.c,
 * io_u.c), worked out by hand for each case. */
static void test_loop(void)
{
	loop_case(2, 1, 1, 4, 0, "q c1 q c1 c0 g1/1 q c1 c0 g1/1 q c1 c0 g1/1 c0 g1/1",
		  "qd 2, fio's default batches: one submit per I/O, a wait when full");
	loop_case(4, 2, 2, 10, 0, "q q c2 q q c2 c0 g2/2 q q c2 c0 g2/2 q q c2 c0 g2/2 "
		  "q q c2 c0 g2/2 c0 g2/2", "qd 4, batch 2x2");
	/* td_io_getevents commits without resetting td->io_u_queued: after the
	 * first wait every later I/O is committed by the wait before it */
	loop_case(4, 4, 1, 6, 0, "q q q q c4 c0 g1/1 q c1 g1/1 q c1 g1/1 c0 g3/3",
		  "qd 4, batch 4x1: the wait commits (fio's stale queued count)");
	loop_case(1, 1, 1, 3, 1, "q q q", "psync: one call per I/O, nothing else");
	loop_case_stamp(4, 2, 2, 10, 0, 1, "q q c2 q q c2 c0 g2/2 q q c2 c0 g2/2 q q c2 c0 g2/2 "
			"q q c2 c0 g2/2 c0 g2/2", "qd 4, batch 2x2, handed over without an issue "
			"time (SQPOLL)");
	tap_ok(rio_next_block(&(uint64_t){ 7 }, 10) < 10, "offsets stay inside the region");
}

/* Fills block b of the file with the word b, so a read tells which block it got. */
static int tag_file(const char *path, uint64_t size)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;
	uint64_t b, w[512];
	unsigned i;

	if (fd < 0)
		return -errno;
	for (b = 0; b < size / 4096 && !ret; b++) {
		for (i = 0; i < 512; i++)
			w[i] = b;
		if (pwrite(fd, w, 4096, (off_t)(b * 4096)) != 4096)
			ret = -EIO;
	}
	close(fd);
	return ret;
}

/* io_uring as the host has it: 0, or -errno when it is refused. */
static int uring_there(void)
{
	struct uring_params p;
	long fd;

	memset(&p, 0, sizeof(p));
	fd = syscall(__NR_io_uring_setup, 2, &p);
	if (fd < 0)
		return -errno;
	close((int)fd);
	return 0;
}

/* One engine on a file in dir: prepare, run (counts), and a read that finds
 * the block the first random offset names. */
static void run_engine(const char *dir, const char *engine, const char *extra)
{
	struct wl_ctx ctx = { .mnt = dir, .dev = "/dev/null", .fs = "host", .rep = 1 };
	char args[200], path[512];
	struct bm_result r;
	int fd;
	struct rio_setup s = { .qd = 1, .bs = 4096 };
	struct rio_job j = { .qd = 1, .submit = 1, .complete = 1, .ios = 1, .nblocks = 64,
			     .bs = 4096, .seed = 99 };
	struct rawio_test t;
	struct rawio_sum sum;
	struct rawio_lats *lat = malloc(sizeof(*lat));
	const struct rio_engine *e;
	uint64_t want = 99, got;
	struct rio_q *q = NULL;
	char why[200] = "";
	void *o, *buf = NULL;
	int ret;

	snprintf(args, sizeof(args), "engine=%s size=256k ios=300 qd=1,8 batch=1,4 %s", engine,
		 extra);
	o = opts(args, 1);
	if (!o || !lat)
		return;
	for (int i = 0; i < wl_rawio_desc.ntests(o); i++) {
		memset(&r, 0, sizeof(r));
		wl_rawio_desc.describe(o, i, &r);
		ret = wl_rawio_ops.prepare(&ctx, o, i);
		TAP_EQ_INT(ret, 0, "prepare makes and checks the file");
		ret = ret ? ret : wl_rawio_ops.run(&ctx, o, i, &r);
		tap_ok(!ret && tu_mval(&r, "ios") == 300 && tu_mval(&r, "iops") > 0 &&
		       tu_mval(&r, "lat_p99") >= tu_mval(&r, "lat_p50") &&
		       tu_mval(&r, "lat_p50") > 0 && tu_mval(&r, "cpu_io") >= 0 &&
		       tu_mval(&r, "cpu_io_all") >= tu_mval(&r, "cpu_io") * 0.9,
		       "%s: 300 I/Os, IOPS, latencies", r.test);
		rawio_test_of(o, i, &t);
		/* fio's split: clat for all but SQPOLL, slat for the batch engines */
		tap_ok((t.engine == RIO_SQPOLL) == (tu_mval(&r, "clat_p50") < 0) &&
		       (t.engine == RIO_SQPOLL || t.engine == RIO_PSYNC) ==
		       (tu_mval(&r, "slat_avg") < 0) &&
		       (tu_mval(&r, "clat_p50") < 0 ||
			tu_mval(&r, "clat_avg") <= tu_mval(&r, "lat_avg")),
		       "%s: clat %g, slat %g ms (none: -1)", r.test, tu_mval(&r, "clat_avg"),
		       tu_mval(&r, "slat_avg"));
		if (t.engine == RIO_PSYNC)
			tap_ok(tu_mval(&r, "submits") == 300 && tu_mval(&r, "waits") == 0,
			       "%s: one pread or pwrite per I/O", r.test);
		else if (t.qd == 1)
			tap_ok(tu_mval(&r, "submits") == 300 && tu_mval(&r, "waits") <= 300,
			       "%s: one submit per I/O at qd 1 (%g waits)", r.test,
			       tu_mval(&r, "waits"));
		else
			tap_ok(tu_mval(&r, "submits") >= 300.0 / t.submit &&
			       tu_mval(&r, "submits") <= 300,
			       "%s: %g submit calls for 300 I/Os in batches of %u", r.test,
			       tu_mval(&r, "submits"), t.submit);
	}
	/* a read through the engine returns the block the offset names */
	snprintf(path, sizeof(path), "%s/rawio.dat", dir);
	tap_ok(!tag_file(path, 256 << 10), "the file tagged block by block");
	fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	rawio_test_of(o, 0, &t);
	s.engine = t.engine;
	s.fd = fd;
	buf = aligned_alloc(4096, 4096);
	s.buf = buf;
	e = rio_engine_of(t.engine);
	ret = fd >= 0 && buf ? e->init(&q, &s, why, sizeof(why)) : -EIO;
	if (!ret) {
		ret = rio_loop(e, q, &j, &sum, lat);
		e->fini(q);
	}
	memcpy(&got, buf, 8);
	TAP_EQ_INT(got, rio_next_block(&want, 64), "the read got the block the offset names");
	if (fd >= 0)
		close(fd);
	free(buf);
	free(lat);
	free(o);
}

static void test_host_runs(void)
{
	char dir[] = "/var/tmp/bm-rawio.XXXXXX", path[64];
	int ret;

	tu_mkdtemp(dir);
	run_engine(dir, "psync", "");
	run_engine(dir, "libaio", "");
	run_engine(dir, "psync", "rw=randwrite");
	ret = uring_there();
	if (ret) {
		tap_skip(strerror(-ret), "io_uring on this host: io_uring_setup refused");
	} else {
		run_engine(dir, "io_uring", "");
		run_engine(dir, "io_uring", "rw=randwrite");
		run_engine(dir, "fixedbufs", "");
	}
	snprintf(path, sizeof(path), "%s/rawio.dat", dir);
	unlink(path);
	rmdir(dir);
}

/* The E records of a test the target cannot take, through a real emitter. */
static void test_refusals(void)
{
	char dir[] = "/var/tmp/bm-rawio.XXXXXX", log[64], path[64], ng[64], *text = NULL;
	struct emitter em;
	struct wl_ctx ctx = { .fs = BM_WL_RAW_FS, .rep = 1 };
	void *o = opts("engine=uring_cmd,uring_cmd_hipri qd=1 size=64k", 1);
	int fd;

	tu_mkdtemp(dir);
	snprintf(log, sizeof(log), "%s/records", dir);
	snprintf(path, sizeof(path), "%s/vdb", dir);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	emit_init_fd(&em, fd, "0badcafe");
	ctx.priv = &em;
	/* the appliance, with a test disk that is not NVMe: nothing is opened */
	ctx.mnt = NULL;
	ctx.dev = path;
	TAP_EQ_INT(wl_rawio_ops.prepare(&ctx, o, 0), -ENODEV, "passthrough on a virtio disk");
	/* host mode: a file is no namespace either */
	ctx.mnt = dir;
	TAP_EQ_INT(wl_rawio_ops.prepare(&ctx, o, 1), -EOPNOTSUPP, "passthrough in host mode");
	emit_close(&em);
	bm_read_file(log, &text, NULL, 1 << 16);
	tap_ok(text && strstr(text, " E class=bench msg=the%20test%20disk%20") &&
	       strstr(text, "is%20not%20an%20NVMe%20namespace") &&
	       strstr(text, "test=raw-nvme-r4k-q1"), "E record: not an NVMe namespace");
	tap_ok(text && strstr(text, "host%20mode%20runs%20on%20a%20file") &&
	       strstr(text, "test=raw-nvmehi-r4k-q1"), "E record: host mode has no namespace");
	tap_ok(access(path, F_OK) != 0, "nothing was made where the disk was named");
	TAP_EQ_INT(rawdev_nvme_generic("/dev/nvme0n1p1", ng, sizeof(ng)), -ENODEV,
		   "a partition is no namespace");
	TAP_EQ_INT(rawdev_nvme_generic("/dev/sda", ng, sizeof(ng)), -ENODEV, "sda is none");
	rawdev_nvme_generic("/dev/nvme12n3", ng, sizeof(ng));
	TAP_EQ_STR(ng, "/dev/ng12n3", "nvme12n3's char device is ng12n3");
	free(text);
	free(o);
	unlink(log);
	rmdir(dir);
}

int main(void)
{
	test_options();
	test_abi();
	test_ring128();
	test_nvme_prep();
	test_loop();
	test_host_runs();
	test_refusals();
	return tap_done();
}
