/* SPDX-License-Identifier: MIT */
/*
 * The QEMU backend (backend.h): one boot of one kernel in QEMU, and the files
 * it leaves in OUT/<label>/.  The launcher itself (argv, KVM probe, watchdog,
 * stop on signals) is the top-level qemu/ library.
 */
#ifndef BM_QEMU_BOOT_H
#define BM_QEMU_BOOT_H

#include <limits.h>
#include <stdio.h>

#include "backend.h"
#include "boot.h"
#include "hostload.h"
#include "kargs.h"
#include "kernel.h"
#include "progress.h"
#include "qemu.h"
#include "results.h"

/* How a kernel boots (bootmethod.c): "pvh" or "bzimage", the file
 * QEMU's -kernel is given, and why (meta.json boot_method_why). */
struct bm_method {
	char name[8];
	char image[PATH_MAX];
	char why[PATH_MAX + 64];
};

extern const char *const bm_boot_method_choices[];
/*
 * want: auto (PVH when the config has CONFIG_PVH=y and a vmlinux with a
 * PVH entry can be had, else the bzImage), pvh (that or an error), bzimage.
 * Takes the vmlinux out of the bzImage when needed (bm_vmlinux_get).  0;
 * -EINVAL when pvh cannot be (reported); -errno from the extraction.
 */
int bm_boot_method(const struct bm_qemu_arch *arch, const char *want, struct bm_kernel *k,
		   struct bm_method *m);
/* 1 when k's config has CONFIG_PVH=y, else 0 and why not. */
int bm_boot_pvh_config(const struct bm_kernel *k, char *why, size_t len);

struct bm_boot {
	char label[BM_REL_MAX + 16];  /* OUT/<label>/ */
	char dir[PATH_MAX];
	const char *spec;
	struct bm_kernel k;
	struct bm_method method;      /* what -kernel is, and why */
	char run[BM_RUN_LEN + 1];
	char append[1024];
	char initrd[PATH_MAX];
	char initrd_desc[PATH_MAX * 3 + 16];
	char config_archive[PATH_MAX];  /* the suite and profiles the guest reads */
	char sha_config[65];
	char disk[PATH_MAX];
	char disk_cache[16];
	char cpu[64];                 /* the -cpu QEMU got (meta.json) */
	char arch[16];                /* the guest's architecture, Debian's name (meta.json) */
	char disk_bus[16];            /* the test disk's bus (meta.json) */
	char decoy[PATH_MAX];         /* --decoy-disk, or "" (meta.json) */
	struct bm_argv argv;
	int kvm;
	char accel_why[300];
	char sha_vmlinuz[65];
	char sha_initrd[65];
	char start[32], end[32];
	struct bm_watch_result w;
	char qemu_said[200];          /* QEMU's last words when it exited non-zero */
	long long planned;            /* tests the host's suite plans (meta.json) */
	int fail_on_warning;          /* --fail-on-warning (meta.json: readers class alike) */
	struct bm_load load;          /* the host's load over the boot (meta.json load_*) */
	int exclusive;                /* the run held the host's lock exclusively */
	int icount;                   /* virtual time: the load does not show in timings */
	struct bm_results res;
};

/* --cpu's help, for every command that boots (bm_qemu_cpu) */
#define BM_CPU_HELP "QEMU -cpu; auto: host under KVM, " BM_QEMU_TCG_CPU " (amd64) or " \
	"neoverse-n1 (arm64) under TCG (docs/cli.md says why)"

/* What an NVMe boot adds to the kernel command line (docs/cli.md --disk-bus). */
#define BM_NVME_KARGS "nvme.poll_queues=1"

/* --disk-bus and --decoy-disk's help, for every command that boots */
#define BM_DISK_BUS_HELP "the test disk's bus: virtio (virtio-blk), virtio-scsi, nvme, sata " \
	"(AHCI), sas (LSI SAS1068), megasas (MegaRAID SAS 2108); the runner loads the drivers " \
	"of the controllers it finds"
#define BM_DECOY_HELP "FILE, a raw image of your own: a second disk on the same bus " \
	"(serial " BM_DECOY_SERIAL "), a lab box's other disk, which the runner must leave alone"

/* Settings shared by all boots of one "bootmark run". */
struct bm_initrd_tools;

struct bm_run_cfg {
	const char *out;
	const char *suite;
	const char *fs;           /* comma list of profile names */
	const char *configs;      /* the validated configs folder: suite and profiles travel */
	const char *tools;        /* directory of bm-mkinitramfs */
	const char *image;        /* base.cpio.xz */
	const char *accel;        /* auto, kvm, tcg */
	const char *disk_cache;   /* auto, none, writeback, unsafe, directsync */
	const struct bm_qemu_arch *arch;  /* the guest's; NULL the host's */
	const char *machine;      /* q35, pc, virt...: resolved, never auto */
	const char *cpu;          /* QEMU -cpu, or auto (bm_qemu_cpu) */
	const char *boot_method;  /* auto, pvh, bzimage */
	const char *modules;      /* boot modules + the profiles' modules */
	const struct bm_initrd_tools *tools_archives;  /* the profiles' mkfs; NULL = none */
	const char *extra_initrd; /* appended to the initrd when not "" */
	const char *disk_bus;     /* bm_disk_buses name */
	const char *decoy;        /* --decoy-disk, or "" */
	unsigned long long disk_size;
	int mem, smp, silence, timeout, keep_disk;
	int fail_on_warning;      /* a complete run with kernel warnings is kernel-warning */
	int icount;               /* -1 off, else -icount shift (TCG only) */
	long long planned;        /* tests one boot runs per the host's suite; 0 unknown */
	int overwrite;            /* --overwrite: a label folder's old entries go first */
	int exclusive;            /* --exclusive: the host's measuring lock is held */
	struct bm_progress *progress;  /* live line of the next boot; NULL = none */
};

/*
 * Resolves (fetching if needed) and boots one kernel into b->dir; b->label
 * and b->spec are set by the caller.  Returns 0 when QEMU ran (the verdict
 * is b->res.status) or -errno for an infrastructure failure (reported).
 */
int bm_boot_one(const struct bm_run_cfg *c, struct bm_kspec *spec, struct bm_boot *b);
/*
 * The steps of bm_boot_one before QEMU, for "bench-boot": resolves the
 * kernel, chooses its boot method, writes b->initrd and b->disk in b->dir
 * (which must exist), sets the run id and the kernel command line.  Returns 0 or -errno (reported).
 */
int bm_boot_prepare(const struct bm_run_cfg *c, struct bm_kspec *spec, struct bm_boot *b);
/* A new disk image at path (bm_out_open: never through a link): size bytes,
 * sparse but for its first 4 KiB, written zeros (boot.c says why).  0 or -errno. */
int bm_boot_make_disk(const char *path, unsigned long long size);
/* The QEMU configuration bm_boot_one boots b with (b->kvm must be set). */
void bm_boot_qemu_cfg(const struct bm_run_cfg *c, const struct bm_boot *b, const char *con,
		      const char *res, struct bm_qemu_cfg *q);

/* The request of the QEMU backend's boot: bm_boot_one's arguments; r.out is
 * b->dir.  Returns as bm_boot_one. */
struct bm_qemu_req {
	struct bm_backend_req r;
	const struct bm_run_cfg *c;
	struct bm_kspec *spec;
	struct bm_boot *b;
};

/* Every name a boot writes in OUT/<label>/, NULL-terminated (outdir.h checks). */
extern const char *const bm_boot_files[];
/* OUT/<label>/meta.json */
int bm_write_meta(const struct bm_boot *b);

#endif
