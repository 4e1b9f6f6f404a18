/* SPDX-License-Identifier: MIT */
/*
 * Partition-table and filesystem signatures at the start of a disk, so the
 * runner can tell a disk it formatted itself (a filesystem labelled
 * "bootmark") from one that holds someone's data.  Pure functions over a
 * buffer, plus one reader; no udev or libblkid in the image.
 */
#ifndef BM_RUNNER_DISKSIG_H
#define BM_RUNNER_DISKSIG_H

#include <stddef.h>

/* Covers every signature probed: the furthest is btrfs at 64 KiB + 64. */
#define DISKSIG_LEN (70 * 1024)
#define DISKSIG_MAX 8
/* The label every mkfs the runner runs sets (profile.h bm_mkfs_label_opt). */
#define DISKSIG_OURS "bootmark"

struct disksig {
	char kind[24];    /* blkid's names: "gpt", "dos", "ext4", "xfs", "swap", ... */
	char what[32];    /* "partition table", "filesystem", ... */
	char label[64];   /* printable label, "" if none */
	int is_fs;        /* a filesystem (the only kind that can be ours) */
};

/* Fills up to max entries from buf, the first len bytes of a device; returns how
 * many were found.  A partition table comes before anything inside it. */
int disksig_probe(const unsigned char *buf, size_t len, struct disksig *sig, int max);
/* "a GPT partition table", "an xfs filesystem labelled 'home'". */
void disksig_describe(const struct disksig *s, char *out, size_t len);
/* Index of the first signature bootmark did not put there, or -1 if every one
 * is a filesystem labelled DISKSIG_OURS (or there is none). */
int disksig_foreign(const struct disksig *sig, int n);
/* Reads up to len bytes from offset 0 of fd; bytes past the end are zero.
 * 0 or -errno. */
int disksig_read(int fd, unsigned char *buf, size_t len);

#endif
