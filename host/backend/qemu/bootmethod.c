// SPDX-License-Identifier: MIT
/*
 * How QEMU boots a kernel (boot.h, bm_boot_method): its bzImage through
 * the firmware, or its uncompressed vmlinux straight at the PVH entry; on
 * arm64 the Image (Debian's vmlinuz is one, uncompressed) as it is.
 * Under TCG the bzImage's self-decompression is most of a boot that is not
 * the kernel under test (docs/bench.md, "Boot methods"), so auto takes PVH
 * whenever the kernel can do it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "qemu_boot.h"
#include "util.h"

const char *const bm_boot_method_choices[] = { "auto", "pvh", "bzimage", NULL };

static void set(struct bm_method *m, const char *name, const char *image, const char *why)
{
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->image, sizeof(m->image), "%s", image);
	snprintf(m->why, sizeof(m->why), "%s", why);
}

int bm_boot_pvh_config(const struct bm_kernel *k, char *why, size_t len)
{
	int rc;

	if (!k->config[0]) {
		snprintf(why, len, "no kernel config to tell whether it has CONFIG_PVH=y");
		return 0;
	}
	rc = bm_kconfig_has(k->config, "CONFIG_PVH");
	if (rc != 1)
		snprintf(why, len, "%s %s", k->config,
			 rc ? "cannot be read" : "has no CONFIG_PVH=y");
	return rc == 1;
}

int bm_boot_method(const struct bm_qemu_arch *arch, const char *want, struct bm_kernel *k,
		   struct bm_method *m)
{
	int forced = !strcmp(want, "pvh"), rc;
	char why[PATH_MAX + 64];

	/* PVH and bzImage are x86's; arm64's Image is what QEMU loads, as is */
	if (arch && strcmp(arch->name, "amd64")) {
		if (strcmp(want, "auto")) {
			bm_msg("--boot-method %s is amd64's: an %s kernel boots its Image", want,
			       arch->name);
			return -EINVAL;
		}
		set(m, "image", k->vmlinuz, "QEMU loads the kernel's Image");
		return 0;
	}

	if (!strcmp(want, "bzimage")) {
		set(m, "bzimage", k->vmlinuz, "--boot-method bzimage");
		return 0;
	}
	if (!bm_boot_pvh_config(k, why, sizeof(why))) {
		if (forced) {
			bm_msg("kernel %s cannot boot with --boot-method pvh: %s", k->release, why);
			return -EINVAL;
		}
		set(m, "bzimage", k->vmlinuz, why);
		return 0;
	}
	rc = bm_vmlinux_get(k);
	if (!rc) {
		rc = bm_vmlinux_check(k->vmlinux);
		if (rc == 1) {
			snprintf(why, sizeof(why), "CONFIG_PVH=y, %s has a PVH entry", k->vmlinux);
			set(m, "pvh", k->vmlinux, why);
			return 0;
		}
		snprintf(why, sizeof(why), "%s has no PVH entry note", k->vmlinux);
	} else {
		snprintf(why, sizeof(why), "no vmlinux could be had from %s (%s)", k->vmlinuz,
			 strerror(-rc));
	}
	if (forced) {
		bm_msg("kernel %s cannot boot with --boot-method pvh: %s", k->release, why);
		return rc < 0 ? rc : -EINVAL;
	}
	set(m, "bzimage", k->vmlinuz, why);
	return 0;
}
