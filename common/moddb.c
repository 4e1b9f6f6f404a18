/* Parsing of the text index files depmod writes. */
#include "moddb.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { F_DEP, F_SOFTDEP, F_ALIAS, F_BUILTIN };
static const char *const file_names[] = {
	"modules.dep", "modules.softdep", "modules.alias", "modules.builtin",
};

int bm_mod_normalise(const char *s, int strip_path, char *out, size_t outlen)
{
	const char *slash = strip_path ? strrchr(s, '/') : NULL;
	size_t len, o = 0;
	int in_range = 0;

	if (slash)
		s = slash + 1;
	len = strlen(s);
	if (strip_path) {
		const char *ko = strstr(s, ".ko");

		if (ko && (!ko[3] || !strcmp(ko + 3, ".xz") || !strcmp(ko + 3, ".gz") ||
			   !strcmp(ko + 3, ".zst")))
			len = (size_t)(ko - s);
	}
	if (len >= outlen)
		return -ENAMETOOLONG;
	for (size_t i = 0; i < len; i++) {
		char ch = s[i];

		if (ch == '[')
			in_range = 1;
		else if (ch == ']')
			in_range = 0;
		out[o++] = ch == '-' && !in_range ? '_' : ch;
	}
	out[o] = '\0';
	return 0;
}

/* Whole file, NUL-terminated; a missing optional file reads as empty. */
static int slurp(const char *dir, const char *name, int optional, char **out,
		 size_t *lenp, char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct stat st;
	size_t got = 0;
	int fd, rc = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && optional) {
		*out = calloc(1, 1);
		return *out ? 0 : -ENOMEM;
	}
	if (fd < 0 || fstat(fd, &st)) {
		rc = -errno;
		goto out_report;
	}
	*out = malloc((size_t)st.st_size + 1);
	if (!*out) {
		rc = -ENOMEM;
		goto out_close_fd;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, *out + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = n < 0 ? -errno : -EIO;
			goto out_close_fd;
		}
		got += (size_t)n;
	}
	(*out)[got] = '\0';
	if (lenp)
		*lenp = got;
out_close_fd:
	close(fd);
out_report:
	if (rc)
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(-rc));
	return rc;
}

