// SPDX-License-Identifier: MIT
/* Boots and metric values for "bisect" and "bisect-step". */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect_boot.h"
#include "wldesc.h"
#include "bisect_run.h"
#include "bootdirs.h"
#include "compare.h"
#include "util.h"

static int part(char *dst, size_t len, const char *s, size_t n)
{
	if (!n || n >= len)
		return -EINVAL;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return 0;
}

int bm_bmetric_parse(struct bm_bmetric *m, const char *spec, const char *fs)
{
	const char *d1 = strchr(spec, '.'), *d2 = d1 ? strchr(d1 + 1, '.') : NULL;

	memset(m, 0, sizeof(*m));
	if (!d1 || !d2 || part(m->wl, sizeof(m->wl), spec, (size_t)(d1 - spec)) ||
	    part(m->test, sizeof(m->test), d1 + 1, (size_t)(d2 - d1 - 1)) ||
	    part(m->name, sizeof(m->name), d2 + 1, strlen(d2 + 1)) ||
	    part(m->fs, sizeof(m->fs), fs, strlen(fs)) || strchr(m->name, '.')) {
		bm_msg("bad --metric '%s': want WORKLOAD.VARIANT.METRIC as bootmark export names "
		       "them, e.g. dd.dd64r.real", spec);
		return -EINVAL;
	}
	return 0;
}

int bm_bmetric_check_suite(const struct bm_bmetric *m, const struct bm_suite *s,
			   const char *metric)
{
	const struct bm_wl_desc *d = bm_wl_desc_find(m->wl);
	char err[256], labels[512] = "";
	size_t at = 0;
	unsigned i;
	int wl = 0;

	/* the test labels the suite's jobs of that workload produce: a --metric
	 * naming another would boot every kernel for a value none gives */
	for (i = 0; d && i < s->njobs; i++) {
		void *o = NULL;
		int k, n;

		if (strcmp(s->job[i].wl, m->wl))
			continue;
		wl = 1;
		if (bm_wl_job_opts(d, s->job[i].args, &o, err, sizeof(err)))
			continue;       /* the suite's own check reports it */
		n = d->ntests(o);
		for (k = 0; k < n; k++) {
			struct bm_result r;

			memset(&r, 0, sizeof(r));
			d->describe(o, k, &r);
			if (!strcmp(r.test, m->test)) {
				free(o);
				return 0;
			}
			if (at < sizeof(labels))
				at += (size_t)snprintf(labels + at, sizeof(labels) - at, "%s%s",
						       at ? ", " : "", r.test);
		}
		free(o);
	}
	if (!wl)
		bm_msg("suite '%s' does not run workload '%s' of --metric %s", s->name, m->wl,
		       metric);
	else
		bm_msg("suite '%s' runs no test '%s' of --metric %s (its %s tests: %s)", s->name,
		       m->test, metric, m->wl, labels[0] ? labels : "none");
	return -EINVAL;
}

int bm_bmetric_value(struct bm_bmetric *m, const struct bm_results *r, double *v)
{
	const struct bm_rmetric *x;
	double sum = 0;
	size_t i, n = 0;

	for (i = 0; i < r->nres; i++) {
		const struct bm_rres *h = &r->res[i];

		if (h->partial || strcmp(h->wl, m->wl) || strcmp(h->test, m->test) ||
		    strcmp(h->fs, m->fs))
			continue;
		x = bm_rres_metric(h, m->name);
		if (!x || isnan(x->value))
			continue;
		if (!m->unit[0])
			snprintf(m->unit, sizeof(m->unit), "%s", x->unit);
		sum += x->value;
		n++;
	}
	if (!n)
		return -ENOENT;
	*v = sum / (double)n;
	return 0;
}

int bm_bmetric_dir(const struct bm_bmetric *m)
{
	switch (bm_cmp_direction(m->wl, m->name, m->unit)) {
	case BM_DIR_LOWER: return 1;
	case BM_DIR_HIGHER: return -1;
	default: return 0;
	}
}

struct collect {
	struct bm_bmetric *m;
	double *v;
	int n;
	struct bm_seen seen;
};

/* A reference boot's value: from a completed boot, or from the intact
 * records of one whose stream was damaged (said so). */
