// SPDX-License-Identifier: MIT
/* The image manifest (manifest.h): what the base and each tool archive carry. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "initrd.h"
#include "manifest.h"
#include "util.h"

#define MANIFEST_MAGIC "bootmark-image-manifest"
#define MANIFEST_VERSION 1
#define MANIFEST_MAX (1 << 20)
#define LOWER_DIGITS "abcdefghijklmnopqrstuvwxyz0123456789"

int bm_manifest_name(const char *image, char *out, size_t len)
{
	size_t n = strlen(image) - strlen(bm_initrd_zip_suffix(image));

	if (n > 5 && !strncmp(image + n - 5, ".cpio", 5))
		n -= 5;
	return bm_path(out, len, "%.*s.manifest", (int)n, image);
}

/* A name of the list format's own: a-z 0-9 _ - (mktool.sh checks the same). */
static int good_name(const char *s, size_t max)
{
	size_t n = strspn(s, LOWER_DIGITS "_-");

	return n && !s[n] && n < max;
}

/* A relative path without "..", of the characters a list can carry. */
static int good_rel(const char *s)
{
	const char *p;

	if (!s[0] || s[0] == '/' || s[strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					      "0123456789._/+-")])
		return 0;
	for (p = s; (p = strstr(p, "..")); p += 2)
		if ((p == s || p[-1] == '/') && (!p[2] || p[2] == '/'))
			return 0;
	return 1;
}

static int arch_index(const struct bm_manifest *m, const char *name)
{
	unsigned i;

	for (i = 0; i < m->narch; i++)
		if (!strcmp(m->arch[i].name, name))
			return (int)i;
	return -1;
}

/* "archive NAME PACKAGE PATH|missing" */
static int add_arch(struct bm_manifest *m, char **w, const char *dir, char *err, size_t errlen)
{
	struct bm_manifest_arch *a;

	if (m->narch == BM_MANIFEST_ARCH_MAX) {
		snprintf(err, errlen, "more than %d archives", BM_MANIFEST_ARCH_MAX);
		return -EINVAL;
	}
	if (!good_name(w[1], sizeof(a->name)) || arch_index(m, w[1]) >= 0 ||
	    (!m->narch) != !strcmp(w[1], "base")) {
		snprintf(err, errlen, "archive '%s': want a new name of a-z 0-9 _ -, base first", w[1]);
		return -EINVAL;
	}
	/* a tool archive names the Debian package a refusal tells the user to install */
	if (strlen(w[2]) >= sizeof(a->package) || (m->narch && !strchr(LOWER_DIGITS, w[2][0])) ||
	    w[2][strspn(w[2], LOWER_DIGITS "+.-")]) {
		snprintf(err, errlen, "archive %s: bad package '%s'", w[1], w[2]);
		return -EINVAL;
	}
	if (strcmp(w[3], "missing") && !good_rel(w[3])) {
		snprintf(err, errlen, "archive %s: bad path '%s' (relative, no '..')", w[1], w[3]);
		return -EINVAL;
	}
	a = &m->arch[m->narch];
	snprintf(a->name, sizeof(a->name), "%s", w[1]);
	snprintf(a->package, sizeof(a->package), "%s", w[2]);
	a->path[0] = '\0';
	if (strcmp(w[3], "missing") && bm_path(a->path, sizeof(a->path), "%s/%s", dir, w[3])) {
		snprintf(err, errlen, "archive %s: path too long", w[1]);
		return -EINVAL;
	}
	m->narch++;
	return 0;
}

/* "file ARCHIVE PATH" */
static int add_file(struct bm_manifest *m, char **w, char *err, size_t errlen)
{
	struct bm_manifest_file *f;
	int a = arch_index(m, w[1]);

	if (a < 0) {
		snprintf(err, errlen, "file %s: no archive '%s' before it", w[2], w[1]);
		return -EINVAL;
	}
	if (w[2][0] != '/' || strlen(w[2]) >= sizeof(f->path)) {
		snprintf(err, errlen, "file '%s': want an absolute path below %zu bytes", w[2],
			 sizeof(f->path));
		return -EINVAL;
	}
	if (m->nfile == BM_MANIFEST_FILE_MAX) {
		snprintf(err, errlen, "more than %d files", BM_MANIFEST_FILE_MAX);
		return -EINVAL;
	}
	f = &m->file[m->nfile++];
	snprintf(f->path, sizeof(f->path), "%s", w[2]);
	f->arch = (unsigned)a;
	return 0;
}

