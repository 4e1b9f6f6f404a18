// SPDX-License-Identifier: MIT
/* Loading boots, grouping R records and testing them (compare.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "boot.h"
#include "bootdirs.h"
#include "compare.h"
#include "util.h"
#include "wldesc.h"

/* What the workload's own description says (wldesc.h); the unit is the
 * record's and says nothing the description does not. */
enum bm_cmp_dir bm_cmp_direction(const char *wl, const char *metric, const char *unit)
{
	(void)unit;
	switch (bm_wl_metric_better(wl, metric)) {
	case BM_BETTER_HIGHER:
		return BM_DIR_HIGHER;
	case BM_BETTER_LOWER:
		return BM_DIR_LOWER;
	default:
		return BM_DIR_NONE;
	}
}

int bm_cmp_boot_missing(const struct bm_cmp_boot *b)
{
	return !bm_status_usable(b->r.status);
}

const char *bm_cmp_boot_note(const struct bm_cmp_boot *b)
{
	if (b->r.status == BM_ST_PROTOCOL_ERROR)
		return "stream damaged: its intact results are used";
	return bm_cmp_boot_missing(b) ? "results missing" : "failed tests missing";
}

/* "6.1.0-53-amd64.b2" -> "6.1.0-53-amd64": the --repeat suffix. */
static void label_kernel(const char *label, char *buf, size_t len)
{
	const char *dot = strrchr(label, '.');
	size_t n = strlen(label);

	if (dot && dot[1] == 'b' && isdigit((unsigned char)dot[2]) &&
	    strspn(dot + 2, "0123456789") == strlen(dot + 2))
		n = (size_t)(dot - label);
	snprintf(buf, len, "%.*s", (int)n, label);
}

static int kernel_index(struct bm_cmp *c, const char *k)
{
	void *p;
	size_t i;

	for (i = 0; i < c->nkernels; i++)
		if (!strcmp(c->kernels[i], k))
			return (int)i;
	if (!(p = realloc(c->kernels, (c->nkernels + 1) * sizeof(*c->kernels))))
		return -ENOMEM;
	c->kernels = p;
	if (!(p = realloc(c->kboots, (c->nkernels + 1) * sizeof(*c->kboots))))
		return -ENOMEM;
	c->kboots = p;
	snprintf(c->kernels[c->nkernels], sizeof(*c->kernels), "%s", k);
	c->kboots[c->nkernels] = 0;
	return (int)c->nkernels++;
}

static int add_boot(const char *dir, void *arg)
{
	struct bm_cmp *c = arg;
	struct bm_cmp_boot *b;
	const char *label = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
	char meta[PATH_MAX];
	const char *k;
	void *p;
	int rc;

	if (!(p = realloc(c->boots, (c->nboots + 1) * sizeof(*c->boots))))
		return -ENOMEM;
	c->boots = p;
	b = &c->boots[c->nboots];
	memset(b, 0, sizeof(*b));
	rc = bm_seen_check(&c->seen, dir);
	if (rc) {
		if (rc < 0)
			bm_msg("cannot resolve %s: %s", dir, strerror(-rc));
		else
			bm_msg("%s: given twice (or inside another folder given), counted once", dir);
		return rc < 0 ? -EIO : 0;
	}
	rc = bm_boot_read(dir, "", &b->r);
	if (rc) {
		bm_msg("cannot read the logs in %s: %s", dir, strerror(-rc));
		return rc == -ENOMEM ? rc : -EIO;
	}
	snprintf(b->label, sizeof(b->label), "%s", label);
	k = bm_hello_get(&b->r, "kernel");
	/* a folder bootmark made names the kernel spec ("6.1.0-53-amd64_2" is the
	 * same release with other arguments, "c03" a bisect candidate); a log
	 * parsed elsewhere only has the release it booted */
	if (bm_path(meta, sizeof(meta), "%s/meta.json", dir) || !bm_is_file(meta)) {
		if (k && k[0])
			snprintf(b->kernel, sizeof(b->kernel), "%s", k);
		else
			label_kernel(label, b->kernel, sizeof(b->kernel));
	} else {
		label_kernel(label, b->kernel, sizeof(b->kernel));
	}
	if ((rc = kernel_index(c, b->kernel)) < 0) {
		bm_results_free(&b->r);
		return rc;
	}
	b->kidx = rc;
	b->nth = ++c->kboots[rc];
	bm_boot_load_info(dir, &b->load);  /* unknown for logs from elsewhere */
	c->nboots++;
	return 0;
}

