// SPDX-License-Identifier: MIT
/*
 * runner/disk/disksig.c on handmade headers and on images made by the real mkfs
 * tools with the shipped profiles (configs/fs/), with and without the label
 * the runner adds (bm_mkfs_argv_label); a missing tool is a TAP skip.
 */
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diskmark.h"
#include "disksig.h"
#include "profile.h"
#include "spawn.h"
#include "tap.h"

static unsigned char buf[DISKSIG_LEN];
static char dir[] = "/tmp/bm-disksig-XXXXXX";

static void put(size_t off, const void *bytes, size_t n)
{
	memcpy(buf + off, bytes, n);
}

/* Probes buf; passes when the first signature reads want (or none when want is NULL). */
static void expect(const char *want, int nwant, const char *what)
{
	struct disksig sig[DISKSIG_MAX];
	char desc[160] = "(none)";
	int n = disksig_probe(buf, sizeof(buf), sig, DISKSIG_MAX);

	if (n > 0)
		disksig_describe(&sig[0], desc, sizeof(desc));
	tap_ok(n == nwant && (!want || !strcmp(desc, want)), "%s: %d, %s", what, n, desc);
	memset(buf, 0, sizeof(buf));
}

static void test_handmade(void)
{
	struct disksig sig[DISKSIG_MAX];

	expect(NULL, 0, "all zero");
	put(510, "\x55\xaa", 2);
	expect("a DOS partition table (MBR)", 1, "MBR");
	put(510, "\x55\xaa", 2);
	put(512, "EFI PART", 8);
	expect("a GPT partition table", 1, "GPT with its protective MBR");
	put(4096, "EFI PART", 8);
	expect("a GPT partition table", 1, "GPT for 4K sectors");
	put(0, "\xeb\x58\x90mkfs.fat", 11);
	put(71, "USBSTICK   FAT32   ", 19);
	put(510, "\x55\xaa", 2);
	expect("a vfat filesystem labelled 'USBSTICK'", 1, "FAT32 is no MBR");
	put(0, "\xeb\x52\x90NTFS    ", 11);
	put(510, "\x55\xaa", 2);
	expect("an NTFS filesystem", 1, "NTFS");
	put(512, "LABELONE", 8);
	put(512 + 24, "LVM2 001", 8);
	expect("an LVM2 physical volume", 1, "LVM2 PV");
	put(0, "LUKS\xba\xbe", 6);
	expect("a LUKS encrypted volume", 1, "LUKS of no known version");
	put(4096, "\xfc\x4e\x2b\xa9\x01\0\0\0", 8);
	expect("an md RAID member (superblock 1.2 at 4 KiB)", 1, "md 1.2");
	put(4086, "SWAPSPACE2", 10);
	put(1024 + 28, "myswap", 6);
	expect("a swap area labelled 'myswap'", 1, "swap");
	put(32769, "CD001", 5);
	put(32768 + 40, "DEBIAN 12                       ", 32);
	expect("an iso9660 filesystem labelled 'DEBIAN 12'", 1, "iso9660");
	put(65536 + 64, "_BHRfS_M", 8);
	put(65536 + 299, "bootmark", 8);
	expect("a btrfs filesystem labelled 'bootmark'", 1, "btrfs");
	put(0, "XFSB", 4);
	put(108, "it's\x01", 5);
	expect("an xfs filesystem labelled 'it?s?'", 1, "label made printable, quotes replaced");
	put(510, "\x55\xaa", 2);
	put(1024 + 56, "\x53\xef", 2);
	expect("a DOS partition table (MBR)", 2, "MBR and a filesystem: the table first");

	TAP_EQ_INT(disksig_probe(buf, 100, sig, DISKSIG_MAX), 0, "a short buffer");
	put(1024 + 56, "\x53\xef", 2);
	put(1024 + 120, "bootmark", 8);
	TAP_EQ_INT(disksig_probe(buf, sizeof(buf), sig, DISKSIG_MAX), 1, "ext2 labelled bootmark");
	TAP_EQ_INT(disksig_foreign(sig, 1), -1, "is ours");
	put(510, "\x55\xaa", 2);
	TAP_EQ_INT(disksig_probe(buf, sizeof(buf), sig, DISKSIG_MAX), 2, "with an MBR");
	TAP_EQ_INT(disksig_foreign(sig, 2), 0, "the MBR is not ours");
	TAP_EQ_INT(disksig_foreign(sig, 0), -1, "nothing is not foreign");
	memset(buf, 0, sizeof(buf));
	put(4086, "SWAPSPACE2", 10);
	put(1024 + 28, "bootmark", 8);
	disksig_probe(buf, sizeof(buf), sig, DISKSIG_MAX);
	TAP_EQ_INT(disksig_foreign(sig, 1), 0, "a swap area labelled bootmark is no filesystem of ours");
	memset(buf, 0, sizeof(buf));
}

