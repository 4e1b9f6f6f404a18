/* SPDX-License-Identifier: MIT */
/*
 * The initrd of one boot: the base image (runner, tools, configs) followed
 * by the kernel's module archive.  The kernel unpacks concatenated
 * archives in order (buffer-format.rst), so the base never changes per
 * kernel and module archives are cached by release and module set.
 */
#ifndef BM_INITRD_H
#define BM_INITRD_H

#include <stddef.h>

#include "kernel.h"

struct bm_initrd_req {
	const struct bm_kernel *k;
	const char *tools_dir;   /* holds bm-mkinitramfs */
	const char *image;       /* base.cpio.xz */
	const char *modules;     /* comma list, may be "" */
	const char *out;         /* initrd.img to write */
	const char *workdir;     /* for uncached (local) module archives */
	int cacheable;           /* Debian kernels: the release names the files */
};

/* Builds req->out; desc gets a one-line description for meta.json. */
int bm_initrd_build(const struct bm_initrd_req *req, char *desc, size_t desclen);
/* The boot "modules" list from <configs>/bootmark.conf (default if absent). */
int bm_conf_modules(const char *configs, char *buf, size_t len);
/* Appends each comma item of add to the comma list buf when not yet there. */
int bm_list_merge(char *buf, size_t len, const char *add);

#endif
