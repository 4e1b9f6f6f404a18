/* SPDX-License-Identifier: MIT */
/*
 * The TFTP tree of "bootmark pxe": kernels with their initrds, pxelinux and
 * iPXE configurations, and per-box queues of kernels.  The queue state lives
 * in the tree itself (TFTPDIR/bootmark/queue-<mac>), so "bootmark capture"
 * can advance a box when its results arrive without any other state.
 */
#ifndef BM_HOST_PXE_H
#define BM_HOST_PXE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "capture.h"

/* "52:54:00:12:34:56" (any case, ':' or '-') -> "52-54-00-12-34-56".  0 or -EINVAL. */
int bm_pxe_mac_norm(const char *mac, char *out, size_t len);

/*
 * A run of box mac ended.  When run is the run id the box's current queue
 * entry was booted with and completed is set, the box's pxelinux.cfg/01-<mac>
 * file (and its iPXE script) is rewritten to boot the next kernel of its queue,
 * or to boot from the local disk when the queue is empty.  A run that did not
 * complete leaves the file alone, so the box boots the same kernel again.
 * Returns 1 when the file was rewritten, 0 when nothing changed (not this box's
 * current run, or not completed), -errno on failure (message in err).
 */
int bm_pxe_advance(const char *tftpdir, const char *mac, const char *run,
		   int completed, char *err, size_t errlen);

/* ---- the pieces "bootmark pxe" and bm_pxe_advance are made of ---- */

#define BM_PXE_MAX        16      /* kernels in one tree, entries in one queue */
#define BM_PXE_LABEL_MAX  (128 + 8)
#define BM_PXE_CMDLINE_MAX 2048
#define BM_PXE_QUEUE_MAGIC "bootmark-pxe-queue 1"
#define BM_PXE_FDT_MAX    128     /* a device tree's file name in bootmark/<label>/ */

enum bm_pxe_state { BM_PXE_PENDING, BM_PXE_CURRENT, BM_PXE_DONE };

/* One kernel to boot: TFTPDIR/bootmark/<label>/{vmlinuz,initrd.img}. */
struct bm_pxe_entry {
	enum bm_pxe_state state;
	char label[BM_PXE_LABEL_MAX];
	char run[9];                          /* bootmark.run= of this entry */
	char cmdline[BM_PXE_CMDLINE_MAX];     /* the whole kernel command line */
	char fdt[BM_PXE_FDT_MAX];             /* bootmark/<label>/<fdt> (U-Boot's FDT); "" none */
};

/* A box's queue, as TFTPDIR/bootmark/queue-<mac> holds it. */
struct bm_pxe_queue {
	char mac[18];                         /* normalised: 52-54-00-12-34-56 */
	char ipxe_base[256];                  /* "" = paths relative to the script */
	char fdt[BM_PXE_FDT_MAX];             /* every entry's fdt ("fdt" line; "" none) */
	int n;
	struct bm_pxe_entry e[BM_PXE_MAX];
};

/* What goes on every command line besides the run id and finish=. */
struct bm_pxe_args {
	const char *console;      /* "ttyS0,115200n8" */
	const char *suite, *fs, *results;
	const char *disk_serial, *disk_wwn, *disk_model, *disk_size, *disk_wipe;  /* "" = unset */
	const char *append;       /* extra words, may be "" */
	long long watchdog;       /* 0 = off */
};

const char *bm_pxe_state_name(enum bm_pxe_state s);
/* 1 when s is a word the kernel command line can carry: printable, no space or quote. */
int bm_pxe_word_ok(const char *s);
/* 1 when s can be an entry's fdt: a file name (bm_safe_name) ending in .dtb. */
int bm_pxe_fdt_ok(const char *s);
/*
 * The command line of one boot: console, the bootmark.* words, a->append,
 * then the kernel spec's own arguments kargs.  -ENAMETOOLONG when it does
 * not fit.
 */
int bm_pxe_cmdline(const struct bm_pxe_args *a, const char *run, const char *finish,
		   const char *kargs, char *buf, size_t len);
/* Run id number idx of who ("default" or a MAC): from seed when it is not
 * "", deterministic; else random.  0 or -errno. */
int bm_pxe_run_id(const char *seed, const char *who, int idx, char out[9]);

/*
 * File contents.  cfg: a pxelinux configuration booting e[def] by default
 * with every entry as a LABEL, or "LOCALBOOT 0" when n is 0; serial comes
 * from the console= word ("SERIAL 0 115200" for ttyS0,115200n8), an entry's
 * fdt an FDT line (U-Boot's pxe reads the same file, extlinux syntax).  ipxe:
 * an iPXE script booting e, or exiting to the next boot device when e is
 * NULL; with chain_mac, it first chains bootmark-<mac>.ipxe when the box
 * has one.  Both return -ENAMETOOLONG when len is too small.
 */