/* Little-endian integers into buf, as the on-disk formats store them. */
static void put_le(size_t off, uint64_t v, int bytes)
{
	int i;

	for (i = 0; i < bytes; i++)
		buf[off + (size_t)i] = (unsigned char)(v >> (8 * i));
}

static void put_be(size_t off, uint64_t v, int bytes)
{
	int i;

	for (i = 0; i < bytes; i++)
		buf[off + (size_t)i] = (unsigned char)(v >> (8 * (bytes - 1 - i)));
}

static const unsigned char bcache_magic[16] = {
	0xc6, 0x85, 0x73, 0xf6, 0x4e, 0x1a, 0x45, 0xca,
	0x82, 0x65, 0xf5, 0x7f, 0x48, 0xba, 0x6d, 0x81,
};

/* The signatures libblkid reads, by hand: md, LUKS, bcache, f2fs, ZFS. */
static void test_volumes(void)
{
	struct disksig sig[DISKSIG_MAX];
	int n;

	put_le(0, 0xa92b4efc, 4);
	put_le(4, 1, 4);
	expect("an md RAID member (superblock 1.1 at the start)", 1, "md 1.1");
	put_le(4096, 0xa92b4efc, 4);
	put_le(4100, 2, 4);
	expect(NULL, 0, "md magic with major version 2 is no md 1.x");
	put(0, "LUKS\xba\xbe\0\x01", 8);
	expect("a LUKS1 encrypted volume", 1, "LUKS1");
	put(0, "LUKS\xba\xbe\0\x02", 8);
	put(24, "vault", 5);
	expect("a LUKS2 encrypted volume labelled 'vault'", 1, "LUKS2 and its label");
	put(0x8000, "SKUL\xba\xbe\0\x02", 8);
	expect("a LUKS2 encrypted volume (second header at 32 KiB)", 1,
	       "LUKS2 whose first header is gone");
	put(4096 + 24, bcache_magic, 16);
	put_le(4096 + 16, 1, 8);
	put(4096 + 72, "cached", 6);
	expect("a bcache backing device labelled 'cached'", 1, "bcache -B");
	put(4096 + 24, bcache_magic, 16);
	put_le(4096 + 16, 3, 8);
	expect("a bcache cache device", 1, "bcache -C");
	put(4096 + 24, "\xc6\x85\x73\xf6\x66\xce\x90\xa9\xd9\x6a\x60\xcf\x80\x3d\xf7\xef", 16);
	expect("a bcachefs filesystem", 1, "bcachefs");
	put_le(0x400, 0xf2f52010, 4);
	put(0x400 + 0x7c, "d\0a\0t\0a\0\x3a\x04", 10);
	expect("an f2fs filesystem labelled 'data?'", 1, "f2fs, UTF-16 label");
	put_le(0x1400, 0xf2f52010, 4);
	expect("an f2fs filesystem (second superblock at 5 KiB)", 1, "f2fs, first superblock gone");
	put_le(128 * 1024 + 5 * 1024, 0x00bab10c, 8);
	put_le(128 * 1024 + 5 * 1024 + 8, 5000, 8);
	expect("a ZFS pool member (vdev label at the start)", 1, "ZFS L0 uberblock, little-endian");
	put_be(256 * 1024 + 255 * 1024, 0x00bab10c, 8);
	put_be(256 * 1024 + 255 * 1024 + 8, 28, 8);
	expect("a ZFS pool member (vdev label at the start)", 1, "ZFS L1, last slot, big-endian");
	put_le(128 * 1024, 0x00bab10c, 8);
	expect(NULL, 0, "uberblock magic with version 0 is not ZFS");
	put_le(128 * 1024 + 512, 0x00bab10c, 8);
	put_le(128 * 1024 + 512 + 8, 1, 8);
	expect(NULL, 0, "uberblock magic off the 1 KiB slots is not ZFS");
	/* Every one of them is refused, also with a filesystem of ours beside it. */
	put(1024 + 56, "\x53\xef", 2);
	put(1024 + 120, "bootmark", 8);
	put_le(4096, 0xa92b4efc, 4);
	put_le(4100, 1, 4);
	n = disksig_probe(buf, sizeof(buf), sig, DISKSIG_MAX);
	tap_ok(n == 2 && disksig_foreign(sig, n) == 0 && !strcmp(sig[0].kind, "linux_raid_member"),
	       "md 1.2 beside an ext2 of ours: %d, foreign %d", n, disksig_foreign(sig, n));
	memset(buf, 0, sizeof(buf));
	TAP_EQ_INT((int)disksig_nonzero(buf, sizeof(buf)), (int)sizeof(buf), "all zero: none");
	buf[777777] = 1;
	TAP_EQ_INT((int)disksig_nonzero(buf, sizeof(buf)), 777777, "the first non-zero byte");
	TAP_EQ_INT((int)disksig_nonzero(buf, 0), 0, "an empty buffer");
	buf[777777] = 0;
	/* It compares 64 bytes a step: the byte within the step, and a tail
	 * shorter than a step, must still be the first non-zero one. */
	buf[640 + 63] = 0x80;
	buf[640 + 64] = 1;
	TAP_EQ_INT((int)disksig_nonzero(buf, sizeof(buf)), 703, "the last byte of a 64-byte step");
	TAP_EQ_INT((int)disksig_nonzero(buf + 1, 702), 702, "a length that ends before it");
	memset(buf, 0, sizeof(buf));
	buf[1000] = 7;
	TAP_EQ_INT((int)disksig_nonzero(buf, 1001), 1000, "in a tail of 41 bytes");
	TAP_EQ_INT((int)disksig_nonzero(buf + 3, 997), 997, "unaligned, all zero");
	memset(buf, 0, sizeof(buf));
}

