// SPDX-License-Identifier: MIT
/*
 * bootmark pxe: a TFTP tree that boots the appliance on real boxes
 * (docs/pxe.md), and --advance, the manual form of moving a box's queue on.
 * Everything is checked before the first file is written.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "cli.h"
#include "initrd.h"
#include "pxe.h"
#include "setup.h"
#include "outdir.h"
#include "util.h"

struct pxe_opts {
	char suite[32], fs[256], out[PATH_MAX], mac[32];
	char console[64], results[64], append[1024], ipxe_base[256], run_seed[64];
	char disk_serial[64], disk_wwn[64], disk_model[64], disk_size[32], disk_wipe[64];
	char pxelinux[PATH_MAX], modules_dir[PATH_MAX], advance[16], dtb[PATH_MAX];
	long long watchdog;
	int failed;
	struct bm_boot_opts b;  /* only --arch, --configs and --image: nothing boots here */
};

#define STR(n, f, d, h) { .name = n, .type = BM_OPT_STR, .off = offsetof(struct pxe_opts, f), \
			  .len = sizeof(((struct pxe_opts *)0)->f), .def = d, .help = h }

static const struct bm_opt pxe_tab[] = {
	STR("suite", suite, NULL, "suite name: <configs>/suites/NAME (required)"),
	STR("fs", fs, NULL, "filesystem profiles, comma list (required)"),
	STR("out", out, NULL, "the TFTP root to write (required)"),
	STR("mac", mac, NULL, "a box's MAC: it gets the --kernel list as its queue"),
	BM_BOOT_OPT_STR("arch", struct pxe_opts, b, arch, "auto", bm_arch_choices,
			"the boxes' architecture; auto: the host's.  amd64: pxelinux and iPXE; "
			"arm64: U-Boot (boot.scr.uimg, then U-Boot's pxe reads pxelinux.cfg)"),
	STR("console", console, NULL, "the kernel's console= (pxelinux gets SERIAL too; default: "
	    "ttyS0,115200n8 on amd64, ttyAMA0,115200 on arm64)"),
	STR("results", results, "/dev/console", "device the records go to: one UART carries both"),
	STR("disk-serial", disk_serial, "BMSCRATCH0", "serial of the one disk the runner may overwrite"),
	STR("disk-wwn", disk_wwn, NULL, "WWN the disk must also have"),
	STR("disk-model", disk_model, NULL, "model the disk must also have (no spaces)"),
	STR("disk-size", disk_size, NULL, "exact size the disk must also have (bytes or 64G)"),
	STR("disk-wipe", disk_wipe, NULL, "the disk's serial again: overwrite foreign signatures"),
	STR("append", append, NULL, "extra kernel command-line words for every kernel"),
	{ .name = "watchdog", .type = BM_OPT_INT, .off = offsetof(struct pxe_opts, watchdog),
	  .def = "0", .min = 0, .max = 3600, .help = "arm the box's hardware watchdog, s (0 = off)" },
	STR("ipxe-base", ipxe_base, NULL, "URL prefix of the files in the iPXE scripts "
	    "(default: relative to the script)"),
	STR("run-seed", run_seed, NULL, "derive run ids from this word: same arguments, same bytes "
	    "(default: random run ids)"),
	STR("dtb", dtb, NULL, "arm64: the board's device tree, as the kernel package has it "
	    "(broadcom/bcm2711-rpi-4-b.dtb) or a .dtb file's absolute path; an FDT line boots it "
	    "(default: none, the board's U-Boot passes its own)"),
	STR("pxelinux", pxelinux, "/usr/lib/PXELINUX/pxelinux.0", "pxelinux.0 to copy"),
	STR("syslinux-modules", modules_dir, "/usr/lib/syslinux/modules/bios",
	    "where ldlinux.c32 is"),
	BM_BOOT_OPT_STR("configs", struct pxe_opts, b, configs, NULL, NULL,
			"configs directory (default: <bootmark dir>/../configs)"),
	BM_BOOT_OPT_STR("image", struct pxe_opts, b, image, NULL, NULL,
			"base image (default: <bootmark dir>/base.cpio.xz; arm64: "
			"<bootmark dir>/arm64/base.cpio.xz, make arm64)"),
	STR("advance", advance, NULL, "with --out and --mac only: run RUN of the box ended; "
	    "move its queue on"),
	{ .name = "failed", .type = BM_OPT_BOOL, .off = offsetof(struct pxe_opts, failed),
	  .def = "0", .help = "with --advance: the run did not complete (the box stays)" },
	BM_OPT_END,
};

