/* In-memory view of a kernel's modules.{dep,softdep,alias,builtin}: the one
 * parser of depmod's files, used by the image builder (initramfs/modclosure.c,
 * which modules to pack) and by the runner (runner/modules/modplan.c, which to load), so
 * the two can never read a module tree differently. Names are normalised ('-'
 * becomes '_'). */
#ifndef BM_MODDB_H
#define BM_MODDB_H

#include <stddef.h>

/* The boot index: a directory of the release's module directory holding the
 * same four files trimmed to the boot modules and what they need, their
 * paths in full (initramfs/modclosure.c writes it, the runner reads it
 * first: runner/modules/modpre.c). */
#define BM_MODULES_BOOT_DIR "boot"

struct bm_mod {
	char *name;       /* normalised, owned */
	const char *path; /* as written in modules.dep, into the file buffer */
	const char **deps;/* dependency paths, in modules.dep order */
	unsigned ndeps;
	unsigned line;    /* position in modules.dep, to keep its order */
	int in;           /* part of the closure */
};

struct bm_alias {
	const char *pattern; /* as written */
	char *norm;          /* normalised pattern, owned */
	const char *module;  /* as written */
};

struct bm_softdep {
	char *module;        /* normalised, owned */
	const char **names;  /* pre names first, then post */
	unsigned npre, n;
};

struct bm_moddb {
	char *dir;           /* root/lib/modules/release */
	char *buf[4];        /* contents of dep, softdep, alias, builtin */
	size_t builtin_len;
	struct bm_mod *mods; /* sorted by name */
	size_t nmods;
	struct bm_alias *aliases;
	size_t naliases;
	struct bm_softdep *softdeps;
	size_t nsoftdeps;
	char **builtin;      /* sorted normalised names */
	size_t nbuiltin;
};

/* Loads dir/modules.*; 0 or -errno with err set. bm_moddb_free is always safe
 * after bm_moddb_load returns. */
int bm_moddb_load(struct bm_moddb *db, const char *dir, char *err, size_t errlen);
void bm_moddb_free(struct bm_moddb *db);

/* Copies s to out (size outlen) with '-' turned into '_' outside [...] ranges and
 * any .ko/.ko.xz/.ko.gz/.ko.zst suffix and leading directories removed when
 * strip_path is set. Returns -ENAMETOOLONG if it does not fit. */
int bm_mod_normalise(const char *s, int strip_path, char *out, size_t outlen);

struct bm_mod *bm_moddb_find(const struct bm_moddb *db, const char *norm);
int bm_moddb_is_builtin(const struct bm_moddb *db, const char *norm);
/* The same for a name as a user or modules.dep writes it: "crc32c-intel",
 * "kernel/lib/libcrc32c.ko.xz" (normalised first; NULL/0 when too long). */
struct bm_mod *bm_moddb_lookup(const struct bm_moddb *db, const char *name);
int bm_moddb_builtin_lookup(const struct bm_moddb *db, const char *name);

#endif
