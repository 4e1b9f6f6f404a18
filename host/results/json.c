// SPDX-License-Identifier: MIT
/* JSON writer: strings escaped per RFC 8259, numbers round-trip. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "text.h"

void bm_json_init(struct bm_json *j, FILE *f, int pretty)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->pretty = pretty;
	j->first[0] = 1;
}

static void indent(struct bm_json *j)
{
	int i;

	if (!j->pretty)
		return;
	fputc('\n', j->f);
	for (i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* Separator before a value or key at the current level. */
static void sep(struct bm_json *j)
{
	if (j->after_key) {
		j->after_key = 0;
		return;
	}
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = 0;
	if (j->depth)
		indent(j);
}

static void open_(struct bm_json *j, char c)
{
	sep(j);
	fputc(c, j->f);
	if (j->depth + 1 >= BM_JSON_DEPTH) {
		j->err = -EINVAL;
		return;
	}
	j->depth++;
	j->first[j->depth] = 1;
}

static void close_(struct bm_json *j, char c)
{
	int empty = j->first[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (!empty)
		indent(j);
	fputc(c, j->f);
	if (!j->depth && j->pretty)
		fputc('\n', j->f);
}

void bm_json_obj_begin(struct bm_json *j) { open_(j, '{'); }
void bm_json_obj_end(struct bm_json *j) { close_(j, '}'); }
void bm_json_arr_begin(struct bm_json *j) { open_(j, '['); }
void bm_json_arr_end(struct bm_json *j) { close_(j, ']'); }

void bm_json_escape(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), n;

	fputc('"', f);
	for (; *p; p += n, len -= n) {
		n = 1;
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			/* UTF-8 as it is (guest text, text.h, is nothing else);
			 * a control, and each byte that is not UTF-8 or is a C1
			 * control, as \u00XX: valid JSON either way */
			if (*p >= 0x80 && bm_text_step(p, len, 0, &n) == BM_TEXT_KEEP) {
				fwrite(p, 1, n, f);
				break;
			}
			n = 1;
			if (*p < 0x20 || *p >= 0x7f)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

void bm_json_key(struct bm_json *j, const char *key)
{
	sep(j);
	bm_json_escape(j->f, key);
	fputs(j->pretty ? ": " : ":", j->f);
	j->after_key = 1;
}

void bm_json_str(struct bm_json *j, const char *s)
{
	sep(j);
	bm_json_escape(j->f, s ? s : "");
}

void bm_fmt_double(char *buf, size_t len, double v)
{
	int prec;

	for (prec = 6; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

void bm_json_num(struct bm_json *j, double v)
{
	char buf[40];

	sep(j);
	if (!isfinite(v)) {
		fputs("null", j->f);
		return;
	}
	bm_fmt_double(buf, sizeof(buf), v);
	fputs(buf, j->f);
}

void bm_json_int(struct bm_json *j, long long v)
{
	sep(j);
	fprintf(j->f, "%lld", v);
}

void bm_json_bool(struct bm_json *j, int v)
{
	sep(j);
	fputs(v ? "true" : "false", j->f);
}

void bm_json_null(struct bm_json *j)
{
	sep(j);
	fputs("null", j->f);
}

void bm_json_kstr(struct bm_json *j, const char *key, const char *s)
{
	bm_json_key(j, key);
	bm_json_str(j, s);
}

void bm_json_knum(struct bm_json *j, const char *key, double v)
{
	bm_json_key(j, key);
	bm_json_num(j, v);
}

void bm_json_kint(struct bm_json *j, const char *key, long long v)
{
	bm_json_key(j, key);
	bm_json_int(j, v);
}
