// SPDX-License-Identifier: MIT
/*
 * Signature prober (disksig.h).  Offsets are those of the on-disk formats
 * (the kernel's and the tools' headers); tests/runner_disksig_test.c checks
 * the filesystem ones against images made by the real mkfs tools.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "disksig.h"

struct probe_ctx {
	const unsigned char *buf;
	size_t len;
	struct disksig *sig;
	int n, max;
};

static int has(const struct probe_ctx *c, size_t off, const void *magic, size_t n)
{
	return off + n <= c->len && !memcmp(c->buf + off, magic, n);
}

static uint32_t le32(const struct probe_ctx *c, size_t off)
{
	const unsigned char *p = c->buf + off;

	if (off + 4 > c->len)
		return 0;
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Copies a fixed-size, NUL- or space-padded label, making it printable and
 * free of quotes so it reads well inside a message. */
static void copy_label(char *out, size_t outlen, const unsigned char *p, size_t n)
{
	size_t i, o = 0;

	for (i = 0; i < n && p[i] && o + 1 < outlen; i++)
		out[o++] = isprint(p[i]) && p[i] != '\'' && p[i] != '"' ? (char)p[i] : '?';
	while (o && out[o - 1] == ' ')
		o--;
	out[o] = '\0';
}

/* Adds a signature; label_off/label_len 0 = no label. */
static void add(struct probe_ctx *c, const char *kind, const char *what, int is_fs,
		size_t label_off, size_t label_len)
{
	struct disksig *s;

	if (c->n >= c->max)
		return;
	s = &c->sig[c->n++];
	memset(s, 0, sizeof(*s));
	snprintf(s->kind, sizeof(s->kind), "%s", kind);
	snprintf(s->what, sizeof(s->what), "%s", what);
	s->is_fs = is_fs;
	if (label_len && label_off + label_len <= c->len)
		copy_label(s->label, sizeof(s->label), c->buf + label_off, label_len);
}

/* A FAT boot sector also ends in 55 AA: tell it from an MBR by its type string. */
static int probe_fat(struct probe_ctx *c)
{
	if (!has(c, 510, "\x55\xaa", 2) || (c->buf[0] != 0xeb && c->buf[0] != 0xe9))
		return 0;
	if (has(c, 82, "FAT32   ", 8)) {
		add(c, "vfat", "filesystem", 1, 71, 11);
	} else if (has(c, 54, "FAT1", 4) || has(c, 54, "FAT     ", 8)) {
		add(c, "vfat", "filesystem", 1, 43, 11);
	} else if (has(c, 3, "NTFS    ", 8)) {
		add(c, "ntfs", "filesystem", 1, 0, 0);
	} else if (has(c, 3, "EXFAT   ", 8)) {
		add(c, "exfat", "filesystem", 1, 0, 0);
	} else {
		return 0;
	}
	/* "NO NAME" is FAT's way of saying no label. */
	if (!strcmp(c->sig[c->n - 1].label, "NO NAME"))
		c->sig[c->n - 1].label[0] = '\0';
	return 1;
}

static void probe_tables(struct probe_ctx *c)
{
	if (has(c, 512, "EFI PART", 8) || has(c, 4096, "EFI PART", 8))
		add(c, "gpt", "partition table", 0, 0, 0);
	else if (!probe_fat(c) && has(c, 510, "\x55\xaa", 2))
		add(c, "dos", "partition table (MBR)", 0, 0, 0);
}

/* ext2/3/4 share a magic; the feature flags tell them apart as blkid does. */
static void probe_ext(struct probe_ctx *c)
{
	const size_t sb = 1024;
	uint32_t compat, incompat, ro_compat;
	const char *kind = "ext2";

	if (!has(c, sb + 56, "\x53\xef", 2))
		return;
	compat = le32(c, sb + 92);
	incompat = le32(c, sb + 96);
	ro_compat = le32(c, sb + 100);
	if (compat & 0x4)                   /* has_journal */
		kind = "ext3";
	if ((incompat & 0x2c0) || (ro_compat & 0x478))  /* extents, 64bit, flex_bg; */
		kind = "ext4";                  /* huge_file, dir_nlink, extra_isize, csum */
	add(c, kind, "filesystem", 1, sb + 120, 16);
}

