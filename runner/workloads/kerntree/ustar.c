// SPDX-License-Identifier: MIT
/* The ustar writer and reader (ustar.h).  Field offsets from POSIX.1-1988. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ustar.h"

enum {
	F_NAME = 0, F_MODE = 100, F_UID = 108, F_GID = 116, F_SIZE = 124,
	F_MTIME = 136, F_CHKSUM = 148, F_TYPE = 156, F_LINK = 157,
	F_MAGIC = 257, F_VERSION = 263, F_UNAME = 265, F_GNAME = 297,
	F_PREFIX = 345,
};

static void octal(unsigned char *f, size_t len, uint64_t v)
{
	size_t i;

	/* len-1 digits and a NUL, as GNU tar writes them; callers keep v in range */
	f[len - 1] = '\0';
	for (i = len - 1; i > 0; i--, v >>= 3)
		f[i - 1] = (unsigned char)('0' + (v & 7));
}

static unsigned checksum(const unsigned char *blk)
{
	unsigned sum = 0, i;

	for (i = 0; i < USTAR_BLOCK; i++)
		sum += (i >= F_CHKSUM && i < F_CHKSUM + 8) ? ' ' : blk[i];
	return sum;
}

/* The last '/' that leaves at most 155 bytes before and 100 after it. */
static int split_name(const char *name, size_t len, size_t *cut)
{
	size_t i;

	if (len <= 100) {
		*cut = 0;
		return 0;
	}
	if (len > USTAR_NAME_MAX)
		return -ENAMETOOLONG;
	for (i = len - 1; i > 0; i--) {
		if (name[i] != '/')
			continue;
		if (len - i - 1 > 100 || len - i - 1 == 0)
			break;
		if (i <= 155) {
			*cut = i;
			return 0;
		}
	}
	return -ENAMETOOLONG;
}

int ustar_header(unsigned char blk[USTAR_BLOCK], const struct ustar_entry *e)
{
	size_t len = strlen(e->name), cut;
	int ret = split_name(e->name, len, &cut);

	if (ret)
		return ret;
	if (e->linkname && strlen(e->linkname) > 100)
		return -ENAMETOOLONG;
	if (e->size >= 1ull << 33)
		return -EOVERFLOW;
	memset(blk, 0, USTAR_BLOCK);
	if (cut) {
		memcpy(blk + F_PREFIX, e->name, cut);
		memcpy(blk + F_NAME, e->name + cut + 1, len - cut - 1);
	} else {
		memcpy(blk + F_NAME, e->name, len);
	}
	octal(blk + F_MODE, 8, e->mode & 07777);
	octal(blk + F_UID, 8, 0);
	octal(blk + F_GID, 8, 0);
	octal(blk + F_SIZE, 12, e->size);
	octal(blk + F_MTIME, 12, e->mtime < 0 ? 0 : (uint64_t)e->mtime);
	blk[F_TYPE] = (unsigned char)e->type;
	if (e->linkname)
		memcpy(blk + F_LINK, e->linkname, strlen(e->linkname));
	memcpy(blk + F_MAGIC, "ustar", 6);
	memcpy(blk + F_VERSION, "00", 2);
	memcpy(blk + F_UNAME, "root", 4);
	memcpy(blk + F_GNAME, "root", 4);
	octal(blk + F_CHKSUM, 7, checksum(blk));
	blk[F_CHKSUM + 7] = ' ';
	return 0;
}

void ustar_reader_init(struct ustar_reader *r, ustar_read_fn fn, void *arg)
{
	memset(r, 0, sizeof(*r));
	r->read = fn;
	r->arg = arg;
}

static int read_full(struct ustar_reader *r, void *buf, size_t len)
{
	ssize_t n = r->read(r->arg, buf, len);

	if (n < 0)
		return (int)n;
	r->offset += (uint64_t)n;
	return (size_t)n == len ? 0 : -ENODATA;
}

/* Octal, space or NUL terminated; or GNU base-256 (high bit of byte 0). */
static int number(const unsigned char *f, size_t len, uint64_t *v)
{
	size_t i = 0;

	*v = 0;
	if (f[0] & 0x80) {
		if (f[0] != 0x80 || len < 9)
			return -EBADMSG;
		for (i = 1; i < len; i++) {
			if (*v >> 56)
				return -EBADMSG;
			*v = *v << 8 | f[i];
		}
		return 0;
	}
	while (i < len && f[i] == ' ')
		i++;
	for (; i < len && f[i] >= '0' && f[i] <= '7'; i++)
		*v = *v << 3 | (uint64_t)(f[i] - '0');
	if (i < len && f[i] != ' ' && f[i] != '\0')
		return -EBADMSG;
	return 0;
}

static int skip(struct ustar_reader *r, uint64_t n)
{
	char buf[4096];
	size_t k;
	int ret;

	while (n) {
		k = n < sizeof(buf) ? (size_t)n : sizeof(buf);
		ret = read_full(r, buf, k);
		if (ret)
			return ret;
		n -= k;
	}
	return 0;
}

