// SPDX-License-Identifier: MIT
/*
 * Kernel releases in release order (history.h, bm_kver_cmp).  A version is
 * read as a sequence of numbers and words; separators only separate, but
 * "~" makes what follows a pre-release, as in Debian versions, and so does
 * the word "rc" (and alpha, beta, pre): 6.13-rc3 < 6.13 < 6.13.1.  Each
 * element has a class, and classes order as
 *
 *     pre-release  <  end of the version  <  word  <  number
 *
 * so "6.1.0-53" extends "6.1.0" (a number after the end), "6.1.123-1+deb12u1"
 * extends "6.1.123-1" but comes before "6.1.123-2" (a word before a number),
 * and 6.13.0-rc3-00123-gabcdef (a build on top of rc3) sorts after rc3 and
 * before 6.13.  A 0 facing anything but a number is skipped, so "6.13.0"
 * and "6.13" are the same release, as `make kernelversion` and git tags
 * spell it.
 */
#include <ctype.h>
#include <string.h>

#include "history.h"

enum cls { C_PRE, C_END, C_WORD, C_NUM };

struct tok {
	enum cls c;
	const char *s;             /* digits without leading zeros, or letters */
	size_t n;
};

static int is_pre_word(const char *s, size_t n)
{
	static const char *const w[] = { "rc", "pre", "alpha", "beta", NULL };
	int i;

	for (i = 0; w[i]; i++)
		if (strlen(w[i]) == n && !strncasecmp(w[i], s, n))
			return 1;
	return 0;
}

/* The next element at *p; *tilde carries a "~" to the element after it. */
static struct tok next(const char **p, int *tilde)
{
	struct tok t = { C_END, "", 0 };
	const char *s = *p;

	while (*s && !isalnum((unsigned char)*s)) {
		if (*s == '~')
			*tilde = 1;
		s++;
	}
	if (!*s) {
		*p = s;
		return t;
	}
	t.s = s;
	if (isdigit((unsigned char)*s)) {
		while (*s == '0' && isdigit((unsigned char)s[1]))
			s++;
		t.s = s;
		while (isdigit((unsigned char)*s))
			s++;
		t.c = C_NUM;
	} else {
		while (isalpha((unsigned char)*s))
			s++;
		t.c = is_pre_word(t.s, (size_t)(s - t.s)) ? C_PRE : C_WORD;
	}
	t.n = (size_t)(s - t.s);
	/* a "~" marks the one element after it ("rc3"'s 3 is a number of its own) */
	if (*tilde)
		t.c = C_PRE;
	*tilde = 0;
	*p = s;
	return t;
}

static int is_zero(const struct tok *t)
{
	return t->c == C_NUM && t->n == 1 && t->s[0] == '0';
}

static int cmp_tok(const struct tok *a, const struct tok *b)
{
	int r;

	if (a->c != b->c)
		return a->c < b->c ? -1 : 1;
	if (a->c == C_NUM && a->n != b->n)
		return a->n < b->n ? -1 : 1;
	r = strncmp(a->s, b->s, a->n < b->n ? a->n : b->n);
	if (r)
		return r < 0 ? -1 : 1;
	return a->n == b->n ? 0 : a->n < b->n ? -1 : 1;
}

int bm_kver_cmp(const char *a, const char *b)
{
	const char *pa = a ? a : "", *pb = b ? b : "";
	int ta = 0, tb = 0, r;

	for (;;) {
		struct tok x = next(&pa, &ta), y = next(&pb, &tb);

		while (is_zero(&x) && y.c != C_NUM)
			x = next(&pa, &ta);
		while (is_zero(&y) && x.c != C_NUM)
			y = next(&pb, &tb);
		if ((r = cmp_tok(&x, &y)))
			return r;
		if (x.c == C_END)
			return 0;
	}
}