int bm_pxe_cfg_text(const struct bm_pxe_entry *e, int n, int def, char *buf, size_t len);
int bm_pxe_ipxe_text(const struct bm_pxe_entry *e, const char *base, int chain_mac,
		     char *buf, size_t len);
int bm_pxe_queue_text(const struct bm_pxe_queue *q, char *buf, size_t len);
/* Parses a queue file's text; origin names it in err.  0 or -EINVAL. */
int bm_pxe_queue_parse(struct bm_pxe_queue *q, const char *text, const char *origin,
		       char *err, size_t errlen);

/* Writes pxelinux.cfg/01-<mac>, bootmark-<mac>.ipxe and then
 * bootmark/queue-<mac> (last: a crash before it repeats the same writes). */
int bm_pxe_write_box(const char *tftpdir, const struct bm_pxe_queue *q, char *err, size_t errlen);
/* Writes pxelinux.cfg/default and bootmark.ipxe for entries e[0..n). */
int bm_pxe_write_default(const char *tftpdir, const struct bm_pxe_entry *e, int n,
			 const char *ipxe_base, int chain_mac, char *err, size_t errlen);

/*
 * U-Boot (arm64 trees): distro boot's dhcp target fetches boot.scr.uimg over
 * TFTP and sources it; the script hands over to U-Boot's own pxelinux reader
 * ("pxe get", "pxe boot"), which reads pxelinux.cfg/01-<mac> or default.
 * uboot_cmd: the script's text.  uimage_script: text as a legacy uImage of
 * type script (U-Boot's include/image.h: a 64-byte big-endian header with
 * CRC-32s, then the script's length, a 0 and the script, as mkimage -T
 * script makes it), stamped with stamp (0, or SOURCE_DATE_EPOCH).  Both
 * return -ENAMETOOLONG when len is too small; uimage_script sets *used.
 */
#define BM_UIMAGE_MAGIC   0x27051956u
#define BM_UIMAGE_HDR     64
int bm_pxe_uboot_cmd(char *buf, size_t len);
int bm_pxe_uimage_script(const char *text, uint32_t stamp, unsigned char *buf, size_t len,
			 size_t *used);

/* ---- the PXE backend (backend.h): a box boots from the tree, bootmark follows it ---- */

struct bm_kspec;
struct bm_src;

/* prepare: the TFTP tree for nk checked kernels (cmd_pxe.c checks them). */
struct bm_initrd_tools;

struct bm_pxe_tree {
	const char *out;            /* set from r.out: the TFTP root */
	const char *arch;           /* "amd64": pxelinux and iPXE; "arm64": U-Boot */
	const char *pxelinux;       /* pxelinux.0 to copy (amd64) */
	const char *modules_dir;    /* where ldlinux.c32 is */
	const char *suite, *fs;
	const char *run_seed;       /* "" = random run ids */
	const char *ipxe_base;      /* "" = paths relative to the script */
	const char *tools_dir, *image, *modules, *configs;  /* as bm_initrd_req's */
	const struct bm_initrd_tools *tools;                /* the same */
	struct bm_kspec *spec;      /* the kernels, */
	char (*label)[BM_PXE_LABEL_MAX];  /* their folders in TFTPDIR/bootmark/ */
	int nk;
	const char *mac;            /* normalised; "" = no box queue */
	char (*dtb)[PATH_MAX];      /* each kernel's device tree to copy; NULL or "" none */
	const char *fdt;            /* its name in bootmark/<label>/ ("" none) */
	const struct bm_pxe_args *a;
};

/* boot: a box's console followed (bootmark capture) into OUT/<label>/ per run. */
struct bm_pxe_follow {
	struct bm_src *src;         /* parsed, not yet open; closed at the end */
	struct bm_cap *cap;         /* bm_cap_init'd with r.out here; the caller frees it */
	long long runs;             /* stop after this many runs ended; 0 = no limit */
	long long idle;             /* stop after this many s without a byte; 0 = never */
	long long silence;          /* a live run silent this long is a hang; 0 = never */
	bm_cap_end_fn on_end;       /* each run that ended (history, the box's queue) */
	void *end_arg;
};

/* What a kernel file is: "amd64" (a bzImage), "arm64" (an Image), "gzip"
 * (an Image.gz, unpacked into the tree), or NULL (unknown, unreadable). */
const char *bm_pxe_image_arch(const char *path);

/* The request of the PXE backend: r.out is the TFTP root for prepare (tree),
 * the results folder for boot (follow); each step reads its own part. */
struct bm_pxe_req {
	struct bm_backend_req r;
	struct bm_pxe_tree *tree;
	struct bm_pxe_follow *follow;
};

/* The backend's steps (tree.c, follow.c); reached through bm_backend_*. */
int bm_pxe_prepare(struct bm_backend_req *req);
int bm_pxe_follow(struct bm_backend_req *req);

#endif
