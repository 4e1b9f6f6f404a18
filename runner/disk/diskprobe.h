/* SPDX-License-Identifier: MIT */
/*
 * The look between the disk's two ends, before bootmark takes a disk that
 * carries no ownership mark and is blank at both ends (docs/disk-safety.md,
 * "Between the ends"): windows where partitions and filesystems made at an
 * offset start, and a sample spread evenly over the whole disk.  A bounded
 * number of reads whatever the disk's size.
 */
#ifndef BM_RUNNER_DISKPROBE_H
#define BM_RUNNER_DISKPROBE_H

#include <stddef.h>
#include <stdint.h>

/* A window holds every signature disksig probes for (reiserfs and btrfs
 * sit 64 KiB in, their labels a few hundred bytes further). */
#define DISKPROBE_WINDOW (68u << 10)
#define DISKPROBE_SAMPLES 256
#define DISKPROBE_SAMPLE_LEN 4096u
/* 2^k MiB and 2^k MiB + 1 MiB for k up to 63, and the samples */
#define DISKPROBE_MAX (DISKPROBE_SAMPLES + 128)

struct disk_span {
	uint64_t off;
	uint32_t len;
	int window;    /* a partition start, else a sample block */
};

/*
 * What the look reads on a disk of size bytes, in offset order: a window at
 * every 2^k MiB and 2^k + 1 MiB (k >= 0: the first partition at 1 MiB, a
 * filesystem made at 2, 4 ... MiB, the partition after a first one of 2^k
 * MiB), and DISKPROBE_SAMPLES blocks of 4 KiB, one in the middle of each of
 * as many equal slices of the disk; all 4 KiB-aligned, inside [1 MiB,
 * size - 1 MiB) (the two MiBs the first check read).  The count, at most max.
 */
int disk_probe_plan(uint64_t size, struct disk_span *s, int max);
/*
 * Reads the plan on dev: 0 when all of it is zero; 1 when something is not
 * (what: "an ext4 filesystem labelled 'home' at 1 MiB", "unrecognised
 * non-zero data at offset N"); -errno when dev cannot be read (what says so).
 * *reads: the spans read.
 */
int disk_probe_deep(const char *dev, uint64_t size, char *what, size_t len, int *reads);
/* Zeroes every span of the plan (the wipe: the disk then reads empty wherever
 * the check looks): 0 or -errno and err. */
int disk_probe_zero(const char *dev, uint64_t size, char *err, size_t errlen);

#endif
