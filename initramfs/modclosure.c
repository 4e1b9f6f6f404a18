/* Module closure: mark what the wanted modules need, then stage and list it. */
#include "modclosure.h"
#include "moddb.h"
#include "cpio.h"
#include "modplain.h"

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* bm_mod.in: 0 out, 1 in the image as the kernel ships it, 2 in it uncompressed */
#define MARK_IN    1
#define MARK_PLAIN 2

static int include_mod(struct bm_moddb *db, struct bm_mod *m, int mark, char *err, size_t errlen);

/* Calls include_mod for every module name resolves to: the module itself, or
 * every module an alias matching it names. Returns 1 if name was satisfied
 * (builtin counts), 0 if nothing matched, -errno on error.  mark: what m->in
 * becomes, 1 in the image, 2 in it uncompressed (MARK_PLAIN). */
static int include_name(struct bm_moddb *db, const char *name, int mark, char *err,
			size_t errlen)
{
	char norm[PATH_MAX], target[NAME_MAX + 1];
	struct bm_mod *m;
	int found = 0, rc;

	if (bm_mod_normalise(name, 0, norm, sizeof(norm)))
		return 0;
	m = bm_moddb_find(db, norm);
	if (m) {
		rc = include_mod(db, m, mark, err, errlen);
		return rc ? rc : 1;
	}
	if (bm_moddb_is_builtin(db, norm))
		return 1;
	for (size_t i = 0; i < db->naliases; i++) {
		const struct bm_alias *a = &db->aliases[i];

		if (fnmatch(a->norm, norm, 0) ||
		    bm_mod_normalise(a->module, 0, target, sizeof(target)))
			continue;
		m = bm_moddb_find(db, target);
		if (m) {
			rc = include_mod(db, m, mark, err, errlen);
			if (rc)
				return rc;
			found = 1;
		} else if (bm_moddb_is_builtin(db, target)) {
			found = 1;
		}
	}
	return found;
}

