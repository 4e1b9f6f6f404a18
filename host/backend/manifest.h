/* SPDX-License-Identifier: MIT */
/*
 * The image manifest: what the base image and each tool archive carry, written
 * by make beside the base (initramfs/mktool.sh; build/base.cpio.xz ->
 * build/base.manifest).  The host looks up each filesystem profile's mkfs in it
 * as the runner will find it (BM_MKFS_PATH), appends the tool archive that
 * carries it to the initrd, and refuses a profile whose mkfs the image cannot
 * carry before anything is created (docs/filesystems.md, "The image manifest").
 *
 *     bootmark-image-manifest 1
 *     archive base - base.cpio
 *     file base /sbin/mke2fs
 *     archive jfs jfsutils tools/jfs.cpio     ("missing": the package was not
 *     file jfs /sbin/mkfs.jfs                  installed when make ran)
 */
#ifndef BM_MANIFEST_H
#define BM_MANIFEST_H

#include <limits.h>
#include <stddef.h>

#include "profile.h"

#define BM_MANIFEST_ARCH_MAX 16
#define BM_MANIFEST_FILE_MAX 1024

struct bm_manifest_arch {
	char name[32];
	char package[64];       /* its Debian package; "-" for the base */
	char path[PATH_MAX];    /* absolute, without the compressor's suffix
				 * (.../tools/jfs.cpio); "" when not built */
};

struct bm_manifest_file {
	char path[128];         /* in the image */
	unsigned arch;          /* index into arch[] */
};

struct bm_manifest {
	unsigned narch, nfile;
	struct bm_manifest_arch arch[BM_MANIFEST_ARCH_MAX];  /* arch[0] is the base */
	struct bm_manifest_file file[BM_MANIFEST_FILE_MAX];
};

/* The manifest's name for a base image: its path less .xz/.zst/.gz and .cpio,
 * plus .manifest.  0 or -ENAMETOOLONG. */
int bm_manifest_name(const char *image, char *out, size_t len);
/* Parses text (archive paths taken relative to dir).  0, or -EINVAL with the
 * problem in err ("line N: ..."). */
int bm_manifest_parse(struct bm_manifest *m, const char *text, const char *dir,
		      char *err, size_t errlen);
/* Reads and parses the manifest at path.  0, -ENOENT when there is none,
 * -EINVAL (err says why) or another -errno. */
int bm_manifest_load(struct bm_manifest *m, const char *path, char *err, size_t errlen);
/* The entry of file[] the runner would execute for prog: a name is searched
 * along BM_MKFS_PATH, a path taken whole.  Its index, or -ENOENT. */
int bm_manifest_find(const struct bm_manifest *m, const char *prog);
/*
 * What profile p's mkfs needs: 0 and *arch NULL when the base carries it, 0
 * and *arch the built tool archive that carries it, or -ENOENT with the
 * refusal in err ("mkfs.jfs is not in the image: install jfsutils (make deps)
 * and run make"), when no archive carries it or its archive was not built.
 */
int bm_manifest_mkfs(const struct bm_manifest *m, const struct bm_fsprof *p,
		     const struct bm_manifest_arch **arch, char *err, size_t errlen);

#endif