static void pxe_usage(FILE *f)
{
	static const struct bm_usage forms[] = {
		{ .cmd = "bootmark pxe",
		  .lead = "--kernel SPEC [--kernel SPEC ...] --suite NAME --fs FS[,FS...] "
		  "--out TFTPDIR", .tab = pxe_tab, .omit = "advance failed" },
		{ .cmd = "bootmark pxe",
		  .lead = "--out TFTPDIR --mac MAC --advance RUN [--failed]" },
		{ .cmd = NULL },
	};

	bm_cli_usage(f, forms);
	fprintf(f, "\nWrites a TFTP tree (pxelinux and iPXE; U-Boot's boot.scr.uimg for --arch arm64)\n"
		   "booting each kernel with the suite; with --mac the kernels are that box's queue,\n"
		   "one per boot (docs/pxe.md, docs/bare-metal.md).\n"
		   "Exit: 0 written (--advance: the box moved on), 1 --advance changed nothing,\n"
		   "100 bad input (nothing written), 111 system error.\n\n"
		   "options (--name VALUE or --name=VALUE):\n");
	bm_cli_help(f, pxe_tab);
}

struct plan {
	struct pxe_opts o;
	struct bm_kspec spec[BM_PXE_MAX];
	char label[BM_PXE_MAX][BM_PXE_LABEL_MAX];
	int nk;
	char mac[18];
	struct bm_setup s;
	struct bm_pxe_args a;
	char dtb[BM_PXE_MAX][PATH_MAX];   /* each kernel's --dtb file */
	char fdt[BM_PXE_FDT_MAX];         /* its name in the tree */
};

static int parse_args(struct plan *p, int argc, char **argv)
{
	static const char *const extra[] = { "kernel", NULL };
	const char *name, *val;
	char err[512];
	int i, rc;

	if (bm_opts_defaults(pxe_tab, &p->o))
		return -EINVAL;
	p->o.b.icount = -1;
	for (i = 1; i < argc; i++) {
		rc = bm_cli_step(pxe_tab, &p->o, extra, argc, argv, &i, &name, &val);
		if (rc)
			return rc;
		if (!name) {
			bm_msg("unexpected argument '%s' (see bootmark pxe --help)", val);
			return -EINVAL;
		}
		if (strcmp(name, "kernel"))
			continue;
		if (p->nk == BM_PXE_MAX) {
			bm_msg("at most %d --kernel options", BM_PXE_MAX);
			return -EINVAL;
		}
		if (bm_kspec_parse(&p->spec[p->nk], val, err, sizeof(err))) {
			bm_msg("%s", err);
			return -EINVAL;
		}
		p->nk++;
	}
	return 0;
}

static int need(const char *what, const char *v)
{
	if (v[0])
		return 0;
	bm_msg("missing --%s (see bootmark pxe --help)", what);
	return -EINVAL;
}

/* Values that go on the command line as one word each. */
static int check_words(struct plan *p)
{
	const struct { const char *name, *v; } w[] = {
		{ "console", p->o.console }, { "results", p->o.results },
		{ "disk-serial", p->o.disk_serial }, { "disk-wwn", p->o.disk_wwn },
		{ "disk-model", p->o.disk_model }, { "disk-size", p->o.disk_size },
		{ "disk-wipe", p->o.disk_wipe }, { "ipxe-base", p->o.ipxe_base },
		{ "run-seed", p->o.run_seed },
	};
	const char *c;
	uint64_t size;
	size_t i;

	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		if (bm_pxe_word_ok(w[i].v))
			continue;
		bm_msg("bad --%s '%s': a kernel command-line word has no spaces or quotes",
		       w[i].name, w[i].v);
		return -EINVAL;
	}
	if (!p->o.console[0] || !p->o.results[0]) {
		bm_msg("--console and --results cannot be empty");
		return -EINVAL;
	}
	if (p->o.disk_size[0] && bm_parse_size(p->o.disk_size, &size)) {
		bm_msg("bad --disk-size '%s': want bytes or a size like 64G", p->o.disk_size);
		return -EINVAL;
	}
	for (c = p->o.append; *c; c++)
		if ((*c < ' ' || *c > '~') || *c == '"') {
			bm_msg("bad --append: control characters and quotes cannot pass");
			return -EINVAL;
		}
	/* the host hands out run ids: a second bootmark.run= would win */
	for (c = strstr(p->o.append, "bootmark.run="); c; c = strstr(c + 1, "bootmark.run="))
		if (c == p->o.append || c[-1] == ' ') {
			bm_msg("bad --append: bootmark.run= is set by bootmark pxe");
			return -EINVAL;
		}
	return 0;
}

