// SPDX-License-Identifier: MIT
/*
 * Signature prober (disksig.h): partition tables and filesystems here,
 * volumes (LVM, md, LUKS, bcache, ZFS) and the end of the disk in
 * disksig_vol.c.  Offsets are those of the on-disk formats as util-linux's
 * libblkid probers read them (libblkid/src/superblocks/, partitions/);
 * tests/runner_disksig_test.c checks them against images made by the real
 * tools where Debian has them.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "disksig_int.h"
#include "profile.h"   /* bm_mkfs_label_opt */

int sig_has(const struct probe_ctx *c, size_t off, const void *magic, size_t n)
{
	return off <= c->len && n <= c->len - off && !memcmp(c->buf + off, magic, n);
}

static uint64_t get(const struct probe_ctx *c, size_t off, int bytes, int big)
{
	uint64_t v = 0;
	int i;

	if (off > c->len || c->len - off < (size_t)bytes)
		return 0;
	for (i = 0; i < bytes; i++)
		v |= (uint64_t)c->buf[off + (size_t)(big ? bytes - 1 - i : i)] << (8 * i);
	return v;
}

uint32_t sig_le32(const struct probe_ctx *c, size_t off)
{
	return (uint32_t)get(c, off, 4, 0);
}

uint32_t sig_be32(const struct probe_ctx *c, size_t off)
{
	return (uint32_t)get(c, off, 4, 1);
}

uint64_t sig_le64(const struct probe_ctx *c, size_t off)
{
	return get(c, off, 8, 0);
}

uint64_t sig_be64(const struct probe_ctx *c, size_t off)
{
	return get(c, off, 8, 1);
}

/* Copies a fixed-size, NUL- or space-padded label, making it printable and
 * free of quotes so it reads well inside a message.  step 2: UTF-16LE, whose
 * non-ASCII characters read as '?'. */
static void copy_label(char *out, size_t outlen, const unsigned char *p, size_t n, size_t step)
{
	size_t i, o = 0;
	int ch;

	for (i = 0; i + step <= n && o + 1 < outlen; i += step) {
		ch = step == 2 && p[i + 1] ? 0x100 : p[i];
		if (!ch)
			break;
		out[o++] = ch < 0x100 && isprint(ch) && ch != '\'' && ch != '"' ? (char)ch : '?';
	}
	while (o && out[o - 1] == ' ')
		o--;
	out[o] = '\0';
}

struct disksig *sig_add(struct probe_ctx *c, const char *kind, const char *what, int is_fs,
			size_t label_off, size_t label_len)
{
	struct disksig *s;

	if (c->n >= c->max)
		return NULL;
	s = &c->sig[c->n++];
	memset(s, 0, sizeof(*s));
	snprintf(s->kind, sizeof(s->kind), "%s", kind);
	snprintf(s->what, sizeof(s->what), "%s", what);
	s->is_fs = is_fs;
	if (label_len && label_off <= c->len && label_len <= c->len - label_off)
		copy_label(s->label, sizeof(s->label), c->buf + label_off, label_len, 1);
	return s;
}

/* A FAT boot sector also ends in 55 AA: tell it from an MBR by its type string. */
static int probe_fat(struct probe_ctx *c)
{
	struct disksig *s;

	if (!sig_has(c, 510, "\x55\xaa", 2) || (c->buf[0] != 0xeb && c->buf[0] != 0xe9))
		return 0;
	if (sig_has(c, 82, "FAT32   ", 8))
		s = sig_add(c, "vfat", "vfat filesystem", 1, 71, 11);
	else if (sig_has(c, 54, "FAT1", 4) || sig_has(c, 54, "FAT     ", 8))
		s = sig_add(c, "vfat", "vfat filesystem", 1, 43, 11);
	else if (sig_has(c, 3, "NTFS    ", 8))
		s = sig_add(c, "ntfs", "NTFS filesystem", 1, 0, 0);
	else if (sig_has(c, 3, "EXFAT   ", 8))
		s = sig_add(c, "exfat", "exfat filesystem", 1, 0, 0);
	else
		return 0;
	/* "NO NAME" is FAT's way of saying no label. */
	if (s && !strcmp(s->label, "NO NAME"))
		s->label[0] = '\0';
	return 1;
}

static void probe_tables(struct probe_ctx *c)
{
	if (sig_has(c, 512, "EFI PART", 8) || sig_has(c, 4096, "EFI PART", 8))
		sig_add(c, "gpt", "GPT partition table", 0, 0, 0);
	else if (!probe_fat(c) && sig_has(c, 510, "\x55\xaa", 2))
		sig_add(c, "dos", "DOS partition table (MBR)", 0, 0, 0);
}

/* ext2/3/4 share a magic; the feature flags tell them apart as blkid does. */
static void probe_ext(struct probe_ctx *c)
{
	const size_t sb = 1024;
	uint32_t compat, incompat, ro_compat;
	const char *kind = "ext2";
	char what[40];

	if (!sig_has(c, sb + 56, "\x53\xef", 2))
		return;
	compat = sig_le32(c, sb + 92);
	incompat = sig_le32(c, sb + 96);
	ro_compat = sig_le32(c, sb + 100);
	if (compat & 0x4)                   /* has_journal */
		kind = "ext3";
	if ((incompat & 0x2c0) || (ro_compat & 0x478))  /* extents, 64bit, flex_bg; */
		kind = "ext4";                  /* huge_file, dir_nlink, extra_isize, csum */
	snprintf(what, sizeof(what), "%s filesystem", kind);
	sig_add(c, kind, what, 1, sb + 120, 16);
}

