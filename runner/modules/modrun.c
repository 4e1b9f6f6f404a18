// SPDX-License-Identifier: MIT
/*
 * Runs a load plan on a few threads (modload.h).  Under TCG a module's load
 * is milliseconds of emulated signature check, relocation and init, and
 * the boot modules were a serial chain of them before the hello: six on a
 * Debian 6.1 kernel, where virtio_pci and virtio_blk need only virtio,
 * virtio_ring and the two virtio_pci_*_dev libraries.  A step starts when
 * the steps it needs are done: its modules.dep dependencies, or, for a
 * step a softdep brought in or a module with softdeps, every earlier step
 * (the serial order, which is all a softdep promises).
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "modload.h"

enum { ST_WAIT, ST_RUN, ST_DONE };

struct runner {
	const struct bm_moddb *db;
	const struct mod_plan *p;
	mod_load_fn load;
	void *ctx;
	size_t *need;         /* per step: need[first[i]..first[i+1]) are its steps */
	size_t *first;
	unsigned char *state; /* per step */
	size_t ndone;
	int ret;              /* the first required step's failure */
	char *err;
	size_t errlen;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

/* The steps each step waits for, as indices; 0 or -ENOMEM. */
static int runner_needs(struct runner *r)
{
	const struct mod_plan *p = r->p;
	const struct bm_mod *m, *d;
	size_t i, j, n = 0, *step_of;
	unsigned k;

	step_of = malloc((r->db->nmods ? r->db->nmods : 1) * sizeof(*step_of));
	r->first = malloc((p->n + 1) * sizeof(*r->first));
	for (i = 0; i < p->n; i++)
		n += p->step[i].after_all ? i : r->db->mods[p->step[i].mod].ndeps;
	r->need = malloc((n ? n : 1) * sizeof(*r->need));
	if (!step_of || !r->first || !r->need) {
		free(step_of);
		return -ENOMEM;
	}
	for (i = 0; i < r->db->nmods; i++)
		step_of[i] = SIZE_MAX;
	for (i = 0, n = 0; i < p->n; i++) {
		step_of[p->step[i].mod] = i;
		r->first[i] = n;
		m = &r->db->mods[p->step[i].mod];
		for (j = 0; p->step[i].after_all && j < i; j++)
			r->need[n++] = j;
		for (k = 0; !p->step[i].after_all && k < m->ndeps; k++) {
			d = bm_moddb_lookup(r->db, m->deps[k]);
			/* planned before it (mod_plan_add), or not part of this plan */
			if (d && step_of[d - r->db->mods] < i)
				r->need[n++] = step_of[d - r->db->mods];
		}
	}
	r->first[p->n] = n;
	free(step_of);
	return 0;
}

/* The lowest step that waits with all it needs done, or SIZE_MAX. */
static size_t runner_pick(const struct runner *r)
{
	size_t i, j;

	for (i = 0; i < r->p->n; i++) {
		if (r->state[i] != ST_WAIT)
			continue;
		for (j = r->first[i]; j < r->first[i + 1] && r->state[r->need[j]] == ST_DONE; j++)
			;
		if (j == r->first[i + 1])
			return i;
	}
	return SIZE_MAX;
}

/* One step, outside the lock: 0, or -errno when a required module failed. */
static int runner_step(struct runner *r, size_t i, char *err, size_t errlen)
{
	const struct bm_mod *m = &r->db->mods[r->p->step[i].mod];
	int ret = r->load(r->ctx, r->db, m);

	if (!ret) {
		rlog(RLOG_DEBUG, "loaded %s", m->name);
		return 0;
	}
	if (r->p->step[i].optional) {
		/* e.g. crc32c_intel on a CPU without SSE4.2: the generic one serves. */
		rlog(RLOG_INFO, "optional module %s not loaded: %s", m->name, strerror(-ret));
		return 0;
	}
	snprintf(err, errlen, "cannot load module %s (%s): %s", m->name, m->path,
		 strerror(-ret));
	return ret;
}

static void *runner_work(void *arg)
{
	struct runner *r = arg;
	char err[512];
	size_t i;
	int ret;

	pthread_mutex_lock(&r->mu);
	while (!r->ret && r->ndone < r->p->n) {
		i = runner_pick(r);
		if (i == SIZE_MAX) {
			pthread_cond_wait(&r->cv, &r->mu);
			continue;
		}
		r->state[i] = ST_RUN;
		pthread_mutex_unlock(&r->mu);
		ret = runner_step(r, i, err, sizeof(err));
		pthread_mutex_lock(&r->mu);
		r->state[i] = ST_DONE;
		r->ndone++;
		if (ret && !r->ret) {
			r->ret = ret;
			snprintf(r->err, r->errlen, "%s", err);
		}
		pthread_cond_broadcast(&r->cv);
	}
	pthread_mutex_unlock(&r->mu);
	return NULL;
}

int mod_plan_run(const struct bm_moddb *db, const struct mod_plan *p, unsigned nthreads,
		 mod_load_fn load, void *ctx, char *err, size_t errlen)
{
	struct runner r = { .db = db, .p = p, .load = load, .ctx = ctx, .err = err,
			    .errlen = errlen };
	pthread_t th[MOD_THREADS_MAX];
	unsigned i, started = 0;
	int ret;

	if (p->skipped[0])
		rlog(RLOG_INFO, "optional modules not available: %s", p->skipped);
	r.state = calloc(p->n ? p->n : 1, 1);
	ret = r.state ? runner_needs(&r) : -ENOMEM;
	if (ret) {
		snprintf(err, errlen, "cannot plan the module loads: %s", strerror(-ret));
		goto out_free;
	}
	pthread_mutex_init(&r.mu, NULL);
	pthread_cond_init(&r.cv, NULL);
	if (nthreads > MOD_THREADS_MAX)
		nthreads = MOD_THREADS_MAX;
	/* The caller is one of them; a thread that cannot start leaves fewer. */
	for (i = 1; i < nthreads && i < p->n; i++)
		if (!pthread_create(&th[started], NULL, runner_work, &r))
			started++;
	runner_work(&r);
	for (i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	ret = r.ret;
	pthread_cond_destroy(&r.cv);
	pthread_mutex_destroy(&r.mu);
out_free:
	free(r.need);
	free(r.first);
	free(r.state);
	return ret;
}
