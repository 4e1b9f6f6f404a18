/* SPDX-License-Identifier: MIT */
/*
 * Our own module loader, so the image needs no modprobe (kmod is glibc
 * and its config; busybox's differs in details).  It reads depmod's output:
 * modules.dep (hard dependencies), modules.softdep ("pre:"/"post:"),
 * modules.alias (fnmatch patterns) and modules.builtin, computes the load
 * order (softdep pre, dependencies, the module, softdep post) and loads
 * each file with finit_module(2).  Parsing and planning take a directory
 * path and do no loading, so they run on the host in tests.
 */
#ifndef BM_RUNNER_MODLOAD_H
#define BM_RUNNER_MODLOAD_H

#include <stddef.h>

struct mod_entry {
	char *name;        /* normalised: '-' becomes '_' */
	char *path;        /* relative to the module directory */
	char **deps;       /* paths, as listed in modules.dep */
	unsigned ndeps;
};

struct mod_alias {
	char *pattern;
	char *module;
};

struct mod_softdep {
	char *module;
	char **pre, **post;
	unsigned npre, npost;
};

struct modidx {
	char dir[256];
	char *text[4];     /* file contents; the entries point into them */
	struct mod_entry *mods;
	size_t nmods;
	struct mod_alias *aliases;
	size_t naliases;
	struct mod_softdep *soft;
	size_t nsoft;
	char **builtin;
	size_t nbuiltin;
};

struct mod_step {
	size_t mod;        /* index into modidx.mods */
	int optional;      /* reached through a softdep: failure is logged only */
};

struct mod_plan {
	struct mod_step *step;
	size_t n, cap;
	unsigned char *seen;   /* per module */
	char skipped[512];     /* optional names that resolved to nothing */
};

/* Reads the index files in dir; modules.softdep/alias/builtin may be absent. */
int modidx_load(struct modidx *mi, const char *dir, char *err, size_t errlen);
void modidx_free(struct modidx *mi);
/* Index of the module called name (after '-'/'_' normalisation), or -1. */
long modidx_find(const struct modidx *mi, const char *name);
int modidx_is_builtin(const struct modidx *mi, const char *name);

void mod_plan_init(struct mod_plan *p);
void mod_plan_free(struct mod_plan *p);
/* Adds name (a module or an alias) and everything it needs to the plan.
 * Builtin modules add nothing.  -ENOENT when name resolves to nothing. */
int mod_plan_add(const struct modidx *mi, struct mod_plan *p, const char *name,
		 char *err, size_t errlen);
/* Adds every item of a comma list. */
int mod_plan_add_list(const struct modidx *mi, struct mod_plan *p,
		      const char *list, char *err, size_t errlen);
/* Loads the plan in order with finit_module(2).  EEXIST counts as loaded. */
int mod_plan_load(const struct modidx *mi, const struct mod_plan *p,
		  char *err, size_t errlen);

/* Default directory: /lib/modules/<uname -r>. */
int modload_default_dir(char *buf, size_t len);

#endif