static int cmp_mod(const void *a, const void *b)
{
	return strcmp(((const struct bm_mod *)a)->name, ((const struct bm_mod *)b)->name);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static size_t count_lines(const char *s)
{
	size_t n = 1;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* "kernel/fs/xfs/xfs.ko.xz: kernel/lib/libcrc32c.ko.xz" */
static int parse_dep_line(struct bm_moddb *db, char *line, unsigned lineno)
{
	struct bm_mod *m = &db->mods[db->nmods];
	char *colon = strchr(line, ':'), *save, name[NAME_MAX + 1];

	if (!colon)
		return -EINVAL;
	*colon = '\0';
	if (bm_mod_normalise(line, 1, name, sizeof(name)) || !*name)
		return -EINVAL;
	memset(m, 0, sizeof(*m));
	m->path = line;
	m->line = lineno;
	m->name = strdup(name);
	m->deps = calloc(strlen(colon + 1) / 2 + 1, sizeof(*m->deps));
	db->nmods++;
	if (!m->name || !m->deps)
		return -ENOMEM;
	for (char *t = strtok_r(colon + 1, " \t", &save); t; t = strtok_r(NULL, " \t", &save))
		m->deps[m->ndeps++] = t;
	return 0;
}

static int parse_dep(struct bm_moddb *db, char *err, size_t errlen)
{
	char *save, *line;
	unsigned lineno = 0;
	int rc;

	db->mods = calloc(count_lines(db->buf[F_DEP]), sizeof(*db->mods));
	if (!db->mods)
		return -ENOMEM;
	for (line = strtok_r(db->buf[F_DEP], "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		rc = parse_dep_line(db, line, ++lineno);
		if (rc == -EINVAL)
			snprintf(err, errlen, "%s/modules.dep: bad line %u", db->dir, lineno);
		if (rc)
			return rc;
	}
	qsort(db->mods, db->nmods, sizeof(*db->mods), cmp_mod);
	for (size_t i = 1; i < db->nmods; i++) {
		if (!strcmp(db->mods[i - 1].name, db->mods[i].name)) {
			snprintf(err, errlen, "%s/modules.dep: module %s listed twice", db->dir,
				 db->mods[i].name);
			return -EINVAL;
		}
	}
	return 0;
}

/* "alias <pattern> <module>"; other lines (comments) are ignored. */
static int parse_alias(struct bm_moddb *db)
{
	char *save, *line, norm[PATH_MAX];

	db->aliases = calloc(count_lines(db->buf[F_ALIAS]), sizeof(*db->aliases));
	if (!db->aliases)
		return -ENOMEM;
	for (line = strtok_r(db->buf[F_ALIAS], "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct bm_alias *a = &db->aliases[db->naliases];
		char *s2, *kw = strtok_r(line, " \t", &s2);
		char *pat = strtok_r(NULL, " \t", &s2), *mod = strtok_r(NULL, " \t", &s2);

		if (!kw || strcmp(kw, "alias") || !pat || !mod)
			continue;
		if (bm_mod_normalise(pat, 0, norm, sizeof(norm)))
			continue;
		a->pattern = pat;
		a->module = mod;
		a->norm = strdup(norm);
		if (!a->norm)
			return -ENOMEM;
		db->naliases++;
	}
	return 0;
}

/* "softdep <module> pre: a b post: c". Names before any "pre:"/"post:" are
 * ignored, as kmod does (depmod writes such lines for some modules). */
static int parse_softdep_line(struct bm_softdep *sd, char *line)
{
	char *save, *kw = strtok_r(line, " \t", &save), *mod = strtok_r(NULL, " \t", &save);
	char name[NAME_MAX + 1];
	const char **post;
	unsigned npost = 0;
	int mode = 0;

	if (!kw || strcmp(kw, "softdep") || !mod || bm_mod_normalise(mod, 0, name, sizeof(name)))
		return 0;
	sd->module = strdup(name);
	sd->names = calloc(strlen(save ? save : "") / 2 + 1, sizeof(*sd->names));
	post = calloc(strlen(save ? save : "") / 2 + 1, sizeof(*post));
	if (!sd->module || !sd->names || !post) {
		free(post);
		return -ENOMEM;
	}
	for (char *t = strtok_r(NULL, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		if (!strcmp(t, "pre:"))
			mode = 1;
		else if (!strcmp(t, "post:"))
			mode = 2;
		else if (mode == 1)
			sd->names[sd->npre++] = t;
		else if (mode == 2)
			post[npost++] = t;
	}
	memcpy(sd->names + sd->npre, post, npost * sizeof(*post));
	sd->n = sd->npre + npost;
	free(post);
	return 1;
}

static int parse_softdep(struct bm_moddb *db)
{
	char *save, *line;

	db->softdeps = calloc(count_lines(db->buf[F_SOFTDEP]), sizeof(*db->softdeps));
	if (!db->softdeps)
		return -ENOMEM;
	for (line = strtok_r(db->buf[F_SOFTDEP], "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		int rc = parse_softdep_line(&db->softdeps[db->nsoftdeps], line);

		if (rc < 0) {
			db->nsoftdeps++; /* so bm_moddb_free releases it */
			return rc;
		}
		db->nsoftdeps += (size_t)rc;
	}
	return 0;
}

/* The buffer stays intact: modules.builtin is staged unchanged. */
static int parse_builtin(struct bm_moddb *db)
{
	const char *p = db->buf[F_BUILTIN];
	char name[PATH_MAX];

	db->builtin = calloc(count_lines(p), sizeof(*db->builtin));
	if (!db->builtin)
		return -ENOMEM;
	while (*p) {
		size_t len = strcspn(p, "\n");
		char line[PATH_MAX];

		if (len && len < sizeof(line)) {
			memcpy(line, p, len);
			line[len] = '\0';
			if (!bm_mod_normalise(line, 1, name, sizeof(name)) && *name) {
				db->builtin[db->nbuiltin] = strdup(name);
				if (!db->builtin[db->nbuiltin])
					return -ENOMEM;
				db->nbuiltin++;
			}
		}
		p += len + (p[len] == '\n');
	}
	qsort(db->builtin, db->nbuiltin, sizeof(*db->builtin), cmp_str);
	return 0;
}

int bm_moddb_load(struct bm_moddb *db, const char *dir, char *err, size_t errlen)
{
	int rc;

	memset(db, 0, sizeof(*db));
	db->dir = strdup(dir);
	if (!db->dir)
		return -ENOMEM;
	for (int i = 0; i < 4; i++) {
		rc = slurp(dir, file_names[i], i != F_DEP, &db->buf[i],
			   i == F_BUILTIN ? &db->builtin_len : NULL, err, errlen);
		if (rc)
			return rc;
	}
	rc = parse_dep(db, err, errlen);
	if (!rc)
		rc = parse_alias(db);
	if (!rc)
		rc = parse_softdep(db);
	if (!rc)
		rc = parse_builtin(db);
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory reading %s", dir);
	return rc;
}

void bm_moddb_free(struct bm_moddb *db)
{
	for (size_t i = 0; i < db->nmods; i++) {
		free(db->mods[i].name);
		free(db->mods[i].deps);
	}
	for (size_t i = 0; i < db->naliases; i++)
		free(db->aliases[i].norm);
	for (size_t i = 0; i < db->nsoftdeps; i++) {
		free(db->softdeps[i].module);
		free(db->softdeps[i].names);
	}
	for (size_t i = 0; i < db->nbuiltin; i++)
		free(db->builtin[i]);
	free(db->mods);
	free(db->aliases);
	free(db->softdeps);
	free(db->builtin);
	for (int i = 0; i < 4; i++)
		free(db->buf[i]);
	free(db->dir);
	memset(db, 0, sizeof(*db));
}

struct bm_mod *bm_moddb_find(const struct bm_moddb *db, const char *norm)
{
	struct bm_mod key = { .name = (char *)norm };

	return bsearch(&key, db->mods, db->nmods, sizeof(key), cmp_mod);
}

int bm_moddb_is_builtin(const struct bm_moddb *db, const char *norm)
{
	return bsearch(&norm, db->builtin, db->nbuiltin, sizeof(char *), cmp_str) != NULL;
}

struct bm_mod *bm_moddb_lookup(const struct bm_moddb *db, const char *name)
{
	char norm[NAME_MAX + 1];

	if (bm_mod_normalise(name, 1, norm, sizeof(norm)))
		return NULL;
	return bm_moddb_find(db, norm);
}

int bm_moddb_builtin_lookup(const struct bm_moddb *db, const char *name)
{
	char norm[NAME_MAX + 1];

	if (bm_mod_normalise(name, 1, norm, sizeof(norm)))
		return 0;
	return bm_moddb_is_builtin(db, norm);
}
