// SPDX-License-Identifier: MIT
/*
 * runner/disksig.c on handmade headers and on images made by the real mkfs
 * tools with the shipped profiles (configs/fs/), with and without the label
 * the runner adds (bm_mkfs_argv_label); a missing tool is a TAP skip.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	expect("a LUKS encrypted volume", 1, "LUKS");
	put(4096, "\xfc\x4e\x2b\xa9\x01\0\0\0", 8);
	expect("an md RAID member", 1, "md 1.2");
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

static int read_start(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = disksig_read(fd, buf, sizeof(buf));
	close(fd);
	return ret;
}

/* mkfs with the shipped profile on an image; label NULL = the profile as is. */
static void real_mkfs(const char *name, const char *kind, off_t size, const char *label,
		      const char *want_label)
{
	struct bm_fsprof p;
	struct disksig sig[DISKSIG_MAX];
	char err[256], img[128], line[300], out[256], tool[256], *argv[BM_ARGV_MAX];
	int n, ret;

	if (bm_fsprof_load(&p, "configs/fs", name, err, sizeof(err))) {
		tap_ok(0, "configs/fs/%s: %s", name, err);
		return;
	}
	snprintf(img, sizeof(img), "%s/%s.img", dir, name);
	n = bm_fsprof_mkfs_argv(&p, img, line, sizeof(line), argv, BM_ARGV_MAX);
	if (n > 0 && label)
		n = bm_mkfs_argv_label(p.type, argv, n, BM_ARGV_MAX, label);
	if (n < 0 || spawn_find(argv[0], tool, sizeof(tool))) {
		tap_skip(n < 0 ? "bad argv" : "tool missing", "%s %s", argv[0], label ? label : "");
		return;
	}
	if (make_image(img, size) || (ret = spawn_run(argv, out, sizeof(out))) != 0 ||
	    read_start(img)) {
		tap_ok(0, "%s on an image: %s", argv[0], out);
		return;
	}
	n = disksig_probe(buf, sizeof(buf), sig, DISKSIG_MAX);
	tap_ok(n == 1 && !strcmp(sig[0].kind, kind) && !strcmp(sig[0].label, want_label) &&
	       disksig_foreign(sig, n) == (strcmp(want_label, DISKSIG_OURS) ? 0 : -1),
	       "%s, label %s: %d signature(s), %s '%s'", argv[0], label ? label : "(none)", n,
	       n > 0 ? sig[0].kind : "-", n > 0 ? sig[0].label : "");
	unlink(img);
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
	test_label_argv();
	test_real();
	test_mkswap();
	rmdir(dir);
	return tap_done();
}