/* Probes buf as the last len bytes of a size-byte device. */
static void expect_end(size_t len, uint64_t size, const char *want, int nwant, const char *what)
{
	struct disksig sig[DISKSIG_MAX];
	char desc[160] = "(none)";
	int n = disksig_probe_end(buf, len, size, sig, DISKSIG_MAX);

	if (n > 0)
		disksig_describe(&sig[0], desc, sizeof(desc));
	tap_ok(n == nwant && (!want || !strcmp(desc, want)), "%s: %d, %s", what, n, desc);
	memset(buf, 0, sizeof(buf));
}

static void test_end(void)
{
	const size_t len = sizeof(buf);
	/* 100 MiB + 12345 bytes: aligned to nothing, as real disks are not. */
	const uint64_t size = (100ULL << 20) + 12345, base = size - len;
	const uint64_t md090 = (size & ~0xffffULL) - 0x10000, md10 = (size & ~0xfffULL) - 0x2000;
	const uint64_t l2 = (size & ~(256 * 1024ULL - 1)) - 512 * 1024;

	expect_end(len, size, NULL, 0, "end all zero");
	put_le(md090 - base, 0xa92b4efc, 4);
	put_le(md090 - base + 8, 90, 4);
	expect_end(len, size, "an md RAID member (superblock 0.90 at the end)", 1, "md 0.90");
	put_be(md090 - base, 0xa92b4efc, 4);
	put_be(md090 - base + 8, 90, 4);
	expect_end(len, size, "an md RAID member (superblock 0.90 at the end)", 1,
		   "md 0.90 big-endian");
	put_le(md090 - base - 4096, 0xa92b4efc, 4);
	expect_end(len, size, NULL, 0, "md magic 4 KiB off the 0.90 place");
	put_le(md10 - base, 0xa92b4efc, 4);
	put_le(md10 - base + 4, 1, 4);
	expect_end(len, size, "an md RAID member (superblock 1.0 at the end)", 1, "md 1.0");
	put(len - 512, "EFI PART", 8);
	expect_end(len, size, "a GPT partition table (backup header at the end)", 1, "GPT backup");
	put(len - 4096, "EFI PART", 8);
	expect_end(len, size, "a GPT partition table (backup header at the end)", 1,
		   "GPT backup, 4K sectors");
	put_le(l2 - base + 128 * 1024, 0x00bab10c, 8);
	put_le(l2 - base + 128 * 1024 + 8, 5000, 8);
	expect_end(len, size, "a ZFS pool member (vdev label at the end)", 1, "ZFS L2");
	put_le(l2 - base + 256 * 1024 + 200 * 1024, 0x00bab10c, 8);
	put_le(l2 - base + 256 * 1024 + 200 * 1024 + 8, 5000, 8);
	expect_end(len, size, "a ZFS pool member (vdev label at the end)", 1, "ZFS L3");
	put(24, "\xc6\x85\x73\xf6\x66\xce\x90\xa9\xd9\x6a\x60\xcf\x80\x3d\xf7\xef", 16);
	put(72, "pool", 4);
	expect_end(len, size, "a bcachefs filesystem labelled 'pool' (superblock copy at the end)",
		   1, "bcachefs copy 1 MiB before the end");
	/* A device smaller than the region: only what is there is read. */
	put_le(0x1000, 0xa92b4efc, 4);
	put_le(0x1000 + 4, 1, 4);
	expect_end(0x3000, 0x3000, "an md RAID member (superblock 1.0 at the end)", 1,
		   "md 1.0 on a 12 KiB device");
	expect_end(100, 50, NULL, 0, "a buffer longer than the device");
	expect_end(0, 0, NULL, 0, "an empty device");
}