int bm_cmp_check_arch(const struct bm_cmp *c, int mix)
{
	const char *first = NULL, *m;
	size_t i, at = 0;

	for (i = 0; i < c->nboots; i++) {
		m = bm_hello_get(&c->boots[i].r, "machine");
		if (!m || !m[0])
			continue;  /* a boot that never said hello has no figures */
		m = bm_arch_of_machine(m);
		if (!first) {
			first = m;
			at = i;
		} else if (strcmp(first, m) && !mix) {
			bm_msg("%s is %s and %s is %s: compare the boots of one architecture, "
			       "or give --mix-arch", c->boots[at].label, first, c->boots[i].label, m);
			return -EINVAL;
		}
	}
	return 0;
}

int bm_cmp_add_dir(struct bm_cmp *c, const char *dir)
{
	int rc;

	if (!bm_is_dir(dir)) {
		bm_msg("%s is not a directory", dir);
		return -EINVAL;
	}
	rc = bm_boot_dirs(dir, add_boot, c);
	if (rc == 0) {
		bm_no_boot_msg(dir);
		return -EINVAL;
	}
	if (rc == -EIO || rc == -ENOMEM)
		return rc;
	if (rc < 0) {
		bm_msg("cannot read directory %s: %s", dir, strerror(-rc));
		return -EINVAL;
	}
	return 0;
}

/* Every value of one (wl, test, fs, metric) measured on kernel k. */
static size_t collect(const struct bm_cmp *c, const struct bm_cmp_row *key, int k, double *out)
{
	size_t i, j, n = 0;
	unsigned m;

	for (i = 0; i < c->nboots; i++) {
		const struct bm_cmp_boot *b = &c->boots[i];

		if (b->kidx != k || bm_cmp_boot_missing(b))
			continue;
		for (j = 0; j < b->r.nres; j++) {
			const struct bm_rres *h = &b->r.res[j];

			/* a partial result measured less than the test asks */
			if (h->partial || strcmp(h->wl, key->wl) || strcmp(h->test, key->test) ||
			    strcmp(h->fs, key->fs))
				continue;
			for (m = 0; m < h->nm; m++)
				if (!strcmp(h->m[m].name, key->metric) && isfinite(h->m[m].value))
					out[n++] = h->m[m].value;
		}
	}
	return n;
}

static int same_block(const struct bm_cmp_row *a, const struct bm_rres *h, const struct bm_rmetric *m)
{
	return !strcmp(a->wl, h->wl) && !strcmp(a->test, h->test) && !strcmp(a->metric, m->name);
}

/* The distinct (wl, test, fs, metric) keys in order of first appearance;
 * block numbers group keys that differ only in fs. */
static int make_keys(struct bm_cmp *c, struct bm_cmp_row **keys, size_t *nkeys)
{
	size_t i, j, k, cap = 0;
	int nblocks = 0;
	unsigned m;

	*keys = NULL;
	*nkeys = 0;
	for (i = 0; i < c->nboots; i++)
		cap += c->boots[i].r.nres * BM_KV_MAX;
	if (cap && !(*keys = calloc(cap, sizeof(**keys))))
		return -ENOMEM;
	for (i = 0; i < c->nboots; i++)
		for (j = 0; j < c->boots[i].r.nres; j++) {
			const struct bm_rres *h = &c->boots[i].r.res[j];

			for (m = 0; m < h->nm; m++) {
				struct bm_cmp_row *r = NULL;
				int block = -1;

				for (k = 0; k < *nkeys && !r; k++)
					if (same_block(&(*keys)[k], h, &h->m[m])) {
						block = (*keys)[k].block;
						if (!strcmp((*keys)[k].fs, h->fs))
							r = &(*keys)[k];
					}
				if (r)
					continue;
				r = &(*keys)[(*nkeys)++];
				*r = (struct bm_cmp_row){ .wl = h->wl, .test = h->test, .fs = h->fs,
							  .metric = h->m[m].name, .unit = h->m[m].unit,
							  .block = block >= 0 ? block : nblocks++ };
			}
		}
	return 0;
}

