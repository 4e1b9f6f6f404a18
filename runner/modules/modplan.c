// SPDX-License-Identifier: MIT
/* Module load order (modload.h) over the index common/moddb.c parses. */
#include <errno.h>
#include <limits.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modload.h"

static int grow(void **arr, size_t *cap, size_t n, size_t size)
{
	void *p;
	size_t c;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 64;
	p = realloc(*arr, c * size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = c;
	return 0;
}

static const struct bm_softdep *find_soft(const struct bm_moddb *db, const char *norm)
{
	size_t i;

	for (i = 0; i < db->nsoftdeps; i++)
		if (!strcmp(db->softdeps[i].module, norm))
			return &db->softdeps[i];
	return NULL;
}

void mod_plan_init(struct mod_plan *p)
{
	memset(p, 0, sizeof(*p));
}

void mod_plan_free(struct mod_plan *p)
{
	free(p->step);
	free(p->seen);
	memset(p, 0, sizeof(*p));
}

static int plan_name(const struct bm_moddb *db, struct mod_plan *p, const char *name,
		     int optional, int depth, char *err, size_t errlen);

/* Softdep pre, hard dependencies (modules.dep lists them so the last loads first), self, post. */
static int plan_module(const struct bm_moddb *db, struct mod_plan *p, size_t idx,
		       int optional, int depth, char *err, size_t errlen)
{
	const struct bm_mod *m = &db->mods[idx], *d;
	const struct bm_softdep *s;
	unsigned i;
	int ret;

	if (p->seen[idx])
		return 0;
	p->seen[idx] = 1;
	s = find_soft(db, m->name);
	for (i = 0; s && i < s->npre; i++)
		plan_name(db, p, s->names[i], 1, depth + 1, err, errlen);
	for (i = m->ndeps; i-- > 0;) {
		d = bm_moddb_lookup(db, m->deps[i]);
		if (!d) {
			snprintf(err, errlen, "%s needs %s, which is not in modules.dep",
				 m->name, m->deps[i]);
			return -ENOENT;
		}
		ret = plan_module(db, p, (size_t)(d - db->mods), optional, depth + 1, err,
				  errlen);
		if (ret)
			return ret;
	}
	if (grow((void **)&p->step, &p->cap, p->n, sizeof(*p->step)))
		return -ENOMEM;
	p->step[p->n].mod = idx;
	p->step[p->n].optional = optional;
	/* what a softdep brought in, and a module with softdep pre: the serial order */
	p->step[p->n].after_all = optional || (s && s->npre);
	p->n++;
	for (i = s ? s->npre : 0; s && i < s->n; i++)
		plan_name(db, p, s->names[i], 1, depth + 1, err, errlen);
	return 0;
}

static void note_skipped(struct mod_plan *p, const char *name)
{
	size_t n = strlen(p->skipped);

	snprintf(p->skipped + n, sizeof(p->skipped) - n, "%s%s", n ? "," : "", name);
}

/* Resolves name as a module, then as alias patterns; every alias match is planned. */
static int plan_name(const struct bm_moddb *db, struct mod_plan *p, const char *name,
		     int optional, int depth, char *err, size_t errlen)
{
	char nm[NAME_MAX + 1], crypto[80];
	const struct bm_mod *m;
	size_t i;
	int found = 0, ret = 0;

	if (depth > 32) {
		snprintf(err, errlen, "module dependencies nest too deep at %s", name);
		return -ELOOP;
	}
	if (bm_moddb_builtin_lookup(db, name))
		return 0;
	m = bm_moddb_lookup(db, name);
	if (m)
		return plan_module(db, p, (size_t)(m - db->mods), optional, depth, err, errlen);
	if (bm_mod_normalise(name, 0, nm, sizeof(nm)))
		snprintf(nm, sizeof(nm), "%s", name);
	for (i = 0; i < db->naliases; i++) {
		if (fnmatch(db->aliases[i].pattern, name, 0) &&
		    fnmatch(db->aliases[i].norm, nm, 0))
			continue;
		found = 1;
		if (bm_moddb_builtin_lookup(db, db->aliases[i].module))
			continue;
		m = bm_moddb_lookup(db, db->aliases[i].module);
		if (m)
			ret = plan_module(db, p, (size_t)(m - db->mods), optional, depth, err,
					  errlen);
		if (ret)
			return ret;
	}
	if (found)
		return 0;
	/* The crypto API asks for "crypto-<alg>"; softdeps sometimes name just "<alg>". */
	if (optional && strncmp(name, "crypto-", 7)) {
		snprintf(crypto, sizeof(crypto), "crypto-%s", name);
		return plan_name(db, p, crypto, optional, depth + 1, err, errlen);
	}
	if (optional) {
		note_skipped(p, name);
		return 0;
	}
	snprintf(err, errlen, "module %s not found in %s (no module, alias or builtin)",
		 name, db->dir);
	return -ENOENT;
}

int mod_plan_add(const struct bm_moddb *db, struct mod_plan *p, const char *name,
		 char *err, size_t errlen)
{
	if (!p->seen) {
		p->seen = calloc(db->nmods ? db->nmods : 1, 1);
		if (!p->seen)
			return -ENOMEM;
	}
	return plan_name(db, p, name, 0, 0, err, errlen);
}

int mod_plan_add_list(const struct bm_moddb *db, struct mod_plan *p,
		      const char *list, char *err, size_t errlen)
{
	char buf[256], *save = NULL, *tok;
	int ret;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		ret = mod_plan_add(db, p, tok, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}