static void test_label_argv(void)
{
	char *argv[8] = { "mkfs.xfs", "-f", "/dev/vda", NULL };
	char *full[4] = { "mkfs.ext4", "-q", "/dev/vda", NULL };
	char *has[6] = { "mkfs.xfs", "-L", "home", "/dev/vda", NULL };
	char *bare[5] = { "mkfs.ext4", "-L", "/dev/vda", NULL };
	char *reiser[6] = { "mkfs.reiserfs", "-q", "/dev/vda", NULL };

	TAP_EQ_INT(bm_mkfs_argv_label("xfs", argv, 3, 8, "bootmark"), 5, "label inserted");
	tap_ok(!strcmp(argv[2], "-L") && !strcmp(argv[3], "bootmark") &&
	       !strcmp(argv[4], "/dev/vda") && !argv[5], "before the device, NULL after");
	TAP_EQ_INT(bm_mkfs_argv_label("ext4", full, 3, 4, "bootmark"), -E2BIG, "no room");
	TAP_EQ_INT(bm_mkfs_argv_label("xfs", has, 4, 6, "bootmark"), 4, "label replaced");
	TAP_EQ_STR(has[2], "bootmark", "the profile's label gives way");
	TAP_EQ_INT(bm_mkfs_argv_label("ext4", bare, 3, 5, "bootmark"), -EINVAL,
		   "-L without a value");
	TAP_EQ_INT(bm_mkfs_argv_label("reiserfs", reiser, 3, 6, "bootmark"), 5, "reiserfs");
	TAP_EQ_STR(reiser[2], "-l", "reiserfs takes -l");
	TAP_EQ_INT(bm_mkfs_argv_label("f2fs", argv, 3, 8, "bootmark"), 3, "unknown type: unchanged");
}

