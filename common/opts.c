/* SPDX-License-Identifier: MIT */
/*
 * The option table (common/opts.h): one parser per value type, and the
 * three front ends (config text, kernel command line, --help) built on
 * bm_opt_set so they cannot disagree.  A value is checked completely
 * before the target is written, so a failed set leaves the object as it was.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "opts.h"

#define LINE_MAX_OPT 4096  /* longest config line or command-line word */

static int opt_err(char *err, size_t errlen, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int opt_err(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return rc;
}

static const struct bm_opt *opt_find(const struct bm_opt *tab, const char *name)
{
	for (; tab->name; tab++)
		if (!strcmp(tab->name, name))
			return tab;
	return NULL;
}

int bm_parse_size(const char *s, uint64_t *out)
{
	static const char suffix[] = "kmgt";
	const char *sfx;
	uint64_t v = 0;
	unsigned shift = 0;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;  /* also refuses "", "-1G", "+1", " 1" */
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	if (*s && (sfx = strchr(suffix, *s | 0x20))) {
		shift = 10 * (unsigned)(sfx - suffix + 1);
		s++;
	}
	if (*s)
		return -EINVAL;
	if (shift && v > (UINT64_MAX >> shift))
		return -ERANGE;
	*out = v << shift;
	return 0;
}

int bm_fmt_size(char *buf, size_t len, uint64_t v, const char *suffixes)
{
	size_t i = 0, n = strlen(suffixes);

	while (i < n && v && v % 1024 == 0) {
		v /= 1024;
		i++;
	}
	return snprintf(buf, len, "%llu%.*s", (unsigned long long)v, i > 0,
			i > 0 ? &suffixes[i - 1] : "");
}

int bm_parse_uint_list(const char *s, unsigned *out, int max, unsigned lo, unsigned hi)
{
	char *end;
	unsigned long v;
	int n = 0;

	while (*s) {
		if (n == max || *s < '0' || *s > '9')
			return -EINVAL;
		v = strtoul(s, &end, 10);   /* overflow gives ULONG_MAX: > hi */
		if (v < lo || v > hi || (*end && *end != ','))
			return -EINVAL;
		out[n++] = (unsigned)v;
		s = *end ? end + 1 : end;
		if (*end && !*s)
			return -EINVAL;     /* trailing comma */
	}
	return n ? n : -EINVAL;
}

/* Decimal with an optional '-'; no spaces, no '+', no trailing text. */
static int parse_int(const char *s, long long *out)
{
	const char *p = *s == '-' ? s + 1 : s;
	char *end;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	errno = 0;
	*out = strtoll(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	return *end ? -EINVAL : 0;
}

static int parse_bool(const char *s, int *out)
{
	static const char *const yes[] = { "1", "yes", "on", "true", NULL };
	static const char *const no[] = { "0", "no", "off", "false", NULL };

	for (int i = 0; yes[i]; i++) {
		if (!strcasecmp(s, yes[i]))
			return *out = 1, 0;
		if (!strcasecmp(s, no[i]))
			return *out = 0, 0;
	}
	return -EINVAL;
}

/* Index in choices of the n bytes at s, or -EINVAL. */
static int choice_index(const char *const *choices, const char *s, size_t n)
{
	for (int k = 0; choices[k]; k++)
		if (strlen(choices[k]) == n && !strncmp(choices[k], s, n))
			return k;
	return -EINVAL;
}

int bm_list_count(const char *list)
{
	int n = 0;

	for (list += strspn(list, ","); *list; list += strspn(list, ",")) {
		list += strcspn(list, ",");
		n++;
	}
	return n;
}

int bm_list_item(const char *list, int idx, const char *const *choices)
{
	size_t n;

	if (idx < 0)
		return -EINVAL;
	for (list += strspn(list, ","); *list; list += strspn(list, ",")) {
		n = strcspn(list, ",");
		if (idx-- == 0)
			return choice_index(choices, list, n);
		list += n;
	}
	return -EINVAL;
}

/* "a, b, c" for messages and --help. */
static void join_choices(const char *const *choices, const char *sep, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int i = 0; choices[i] && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? sep : "", choices[i]);
}

static int set_int(const struct bm_opt *o, void *dst, const char *val, char *err, size_t errlen)
{
	long long v;
	int rc = parse_int(val, &v);

	if (rc == -ERANGE)
		return opt_err(err, errlen, rc, "option '%s': '%.64s' is out of range", o->name, val);
	if (rc)
		return opt_err(err, errlen, rc, "option '%s': '%.64s' is not a number", o->name, val);
	if (v < o->min || (o->max && v > o->max))
		return opt_err(err, errlen, -ERANGE, "option '%s': %lld is outside %lld..%lld",
			       o->name, v, o->min, o->max ? o->max : (long long)(~0ull >> 1));
	memcpy(dst, &v, sizeof(v));
	return 0;
}

static int set_size(const struct bm_opt *o, void *dst, const char *val, char *err, size_t errlen)
{
	uint64_t v;
	int rc = bm_parse_size(val, &v);

	if (rc == -ERANGE)
		return opt_err(err, errlen, rc, "option '%s': '%.64s' is too large", o->name, val);
	if (rc && *val == '-')
		return opt_err(err, errlen, rc, "option '%s': '%.64s': a size cannot be negative",
			       o->name, val);
	if (rc)
		return opt_err(err, errlen, rc, "option '%s': '%.64s' is not a size (like 512, 4k, 32M, 2G)",
			       o->name, val);
	if (o->max <= 0 && o->min > 0 && v < (uint64_t)o->min)
		return opt_err(err, errlen, -ERANGE, "option '%s': %s is below the minimum of "
			       "%lld bytes", o->name, val, o->min);
	if ((o->min > 0 && v < (uint64_t)o->min) || (o->max > 0 && v > (uint64_t)o->max))
		return opt_err(err, errlen, -ERANGE, "option '%s': %s is outside %lld..%lld bytes",
			       o->name, val, o->min, o->max);
	memcpy(dst, &v, sizeof(v));
	return 0;
}

static int set_bool(const struct bm_opt *o, void *dst, const char *val, char *err, size_t errlen)
{
	int v;

	if (parse_bool(val, &v))
		return opt_err(err, errlen, -EINVAL,
			       "option '%s': '%.64s' is not a boolean (0/1, yes/no, on/off, true/false)",
			       o->name, val);
	memcpy(dst, &v, sizeof(v));
	return 0;
}

static int not_a_choice(const struct bm_opt *o, const char *item, size_t n, char *err, size_t errlen)
{
	char list[256];

	join_choices(o->choices, ", ", list, sizeof(list));
	return opt_err(err, errlen, -EINVAL, "option '%s': '%.*s' is not one of %s",
		       o->name, (int)(n < 64 ? n : 64), item, list);
}

static int set_str(const struct bm_opt *o, void *dst, const char *val, char *err, size_t errlen)
{
	size_t n = strlen(val);

	if (n >= o->len)
		return opt_err(err, errlen, -EINVAL, "option '%s': value too long (at most %zu bytes)",
			       o->name, o->len - 1);
	if (o->choices && choice_index(o->choices, val, n) < 0)
		return not_a_choice(o, val, n, err, errlen);
	memcpy(dst, val, n + 1);
	return 0;
}

static size_t trim_span(const char **s, size_t n)
{
	while (n && (**s == ' ' || **s == '\t'))
		(*s)++, n--;
	while (n && ((*s)[n - 1] == ' ' || (*s)[n - 1] == '\t'))
		n--;
	return n;
}

static int list_item(const struct bm_opt *o, char *out, size_t *at, const char *item,
		     size_t n, char *err, size_t errlen)
{
	if (!n)
		return opt_err(err, errlen, -EINVAL, "option '%s': empty item in list", o->name);
	if (o->choices && choice_index(o->choices, item, n) < 0)
		return not_a_choice(o, item, n, err, errlen);
	if (*at + n + !!*at >= o->len)
		return opt_err(err, errlen, -EINVAL, "option '%s': value too long (at most %zu bytes)",
			       o->name, o->len - 1);
	*at += (size_t)snprintf(out + *at, o->len - *at, "%s%.*s", *at ? "," : "", (int)n, item);
	return 0;
}

/* Items are trimmed and stored joined by bare commas: "ext4, xfs" -> "ext4,xfs". */
static int set_list(const struct bm_opt *o, void *dst, const char *val, char *err, size_t errlen)
{
	char *out = malloc(o->len);
	const char *p = val;
	size_t at = 0;
	int rc = 0;

	if (!out)
		return opt_err(err, errlen, -ENOMEM, "option '%s': out of memory", o->name);
	out[0] = '\0';
	while (*val) {
		size_t span = strcspn(p, ",");
		const char *item = p;
		size_t n = trim_span(&item, span);  /* moves item: not inside the call */

		rc = list_item(o, out, &at, item, n, err, errlen);
		if (rc || !p[span])
			break;
		p += span + 1;
	}
	if (!rc)
		memcpy(dst, out, at + 1);
	free(out);
	return rc;
}

int bm_opt_set(const struct bm_opt *tab, void *obj, const char *name,
	       const char *val, char *err, size_t errlen)
{
	const struct bm_opt *o = opt_find(tab, name);
	char *dst;

	if (!o)
		return opt_err(err, errlen, -ENOENT, "unknown option '%.64s'", name);
	dst = (char *)obj + o->off;
	val = val ? val : "";
	switch (o->type) {
	case BM_OPT_STR:
		return set_str(o, dst, val, err, errlen);
	case BM_OPT_INT:
		return set_int(o, dst, val, err, errlen);
	case BM_OPT_SIZE:
		return set_size(o, dst, val, err, errlen);
	case BM_OPT_BOOL:
		return set_bool(o, dst, val, err, errlen);
	case BM_OPT_LIST:
		return set_list(o, dst, val, err, errlen);
	}
	return opt_err(err, errlen, -EINVAL, "option '%s': bad type in table", o->name);
}

static size_t opt_size(const struct bm_opt *o)
{
	switch (o->type) {
	case BM_OPT_INT:
		return sizeof(long long);
	case BM_OPT_SIZE:
		return sizeof(uint64_t);
	case BM_OPT_BOOL:
		return sizeof(int);
	default:
		return o->len;
	}
}

/* A NULL default means empty or 0, taken as is (it need not be a choice). */
int bm_opts_defaults(const struct bm_opt *tab, void *obj)
{
	for (const struct bm_opt *o = tab; o->name; o++) {
		int rc;

		if (!o->def) {
			memset((char *)obj + o->off, 0, opt_size(o));
			continue;
		}
		rc = bm_opt_set(tab, obj, o->name, o->def, NULL, 0);
		if (rc)
			return rc;
	}
	return 0;
}

/* '#' starts a comment at the start of a line or after blanks: values like
 * "a#b" keep theirs. */
static void strip_comment(char *s)
{
	for (char *p = s; *p; p++) {
		if (*p == '#' && (p == s || p[-1] == ' ' || p[-1] == '\t')) {
			*p = '\0';
			return;
		}
	}
}

static char *trim(char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

static int parse_line(const struct bm_opt *tab, void *obj, char *line,
		      const char *where, char *err, size_t errlen)
{
	char msg[256], *eq, *key;
	int rc;

	strip_comment(line);
	key = trim(line);
	if (!*key)
		return 0;
	eq = strchr(key, '=');
	if (!eq)
		return opt_err(err, errlen, -EINVAL, "%s: expected 'key = value', got '%.64s'",
			       where, key);
	*eq = '\0';
	key = trim(key);
	if (!*key)
		return opt_err(err, errlen, -EINVAL, "%s: missing key before '='", where);
	rc = bm_opt_set(tab, obj, key, trim(eq + 1), msg, sizeof(msg));
	if (rc)
		opt_err(err, errlen, rc, "%s: %s", where, msg);
	return rc;
}

int bm_opts_parse_text(const struct bm_opt *tab, void *obj, const char *text,
		       const char *origin, char *err, size_t errlen)
{
	char line[LINE_MAX_OPT], where[128];
	unsigned lineno = 0;

	if (!strncmp(text, "\xef\xbb\xbf", 3))
		text += 3;  /* UTF-8 byte order mark from Windows editors */
	while (*text) {
		size_t n = strcspn(text, "\n");
		int rc;

		snprintf(where, sizeof(where), "%s:%u", origin ? origin : "config", ++lineno);
		if (n >= sizeof(line))
			return opt_err(err, errlen, -E2BIG, "%s: line too long", where);
		memcpy(line, text, n);
		line[n] = '\0';
		rc = parse_line(tab, obj, line, where, err, errlen);
		if (rc)
			return rc;
		text += n + (text[n] == '\n');
	}
	return 0;
}

/*
 * Copies the next whitespace-separated word into buf, dropping double
 * quotes as the kernel does (bootmark.x="a b").  Returns the rest of the
 * text; *cut is set when the word did not fit.
 */
static const char *next_word(const char *p, char *buf, size_t len, int *cut)
{
	size_t n = 0;
	int quoted = 0;

	*cut = 0;
	for (; *p && (quoted || !strchr(" \t\n\r", *p)); p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (n + 1 < len)
			buf[n++] = *p;
		else
			*cut = 1;
	}
	buf[n] = '\0';
	return p;
}

static int cmdline_word(const struct bm_opt *tab, void *obj, char *word, size_t plen,
			int cut, char *err, size_t errlen)
{
	char msg[256], *eq = strchr(word + plen, '=');
	int rc;

	if (cut)
		return opt_err(err, errlen, -E2BIG, "command line: '%.64s...' is too long", word);
	if (!eq)
		return opt_err(err, errlen, -EINVAL, "command line: expected %.*skey=value, got '%.64s'",
			       (int)plen, word, word);
	*eq = '\0';
	rc = bm_opt_set(tab, obj, word + plen, eq + 1, msg, sizeof(msg));
	if (rc)
		opt_err(err, errlen, rc, "command line: %s", msg);
	return rc;
}

int bm_opts_parse_cmdline(const struct bm_opt *tab, void *obj,
			  const char *cmdline, const char *prefix,
			  char *err, size_t errlen)
{
	char word[LINE_MAX_OPT];
	size_t plen = strlen(prefix);
	const char *p = cmdline;
	int cut, rc;

	while (*p) {
		if (strchr(" \t\n\r", *p)) {
			p++;
			continue;
		}
		p = next_word(p, word, sizeof(word), &cut);
		if (strncmp(word, prefix, plen))
			continue;
		rc = cmdline_word(tab, obj, word, plen, cut, err, errlen);
		if (rc)
			return rc;
	}
	return 0;
}

const char *bm_opt_type_name(enum bm_opt_type t)
{
	static const char *const names[] = {
		[BM_OPT_STR] = "string", [BM_OPT_INT] = "int", [BM_OPT_SIZE] = "size",
		[BM_OPT_BOOL] = "bool", [BM_OPT_LIST] = "list",
	};

	return (unsigned)t < sizeof(names) / sizeof(names[0]) ? names[t] : "?";
}

void bm_opt_range(const struct bm_opt *o, char *buf, size_t len)
{
	char lo[32], hi[32];

	buf[0] = '\0';
	if (o->choices) {
		join_choices(o->choices, "|", buf, len);
	} else if (o->type == BM_OPT_INT) {
		snprintf(hi, sizeof(hi), "%lld", o->max);
		snprintf(buf, len, "%lld..%s", o->min, o->max ? hi : "");
	} else if (o->type == BM_OPT_SIZE) {
		/* SIZE ranges are never negative: bm_opt_set refuses "-" */
		bm_fmt_size(lo, sizeof(lo), (uint64_t)o->min, "kMGT");
		bm_fmt_size(hi, sizeof(hi), (uint64_t)o->max, "kMGT");
		snprintf(buf, len, "%s..%s", lo, o->max ? hi : "");
	} else if (o->type == BM_OPT_BOOL) {
		snprintf(buf, len, "0|1");
	} else {
		snprintf(buf, len, "<%zu chars", o->len);
	}
}
