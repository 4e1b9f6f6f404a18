// SPDX-License-Identifier: MIT
/* runner/workloads/kerntree/ustar.c: headers written and read back, long names through the
 * prefix field, GNU and pax long names, damaged and short archives. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "ustar.h"

struct mem {
	unsigned char buf[64 * 1024];
	size_t len, pos;
};

static ssize_t mem_read(void *arg, void *buf, size_t len)
{
	struct mem *m = arg;
	size_t n = m->len - m->pos < len ? m->len - m->pos : len;

	memcpy(buf, m->buf + m->pos, n);
	m->pos += n;
	return (ssize_t)n;
}

/* Appends a header and data; the header's return value. */
static int put(struct mem *m, const char *name, char type, const char *data, size_t size)
{
	struct ustar_entry e = { .name = name, .linkname = type == USTAR_SYM ? "../target" : "",
				 .type = type, .mode = 0644, .size = size, .mtime = 1670803200 };
	int ret = ustar_header(m->buf + m->len, &e);

	if (ret)
		return ret;
	m->len += USTAR_BLOCK;
	memset(m->buf + m->len, 0, ustar_padded(size));
	memcpy(m->buf + m->len, data, size);
	m->len += ustar_padded(size);
	return 0;
}

static void name_of(char *buf, size_t len, size_t want, char fill)
{
	size_t i;

	/* components of 9 letters and a '/', the last one letters only */
	for (i = 0; i < want && i + 1 < len; i++)
		buf[i] = (i % 10 == 9 && i + 1 < want) ? '/' : fill;
	buf[i] = '\0';
}

static void test_round_trip(void)
{
	static struct mem m;
	struct ustar_reader r;
	struct ustar_entry e;
	char n100[128], n150[160], n255[260], n256[260], data[700], got[800];
	ssize_t k;
	size_t i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (char)('a' + i % 26);
	name_of(n100, sizeof(n100), 100, 'a');
	name_of(n150, sizeof(n150), 150, 'b');
	/* 155 bytes of prefix, '/', 99 of name: the longest ustar name */
	name_of(n255, sizeof(n255), 255, 'c');
	memset(n255 + 150, 'c', 105);
	n255[155] = '/';
	name_of(n256, sizeof(n256), 256, 'd');
	memset(&m, 0, sizeof(m));
	TAP_EQ_INT(put(&m, "linux", USTAR_DIR, "", 0), 0, "directory header");
	TAP_EQ_INT(put(&m, "linux/Makefile", USTAR_REG, data, 700), 0, "700-byte file");
	TAP_EQ_INT(put(&m, n100, USTAR_REG, data, 1), 0, "100-byte name fits the name field");
	TAP_EQ_INT(put(&m, n150, USTAR_REG, data, 512), 0, "150-byte name: prefix field");
	TAP_EQ_INT(put(&m, n255, USTAR_REG, "", 0), 0, "255-byte name: prefix field");
	TAP_EQ_INT(put(&m, "linux/link", USTAR_SYM, "", 0), 0, "symlink header");
	TAP_EQ_INT(put(&m, n256, USTAR_REG, "", 0), -ENAMETOOLONG, "256-byte name refused");
	memset(got, 'x', 101);
	got[101] = '\0';
	snprintf(got + 101, sizeof(got) - 101, "%s", "");
	TAP_EQ_INT(put(&m, got, USTAR_REG, "", 0), -ENAMETOOLONG,
		   "101-byte name without a '/' refused");
	m.len += 2 * USTAR_BLOCK;

	ustar_reader_init(&r, mem_read, &m);
	TAP_EQ_INT(ustar_next(&r, &e), 1, "entry 1");
	tap_ok(!strcmp(e.name, "linux") && e.type == USTAR_DIR && e.size == 0, "directory back");
	TAP_EQ_INT(ustar_next(&r, &e), 1, "entry 2");
	tap_ok(!strcmp(e.name, "linux/Makefile") && e.type == USTAR_REG && e.size == 700 &&
	       e.mode == 0644 && e.mtime == 1670803200, "file header back");
	k = ustar_data(&r, got, 300);
	TAP_EQ_INT(k, 300, "first 300 bytes");
	k = ustar_data(&r, got + 300, sizeof(got) - 300);
	TAP_EQ_INT(k, 400, "then the other 400");
	tap_ok(!memcmp(got, data, 700), "contents back");
	TAP_EQ_INT(ustar_data(&r, got, 10), 0, "then the end of the entry");
	TAP_EQ_INT(ustar_next(&r, &e), 1, "entry 3");
	TAP_EQ_STR(e.name, n100, "100-byte name back");
	/* entry 3's data not read: next() skips it */
	TAP_EQ_INT(ustar_next(&r, &e), 1, "entry 4");
	TAP_EQ_STR(e.name, n150, "150-byte name back");
	TAP_EQ_INT(ustar_next(&r, &e), 1, "entry 5");
	TAP_EQ_STR(e.name, n255, "255-byte name back");
	TAP_EQ_INT(ustar_next(&r, &e), 1, "entry 6");
	tap_ok(e.type == USTAR_SYM && !strcmp(e.linkname, "../target"), "symlink target back");
	TAP_EQ_INT(ustar_next(&r, &e), 0, "end of archive");
	TAP_EQ_INT(ustar_next(&r, &e), 0, "and it stays at the end");
	TAP_EQ_INT((int)r.offset, (int)m.len - 512, "stopped at the first end block");
}

