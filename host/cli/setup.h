/* SPDX-License-Identifier: MIT */
/*
 * What every command that boots kernels checks before it creates anything:
 * the tools beside the executable, the configs folder, the suite and the
 * filesystem profiles, the kernel specs.  Shared by run, bisect and
 * bisect-step, so they accept the same options and fail the same way.
 */
#ifndef BM_SETUP_H
#define BM_SETUP_H

#include <limits.h>
#include <stddef.h>

#include "qemu_boot.h"
#include "initrd.h"
#include "kernel.h"
#include "opts.h"
#include "profile.h"
#include "progress.h"

/* The QEMU and image options every booting command takes (option table
 * entries in BM_BOOT_OPTS). */
struct bm_boot_opts {
	char arch[8];
	char accel[8];
	char configs[PATH_MAX];
	char image[PATH_MAX];
	char disk_cache[16];
	char machine[8];
	char cpu[64];
	char boot_method[8];
	long long mem, smp, silence, timeout, icount;
	int keep_disk;
	int fail_on_warning;
	char extra_initrd[PATH_MAX];
	char disk_bus[16];
	char decoy[PATH_MAX];
};

extern const char *const bm_arch_choices[];
/* Merges each item of the comma list into buf as optional ("reiserfs?"): a
 * kernel without it still gets its archive.  0, or -E2BIG. */
int bm_setup_merge_optional(char *buf, size_t len, const char *list);
extern const char *const bm_accel_choices[];
extern const char *const bm_cache_choices[];
extern const char *const bm_machine_choices[];

/* Table entries for a struct bm_boot_opts member m of struct T. */
#define BM_BOOT_OPT_STR(n, T, m, f, d, ch, h) \
	{ .name = n, .type = BM_OPT_STR, .off = offsetof(T, m.f), \
	  .len = sizeof(((T *)0)->m.f), .def = d, .choices = ch, .help = h }
#define BM_BOOT_OPT_INT(n, T, m, f, d, lo, hi, h) \
	{ .name = n, .type = BM_OPT_INT, .off = offsetof(T, m.f), .def = d, \
	  .min = lo, .max = hi, .help = h }
#define BM_BOOT_OPTS(T, m) \
	BM_BOOT_OPT_STR("arch", T, m, arch, "auto", bm_arch_choices, \
			"the guest's architecture; auto: the host's (the kernels must be of it)"), \
	BM_BOOT_OPT_STR("accel", T, m, accel, "auto", bm_accel_choices, \
			"auto probes KVM with a test boot, falls back to TCG"), \
	BM_BOOT_OPT_INT("mem", T, m, mem, "1024", 256, 1048576, "guest memory, MiB"), \
	BM_BOOT_OPT_INT("smp", T, m, smp, "2", 1, 256, "guest CPUs"), \
	BM_BOOT_OPT_INT("silence-timeout", T, m, silence, "120", 5, 86400, \
			"stop a boot after this many s without progress"), \
	BM_BOOT_OPT_INT("timeout", T, m, timeout, "1800", 10, 604800, "hard limit per boot, s"), \
	BM_BOOT_OPT_STR("configs", T, m, configs, NULL, NULL, \
			"configs directory (default: <bootmark dir>/../configs)"), \
	BM_BOOT_OPT_STR("image", T, m, image, NULL, NULL, \
			"base image (default: <bootmark dir>/base.cpio.xz)"), \
	BM_BOOT_OPT_STR("disk-cache", T, m, disk_cache, "auto", bm_cache_choices, \
			"QEMU cache= of the test disk; auto: none if O_DIRECT works, else writeback"), \
	BM_BOOT_OPT_STR("machine", T, m, machine, "auto", bm_machine_choices, \
			"QEMU machine type; auto: q35 (amd64), virt with GICv3 (arm64)"), \
	BM_BOOT_OPT_STR("cpu", T, m, cpu, "auto", NULL, BM_CPU_HELP), \
	BM_BOOT_OPT_STR("boot-method", T, m, boot_method, "auto", bm_boot_method_choices, \
			"pvh: QEMU loads the uncompressed vmlinux at its PVH entry (no " \
			"decompression under emulation); bzimage: the bzImage through the " \
			"firmware; auto: pvh when the kernel has CONFIG_PVH=y and its vmlinux " \
			"can be had"), \
	BM_BOOT_OPT_INT("icount", T, m, icount, "-1", -1, 10, \
			"TCG virtual time: the guest clock ticks 2^N ns per instruction, " \
			"so host load does not show in timings; implies --smp 1; -1 = off"), \
	{ .name = "keep-disk", .type = BM_OPT_BOOL, .off = offsetof(T, m.keep_disk), .def = "0", \
	  .help = "keep OUT/<label>/disk.img after the boot" }, \
	{ .name = "fail-on-warning", .type = BM_OPT_BOOL, .off = offsetof(T, m.fail_on_warning), \
	  .def = "0", .help = "class a complete boot with kernel warnings (Oops, BUG, WARNING, " \
	  "KASAN...) kernel-warning, exit 14; without it they are only recorded" }, \
	BM_BOOT_OPT_STR("extra-initrd", T, m, extra_initrd, NULL, NULL, \
			"a (compressed) newc archive appended to every initrd, e.g. the " \
			"benchmark part with fio (docs/performance.md)"), \
	BM_BOOT_OPT_STR("disk-bus", T, m, disk_bus, "virtio", bm_disk_bus_choices, \
			BM_DISK_BUS_HELP), \
	BM_BOOT_OPT_STR("decoy-disk", T, m, decoy, NULL, NULL, BM_DECOY_HELP)

