// SPDX-License-Identifier: MIT
/* bootmark kernel fetch SPEC | kernel list [--all] [--arch A] | kernel update |
 * kernel build SRC */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "kbuild.h"
#include "kernel.h"
#include "util.h"

#define KSTR(n, f, d, h) { .name = n, .type = BM_OPT_STR, .off = offsetof(struct bm_kbuild, f), \
			   .len = sizeof(((struct bm_kbuild *)0)->f), .def = d, .help = h }

static const struct bm_opt build_tab[] = {
	KSTR("out", out, NULL, "build directory (make O=); default <cache>/builds/<name of SRC>"),
	KSTR("base", base, "defconfig", "defconfig, allnoconfig, tinyconfig, or a config FILE"),
	KSTR("fragment", fragment, NULL, "config fragment (default: <configs>/kernel.config, "
	     "arm64's kernel-arm64.config)"),
	{ .name = "jobs", .type = BM_OPT_INT, .off = offsetof(struct bm_kbuild, jobs), .def = "0",
	  .min = 0, .max = 1024, .help = "make -j; 0 = the number of online CPUs" },
	{ .name = "arch", .type = BM_OPT_STR, .off = offsetof(struct bm_kbuild, arch),
	  .len = sizeof(((struct bm_kbuild *)0)->arch), .choices = bm_arches,
	  .help = "the kernel's architecture; default the host's (another is cross-compiled: "
		  "ARCH=, CROSS_COMPILE=)" },
	BM_OPT_END,
};

struct list_opts {
	int all;
	char arch[BM_ARCH_MAX];
};

static const struct bm_opt list_tab[] = {
	{ .name = "all", .type = BM_OPT_BOOL, .off = offsetof(struct list_opts, all),
	  .help = "every flavour (cloud, rt), not only the plain one" },
	{ .name = "arch", .type = BM_OPT_STR, .off = offsetof(struct list_opts, arch),
	  .len = sizeof(((struct list_opts *)0)->arch), .choices = bm_arches,
	  .help = "the kernels of this architecture; default the host's" },
	BM_OPT_END,
};

static void kernel_usage(FILE *f)
{
	static const struct bm_usage forms[] = {
		{ .cmd = "bootmark kernel fetch", .lead = "SPEC" },
		{ .cmd = "bootmark kernel list", .tab = list_tab },
		{ .cmd = "bootmark kernel update" },
		{ .cmd = "bootmark kernel build", .lead = "SRC", .tab = build_tab },
		{ .cmd = NULL },
	};

	bm_cli_usage(f, forms);
	fprintf(f, "\nfetch: SPEC is RELEASE or deb:RELEASE (linux-image-RELEASE from whichever of\n"
		   "       Debian 12's and 13's archives has it: bookworm, trixie and their\n"
		   "       -security, -updates and -backports; downloaded, extracted and\n"
		   "       depmod'ed into the cache), or local:IMAGE[:MODULES_ROOT] (an x86\n"
		   "       bzImage or an arm64 Image; checked, nothing copied).  A release's end\n"
		   "       names its architecture: 6.1.0-53-amd64, 6.1.0-53-arm64, 6.1.0-53-cloud-arm64.\n"
		   "list:  cached kernels and the Debian ones, with package version and archive,\n"
		   "       of one architecture (--arch: amd64 or arm64; default the host's, %s):\n"
		   "       the plain flavour (6.1.0-53-%s), or with --all the others too (cloud,\n"
		   "       rt; arm64's 16 KiB pages, 6.12.117+deb13-arm64-16k).\n"
		   "update: fetches bootmark's Debian package lists now (<cache>/apt; otherwise\n"
		   "       when older than a day, or when a kernel is not found in them).\n"
		   "       The mirror comes from the host's apt sources, else deb.debian.org;\n"
		   "       $BOOTMARK_DEBIAN_MIRROR and $BOOTMARK_DEBIAN_SECURITY override it.\n"
		   "build: SRC is a kernel tree or a tarball (unpacked once into OUT/src); the\n"
		   "       base config plus the fragment (virtio, ext4, xfs, serial console,\n"
		   "       devtmpfs built in), make bzImage; prints local:OUT/arch/x86/boot/bzImage\n"
		   "       last, and make's output goes to OUT/build.log.  --arch arm64: the\n"
		   "       fragment configs/kernel-arm64.config (PL011 console, virtio-console,\n"
		   "       PCI host), make Image, local:OUT/arch/arm64/boot/Image; cross-compiled\n"
		   "       (ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-) on an amd64 host.\n"
		   "Cache: $BOOTMARK_CACHE, else $XDG_CACHE_HOME/bootmark, else ~/.cache/bootmark.\n"
		   "Exit: 0 ok, 1 the kernel did not build, 100 bad spec or option (an\n"
		   "      architecture other than amd64 and arm64), 111 download/extract/system error.\n\n"
		   "kernel list options:\n", bm_host_arch(), bm_arch_ok(bm_host_arch()) ?
		   bm_host_arch() : "amd64");
	bm_cli_help(f, list_tab);
	fprintf(f, "\nkernel build options:\n");
	bm_cli_help(f, build_tab);
}

