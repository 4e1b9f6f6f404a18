// SPDX-License-Identifier: MIT
/* Parses depmod's index files and computes module load order (modload.h). */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modload.h"
#include "profile.h"

#define INDEX_MAX (64u << 20)   /* a full Debian modules.alias is ~1.5 MB */

static void normalise(char *s)
{
	for (; *s; s++)
		if (*s == '-')
			*s = '_';
}

/* "kernel/fs/ext4/ext4.ko.xz" -> "ext4" in out. */
static void name_from_path(const char *path, char *out, size_t len)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strcspn(base, ".");
	if (n >= len)
		n = len - 1;
	memcpy(out, base, n);
	out[n] = '\0';
	normalise(out);
}

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

/* Splits s at spaces/tabs in place; returns the word count (max words). */
static unsigned split_words(char *s, char **w, unsigned max)
{
	unsigned n = 0;
	char *save = NULL, *tok;

	for (tok = strtok_r(s, " \t\r", &save); tok && n < max;
	     tok = strtok_r(NULL, " \t\r", &save))
		w[n++] = tok;
	return n;
}

static int parse_dep_line(struct modidx *mi, size_t *cap, char *line)
{
	char *colon = strchr(line, ':'), *w[256], nm[64];
	struct mod_entry *m;
	unsigned n, i;

	if (!colon)
		return 0;
	*colon = '\0';
	n = split_words(colon + 1, w, 256);
	if (grow((void **)&mi->mods, cap, mi->nmods, sizeof(*m)))
		return -ENOMEM;
	m = &mi->mods[mi->nmods];
	memset(m, 0, sizeof(*m));
	m->path = line;
	name_from_path(line, nm, sizeof(nm));
	m->name = strdup(nm);
	m->deps = n ? calloc(n, sizeof(char *)) : NULL;
	if (!m->name || (n && !m->deps))
		return -ENOMEM;
	for (i = 0; i < n; i++)
		m->deps[i] = w[i];
	m->ndeps = n;
	mi->nmods++;
	return 0;
}

static int parse_alias_line(struct modidx *mi, size_t *cap, char *line)
{
	char *w[3];

	if (split_words(line, w, 3) != 3 || strcmp(w[0], "alias"))
		return 0;
	if (grow((void **)&mi->aliases, cap, mi->naliases, sizeof(*mi->aliases)))
		return -ENOMEM;
	normalise(w[2]);
	mi->aliases[mi->naliases].pattern = w[1];
	mi->aliases[mi->naliases].module = w[2];
	mi->naliases++;
	return 0;
}

/* "softdep ext4 pre: crypto-crc32c post: x"; words before pre:/post: are ignored, as kmod does. */
static int parse_softdep_line(struct modidx *mi, size_t *cap, char *line)
{
	char *w[64];
	unsigned n = split_words(line, w, 64), i;
	struct mod_softdep *s;
	int mode = 0;

	if (n < 3 || strcmp(w[0], "softdep"))
		return 0;
	if (grow((void **)&mi->soft, cap, mi->nsoft, sizeof(*s)))
		return -ENOMEM;
	s = &mi->soft[mi->nsoft];
	memset(s, 0, sizeof(*s));
	normalise(w[1]);
	s->module = w[1];
	s->pre = calloc(n, sizeof(char *));
	s->post = calloc(n, sizeof(char *));
	if (!s->pre || !s->post)
		return -ENOMEM;
	for (i = 2; i < n; i++) {
		if (!strcmp(w[i], "pre:"))
			mode = 1;
		else if (!strcmp(w[i], "post:"))
			mode = 2;
		else if (mode == 1)
			s->pre[s->npre++] = w[i];
		else if (mode == 2)
			s->post[s->npost++] = w[i];
	}
	mi->nsoft++;
	return 0;
}