static void probe_lvm_md_luks(struct probe_ctx *c)
{
	size_t sector;

	for (sector = 0; sector < 4; sector++)
		if (has(c, sector * 512, "LABELONE", 8) && has(c, sector * 512 + 24, "LVM2 001", 8)) {
			add(c, "LVM2_member", "LVM2 physical volume", 0, 0, 0);
			break;
		}
	if (has(c, 0, "LUKS\xba\xbe", 6) || has(c, 0x4000, "SKUL\xba\xbe", 6))
		add(c, "crypto_LUKS", "LUKS encrypted volume", 0, 0, 0);
	/* md 1.1 at 0, 1.2 at 4 KiB (1.0 and 0.90 sit at the end; their holders
	 * show once the array is assembled). */
	if ((le32(c, 0) == 0xa92b4efc && le32(c, 4) == 1) ||
	    (le32(c, 4096) == 0xa92b4efc && le32(c, 4100) == 1))
		add(c, "linux_raid_member", "md RAID member", 0, 0, 0);
}

static void probe_swap(struct probe_ctx *c)
{
	static const size_t pages[] = { 4096, 8192, 16384, 65536 };
	size_t i, off;

	for (i = 0; i < sizeof(pages) / sizeof(pages[0]); i++) {
		off = pages[i] - 10;
		if (has(c, off, "SWAPSPACE2", 10) || has(c, off, "SWAP-SPACE", 10)) {
			add(c, "swap", "swap area", 0, 1024 + 28, 16);
			return;
		}
	}
}

static void probe_fs(struct probe_ctx *c)
{
	const size_t jfs = 32768, reiser = 65536, btrfs = 65536;

	probe_ext(c);
	if (has(c, 0, "XFSB", 4))
		add(c, "xfs", "filesystem", 1, 108, 12);
	/* jfs: s_label (16) at 152 in version 2 superblocks, else s_fpack (11) at 101. */
	if (has(c, jfs, "JFS1", 4))
		add(c, "jfs", "filesystem", 1, le32(c, jfs + 4) >= 2 ? jfs + 152 : jfs + 101,
		    le32(c, jfs + 4) >= 2 ? 16 : 11);
	if (has(c, reiser + 52, "ReIsErFs", 8) || has(c, reiser + 52, "ReIsEr2Fs", 9) ||
	    has(c, reiser + 52, "ReIsEr3Fs", 9))
		add(c, "reiserfs", "filesystem", 1, reiser + 100, 16);
	if (has(c, btrfs + 64, "_BHRfS_M", 8))
		add(c, "btrfs", "filesystem", 1, btrfs + 299, 63);
	if (has(c, 32769, "CD001", 5))
		add(c, "iso9660", "filesystem", 1, 32768 + 40, 32);
}

int disksig_probe(const unsigned char *buf, size_t len, struct disksig *sig, int max)
{
	struct probe_ctx c = { buf, len, sig, 0, max };

	probe_tables(&c);
	probe_lvm_md_luks(&c);
	probe_swap(&c);
	probe_fs(&c);
	return c.n;
}

void disksig_describe(const struct disksig *s, char *out, size_t len)
{
	/* Phrases with their article; filesystems are "a/an <kind> filesystem". */
	static const struct { const char *kind, *phrase; } fixed[] = {
		{ "gpt", "a GPT partition table" },
		{ "dos", "a DOS partition table (MBR)" },
		{ "LVM2_member", "an LVM2 physical volume" },
		{ "crypto_LUKS", "a LUKS encrypted volume" },
		{ "linux_raid_member", "an md RAID member" },
		{ "swap", "a swap area" },
		{ "ntfs", "an NTFS filesystem" },
	};
	char label[80] = "";
	size_t i;

	if (s->label[0])
		snprintf(label, sizeof(label), " labelled '%s'", s->label);
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (!strcmp(s->kind, fixed[i].kind)) {
			snprintf(out, len, "%s%s", fixed[i].phrase, label);
			return;
		}
	snprintf(out, len, "%s %s %s%s", strchr("aeioux", s->kind[0]) ? "an" : "a", s->kind,
		 s->what, label);
}

int disksig_foreign(const struct disksig *sig, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!sig[i].is_fs || strcmp(sig[i].label, DISKSIG_OURS))
			return i;
	return -1;
}

int disksig_read(int fd, unsigned char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = pread(fd, buf + got, len - got, (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	memset(buf + got, 0, len - got);
	return 0;
}