#define BM_SETUP_FS_MAX 8

struct bm_setup {
	const struct bm_qemu_arch *arch;  /* --arch */
	char machine[32];                 /* --machine, auto resolved */
	char exe[PATH_MAX], image[PATH_MAX], configs[PATH_MAX], modules[1024];
	char boot_modules[1024];          /* bootmark.conf's modules + the arch's (records port) */
	char boot_method[8];              /* --boot-method */
	struct bm_fsprof prof[BM_SETUP_FS_MAX];
	unsigned nprof;
	/* the tool archives the profiles' mkfs need (the image manifest) */
	struct bm_initrd_tools tools;
	struct bm_suite suite;
	struct bm_plan tests;   /* what one boot runs: the progress estimate */
};

/* --arch (auto: the host's) against --accel: the guest's architecture, or
 * NULL (reported: an unknown one, KVM for another than the host's).  Shared
 * by every booting command and bench-boot, so they refuse alike. */
const struct bm_qemu_arch *bm_setup_arch(const char *arch, const char *accel);

/*
 * Resolves the tools, the configs folder and the image; loads the suite and
 * the profiles (fs is a comma list) and finds each profile's mkfs in the
 * image manifest beside the image (host/backend/manifest.h): the tool archives
 * they need go in s->tools, and a profile whose mkfs the image cannot carry
 * is bad input.  Returns 0, -EINVAL for bad input or -ENOENT when the build
 * is missing (both reported).
 */
int bm_setup_load(struct bm_setup *s, const struct bm_boot_opts *o, const char *suite,
		  const char *fs);
/*
 * The kernel of spec ready to boot: resolved (a Debian one fetched into the
 * cache when missing), its boot method possible (--boot-method pvh needs
 * CONFIG_PVH=y; the vmlinux is taken out here, before OUT exists) and every
 * module the boot and the profiles need found in its module tree.  0; -EINVAL bad input (a module the kernel lacks: the
 * message names module, profile and kernel); -errno a system error (fetch).
 */
int bm_setup_kernel(const struct bm_setup *s, struct bm_kspec *spec, struct bm_kernel *k);
/* Only the configs folder (configs, or the tree's when ""), the suite and the
 * profiles, as bm_setup_load checks them: for commands that boot nothing
 * (lava).  0, or -EINVAL (reported). */
int bm_setup_configs(struct bm_setup *s, const char *configs, const char *suite,
		     const char *fs);
/* A local spec must resolve, a Debian release must exist.  0 or -EINVAL. */
int bm_setup_check_kernel(struct bm_kspec *k);
/* Checks spec[0..n-1] (bm_setup_check_kernel) and labels them as every command
 * does: the release, "_2", "_3"... for a release an earlier spec had already.
 * Label i is written at labels + i * stride (a row of a char[n][stride]). */
int bm_setup_labels(struct bm_kspec *spec, int n, char *labels, size_t stride);
/* The suite's disk_size against what the filesystem --out (out, or the
 * nearest folder of it that exists) is on can hold: a sparse file of that
 * size, tried as an unnamed O_TMPFILE that is gone at close.  0, or -EINVAL
 * (reported) before anything exists; 0 when it cannot be told. */
int bm_setup_check_disk(const struct bm_setup *s, const char *out);
/* The run configuration for boots writing under out. */
void bm_setup_run_cfg(const struct bm_setup *s, const struct bm_boot_opts *o, const char *out,
		      const char *suite, const char *fs, struct bm_run_cfg *c);

#endif
