// SPDX-License-Identifier: MIT
/* Samples, round log and repeat.json of --repeat auto (host/analysis/repeat.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmpstats.h"
#include "headline.h"
#include "json.h"
#include "repeat.h"
#include "util.h"
#include "schema.h"

int bm_rep_init(struct bm_rep *r, const char *const *labels, int nk,
		const struct bm_ar_limits *lim)
{
	int i;

	memset(r, 0, sizeof(*r));
	r->lim = *lim;
	r->nk = nk;
	r->k = calloc((size_t)nk, sizeof(*r->k));
	/* every round logs at most one line per kernel */
	r->log = calloc((size_t)nk * (size_t)lim->max, sizeof(*r->log));
	if (!r->k || !r->log) {
		bm_rep_free(r);
		return -ENOMEM;
	}
	for (i = 0; i < nk; i++)
		r->k[i].label = labels[i];
	return 0;
}

void bm_rep_free(struct bm_rep *r)
{
	size_t j;
	int i;

	for (i = 0; r->k && i < r->nk; i++) {
		for (j = 0; j < r->k[i].ns; j++)
			free(r->k[i].s[j].v);
		free(r->k[i].s);
		free(r->k[i].view);
	}
	free(r->k);
	free(r->log);
	memset(r, 0, sizeof(*r));
}

static struct bm_rep_series *series_get(struct bm_rep *r, struct bm_rep_kernel *k,
					const char *key)
{
	struct bm_rep_series *s;
	struct bm_ar_series *view;
	size_t j;

	for (j = 0; j < k->ns; j++)
		if (!strcmp(k->s[j].key, key))
			return &k->s[j];
	s = realloc(k->s, (k->ns + 1) * sizeof(*s));
	if (!s)
		return NULL;
	k->s = s;
	view = realloc(k->view, (k->ns + 1) * sizeof(*view));
	if (!view)
		return NULL;
	k->view = view;
	s = &k->s[k->ns];
	memset(s, 0, sizeof(*s));
	s->v = calloc((size_t)r->lim.max, sizeof(*s->v));
	if (!s->v)
		return NULL;
	snprintf(s->key, sizeof(s->key), "%s", key);
	s->boot = -1;
	k->ns++;
	return s;
}

int bm_rep_add_boot(struct bm_rep *r, int ki, const struct bm_results *res)
{
	struct bm_rep_kernel *k = &r->k[ki];
	char key[128];
	size_t i;

	k->boots++;
	if (res->status != BM_ST_COMPLETED)
		return 0;  /* counts toward the cap, adds no data */
	k->completed++;
	for (i = 0; i < res->nres; i++) {
		const struct bm_rres *h = &res->res[i];
		const char *m = bm_headline_metric(h->wl);
		const struct bm_rmetric *rm = m ? bm_rres_metric(h, m) : NULL;
		struct bm_rep_series *s;

		if (!rm || h->partial || !isfinite(rm->value))
			continue;
		snprintf(key, sizeof(key), "%s %s %s", h->fs, h->test, m);
		s = series_get(r, k, key);
		if (!s)
			return -ENOMEM;
		if (s->boot != k->boots) {  /* the suite's own repeats are averaged */
			if (s->n == (size_t)r->lim.max)
				continue;
			s->boot = k->boots;
			s->v[s->n++] = 0;
			s->cnt = 0;
		}
		s->v[s->n - 1] += (rm->value - s->v[s->n - 1]) / ++s->cnt;
	}
	return 0;
}

static void view_of(const struct bm_rep_kernel *k, struct bm_ar_kernel *a)
{
	size_t j;

	for (j = 0; j < k->ns; j++) {
		k->view[j].key = k->s[j].key;
		k->view[j].v = k->s[j].v;
		k->view[j].n = k->s[j].n;
	}
	a->boots = k->boots;
	a->completed = k->completed;
	a->s = k->view;
	a->ns = k->ns;
}

