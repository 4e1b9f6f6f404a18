// SPDX-License-Identifier: MIT
/* Guest text made safe to print (text.h). */
#include <string.h>

#include "text.h"

/*
 * One UTF-8 sequence at s, strictly as RFC 3629 (table 3-7 of Unicode):
 * no overlong forms, no surrogates (U+D800..U+DFFF), nothing above
 * U+10FFFF.  Returns its length and the code point, or 0.
 */
static size_t utf8_char(const unsigned char *s, size_t len, unsigned *cp)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (n > len)
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;        /* below: overlong */
	else if (s[0] == 0xed)
		hi = 0x9f;        /* above: surrogates */
	else if (s[0] == 0xf0)
		lo = 0x90;        /* below: overlong */
	else if (s[0] == 0xf4)
		hi = 0x8f;        /* above: past U+10FFFF */
	if (s[1] < lo || s[1] > hi)
		return 0;
	*cp = s[0] & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	return n;
}

/* Not C1 controls (U+0080..U+009F: U+009B is a CSI to many terminals) and
 * not the non-characters (U+FDD0..U+FDEF, U+xxFFFE, U+xxFFFF), which XML
 * 1.0 documents should not carry either. */
static int char_ok(unsigned cp)
{
	if (cp < 0xa0)
		return 0;
	if (cp >= 0xfdd0 && cp <= 0xfdef)
		return 0;
	return (cp & 0xfffe) != 0xfffe;
}

enum bm_text_kind bm_text_step(const unsigned char *s, size_t len, unsigned flags, size_t *n)
{
	unsigned cp;

	*n = 1;
	if (s[0] == '\r')
		return BM_TEXT_DROP;
	if (s[0] == '\n' || s[0] == '\t')
		return flags & BM_TEXT_LINES ? BM_TEXT_KEEP : BM_TEXT_BAD;
	if (s[0] < 0x20 || s[0] == 0x7f)
		return BM_TEXT_BAD;
	if (s[0] < 0x80)
		return BM_TEXT_KEEP;
	/* one '?' for a whole bad sequence, or one per byte that starts none */
	*n = utf8_char(s, len, &cp);
	if (!*n) {
		*n = 1;
		return BM_TEXT_BAD;
	}
	return char_ok(cp) ? BM_TEXT_KEEP : BM_TEXT_BAD;
}

size_t bm_text_safe(char *dst, size_t dstlen, const char *s, size_t len, unsigned flags)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, o = 0, n;

	if (!dstlen)
		return 0;
	while (i < len) {
		enum bm_text_kind k = bm_text_step(u + i, len - i, flags, &n);

		if (k == BM_TEXT_KEEP) {
			if (o + n >= dstlen)
				break;
			memmove(dst + o, s + i, n);  /* dst may be s: it never runs ahead */
			o += n;
		} else if (k == BM_TEXT_BAD) {
			if (o + 1 >= dstlen)
				break;
			dst[o++] = '?';
		}
		i += n;
	}
	dst[o] = '\0';
	return o;
}

void bm_text_clean(char *s, unsigned flags)
{
	size_t len = strlen(s);

	bm_text_safe(s, len + 1, s, len, flags);
}

void bm_text_fput(FILE *f, const char *s, size_t len, unsigned flags)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, n;

	while (i < len) {
		enum bm_text_kind k = bm_text_step(u + i, len - i, flags, &n);

		if (k == BM_TEXT_KEEP)
			fwrite(s + i, 1, n, f);
		else if (k == BM_TEXT_BAD)
			fputc('?', f);
		i += n;
	}
}
