// SPDX-License-Identifier: MIT
/* Result records -> struct bm_rres -> the formatter of each workload (report.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

int bm_parse_metric(const char *text, double *value, char *unit, size_t unitlen)
{
	const char *colon = strrchr(text, ':');
	char num[64], *end;
	size_t n;

	if (!colon || colon == text)
		return -EINVAL;
	n = (size_t)(colon - text);
	if (n >= sizeof(num))
		return -EINVAL;
	memcpy(num, text, n);
	num[n] = '\0';
	errno = 0;
	*value = strtod(num, &end);
	if (*end || errno == ERANGE)
		return -EINVAL;
	if (strlen(colon + 1) >= unitlen)
		return -EINVAL;
	strcpy(unit, colon + 1);
	return 0;
}

static void copy_val(char *dst, size_t len, const char *v)
{
	snprintf(dst, len, "%s", v ? v : "");
}

int bm_rres_from_record(struct bm_rres *h, const struct bm_record *rec)
{
	const char *v;
	unsigned i;

	memset(h, 0, sizeof(*h));
	if (rec->type != BM_REC_RESULT)
		return -EINVAL;
	h->seq = rec->seq;
	copy_val(h->wl, sizeof(h->wl), bm_rec_get(rec, "wl"));
	copy_val(h->test, sizeof(h->test), bm_rec_get(rec, "test"));
	copy_val(h->fs, sizeof(h->fs), bm_rec_get(rec, "fs"));
	copy_val(h->params, sizeof(h->params), bm_rec_get(rec, "params"));
	copy_val(h->mkfs, sizeof(h->mkfs), bm_rec_get(rec, "mkfs"));
	copy_val(h->mount, sizeof(h->mount), bm_rec_get(rec, "mount"));
	v = bm_rec_get(rec, "rep");
	h->rep = v ? atoi(v) : 1;
	v = bm_rec_get(rec, "partial");
	h->partial = v && !strcmp(v, "1");
	for (i = 0; i < rec->nkv && h->nm < BM_KV_MAX; i++) {
		struct bm_rmetric *m = &h->m[h->nm];

		if (strncmp(rec->kv[i].key, "m_", 2))
			continue;
		/* A malformed metric is dropped, the rest of the record kept:
		 * one bad value must not hide a whole test from the table. */
		if (bm_parse_metric(rec->kv[i].val, &m->value, m->unit, sizeof(m->unit)))
			continue;
		snprintf(m->name, sizeof(m->name), "%s", rec->kv[i].key + 2);
		h->nm++;
	}
	return 0;
}

struct rkey {
	const char *key;
	size_t i;
};

static int by_key(const void *a, const void *b)
{
	const struct rkey *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* A group: its first row and where its rows start in the key order. */
struct rgrp {
	size_t first, at;
};

static int by_first(const void *a, const void *b)
{
	const struct rgrp *x = a, *y = b;

	return (x->first > y->first) - (x->first < y->first);
}

int bm_rgroups_make(struct bm_rgroups *g, const char *const *keys, size_t n)
{
	struct rkey *k = calloc(n + 1, sizeof(*k));
	struct rgrp *grp = calloc(n + 1, sizeof(*grp));
	size_t m = 0, i, j, o = 0;

	memset(g, 0, sizeof(*g));
	g->order = calloc(n + 1, sizeof(*g->order));
	g->start = calloc(n + 2, sizeof(*g->start));
	if (!k || !grp || !g->order || !g->start) {
		free(k);
		free(grp);
		bm_rgroups_free(g);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		if (keys[i])
			k[m++] = (struct rkey){ keys[i], i };
	qsort(k, m, sizeof(*k), by_key);
	/* a group's first row sorts first among its rows: the smallest index */
	for (i = 0; i < m; i = j) {
		for (j = i; j < m && !strcmp(k[j].key, k[i].key); j++)
			;
		grp[g->ngroups++] = (struct rgrp){ k[i].i, i };
	}
	qsort(grp, g->ngroups, sizeof(*grp), by_first);
	for (i = 0; i < g->ngroups; i++) {
		g->start[i] = o;
		for (j = grp[i].at; j < m && !strcmp(k[j].key, k[grp[i].at].key); j++)
			g->order[o++] = k[j].i;
	}
	g->start[g->ngroups] = o;
	free(k);
	free(grp);
	return 0;
}

void bm_rgroups_free(struct bm_rgroups *g)
{
	free(g->order);
	free(g->start);
	memset(g, 0, sizeof(*g));
}

const struct bm_rmetric *bm_rres_metric(const struct bm_rres *h, const char *name)
{
	unsigned i;

	for (i = 0; i < h->nm; i++)
		if (!strcmp(h->m[i].name, name))
			return &h->m[i];
	return NULL;
}

double bm_rres_value(const struct bm_rres *h, const char *name, double dflt)
{
	const struct bm_rmetric *m = bm_rres_metric(h, name);

	return m ? m->value : dflt;
}

/* params is "k=v k=v": whole words only, so "bs" does not match "rbs=4k". */
const char *bm_rres_param(const struct bm_rres *h, const char *k, char *buf, size_t len)
{
	const char *p = h->params;
	size_t klen = strlen(k), vlen;

	while (*p) {
		p += strspn(p, " ");
		vlen = strcspn(p, " ");
		if (vlen > klen && !strncmp(p, k, klen) && p[klen] == '=') {
			snprintf(buf, len, "%.*s", (int)(vlen - klen - 1), p + klen + 1);
			return buf;
		}
		p += vlen;
	}
	return NULL;
}

void bm_report_label(char *buf, size_t len, const char *fs, const char *kernel)
{
	size_t i, n;

	if (!len)
		return;
	n = (size_t)snprintf(buf, len, "%s", fs && fs[0] ? fs : "?");
	for (i = 0; i < n && i < len; i++)
		buf[i] = (char)toupper((unsigned char)buf[i]);
	if (kernel && kernel[0])
		snprintf(buf + strlen(buf), len - strlen(buf), " %s", kernel);
}

void bm_kernel_short(const char *rel, char *buf, size_t len)
{
	static const char flavour[] = "-amd64";
	size_t n = strlen(rel), f = sizeof(flavour) - 1;

	/* The flavour says nothing when every kernel here is amd64. */
	if (n > f && !strcmp(rel + n - f, flavour))
		n -= f;
	snprintf(buf, len, "%.*s", (int)n, rel);
}

void bm_rres_params_without(const struct bm_rres *h, const char *k, char *buf, size_t len)
{
	const char *p = h->params;
	size_t used = 0, w, kl = strlen(k);

	buf[0] = '\0';
	while (*p) {
		p += strspn(p, " ");
		w = strcspn(p, " ");
		if (w && !(w > kl && !strncmp(p, k, kl) && p[kl] == '=') && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%.*s",
						 used ? " " : "", (int)w, p);
		p += w;
	}
}
