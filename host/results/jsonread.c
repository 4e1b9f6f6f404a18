// SPDX-License-Identifier: MIT
/*
 * Reading back the JSON files bootmark wrote (meta.json): the members of the
 * top-level object, by key.  A strict RFC 8259 scanner: nested values are
 * walked over, not kept; anything malformed is -EINVAL, never a guess.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "json.h"

#define JR_DEPTH 64

struct jr {
	const char *p, *end;
};

static void ws(struct jr *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static int hex4(const char *p, unsigned *v)
{
	unsigned i, d;

	*v = 0;
	for (i = 0; i < 4; i++) {
		char c = p[i];

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return -EINVAL;
		*v = *v << 4 | d;
	}
	return 0;
}

/* Appends code point cp as UTF-8 to out (NULL: only scan). */
static void put_cp(char *out, size_t len, size_t *o, unsigned cp)
{
	char b[4];
	size_t n, i;

	if (cp < 0x80) {
		b[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | cp >> 18);
		b[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		b[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	for (i = 0; i < n; i++, (*o)++)
		if (out && *o + 1 < len)
			out[*o] = b[i];
}

/* \uXXXX, a surrogate pair taken whole; *cp gets the code point. */
static int uescape(struct jr *j, unsigned *cp)
{
	unsigned lo;

	if (j->end - j->p < 5 || hex4(j->p + 1, cp))
		return -EINVAL;
	j->p += 5;
	if (*cp < 0xd800 || *cp > 0xdfff)
		return 0;
	if (*cp > 0xdbff || j->end - j->p < 6 || j->p[0] != '\\' || j->p[1] != 'u' ||
	    hex4(j->p + 2, &lo) || lo < 0xdc00 || lo > 0xdfff)
		return -EINVAL;
	j->p += 6;
	*cp = 0x10000 + ((*cp - 0xd800) << 10) + (lo - 0xdc00);
	return 0;
}

static void put_byte(char *out, size_t len, size_t *o, char c)
{
	if (out && *o + 1 < len)
		out[*o] = c;
	(*o)++;
}

/* A string at j->p (its opening quote); decoded into out when out is set.
 * -ENAMETOOLONG when it does not fit (out holds its start). */
static int string(struct jr *j, char *out, size_t len)
{
	static const char esc_in[] = "\"\\/bfnrt", esc_out[] = "\"\\/\b\f\n\r\t";
	const char *e;
	size_t o = 0;
	unsigned cp;

	if (j->p >= j->end || *j->p != '"')
		return -EINVAL;
	for (j->p++; j->p < j->end && *j->p != '"';) {
		if ((unsigned char)*j->p < 0x20)
			return -EINVAL;
		if (*j->p != '\\') {
			put_byte(out, len, &o, *j->p++);
			continue;
		}
		if (++j->p >= j->end)
			return -EINVAL;
		if (*j->p == 'u') {
			if (uescape(j, &cp))
				return -EINVAL;
			put_cp(out, len, &o, cp);
			continue;
		}
		e = strchr(esc_in, *j->p);
		if (!e || !*j->p)
			return -EINVAL;
		put_byte(out, len, &o, esc_out[e - esc_in]);
		j->p++;
	}
	if (j->p >= j->end)
		return -EINVAL;
	j->p++;
	if (out && len)
		out[o < len ? o : len - 1] = '\0';
	return !out || o < len ? 0 : -ENAMETOOLONG;
}

static int value(struct jr *j, int depth);

static int members(struct jr *j, char close, int depth)
{
	int rc;

	ws(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		return 0;
	}
	for (;;) {
		ws(j);
		if (close == '}') {
			if ((rc = string(j, NULL, 0)))
				return rc;
			ws(j);
			if (j->p >= j->end || *j->p++ != ':')
				return -EINVAL;
		}
		if ((rc = value(j, depth + 1)))
			return rc;
		ws(j);
		if (j->p >= j->end)
			return -EINVAL;
		if (*j->p == close) {
			j->p++;
			return 0;
		}
		if (*j->p++ != ',')
			return -EINVAL;
	}
}

static int digits(struct jr *j)
{
	const char *s = j->p;

	while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
		j->p++;
	return j->p > s ? 0 : -EINVAL;
}

/* -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
static int number(struct jr *j)
{
	if (j->p < j->end && *j->p == '-')
		j->p++;
	if (j->p < j->end && *j->p == '0')
		j->p++;
	else if (digits(j))
		return -EINVAL;
	if (j->p < j->end && *j->p == '.' && (j->p++, digits(j)))
		return -EINVAL;
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		if (digits(j))
			return -EINVAL;
	}
	return 0;
}

static int word(struct jr *j, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n))
		return -EINVAL;
	j->p += n;
	return 0;
}

static int value(struct jr *j, int depth)
{
	if (depth > JR_DEPTH)
		return -EINVAL;
	ws(j);
	if (j->p >= j->end)
		return -EINVAL;
	switch (*j->p) {
	case '{':
		j->p++;
		return members(j, '}', depth);
	case '[':
		j->p++;
		return members(j, ']', depth);
	case '"':
		return string(j, NULL, 0);
	case 't':
		return word(j, "true");
	case 'f':
		return word(j, "false");
	case 'n':
		return word(j, "null");
	default:
		return number(j);
	}
}

int bm_json_valid(const char *text, size_t len)
{
	struct jr j = { text, text + len };
	int rc = value(&j, 0);

	ws(&j);
	return rc ? rc : j.p == j.end ? 0 : -EINVAL;
}

int bm_json_get(const char *text, size_t len, const char *key, char *out, size_t outlen)
{
	struct jr j = { text, text + len };
	char k[128];
	const char *v;
	int rc;

	if (bm_json_valid(text, len))
		return -EINVAL;
	ws(&j);
	if (*j.p++ != '{')
		return -EINVAL;
	for (;;) {
		ws(&j);
		if (*j.p == '}')
			return -ENOENT;
		rc = string(&j, k, sizeof(k));
		ws(&j);
		j.p++;  /* ':' (the document is valid) */
		ws(&j);
		v = j.p;
		if (!rc && !strcmp(k, key)) {
			if (*v == '"')
				return string(&j, out, outlen);
			if ((rc = value(&j, 1)))
				return rc;
			if ((size_t)(j.p - v) >= outlen)
				return -ENAMETOOLONG;
			memcpy(out, v, (size_t)(j.p - v));
			out[j.p - v] = '\0';
			return *v == '{' || *v == '[' ? -EMEDIUMTYPE : 0;
		}
		if ((rc = value(&j, 1)))
			return rc;
		ws(&j);
		if (*j.p++ == '}')
			return -ENOENT;
	}
}