/* --dtb: arm64 only; its file name is the FDT line's in bootmark/<label>/. */
static int check_dtb(struct plan *p, const char *arch)
{
	const char *base = strrchr(p->o.dtb, '/');

	if (!p->o.dtb[0])
		return 0;
	if (strcmp(arch, "arm64")) {
		bm_msg("--dtb is for arm64 boards (U-Boot); an amd64 box has ACPI");
		return -EINVAL;
	}
	base = base ? base + 1 : p->o.dtb;
	if (!bm_pxe_fdt_ok(base) || strstr(p->o.dtb, "..") || !bm_pxe_word_ok(p->o.dtb)) {
		bm_msg("bad --dtb '%s': want a .dtb file's name (vendor/board.dtb) or absolute path",
		       p->o.dtb);
		return -EINVAL;
	}
	return bm_path(p->fdt, sizeof(p->fdt), "%s", base);
}

static int check_pxelinux(struct plan *p)
{
	char ld[PATH_MAX];

	if (bm_path(ld, sizeof(ld), "%s/ldlinux.c32", p->o.modules_dir))
		return -EINVAL;
	if (bm_is_file(p->o.pxelinux) && bm_is_file(ld))
		return 0;
	bm_msg("cannot find %s (apt-get install pxelinux syslinux-common)",
	       bm_is_file(p->o.pxelinux) ? ld : p->o.pxelinux);
	return -ENOENT;
}

/* --dtb NAME for kernel k: an absolute path is that file; a name is looked
 * up where the kernel's files are.  Debian's arm64 package has them in
 * /usr/lib/linux-image-<release>/, a kernel tree in arch/arm64/boot/dts/. */
static int find_dtb(struct plan *p, const struct bm_kernel *k, char *out)
{
	char root[PATH_MAX], boot[PATH_MAX], *slash;
	const char *const where[] = { root, k->modroot, NULL };
	int i;

	if (p->o.dtb[0] == '/') {
		snprintf(out, PATH_MAX, "%s", p->o.dtb);
		if (bm_is_file(out))
			return 0;
		bm_msg("cannot read --dtb %s", p->o.dtb);
		return -EINVAL;
	}
	/* a cached Debian kernel is <entry>/boot/vmlinuz-<release> */
	snprintf(boot, sizeof(boot), "%s", k->vmlinuz);
	slash = strrchr(boot, '/');
	if (slash)
		*slash = '\0';
	snprintf(root, sizeof(root), "%s", boot);
	slash = strrchr(root, '/');
	if (slash)
		*slash = '\0';
	for (i = 0; where[i]; i++)
		if (where[i][0] && !bm_path(out, PATH_MAX, "%s/usr/lib/linux-image-%s/%s", where[i],
					    k->release, p->o.dtb) && bm_is_file(out))
			return 0;
	if (!bm_path(out, PATH_MAX, "%s/dts/%s", boot, p->o.dtb) && bm_is_file(out))
		return 0;
	if (k->deb && !bm_path(out, PATH_MAX, "%s/usr/lib/linux-image-%s", root, k->release) &&
	    !bm_is_dir(out)) {
		/* bootmark before issue 47's end dropped them from the package */
		bm_msg("kernel %s was cached without its device trees (by an older bootmark): "
		       "remove %s and fetch it again, or give --dtb a .dtb file's absolute path",
		       k->release, root);
		return -EINVAL;
	}
	bm_msg("kernel %s has no device tree %s (looked in %s/usr/lib/linux-image-%s/ and "
	       "%s/dts/): give --dtb a .dtb file's absolute path", k->release, p->o.dtb, root,
	       k->release, boot);
	return -EINVAL;
}