static int list(int argc, char **argv)
{
	struct list_opts o;
	const char *name, *val;
	int i, rc;

	bm_opts_defaults(list_tab, &o);
	for (i = 1; i < argc; i++) {
		rc = bm_cli_step(list_tab, &o, NULL, argc, argv, &i, &name, &val);
		if (rc == 1) {
			kernel_usage(stdout);
			return BM_EXIT_OK;
		}
		if (rc)
			return BM_EXIT_USAGE;  /* said why: an unknown architecture names ours */
		if (!name) {
			bm_msg("kernel list takes no '%s' (only --all and --arch)", val);
			return BM_EXIT_USAGE;
		}
	}
	if (!o.arch[0])
		snprintf(o.arch, sizeof(o.arch), "%s", bm_host_arch());
	/* a host of another architecture lists nothing by default: say which there are */
	if (bm_arch_check("kernel list (this host's architecture; give --arch)", o.arch))
		return BM_EXIT_USAGE;
	return bm_kernel_list(stdout, o.arch, o.all) ? BM_EXIT_SYSTEM : BM_EXIT_OK;
}

static int build(int argc, char **argv)
{
	struct bm_kbuild b;
	char spec[PATH_MAX + 8], exe[PATH_MAX];
	const char *src = NULL, *name, *val, *frag;
	int i, rc;

	bm_opts_defaults(build_tab, &b);
	b.quiet = 0;
	for (i = 1; i < argc; i++) {
		rc = bm_cli_step(build_tab, &b, NULL, argc, argv, &i, &name, &val);
		if (rc == 1) {
			kernel_usage(stdout);
			return BM_EXIT_OK;
		}
		if (rc)
			return BM_EXIT_USAGE;
		if (!name && src) {
			bm_msg("kernel build takes one SRC, got '%s' and '%s'", src, val);
			return BM_EXIT_USAGE;
		}
		if (!name)
			src = val;
	}
	if (!src) {
		bm_msg("kernel build: missing SRC (a kernel tree or a tarball)");
		return BM_EXIT_USAGE;
	}
	snprintf(b.src, sizeof(b.src), "%s", src);
	if (!b.arch[0])
		snprintf(b.arch, sizeof(b.arch), "%s", bm_host_arch());
	if (bm_arch_check("kernel build (this host's architecture; give --arch)", b.arch))
		return BM_EXIT_USAGE;
	/* arm64's has its console (PL011) and PCI host (ECAM) instead of x86's */
	frag = strcmp(b.arch, "amd64") ? "kernel-arm64.config" : "kernel.config";
	if (!b.fragment[0] && (bm_exe_dir(exe, sizeof(exe)) ||
			       bm_path(b.fragment, sizeof(b.fragment), "%s/../configs/%s", exe, frag))) {
		bm_msg("cannot find configs/%s: give --fragment", frag);
		return BM_EXIT_USAGE;
	}
	rc = bm_kernel_build(&b, spec, sizeof(spec));
	if (rc == BM_KBUILD_FAILED)
		return BM_EXIT_NOTDONE;
	if (rc)
		return rc == -EINVAL ? BM_EXIT_USAGE : BM_EXIT_SYSTEM;
	printf("%s\n", spec);
	return BM_EXIT_OK;
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
	if (argc >= 2 && !strcmp(argv[1], "build"))
		return build(argc - 1, argv + 1);
	if (argc == 2 && !strcmp(argv[1], "update")) {
		if (bm_apt_update(1))
			return BM_EXIT_SYSTEM;
		printf("kernel update: bootmark's Debian package lists are fresh (kernel list "
		       "shows what they hold)\n");
		return BM_EXIT_OK;
	}
	if (argc >= 2 && !strcmp(argv[1], "list"))
		return list(argc - 1, argv + 1);
	if (argc >= 3 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
		kernel_usage(stdout);
		return BM_EXIT_OK;
	}
	if (argc < 2)
		bm_msg("kernel: missing a command (fetch, list or build; see bootmark kernel --help)");
	else if (strcmp(argv[1], "fetch") && strcmp(argv[1], "list"))
		bm_msg("kernel: unknown command '%s' (fetch, list or build; see bootmark kernel "
		       "--help)", argv[1]);
	else
		bm_msg("kernel fetch takes one SPEC (see bootmark kernel --help)");
	return BM_EXIT_USAGE;
}
