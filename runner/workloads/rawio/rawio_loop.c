// SPDX-License-Identifier: MIT
/*
 * The I/O loop of one rawio test, fio 3.33's do_io() (backend.c) for one
 * job on one file, with the calls it makes into an engine:
 *
 *   while fewer than ios issued:
 *     a free slot: get_io_u (a random offset, the start time), td_io_queue:
 *       ->queue; a synchronous engine completes it there; else the queued
 *       count (td->io_u_queued) grows, and at the submit batch S
 *       td_io_commit: ->commit, the count back to 0;
 *     no free slot (queue_full): wait_for_completions: io_u_queued_complete
 *       (min(C, depth)): td_io_getevents: ->commit first (the count is NOT
 *       reset there, as in fio), then ->getevents(min, max = min(C, depth)).
 *   at the end: io_u_queued_complete(depth): whatever is in flight.
 *
 * C is iodepth_batch_complete_min = _max (fio's iodepth_batch_complete sets
 * both).  The clock is read where fio 3.33 reads it for its latencies: an
 * I/O's start (get_io_u: io_u->start_time), its issue (a synchronous
 * engine's before ->queue, td_io_queue; an asynchronous one's once per
 * call that submitted, from the engine: rio_issued()) and once per reaped
 * batch (init_icd: icd->time).  lat is start to reaped, clat issue to
 * reaped, slat start to issue (wl_rawio.h).  fio's other reads of the
 * clock per I/O are no measurement and rawio has no reason for them: the
 * runtime check at the top of do_io() (update_ts_cache) and the rate
 * check of get_rw_ddir() (rate_ddir, dropped without a rate in fio 3.34).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "rawio_eng.h"

uint64_t rio_next_block(uint64_t *s, uint64_t nblocks)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return (*s * 2685821657736338717ull) % nblocks;
}

struct rio_state {
	const struct rio_engine *e;
	struct rio_q *q;
	const struct rio_job *j;
	unsigned depth;          /* fio's td->cur_depth: slots in use */
	unsigned tdq;            /* fio's td->io_u_queued */
	unsigned nfree, *freel;  /* free slots, a stack */
	uint64_t *start;         /* start time of each slot's I/O, ns */
	uint64_t *issue;         /* its issue time; 0: none (SQPOLL) */
	unsigned *pend;          /* queued, not yet handed to the kernel: a FIFO */
	unsigned phead, npend;
	struct rio_ev *ev;
	struct rio_count cnt;    /* issued() finds the state from it */
	uint64_t done;
	struct rawio_lats *lat;
};

/* The engine handed the npend oldest queued I/Os to the kernel (rio_count). */
static void issued(struct rio_count *c, unsigned n, int stamp)
{
	struct rio_state *s = (struct rio_state *)((char *)c - offsetof(struct rio_state, cnt));
	uint64_t now = stamp ? bm_now_ns() : 0;
	unsigned slot;

	for (; n && s->npend; n--) {
		slot = s->pend[s->phead];
		s->phead = (s->phead + 1) % s->j->qd;
		s->npend--;
		s->issue[slot] = now;
		if (stamp)
			bm_lat_add(&s->lat->slat, now - s->start[slot]);  /* io_u_queued() */
	}
}

/* One I/O finished at now: its bytes or -errno. */
static int finish(struct rio_state *s, unsigned slot, int32_t res, uint64_t now)
{
	s->freel[s->nfree++] = slot;
	s->depth--;
	if (res < 0)
		return res;
	if ((uint32_t)res != s->j->bs)
		return -EIO;      /* a short transfer: fio's resid, here an error */
	bm_lat_add(&s->lat->lat, now - s->start[slot]);
	if (s->issue[slot])
		bm_lat_add(&s->lat->clat, now - s->issue[slot]);
	s->done++;
	return 0;
}

