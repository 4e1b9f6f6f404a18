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

#include "moddb.h"

struct mod_step {
	size_t mod;        /* index into bm_moddb.mods */
	int optional;      /* reached through a softdep: failure is logged only */
};

struct mod_plan {
	struct mod_step *step;
	size_t n, cap;
	unsigned char *seen;   /* per module */
	char skipped[512];     /* optional names that resolved to nothing */
};

/* The index itself is common/moddb.h's (bm_moddb_load), the image builder's too. */
void mod_plan_init(struct mod_plan *p);
void mod_plan_free(struct mod_plan *p);
/* Adds name (a module or an alias) and everything it needs to the plan.
 * Builtin modules add nothing.  -ENOENT when name resolves to nothing. */
int mod_plan_add(const struct bm_moddb *db, struct mod_plan *p, const char *name,
		 char *err, size_t errlen);
/* Adds every item of a comma list. */
int mod_plan_add_list(const struct bm_moddb *db, struct mod_plan *p,
		      const char *list, char *err, size_t errlen);
/* Loads the plan in order with finit_module(2).  EEXIST counts as loaded. */
int mod_plan_load(const struct bm_moddb *db, const struct mod_plan *p,
		  char *err, size_t errlen);

/* Default directory: /lib/modules/<uname -r>. */
int modload_default_dir(char *buf, size_t len);

#endif
