// SPDX-License-Identifier: MIT
/* bootmark's ownership mark (diskmark.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diskmark.h"
#include "proto.h"      /* bm_crc32 */

#define MIB (1ULL << 20)
#define VERSION 1
#define OFF_VERSION 16
#define OFF_LEN 20
#define OFF_SIZE 24
#define OFF_USABLE 32
#define OFF_OFFSET 40
#define OFF_SERIAL 48
#define OFF_WWN 112
#define OFF_NOTE 192
#define OFF_CRC (DISKMARK_LEN - 4)
#define NOTE "bootmark's test disk: see docs/disk-safety.md"

_Static_assert(sizeof(DISKMARK_MAGIC) == 16, "the magic and its NUL fill 16 bytes");
_Static_assert(OFF_WWN - OFF_SERIAL == sizeof(((struct diskmark *)0)->serial), "serial");
_Static_assert(OFF_NOTE - OFF_WWN == sizeof(((struct diskmark *)0)->wwn), "wwn");
_Static_assert(sizeof(NOTE) <= 64, "the note fits before the reserved bytes");

uint64_t diskmark_usable(uint64_t size)
{
	return size >= 2 * MIB ? (size - MIB) & ~(MIB - 1) : 0;
}

uint64_t diskmark_offset(uint64_t size)
{
	return size >= 2 * MIB ? (size - MIB + 4095) & ~4095ULL : 0;
}

