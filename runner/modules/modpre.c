// SPDX-License-Identifier: MIT
/*
 * The boot modules before the configuration (modload.h, mod_preload_*).
 *
 * Under TCG the runner spends 10-15 ms reading its configuration and 13 ms
 * parsing the module index before the first finit_module, and the boot
 * modules (virtio_pci, virtio_blk and what they need) are most of its time
 * to the hello (docs/performance.md).  The image builder writes a boot
 * index beside the module index (BM_MODULES_BOOT_DIR: the same files
 * trimmed to the boot modules of bootmark.conf and what they need), and
 * the runner's boot thread reads and plans all of it as main starts
 * (mod_preload_plan: it needs neither /proc nor the command line), and
 * loads it once the command line is known (mod_preload_load), while main
 * reads the configuration.  Once that is read, mod_preload_covers() tells
 * whether the configuration's `modules` are what was loaded; if not (a
 * bootmark.modules= word, an image put together by hand), the runner
 * plans them on the whole index as it always did, and what the preload
 * loaded stays loaded.  A word that names other modules on the kernel
 * command line keeps the preload from loading any (mod_preload_wanted).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "modload.h"

/* A word of cmdline that starts with prefix+key ("bootmark.modules="). */
static int has_word(const char *cmdline, const char *prefix, const char *key)
{
	size_t np = strlen(prefix), nk = strlen(key);
	const char *w = cmdline;

	while (w && *w) {
		w += strspn(w, " \t\n");
		if (!strncmp(w, prefix, np) && !strncmp(w + np, key, nk))
			return 1;
		w += strcspn(w, " \t\n");
	}
	return 0;
}

int mod_preload_wanted(const char *cmdline, const char *prefix)
{
	return !has_word(cmdline, prefix, "modules=") && !has_word(cmdline, prefix, "modules_dir=");
}

static int by_line(const void *a, const void *b)
{
	unsigned x = (*(struct bm_mod *const *)a)->line, y = (*(struct bm_mod *const *)b)->line;

	return (x > y) - (x < y);
}

int mod_preload_plan(struct mod_preload *pl, const char *dir)
{
	char bdir[512], err[512] = "";
	struct bm_mod **order;
	size_t i;
	int ret;

	memset(pl, 0, sizeof(*pl));
	mod_plan_init(&pl->plan);
	if ((size_t)snprintf(bdir, sizeof(bdir), "%s/%s", dir, BM_MODULES_BOOT_DIR) >=
	    sizeof(bdir))
		return -ENAMETOOLONG;
	ret = bm_moddb_load(&pl->db, bdir, err, sizeof(err));
	if (ret) {
		/* An image without a boot index loads on the normal path. */
		if (ret != -ENOENT)
			rlog(RLOG_INFO, "boot index: %s", err);
		return ret;
	}
	pl->loaded = calloc(pl->db.nmods ? pl->db.nmods : 1, 1);
	order = calloc(pl->db.nmods ? pl->db.nmods : 1, sizeof(*order));
	if (!pl->loaded || !order) {
		free(order);
		return -ENOMEM;
	}
	/* In the file's order, not the index's (by name): what the configuration
	 * names comes first there, in its order (initramfs/modclosure.c). */
	for (i = 0; i < pl->db.nmods; i++)
		order[i] = &pl->db.mods[i];
	qsort(order, pl->db.nmods, sizeof(*order), by_line);
	for (i = 0, ret = 0; i < pl->db.nmods && !ret; i++)
		ret = mod_plan_add(&pl->db, &pl->plan, order[i]->name, err, sizeof(err));
	free(order);
	if (ret)
		rlog(RLOG_INFO, "boot modules before the configuration: %s", err);
	pl->planned = !ret;
	return ret;
}

int mod_preload_load(struct mod_preload *pl, mod_load_fn load)
{
	char err[512] = "";
	int ret;

	if (!pl->planned)
		return -ENOENT;
	if (!load)
		ret = mod_plan_load(&pl->db, &pl->plan, pl->loaded, err, sizeof(err));
	else
		ret = mod_plan_run(&pl->db, &pl->plan, MOD_THREADS_MAX, load, pl->loaded, err,
				   sizeof(err));
	/* The normal path loads again and reports it, with its own words. */
	if (ret)
		rlog(RLOG_INFO, "boot modules before the configuration: %s", err);
	pl->ran = !ret;
	return ret;
}

int mod_preload_run(struct mod_preload *pl, const char *dir, mod_load_fn load)
{
	int ret = mod_preload_plan(pl, dir);

	return ret ? ret : mod_preload_load(pl, load);
}

int mod_preload_covers(const struct mod_preload *pl, const char *list)
{
	char err[512];
	struct mod_plan plan;
	size_t i;
	int ok;

	if (!pl->ran)
		return 0;
	mod_plan_init(&plan);
	ok = !mod_plan_add_list(&pl->db, &plan, list, err, sizeof(err));
	for (i = 0; ok && i < plan.n; i++)
		ok = pl->loaded[plan.step[i].mod] || plan.step[i].optional;
	mod_plan_free(&plan);
	return ok;
}

void mod_preload_free(struct mod_preload *pl)
{
	mod_plan_free(&pl->plan);
	bm_moddb_free(&pl->db);
	free(pl->loaded);
	memset(pl, 0, sizeof(*pl));
}
