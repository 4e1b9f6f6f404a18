/* SPDX-License-Identifier: MIT */
/*
 * Partition-table, filesystem and volume signatures in a buffer read from a
 * disk (its first or last MiB, a window between them), so the runner can name
 * what holds someone's data, and tell a filesystem it made (labelled
 * "bootmark", beside its ownership mark: diskmark.h).  Pure functions over a
 * buffer, plus one reader; no udev or libblkid in the image.
 * docs/disk-safety.md lists what is known and where.
 */
#ifndef BM_RUNNER_DISKSIG_H
#define BM_RUNNER_DISKSIG_H

#include <stddef.h>
#include <stdint.h>

/* The first and the last MiB are probed, as disk_wipe zeroes exactly those. */
#define DISKSIG_LEN (1024 * 1024)
#define DISKSIG_MAX 8
/* The label every mkfs the runner runs sets (profile.h bm_mkfs_label_opt). */
#define DISKSIG_OURS "bootmark"

struct disksig {
	char kind[24];    /* blkid's names: "gpt", "dos", "ext4", "linux_raid_member", ... */
	char what[40];    /* the noun phrase: "GPT partition table", "md RAID member" */
	char label[64];   /* printable label, "" if none */
	char where[48];   /* "superblock 1.0 at the end", "" = its only place */
	int is_fs;        /* a filesystem (the only kind that can be ours) */
};

/* Fills up to max entries from buf, the first len bytes of a device; returns how
 * many were found.  A partition table comes before anything inside it. */
int disksig_probe(const unsigned char *buf, size_t len, struct disksig *sig, int max);
/* The same for what lives at the end (md 0.90/1.0, ZFS labels L2/L3, GPT's
 * backup header, bcachefs): buf holds the last len bytes of a device of size
 * bytes (len <= size). */
int disksig_probe_end(const unsigned char *buf, size_t len, uint64_t size,
		      struct disksig *sig, int max);
/* "a GPT partition table", "an xfs filesystem labelled 'home'",
 * "an md RAID member (superblock 1.0 at the end)". */
void disksig_describe(const struct disksig *s, char *out, size_t len);
/* A filesystem bootmark could have made: labelled DISKSIG_OURS, of a type the
 * runner labels (bm_mkfs_label_opt).  Only beside bootmark's ownership mark
 * (diskmark.h) does that make it bootmark's: a label alone proves nothing. */
int disksig_ours(const struct disksig *s);
/* Index of the first signature that is not disksig_ours, or -1 if there is
 * none. */
int disksig_foreign(const struct disksig *sig, int n);
/* Offset of the first non-zero byte of buf, or len if all are zero. */
size_t disksig_nonzero(const unsigned char *buf, size_t len);
/* Reads up to len bytes from offset off of fd; bytes past the end are zero.
 * 0 or -errno. */
int disksig_read(int fd, unsigned char *buf, size_t len, uint64_t off);

#endif
