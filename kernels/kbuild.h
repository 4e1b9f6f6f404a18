/* SPDX-License-Identifier: MIT */
/*
 * "bootmark kernel build SRC": a kernel from a source tree (or a tarball such
 * as Debian's /usr/src/linux-source-6.1.tar.xz) with bootmark's config
 * fragment merged in, so the appliance boots it with no module at all.
 *
 *   1. tarball only: tar -xf SRC -C OUT/src --strip-components=1 (once)
 *   2. make O=OUT BASE              (defconfig, allnoconfig, tinyconfig)
 *      or cp FILE OUT/.config       (--base FILE, e.g. /boot/config-*)
 *   3. the fragment appended to OUT/.config, then make O=OUT olddefconfig
 *      (allnoconfig/tinyconfig: KCONFIG_ALLCONFIG=FRAGMENT in step 2)
 *   4. every "CONFIG_X=y" of the fragment checked in OUT/.config
 *   5. make O=OUT -jN bzImage       (arm64: Image)
 *
 * Every step runs through execve with an argv; make's output goes to
 * OUT/build.log.  The result is the spec local:OUT/arch/x86/boot/bzImage, or
 * local:OUT/arch/arm64/boot/Image.  For an architecture other than the host's
 * every make gets ARCH= and CROSS_COMPILE= (aarch64-linux-gnu-, Debian's
 * gcc-aarch64-linux-gnu; x86_64-linux-gnu- on an arm64 host).
 */
#ifndef BM_KBUILD_H
#define BM_KBUILD_H

#include <limits.h>
#include <stddef.h>

struct bm_kbuild {
	char src[PATH_MAX];       /* kernel tree or tarball */
	char out[PATH_MAX];       /* O= build directory; "" = cache/builds/<name> */
	char base[PATH_MAX];      /* defconfig | allnoconfig | tinyconfig | FILE */
	char fragment[PATH_MAX];  /* "" = <configs>/kernel.config */
	long long jobs;           /* make -j; 0 = online CPUs */
	char arch[16];            /* amd64 | arm64 (bm_arches); "" = the host's */
	int quiet;                /* no step lines on stdout */
};

/* Outcomes other than 0 and -errno from bm_kernel_build. */
#define BM_KBUILD_FAILED 1        /* the tree does not build (make failed) */

/*
 * Builds b's kernel; spec gets "local:<bzImage>".  Returns 0,
 * BM_KBUILD_FAILED when a make step failed (the tail of build.log is
 * printed), -EINVAL for bad input (reported; nothing built) or another
 * -errno for a system error (reported).
 */
int bm_kernel_build(const struct bm_kbuild *b, char *spec, size_t speclen);

/* The CONFIG_X=y lines of fragment missing from config, comma-separated
 * into buf ("" = none).  Returns 0 or -errno. */
int bm_kconfig_missing(const char *fragment, const char *config, char *buf, size_t len);

/* kbdeps.c: 1 when prog is an executable on $PATH */
int bm_in_path(const char *prog);

/* make, gcc, flex, bison, bc and perl on $PATH: 0, or -EINVAL when one is
 * missing (named with its Debian package). */
int bm_kbuild_tools(void);

/* Warns of host libraries dotconfig's options need and the host lacks
 * (libelf for objtool, libcrypto for certificates, pahole for BTF). */
void bm_kbuild_libs(const char *dotconfig);

#endif
