// SPDX-License-Identifier: MIT
/*
 * bootmark's ownership mark (runner/disk/diskmark.c: its place, format,
 * checksum, identity, a record cut short) and the look between a disk's ends
 * (runner/disk/diskprobe.c: the plan of what is read, and the look on images:
 * a filesystem made at an offset by mke2fs, a GPT zapped by sgdisk over an
 * intact ext4 partition; a missing tool is a TAP skip).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "diskmark.h"
#include "diskprobe.h"
#include "disksig.h"
#include "proto.h"   /* bm_crc32 */
#include "spawn.h"
#include "tap.h"

#define MIB (1ULL << 20)

static char dir[] = "/tmp/bm-diskmark-XXXXXX";

static void test_place(void)
{
	static const uint64_t sizes[] = { 2 * MIB, 2 * MIB + 512, 64 * MIB, (1ULL << 30) + 4096,
					  500107862016ULL, 4000787030016ULL, 3 * MIB - 512 };
	uint64_t s, u, o;
	size_t i;
	int bad = 0;

	TAP_EQ_INT(diskmark_usable(1ULL << 30), (1ULL << 30) - MIB, "1 GiB: all but the last MiB");
	TAP_EQ_INT(diskmark_offset(1ULL << 30), (1ULL << 30) - MIB, "1 GiB: the mark starts it");
	TAP_EQ_INT(diskmark_usable(2 * MIB - 512), 0, "under 2 MiB: nothing usable");
	TAP_EQ_INT(diskmark_offset(2 * MIB - 512), 0, "under 2 MiB: no place for a mark");
	/* every size in 512-byte steps around a few, and real disks' sizes */
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (s = sizes[i]; s < sizes[i] + 64 * 512; s += 512) {
			u = diskmark_usable(s);
			o = diskmark_offset(s);
			if (u % MIB || u + MIB > s || u + 2 * MIB <= s || o % 4096 || o < u ||
			    o < s - MIB || o + DISKMARK_BLOCK > s)
				bad++;
		}
	}
	TAP_EQ_INT(bad, 0, "usable a whole number of MiB, the mark 4 KiB-aligned in the last MiB "
		   "past it, its block inside the disk");
}

static void identity(struct disk_info *d, const char *serial, const char *wwn, uint64_t size)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->serial, sizeof(d->serial), "%s", serial);
	snprintf(d->wwn, sizeof(d->wwn), "%s", wwn);
	d->size = size;
}

static void test_format(void)
{
	unsigned char rec[DISKMARK_LEN], bad[DISKMARK_LEN];
	struct disk_info d;
	struct diskmark m;
	char long_serial[100];
	uint32_t crc;

	identity(&d, "S3Z8NB0K123456", "0x5002538e40a1b2c3", 500107862016ULL);
	diskmark_encode(&d, rec);
	TAP_EQ_INT(memcmp(rec, DISKMARK_MAGIC, 16), 0, "the magic first");
	TAP_EQ_INT(diskmark_decode(rec, sizeof(rec), &m), 0, "a record decodes");
	tap_ok(m.size == d.size && m.usable == diskmark_usable(d.size) &&
	       m.offset == diskmark_offset(d.size) && !strcmp(m.serial, d.serial) &&
	       !strcmp(m.wwn, d.wwn), "size, usable, offset, serial and WWN come back");
	tap_ok(memmem(rec, sizeof(rec), "docs/disk-safety.md", 19) != NULL,
	       "a note for a human reading a hex dump");
	memcpy(bad, rec, sizeof(bad));
	bad[30] ^= 1;
	TAP_EQ_INT(diskmark_decode(bad, sizeof(bad), &m), -EBADMSG, "one bit flipped: the checksum");
	memcpy(bad, rec, sizeof(bad));
	bad[DISKMARK_LEN - 1] ^= 0x80;
	TAP_EQ_INT(diskmark_decode(bad, sizeof(bad), &m), -EBADMSG, "the checksum itself damaged");
	/* version 2 with a correct checksum: a format this runner does not know */
	memcpy(bad, rec, sizeof(bad));
	bad[16] = 2;
	crc = bm_crc32(0, bad, DISKMARK_LEN - 4);
	memcpy(bad + DISKMARK_LEN - 4, &crc, 4);  /* little-endian host */
	TAP_EQ_INT(diskmark_decode(bad, sizeof(bad), &m), -EBADMSG, "another version");
	TAP_EQ_INT(diskmark_decode(rec, DISKMARK_LEN - 1, &m), -EMSGSIZE, "cut short by one byte");
	TAP_EQ_INT(diskmark_decode(rec, 16, &m), -EMSGSIZE, "only the magic");
	TAP_EQ_INT(diskmark_decode(rec, 15, &m), -ENODATA, "less than the magic");
	memset(bad, 0, sizeof(bad));
	TAP_EQ_INT(diskmark_decode(bad, sizeof(bad), &m), -ENODATA, "zeros: no mark");
	memset(long_serial, 'S', sizeof(long_serial) - 1);
	long_serial[sizeof(long_serial) - 1] = '\0';
	identity(&d, "", "", 1ULL << 30);
	memcpy(d.serial, long_serial, sizeof(d.serial) - 1);
	diskmark_encode(&d, rec);
	tap_ok(!diskmark_decode(rec, sizeof(rec), &m) && strlen(m.serial) == 63 &&
	       !strncmp(m.serial, d.serial, 63), "a 63-byte serial, the longest disk_info holds");
}

