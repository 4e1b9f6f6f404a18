// SPDX-License-Identifier: MIT
/*
 * What a kernel build needs on the host besides the compiler, checked before
 * make runs: a missing flex is then named with its package in one line, not
 * found at the end of a log minutes later.  The list follows the kernel's
 * Documentation/process/changes.rst ("Current Minimal Requirements").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kbuild.h"
#include "kernel.h"
#include "util.h"

int bm_in_path(const char *prog)
{
	const char *path = getenv("PATH"), *p, *end;
	char file[PATH_MAX];

	for (p = path && *path ? path : "/usr/bin:/bin"; *p; p = *end ? end + 1 : end) {
		end = p + strcspn(p, ":");
		if (end > p && snprintf(file, sizeof(file), "%.*s/%s", (int)(end - p), p, prog) <
				       (int)sizeof(file) && !access(file, X_OK))
			return 1;
	}
	return 0;
}

/* Programs every configuration runs (the host compiler builds scripts/ and
 * Kconfig's parser; flex and bison generate it; bc computes timeconst.h). */
static const struct { const char *prog, *package; } tools[] = {
	{ "make", "make" },   { "gcc", "gcc" }, { "flex", "flex" },
	{ "bison", "bison" }, { "bc", "bc" },   { "perl", "perl" },
};

int bm_kbuild_tools(void)
{
	char progs[128] = "", pkgs[128] = "";
	size_t i, n = 0;

	for (i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		if (bm_in_path(tools[i].prog))
			continue;
		snprintf(progs + strlen(progs), sizeof(progs) - strlen(progs), "%s%s",
			 n ? ", " : "", tools[i].prog);
		snprintf(pkgs + strlen(pkgs), sizeof(pkgs) - strlen(pkgs), " %s", tools[i].package);
		n++;
	}
	if (!n)
		return 0;
	bm_msg("kernel build: no %s on PATH (apt-get install%s)", progs, pkgs);
	return -EINVAL;
}

/*
 * Host libraries the configuration asks for: objtool links libelf, the
 * certificate tools libcrypto, BTF needs pahole.  Their headers are looked
 * for where Debian puts them, so a miss is a warning (a build with another
 * HOSTCFLAGS may find them elsewhere); make's log then says the rest.
 */
static const struct { const char *const opts[3], *file, *package; } libs[] = {
	{ { "CONFIG_OBJTOOL", "CONFIG_STACK_VALIDATION", NULL }, "/usr/include/gelf.h",
	  "libelf-dev" },
	{ { "CONFIG_SYSTEM_TRUSTED_KEYRING", "CONFIG_MODULE_SIG", NULL },
	  "/usr/include/openssl/opensslv.h", "libssl-dev" },
	{ { "CONFIG_DEBUG_INFO_BTF", NULL, NULL }, NULL, "dwarves" },
};

void bm_kbuild_libs(const char *dotconfig)
{
	size_t i, j;

	for (i = 0; i < sizeof(libs) / sizeof(libs[0]); i++) {
		const char *have = libs[i].file;

		for (j = 0; j < 3 && libs[i].opts[j]; j++)
			if (bm_kconfig_has(dotconfig, libs[i].opts[j]) == 1)
				break;
		if (j == 3 || !libs[i].opts[j])
			continue;
		if (have ? access(have, R_OK) == 0 : bm_in_path("pahole"))
			continue;
		bm_msg("warning: %s=y needs %s (apt-get install %s); the build may fail",
		       libs[i].opts[j], have ? have : "pahole", libs[i].package);
	}
}
