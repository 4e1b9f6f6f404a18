// SPDX-License-Identifier: MIT
/* Local kernel builds: local:/path/bzImage[:/modules-root], or an arm64
 * kernel's arch/arm64/boot/Image in place of the bzImage. */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "util.h"

static int try_config(struct bm_kernel *out, const char *path)
{
	if (!bm_is_file(path))
		return 0;
	snprintf(out->config, sizeof(out->config), "%s", path);
	return 1;
}

/* A config next to the image: Debian style, a build dir, a kernel tree
 * (arch/x86/boot/bzImage, arch/arm64/boot/Image), or the modules' build link. */
static void find_config(const struct bm_kspec *k, struct bm_kernel *out)
{
	char dir[PATH_MAX], path[PATH_MAX];
	char copy[PATH_MAX];

	/* dirname() may return a pointer into its argument: copy twice */
	snprintf(copy, sizeof(copy), "%s", k->bzimage);
	snprintf(dir, sizeof(dir), "%s", dirname(copy));
	if (!bm_path(path, sizeof(path), "%s/config-%s", dir, out->release) && try_config(out, path))
		return;
	if (!bm_path(path, sizeof(path), "%s/.config", dir) && try_config(out, path))
		return;
	if (!bm_path(path, sizeof(path), "%s/../../../.config", dir) && try_config(out, path))
		return;
	if (k->modroot[0] &&
	    !bm_path(path, sizeof(path), "%s/lib/modules/%s/build/.config", k->modroot, out->release))
		try_config(out, path);
}

/* x86: the bzImage header's version string; arm64: the banner in the Image */
static int image_release(const struct bm_kspec *k, struct bm_kernel *out)
{
	int amd64 = !strcmp(out->arch, "amd64"), rc;

	rc = amd64 ? bm_bzimage_release(k->bzimage, out->release, sizeof(out->release))
		   : bm_banner_release(k->bzimage, out->release, sizeof(out->release));
	if (rc) {
		bm_msg("kernel %s: %s is not %s with a version string (%s)", k->text, k->bzimage,
		       amd64 ? "a bzImage" : "an arm64 Image", strerror(-rc));
		return -EINVAL;
	}
	return 0;
}

int bm_local_resolve(struct bm_kspec *k, struct bm_kernel *out)
{
	char moddir[PATH_MAX];
	int rc;

	memset(out, 0, sizeof(*out));
	if (!bm_is_file(k->bzimage)) {
		bm_msg("kernel %s: cannot read %s", k->text, k->bzimage);
		return -ENOENT;
	}
	rc = bm_kernel_arch_of(NULL, k->bzimage, out->arch, sizeof(out->arch));
	if (rc)
		return rc == -ENOEXEC ? -EINVAL : rc;  /* said which */
	rc = image_release(k, out);
	if (rc)
		return rc;
	if (!bm_safe_name(out->release)) {
		bm_msg("kernel %s: release '%s' cannot be used as a file name", k->text, out->release);
		return -EINVAL;
	}
	snprintf(k->release, sizeof(k->release), "%s", out->release);
	if (!realpath(k->bzimage, out->vmlinuz))
		return -errno;
	if (k->modroot[0]) {
		rc = bm_path(moddir, sizeof(moddir), "%s/lib/modules/%s", k->modroot, out->release);
		if (rc)
			return rc;
		if (!bm_is_dir(moddir)) {
			bm_msg("kernel %s: %s does not exist (the image names release %s)",
			       k->text, moddir, out->release);
			return -EINVAL;
		}
		if (!realpath(k->modroot, out->modroot))
			return -errno;
	}
	find_config(k, out);
	return 0;
}