static int parse_builtin_line(struct modidx *mi, size_t *cap, char *line)
{
	char nm[64];

	if (!*line)
		return 0;
	if (grow((void **)&mi->builtin, cap, mi->nbuiltin, sizeof(char *)))
		return -ENOMEM;
	name_from_path(line, nm, sizeof(nm));
	mi->builtin[mi->nbuiltin] = strdup(nm);
	if (!mi->builtin[mi->nbuiltin])
		return -ENOMEM;
	mi->nbuiltin++;
	return 0;
}

typedef int (*line_fn)(struct modidx *mi, size_t *cap, char *line);

static int parse_file(struct modidx *mi, int slot, const char *file, int required,
		      line_fn fn, char *err, size_t errlen)
{
	char path[512], *line, *next;
	size_t cap = 0;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", mi->dir, file);
	ret = bm_read_file(path, &mi->text[slot], NULL, INDEX_MAX);
	if (ret == -ENOENT && !required)
		return 0;
	if (ret) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(-ret));
		return ret;
	}
	for (line = mi->text[slot]; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (*line == '#')
			continue;
		ret = fn(mi, &cap, line);
		if (ret) {
			snprintf(err, errlen, "%s: %s", path, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

int modidx_load(struct modidx *mi, const char *dir, char *err, size_t errlen)
{
	int ret;

	memset(mi, 0, sizeof(*mi));
	snprintf(mi->dir, sizeof(mi->dir), "%s", dir);
	ret = parse_file(mi, 0, "modules.dep", 1, parse_dep_line, err, errlen);
	if (!ret)
		ret = parse_file(mi, 1, "modules.alias", 0, parse_alias_line, err, errlen);
	if (!ret)
		ret = parse_file(mi, 2, "modules.softdep", 0, parse_softdep_line, err, errlen);
	if (!ret)
		ret = parse_file(mi, 3, "modules.builtin", 0, parse_builtin_line, err, errlen);
	if (ret)
		modidx_free(mi);
	return ret;
}

void modidx_free(struct modidx *mi)
{
	size_t i;

	for (i = 0; i < mi->nmods; i++) {
		free(mi->mods[i].name);
		free(mi->mods[i].deps);
	}
	for (i = 0; i < mi->nsoft; i++) {
		free(mi->soft[i].pre);
		free(mi->soft[i].post);
	}
	for (i = 0; i < mi->nbuiltin; i++)
		free(mi->builtin[i]);
	for (i = 0; i < 4; i++)
		free(mi->text[i]);
	free(mi->mods);
	free(mi->aliases);
	free(mi->soft);
	free(mi->builtin);
	memset(mi, 0, sizeof(*mi));
}

long modidx_find(const struct modidx *mi, const char *name)
{
	char nm[64];
	size_t i;

	snprintf(nm, sizeof(nm), "%s", name);
	normalise(nm);
	for (i = 0; i < mi->nmods; i++)
		if (!strcmp(mi->mods[i].name, nm))
			return (long)i;
	return -1;
}

int modidx_is_builtin(const struct modidx *mi, const char *name)
{
	char nm[64];
	size_t i;

	snprintf(nm, sizeof(nm), "%s", name);
	normalise(nm);
	for (i = 0; i < mi->nbuiltin; i++)
		if (!strcmp(mi->builtin[i], nm))
			return 1;
	return 0;
}

static long find_path(const struct modidx *mi, const char *path)
{
	size_t i;

	for (i = 0; i < mi->nmods; i++)
		if (!strcmp(mi->mods[i].path, path))
			return (long)i;
	return -1;
}

static const struct mod_softdep *find_soft(const struct modidx *mi, const char *name)
{
	size_t i;

	for (i = 0; i < mi->nsoft; i++)
		if (!strcmp(mi->soft[i].module, name))
			return &mi->soft[i];
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

static int plan_name(const struct modidx *mi, struct mod_plan *p, const char *name,
		     int optional, int depth, char *err, size_t errlen);

/* Softdep pre, hard dependencies (modules.dep lists them so the last loads first), self, post. */
static int plan_module(const struct modidx *mi, struct mod_plan *p, size_t idx,
		       int optional, int depth, char *err, size_t errlen)
{
	const struct mod_entry *m = &mi->mods[idx];
	const struct mod_softdep *s;
	unsigned i;
	long d;
	int ret;

	if (p->seen[idx])
		return 0;
	p->seen[idx] = 1;
	s = find_soft(mi, m->name);
	for (i = 0; s && i < s->npre; i++)
		plan_name(mi, p, s->pre[i], 1, depth + 1, err, errlen);
	for (i = m->ndeps; i-- > 0;) {
		d = find_path(mi, m->deps[i]);
		if (d < 0) {
			snprintf(err, errlen, "%s needs %s, which is not in modules.dep",
				 m->name, m->deps[i]);
			return -ENOENT;
		}
		ret = plan_module(mi, p, (size_t)d, optional, depth + 1, err, errlen);
		if (ret)
			return ret;
	}
	if (grow((void **)&p->step, &p->cap, p->n, sizeof(*p->step)))
		return -ENOMEM;
	p->step[p->n].mod = idx;
	p->step[p->n].optional = optional;
	p->n++;
	for (i = 0; s && i < s->npost; i++)
		plan_name(mi, p, s->post[i], 1, depth + 1, err, errlen);
	return 0;
}

static void note_skipped(struct mod_plan *p, const char *name)
{
	size_t n = strlen(p->skipped);

	snprintf(p->skipped + n, sizeof(p->skipped) - n, "%s%s", n ? "," : "", name);
}

/* Resolves name as a module, then as alias patterns; every alias match is planned. */
static int plan_name(const struct modidx *mi, struct mod_plan *p, const char *name,
		     int optional, int depth, char *err, size_t errlen)
{
	char nm[64], crypto[80];
	long idx;
	size_t i;
	int found = 0, ret = 0;

	if (depth > 32) {
		snprintf(err, errlen, "module dependencies nest too deep at %s", name);
		return -ELOOP;
	}
	if (modidx_is_builtin(mi, name))
		return 0;
	idx = modidx_find(mi, name);
	if (idx >= 0)
		return plan_module(mi, p, (size_t)idx, optional, depth, err, errlen);
	snprintf(nm, sizeof(nm), "%s", name);
	normalise(nm);
	for (i = 0; i < mi->naliases; i++) {
		if (fnmatch(mi->aliases[i].pattern, name, 0) &&
		    fnmatch(mi->aliases[i].pattern, nm, 0))
			continue;
		found = 1;
		if (modidx_is_builtin(mi, mi->aliases[i].module))
			continue;
		idx = modidx_find(mi, mi->aliases[i].module);
		if (idx >= 0)
			ret = plan_module(mi, p, (size_t)idx, optional, depth, err, errlen);
		if (ret)
			return ret;
	}
	if (found)
		return 0;
	/* The crypto API asks for "crypto-<alg>"; softdeps sometimes name just "<alg>". */
	if (optional && strncmp(name, "crypto-", 7)) {
		snprintf(crypto, sizeof(crypto), "crypto-%s", name);
		return plan_name(mi, p, crypto, optional, depth + 1, err, errlen);
	}
	if (optional) {
		note_skipped(p, name);
		return 0;
	}
	snprintf(err, errlen, "module %s not found in %s (no module, alias or builtin)",
		 name, mi->dir);
	return -ENOENT;
}

int mod_plan_add(const struct modidx *mi, struct mod_plan *p, const char *name,
		 char *err, size_t errlen)
{
	if (!p->seen) {
		p->seen = calloc(mi->nmods ? mi->nmods : 1, 1);
		if (!p->seen)
			return -ENOMEM;
	}
	return plan_name(mi, p, name, 0, 0, err, errlen);
}

int mod_plan_add_list(const struct modidx *mi, struct mod_plan *p,
		      const char *list, char *err, size_t errlen)
{
	char buf[256], *save = NULL, *tok;
	int ret;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		ret = mod_plan_add(mi, p, tok, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}