static int include_mod(struct bm_moddb *db, struct bm_mod *m, int mark, char *err, size_t errlen)
{
	char norm[NAME_MAX + 1];
	int rc;

	if (m->in >= mark)
		return 0;
	m->in = mark; /* before recursing: softdeps may form cycles */
	for (unsigned i = 0; i < m->ndeps; i++) {
		struct bm_mod *d = NULL;

		if (!bm_mod_normalise(m->deps[i], 1, norm, sizeof(norm)))
			d = bm_moddb_find(db, norm);
		if (!d) {
			snprintf(err, errlen, "%s/modules.dep: %s needs %s, which has no line",
				 db->dir, m->name, m->deps[i]);
			return -EINVAL;
		}
		rc = include_mod(db, d, mark, err, errlen);
		if (rc)
			return rc;
	}
	for (size_t i = 0; i < db->nsoftdeps; i++) {
		const struct bm_softdep *sd = &db->softdeps[i];

		if (strcmp(sd->module, m->name))
			continue;
		for (unsigned j = 0; j < sd->n; j++) {
			rc = include_name(db, sd->names[j], mark, err, errlen);
			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

static int include_wanted(struct bm_moddb *db, const char *const *wanted, unsigned nwanted,
			  int mark, char *err, size_t errlen)
{
	for (unsigned i = 0; i < nwanted; i++) {
		char name[NAME_MAX + 1];
		size_t len = strlen(wanted[i]);
		int optional = len && wanted[i][len - 1] == '?', rc;

		len -= (size_t)optional;
		if (!len || len >= sizeof(name)) {
			snprintf(err, errlen, "bad module name '%s'", wanted[i]);
			return -EINVAL;
		}
		memcpy(name, wanted[i], len);
		name[len] = '\0';
		rc = include_name(db, name, mark, err, errlen);
		if (rc < 0)
			return rc;
		if (!rc && !optional) {
			snprintf(err, errlen, "module %s is neither in %s/modules.dep nor builtin",
				 name, db->dir);
			return -ENOENT;
		}
	}
	return 0;
}

/* Like include_name, but only asks whether name is already satisfied. */
static int name_present(const struct bm_moddb *db, const char *name)
{
	char norm[PATH_MAX], target[NAME_MAX + 1];
	struct bm_mod *m;

	if (bm_mod_normalise(name, 0, norm, sizeof(norm)))
		return 0;
	m = bm_moddb_find(db, norm);
	if (m || bm_moddb_is_builtin(db, norm))
		return !m || m->in;
	for (size_t i = 0; i < db->naliases; i++) {
		if (fnmatch(db->aliases[i].norm, norm, 0) ||
		    bm_mod_normalise(db->aliases[i].module, 0, target, sizeof(target)))
			continue;
		m = bm_moddb_find(db, target);
		if ((m && m->in) || (!m && bm_moddb_is_builtin(db, target)))
			return 1;
	}
	return 0;
}

static void put_softdep(FILE *f, const struct bm_moddb *db, const struct bm_softdep *sd)
{
	int pre = 0, post = 0;

	for (unsigned j = 0; j < sd->n; j++) {
		if (!name_present(db, sd->names[j]))
			continue;
		if (!pre && !post)
			fprintf(f, "softdep %s", sd->module);
		if (j < sd->npre && !pre++)
			fputs(" pre:", f);
		else if (j >= sd->npre && !post++)
			fputs(" post:", f);
		fprintf(f, " %s", sd->names[j]);
	}
	if (pre || post)
		fputc('\n', f);
}

static int cmp_line(const void *a, const void *b)
{
	const struct bm_mod *x = *(struct bm_mod *const *)a, *y = *(struct bm_mod *const *)b;

	return (x->line > y->line) - (x->line < y->line);
}

/* The modules in the closure, in modules.dep order. */
static struct bm_mod **closure(const struct bm_moddb *db, size_t *n)
{
	struct bm_mod **v = calloc(db->nmods + 1, sizeof(*v));

	*n = 0;
	if (!v)
		return NULL;
	for (size_t i = 0; i < db->nmods; i++)
		if (db->mods[i].in)
			v[(*n)++] = &db->mods[i];
	qsort(v, *n, sizeof(*v), cmp_line);
	return v;
}

/*
 * How the image carries a module (modplain.h): a boot module uncompressed, any
 * other module the kernel ships uncompressed xz-compressed (the kernel's
 * unpack of the image is then smaller), the rest as the kernel ships them.
 */
enum form { FORM_ASIS, FORM_PLAIN, FORM_XZ };

static enum form image_form(const struct bm_mod *m)
{
	size_t n = strlen(m->path);

	if (bm_modplain_suffix(m->path))
		return m->in == MARK_PLAIN ? FORM_PLAIN : FORM_ASIS;
	if (m->in == MARK_PLAIN || n < 3 || strcmp(m->path + n - 3, ".ko"))
		return FORM_ASIS;
	return FORM_XZ;
}

/* path (m's, in modules.dep or on the host) as the image names it */
static void form_path(const struct bm_mod *m, const char *path, char *out, size_t len)
{
	switch (image_form(m)) {
	case FORM_PLAIN:
		bm_modplain_path(path, out, len);
		break;
	case FORM_XZ:
		snprintf(out, len, "%s.xz", path);
		break;
	default:
		snprintf(out, len, "%s", path);
	}
}

/* A modules.dep path as the image has it. */
static const char *image_path(const struct bm_moddb *db, const char *path, char *buf,
			      size_t len)
{
	char norm[NAME_MAX + 1];
	const struct bm_mod *m = NULL;

	if (!bm_mod_normalise(path, 1, norm, sizeof(norm)))
		m = bm_moddb_find(db, norm);
	if (!m)
		return path;
	form_path(m, path, buf, len);
	return buf;
}

/* The boot index (BM_MODULES_BOOT_DIR) being written: its paths are in full,
 * as depmod writes a module outside the release's directory, and its
 * builtin list holds only what planning the boot modules looks up. */
struct boot_index {
	char prefix[PATH_MAX];      /* "/lib/modules/<release>/" */
	const char *const *names;   /* the boot modules, as bootmark.conf names them */
	unsigned nnames;
};

/* A modules.dep path as the image has it (in full in the boot index). */
static void put_dep_path(FILE *f, const char *sep, const struct bm_moddb *db,
			 const char *path, const struct boot_index *boot)
{
	char p[PATH_MAX];
	const char *ip = image_path(db, path, p, sizeof(p));

	fprintf(f, "%s%s%s", sep, boot && ip[0] != '/' ? boot->prefix : "", ip);
}

/* A name as bootmark.conf or a softdep writes it, normalised, without the
 * "?" of an optional one: 0, or -ENAMETOOLONG. */
static int wanted_norm(const char *name, char *norm, size_t len)
{
	int rc = bm_mod_normalise(name, 0, norm, len);

	if (!rc)
		norm[strcspn(norm, "?")] = '\0';
	return rc;
}

/* Whether name (normalised) is one of names. */
static int among(const char *name, const char *const *names, unsigned n)
{
	char norm[NAME_MAX + 1];

	for (unsigned i = 0; i < n; i++)
		if (!wanted_norm(names[i], norm, sizeof(norm)) && !strcmp(norm, name))
			return 1;
	return 0;
}

/* Whether planning the boot modules looks name up among the builtin ones:
 * a boot module's name, or a softdep of a module of the boot closure. */
static int boot_looks_up(const struct bm_moddb *db, struct bm_mod **v, size_t n,
			 const struct boot_index *boot, const char *name)
{
	if (among(name, boot->names, boot->nnames))
		return 1;
	for (size_t i = 0; i < db->nsoftdeps; i++)
		for (size_t k = 0; k < n; k++)
			if (!strcmp(db->softdeps[i].module, v[k]->name) &&
			    among(name, db->softdeps[i].names, db->softdeps[i].n))
				return 1;
	return 0;
}

/* modules.builtin's lines that the boot index needs (boot_looks_up). */
static void put_boot_builtin(FILE *f, const struct bm_moddb *db, struct bm_mod **v, size_t n,
			     const struct boot_index *boot)
{
	const char *p = db->buf[3], *end = p + db->builtin_len;
	char line[PATH_MAX], name[NAME_MAX + 1];

	while (p < end) {
		size_t len = strcspn(p, "\n");

		if (len && len < sizeof(line)) {
			memcpy(line, p, len);
			line[len] = '\0';
			if (!bm_mod_normalise(line, 1, name, sizeof(name)) &&
			    boot_looks_up(db, v, n, boot, name))
				fprintf(f, "%s\n", line);
		}
		p += len + (p[len] == '\n');
	}
}

/* One of the index files, trimmed to v: the closure (mark MARK_IN, boot
 * NULL) or the boot closure (MARK_PLAIN). */
static void put_index(FILE *f, int which, const struct bm_moddb *db, struct bm_mod **v,
		      size_t n, int mark, const struct boot_index *boot)
{
	char target[NAME_MAX + 1];
	struct bm_mod *m;

	if (which == 0) {
		for (size_t i = 0; i < n; i++) {
			put_dep_path(f, "", db, v[i]->path, boot);
			fputc(':', f);
			for (unsigned j = 0; j < v[i]->ndeps; j++)
				put_dep_path(f, " ", db, v[i]->deps[j], boot);
			fputc('\n', f);
		}
	} else if (which == 1) {
		fputs("# Soft dependencies, trimmed to the modules in this image.\n", f);
		for (size_t i = 0; i < db->nsoftdeps; i++) {
			m = bm_moddb_find(db, db->softdeps[i].module);
			if (m && m->in >= mark)
				put_softdep(f, db, &db->softdeps[i]);
		}
	} else if (which == 2) {
		fputs("# Aliases, trimmed to the modules in this image.\n", f);
		for (size_t i = 0; i < db->naliases; i++) {
			const struct bm_alias *a = &db->aliases[i];

			if (bm_mod_normalise(a->module, 0, target, sizeof(target)))
				continue;
			m = bm_moddb_find(db, target);
			if (m && m->in >= mark)
				fprintf(f, "alias %s %s\n", a->pattern, a->module);
		}
	} else if (!boot) {
		fwrite(db->buf[3], 1, db->builtin_len, f);
	} else {
		put_boot_builtin(f, db, v, n, boot);
	}
}

static const char *const staged[] = {
	"modules.dep", "modules.softdep", "modules.alias", "modules.builtin",
};

/* Where a module file is on the host (m's file under root), and in the image. */
static void module_paths(const char *root, const char *release, const struct bm_mod *m,
			 char *ipath, char *host, size_t len)
{
	/* depmod writes paths outside the release directory in full */
	if (m->path[0] == '/')
		snprintf(ipath, len, "%s", m->path);
	else
		snprintf(ipath, len, "/lib/modules/%s/%s", release, m->path);
	snprintf(host, len, "%s%s", root, ipath);
}

/* A module's copy in its image form: stage_dir/<its file name, as the image names it>. */
static int stage_copy(const char *dir, const struct bm_mod *m, char *out, size_t len)
{
	char name[NAME_MAX + 1];
	const char *base = strrchr(m->path, '/');

	form_path(m, base ? base + 1 : m->path, name, sizeof(name));
	return (size_t)snprintf(out, len, "%s/%s", dir, name) < len ? 0 : -ENAMETOOLONG;
}

static int stage_forms(const char *dir, const char *root, const char *release,
		       struct bm_mod **v, size_t n, char *err, size_t errlen)
{
	char ipath[PATH_MAX], host[PATH_MAX], out[PATH_MAX];
	enum form f;
	int rc;

	for (size_t i = 0; i < n; i++) {
		f = image_form(v[i]);
		if (f == FORM_ASIS)
			continue;
		module_paths(root, release, v[i], ipath, host, sizeof(host));
		rc = stage_copy(dir, v[i], out, sizeof(out));
		if (rc) {
			snprintf(err, errlen, "path too long: %s", dir);
			return rc;
		}
		if (f == FORM_PLAIN)
			rc = bm_modplain_write(host, out, err, errlen);
		else
			rc = bm_modplain_pack(host, out, err, errlen);
		if (rc)
			return rc;
	}
	return 0;
}

/* The four index files in dir, trimmed to v (put_index). */
static int write_index(const char *dir, const struct bm_moddb *db, struct bm_mod **v, size_t n,
		       int mark, const struct boot_index *boot, char *err, size_t errlen)
{
	char path[PATH_MAX];

	if (mkdir(dir, 0755) && errno != EEXIST) {
		int rc = -errno;

		snprintf(err, errlen, "cannot create %s: %s", dir, strerror(-rc));
		return rc;
	}
	for (int i = 0; i < 4; i++) {
		FILE *f;
		int rc = 0;

		snprintf(path, sizeof(path), "%s/%s", dir, staged[i]);
		f = fopen(path, "we");
		if (!f) {
			rc = -errno;
			snprintf(err, errlen, "cannot open %s: %s", path, strerror(-rc));
			return rc;
		}
		put_index(f, i, db, v, n, mark, boot);
		if (ferror(f))
			rc = -EIO;
		if (fclose(f) && !rc)
			rc = -errno;
		if (rc) {
			snprintf(err, errlen, "cannot write %s: %s", path, strerror(-rc));
			return rc;
		}
	}
	return 0;
}

/*
 * The boot modules of v (MARK_PLAIN) to boot: the ones bootmark.conf names
 * first, in its order, then what they need in v's; their number.  The
 * runner plans the boot index line by line (runner/modules/modpre.c), so
 * it plans what the configuration names in the configuration's order, as
 * it would plan `modules` on the whole index: on 6.1 virtio_pci, the one
 * whose probe finds the disk, before virtio_blk.
 */
static void boot_add(struct bm_mod **boot, size_t *nb, struct bm_mod *m)
{
	size_t k;

	if (!m || m->in != MARK_PLAIN)
		return;
	for (k = 0; k < *nb && boot[k] != m; k++)
		;
	if (k == *nb)
		boot[(*nb)++] = m;
}

static size_t boot_subset(const struct bm_moddb *db, struct bm_mod **v, size_t n,
			  const char *const *names, unsigned nnames, struct bm_mod **boot)
{
	char norm[NAME_MAX + 1];
	size_t nb = 0;

	for (unsigned i = 0; i < nnames; i++)
		if (!wanted_norm(names[i], norm, sizeof(norm)))
			boot_add(boot, &nb, bm_moddb_find(db, norm));
	for (size_t i = 0; i < n; i++)
		boot_add(boot, &nb, v[i]);
	return nb;
}

/*
 * The image's index, and its boot index (BM_MODULES_BOOT_DIR): the same
 * files trimmed to the boot modules and what they need, read by the runner
 * to load them before its configuration is read (runner/modules/modpre.c)
 * without parsing the whole index first.
 */
static int stage(const char *dir, const char *root, const char *release,
		 const struct bm_moddb *db, struct bm_mod **v, size_t n,
		 const char *const *plain, unsigned nplain, char *err, size_t errlen)
{
	struct boot_index boot = { .names = plain, .nnames = nplain };
	char bdir[PATH_MAX];
	struct bm_mod **vb = calloc(n + 1, sizeof(*vb));
	size_t nb = vb ? boot_subset(db, v, n, plain, nplain, vb) : 0;
	int rc;

	if (!vb) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	rc = write_index(dir, db, v, n, MARK_IN, NULL, err, errlen);
	if (!rc && nplain) {
		snprintf(bdir, sizeof(bdir), "%s/%s", dir, BM_MODULES_BOOT_DIR);
		snprintf(boot.prefix, sizeof(boot.prefix), "/lib/modules/%s/", release);
		rc = write_index(bdir, db, vb, nb, MARK_PLAIN, &boot, err, errlen);
	}
	free(vb);
	return rc ? rc : stage_forms(dir, root, release, v, n, err, errlen);
}

struct lines {
	char **v;
	size_t n, cap;
};

static int lines_add(struct lines *l, const char *fmt, const char *path, const char *host)
{
	char *s;

	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		char **p = realloc(l->v, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		l->v = p;
		l->cap = cap;
	}
	if (asprintf(&s, fmt, path, host) < 0)
		return -ENOMEM;
	l->v[l->n++] = s;
	return 0;
}

/* Sort by the path, the second field. */
static int cmp_entry(const void *a, const void *b)
{
	const char *x = strchr(*(char *const *)a, ' ') + 1;
	const char *y = strchr(*(char *const *)b, ' ') + 1;
	size_t lx = strcspn(x, " "), ly = strcspn(y, " ");
	int c = strncmp(x, y, lx < ly ? lx : ly);

	return c ? c : (lx > ly) - (lx < ly);
}

/* A file entry at image path ipath, plus a dir entry for every ancestor. */
static int add_file(struct lines *l, const char *ipath, const char *host)
{
	char dir[PATH_MAX];
	int rc;

	if (strpbrk(ipath, " \t\n") || strpbrk(host, " \t\n") || bm_cpio_check_path(ipath) ||
	    strlen(ipath) >= sizeof(dir))
		return -EINVAL;
	strcpy(dir, ipath);
	for (char *s = strchr(dir + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		rc = lines_add(l, "dir %s 0755 0 0%s", dir, "");
		*s = '/';
		if (rc)
			return rc;
	}
	return lines_add(l, "file %s %s 0644 0 0", ipath, host);
}

static int add_module(struct lines *l, const char *root, const char *release,
		      const char *stage_dir, const struct bm_mod *m, char *err, size_t errlen)
{
	char ipath[PATH_MAX], host[PATH_MAX];
	struct stat st;
	int rc;

	module_paths(root, release, m, ipath, host, sizeof(host));
	if (image_form(m) != FORM_ASIS) {
		form_path(m, ipath, host, sizeof(host));
		snprintf(ipath, sizeof(ipath), "%s", host);
		if (stage_copy(stage_dir, m, host, sizeof(host))) {
			snprintf(err, errlen, "path too long: %s", stage_dir);
			return -ENAMETOOLONG;
		}
	}
	errno = 0;
	if (stat(host, &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "module file %s: %s", host,
			 errno ? strerror(errno) : "not a regular file");
		return -ENOENT;
	}
	rc = add_file(l, ipath, host);
	if (rc == -EINVAL)
		snprintf(err, errlen, "cannot list module file %s", host);
	return rc;
}

static int print_list(FILE *out, const char *root, const char *release, const char *stage_dir,
		      struct bm_mod **v, size_t n, int boot, char *err, size_t errlen)
{
	struct lines l = { 0 };
	char ipath[PATH_MAX], host[PATH_MAX];
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++)
		rc = add_module(&l, root, release, stage_dir, v[i], err, errlen);
	/* the index, then the boot index's four files */
	for (int i = 0; i < (boot ? 8 : 4) && !rc; i++) {
		const char *sub = i < 4 ? "" : BM_MODULES_BOOT_DIR "/";

		snprintf(ipath, sizeof(ipath), "/lib/modules/%s/%s%s", release, sub, staged[i % 4]);
		snprintf(host, sizeof(host), "%s/%s%s", stage_dir, sub, staged[i % 4]);
		rc = add_file(&l, ipath, host);
		if (rc == -EINVAL)
			snprintf(err, errlen, "cannot list %s (blanks in the path?)", host);
	}
	if (!rc) {
		qsort(l.v, l.n, sizeof(*l.v), cmp_entry);
		for (size_t i = 0; i < l.n; i++)
			if (!i || strcmp(l.v[i], l.v[i - 1]))
				fprintf(out, "%s\n", l.v[i]);
	}
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	for (size_t i = 0; i < l.n; i++)
		free(l.v[i]);
	free(l.v);
	return rc;
}

int bm_modules_list(const char *root, const char *release, const char *const *wanted,
		    unsigned nwanted, const char *const *plain, unsigned nplain,
		    const char *stage_dir, FILE *list_out, char *err, size_t errlen)
{
	struct bm_moddb db;
	struct bm_mod **v;
	char dir[PATH_MAX];
	size_t n;
	int rc;

	if (!*release || strchr(release, '/') || !strcmp(release, ".") ||
	    !strcmp(release, "..") || strpbrk(release, " \t\n")) {
		snprintf(err, errlen, "bad kernel release '%s'", release);
		return -EINVAL;
	}
	if ((size_t)snprintf(dir, sizeof(dir), "%s/lib/modules/%s", root, release) >= sizeof(dir)) {
		snprintf(err, errlen, "path too long: %s", root);
		return -EINVAL;
	}
	rc = bm_moddb_load(&db, dir, err, errlen);
	if (rc)
		goto out_free_db;
	/* plain first: a module both lists name is marked plain once and kept */
	rc = include_wanted(&db, plain, nplain, MARK_PLAIN, err, errlen);
	if (!rc)
		rc = include_wanted(&db, wanted, nwanted, MARK_IN, err, errlen);
	if (rc)
		goto out_free_db;
	v = closure(&db, &n);
	if (!v) {
		rc = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto out_free_db;
	}
	rc = stage(stage_dir, root, release, &db, v, n, plain, nplain, err, errlen);
	if (!rc)
		rc = print_list(list_out, root, release, stage_dir, v, n, nplain > 0, err, errlen);
	free(v);
out_free_db:
	bm_moddb_free(&db);
	return rc;
}

int bm_modules_check(const char *root, const char *release, const char *list,
		     char *err, size_t errlen)
{
	const char *wanted[64];
	char buf[1024], dir[PATH_MAX], *tok, *save = NULL;
	struct bm_moddb db;
	unsigned n = 0;
	int rc;

	if ((size_t)snprintf(buf, sizeof(buf), "%s", list) >= sizeof(buf) ||
	    (size_t)snprintf(dir, sizeof(dir), "%s/lib/modules/%s", root, release) >= sizeof(dir)) {
		snprintf(err, errlen, "module list or path too long");
		return -EINVAL;
	}
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == sizeof(wanted) / sizeof(wanted[0])) {
			snprintf(err, errlen, "more than %u modules", n);
			return -EINVAL;
		}
		wanted[n++] = tok;
	}
	if (!n)
		return 0;
	rc = bm_moddb_load(&db, dir, err, errlen);
	if (!rc)
		rc = include_wanted(&db, wanted, n, MARK_IN, err, errlen);
	bm_moddb_free(&db);
	return rc;
}