/* --arch's name (auto: the host's), and the console= of its boxes when
 * --console is not given: their first UART. */
static const char *set_arch(struct plan *p)
{
	const struct bm_qemu_arch *a = strcmp(p->o.b.arch, "auto") ?
				       bm_qemu_arch_find(p->o.b.arch) : bm_qemu_arch_host();
	int arm64 = a && !strcmp(a->name, "arm64");

	if (!p->o.console[0])
		snprintf(p->o.console, sizeof(p->o.console), "%s",
			 arm64 ? "ttyAMA0,115200" : "ttyS0,115200n8");
	return arm64 ? "arm64" : "amd64";
}

/* Each kernel, fetched now (into the kernel cache, not --out), must be of
 * the tree's arch: an amd64 box cannot boot an arm64 Image, nor U-Boot's
 * booti a bzImage.  Then its --dtb. */
static int check_kernels(struct plan *p, const char *arch)
{
	struct bm_kernel k;
	const char *ka;
	int i, rc;

	for (i = 0; i < p->nk; i++) {
		rc = bm_kernel_resolve(&p->spec[i], 1, &k);
		if (rc) {
			bm_msg("kernel %s is not available", p->spec[i].text);
			return rc == -EINVAL ? -EINVAL : -ENOENT;
		}
		/* the kernel's own (kernels/arch.c); an Image.gz is unpacked and
		 * checked again as it is copied */
		ka = k.arch[0] ? k.arch : NULL;
		if (!ka || strcmp(ka, arch)) {
			bm_msg("kernel %s (%s) is %s, not %s (--arch %s)", p->spec[i].text, k.vmlinuz,
			       ka ? ka : "no kernel image bootmark knows", arch, p->o.b.arch);
			return -EINVAL;
		}
		if (p->o.dtb[0] && find_dtb(p, &k, p->dtb[i]))
			return -EINVAL;
	}
	return 0;
}
static int check_input(struct plan *p)
{
	char line[BM_PXE_CMDLINE_MAX];
	const char *arch;
	int i, rc;

	if (!p->nk) {
		bm_msg("missing --kernel (see bootmark pxe --help)");
		return -EINVAL;
	}
	if (need("suite", p->o.suite) || need("fs", p->o.fs) || need("out", p->o.out) ||
	    bm_out_plan_dir(p->o.out))
		return -EINVAL;
	if (p->o.mac[0] && bm_pxe_mac_norm(p->o.mac, p->mac, sizeof(p->mac))) {
		bm_msg("bad --mac '%s': want six hex pairs like 52:54:00:12:34:56", p->o.mac);
		return -EINVAL;
	}
	if (p->o.failed) {
		bm_msg("--failed goes with --advance");
		return -EINVAL;
	}
	arch = set_arch(p);
	if (check_words(p) || check_dtb(p, arch))
		return -EINVAL;
	/* U-Boot's trees need no loader file: the board's U-Boot is the loader */
	rc = strcmp(arch, "amd64") ? 0 : check_pxelinux(p);
	if (!rc)
		rc = bm_setup_load(&p->s, &p->o.b, p->o.suite, p->o.fs);
	if (rc)
		return rc;
	if (bm_setup_labels(p->spec, p->nk, p->label[0], sizeof(p->label[0])))
		return -EINVAL;
	rc = check_kernels(p, arch);
	if (rc)
		return rc;
	p->a = (struct bm_pxe_args){
		.console = p->o.console, .suite = p->o.suite, .fs = p->o.fs,
		.results = p->o.results, .disk_serial = p->o.disk_serial,
		.disk_wwn = p->o.disk_wwn, .disk_model = p->o.disk_model,
		.disk_size = p->o.disk_size, .disk_wipe = p->o.disk_wipe,
		.append = p->o.append, .watchdog = p->o.watchdog,
	};
	for (i = 0; i < p->nk; i++)
		if (bm_pxe_cmdline(&p->a, "00000000", "poweroff", p->spec[i].args, line,
				   sizeof(line))) {
			bm_msg("the kernel command line of %s is too long", p->spec[i].text);
			return -EINVAL;
		}
	return 0;
}