int bm_rep_round(struct bm_rep *r, int round, const int *booted, int *need, FILE *f)
{
	struct bm_ar_kernel a;
	struct bm_ar_verdict v;
	int i, more = 0;

	for (i = 0; i < r->nk; i++) {
		struct bm_rep_round *l;

		view_of(&r->k[i], &a);
		bm_autorep_decide(&a, 1, &r->lim, &v);
		need[i] = v.more;
		more += v.more;
		if (!booted[i])
			continue;
		l = &r->log[r->nlog++];
		l->round = round;
		l->kernel = i;
		l->boots = a.boots;
		l->completed = a.completed;
		l->more = v.more;
		l->worst_pct = v.worst_pct;
		snprintf(l->worst, sizeof(l->worst), "%s", v.worst >= 0 ? a.s[v.worst].key : "");
		if (v.worst >= 0)
			fprintf(f, "repeat auto: %s n=%d worst CoV %.1f%% (%s) — %s\n",
				r->k[i].label, a.completed, v.worst_pct, l->worst,
				v.more ? "another round" : a.boots >= r->lim.max ? "cap reached" : "stable");
		else
			fprintf(f, "repeat auto: %s n=%d no CoV yet — %s\n", r->k[i].label,
				a.completed, v.more ? "another round" : "cap reached");
	}
	fflush(f);
	return more;
}

static void json_final(struct bm_json *j, const struct bm_rep_kernel *k)
{
	struct bm_summary s;
	size_t i;

	bm_json_obj_begin(j);
	bm_json_kstr(j, "kernel", k->label);
	bm_json_kint(j, "boots", k->boots);
	bm_json_kint(j, "completed", k->completed);
	bm_json_key(j, "metrics");
	bm_json_arr_begin(j);
	for (i = 0; i < k->ns; i++) {
		bm_summarize(k->s[i].v, k->s[i].n, &s);
		bm_json_obj_begin(j);
		bm_json_kstr(j, "key", k->s[i].key);
		bm_json_kint(j, "n", (long long)k->s[i].n);
		bm_json_knum(j, "mean", s.mean);
		bm_json_knum(j, "cov_pct", s.stddev == 0 ? 0 : s.cov * 100.0);
		bm_json_obj_end(j);
	}
	bm_json_arr_end(j);
	bm_json_obj_end(j);
}

int bm_rep_write_json(const struct bm_rep *r, const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);  /* then atomically: never through a link */
	struct bm_json j;
	size_t i;
	int rc = 0;

	if (!f)
		return -errno;
	bm_json_init(&j, f, 1);
	bm_json_obj_begin(&j);
	bm_json_kstr(&j, "schema", BM_SCHEMA_REPEAT);
	bm_json_kstr(&j, "repeat", "auto");
	bm_json_kint(&j, "repeat_min", r->lim.min);
	bm_json_kint(&j, "repeat_max", r->lim.max);
	bm_json_knum(&j, "cov_pct", r->lim.cov_pct);
	bm_json_key(&j, "rounds");
	bm_json_arr_begin(&j);
	for (i = 0; i < r->nlog; i++) {
		const struct bm_rep_round *l = &r->log[i];

		bm_json_obj_begin(&j);
		bm_json_kint(&j, "round", l->round);
		bm_json_kstr(&j, "kernel", r->k[l->kernel].label);
		bm_json_kint(&j, "boots", l->boots);
		bm_json_kint(&j, "completed", l->completed);
		bm_json_knum(&j, "worst_cov_pct", l->worst_pct);
		bm_json_kstr(&j, "worst", l->worst);
		bm_json_key(&j, "another_round");
		bm_json_bool(&j, l->more);
		bm_json_obj_end(&j);
	}
	bm_json_arr_end(&j);
	bm_json_key(&j, "final");
	bm_json_arr_begin(&j);
	for (i = 0; i < (size_t)r->nk; i++)
		json_final(&j, &r->k[i]);
	bm_json_arr_end(&j);
	bm_json_obj_end(&j);
	fputc('\n', f);
	if (ferror(f) || j.err)
		rc = -EIO;
	if (fclose(f) && !rc)
		rc = -errno;
	if (!rc)
		rc = bm_write_file_atomic(path, buf, len);
	free(buf);
	return rc;
}