/* A GNU 'L' entry and a pax 'x' entry in front of real ones. */
static void test_long_names(void)
{
	static struct mem m;
	struct ustar_reader r;
	struct ustar_entry e;
	char longname[400], pax[600];
	int n;

	memset(&m, 0, sizeof(m));
	memset(longname, 'q', 300);
	longname[300] = '\0';
	TAP_EQ_INT(put(&m, "././@LongLink", 'L', longname, 301), 0, "GNU long name entry");
	TAP_EQ_INT(put(&m, "truncated", USTAR_REG, "hello", 5), 0, "its file");
	n = snprintf(pax, sizeof(pax), "%d path=pax/%s\n", 314, longname);
	TAP_EQ_INT(n, 314, "pax record length");
	TAP_EQ_INT(put(&m, "PaxHeaders/x", 'x', pax, (size_t)n), 0, "pax header entry");
	TAP_EQ_INT(put(&m, "truncated2", USTAR_REG, "", 0), 0, "its file");
	/* no end blocks: GNU tar accepts that, and so do we */
	ustar_reader_init(&r, mem_read, &m);
	TAP_EQ_INT(ustar_next(&r, &e), 1, "GNU entry");
	TAP_EQ_STR(e.name, longname, "300-byte GNU long name");
	TAP_EQ_INT((int)e.size, 5, "size of the file after it");
	TAP_EQ_INT(ustar_next(&r, &e), 1, "pax entry");
	tap_ok(!strncmp(e.name, "pax/", 4) && strlen(e.name) == 304, "pax path");
	TAP_EQ_INT(ustar_next(&r, &e), 0, "end without end blocks");
}

static void test_damage(void)
{
	static struct mem m;
	struct ustar_reader r;
	struct ustar_entry e;
	char buf[64];

	memset(&m, 0, sizeof(m));
	put(&m, "a", USTAR_REG, "0123456789", 10);
	put(&m, "b", USTAR_REG, "0123456789", 10);
	m.buf[USTAR_BLOCK * 2 + 3] ^= 1;    /* b's name, under the checksum */
	ustar_reader_init(&r, mem_read, &m);
	TAP_EQ_INT(ustar_next(&r, &e), 1, "a is fine");
	TAP_EQ_INT(ustar_next(&r, &e), -EBADMSG, "b's checksum is wrong");
	TAP_EQ_INT((int)r.offset, 1024, "offset names b's header");

	memset(&m, 0, sizeof(m));
	put(&m, "a", USTAR_REG, "0123456789", 10);
	m.len = USTAR_BLOCK + 4;           /* the data stops short */
	ustar_reader_init(&r, mem_read, &m);
	TAP_EQ_INT(ustar_next(&r, &e), 1, "a's header");
	TAP_EQ_INT((int)ustar_data(&r, buf, sizeof(buf)), -ENODATA, "short data: -ENODATA");

	memset(&m, 0, sizeof(m));
	put(&m, "a", USTAR_REG, "0123456789", 10);
	m.len = 300;                       /* the header stops short */
	ustar_reader_init(&r, mem_read, &m);
	TAP_EQ_INT(ustar_next(&r, &e), -ENODATA, "short header: -ENODATA");
}

int main(void)
{
	tap_plan(0);
	test_round_trip();
	test_long_names();
	test_damage();
	return tap_done();
}
