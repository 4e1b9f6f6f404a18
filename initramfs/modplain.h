/* SPDX-License-Identifier: MIT */
/*
 * The form a module takes in the image.
 *
 * Boot modules stored uncompressed.  A kernel with CONFIG_MODULE_DECOMPRESS
 * (Debian 6.12) ships its modules as .ko.xz and unpacks each one itself
 * when it is loaded; under QEMU's TCG that is emulated work on the way to
 * the hello (virtio_blk: 0.008 s of the runner's 0.081 s of module loading,
 * docs/performance.md).  The image builder decompresses the boot modules
 * once, on the host, with the distribution's own program; the signature
 * the kernel checks is inside the uncompressed file, so it loads the same.
 *
 * Other modules xz-compressed.  A kernel that ships its modules uncompressed
 * (Debian 6.1: CONFIG_MODULE_COMPRESS_NONE) would unpack them whole from the
 * initramfs, 5.5 MB of a 12.3 MB unpack that runs beside the initcalls; xz
 * makes it 1.3 MB.  Such a kernel cannot decompress them either (no
 * CONFIG_MODULE_DECOMPRESS), so the runner does, with busybox's xzcat, when
 * it loads one (runner/modules/modload.c), after the hello.
 */
#ifndef BM_MODPLAIN_H
#define BM_MODPLAIN_H

#include <stddef.h>

/* Length of path's compression suffix (".ko.xz": 3, ".ko.zst": 4, ".ko.gz":
 * 3), 0 when it is not a compressed module. */
size_t bm_modplain_suffix(const char *path);
/* path without its compression suffix. */
void bm_modplain_path(const char *path, char *out, size_t len);
/* Writes the decompressed module host to out with xz, zstd or gzip, run as
 * programs; 0 or -errno with the reason in err. */
int bm_modplain_write(const char *host, const char *out, char *err, size_t errlen);
/* Writes the uncompressed module host to out compressed by xz, as the kernel's
 * modules_install would; 0 or -errno with the reason in err. */
int bm_modplain_pack(const char *host, const char *out, char *err, size_t errlen);

#endif
