// SPDX-License-Identifier: MIT
/*
 * Values that cannot be measurements (results.h, bm_rec_values_check).  A
 * record with a valid CRC says what the guest wrote, not that it makes
 * sense: "m_real=nan:s", "-1:s", ":s", "1,5:s" or an END that plans fewer
 * tests than arrived are what a broken runner or a forged log says.  Such
 * a value was dropped before and the boot stayed completed, so a gate saw
 * one boot too few, or a negative time as an improvement; it is now the
 * host's error: the boot is protocol-error and the reason names the value
 * (docs/results.md, "Values").
 *
 * What a value may be comes from the metric's definition (wldesc.h): every
 * metric is a time, size, count, rate or share, never negative, but those
 * a workload lists as possibly negative (aim7's jti); a metric no
 * description lists (a newer runner's) is only held to being a number.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "wldesc.h"

/* A decimal number as a runner writes one: [-+]digits[.digits][e[-+]digits]
 * (".5" too); no "nan", "inf", hex, comma or blank. */
static int decimal(const char *s, size_t n)
{
	size_t i = 0, digits = 0;

	if (i < n && (s[i] == '-' || s[i] == '+'))
		i++;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		digits++;
	if (i < n && s[i] == '.')
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			digits++;
	if (!digits)
		return 0;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '-' || s[i] == '+'))
			i++;
		for (digits = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			digits++;
		if (!digits)
			return 0;
	}
	return i == n;
}

/* NULL when text ("value:unit") can be a value of metric name of wl, else why not. */
static const char *bad_metric(const char *wl, const char *name, const char *text)
{
	const char *colon = strrchr(text, ':');
	char num[64];
	double v;
	int negative;
	size_t n;

	if (!colon)
		return "no unit (value:unit)";
	if (!colon[1])
		return "an empty unit";
	if (strlen(colon + 1) >= sizeof(((struct bm_rmetric *)0)->unit))
		return "a unit of more than 15 bytes";
	n = (size_t)(colon - text);
	if (!n)
		return "an empty value";
	if (n >= sizeof(num) || !decimal(text, n))
		return "not a decimal number";
	memcpy(num, text, n);
	num[n] = '\0';
	v = strtod(num, NULL);
	if (!isfinite(v))
		return "out of range";
	if (v < 0 && bm_wl_metric_def(wl, name, &negative) && !negative)
		return "below zero, which this metric cannot be (a time, size, count, rate or share)";
	return NULL;
}

/* A count: decimal digits only, at most 9 (no sign, no blank). */
static int count(const char *v, long long *out)
{
	size_t n = strspn(v, "0123456789");

	if (!n || v[n] || n > 9)
		return 0;
	*out = atoll(v);
	return 1;
}

static int say(char *why, size_t len, const struct bm_record *rec, const char *fmt,
	       const char *a, const char *b, const char *c)
{
	int n = snprintf(why, len, "%c record seq %llu", rec->type, (unsigned long long)rec->seq);

	if (rec->type == BM_REC_RESULT && n >= 0 && (size_t)n < len)
		n += snprintf(why + n, len - (size_t)n, " (%.31s %.31s rep %.11s)",
			      bm_rec_get(rec, "fs") ? bm_rec_get(rec, "fs") : "?",
			      bm_rec_get(rec, "test") ? bm_rec_get(rec, "test") : "?",
			      bm_rec_get(rec, "rep") ? bm_rec_get(rec, "rep") : "?");
	if (n >= 0 && (size_t)n < len)
		snprintf(why + n, len - (size_t)n, fmt, a, b, c);
	return -EINVAL;
}

int bm_rec_values_check(const struct bm_record *rec, char *why, size_t len)
{
	const char *wl = bm_rec_get(rec, "wl"), *v, *bad;
	long long n, tests;
	unsigned i;

	if (rec->type == BM_REC_END) {
		if ((v = bm_rec_get(rec, "tests")) && !count(v, &tests))
			return say(why, len, rec, ": tests=%.40s is not a count%s%s", v, "", "");
		if ((v = bm_rec_get(rec, "raw")) && !count(v, &n))
			return say(why, len, rec, ": raw=%.40s is not a count%s%s", v, "", "");
		return 0;
	}
	if (rec->type != BM_REC_RESULT)
		return 0;
	if ((v = bm_rec_get(rec, "rep")) && (!count(v, &n) || n < 1))
		return say(why, len, rec, ": rep=%.40s is not a repetition (1, 2 ...)%s%s", v, "",
			   "");
	for (i = 0; i < rec->nkv; i++) {
		const struct bm_kv *kv = &rec->kv[i];

		if (strncmp(kv->key, "m_", 2))
			continue;
		bad = bad_metric(wl ? wl : "", kv->key + 2, kv->val);
		if (bad)
			return say(why, len, rec, ": %s=%.60s is no measurement: %s", kv->key,
				   kv->val, bad);
	}
	return 0;
}

void bm_rres_keep_measurements(struct bm_rres *h, const struct bm_record *rec)
{
	char key[BM_KEY_MAX + 2];
	const char *v;
	unsigned i, k = 0;

	for (i = 0; i < h->nm; i++) {
		snprintf(key, sizeof(key), "m_%s", h->m[i].name);
		v = bm_rec_get(rec, key);
		if (v && bad_metric(h->wl, h->m[i].name, v))
			continue;
		h->m[k++] = h->m[i];
	}
	h->nm = k;
}
