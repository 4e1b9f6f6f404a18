/* SPDX-License-Identifier: MIT */
/*
 * The initrd of one boot: the base image (runner, tools, configs), the tool
 * archives the run's filesystem profiles need (mkfs.jfs...), the kernel's
 * module archive and the run's configuration.  The kernel unpacks
 * concatenated archives in order (buffer-format.rst), so the base never
 * changes per kernel and module archives are cached by release and module set.
 */
#ifndef BM_INITRD_H
#define BM_INITRD_H

#include <limits.h>
#include <stddef.h>

#include "kernel.h"

#define BM_INITRD_TOOLS_MAX 8

/* The tool archives of a run (host/backend/manifest.h): each path without its
 * compressor's suffix (.../tools/jfs.cpio); the initrd takes the sibling
 * compressed as its base is. */
struct bm_initrd_tools {
	unsigned n;
	char path[BM_INITRD_TOOLS_MAX][PATH_MAX];
};

struct bm_initrd_req {
	const struct bm_kernel *k;
	const char *tools_dir;   /* holds bm-mkinitramfs */
	const char *image;       /* base.cpio.xz */
	const struct bm_initrd_tools *tools;  /* appended after the base; NULL = none */
	const char *modules;     /* comma list, may be "" */
	const char *boot_extra;  /* boot modules besides bootmark.conf's (the arch's
				  * records port: virtio_console); NULL none */
	const char *out;         /* initrd.img to write */
	const char *workdir;     /* for uncached (local) module archives */
	int cacheable;           /* Debian kernels: the release names the files */
	/* The run's own suite and profiles (host/backend/cfgarch.c), appended last; NULL
	 * configs = none (the base image's apply). */
	const char *configs, *suite, *fs;
	char *config_out;        /* the config archive's path, when one was made */
	size_t config_len;
};

/* The archive of req's suite and profiles, compressed (by compress, with the
 * kernel's compressor ext) into the cache, named by a hash of its contents;
 * path gets its name.  0 or -errno. */
int bm_config_archive(const struct bm_initrd_req *req, const char *ext,
		      int (*compress)(const char *ext, const char *in, const char *out),
		      char *path, size_t len);
/* The compressor's suffix path ends in (".zst", ".xz", ".gz": a pointer into
 * path), or "". */
const char *bm_initrd_zip_suffix(const char *path);
/* The file of tool archive path (no suffix) that goes with base (base.cpio.zst
 * takes path.zst, base.cpio.xz path.xz, anything else path itself). */
int bm_initrd_tool_file(const char *base, const char *path, char *out, size_t len);
/* Builds req->out; desc gets a one-line description for meta.json. */
int bm_initrd_build(const struct bm_initrd_req *req, char *desc, size_t desclen);
/*
 * For bench-boot --compress: whether kernel k unpacks an initrd compressed
 * with name (zstd, xz, gzip, lz4, none) from its config (1, 0, -EINVAL for
 * an unknown name); name's compressor run on in to out ("none" copies);
 * the uncompressed module cpio of req written to out (req->workdir holds a
 * stage); base and mods, compressed with name, concatenated into out as
 * the kernel reads them.
 */
int bm_initrd_can_unpack(const struct bm_kernel *k, const char *name);
int bm_initrd_compress(const char *name, const char *in, const char *out);
int bm_initrd_modules_cpio(const struct bm_initrd_req *req, const char *out);
int bm_initrd_concat(const char *out, const char *name, const char *base, const char *mods);
/* The boot "modules" list from <configs>/bootmark.conf (default if absent),
 * with image_modules merged in: what the module archive carries. */
int bm_conf_modules(const char *configs, char *buf, size_t len);
/* Only image_modules: the drivers a lab box may name (bootmark.modules=). */
int bm_conf_image_modules(const char *configs, char *buf, size_t len);
/* Only the boot "modules" (NULL configs: the default): what the archive
 * carries uncompressed. */
int bm_conf_boot_modules(const char *configs, char *buf, size_t len);
/* Appends each comma item of add to the comma list buf when not yet there. */
int bm_list_merge(char *buf, size_t len, const char *add);

#endif
