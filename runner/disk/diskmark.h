/* SPDX-License-Identifier: MIT */
/*
 * bootmark's ownership mark: a 512-byte record bootmark writes when it first
 * takes a disk (found empty, or wiped because disk_wipe named it), in the
 * disk's last MiB, which no filesystem and no raw test of bootmark's ever
 * uses (every mkfs gets the size diskmark_usable() gives, docs/disk-safety.md).
 * It carries the disk's identity (serial, WWN, size) under a CRC-32, so a
 * mark copied onto another disk, or damaged, proves nothing.
 *
 * Record (little-endian):
 *     0  magic "BOOTMARK-OWNED\n\0"    48  serial (64, NUL-padded)
 *    16  version 1                     112  WWN as sysfs shows it (80)
 *    20  record length 512             192  a note for a human with a hex dump
 *    24  disk size, bytes              256  zeros
 *    32  usable bytes (from offset 0)  508  CRC-32 of bytes 0..507
 *    40  the record's own offset
 * It is written as a 4 KiB block (the record, then zeros) at diskmark_offset().
 */
#ifndef BM_RUNNER_DISKMARK_H
#define BM_RUNNER_DISKMARK_H

#include <stddef.h>
#include <stdint.h>

#include "disk.h"

#define DISKMARK_LEN 512
#define DISKMARK_BLOCK 4096
#define DISKMARK_MAGIC "BOOTMARK-OWNED\n"     /* and its NUL: 16 bytes */
#define DISKMARK_RESERVE (1u << 20)

struct diskmark {
	uint64_t size, usable, offset;
	char serial[64];
	char wwn[80];
};

/* The bytes from offset 0 a filesystem or a raw test may use: the size less
 * its last MiB, rounded down to a MiB; 0 for a disk under 2 MiB. */
uint64_t diskmark_usable(uint64_t size);
/* Where the mark lives: the start of the last MiB rounded up to 4 KiB (so it
 * lies inside the last MiB and past the usable bytes); 0 under 2 MiB. */
uint64_t diskmark_offset(uint64_t size);
/* The record of d's mark (d->size, serial, wwn). */
void diskmark_encode(const struct disk_info *d, unsigned char rec[DISKMARK_LEN]);
/* A record at p with avail bytes readable: 0 and *m; -ENODATA no magic;
 * -EMSGSIZE fewer than DISKMARK_LEN bytes; -EBADMSG a wrong version, length
 * or checksum. */
int diskmark_decode(const unsigned char *p, size_t avail, struct diskmark *m);
/*
 * The mark in buf, the last len bytes of d's disk (d->size bytes): 0 when d's
 * own mark is at its place; -ENODATA when there is no magic at any 512-byte
 * step; -EBADMSG or -EMSGSIZE a damaged one; -ESTALE a sound mark of another
 * disk (another serial, WWN or size, or not at its place).  *at: the mark's
 * offset on the disk when one was found; why: what it is, for a message.
 */
int diskmark_find(const unsigned char *buf, size_t len, const struct disk_info *d,
		  uint64_t *at, char *why, size_t whylen);

/* Writes d's mark at its place on dev (O_EXCL; O_DIRECT where the device
 * takes it) and flushes it: 0 or -errno and err. */
int disk_mark_write(const char *dev, const struct disk_info *d, char *err, size_t errlen);
/* Reads the mark's place on dev: 0 when it holds d's mark, else as
 * diskmark_find or the read's -errno, with why. */
int disk_mark_check(const char *dev, const struct disk_info *d, char *why, size_t whylen);

#endif
