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
	int after_all;     /* waits for every earlier step (softdeps), not only its dependencies */
};

/* Threads that load at once: the boot modules' widest level is four. */
#define MOD_THREADS_MAX 4

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
/* Loads the plan with finit_module(2), a thread per online CPU (at most
 * MOD_THREADS_MAX).  EEXIST counts as loaded.  loaded (per db module, or
 * NULL) is set to 1 for each module that loaded. */
int mod_plan_load(const struct bm_moddb *db, const struct mod_plan *p, unsigned char *loaded,
		  char *err, size_t errlen);

/* One module's load: 0 or -errno (finit_module in the image, a fake in tests). */
typedef int (*mod_load_fn)(void *ctx, const struct bm_moddb *db, const struct bm_mod *m);
/* The loader's own: finit_module of m's file with its command-line options
 * (modparam_for); ctx is NULL or per-module loaded flags to set. */
int modload_one(void *ctx, const struct bm_moddb *db, const struct bm_mod *m);
/* Runs the plan on up to nthreads threads, the caller's among them
 * (modrun.c): a step starts once the steps it needs are done.  A required
 * step's failure stops new starts; 0, or that failure's -errno with the
 * reason in err.  An optional step's failure is only logged. */
int mod_plan_run(const struct bm_moddb *db, const struct mod_plan *p, unsigned nthreads,
		 mod_load_fn load, void *ctx, char *err, size_t errlen);

/*
 * Module options from the kernel command line (modparam.c): each
 * "module.param=value" word goes to that module's finit_module as
 * "param=value", as modprobe does for loadable modules (the kernel applies
 * them itself only to built-in ones).
 */
#define MODPARAM_MODULES 16
#define MODPARAM_NAME    64
struct modparam {
	char module[MODPARAM_NAME];   /* normalised: '-' as '_' */
	char args[256];               /* "poll_queues=2 io_queue_depth=64" */
};
struct modparams {
	struct modparam p[MODPARAM_MODULES];
	unsigned n;
};
/* Fills mp from cmdline: 0, or -E2BIG when some words did not fit (the
 * others are in). */
int modparam_parse(struct modparams *mp, const char *cmdline);
/* module's options in mp ("" when none). */
const char *modparam_args(const struct modparams *mp, const char *module);
/* The loader's own table, from the kernel command line: called once before
 * the first load, read by every load after it. */
int modparam_set_cmdline(const char *cmdline);
const char *modparam_for(const char *module);

/* The boot modules before the configuration is read (modpre.c): the image's
 * boot index, BM_MODULES_BOOT_DIR of the module directory, loaded whole. */
struct mod_preload {
	struct bm_moddb db;     /* the boot index */
	struct mod_plan plan;   /* all of it, in its file's order */
	unsigned char *loaded;  /* per db module */
	int planned;            /* db and plan are there */
	int ran;                /* it was there and every module of it loaded */
};
/* 0 when cmdline names modules itself (prefix "modules=" or "modules_dir="):
 * then nothing is loaded before the configuration. */
int mod_preload_wanted(const char *cmdline, const char *prefix);
/* Reads dir's boot index and plans all of it; loads nothing, so it needs
 * neither /proc nor the command line.  0, -ENOENT when the image has none,
 * or the first failure (logged; the normal path reports it). */
int mod_preload_plan(struct mod_preload *pl, const char *dir);
/* Loads what mod_preload_plan planned: 0, or the first failure (logged).
 * load: NULL for finit_module (mod_plan_load), or one that sets its ctx,
 * the per-module loaded flags, as mod_plan_load does (tests). */
int mod_preload_load(struct mod_preload *pl, mod_load_fn load);
/* Both, one after the other. */
int mod_preload_run(struct mod_preload *pl, const char *dir, mod_load_fn load);
/* 1 when list (the configuration's modules) planned on the boot index is
 * all loaded; 0: plan list on the whole index. */
int mod_preload_covers(const struct mod_preload *pl, const char *list);
void mod_preload_free(struct mod_preload *pl);

/* Default directory: /lib/modules/<uname -r>. */
int modload_default_dir(char *buf, size_t len);

#endif