/* diskmark_find over the last len bytes of a disk. */
static void test_find(void)
{
	static unsigned char end[MIB];
	const uint64_t size = 64 * MIB + 12345 * 512;
	const size_t place = (size_t)(diskmark_offset(size) - (size - MIB));
	struct disk_info d, other;
	unsigned char rec[DISKMARK_LEN];
	uint64_t at = 0;
	char why[200];

	identity(&d, "BMSCRATCH0", "naa.5000c50000000a01", size);
	TAP_EQ_INT(diskmark_find(end, sizeof(end), &d, &at, why, sizeof(why)), -ENODATA,
		   "a blank end: no mark");
	diskmark_encode(&d, end + place);
	TAP_EQ_INT(diskmark_find(end, sizeof(end), &d, &at, why, sizeof(why)), 0, "ours, in place");
	TAP_EQ_INT(at, diskmark_offset(size), "found where it belongs");
	identity(&other, "BMSCRATCH1", "naa.5000c50000000a01", size);
	tap_ok(diskmark_find(end, sizeof(end), &other, &at, why, sizeof(why)) == -ESTALE &&
	       strstr(why, "another disk (serial BMSCRATCH0, WWN naa.5000c50000000a01"),
	       "read on a disk of another serial: %s", why);
	identity(&other, "BMSCRATCH0", "naa.5000c50000000b02", size);
	TAP_EQ_INT(diskmark_find(end, sizeof(end), &other, &at, why, sizeof(why)), -ESTALE,
		   "another WWN");
	identity(&other, "BMSCRATCH0", "naa.5000c50000000a01", size + 4096);
	tap_ok(diskmark_find(end, sizeof(end), &other, &at, why, sizeof(why)) == -ESTALE &&
	       strstr(why, "bytes)"), "another size (the bytes as they are, at the end of a disk "
	       "4 KiB larger): %s", why);
	memset(end, 0, sizeof(end));
	diskmark_encode(&d, rec);
	memcpy(end + place + 4096, rec, sizeof(rec));
	tap_ok(diskmark_find(end, sizeof(end), &d, &at, why, sizeof(why)) == -ESTALE &&
	       at == diskmark_offset(size) + 4096, "this disk's mark, 4 KiB off its place: %s", why);
	/* the last 312 bytes of a disk whose size is no multiple of 512 */
	memset(end, 0, sizeof(end));
	memcpy(end + sizeof(end) - 512, rec, sizeof(rec));
	tap_ok(diskmark_find(end, sizeof(end) - 200, &d, &at, why, sizeof(why)) == -EMSGSIZE &&
	       strstr(why, "cut short"), "a record cut short by the disk's end: %s", why);
	memset(end, 0, sizeof(end));
	memcpy(end + place, rec, sizeof(rec));
	end[place + 100] ^= 4;
	tap_ok(diskmark_find(end, sizeof(end), &d, &at, why, sizeof(why)) == -EBADMSG &&
	       strstr(why, "damaged"), "a damaged one: %s", why);
}