/* The data of a GNU 'L'/'K' entry (a NUL-terminated name) into dst. */
static int long_name(struct ustar_reader *r, uint64_t size, char *dst)
{
	int ret;

	if (size == 0 || size >= USTAR_PATH_MAX)
		return -EBADMSG;
	ret = read_full(r, dst, size);
	if (!ret)
		ret = skip(r, ustar_padded(size) - size);
	dst[size] = '\0';
	return ret;
}

/* pax records "<len> <key>=<value>\n": path, linkpath and size are used. */
static int pax(struct ustar_reader *r, uint64_t size, int *have_name, int *have_link,
	       uint64_t *psize, int *have_size)
{
	char *buf, *p, *end, *eq, *sp;
	unsigned long rec;
	int ret;

	if (size > 1 << 20)
		return -EBADMSG;
	buf = malloc(size + 1);
	if (!buf)
		return -ENOMEM;
	ret = read_full(r, buf, size);
	if (!ret)
		ret = skip(r, ustar_padded(size) - size);
	buf[size] = '\0';
	for (p = buf, end = buf + size; !ret && p < end; p += rec) {
		rec = strtoul(p, &sp, 10);
		if (sp == p || *sp != ' ' || rec < 5 || rec > (unsigned long)(end - p) ||
		    p[rec - 1] != '\n' || !(eq = memchr(sp, '=', (size_t)(p + rec - sp)))) {
			ret = -EBADMSG;
			break;
		}
		p[rec - 1] = '\0';
		if (!strncmp(sp + 1, "path=", 5) && strlen(eq + 1) < USTAR_PATH_MAX) {
			snprintf(r->name, sizeof(r->name), "%s", eq + 1);
			*have_name = 1;
		} else if (!strncmp(sp + 1, "linkpath=", 9) && strlen(eq + 1) < USTAR_PATH_MAX) {
			snprintf(r->link, sizeof(r->link), "%s", eq + 1);
			*have_link = 1;
		} else if (!strncmp(sp + 1, "size=", 5)) {
			*psize = strtoull(eq + 1, NULL, 10);
			*have_size = 1;
		}
	}
	free(buf);
	return ret;
}

static int all_zero(const unsigned char *b)
{
	size_t i;

	for (i = 0; i < USTAR_BLOCK; i++)
		if (b[i])
			return 0;
	return 1;
}

int ustar_next(struct ustar_reader *r, struct ustar_entry *e)
{
	unsigned char blk[USTAR_BLOCK];
	int have_name = 0, have_link = 0, have_size = 0, ret;
	uint64_t v, size, psize = 0;

	if (r->done)
		return 0;
	ret = skip(r, r->left + r->pad);
	r->left = r->pad = 0;
	for (;;) {
		if (ret)
			return ret;
		ret = read_full(r, blk, sizeof(blk));
		if (ret == -ENODATA && r->offset % USTAR_BLOCK == 0 && !have_name)
			ret = 0, r->done = 1; /* no end blocks: tolerated, as GNU tar */
		if (ret || r->done)
			return ret ? ret : 0;
		if (all_zero(blk)) {
			r->done = 1;
			return 0;
		}
		if (number(blk + F_CHKSUM, 8, &v) || v != checksum(blk) ||
		    number(blk + F_SIZE, 12, &size)) {
			r->offset -= USTAR_BLOCK;
			return -EBADMSG;
		}
		if (blk[F_TYPE] == 'L')
			ret = long_name(r, size, r->name), have_name = !ret;
		else if (blk[F_TYPE] == 'K')
			ret = long_name(r, size, r->link), have_link = !ret;
		else if (blk[F_TYPE] == 'x')
			ret = pax(r, size, &have_name, &have_link, &psize, &have_size);
		else if (blk[F_TYPE] == 'g')
			ret = skip(r, ustar_padded(size));
		else
			break;
	}
	if (!have_name) {
		if (blk[F_PREFIX] && memcmp(blk + F_MAGIC, "ustar\0", 6) == 0)
			snprintf(r->name, sizeof(r->name), "%.155s/%.100s",
				 (char *)blk + F_PREFIX, (char *)blk + F_NAME);
		else
			snprintf(r->name, sizeof(r->name), "%.100s", (char *)blk + F_NAME);
	}
	if (!have_link)
		snprintf(r->link, sizeof(r->link), "%.100s", (char *)blk + F_LINK);
	if (have_size)
		size = psize;
	e->name = r->name;
	e->linkname = r->link;
	e->type = blk[F_TYPE] ? (char)blk[F_TYPE] : USTAR_REG;
	number(blk + F_MODE, 8, &v);
	e->mode = (unsigned)(v & 07777);
	number(blk + F_MTIME, 12, &v);
	e->mtime = (int64_t)v;
	/* Links and directories carry no data, whatever size says. */
	if (e->type == USTAR_LNK || e->type == USTAR_SYM || e->type == USTAR_DIR)
		size = 0;
	e->size = size;
	r->left = size;
	r->pad = ustar_padded(size) - size;
	return 1;
}

ssize_t ustar_data(struct ustar_reader *r, void *buf, size_t len)
{
	int ret;

	if (len > r->left)
		len = (size_t)r->left;
	if (!len)
		return 0;
	ret = read_full(r, buf, len);
	if (ret)
		return ret;
	r->left -= len;
	return (ssize_t)len;
}