/* The size that keeps every mkfs off the disk's last MiB, each tool its way. */
static void test_size_argv(void)
{
	const uint64_t usable = 1023ULL << 20;
	char num[48], line[200];
	char *ext[8] = { "mkfs.ext4", "-F", "/dev/vda", NULL };
	char *xfs[8] = { "mkfs.xfs", "-f", "/dev/vda", NULL };
	char *xfs_set[8] = { "mkfs.xfs", "-d", "agcount=4,size=1g", "/dev/vda", NULL };
	char *xfs_ag[8] = { "mkfs.xfs", "-dagsize=64m", "/dev/vda", NULL };
	char *jfs[8] = { "mkfs.jfs", "-q", "/dev/vda", NULL };
	char *reiser[8] = { "mkfs.reiserfs", "-b", "1024", "/dev/vda", NULL };
	char *btrfs[8] = { "mkfs.btrfs", "-f", "/dev/vda", NULL };
	char *f2fs[8] = { "mkfs.f2fs", "/dev/vda", NULL };
	char *full[4] = { "mkfs.xfs", "-f", "/dev/vda", NULL };
	int n, i;

	/* the argv as one line, for the checks */
#define JOIN(v, k) do { line[0] = '\0'; for (i = 0; i < (k); i++) \
		snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s%s", i ? " " : "", \
			 (v)[i]); } while (0)
	n = bm_mkfs_argv_size("ext4", ext, 3, 8, usable, num, sizeof(num));
	JOIN(ext, n);
	tap_ok(n == 4 && !strcmp(line, "mkfs.ext4 -F /dev/vda 1047552k") && !ext[4],
	       "mke2fs: fs-size in KiB after the device: %s", line);
	n = bm_mkfs_argv_size("xfs", xfs, 3, 8, usable, num, sizeof(num));
	JOIN(xfs, n);
	tap_ok(n == 5 && !strcmp(line, "mkfs.xfs -f -d size=1047552k /dev/vda") && !xfs[5],
	       "mkfs.xfs: -d size= before the device: %s", line);
	TAP_EQ_INT(bm_mkfs_argv_size("xfs", xfs_set, 4, 8, usable, num, sizeof(num)), -EINVAL,
		   "a profile that sets xfs's data size itself");
	TAP_EQ_INT(bm_mkfs_argv_size("xfs", xfs_ag, 3, 8, usable, num, sizeof(num)), 5,
		   "agsize= is not size=");
	n = bm_mkfs_argv_size("jfs", jfs, 3, 8, usable, num, sizeof(num));
	JOIN(jfs, n);
	tap_ok(n == 4 && !strcmp(line, "mkfs.jfs -q /dev/vda 261888"),
	       "mkfs.jfs: 4 KiB blocks after the device: %s", line);
	n = bm_mkfs_argv_size("reiserfs", reiser, 4, 8, usable, num, sizeof(num));
	JOIN(reiser, n);
	tap_ok(n == 5 && !strcmp(line, "mkfs.reiserfs -b 1024 /dev/vda 1047552"),
	       "mkreiserfs: blocks of its -b after the device: %s", line);
	n = bm_mkfs_argv_size("btrfs", btrfs, 3, 8, usable, num, sizeof(num));
	JOIN(btrfs, n);
	tap_ok(n == 5 && !strcmp(line, "mkfs.btrfs -f -b 1072693248 /dev/vda"),
	       "mkfs.btrfs: -b bytes: %s", line);
	TAP_EQ_INT(bm_mkfs_argv_size("f2fs", f2fs, 2, 8, usable, num, sizeof(num)), -EOPNOTSUPP,
		   "a type whose size option is not known");
	TAP_EQ_INT(bm_mkfs_argv_size("xfs", full, 3, 4, usable, num, sizeof(num)), -E2BIG,
		   "no room in argv");
#undef JOIN
}

/* A sparse image of size bytes; 0 or -errno. */
static int make_image(const char *path, off_t size)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (ftruncate(fd, size))
		ret = -errno;
	close(fd);
	return ret;
}

/* The MiB at off of an image into buf. */
static int read_at(const char *path, off_t off)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = disksig_read(fd, buf, sizeof(buf), (uint64_t)off);
	close(fd);
	return ret;
}

static int read_start(const char *path)
{
	return read_at(path, 0);
}

/* Signatures in the last MiB of an image of size bytes; -1 if unreadable. */
static int probe_tail(const char *path, off_t size, struct disksig *sig)
{
	if (read_at(path, size - (off_t)sizeof(buf)))
		return -1;
	return disksig_probe_end(buf, sizeof(buf), (uint64_t)size, sig, DISKSIG_MAX);
}

/* mkfs with the shipped profile on an image; label NULL = the profile as is.
 * With the label, as the runner runs it: with the size that keeps it off the
 * last MiB, where bootmark's mark is written first and must be found after. */