/* n-byte little-endian integers */
static void put_le(unsigned char *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

void diskmark_encode(const struct disk_info *d, unsigned char rec[DISKMARK_LEN])
{
	memset(rec, 0, DISKMARK_LEN);
	memcpy(rec, DISKMARK_MAGIC, sizeof(DISKMARK_MAGIC));
	put_le(rec + OFF_VERSION, VERSION, 4);
	put_le(rec + OFF_LEN, DISKMARK_LEN, 4);
	put_le(rec + OFF_SIZE, d->size, 8);
	put_le(rec + OFF_USABLE, diskmark_usable(d->size), 8);
	put_le(rec + OFF_OFFSET, diskmark_offset(d->size), 8);
	/* fixed-size fields, NUL-padded (rec is zeroed), the last byte a NUL */
	memcpy(rec + OFF_SERIAL, d->serial, strnlen(d->serial, OFF_WWN - OFF_SERIAL - 1));
	memcpy(rec + OFF_WWN, d->wwn, strnlen(d->wwn, OFF_NOTE - OFF_WWN - 1));
	memcpy(rec + OFF_NOTE, NOTE, sizeof(NOTE));
	put_le(rec + OFF_CRC, bm_crc32(0, rec, OFF_CRC), 4);
}

int diskmark_decode(const unsigned char *p, size_t avail, struct diskmark *m)
{
	memset(m, 0, sizeof(*m));
	if (avail < sizeof(DISKMARK_MAGIC) || memcmp(p, DISKMARK_MAGIC, sizeof(DISKMARK_MAGIC)))
		return -ENODATA;
	if (avail < DISKMARK_LEN)
		return -EMSGSIZE;
	if (get_le(p + OFF_VERSION, 4) != VERSION || get_le(p + OFF_LEN, 4) != DISKMARK_LEN ||
	    get_le(p + OFF_CRC, 4) != bm_crc32(0, p, OFF_CRC))
		return -EBADMSG;
	m->size = get_le(p + OFF_SIZE, 8);
	m->usable = get_le(p + OFF_USABLE, 8);
	m->offset = get_le(p + OFF_OFFSET, 8);
	memcpy(m->serial, p + OFF_SERIAL, sizeof(m->serial) - 1);
	memcpy(m->wwn, p + OFF_WWN, sizeof(m->wwn) - 1);
	return 0;
}

/* 0 when m is d's mark found at at; else -ESTALE and whose it is. */
static int identity(const struct diskmark *m, const struct disk_info *d, uint64_t at,
		    char *why, size_t whylen)
{
	if (m->size == d->size && !strcmp(m->serial, d->serial) && !strcmp(m->wwn, d->wwn) &&
	    m->offset == at && at == diskmark_offset(d->size) &&
	    m->usable == diskmark_usable(d->size))
		return 0;
	snprintf(why, whylen, "bootmark's ownership mark of another disk (serial %.63s%s%.79s, "
		 "%llu bytes)", m->serial[0] ? m->serial : "none", m->wwn[0] ? ", WWN " : "",
		 m->wwn, (unsigned long long)m->size);
	return -ESTALE;
}

int diskmark_find(const unsigned char *buf, size_t len, const struct disk_info *d,
		  uint64_t *at, char *why, size_t whylen)
{
	uint64_t base, place = diskmark_offset(d->size);
	struct diskmark m;
	size_t off = 0;
	int ret = -ENODATA;

	why[0] = '\0';
	if (len > d->size)
		return -ENODATA;
	base = d->size - len;
	if (place && place >= base) {
		off = (size_t)(place - base);
		ret = diskmark_decode(buf + off, len - off, &m);
	}
	/* Anywhere else in the region: a copy from a disk of another size, or
	 * this disk's after its size changed. */
	for (off = ret == -ENODATA ? 0 : off; ret == -ENODATA && off < len; off += 512)
		if ((ret = diskmark_decode(buf + off, len - off, &m)) != -ENODATA)
			break;
	if (ret == -ENODATA)
		return ret;
	*at = base + off;
	if (ret) {
		snprintf(why, whylen, "a damaged bootmark ownership mark at offset %llu (%s)",
			 (unsigned long long)*at, ret == -EMSGSIZE ? "cut short by the end of the disk"
			 : "wrong checksum, version or length");
		return ret;
	}
	return identity(&m, d, *at, why, whylen);
}

int disk_mark_write(const char *dev, const struct disk_info *d, char *err, size_t errlen)
{
	uint64_t at = diskmark_offset(d->size);
	struct disk_fd f;
	void *blk;
	int ret;

	if (!at) {
		snprintf(err, errlen, "%s is too small to hold bootmark's ownership mark (%llu bytes)",
			 dev, (unsigned long long)d->size);
		return -ENOSPC;
	}
	if (posix_memalign(&blk, 4096, DISKMARK_BLOCK)) {
		snprintf(err, errlen, "cannot mark %s: out of memory", dev);
		return -ENOMEM;
	}
	memset(blk, 0, DISKMARK_BLOCK);
	diskmark_encode(d, blk);
	ret = disk_fd_open(&f, dev, O_WRONLY | O_EXCL);
	if (ret) {
		snprintf(err, errlen, "cannot open %s: %s", dev, strerror(-ret));
		goto out_free;
	}
	ret = disk_fd_pwrite(&f, blk, DISKMARK_BLOCK, at);
	if (!ret)
		ret = disk_fd_sync(&f);
	if (ret)
		snprintf(err, errlen, "cannot write bootmark's ownership mark on %s at offset %llu: %s",
			 dev, (unsigned long long)at, strerror(-ret));
	disk_fd_close(&f);
out_free:
	free(blk);
	return ret;
}

int disk_mark_check(const char *dev, const struct disk_info *d, char *why, size_t whylen)
{
	uint64_t at = diskmark_offset(d->size);
	struct diskmark m;
	struct disk_fd f;
	void *blk;
	int ret;

	if (!at) {
		snprintf(why, whylen, "%s is too small to hold bootmark's ownership mark", dev);
		return -ENODATA;
	}
	if (posix_memalign(&blk, 4096, DISKMARK_BLOCK)) {
		snprintf(why, whylen, "cannot read %s: out of memory", dev);
		return -ENOMEM;
	}
	ret = disk_fd_open(&f, dev, O_RDONLY);
	if (!ret) {
		ret = disk_fd_pread(&f, blk, DISKMARK_BLOCK, at);
		disk_fd_close(&f);
	}
	if (ret) {
		snprintf(why, whylen, "cannot read %s: %s", dev, strerror(-ret));
		goto out_free;
	}
	ret = diskmark_decode(blk, DISKMARK_BLOCK, &m);
	if (ret == -ENODATA)
		snprintf(why, whylen, "no bootmark ownership mark at offset %llu of %s",
			 (unsigned long long)at, dev);
	else if (ret)
		snprintf(why, whylen, "a damaged bootmark ownership mark at offset %llu of %s",
			 (unsigned long long)at, dev);
	else
		ret = identity(&m, d, at, why, whylen);
out_free:
	free(blk);
	return ret;
}
