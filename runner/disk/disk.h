/* SPDX-License-Identifier: MIT */
/*
 * Choosing the test disk (by serial, WWN, model and exact size; never by
 * name) and the checks made before the runner writes to it.  sysfs and
 * /proc paths are parameters so tests can point them at a fixture tree.
 *
 * Return codes tell a refusal (the configuration or the disk's state says
 * "do not write here") from a disk subsystem that shows nothing at all:
 *   -ENOENT  sysblock cannot be read            (not a refusal)
 *   -ENXIO   no candidate disk at all           (not a refusal)
 *   anything else from disk_find/disk_check_*   a refusal
 */
#ifndef BM_RUNNER_DISK_H
#define BM_RUNNER_DISK_H

#include <stddef.h>
#include <stdint.h>

struct disk_sel {            /* every selector that is set must match */
	const char *serial;      /* "" = any */
	const char *wwn;         /* "" = any; compared without naa./eui./0x, any case */
	const char *model;       /* "" = any; "model" or "vendor model" */
	uint64_t size;           /* bytes, 0 = any */
};

struct disk_info {
	char name[32];       /* vda */
	char dev[48];        /* /dev/vda */
	char serial[64];     /* "" if sysfs shows none */
	char wwn[80];        /* as sysfs shows it, "" if none */
	char model[80];      /* "vendor model" when both are known */
	size_t model_at;     /* where the model alone starts in model */
	uint64_t size;       /* bytes */
	unsigned major, minor;
	int wiped;           /* set by the caller after disk_wipe */
	char bus[16];        /* disk_bus_read: nvme, sata, sas, scsi, virtio, virtio-scsi ... */
	char driver[32];     /* the controller's driver: ahci, nvme, mptsas ... */
};

/* Scans sysblock (/sys/block) for exactly one disk that matches sel.
 * -ENODEV none, -EEXIST several; err lists the disks seen. */
int disk_find(const char *sysblock, const struct disk_sel *sel, struct disk_info *d,
	      char *err, size_t errlen);
/* Called while disk_wait finds nothing: before the first nap, then every
 * 50 ms (coldplug passes: the drivers of what the last one found). */
struct disk_waiter {
	void (*tick)(void *arg);
	void *arg;
};
/* disk_find, retried every 10 ms for up to wait_s seconds while nothing
 * matches; w (or NULL) ticks meanwhile. */
int disk_wait(const char *sysblock, const struct disk_sel *sel, int wait_s,
	      const struct disk_waiter *w, struct disk_info *d, char *err, size_t errlen);
/* The bus and controller driver of d (d->name), from its device path:
 * 0 or -errno (both then ""). */
int disk_bus_read(const char *sysblock, struct disk_info *d);
/* Reads /sysblock/name/attr (a small sysfs file), trimmed of surrounding whitespace. */
int disk_read_attr(const char *sysblock, const char *name, const char *attr,
		   char *out, size_t len);
/* Refuses read-only or removable disks, and a disk or partition that has
 * holders, is mounted (mountinfo: /proc/self/mountinfo) or is swap (swaps:
 * /proc/swaps).  With try_open, also one that O_EXCL cannot open. */
int disk_check_safe(const char *sysblock, const char *mountinfo, const char *swaps,
		    const struct disk_info *d, int try_open, char *err, size_t errlen);
/* What disk_check_foreign found the disk to be, when it does not refuse it. */
enum disk_claim {
	DISK_MARKED,   /* bootmark's ownership mark of this disk (diskmark.h): bootmark's */
	DISK_BLANK,    /* zeros in both MiBs and no mark: disk_probe_deep (diskprobe.h)
			* must find zeros between them too before bootmark takes it */
	DISK_WIPE,     /* someone's data, and disk_wipe names the disk: wipe it */
};
/*
 * Reads the disk's first and last MiB (dev: d->dev, an image file in tests)
 * and refuses it (-ENOTEMPTY, err naming what it holds) unless they show
 * bootmark's ownership mark of d beside nothing but the filesystems bootmark
 * makes (*claim DISK_MARKED), or nothing at all (DISK_BLANK); partitions in
 * sysfs refuse it too.  A refusal becomes DISK_WIPE (0, err saying so) when
 * wipe equals d->serial: the caller must then disk_wipe_all and mark it
 * before writing.  buf: DISK_CHECK_BUF_LEN bytes, 4096-aligned, to read the
 * two MiB into, or NULL to allocate them.
 */
int disk_check_foreign(const char *sysblock, const char *dev, const struct disk_info *d,
		       const char *wipe, int *claim, void *buf, char *err, size_t errlen);
/* disk_check_foreign's buffer: the first and the last MiB. */
#define DISK_CHECK_BUF_LEN (2u << 20)
/* The wipe token names d: it equals d's serial (a disk without one is never named). */
int disk_wipe_named(const char *wipe, const struct disk_info *d);
/* What the runner says of d holding what (noproof: only filesystems labelled
 * as bootmark's, no mark): "... disk_wipe names it: wiping" and 1 when wipe
 * names d, else the refusal ("... set disk_wipe=SERIAL to overwrite it") and 0. */
int disk_verdict_msg(const struct disk_info *d, const char *wipe, const char *what, int noproof,
		     char *err, size_t errlen);
/* Zeroes the first and last MiB of dev (the regions disk_check_foreign reads:
 * every probed signature, GPT's backup, md 0.90/1.0, ZFS L0-L3, a mark) and
 * asks the kernel to drop its partitions. */
int disk_wipe(const char *dev, uint64_t size, char *err, size_t errlen);
/* disk_wipe, and every span disk_probe_deep reads first: the disk then reads
 * empty wherever bootmark looks (the wipe token). */
int disk_wipe_all(const char *dev, uint64_t size, char *err, size_t errlen);
/* A 64-bit sum (FNV-1a over 64-bit words) of what disk_check_foreign reads,
 * the first and last MiB of dev (size bytes): a test that changed it must
 * leave the disk wiped.  0 or -errno. */
int disk_ends_sum(const char *dev, uint64_t size, uint64_t *sum);

/* A few blocks of the disk read or written (diskio.c): O_DIRECT where the
 * device takes it, buffered where it refuses (EINVAL: an image on tmpfs).
 * Buffers and offsets of 4 KiB multiples keep it direct on any disk. */
struct disk_fd {
	int fd, direct, flags;
	const char *dev;
};
/* flags: O_RDONLY, O_WRONLY | O_EXCL ...: 0 or -errno. */
int disk_fd_open(struct disk_fd *f, const char *dev, int flags);
/* All of len bytes at off, 0 or -errno; a read past the end gives zeros. */
int disk_fd_pread(struct disk_fd *f, void *buf, size_t len, uint64_t off);
int disk_fd_pwrite(struct disk_fd *f, const void *buf, size_t len, uint64_t off);
int disk_fd_sync(struct disk_fd *f);
void disk_fd_close(struct disk_fd *f);

#endif
