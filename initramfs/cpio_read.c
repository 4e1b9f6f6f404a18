/* newc reader over a memory buffer. Every length is checked against the buffer
 * before use: this also reads images bootmark did not write. */
#include "cpio.h"

#include <errno.h>
#include <string.h>

void bm_cpio_reader_init(struct bm_cpio_reader *r, const void *buf, size_t len)
{
	memset(r, 0, sizeof(*r));
	r->buf = buf;
	r->len = len;
}

static int hex8(const unsigned char *p, uint32_t *v)
{
	uint32_t x = 0;

	for (int i = 0; i < 8; i++) {
		unsigned d;

		if (p[i] >= '0' && p[i] <= '9')
			d = p[i] - '0';
		else if (p[i] >= 'a' && p[i] <= 'f')
			d = p[i] - 'a' + 10;
		else if (p[i] >= 'A' && p[i] <= 'F')
			d = p[i] - 'A' + 10;
		else
			return -EINVAL;
		x = x << 4 | d;
	}
	*v = x;
	return 0;
}

static size_t up4(size_t x)
{
	return (x + 3) & ~(size_t)3;
}

static int parse_header(const unsigned char *h, struct bm_cpio_ent *e, uint32_t *namesize)
{
	uint32_t *fields[] = { &e->ino, &e->mode, &e->uid, &e->gid, &e->nlink, &e->mtime,
			       &e->size, &e->devmajor, &e->devminor, &e->rdevmajor,
			       &e->rdevminor, namesize };
	uint32_t check;

	if (memcmp(h, "070701", 6))
		return -EINVAL;
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (hex8(h + 6 + 8 * i, fields[i]))
			return -EINVAL;
	return hex8(h + 6 + 8 * 12, &check);
}

/* Between archives the kernel skips zero bytes in 4-byte steps. */
static void skip_padding(struct bm_cpio_reader *r)
{
	while (r->len - r->off >= 4 && !memcmp(r->buf + r->off, "\0\0\0\0", 4))
		r->off += 4;
}

int bm_cpio_next(struct bm_cpio_reader *r, struct bm_cpio_ent *e)
{
	for (;;) {
		uint32_t namesize;
		size_t name_end, data_end;

		if (!r->in_archive)
			skip_padding(r);
		if (r->off == r->len)
			return r->in_archive ? -EINVAL : 0;
		if (r->len - r->off < 110)
			return -EINVAL;
		memset(e, 0, sizeof(*e));
		if (parse_header(r->buf + r->off, e, &namesize) || namesize == 0)
			return -EINVAL;
		name_end = r->off + 110 + namesize;
		if (name_end > r->len || name_end < r->off)
			return -EINVAL;
		e->name = (const char *)r->buf + r->off + 110;
		if (e->name[namesize - 1] != '\0' || strlen(e->name) != namesize - 1)
			return -EINVAL;
		data_end = up4(name_end) + e->size;
		if (up4(name_end) > r->len || data_end > r->len || data_end < name_end)
			return -EINVAL;
		e->data = r->buf + up4(name_end);
		r->off = up4(data_end) <= r->len ? up4(data_end) : r->len;
		if (!strcmp(e->name, "TRAILER!!!")) {
			r->in_archive = 0;
			r->archives++;
			continue;
		}
		r->in_archive = 1;
		return 1;
	}
}

int bm_cpio_read(const void *buf, size_t len,
		 int (*fn)(const struct bm_cpio_ent *e, void *arg), void *arg)
{
	struct bm_cpio_reader r;
	struct bm_cpio_ent e;
	int rc;

	bm_cpio_reader_init(&r, buf, len);
	while ((rc = bm_cpio_next(&r, &e)) == 1) {
		rc = fn(&e, arg);
		if (rc)
			return rc;
	}
	return rc;
}
