/* SPDX-License-Identifier: MIT */
/*
 * Kernels to boot: specs, the Debian download cache and local builds.
 *
 *   6.1.0-53-amd64 | deb:6.1.0-53-amd64     Debian linux-image-<release>, from
 *   6.1.0-53-arm64 | deb:6.1.0-53-arm64     whichever of Debian 12's and 13's
 *                                           archives has it (kernels/debapt.c);
 *                                           the flavour's end names the
 *                                           architecture (kernels/arch.c)
 *   local:/path/bzImage[:/modules-root]     a local build (an x86 bzImage or an
 *   local:/path/Image[:/modules-root]       arm64 Image); modules-root holds
 *                                           lib/modules/<release>/
 *   any of these, a space, then ARGS        extra kernel command-line arguments
 *                                           for this kernel ("6.1.0-53-amd64
 *                                           init_on_free=1"), appended last
 *
 * Cache layout ($BOOTMARK_CACHE, $XDG_CACHE_HOME/bootmark, ~/.cache/bootmark):
 *   kernels/<release>/boot/{vmlinuz,config}-<release>
 *   kernels/<release>/boot/vmlinux-<release>   the ELF inside vmlinuz (PVH boot);
 *                                              amd64 only: an arm64 vmlinuz is
 *                                              already an uncompressed Image
 *   kernels/<release>/lib/modules/<release>/   (depmod has been run)
 *   kernels/<release>/package   "version V", "archive SUITE" and "arch A" lines
 *   apt/   bootmark's own apt configuration: sources, lists, cache
 *   initrd/<release>-<set>.cpio.<xz|zst|gz>    module archives
 *   vmlinux/<sha256 of a local bzImage>        its ELF, when the build has none
 */
#ifndef BM_KERNEL_H
#define BM_KERNEL_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#define BM_REL_MAX 128
#define BM_KARGS_MAX 512
#define BM_DEB_VER_MAX 64
#define BM_DEB_SUITE_MAX 64
#define BM_APT_URI_MAX 512
#define BM_ARCH_MAX 16

enum bm_kspec_kind {
	BM_KSPEC_DEB,
	BM_KSPEC_LOCAL,
};

struct bm_kspec {
	enum bm_kspec_kind kind;
	char text[PATH_MAX];      /* the spec as given */
	char release[BM_REL_MAX]; /* deb: from the spec; local: filled on resolve */
	char bzimage[PATH_MAX];   /* local only: the image (bzImage or arm64 Image) */
	char modroot[PATH_MAX];   /* local only; "" = everything built in */
	char args[BM_KARGS_MAX];  /* extra command-line arguments; "" = none */
};

struct bm_kernel {               /* a kernel ready to boot */
	char release[BM_REL_MAX];
	char vmlinuz[PATH_MAX];
	char vmlinux[PATH_MAX];      /* the ELF inside it when cached; bm_vmlinux_get makes
				      * sure; amd64 only ("" for arm64: its vmlinuz is
				      * the Image QEMU boots) */
	char arch[BM_ARCH_MAX];      /* Debian's name: "amd64", "arm64" (kernels/arch.c) */
	char config[PATH_MAX];       /* "" = no config known */
	char modroot[PATH_MAX];      /* "" = no modules */
	int deb;                     /* 1: a Debian package's (linux-image-<release>) */
	/* Debian kernels: the package's version and archive as apt reported
	 * them at fetch time; "" for local builds and older cache entries */
	char deb_version[BM_DEB_VER_MAX];
	char deb_archive[BM_DEB_SUITE_MAX];
};

/* A Debian kernel package: linux-image-<release> at version in archive. */
struct bm_debpkg {
	char release[BM_REL_MAX];
	char version[BM_DEB_VER_MAX];  /* "6.1.187-1", as apt reports it */
	char archive[BM_DEB_SUITE_MAX]; /* the suite: "bookworm-security" */
	char arch[BM_ARCH_MAX];         /* the list's architecture: "arm64" */
};

/*
 * Architectures (kernels/arch.c), in Debian's words.  bm_arches: the ones
 * bootmark fetches and boots, NULL-terminated; bm_arches_text: "amd64, arm64"
 * for messages.  bm_host_arch: uname -m in Debian's words (x86_64 -> amd64,
 * aarch64 -> arm64, any other machine as uname names it: check it with
 * bm_arch_ok).  bm_arch_check: 0, or -EINVAL after "bootmark: WHAT:
 * architecture 'X' is not supported (supported: amd64, arm64)".
 */
