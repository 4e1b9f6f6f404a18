// SPDX-License-Identifier: MIT
/*
 * Volume signatures (disksig.h): LVM2, md RAID, LUKS, bcache, bcachefs and
 * ZFS, at the start and at the end of a disk.  The places and magics are
 * those libblkid reads (util-linux libblkid/src/superblocks/lvm.c,
 * linux_raid.c, luks.c, bcache.c, zfs.c; partitions/gpt.c for the backup
 * header).  Checks are looser than libblkid's (no checksums): a false match
 * only refuses a disk, a missed one could lose data.
 */
#include <stdint.h>
#include <stdio.h>

#include "disksig_int.h"

#define MD_MAGIC 0xa92b4efcU
#define ZFS_UB_MAGIC 0x00bab10cULL
#define ZFS_LABEL (256 * 1024)

static const unsigned char bcache_magic[16] = {
	0xc6, 0x85, 0x73, 0xf6, 0x4e, 0x1a, 0x45, 0xca,
	0x82, 0x65, 0xf5, 0x7f, 0x48, 0xba, 0x6d, 0x81,
};
static const unsigned char bcachefs_magic[16] = {
	0xc6, 0x85, 0x73, 0xf6, 0x66, 0xce, 0x90, 0xa9,
	0xd9, 0x6a, 0x60, 0xcf, 0x80, 0x3d, 0xf7, 0xef,
};

static void add_where(struct probe_ctx *c, const char *kind, const char *what,
		      const char *where)
{
	struct disksig *s = sig_add(c, kind, what, 0, 0, 0);

	if (s)
		snprintf(s->where, sizeof(s->where), "%s", where);
}

static void probe_lvm(struct probe_ctx *c)
{
	size_t sector;

	for (sector = 0; sector < 4; sector++)
		if (sig_has(c, sector * 512, "LABELONE", 8) &&
		    sig_has(c, sector * 512 + 24, "LVM2 001", 8)) {
			sig_add(c, "LVM2_member", "LVM2 physical volume", 0, 0, 0);
			return;
		}
}

/* md 1.x: the magic, then major_version 1, both little-endian. */
static int md1(const struct probe_ctx *c, size_t off)
{
	return sig_le32(c, off) == MD_MAGIC && sig_le32(c, off + 4) == 1;
}

/* 1.1 at 0, 1.2 at 4 KiB; 1.0 and 0.90 sit at the end (disksig_probe_end). */
static void probe_md(struct probe_ctx *c)
{
	if (md1(c, 0))
		add_where(c, "linux_raid_member", "md RAID member", "superblock 1.1 at the start");
	else if (md1(c, 4096))
		add_where(c, "linux_raid_member", "md RAID member", "superblock 1.2 at 4 KiB");
}

/* LUKS1 and LUKS2 begin "LUKS\xba\xbe" and a big-endian version; LUKS2 keeps a
 * second header ("SKUL\xba\xbe") at one of a few offsets, found when the
 * first is gone.  The LUKS2 label is 48 bytes at 24. */
static void probe_luks(struct probe_ctx *c)
{
	static const size_t second[] = { 0x4000, 0x8000, 0x10000, 0x20000, 0x40000, 0x80000 };
	struct disksig *s;
	unsigned version;
	size_t i;

	if (sig_has(c, 0, "LUKS\xba\xbe", 6)) {
		version = sig_be32(c, 4) & 0xffff;
		sig_add(c, "crypto_LUKS", version == 1 ? "LUKS1 encrypted volume" :
			version == 2 ? "LUKS2 encrypted volume" : "LUKS encrypted volume", 0,
			version == 2 ? 24 : 0, version == 2 ? 48 : 0);
		return;
	}
	for (i = 0; i < sizeof(second) / sizeof(second[0]); i++)
		if (sig_has(c, second[i], "SKUL\xba\xbe", 6)) {
			s = sig_add(c, "crypto_LUKS", "LUKS2 encrypted volume", 0, second[i] + 24, 48);
			if (s)
				snprintf(s->where, sizeof(s->where), "second header at %zu KiB",
					 second[i] / 1024);
			return;
		}
}

/* bcache and bcachefs superblocks at 4 KiB, magic at 24; bcache's version
 * (le64 at 16) says backing device (1, 4, 6) or cache device (0, 3, 5). */