/* io_u_queued_complete(min) and td_io_getevents(). */
static int reap(struct rio_state *s, unsigned min)
{
	unsigned max = s->j->complete, i;
	uint64_t now;
	int n, r, ret = 0;

	if (min > s->depth)
		min = s->depth;
	if (min && s->e->commit) {
		r = s->e->commit(s->q, &s->cnt);
		if (r < 0)
			return r;
	}
	if (max > s->depth)
		max = s->depth;
	if (min > max)
		max = min;
	if (!max)
		return 0;
	n = s->e->getevents(s->q, min, max, s->ev, &s->cnt);
	if (n < 0)
		return n;
	now = bm_now_ns();
	for (i = 0; i < (unsigned)n; i++) {
		r = finish(s, s->ev[i].slot, s->ev[i].res, now);
		if (r && !ret)
			ret = r;
	}
	return ret;
}

/* get_io_u and td_io_queue for the next I/O. */
static int issue(struct rio_state *s, uint64_t *rng)
{
	const struct rio_job *j = s->j;
	unsigned slot = s->freel[--s->nfree];
	uint64_t off = rio_next_block(rng, j->nblocks) * j->bs;
	int32_t res = 0;
	int r;

	s->start[slot] = bm_now_ns();
	s->depth++;
	/* td_io_queue: a synchronous engine's issue time, before ->queue */
	s->issue[slot] = s->e->commit ? 0 : bm_now_ns();
	r = s->e->queue(s->q, slot, off, j->write, &res, &s->cnt);
	if (r < 0) {
		s->freel[s->nfree++] = slot;
		s->depth--;
		return r;
	}
	if (r == 1)
		return finish(s, slot, res, bm_now_ns());
	s->pend[(s->phead + s->npend++) % j->qd] = slot;
	/* td_io_commit at the submit batch; it needs depth and a count */
	if (++s->tdq >= j->submit) {
		r = s->e->commit(s->q, &s->cnt);
		s->tdq = 0;
		if (r < 0)
			return r;
	}
	return 0;
}

int rio_loop(const struct rio_engine *e, struct rio_q *q, const struct rio_job *j,
	     struct rawio_sum *sum, struct rawio_lats *lat)
{
	struct rio_state s = { .e = e, .q = q, .j = j, .lat = lat, .cnt = { .issued = issued } };
	uint64_t rng = j->seed ? j->seed : 1, nissued = 0, t0;
	unsigned i;
	int ret = 0, r;

	memset(sum, 0, sizeof(*sum));
	bm_lat_init(&lat->lat);
	bm_lat_init(&lat->clat);
	bm_lat_init(&lat->slat);
	sum->lat = lat;
	sum->bs = j->bs;
	s.freel = calloc(j->qd, sizeof(*s.freel));
	s.start = calloc(j->qd, sizeof(*s.start));
	s.issue = calloc(j->qd, sizeof(*s.issue));
	s.pend = calloc(j->qd, sizeof(*s.pend));
	s.ev = calloc(j->qd, sizeof(*s.ev));
	if (!s.freel || !s.start || !s.issue || !s.pend || !s.ev) {
		ret = -ENOMEM;
		goto out_free;
	}
	/* slot 0 first, as fio's free list hands out io_u 0 first */
	for (i = 0; i < j->qd; i++)
		s.freel[i] = j->qd - 1 - i;
	s.nfree = j->qd;
	bm_cpu_now(&sum->all0, RUSAGE_SELF);
	bm_cpu_now(&sum->cpu0, RUSAGE_THREAD);
	t0 = bm_now_ns();
	while (nissued < j->ios && !ret) {
		if (s.depth < j->qd) {
			ret = issue(&s, &rng);
			nissued++;
		}
		if (!ret && s.depth == j->qd)
			ret = reap(&s, j->complete < s.depth ? j->complete : s.depth);
	}
	/* what is in flight, also after an error: the kernel still owns the buffers */
	while (s.depth) {
		i = s.depth;
		r = reap(&s, s.depth);
		if (r && !ret)
			ret = r;
		if (s.depth == i)
			break;    /* the engine failed: nothing more will come back */
	}
	sum->secs = (double)(bm_now_ns() - t0) / 1e9;
	bm_cpu_now(&sum->cpu1, RUSAGE_THREAD);
	bm_cpu_now(&sum->all1, RUSAGE_SELF);
out_free:
	sum->ios = s.done;
	sum->submits = s.cnt.submits;
	sum->waits = s.cnt.waits;
	free(s.freel);
	free(s.start);
	free(s.issue);
	free(s.pend);
	free(s.ev);
	return ret;
}