static int collect_one(const char *dir, void *arg)
{
	struct collect *c = arg;
	struct bm_results r;
	double x, *nv;

	if (bm_seen_check(&c->seen, dir) || bm_boot_read(dir, "", &r))
		return 0;
	if ((r.status == BM_ST_COMPLETED || r.status == BM_ST_PROTOCOL_ERROR) &&
	    !bm_bmetric_value(c->m, &r, &x)) {
		if (r.status == BM_ST_PROTOCOL_ERROR)
			bm_msg("%s: stream damaged (%s); its intact %s.%s.%s is used", dir,
			       r.status_why, c->m->wl, c->m->test, c->m->name);
		nv = realloc(c->v, (size_t)(c->n + 1) * sizeof(*nv));
		if (!nv) {
			bm_results_free(&r);
			return -ENOMEM;
		}
		c->v = nv;
		c->v[c->n++] = x;
	}
	bm_results_free(&r);
	return 0;
}

int bm_bmetric_collect(struct bm_bmetric *m, const char *dir, double **v)
{
	struct collect c = { m, NULL, 0, { 0 } };
	int rc = bm_boot_dirs(dir, collect_one, &c);

	bm_seen_free(&c.seen);
	if (rc < 0) {
		free(c.v);
		bm_msg("cannot read boots in %s: %s", dir, strerror(-rc));
		return rc;
	}
	*v = c.v;
	return c.n;
}

int bm_bisect_measure(void *arg, int cand, double *value, char *why, size_t whylen)
{
	struct bm_bctx *x = arg;
	struct bm_boot *b = calloc(1, sizeof(*b));
	struct bm_qemu_req req;
	int rc;

	if (!b)
		return -ENOMEM;
	x->boots[cand]++;
	snprintf(b->label, sizeof(b->label), "c%02d.b%d", cand + 1, x->boots[cand]);
	rc = bm_path(b->dir, sizeof(b->dir), "%s/%s", x->out, b->label);
	if (rc)
		goto out_free;
	b->spec = x->specs[cand].text;
	req = (struct bm_qemu_req){
		.r = { .backend = "qemu", .out = b->dir }, .c = x->c, .spec = &x->specs[cand], .b = b,
	};
	rc = bm_backend_boot(&req.r);
	if (rc)   /* infrastructure: reported by the backend; bisecting on is pointless */
		goto out_free_res;
	if (x->methods)
		snprintf(x->methods[cand], sizeof(x->methods[cand]), "%s", b->method.name);
	bm_msg("%s (%s): %s%s%s", b->label, x->specs[cand].text, bm_status_name(b->res.status),
	       b->res.status_why[0] ? ": " : "", b->res.status_why);
	/* a bisection weighs boots against each other: say which were disturbed */
	if (b->res.status != BM_ST_INFRA_ERROR && !b->icount && b->load.samples &&
	    bm_load_disturbed(&b->load))
		bm_msg("%s: the host was busy while it measured (%d other QEMU, %.0f%% of the "
		       "CPU used by others): its timings may be slower than the kernel's own",
		       b->label, b->load.qemu_max, b->load.others_pct);
	if (b->res.status == BM_ST_INTERRUPTED) {
		rc = -EINTR;   /* not the candidate's fault: the bisection stops */
	} else if (b->res.status == BM_ST_INFRA_ERROR) {
		/* QEMU's own failure, a file the host cannot write: judging the
		 * candidate by it would mark a good kernel bad (or skip it), and
		 * every later boot would fail alike */
		bm_msg("%s: the host failed, not the kernel: the bisection stops", b->label);
		rc = -EIO;
	} else if (b->res.status == BM_ST_PROTOCOL_ERROR && !x->boot_mode &&
		   !bm_bmetric_value(x->m, &b->res, value)) {
		bm_msg("%s: stream damaged; its intact %s.%s.%s is used", b->label, x->m->wl,
		       x->m->test, x->m->name);
		rc = BM_MEAS_OK;
	} else if (b->res.status != BM_ST_COMPLETED) {
		snprintf(why, whylen, "%s: %.120s", bm_status_name(b->res.status), b->res.status_why);
		rc = BM_MEAS_NOBOOT;
	} else if (!x->boot_mode && bm_bmetric_value(x->m, &b->res, value)) {
		snprintf(why, whylen, "no %s.%s.%s on %s in %s", x->m->wl, x->m->test, x->m->name,
			 x->m->fs, b->label);
		rc = BM_MEAS_NOMETRIC;
	} else {
		rc = BM_MEAS_OK;
	}
out_free_res:
	bm_results_free(&b->res);
	bm_argv_free(&b->argv);
out_free:
	free(b);
	return rc;
}