/* The TFTP tree, through the PXE backend (backend.h). */
static int prepare(struct plan *p)
{
	struct bm_pxe_tree t = {
		.arch = set_arch(p), .dtb = p->dtb, .fdt = p->fdt,
		.pxelinux = p->o.pxelinux, .modules_dir = p->o.modules_dir,
		.suite = p->o.suite, .fs = p->o.fs, .run_seed = p->o.run_seed,
		.ipxe_base = p->o.ipxe_base, .tools_dir = p->s.exe, .image = p->s.image,
		.modules = p->s.modules, .configs = p->s.configs, .tools = &p->s.tools,
		.spec = p->spec, .label = p->label, .nk = p->nk, .mac = p->mac, .a = &p->a,
	};
	struct bm_pxe_req req = { .r = { .backend = "pxe", .out = p->o.out }, .tree = &t };

	return bm_backend_prepare(&req.r);
}

/* What the box boots now, from its queue file. */
static void print_box(const char *out, const char *mac)
{
	struct bm_pxe_queue *q = malloc(sizeof(*q));
	char path[PATH_MAX], norm[18], err[512], *text = NULL;
	size_t len;
	int i;

	if (!q || bm_pxe_mac_norm(mac, norm, sizeof(norm)) ||
	    bm_path(path, sizeof(path), "%s/bootmark/queue-%s", out, norm) ||
	    bm_read_file(path, &text, &len, (size_t)1 << 20) ||
	    bm_pxe_queue_parse(q, text, path, err, sizeof(err)))
		goto out_free;
	for (i = 0; i < q->n && q->e[i].state != BM_PXE_CURRENT; i++)
		;
	if (i < q->n)
		printf("box %s boots %s (run %s)\n", norm, q->e[i].label, q->e[i].run);
	else
		printf("box %s: queue done, boots from its local disk\n", norm);
out_free:
	free(text);
	free(q);
}

static int do_advance(struct plan *p)
{
	char err[PATH_MAX + 256] = "";
	int rc;

	if (p->nk || need("out", p->o.out) || need("mac", p->o.mac)) {
		if (p->nk)
			bm_msg("--advance takes only --out, --mac and --failed");
		return BM_EXIT_USAGE;
	}
	rc = bm_pxe_advance(p->o.out, p->o.mac, p->o.advance, !p->o.failed, err, sizeof(err));
	if (rc < 0) {
		bm_msg("%s", err[0] ? err : strerror(-rc));
		return rc == -EINVAL || rc == -ENOENT ? BM_EXIT_USAGE : BM_EXIT_SYSTEM;
	}
	if (!rc)
		printf("run %s: nothing changed (%s)\n", p->o.advance,
		       p->o.failed ? "it did not complete" : "not the box's current run");
	print_box(p->o.out, p->o.mac);
	return rc ? BM_EXIT_OK : BM_EXIT_NOTDONE;
}

int bm_cmd_pxe(int argc, char **argv)
{
	struct plan *p = calloc(1, sizeof(*p));
	int rc;

	if (!p)
		return BM_EXIT_SYSTEM;
	rc = parse_args(p, argc, argv);
	if (rc == 1) {
		pxe_usage(stdout);
		rc = BM_EXIT_OK;
		goto out_free;
	}
	if (rc) {
		rc = BM_EXIT_USAGE;
		goto out_free;
	}
	if (p->o.advance[0]) {
		rc = do_advance(p);
		goto out_free;
	}
	rc = check_input(p);
	if (rc) {
		rc = rc == -ENOENT ? BM_EXIT_SYSTEM : BM_EXIT_USAGE;
		goto out_free;
	}
	rc = prepare(p) ? BM_EXIT_SYSTEM : BM_EXIT_OK;
	if (!rc)
		printf("TFTP tree in %s (see %s/bootmark/tree.txt)\n", p->o.out, p->o.out);
out_free:
	free(p);
	return rc;
}