/* The plan's shape on a disk of size bytes: sorted, aligned, between the ends. */
static void plan_shape(uint64_t size, int want_samples, int want_windows)
{
	static struct disk_span s[DISKPROBE_MAX];
	int n = disk_probe_plan(size, s, DISKPROBE_MAX), i, samples = 0, windows = 0, bad = 0;
	uint64_t last = 0, gap = 0, prev = 0, slice;

	for (i = 0; i < n; i++) {
		if (s[i].off % 4096 || s[i].off < MIB || s[i].off + s[i].len > size - MIB ||
		    (i && s[i].off <= last))
			bad++;
		last = s[i].off;
		if (s[i].window) {
			windows++;
			continue;
		}
		if (samples++ && s[i].off - prev > gap)
			gap = s[i].off - prev;
		prev = s[i].off;
	}
	slice = samples ? (size - 2 * MIB) / (uint64_t)samples : 0;
	tap_ok(!bad && samples == want_samples && windows == want_windows &&
	       gap <= slice + DISKPROBE_SAMPLE_LEN,
	       "%llu bytes: %d windows, %d samples, none more than a slice (%llu) + 4 KiB apart "
	       "(%llu), sorted, 4 KiB-aligned, between the ends", (unsigned long long)size, windows,
	       samples, (unsigned long long)slice, (unsigned long long)gap);
}

static void test_plan(void)
{
	static struct disk_span s[DISKPROBE_MAX];
	int n, i, at[8] = { 0 };

	TAP_EQ_INT(disk_probe_plan(2 * MIB, s, DISKPROBE_MAX), 0, "2 MiB: the ends are all of it");
	/* 1 GiB: windows at 1, 2, 3, 4, 5, 8, 9 ... 512, 513 MiB */
	plan_shape(1ULL << 30, DISKPROBE_SAMPLES, 19);
	plan_shape(64 * MIB, DISKPROBE_SAMPLES, 11);
	/* the sample block at 1 MiB is read by the window there */
	plan_shape(3 * MIB, 255, 1);
	/* 4 TB: windows up to 2 TiB + 1 MiB */
	plan_shape(4000787030016ULL, DISKPROBE_SAMPLES, 43);
	plan_shape(2 * MIB + 8192, 2, 0);
	n = disk_probe_plan(1ULL << 30, s, DISKPROBE_MAX);
	for (i = 0; i < n; i++)
		if (s[i].window && s[i].off / MIB < 8)
			at[s[i].off / MIB] = 1;
	tap_ok(at[1] && at[2] && at[3] && at[4] && at[5] && !at[6] && !at[7],
	       "windows at 1, 2, 3, 4 and 5 MiB, none at 6 or 7");
	TAP_EQ_INT(disk_probe_plan(1ULL << 30, s, 10), 10, "a short array is filled, not overrun");
}

static int make_image(const char *path, uint64_t size)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600), ret = 0;

	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)size))
		ret = -errno;
	close(fd);
	return ret;
}

static int put(const char *path, uint64_t off, const void *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (pwrite(fd, p, n, (off_t)off) != (ssize_t)n)
		ret = -EIO;
	close(fd);
	return ret;
}

/* Runs argv; 0, 77 when its tool is missing (a skip), else a failure said. */
static int run(char *const argv[], const char *what)
{
	char out[300], tool[256];

	if (spawn_find(argv[0], tool, sizeof(tool))) {
		tap_skip("tool missing", "%s: %s", what, argv[0]);
		return 77;
	}
	if (spawn_run(argv, out, sizeof(out))) {
		tap_ok(0, "%s: %s failed: %s", what, argv[0], out);
		return 1;
	}
	return 0;
}

/* The first and the last MiB are zeros. */
static int ends_zero(const char *path, uint64_t size)
{
	static unsigned char buf[MIB];
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return 0;
	ret = !disksig_read(fd, buf, MIB, 0) && disksig_nonzero(buf, MIB) == MIB &&
	      !disksig_read(fd, buf, MIB, size - MIB) && disksig_nonzero(buf, MIB) == MIB;
	close(fd);
	return ret;
}