extern const char *const bm_arches[];
const char *bm_arches_text(void);
const char *bm_host_arch(void);
int bm_arch_ok(const char *arch);
int bm_arch_check(const char *what, const char *arch);
/* A Debian release's architecture: its last '-' component that is one of
 * bm_arches (6.1.0-53-cloud-arm64, 6.12.57+deb13-arm64-16k: arm64); -ENOEXEC
 * when none is.  No message. */
int bm_release_arch(const char *rel, char *arch, size_t len);
/* An image's: an ELF's e_machine (EM_X86_64, EM_AARCH64), an x86 bzImage
 * ("HdrS" at 0x202), an arm64 Image ("ARM\x64" at 0x38); -ENOEXEC otherwise.
 * No message. */
int bm_image_arch_buf(const unsigned char *buf, size_t len, char *arch, size_t alen);
/* A kernel's architecture: from release when it is given and names one, else
 * from the file vmlinuz (NULL: none).  0, or -errno with a message
 * (-ENOEXEC: neither tells). */
int bm_kernel_arch_of(const char *release, const char *vmlinuz, char *arch, size_t len);

/* Where Debian's archives are, from the host's apt sources (kernels/aptsrc.c). */
struct bm_deb_mirrors {
	char debian[BM_APT_URI_MAX];     /* "http://deb.debian.org/debian" */
	char security[BM_APT_URI_MAX];   /* "http://deb.debian.org/debian-security" */
	char debian_from[PATH_MAX];      /* the sources file, "$BOOTMARK_DEBIAN_MIRROR" */
	char security_from[PATH_MAX];    /* or "bootmark's default" */
};

/* Checks syntax only (no file access). 0 or -EINVAL with a message in err. */
int bm_kspec_parse(struct bm_kspec *k, const char *spec, char *err, size_t errlen);
/* 1 when rel looks like a kernel release we may use in a path. */
int bm_release_ok(const char *rel);

/* bzImage setup header: "HdrS" at 0x202, version >= 0x200, kernel_version
 * pointer at 0x20e (+0x200).  Copies the first word of the version string. */
int bm_bzimage_release_buf(const unsigned char *buf, size_t len, char *rel, size_t rellen);
int bm_bzimage_release(const char *path, char *rel, size_t rellen);
/* An uncompressed kernel's (arm64 Image, ELF vmlinux) release: the first
 * word after "Linux version " that starts with a digit and is followed by
 * " (", as linux_banner has it.  -ENOEXEC when there is none. */
int bm_banner_release_buf(const unsigned char *buf, size_t len, char *rel, size_t rellen);
int bm_banner_release(const char *path, char *rel, size_t rellen);
/* Resolves a local spec: the architecture from the image (an x86 bzImage or
 * an arm64 Image), the release from its header or banner, checks the modules
 * dir, finds a config beside the image.  Messages name the problem. */
int bm_local_resolve(struct bm_kspec *k, struct bm_kernel *out);

/* Mirrors named by these apt sources files (.sources: deb822, else one-line);
 * fields stay "" when none names one.  Unreadable files are skipped. */
void bm_deb_mirrors_from(struct bm_deb_mirrors *m, const char *const *files, size_t n);
/* The host's (/etc/apt/sources.list{,.d/}), $BOOTMARK_DEBIAN_MIRROR and
 * $BOOTMARK_DEBIAN_SECURITY over them, deb.debian.org when none. */
int bm_deb_mirrors(struct bm_deb_mirrors *m);

/* The suites looked in, in the order an archive is named when several have
 * the same version; NULL-terminated. */
extern const char *const bm_deb_suites[];
/* The deb822 sources file of bootmark's apt for these mirrors and keyring. */
int bm_apt_sources_text(const struct bm_deb_mirrors *m, const char *keyring,
			char *buf, size_t len);
/* apt-cache madison output -> one package per name (the newest version; among
 * archives with that version the first of bm_deb_suites).  Lines of other
 * packages than linux-image-* are skipped.  Free *pkgs. */
int bm_deb_madison_parse(const char *out, struct bm_debpkg **pkgs, size_t *n);

/* Brings bootmark's apt lists up to date: always when force, else when they
 * are older than BM_APT_MAX_AGE or the sources changed.  Names the suites
 * whose lists could not be fetched; 0 when some suite has lists, -ENODATA
 * when none has. */
#define BM_APT_MAX_AGE (24 * 3600)
int bm_apt_update(int force);
/* An exclusive flock on the lock file path (created), waited for with a
 * message naming what; *fd holds it until bm_cache_unlock.  0 or -errno. */
