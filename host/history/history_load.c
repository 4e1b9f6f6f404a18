// SPDX-License-Identifier: MIT
/*
 * The history read back as series (history.h): one metric of one test on
 * one filesystem profile, from the boots of one host, suite and boot method
 * (numbers from different boxes, suites or clocks are not one series unless
 * --pool says so), kernel after kernel in release order, or in the order
 * their first boots were made.  Only boots that completed give values; the
 * others are counted beside their series.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "bisect_boot.h"
#include "headline.h"
#include "history.h"
#include "util.h"

static char *dup_col(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return strdup(t ? (const char *)t : "");
}

static int prep(struct bm_hist *h, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(h->db, sql, -1, st, NULL) == SQLITE_OK)
		return 0;
	bm_msg("%s: cannot read: %s", h->path, sqlite3_errmsg(h->db));
	return -EIO;
}

static int step_done(struct bm_hist *h, sqlite3_stmt *st, int rc)
{
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	bm_msg("%s: cannot read: %s", h->path, sqlite3_errmsg(h->db));
	return rc == SQLITE_NOMEM ? -ENOMEM : -EIO;
}

static int kernel_index(struct bm_hist_data *d, const char *name)
{
	struct bm_hist_kernel *nk;
	size_t i;

	for (i = d->nkernels; i > 0; i--)   /* boots of one kernel come together */
		if (!strcmp(d->kernels[i - 1].name, name))
			return (int)i - 1;
	nk = realloc(d->kernels, (d->nkernels + 1) * sizeof(*nk));
	if (!nk)
		return -ENOMEM;
	d->kernels = nk;
	memset(&nk[d->nkernels], 0, sizeof(*nk));
	if (!(nk[d->nkernels].name = strdup(name)))
		return -ENOMEM;
	return (int)d->nkernels++;
}

/* What a kernel is ordered by: its Debian package version when one of its
 * boots knows it (6.1.0-53-amd64 is 6.1.158-1), else its release; a name
 * given with --release orders by that name. */
static int kernel_facts(struct bm_hist_kernel *k, const char *release, const char *args,
			const char *pkgver, const char *spec, const char *start)
{
	char own[BM_REL_MAX + BM_KARGS_MAX + 2];

	snprintf(own, sizeof(own), "%s%s%s", release, *args ? " " : "", args);
	if (!k->key || (!*k->pkgver && *pkgver)) {
		int renamed = strcmp(own, k->name) != 0;

		free(k->key);
		free(k->pkgver);
		k->pkgver = strdup(pkgver);
		k->key = strdup(renamed ? k->name : *pkgver ? pkgver : release);
	}
	if (!k->first || strcmp(start, k->first) < 0) {
		free(k->first);
		k->first = strdup(start);
	}
	free(k->spec);
	k->spec = strdup(spec);
	return k->key && k->pkgver && k->first && k->spec ? 0 : -ENOMEM;
}

static int load_boots(struct bm_hist *h, struct bm_hist_data *d)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	if (prep(h, "SELECT id, kernel, release, args, package_version, spec, start, label, run, "
		 "host, suite, method, class, class_why FROM boots ORDER BY id", &st))
		return -EIO;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct bm_hist_boot *b;
		int k;

		if (d->nboots == cap) {
			void *nb = realloc(d->boots, (cap = cap ? 2 * cap : 64) * sizeof(*b));

			if (!nb)
				return step_done(h, st, SQLITE_NOMEM);
			d->boots = nb;
		}
		k = kernel_index(d, (const char *)sqlite3_column_text(st, 1));
		if (k < 0 || kernel_facts(&d->kernels[k], (const char *)sqlite3_column_text(st, 2),
					  (const char *)sqlite3_column_text(st, 3),
					  (const char *)sqlite3_column_text(st, 4),
					  (const char *)sqlite3_column_text(st, 5),
					  (const char *)sqlite3_column_text(st, 6)))
			return step_done(h, st, SQLITE_NOMEM);
		b = &d->boots[d->nboots++];
		b->id = sqlite3_column_int64(st, 0);
		b->kidx = k;
		b->start = dup_col(st, 6);
		b->label = dup_col(st, 7);
		b->run = dup_col(st, 8);
		b->host = dup_col(st, 9);
		b->suite = dup_col(st, 10);
		b->method = dup_col(st, 11);
		b->cls = dup_col(st, 12);
		b->why = dup_col(st, 13);
		b->completed = !strcmp(b->cls, "completed");
		if (!b->start || !b->label || !b->run || !b->host || !b->suite || !b->method ||
		    !b->cls || !b->why)
			return step_done(h, st, SQLITE_NOMEM);
	}
	return step_done(h, st, rc);
}

static const struct bm_hist_data *sort_data;
static enum bm_hist_order sort_order;

