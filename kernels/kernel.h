/* SPDX-License-Identifier: MIT */
/*
 * Kernels to boot: specs, the Debian download cache and local builds.
 *
 *   6.1.0-53-amd64 | deb:6.1.0-53-amd64     Debian linux-image-<release>
 *   local:/path/bzImage[:/modules-root]     a local build; modules-root holds
 *                                           lib/modules/<release>/
 *   any of these, a space, then ARGS        extra kernel command-line arguments
 *                                           for this kernel ("6.1.0-53-amd64
 *                                           init_on_free=1"), appended last
 *
 * Cache layout ($BOOTMARK_CACHE, $XDG_CACHE_HOME/bootmark, ~/.cache/bootmark):
 *   kernels/<release>/boot/{vmlinuz,config}-<release>
 *   kernels/<release>/lib/modules/<release>/   (depmod has been run)
 *   initrd/<release>-<set>.cpio.<xz|zst|gz>    module archives
 */
#ifndef BM_KERNEL_H
#define BM_KERNEL_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#define BM_REL_MAX 128
#define BM_KARGS_MAX 512

enum bm_kspec_kind {
	BM_KSPEC_DEB,
	BM_KSPEC_LOCAL,
};

struct bm_kspec {
	enum bm_kspec_kind kind;
	char text[PATH_MAX];      /* the spec as given */
	char release[BM_REL_MAX]; /* deb: from the spec; local: filled on resolve */
	char bzimage[PATH_MAX];   /* local only */
	char modroot[PATH_MAX];   /* local only; "" = everything built in */
	char args[BM_KARGS_MAX];  /* extra command-line arguments; "" = none */
};

struct bm_kernel {               /* a kernel ready to boot */
	char release[BM_REL_MAX];
	char vmlinuz[PATH_MAX];
	char config[PATH_MAX];       /* "" = no config known */
	char modroot[PATH_MAX];      /* "" = no modules */
};

/* Checks syntax only (no file access). 0 or -EINVAL with a message in err. */
int bm_kspec_parse(struct bm_kspec *k, const char *spec, char *err, size_t errlen);
/* 1 when rel looks like a kernel release we may use in a path. */
int bm_release_ok(const char *rel);

/* bzImage setup header: "HdrS" at 0x202, version >= 0x200, kernel_version
 * pointer at 0x20e (+0x200).  Copies the first word of the version string. */
int bm_bzimage_release_buf(const unsigned char *buf, size_t len, char *rel, size_t rellen);
int bm_bzimage_release(const char *path, char *rel, size_t rellen);
/* Resolves a local spec: reads the release, checks the modules dir, finds
 * a config beside the image.  Messages name the problem. */
int bm_local_resolve(struct bm_kspec *k, struct bm_kernel *out);

int bm_kernels_dir(char *buf, size_t len);
/* 0 and *out filled when release is cached, -ENOENT when not. */
int bm_deb_cached(const char *release, struct bm_kernel *out);
/* 0 when apt knows linux-image-<release>, -ENOENT when not. */
int bm_deb_known(const char *release);
/* Downloads, extracts, runs depmod; says so when already cached.
 * -ENOENT when Debian has no such kernel. */
int bm_deb_fetch(const char *release);
/* Available Debian releases from apt-cache; free with bm_strv_free. */
int bm_deb_available(char ***rels, size_t *n);
void bm_strv_free(char **v, size_t n);

/* Spec -> bootable kernel; fetches Debian kernels when fetch is set. */
int bm_kernel_resolve(struct bm_kspec *k, int fetch, struct bm_kernel *out);
/* "kernel list" output. */
int bm_kernel_list(FILE *f);
/* Returns 1 when the config has "<sym>=y", 0 when not, -errno when unreadable. */
int bm_kconfig_has(const char *config, const char *sym);

#endif
