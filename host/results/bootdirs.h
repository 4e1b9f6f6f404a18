/* SPDX-License-Identifier: MIT */
/*
 * Finding boots on disk: "bootmark export" and "compare" take run
 * directories (bootmark run --out) or single boot directories alike.
 */
#ifndef BM_BOOTDIRS_H
#define BM_BOOTDIRS_H

/* A boot directory holds results.log, console.log or meta.json. */
int bm_is_boot_dir(const char *dir);
/*
 * Calls fn(bootdir, arg) for dir itself when it is a boot directory, else
 * for each boot directory directly under it, in name order (stable output).
 * fn may be NULL to count only.  Returns the number of boot directories,
 * the first negative return of fn (no further calls), or -errno when dir
 * cannot be read.
 */
int bm_boot_dirs(const char *dir, int (*fn)(const char *bootdir, void *arg), void *arg);
/* The message for a dir bm_boot_dirs() found no boot in: "bootmark: DIR
 * holds no boot (...)", and where a `bootmark ci` folder keeps its boots
 * (DIR/run) when that is what DIR is. */
void bm_no_boot_msg(const char *dir);

/*
 * The boot folders a command has read, by real path: "compare D D", or a run
 * folder given with one of its own boots, counts each boot once.
 */
struct bm_seen {
	char **v;
	size_t n;
};

/* 1 when dir (a boot folder) resolves to one seen before, 0 when it is new
 * (now recorded), -errno when its real path cannot be had. */
int bm_seen_check(struct bm_seen *s, const char *dir);
void bm_seen_free(struct bm_seen *s);

#endif