static int cmp_kernels(const void *x, const void *y)
{
	const struct bm_hist_kernel *a = &sort_data->kernels[*(const int *)x];
	const struct bm_hist_kernel *b = &sort_data->kernels[*(const int *)y];
	int r = 0;

	if (sort_order == BM_HIST_BY_DATE)
		r = strcmp(a->first, b->first);
	if (!r)
		r = bm_kver_cmp(a->key, b->key);
	if (!r)
		r = bm_kver_cmp(a->name, b->name);
	if (!r)
		r = strcmp(a->name, b->name);
	return r ? r : strcmp(a->first, b->first);
}

static int order_kernels(struct bm_hist_data *d, enum bm_hist_order o)
{
	size_t i;

	d->order = malloc((d->nkernels + 1) * sizeof(*d->order));
	if (!d->order)
		return -ENOMEM;
	for (i = 0; i < d->nkernels; i++)
		d->order[i] = (int)i;
	sort_data = d;
	sort_order = o;
	qsort(d->order, d->nkernels, sizeof(*d->order), cmp_kernels);
	for (i = 0; i < d->nkernels; i++)
		d->kernels[d->order[i]].pos = (int)i;
	return 0;
}

static int load_dims(struct bm_hist *h, struct bm_hist_data *d)
{
	sqlite3_stmt *st;
	int rc;

	if (prep(h, "SELECT id, wl, test, name, unit FROM metrics ORDER BY id", &st))
		return -EIO;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct bm_hist_metric *m = realloc(d->metrics, (d->nmetrics + 1) * sizeof(*m));
		const char *hl;

		if (!m)
			return step_done(h, st, SQLITE_NOMEM);
		d->metrics = m;
		m += d->nmetrics++;
		m->id = sqlite3_column_int64(st, 0);
		m->wl = dup_col(st, 1);
		m->test = dup_col(st, 2);
		m->name = dup_col(st, 3);
		m->unit = dup_col(st, 4);
		if (!m->wl || !m->test || !m->name || !m->unit)
			return step_done(h, st, SQLITE_NOMEM);
		hl = bm_headline_metric(m->wl);
		m->headline = hl && !strcmp(hl, m->name);
	}
	if ((rc = step_done(h, st, rc)))
		return rc;
	if (prep(h, "SELECT id, fs, mkfs, mount FROM profiles ORDER BY id", &st))
		return -EIO;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct bm_hist_profile *p = realloc(d->profiles, (d->nprofiles + 1) * sizeof(*p));

		if (!p)
			return step_done(h, st, SQLITE_NOMEM);
		d->profiles = p;
		p += d->nprofiles++;
		p->id = sqlite3_column_int64(st, 0);
		p->fs = dup_col(st, 1);
		p->mkfs = dup_col(st, 2);
		p->mount = dup_col(st, 3);
		if (!p->fs || !p->mkfs || !p->mount)
			return step_done(h, st, SQLITE_NOMEM);
	}
	return step_done(h, st, rc);
}

/* --- values into series ----------------------------------------------------- */

struct entry {
	int metric, profile, boot;
	const char *host, *suite, *method;
	int kpos;
	int rank;                  /* the boot's by start time */
	long long row;             /* then the record's order */
	double v;
};

static int cmp_str(const char *a, const char *b)
{
	return a == b ? 0 : !a ? -1 : !b ? 1 : strcmp(a, b);
}

static int same_series(const struct entry *a, const struct entry *b)
{
	return a->metric == b->metric && a->profile == b->profile && !cmp_str(a->host, b->host) &&
	       !cmp_str(a->suite, b->suite) && !cmp_str(a->method, b->method);
}

static int cmp_entries(const void *x, const void *y)
{
	const struct entry *a = x, *b = y;
	int r;

	if (a->metric != b->metric)
		return a->metric < b->metric ? -1 : 1;
	if (a->profile != b->profile)
		return a->profile < b->profile ? -1 : 1;
	if ((r = cmp_str(a->host, b->host)) || (r = cmp_str(a->suite, b->suite)) ||
	    (r = cmp_str(a->method, b->method)))
		return r;
	if (a->kpos != b->kpos)
		return a->kpos < b->kpos ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return a->row < b->row ? -1 : a->row > b->row;
}

static const struct bm_hist_boot *rank_boots;

static int cmp_start(const void *x, const void *y)
{
	const struct bm_hist_boot *a = &rank_boots[*(const int *)x], *b = &rank_boots[*(const int *)y];
	int r = strcmp(a->start, b->start);

	return r ? r : a->id < b->id ? -1 : a->id > b->id;
}