/* The tests against the baseline; whether that is a change is decided
 * once every row has its p (host/analysis/cmpverdict.c). */
static void test_row(struct bm_cmp_row *r, const double *x, const double *base, size_t nb,
		     const struct bm_cmp_row *b)
{
	struct bm_welch w;
	struct bm_mwu u;

	r->base_center = r->change = r->p_welch = r->p_mwu = r->q = NAN;
	memset(&r->base_s, 0, sizeof(r->base_s));
	if (!b || r == b)
		return;
	r->base_center = b->center;
	r->base_s = b->s;
	if (b->center != 0 && isfinite(b->center))
		r->change = (r->center - b->center) / fabs(b->center) * 100;
	bm_welch_test(x, r->s.n, base, nb, &w);
	r->p_welch = w.p;
	if (r->s.n >= 2 && nb >= 2) {  /* where Welch is, so the two can be read side by side */
		bm_mwu_test(x, r->s.n, base, nb, &u);
		r->p_mwu = u.p;
	}
}

int bm_cmp_build(struct bm_cmp *c, const struct bm_cmp_rules *rules)
{
	struct bm_cmp_row *keys;
	double *x, *base;
	size_t nkeys, i, cap = 0, nb;
	int k, rc;

	c->rules = *rules;
	if ((rc = make_keys(c, &keys, &nkeys)))
		return rc;
	for (i = 0; i < c->nboots; i++)
		cap += c->boots[i].r.nres;
	x = calloc(cap + 1, sizeof(*x));
	base = calloc(cap + 1, sizeof(*base));
	c->rows = calloc(nkeys * c->nkernels + 1, sizeof(*c->rows));
	rc = -ENOMEM;
	if (!x || !base || !c->rows)
		goto out_free;
	for (i = 0; i < nkeys; i++) {
		const struct bm_cmp_row *b = NULL;

		nb = collect(c, &keys[i], 0, base);
		for (k = 0; k < (int)c->nkernels; k++) {
			struct bm_cmp_row *r = &c->rows[c->nrows];
			size_t n = collect(c, &keys[i], k, x);

			if (!n)
				continue;
			*r = keys[i];
			r->kidx = k;
			r->dir = bm_cmp_direction(r->wl, r->metric, r->unit);
			bm_summarize(x, n, &r->s);
			r->hmean = r->dir == BM_DIR_HIGHER && !isnan(r->s.hmean);
			r->center = r->hmean ? r->s.hmean : r->s.mean;
			if (!k)
				b = r;
			test_row(r, x, base, nb, b);
			c->nrows++;
		}
	}
	/* by block, stable: fs in order of first appearance, then kernel */
	for (i = 1; i < c->nrows; i++)
		for (nb = i; nb > 0 && c->rows[nb - 1].block > c->rows[nb].block; nb--) {
			struct bm_cmp_row t = c->rows[nb];

			c->rows[nb] = c->rows[nb - 1];
			c->rows[nb - 1] = t;
		}
	rc = bm_cmp_decide(c);
out_free:
	free(x);
	free(base);
	free(keys);
	return rc;
}

void bm_cmp_free(struct bm_cmp *c)
{
	size_t i;

	for (i = 0; i < c->nboots; i++)
		bm_results_free(&c->boots[i].r);
	free(c->boots);
	free(c->kernels);
	free(c->kboots);
	free(c->rows);
	bm_seen_free(&c->seen);
	free(c->entries);
	free(c->secs);
	memset(c, 0, sizeof(*c));
}

int bm_compare(FILE *f, char *const *dirs, int nd, const struct bm_compare_opts *o)
{
	struct bm_cmp c;
	int i, rc = 0;

	memset(&c, 0, sizeof(c));
	for (i = 0; i < nd && !rc; i++)
		rc = bm_cmp_add_dir(&c, dirs[i]);
	if (!rc)
		rc = bm_cmp_build(&c, &o->rules);
	if (!rc)
		bm_cmp_print(f, &c, o);
	bm_cmp_free(&c);
	return rc;
}