static void probe_swap(struct probe_ctx *c)
{
	static const size_t pages[] = { 4096, 8192, 16384, 65536 };
	size_t i, off;

	for (i = 0; i < sizeof(pages) / sizeof(pages[0]); i++) {
		off = pages[i] - 10;
		if (sig_has(c, off, "SWAPSPACE2", 10) || sig_has(c, off, "SWAP-SPACE", 10)) {
			sig_add(c, "swap", "swap area", 0, 1024 + 28, 16);
			return;
		}
	}
}

/* f2fs keeps two superblocks, at 1 KiB and 5 KiB; the label is UTF-16LE. */
static void probe_f2fs(struct probe_ctx *c)
{
	static const size_t sbs[] = { 0x400, 0x1400 };
	struct disksig *s;
	size_t i;

	for (i = 0; i < 2; i++)
		if (sig_le32(c, sbs[i]) == 0xf2f52010) {
			s = sig_add(c, "f2fs", "f2fs filesystem", 1, 0, 0);
			if (s && sbs[i] + 0x7c + 1024 <= c->len)
				copy_label(s->label, sizeof(s->label), c->buf + sbs[i] + 0x7c, 1024, 2);
			if (s && i)
				snprintf(s->where, sizeof(s->where), "second superblock at 5 KiB");
			return;
		}
}

static void probe_fs(struct probe_ctx *c)
{
	const size_t jfs = 32768, reiser = 65536, btrfs = 65536;

	probe_ext(c);
	if (sig_has(c, 0, "XFSB", 4))
		sig_add(c, "xfs", "xfs filesystem", 1, 108, 12);
	/* jfs: s_label (16) at 152 in version 2 superblocks, else s_fpack (11) at 101. */
	if (sig_has(c, jfs, "JFS1", 4))
		sig_add(c, "jfs", "jfs filesystem", 1,
			sig_le32(c, jfs + 4) >= 2 ? jfs + 152 : jfs + 101,
			sig_le32(c, jfs + 4) >= 2 ? 16 : 11);
	if (sig_has(c, reiser + 52, "ReIsErFs", 8) || sig_has(c, reiser + 52, "ReIsEr2Fs", 9) ||
	    sig_has(c, reiser + 52, "ReIsEr3Fs", 9))
		sig_add(c, "reiserfs", "reiserfs filesystem", 1, reiser + 100, 16);
	if (sig_has(c, btrfs + 64, "_BHRfS_M", 8))
		sig_add(c, "btrfs", "btrfs filesystem", 1, btrfs + 299, 63);
	if (sig_has(c, 32769, "CD001", 5))
		sig_add(c, "iso9660", "iso9660 filesystem", 1, 32768 + 40, 32);
	probe_f2fs(c);
}

int disksig_probe(const unsigned char *buf, size_t len, struct disksig *sig, int max)
{
	struct probe_ctx c = { buf, len, sig, 0, max };

	probe_tables(&c);
	sig_probe_volumes(&c);
	probe_swap(&c);
	probe_fs(&c);
	return c.n;
}

/* "an" before a vowel sound: the vowels, and the letters read out by name. */
static const char *article(const char *what)
{
	static const char *const an[] = { "LVM", "md ", "NTFS", "f2fs", "xfs" };
	size_t i;

	if (strchr("aeiouAEIOU", what[0]))
		return "an";
	for (i = 0; i < sizeof(an) / sizeof(an[0]); i++)
		if (!strncmp(what, an[i], strlen(an[i])))
			return "an";
	return "a";
}

void disksig_describe(const struct disksig *s, char *out, size_t len)
{
	char label[80] = "", where[56] = "";

	if (s->label[0])
		snprintf(label, sizeof(label), " labelled '%s'", s->label);
	if (s->where[0])
		snprintf(where, sizeof(where), " (%s)", s->where);
	snprintf(out, len, "%s %s%s%s", article(s->what), s->what, label, where);
}

int disksig_ours(const struct disksig *s)
{
	return s->is_fs && !strcmp(s->label, DISKSIG_OURS) && bm_mkfs_label_opt(s->kind);
}

int disksig_foreign(const struct disksig *sig, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!disksig_ours(&sig[i]))
			return i;
	return -1;
}

/*
 * A blank disk is the usual case, and this runs over all of its 2 MiB
 * before the hello: 64 bytes a step, the bytes only in the block that is
 * not all zero (a byte loop is some 8 M emulated instructions under TCG).
 */
size_t disksig_nonzero(const unsigned char *buf, size_t len)
{
	uint64_t w[8], acc;
	size_t i = 0, j;

	for (; i + sizeof(w) <= len; i += sizeof(w)) {
		memcpy(w, buf + i, sizeof(w));
		for (acc = 0, j = 0; j < 8; j++)
			acc |= w[j];
		if (acc)
			break;
	}
	for (; i < len; i++)
		if (buf[i])
			return i;
	return len;
}

int disksig_read(int fd, unsigned char *buf, size_t len, uint64_t off)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = pread(fd, buf + got, len - got, (off_t)(off + got));
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