/* rank[i]: boot i's place when the boots are ordered by start time */
static int *boot_ranks(const struct bm_hist_data *d)
{
	int *by = malloc((d->nboots + 1) * sizeof(int)), *rank = malloc((d->nboots + 1) * sizeof(int));
	size_t i;

	if (!by || !rank) {
		free(by);
		free(rank);
		return NULL;
	}
	for (i = 0; i < d->nboots; i++)
		by[i] = (int)i;
	rank_boots = d->boots;
	qsort(by, d->nboots, sizeof(int), cmp_start);
	for (i = 0; i < d->nboots; i++)
		rank[by[i]] = (int)i;
	free(by);
	return rank;
}

/* Index of the row with this id in a table sorted by id; -1 when absent. */
static int find_id(const void *base, size_t n, size_t size, long long id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		long long v = *(const long long *)((const char *)base + mid * size);

		if (v == id)
			return (int)mid;
		if (v < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static int boot_wanted(const struct bm_hist_boot *b, const struct bm_hist_filter *f)
{
	return (!f->host[0] || !strcmp(f->host, b->host)) &&
	       (!f->suite[0] || !strcmp(f->suite, b->suite)) &&
	       (!f->method[0] || !strcmp(f->method, b->method));
}

/* Marks the metrics and profiles f asks for; -EINVAL for a bad --metric. */
static int wanted_dims(const struct bm_hist_data *d, const struct bm_hist_filter *f,
		       char *mw, char *pw)
{
	struct bm_bmetric bm;
	size_t i;

	if (f->metric[0] && bm_bmetric_parse(&bm, f->metric, "-"))
		return -EINVAL;
	for (i = 0; i < d->nmetrics; i++) {
		const struct bm_hist_metric *m = &d->metrics[i];

		mw[i] = (!f->headline_only || m->headline) &&
			(!f->metric[0] || (!strcmp(m->wl, bm.wl) && !strcmp(m->test, bm.test) &&
					   !strcmp(m->name, bm.name)));
	}
	for (i = 0; i < d->nprofiles; i++)
		pw[i] = !f->fs[0] || !strcmp(f->fs, d->profiles[i].fs);
	return 0;
}

static int read_values(struct bm_hist *h, struct bm_hist_data *d, const struct bm_hist_filter *f,
		       struct entry **out, size_t *nout)
{
	char *mw = calloc(d->nmetrics + 1, 1), *pw = calloc(d->nprofiles + 1, 1);
	int *rank = boot_ranks(d);
	struct entry *e = NULL;
	size_t n = 0, cap = 0;
	sqlite3_stmt *st = NULL;
	int rc = -ENOMEM, step;

	if (!mw || !pw || !rank)
		goto out_free;
	if ((rc = wanted_dims(d, f, mw, pw)) || (rc = prep(h, "SELECT boot, metric, profile, value, "
		 "rowid FROM results WHERE partial = 0", &st)))
		goto out_free;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		int bi = find_id(d->boots, d->nboots, sizeof(*d->boots), sqlite3_column_int64(st, 0));
		int mi = find_id(d->metrics, d->nmetrics, sizeof(*d->metrics),
				 sqlite3_column_int64(st, 1));
		int pi = find_id(d->profiles, d->nprofiles, sizeof(*d->profiles),
				 sqlite3_column_int64(st, 2));
		const struct bm_hist_boot *b;

		if (bi < 0 || mi < 0 || pi < 0 || !mw[mi] || !pw[pi])
			continue;
		b = &d->boots[bi];
		if (!b->completed || !boot_wanted(b, f))
			continue;
		if (n == cap) {
			void *ne = realloc(e, (cap = cap ? 2 * cap : 4096) * sizeof(*e));

			if (!ne) {
				step = SQLITE_NOMEM;
				break;
			}
			e = ne;
		}
		e[n] = (struct entry){ .metric = mi, .profile = f->pool_profile ? -1 : pi, .boot = bi,
				       .host = f->pool_host ? NULL : b->host,
				       .suite = f->pool_suite ? NULL : b->suite,
				       .method = f->pool_method ? NULL : b->method,
				       .kpos = d->kernels[b->kidx].pos, .rank = rank[bi],
				       .row = sqlite3_column_int64(st, 4),
				       .v = sqlite3_column_double(st, 3) };
		n++;
	}
	rc = step_done(h, st, step);
out_free:
	free(mw);
	free(pw);
	free(rank);
	if (rc) {
		free(e);
		return rc;
	}
	*out = e;
	*nout = n;
	return 0;
}

/* Boots of the series' host, suite and method that did not complete. */
static void excluded(const struct bm_hist_data *d, struct bm_hist_series *s)
{
	static const char *const names[] = { "no-console", "no-runner", "initramfs-error", "panic",
		"kernel-warning", "hang", "unexpected-reboot", "setup-failure", "bench-error",
		"protocol-error", "disk-refused", "timeout", "infra-error", "interrupted", NULL };
	int count[16] = { 0 }, i, other = 0;
	size_t b, len;

	for (b = 0; b < d->nboots; b++) {
		const struct bm_hist_boot *x = &d->boots[b];

		if (x->completed || (s->host && strcmp(s->host, x->host)) ||
		    (s->suite && strcmp(s->suite, x->suite)) ||
		    (s->method && strcmp(s->method, x->method)))
			continue;
		s->nexcl++;
		for (i = 0; names[i] && strcmp(names[i], x->cls); i++)
			;
		if (names[i])
			count[i]++;
		else
			other++;
	}
	for (i = 0; names[i]; i++)
		if (count[i] && (len = strlen(s->excl)) < sizeof(s->excl))
			snprintf(s->excl + len, sizeof(s->excl) - len, "%s%d %s", len ? ", " : "",
				 count[i], names[i]);
	if (other && (len = strlen(s->excl)) < sizeof(s->excl))
		snprintf(s->excl + len, sizeof(s->excl) - len, "%s%d other", len ? ", " : "", other);
}

static int make_series(struct bm_hist_data *d, struct entry *e, size_t n)
{
	size_t i, j;

	qsort(e, n, sizeof(*e), cmp_entries);
	for (i = 0; i < n; i = j) {
		struct bm_hist_series *s, *ns;

		for (j = i + 1; j < n && same_series(&e[i], &e[j]); j++)
			;
		ns = realloc(d->series, (d->nseries + 1) * sizeof(*ns));
		if (!ns)
			return -ENOMEM;
		d->series = ns;
		s = &ns[d->nseries++];
		memset(s, 0, sizeof(*s));
		s->metric = e[i].metric;
		s->profile = e[i].profile;
		s->host = e[i].host;
		s->suite = e[i].suite;
		s->method = e[i].method;
		s->pt = malloc((j - i) * sizeof(*s->pt));
		if (!s->pt)
			return -ENOMEM;
		for (s->npt = 0; s->npt < j - i; s->npt++)
			s->pt[s->npt] = (struct bm_hist_pt){ e[i + s->npt].kpos, e[i + s->npt].boot,
							     e[i + s->npt].v };
		excluded(d, s);
	}
	return 0;
}

int bm_hist_load(struct bm_hist *h, const struct bm_hist_filter *f, struct bm_hist_data *d)
{
	struct entry *e = NULL;
	size_t n = 0;
	int rc;

	memset(d, 0, sizeof(*d));
	if ((rc = load_boots(h, d)) || (rc = order_kernels(d, f->order)) || (rc = load_dims(h, d)))
		return rc;
	if (f->no_values)
		return 0;
	if ((rc = read_values(h, d, f, &e, &n)))
		return rc;
	rc = make_series(d, e, n);
	free(e);
	return rc;
}

void bm_hist_data_free(struct bm_hist_data *d)
{
	size_t i;

	for (i = 0; i < d->nkernels; i++) {
		free(d->kernels[i].name);
		free(d->kernels[i].key);
		free(d->kernels[i].first);
		free(d->kernels[i].spec);
		free(d->kernels[i].pkgver);
	}
	for (i = 0; i < d->nboots; i++) {
		struct bm_hist_boot *b = &d->boots[i];

		free(b->label);
		free(b->run);
		free(b->host);
		free(b->suite);
		free(b->method);
		free(b->start);
		free(b->cls);
		free(b->why);
	}
	for (i = 0; i < d->nmetrics; i++) {
		free(d->metrics[i].wl);
		free(d->metrics[i].test);
		free(d->metrics[i].name);
		free(d->metrics[i].unit);
	}
	for (i = 0; i < d->nprofiles; i++) {
		free(d->profiles[i].fs);
		free(d->profiles[i].mkfs);
		free(d->profiles[i].mount);
	}
	for (i = 0; i < d->nseries; i++)
		free(d->series[i].pt);
	free(d->kernels);
	free(d->order);
	free(d->boots);
	free(d->metrics);
	free(d->profiles);
	free(d->series);
	memset(d, 0, sizeof(*d));
}

const struct bm_hist_kernel *bm_hist_kernel_at(const struct bm_hist_data *d, int pos)
{
	return &d->kernels[d->order[pos]];
}

const char *bm_hist_metric_name(char *buf, size_t len, const struct bm_hist_metric *m)
{
	snprintf(buf, len, "%s.%s.%s", m->wl, m->test, m->name);
	return buf;
}

int bm_hist_parse_pool(struct bm_hist_filter *f, const char *list)
{
	char buf[128], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "host"))
			f->pool_host = 1;
		else if (!strcmp(tok, "suite"))
			f->pool_suite = 1;
		else if (!strcmp(tok, "profile"))
			f->pool_profile = 1;
		else if (!strcmp(tok, "method"))
			f->pool_method = 1;
		else {
			bm_msg("bad --pool item '%s': want a comma list of host, suite, profile, method",
			       tok);
			return -EINVAL;
		}
	}
	return 0;
}