/* One line's words into w (at most max), in place; their count. */
static int split(char *line, char **w, int max)
{
	char *save = NULL, *tok;
	int n = 0;

	for (tok = strtok_r(line, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
		if (n == max)
			return max + 1;
		w[n++] = tok;
	}
	return n;
}

static int parse_line(struct bm_manifest *m, char *line, int first, const char *dir,
		      char *err, size_t errlen)
{
	char *w[5];
	int n = split(line, w, 4);

	if (first) {
		if (n == 2 && !strcmp(w[0], MANIFEST_MAGIC) && !strcmp(w[1], "1"))
			return 0;
		snprintf(err, errlen, "not a manifest of version %d (\"" MANIFEST_MAGIC " %d\")",
			 MANIFEST_VERSION, MANIFEST_VERSION);
		return -EINVAL;
	}
	if (!n || w[0][0] == '#')
		return 0;
	if (n == 4 && !strcmp(w[0], "archive"))
		return add_arch(m, w, dir, err, errlen);
	if (n == 3 && !strcmp(w[0], "file"))
		return add_file(m, w, err, errlen);
	snprintf(err, errlen, "want 'archive NAME PACKAGE PATH' or 'file ARCHIVE PATH'");
	return -EINVAL;
}

int bm_manifest_parse(struct bm_manifest *m, const char *text, const char *dir,
		      char *err, size_t errlen)
{
	char *copy = strdup(text), *line, *next, why[256];
	int no = 0, rc = 0;

	if (!copy)
		return -ENOMEM;
	m->narch = m->nfile = 0;
	for (line = copy; !rc && line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!next && !line[0])
			break;
		rc = parse_line(m, line, !no++, dir, why, sizeof(why));
		if (rc)
			snprintf(err, errlen, "line %d: %s", no, why);
	}
	if (!rc && !m->narch) {
		snprintf(err, errlen, "%s", no ? "no archive 'base'" : "empty");
		rc = -EINVAL;
	}
	free(copy);
	return rc;
}

int bm_manifest_load(struct bm_manifest *m, const char *path, char *err, size_t errlen)
{
	char dir[PATH_MAX], *text = NULL, *slash;
	size_t len = 0;
	int rc;

	rc = bm_path(dir, sizeof(dir), "%s", path);
	if (rc)
		return rc;
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	rc = bm_read_file(path, &text, &len, MANIFEST_MAX);
	if (rc) {
		snprintf(err, errlen, "%s", strerror(-rc));
		return rc;
	}
	if (strlen(text) != len) {
		snprintf(err, errlen, "a NUL byte in it");
		rc = -EINVAL;
	} else {
		rc = bm_manifest_parse(m, text, dir, err, errlen);
	}
	free(text);
	return rc;
}

static int find_path(const struct bm_manifest *m, const char *path)
{
	unsigned i;

	for (i = 0; i < m->nfile; i++)
		if (!strcmp(m->file[i].path, path))
			return (int)i;
	return -ENOENT;
}

int bm_manifest_find(const struct bm_manifest *m, const char *prog)
{
	char dirs[] = BM_MKFS_PATH, path[256], *save = NULL, *d;
	int i;

	if (!prog[0])
		return -ENOENT;
	if (strchr(prog, '/'))
		return find_path(m, prog);
	for (d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		if (bm_path(path, sizeof(path), "%s/%s", d, prog))
			return -ENOENT;
		i = find_path(m, path);
		if (i >= 0)
			return i;
	}
	return -ENOENT;
}

int bm_manifest_mkfs(const struct bm_manifest *m, const struct bm_fsprof *p,
		     const struct bm_manifest_arch **arch, char *err, size_t errlen)
{
	char prog[256];
	const struct bm_manifest_arch *a;
	int i;

	*arch = NULL;
	snprintf(prog, sizeof(prog), "%.*s", (int)strcspn(p->mkfs, " \t"), p->mkfs);
	i = bm_manifest_find(m, prog);
	if (i < 0) {
		snprintf(err, errlen, "%s is not in the image: neither the base nor a tool list "
			 "(initramfs/tools/*.list) carries it; add a list naming its Debian "
			 "package and run make (docs/filesystems.md)", prog);
		return -ENOENT;
	}
	a = &m->arch[m->file[i].arch];
	if (m->file[i].arch == 0)
		return 0;
	if (!a->path[0]) {
		snprintf(err, errlen, "%s is not in the image: install %s (make deps) and run make",
			 prog, a->package);
		return -ENOENT;
	}
	*arch = a;
	return 0;
}