static void real_mkfs(const char *name, const char *kind, off_t size, const char *label,
		      const char *want_label)
{
	struct bm_fsprof p;
	struct disksig sig[DISKSIG_MAX];
	struct disk_info d = { .serial = "BMSCRATCH0", .size = (uint64_t)size };
	char err[256], img[128], line[300], out[256], tool[256], num[48], *argv[BM_ARGV_MAX];
	char cmd[400] = "";
	int n, ret, i;

	if (bm_fsprof_load(&p, "configs/fs", name, err, sizeof(err))) {
		tap_ok(0, "configs/fs/%s: %s", name, err);
		return;
	}
	snprintf(img, sizeof(img), "%s/%s.img", dir, name);
	n = bm_fsprof_mkfs_argv(&p, img, line, sizeof(line), argv, BM_ARGV_MAX);
	if (n > 0 && label)
		n = bm_mkfs_argv_label(p.type, argv, n, BM_ARGV_MAX, label);
	if (n > 0 && label)
		n = bm_mkfs_argv_size(p.type, argv, n, BM_ARGV_MAX, diskmark_usable(d.size), num,
				      sizeof(num));
	if (n < 0 || spawn_find(argv[0], tool, sizeof(tool))) {
		tap_skip(n < 0 ? "bad argv" : "tool missing", "%s %s", argv[0], label ? label : "");
		return;
	}
	for (i = 0; i < n; i++)
		snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), "%s%s", i ? " " : "",
			 argv[i] == img ? "IMG" : argv[i]);
	if (make_image(img, size) || (label && disk_mark_write(img, &d, err, sizeof(err))) ||
	    (ret = spawn_run(argv, out, sizeof(out))) != 0 || read_start(img)) {
		tap_ok(0, "%s on an image: %s", argv[0], out);
		return;
	}
	n = disksig_probe(buf, sizeof(buf), sig, DISKSIG_MAX);
	tap_ok(n == 1 && !strcmp(sig[0].kind, kind) && !strcmp(sig[0].label, want_label) &&
	       disksig_foreign(sig, n) == (strcmp(want_label, DISKSIG_OURS) ? 0 : -1),
	       "%s, label %s: %d signature(s), %s '%s'", argv[0], label ? label : "(none)", n,
	       n > 0 ? sig[0].kind : "-", n > 0 ? sig[0].label : "");
	/* What mkfs leaves at the end must not read as someone else's volume. */
	n = probe_tail(img, size, sig);
	tap_ok(n == 0, "%s, label %s: %d signature(s) in the last MiB", argv[0],
	       label ? label : "(none)", n);
	if (label) {
		size_t rec = (size_t)(diskmark_offset(d.size) - (d.size - DISKSIG_LEN));

		ret = disk_mark_check(img, &d, err, sizeof(err));
		tap_ok(!ret && disksig_nonzero(buf, rec) == rec &&
		       disksig_nonzero(buf + rec + DISKMARK_LEN, DISKSIG_LEN - rec - DISKMARK_LEN) ==
		       DISKSIG_LEN - rec - DISKMARK_LEN, "%s: the mark is intact, the rest of the "
		       "last MiB zeros%s%s", cmd, ret ? ": " : "", ret ? err : "");
	}
	unlink(img);
}

/* A volume made by the real tool on an image; zap: zero the first 4 KiB first
 * (a LUKS2 whose first header is gone). */
static void real_volume(char *const argv[], const char *img, const char *want, int zap)
{
	static const unsigned char zero[4096];
	struct disksig sig[DISKSIG_MAX];
	char out[512], tool[256], desc[160] = "(none)";
	int n, fd;

	if (spawn_find(argv[0], tool, sizeof(tool))) {
		tap_skip("tool missing", "%s: %s", argv[0], want);
		return;
	}
	if (make_image(img, 64 << 20) || spawn_run((char **)argv, out, sizeof(out))) {
		tap_ok(0, "%s on an image: %s", argv[0], out);
		return;
	}
	fd = zap ? open(img, O_WRONLY | O_CLOEXEC) : -1;
	if (zap && (fd < 0 || pwrite(fd, zero, sizeof(zero), 0) != (ssize_t)sizeof(zero)))
		tap_diag("cannot zero the start of %s", img);
	if (fd >= 0)
		close(fd);
	n = read_start(img) ? -1 : disksig_probe(buf, sizeof(buf), sig, DISKSIG_MAX);
	if (n > 0)
		disksig_describe(&sig[0], desc, sizeof(desc));
	tap_ok(n == 1 && !strcmp(desc, want) && disksig_foreign(sig, n) == 0,
	       "%s: %d, %s", argv[0], n, desc);
	unlink(img);
}

