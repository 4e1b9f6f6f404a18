// SPDX-License-Identifier: MIT
/* bootmark lava: a LAVA job that runs bootmark on a lab's boxes (lava.h, docs/lava.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "cli.h"
#include "lava.h"
#include "setup.h"
#include "outdir.h"
#include "util.h"

#define S(field) .type = BM_OPT_STR, .off = offsetof(struct bm_lava_opts, field), \
	.len = sizeof(((struct bm_lava_opts *)0)->field)

static const char *const boot_methods[] = { "ipxe", "grub", "grub-efi", "u-boot", "qemu", NULL };

static const struct bm_opt lava_tab[] = {
	{ .name = "kernel-url", S(kernel_url), .help = "URL of the kernel (bzImage), required" },
	{ .name = "initrd-url", S(initrd_url),
	  .help = "URL of the bootmark initrd (base + modules: bootmark run leaves it as "
		  "<out>/<kernel>/initrd.img), required" },
	{ .name = "dtb-url", S(dtb_url), .help = "u-boot: URL of the board's device tree "
	  "(default: none, the device type's)" },
	{ .name = "arch", S(arch), .def = "auto", .choices = bm_arch_choices,
	  .help = "the board's architecture; auto: the host's" },
	{ .name = "device-type", S(device_type),
	  .help = "LAVA device type, required (u-boot: default bcm2711-rpi-4-b)" },
	{ .name = "job-name", S(job_name), .help = "job name (default: bootmark SUITE FS)" },
	{ .name = "suite", S(suite), .def = "smoke", .help = "suite the runner runs" },
	{ .name = "fs", S(fs), .def = "ext4", .help = "comma list of filesystem profiles" },
	{ .name = "configs", S(configs), .def = NULL, .help = "configs folder the suite and the "
	  "profiles are checked in (default: <bootmark dir>/../configs); the initrd must carry "
	  "them: one that bootmark run or pxe made for the same suite" },
	{ .name = "disk-serial", S(disk_serial),
	  .help = "serial of the disk the runner reformats (one selector is required)" },
	{ .name = "disk-wwn", S(disk_wwn), .help = "WWN the disk must also have" },
	{ .name = "disk-model", S(disk_model), .help = "model the disk must also have" },
	{ .name = "disk-size", S(disk_size), .help = "exact size the disk must also have (64G)" },
	{ .name = "console", S(console), .def = "auto",
	  .help = "the box's serial console; records go there (\"\" = the device type's; auto: "
		  "ttyS0,115200n8 on amd64, ttyAMA0,115200 on arm64)" },
	{ .name = "boot-method", S(boot_method), .def = "ipxe", .choices = boot_methods,
	  .help = "LAVA boot method; u-boot: an arm64 board's booti (kernel type image); qemu: a "
		  "QEMU device type (deploy to tmpfs, the command line in -append, --commands "
		  "unused; docs/lava.md)" },
	{ .name = "commands", S(commands), .def = "ramdisk",
	  .help = "the device type's boot commands for a kernel and a ramdisk" },
	{ .name = "append", S(append), .help = "more kernel command line words" },
	{ .name = "tags", S(tags), .help = "comma list of device tags the box must have" },
	{ .name = "priority", S(priority), .def = "medium", .help = "high, medium, low or 0..100" },
	{ .name = "visibility", S(visibility), .def = "public",
	  .help = "public, personal or group:NAME[,NAME...]" },
	{ .name = "timeout", .type = BM_OPT_INT, .off = offsetof(struct bm_lava_opts, timeout),
	  .def = "0", .min = 0, .max = 10080,
	  .help = "job minutes (0: 30 for smoke and bisect, 720 otherwise)" },
	{ .name = "out", S(out), .help = "write the job to this file instead of stdout" },
	BM_OPT_END,
};

static void lava_usage(FILE *f)
{
	static const struct bm_usage forms[] = {
		{ .cmd = "bootmark lava",
		  .lead = "--kernel-url URL --initrd-url URL --device-type TYPE (--disk-serial "
		  "SERIAL | --disk-wwn WWN | --disk-model MODEL | --disk-size SIZE)",
		  .tab = lava_tab },
		{ .cmd = NULL },
	};

	bm_cli_usage(f, forms);
	fprintf(f, "\nWrites a LAVA job (YAML) that deploys the kernel and the bootmark initrd to\n"
		   "TFTP, boots them and turns every metric of the run into one LAVA test case\n"
		   "(kernel command line bootmark.lava=1; docs/lava.md).  The same options give\n"
		   "the same bytes.\n"
		   "Exit: 0 written, 100 bad input (nothing written), 111 cannot write.\n\n"
		   "options:\n");
	bm_cli_help(f, lava_tab);
}

/* Options into o: -1 to go on, or the exit code. */
static int parse(struct bm_lava_opts *o, int argc, char **argv)
{
	const char *name, *val;
	int i, rc;

	if (bm_opts_defaults(lava_tab, o))
		return BM_EXIT_SYSTEM;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o"))
			argv[i] = "--out";
		rc = bm_cli_step(lava_tab, o, NULL, argc, argv, &i, &name, &val);
		if (rc == 1) {
			lava_usage(stdout);
			return BM_EXIT_OK;
		}
		if (rc)
			return BM_EXIT_USAGE;
		if (!name) {
			bm_msg("unexpected argument '%s' (see bootmark lava --help)", val);
			return BM_EXIT_USAGE;
		}
	}
	/* auto: the host's arch, and its first UART */
	if (!strcmp(o->arch, "auto"))
		snprintf(o->arch, sizeof(o->arch), "%s", bm_qemu_arch_host()->name);
	if (!strcmp(o->console, "auto"))
		snprintf(o->console, sizeof(o->console), "%s",
			 strcmp(o->arch, "arm64") ? "ttyS0,115200n8" : "ttyAMA0,115200");
	if (!o->device_type[0] && !strcmp(o->boot_method, "u-boot"))
		snprintf(o->device_type, sizeof(o->device_type), "bcm2711-rpi-4-b");
	return -1;
}

int bm_cmd_lava(int argc, char **argv)
{
	struct bm_lava_opts o;
	static struct bm_setup s;
	struct bm_lava_req req = { .r = { .backend = "lava", .out = o.out } };
	char err[512];
	int rc;

	rc = parse(&o, argc, argv);
	if (rc >= 0)
		return rc;
	if (bm_lava_check(&o, err, sizeof(err))) {
		bm_msg("%s", err);
		return BM_EXIT_USAGE;
	}
	/* a job for a suite that does not exist, or does not parse, is bad input */
	if (bm_setup_configs(&s, o.configs, o.suite, o.fs))
		return BM_EXIT_USAGE;
	req.o = &o;
	rc = bm_backend_prepare(&req.r);
	return !rc ? BM_EXIT_OK : req.refused ? BM_EXIT_USAGE : BM_EXIT_SYSTEM;
}
