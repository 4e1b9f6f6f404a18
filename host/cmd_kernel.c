// SPDX-License-Identifier: MIT
/* bootmark kernel fetch SPEC | kernel list */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "kernel.h"
#include "util.h"

static void kernel_usage(FILE *f)
{
	fprintf(f, "usage: bootmark kernel fetch SPEC\n"
		   "       bootmark kernel list\n\n"
		   "fetch: SPEC is RELEASE or deb:RELEASE (apt-get download linux-image-RELEASE,\n"
		   "       extracted and depmod'ed into the cache), or local:BZIMAGE[:MODULES_ROOT]\n"
		   "       (checked, nothing copied).\n"
		   "list:  cached kernels and the Debian ones apt-cache knows.\n"
		   "Cache: $BOOTMARK_CACHE, else $XDG_CACHE_HOME/bootmark, else ~/.cache/bootmark.\n"
		   "Exit: 0 ok, 100 bad spec, 111 download/extract/system error.\n");
}

static int fetch(const char *spec)
{
	struct bm_kspec k;
	struct bm_kernel out;
	char err[512];
	int rc;

	if (bm_kspec_parse(&k, spec, err, sizeof(err))) {
		bm_msg("%s", err);
		return BM_EXIT_USAGE;
	}
	if (k.kind == BM_KSPEC_LOCAL) {
		rc = bm_local_resolve(&k, &out);
		if (rc)
			return rc == -EINVAL || rc == -ENOENT ? BM_EXIT_USAGE : BM_EXIT_SYSTEM;
		printf("local kernel %s: %s%s%s\n", out.release, out.vmlinuz,
		       out.modroot[0] ? ", modules in " : " (no modules: all built in)", out.modroot);
		return BM_EXIT_OK;
	}
	rc = bm_deb_fetch(k.release);
	return rc == -ENOENT ? BM_EXIT_USAGE : rc ? BM_EXIT_SYSTEM : BM_EXIT_OK;
}

int bm_cmd_kernel(int argc, char **argv)
{
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		kernel_usage(stdout);
		return BM_EXIT_OK;
	}
	if (argc == 3 && !strcmp(argv[1], "fetch"))
		return fetch(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "list"))
		return bm_kernel_list(stdout) ? BM_EXIT_SYSTEM : BM_EXIT_OK;
	if (argc >= 3 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
		kernel_usage(stdout);
		return BM_EXIT_OK;
	}
	kernel_usage(stderr);
	return BM_EXIT_USAGE;
}
