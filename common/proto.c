/* SPDX-License-Identifier: MIT */
/*
 * Encoder and decoder for protocol records (docs/protocol.md).
 *
 * The decoder reads bytes that went through a UART shared with printk, so
 * it trusts nothing: every byte is bounds-checked, a record may not grow
 * past BM_LINE_MAX - 1 bytes, and a failed parse only skips its marker, so
 * a scan over n bytes costs O(n * BM_LINE_MAX) at worst and never more.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "proto.h"

#define MARK       BM_PROTO_MAGIC " "
#define MARK_LEN   (sizeof(MARK) - 1)
#define TRAILER    11  /* " #xxxxxxxx\n" */
/* The encoder keeps buf NUL-terminated, so a line is at most BM_LINE_MAX - 1. */
#define BODY_MAX   (BM_LINE_MAX - 1 - TRAILER)
#define SEQ_MAX    9223372036854775807ull  /* 2^63 - 1: fits every signed reader */

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int is_lower_hex(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

static int is_key_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

static int valid_type(int t)
{
	/* M: one metric per record for LAVA's monitors (bootmark.lava=1) */
	return t && strchr("HPBREZM", t) != NULL;
}

static int valid_run(const char *run)
{
	for (int i = 0; i < BM_RUN_LEN; i++)
		if (!is_lower_hex((unsigned char)run[i]))
			return 0;
	return run[BM_RUN_LEN] == '\0';
}

static int valid_key(const char *key, size_t len)
{
	if (len == 0 || len >= BM_KEY_MAX)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (!is_key_char((unsigned char)key[i]))
			return 0;
	return 1;
}

/* ---- encoder ------------------------------------------------------------ */

static int line_fail(struct bm_line *l, int err)
{
	if (!l->err)
		l->err = err;
	return l->err;
}

int bm_line_start(struct bm_line *l, const char *run, uint64_t seq, char type)
{
	l->len = 0;
	l->err = 0;
	l->buf[0] = '\0';
	if (!run || !valid_run(run) || seq == 0 || seq > SEQ_MAX || !valid_type(type))
		return line_fail(l, -EINVAL);
	l->len = (size_t)snprintf(l->buf, sizeof(l->buf), "%s %s %llu %c",
				  BM_PROTO_MAGIC, run, (unsigned long long)seq, type);
	return 0;
}

static int line_put(struct bm_line *l, const char *s, size_t n)
{
	if (l->len + n > BODY_MAX)
		return -E2BIG;
	memcpy(l->buf + l->len, s, n);
	l->len += n;
	l->buf[l->len] = '\0';
	return 0;
}

static int line_put_escaped(struct bm_line *l, const char *val)
{
	static const char hex[] = "0123456789ABCDEF";

	for (const unsigned char *p = (const unsigned char *)val; *p; p++) {
		char esc[3] = { '%', hex[*p >> 4], hex[*p & 15] };
		int keep = *p >= 0x21 && *p <= 0x7e && *p != '%';
		int rc = keep ? line_put(l, (const char *)p, 1) : line_put(l, esc, 3);

		if (rc)
			return rc;
	}
	return 0;
}

/* Pairs so far: the header "@@B1 run seq T" has three spaces, each pair one. */
static unsigned line_pairs(const struct bm_line *l)
{
	unsigned spaces = 0;

	for (size_t i = 0; i < l->len; i++)
		spaces += l->buf[i] == ' ';
	return spaces - 3;
}

/* Values never hold a raw space, so " key=" can only match a real pair. */
static int line_has_key(const struct bm_line *l, const char *key, size_t klen)
{
	char needle[BM_KEY_MAX + 2];

	needle[0] = ' ';
	memcpy(needle + 1, key, klen);
	needle[klen + 1] = '=';
	return memmem(l->buf, l->len, needle, klen + 2) != NULL;
}

int bm_line_add(struct bm_line *l, const char *key, const char *val)
{
	size_t start = l->len, klen;

	if (l->err)
		return l->err;
	if (!l->len || !key || !val)
		return line_fail(l, -EINVAL);
	klen = strlen(key);
	if (!valid_key(key, klen) || line_has_key(l, key, klen))
		return line_fail(l, -EINVAL);
	if (strlen(val) >= BM_VAL_MAX || line_pairs(l) >= BM_KV_MAX)
		return line_fail(l, -E2BIG);
	if (line_put(l, " ", 1) || line_put(l, key, klen) || line_put(l, "=", 1) ||
	    line_put_escaped(l, val)) {
		l->len = start;
		l->buf[start] = '\0';
		return line_fail(l, -E2BIG);
	}
	return 0;
}

int bm_line_addf(struct bm_line *l, const char *key, const char *fmt, ...)
{
	char val[BM_VAL_MAX];
	va_list ap;
	int n;

	if (l->err)
		return l->err;
	va_start(ap, fmt);
	n = vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	if (n < 0)
		return line_fail(l, -EINVAL);
	if ((size_t)n >= sizeof(val))
		return line_fail(l, -E2BIG);
	return bm_line_add(l, key, val);
}

int bm_line_finish(struct bm_line *l)
{
	uint32_t crc;

	if (l->err)
		return l->err;
	if (!l->len || l->len > BODY_MAX)
		return line_fail(l, -EINVAL);
	crc = bm_crc32(0, l->buf, l->len);
	snprintf(l->buf + l->len, sizeof(l->buf) - l->len, " #%08x\n", (unsigned)crc);
	l->len += TRAILER;
	return (int)l->len;
}

/* ---- decoder ------------------------------------------------------------ */

/* A cursor over the candidate record; peek returns -1 past the end. */
struct cur {
	const unsigned char *p;
	size_t n, i;
};

static int peek_at(const struct cur *c, size_t off)
{
	return c->i + off < c->n ? c->p[c->i + off] : -1;
}

static int eat(struct cur *c, int ch)
{
	if (peek_at(c, 0) != ch)
		return 0;
	c->i++;
	return 1;
}

static int parse_run(struct cur *c, struct bm_record *rec)
{
	for (int k = 0; k < BM_RUN_LEN; k++) {
		int ch = peek_at(c, 0);

		if (ch < 0 || !is_lower_hex(ch))
			return -1;
		rec->run[k] = (char)ch;
		c->i++;
	}
	rec->run[BM_RUN_LEN] = '\0';
	return eat(c, ' ') ? 0 : -1;
}

/* Decimal, 1 .. 2^63-1, no sign, no leading zero. */
static int parse_seq(struct cur *c, uint64_t *seq)
{
	uint64_t v = 0;
	int ch = peek_at(c, 0);

	if (ch < '1' || ch > '9')
		return -1;
	while ((ch = peek_at(c, 0)) >= '0' && ch <= '9') {
		if (v > (SEQ_MAX - (uint64_t)(ch - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(ch - '0');
		c->i++;
	}
	*seq = v;
	return eat(c, ' ') ? 0 : -1;
}

static int parse_key(struct cur *c, char *key)
{
	size_t k = 0;
	int ch;

	while ((ch = peek_at(c, 0)) >= 0 && is_key_char(ch)) {
		if (k == BM_KEY_MAX - 1)
			return -1;
		key[k++] = (char)ch;
		c->i++;
	}
	key[k] = '\0';
	return k && eat(c, '=') ? 0 : -1;
}

/* Runs up to (not over) the space that ends the value. */
static int parse_value(struct cur *c, char *val)
{
	size_t k = 0;
	int ch;

	while ((ch = peek_at(c, 0)) != ' ') {
		if (ch < 0x21 || ch > 0x7e || k == BM_VAL_MAX - 1)
			return -1;
		if (ch == '%') {
			int hi = hexval(peek_at(c, 1)), lo = hexval(peek_at(c, 2));

			if (hi < 0 || lo < 0 || (hi | lo) == 0)
				return -1;  /* %00 would cut the C string short */
			ch = hi << 4 | lo;
			c->i += 2;
		}
		val[k++] = (char)ch;
		c->i++;
	}
	val[k] = '\0';
	return 0;
}

static int parse_pair(struct cur *c, struct bm_record *rec)
{
	struct bm_kv *kv = &rec->kv[rec->nkv];

	if (rec->nkv == BM_KV_MAX || parse_key(c, kv->key) || parse_value(c, kv->val))
		return -1;
	if (bm_rec_get(rec, kv->key))
		return -1;  /* a key twice would make bm_rec_get ambiguous */
	rec->nkv++;
	return 0;
}

/* "#" and exactly eight hex digits; either case, though we write lowercase. */
static int parse_crc(struct cur *c, uint32_t *crc)
{
	uint32_t v = 0;

	if (!eat(c, '#'))
		return -1;
	for (int k = 0; k < 8; k++) {
		int d = hexval(peek_at(c, 0));

		if (d < 0)
			return -1;
		v = v << 4 | (uint32_t)d;
		c->i++;
	}
	*crc = v;
	return 0;
}

/*
 * p points at a marker.  On success returns the record's length (marker to
 * last CRC digit).  The raw copy gets its CRC digits in lowercase, so two
 * copies that differ only in the case of the CRC still compare equal.
 */
static int parse_record(const char *p, size_t n, struct bm_record *rec)
{
	struct cur c = { (const unsigned char *)p, n < BM_LINE_MAX ? n : BM_LINE_MAX - 1, MARK_LEN };
	size_t covered;
	uint32_t crc;
	int ch;

	rec->nkv = 0;
	if (parse_run(&c, rec) || parse_seq(&c, &rec->seq))
		return -1;
	ch = peek_at(&c, 0);
	if (ch < 0 || !valid_type(ch))
		return -1;
	rec->type = (char)ch;
	c.i++;
	for (;;) {
		covered = c.i;
		if (!eat(&c, ' '))
			return -1;
		if (peek_at(&c, 0) == '#')
			break;
		if (parse_pair(&c, rec))
			return -1;
	}
	if (parse_crc(&c, &crc) || crc != bm_crc32(0, p, covered))
		return -1;
	memcpy(rec->raw, p, c.i);
	rec->raw[c.i] = '\0';
	for (size_t k = c.i - 8; k < c.i; k++)
		rec->raw[k] = (char)(rec->raw[k] | 0x20);  /* digits are unchanged by this */
	return (int)c.i;
}

int bm_scan(const char *line, size_t len, size_t *pos, struct bm_record *rec)
{
	const char *m;
	size_t at;
	int n;

	if (*pos >= len)
		return 0;
	m = memmem(line + *pos, len - *pos, MARK, MARK_LEN);
	if (!m) {
		*pos = len;
		return 0;
	}
	at = (size_t)(m - line);
	n = parse_record(m, len - at, rec);
	if (n < 0) {
		*pos = at + MARK_LEN;
		return -EBADMSG;
	}
	*pos = at + (size_t)n;
	return 1;
}

const char *bm_rec_get(const struct bm_record *r, const char *key)
{
	for (unsigned i = 0; i < r->nkv; i++)
		if (!strcmp(r->kv[i].key, key))
			return r->kv[i].val;
	return NULL;
}

int bm_run_id_ok(const char *run)
{
	size_t i;

	for (i = 0; run[i]; i++)
		if (!strchr("0123456789abcdef", run[i]))
			return 0;
	return i == BM_RUN_LEN;
}