int bm_cache_lock(const char *path, const char *what, int *fd);
void bm_cache_unlock(int fd);
/* Runs apt-get (or apt-cache) with bootmark's configuration and args;
 * stdout captured into *out when out is given. */
int bm_apt_run(const char *prog, char *const *args, const char *cwd, char **out, int *status);
/* The suites that have lists, and the ones without: "bookworm, trixie (no lists
 * of bookworm-security, trixie-security)". */
int bm_apt_searched(char *buf, size_t len);
/* The package of release: 0, -ENOENT when no archive has it (after
 * updating the lists once when they did not), -errno when apt cannot tell. */
int bm_deb_lookup(const char *release, struct bm_debpkg *p);
/* "kernel list": every linux-image-*-<arch> kernel of the archives (arch one
 * of bm_arches; the meta-packages such as 6.12-arm64 left out). */
int bm_deb_available(const char *arch, struct bm_debpkg **pkgs, size_t *n);

int bm_kernels_dir(char *buf, size_t len);
/* 0 and *out filled when release is cached, -ENOENT when not. */
int bm_deb_cached(const char *release, struct bm_kernel *out);
/* 0 when Debian's archives have linux-image-<release>, -ENOENT when not. */
int bm_deb_known(const char *release);
/* Downloads, extracts, runs depmod; says so when already cached.
 * -ENOENT when Debian has no such kernel. */
int bm_deb_fetch(const char *release);
void bm_strv_free(char **v, size_t n);

/* Spec -> bootable kernel; fetches Debian kernels when fetch is set. */
int bm_kernel_resolve(struct bm_kspec *k, int fetch, struct bm_kernel *out);
/* "kernel list" output: the cached kernels of arch, and the Debian ones of
 * arch: the plain flavour, or with all every flavour. */
int bm_kernel_list(FILE *f, const char *arch, int all);
/* Returns 1 when the config has "<sym>=y", 0 when not, -errno when unreadable. */
int bm_kconfig_has(const char *config, const char *sym);

/*
 * The uncompressed kernel, for QEMU's direct (PVH) boot (kernels/vmlinux.c).
 * bm_bzimage_payload finds the payload of a bzImage in buf: offset and
 * length in the file, its format ("xz", "zstd", "gzip", "lz4", "bzip2",
 * "lzma", "lzo") and the uncompressed size in its last 4 bytes.  0,
 * -ENOEXEC not a bzImage, -ENOTSUP protocol < 2.08, -EBADMSG fields outside
 * the file, -EPROTONOSUPPORT an unknown format (off and len are set).
 */
struct bm_payload {
	size_t off, len;
	const char *format;
	unsigned size;
};
int bm_bzimage_payload(const unsigned char *buf, size_t len, struct bm_payload *p);
const char *bm_payload_format(const unsigned char *p, size_t n);
/* 1: an x86-64 ELF with a PVH entry (a "Xen" note of type 18), 0: an ELF
 * without one, -ENOEXEC: no such ELF, -EBADMSG: its headers are cut. */
int bm_elf_pvh(const unsigned char *buf, size_t len);
/* bm_elf_pvh of a file, mapped. */
int bm_vmlinux_check(const char *path);
/* A whole file mapped read-only. */
struct bm_map {
	unsigned char *p;
	size_t len;
};
int bm_map_file(const char *path, struct bm_map *m);
void bm_unmap_file(struct bm_map *m);
/* Decompresses the payload of bzimage with Debian's program for its
 * format (execve, no shell) into out, written under a temporary name and
 * renamed into place once it is an ELF of the size the bzImage names.
 * Messages name the problem (a missing program with its package). */
int bm_vmlinux_extract(const char *bzimage, const char *out);
/* 1 when vmlinux holds the banner of bzimage's version string (release,
 * build number and date): the same build.  0 not, -errno unreadable. */
int bm_vmlinux_same_build(const char *vmlinux, const char *bzimage);
/* Fills k->vmlinux (kernels/vmlinux_find.c): a Debian kernel's beside its
 * vmlinuz, taken out on first use under the entry's lock when an older
 * fetch did not; a local build's own vmlinux of the same build, else one
 * taken out into the cache.  0, or -errno (reported; k->vmlinux "");
 * -ENOTSUP for a kernel whose arch is not amd64 (PVH is x86's). */
int bm_vmlinux_get(struct bm_kernel *k);

#endif