static void probe_bcache(struct probe_ctx *c)
{
	const size_t sb = 4096;
	uint64_t v;

	if (sig_has(c, sb + 24, bcachefs_magic, 16)) {
		sig_add(c, "bcachefs", "bcachefs filesystem", 1, sb + 72, 32);
		return;
	}
	if (!sig_has(c, sb + 24, bcache_magic, 16))
		return;
	v = sig_le64(c, sb + 16);
	sig_add(c, "bcache", v == 1 || v == 4 || v == 6 ? "bcache backing device" :
		v == 0 || v == 3 || v == 5 ? "bcache cache device" : "bcache device", 0,
		sb + 72, 32);
}

/* A ZFS vdev label (256 KiB) ends in a ring of 128 uberblocks of 1 KiB or more
 * from 128 KiB on; each begins with the magic, in the pool's byte order, then
 * the version (1..5000). */
static int zfs_label(const struct probe_ctx *c, size_t label)
{
	size_t off;

	for (off = label + 128 * 1024; off + 16 <= label + ZFS_LABEL; off += 1024)
		if ((sig_le64(c, off) == ZFS_UB_MAGIC && sig_le64(c, off + 8) - 1 < 5000) ||
		    (sig_be64(c, off) == ZFS_UB_MAGIC && sig_be64(c, off + 8) - 1 < 5000))
			return 1;
	return 0;
}

void sig_probe_volumes(struct probe_ctx *c)
{
	probe_lvm(c);
	probe_luks(c);
	probe_md(c);
	probe_bcache(c);
	if (zfs_label(c, 0) || zfs_label(c, ZFS_LABEL))
		add_where(c, "zfs_member", "ZFS pool member", "vdev label at the start");
}

/* md 0.90: 64 KiB aligned, 64 KiB before the end; either byte order. */
static void probe_md_end(struct probe_ctx *c, uint64_t base, uint64_t size)
{
	uint64_t off;
	char where[48];
	int big;

	if (size > 0x10000) {
		off = (size & ~0xffffULL) - 0x10000;
		big = off >= base && sig_be32(c, off - base) == MD_MAGIC;
		if (off >= base && (big || sig_le32(c, off - base) == MD_MAGIC)) {
			snprintf(where, sizeof(where), "superblock %u.%u at the end",
				 big ? sig_be32(c, off - base + 4) : sig_le32(c, off - base + 4),
				 big ? sig_be32(c, off - base + 8) : sig_le32(c, off - base + 8));
			add_where(c, "linux_raid_member", "md RAID member", where);
			return;
		}
	}
	/* md 1.0: 4 KiB aligned, 8 KiB before the end. */
	if (size > 0x2000) {
		off = (size & ~0xfffULL) - 0x2000;
		if (off >= base && md1(c, off - base))
			add_where(c, "linux_raid_member", "md RAID member", "superblock 1.0 at the end");
	}
}

int disksig_probe_end(const unsigned char *buf, size_t len, uint64_t size,
		      struct disksig *sig, int max)
{
	struct probe_ctx c = { buf, len, sig, 0, max };
	uint64_t base, aligned = size & ~(uint64_t)(ZFS_LABEL - 1);
	struct disksig *s;

	if (len > size)
		return 0;
	base = size - len;
	/* GPT's backup header in the last LBA, 512 or 4096 bytes. */
	if ((size >= 512 && sig_has(&c, size - 512 - base, "EFI PART", 8)) ||
	    (size >= 4096 && sig_has(&c, size - 4096 - base, "EFI PART", 8)))
		add_where(&c, "gpt", "GPT partition table", "backup header at the end");
	probe_md_end(&c, base, size);
	/* ZFS L2 and L3: the last two 256 KiB units of the size rounded down. */
	if (aligned >= 2 * ZFS_LABEL && aligned - 2 * ZFS_LABEL >= base &&
	    (zfs_label(&c, aligned - 2 * ZFS_LABEL - base) ||
	     zfs_label(&c, aligned - ZFS_LABEL - base)))
		add_where(&c, "zfs_member", "ZFS pool member", "vdev label at the end");
	/* bcachefs keeps a copy of its superblock 1 MiB before the end. */
	if (size >= (1 << 20) && size - (1 << 20) >= base &&
	    sig_has(&c, size - (1 << 20) - base + 24, bcachefs_magic, 16)) {
		s = sig_add(&c, "bcachefs", "bcachefs filesystem", 1, size - (1 << 20) - base + 72, 32);
		if (s)
			snprintf(s->where, sizeof(s->where), "superblock copy at the end");
	}
	return c.n;
}