static void test_real_volumes(void)
{
	char img[128], key[128];
	char *f2fs[] = { "mkfs.f2fs", "-q", "-l", "home", img, NULL };
	char *bdev[] = { "make-bcache", "-B", img, NULL };
	char *cdev[] = { "make-bcache", "-C", img, NULL };
	/* pbkdf2 with few iterations: the header is what matters, not its strength. */
	char *luks1[] = { "cryptsetup", "luksFormat", "--type", "luks1", "--batch-mode",
			  "--key-file", key, "--pbkdf-force-iterations", "1000", img, NULL };
	char *luks2[] = { "cryptsetup", "luksFormat", "--type", "luks2", "--batch-mode",
			  "--key-file", key, "--pbkdf", "pbkdf2", "--pbkdf-force-iterations",
			  "1000", "--label", "vault", img, NULL };
	int fd;

	snprintf(img, sizeof(img), "%s/vol.img", dir);
	snprintf(key, sizeof(key), "%s/key", dir);
	fd = open(key, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, "not a secret", 12) != 12)
		tap_bail("cannot write the key file");
	close(fd);
	real_volume(f2fs, img, "an f2fs filesystem labelled 'home'", 0);
	real_volume(bdev, img, "a bcache backing device", 0);
	real_volume(cdev, img, "a bcache cache device", 0);
	real_volume(luks1, img, "a LUKS1 encrypted volume", 0);
	real_volume(luks2, img, "a LUKS2 encrypted volume labelled 'vault'", 0);
	real_volume(luks2, img, "a LUKS2 encrypted volume labelled 'vault' (second header at 16 KiB)", 1);
	unlink(key);
}

static void test_real(void)
{
	static const struct { const char *name, *kind; off_t size; } fs[] = {
		{ "ext2", "ext2", 64 << 20 }, { "ext3", "ext3", 64 << 20 },
		{ "ext4", "ext4", 64 << 20 }, { "xfs", "xfs", 512 << 20 },
		{ "jfs", "jfs", 64 << 20 }, { "reiserfs", "reiserfs", 64 << 20 },
	};
	size_t i;

	for (i = 0; i < sizeof(fs) / sizeof(fs[0]); i++) {
		real_mkfs(fs[i].name, fs[i].kind, fs[i].size, DISKSIG_OURS, DISKSIG_OURS);
		real_mkfs(fs[i].name, fs[i].kind, fs[i].size, NULL, "");
		real_mkfs(fs[i].name, fs[i].kind, fs[i].size, "home", "home");
	}
}

static void test_mkswap(void)
{
	char img[128], out[256], tool[256];
	char *argv[] = { "mkswap", "-L", "oldswap", img, NULL };
	struct disksig sig[DISKSIG_MAX];
	char desc[160];
	int n;

	snprintf(img, sizeof(img), "%s/swap.img", dir);
	if (spawn_find("mkswap", tool, sizeof(tool))) {
		tap_skip("tool missing", "mkswap");
		return;
	}
	if (make_image(img, 16 << 20) || spawn_run(argv, out, sizeof(out)) || read_start(img)) {
		tap_ok(0, "mkswap on an image: %s", out);
		return;
	}
	n = disksig_probe(buf, sizeof(buf), sig, DISKSIG_MAX);
	if (n > 0)
		disksig_describe(&sig[0], desc, sizeof(desc));
	tap_ok(n == 1 && !strcmp(desc, "a swap area labelled 'oldswap'"), "mkswap: %s",
	       n > 0 ? desc : "nothing");
	unlink(img);
}

int main(void)
{
	tap_plan(0);
	if (!mkdtemp(dir))
		tap_bail("mkdtemp failed");
	test_handmade();
	test_volumes();
	test_end();
	test_label_argv();
	test_size_argv();
	test_real();
	test_real_volumes();
	test_mkswap();
	rmdir(dir);
	return tap_done();
}