static void test_look(void)
{
	const uint64_t size = 256 * MIB;
	char img[128], what[300], err[200], fs_at[64];
	char *offset_fs[] = { "mke2fs", "-q", "-F", "-t", "ext4", "-L", "data", "-E", fs_at, img,
			      "32M", NULL };
	char *gpt[] = { "sgdisk", "-n", "1:2048:+128M", "-t", "1:8300", img, NULL };
	char *part_fs[] = { "mke2fs", "-q", "-F", "-t", "ext4", "-L", "home", "-E",
			    "offset=1048576", img, "131072k", NULL };
	char *zap[] = { "sgdisk", "--zap-all", img, NULL };
	static struct disk_span s[DISKPROBE_MAX];
	struct timespec t0, t1;
	uint64_t gap;
	int reads, ret, n, i;

	snprintf(img, sizeof(img), "%s/look.img", dir);
	if (make_image(img, size))
		tap_bail("cannot make an image");
	TAP_EQ_INT(disk_probe_deep(img, size, what, sizeof(what), &reads), 0, "a blank disk: zeros");
	TAP_EQ_INT(reads, 15 + DISKPROBE_SAMPLES, "... in every window and sample");
	/* one byte between two sample blocks (read by nothing), one in a block */
	n = disk_probe_plan(size, s, DISKPROBE_MAX);
	for (i = n / 2; i < n - 1 && (s[i].window || s[i + 1].window); i++)
		;
	gap = s[i].off + s[i].len + (s[i + 1].off - s[i].off - s[i].len) / 2;
	put(img, gap, "x", 1);
	ret = disk_probe_deep(img, size, what, sizeof(what), &reads);
	tap_ok(ret == 0, "a byte at %llu, between two sample blocks: not seen (%d)",
	       (unsigned long long)gap, ret);
	make_image(img, size);
	put(img, s[i].off + 100, "x", 1);
	ret = disk_probe_deep(img, size, what, sizeof(what), &reads);
	tap_ok(ret == 1 && strstr(what, "unrecognised non-zero data at offset"),
	       "a byte in a sample block: %s", what);

	/* mke2fs at an offset: a filesystem whose superblock is at 2 MiB + 1 KiB */
	make_image(img, size);
	snprintf(fs_at, sizeof(fs_at), "offset=%llu", 2 * MIB);
	if (!run(offset_fs, "ext4 at 2 MiB")) {
		tap_ok(ends_zero(img, size), "ext4 made at 2 MiB: both MiBs are zeros");
		ret = disk_probe_deep(img, size, what, sizeof(what), &reads);
		tap_ok(ret == 1 && strstr(what, "an ext4 filesystem labelled 'data' at 2 MiB"),
		       "... and the look finds it: %s", what);
	}
	/* sgdisk --zap-all over an ext4 partition at 1 MiB that keeps its files */
	make_image(img, size);
	if (!run(gpt, "GPT") && !run(part_fs, "ext4 in partition 1") && !run(zap, "zap")) {
		tap_ok(ends_zero(img, size), "GPT zapped over an ext4 partition: both MiBs are zeros");
		ret = disk_probe_deep(img, size, what, sizeof(what), &reads);
		tap_ok(ret == 1 && !strcmp(what, "an ext4 filesystem labelled 'home' at 1 MiB, between "
		       "the disk's ends") && reads == 1, "... and the look finds it in its first read: %s",
		       what);
		TAP_EQ_INT(disk_probe_zero(img, size, err, sizeof(err)), 0, "the wipe's zeros");
		TAP_EQ_INT(disk_probe_deep(img, size, what, sizeof(what), &reads), 0,
			   "... where the look reads");
	}
	unlink(img);

	/* a 4 TB disk: the same bounded number of reads (holes of a sparse file here) */
	snprintf(img, sizeof(img), "%s/big.img", dir);
	if (make_image(img, 4000787030016ULL)) {
		tap_skip("no sparse 4 TB file here", "a 4 TB disk");
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = disk_probe_deep(img, 4000787030016ULL, what, sizeof(what), &reads);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	tap_ok(ret == 0 && reads == 43 + DISKPROBE_SAMPLES, "a 4 TB disk: %d reads, %.3f s", reads,
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	unlink(img);
}

int main(void)
{
	tap_plan(0);
	if (!mkdtemp(dir))
		tap_bail("mkdtemp failed");
	test_place();
	test_format();
	test_find();
	test_plan();
	test_look();
	rmdir(dir);
	return tap_done();
}
