/* SPDX-License-Identifier: MIT */
/*
 * Helpers the unit tests kept writing for themselves: temp dirs, metric
 * lookup in a bm_result, and golden-file comparison for the report
 * formatters.  Header-only and static inline, like tap.h, so each test
 * stays one .c file and unused helpers cost nothing.
 */
#ifndef BM_TESTUTIL_H
#define BM_TESTUTIL_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "report.h"
#include "result.h"
#include "tap.h"

/* The entries of a folder but . and ..; -1 when it cannot be read. */
static inline int tu_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

/* One more metric in a decoded result row (the report formatters' tests). */
static inline void tu_rmetric(struct bm_rres *h, const char *name, double v, const char *unit)
{
	struct bm_rmetric *m = &h->m[h->nm++];

	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->unit, sizeof(m->unit), "%s", unit);
	m->value = v;
}

/* mkdtemp or give up: a test without its scratch dir proves nothing. */
static inline void tu_mkdtemp(char *tmpl)
{
	if (!mkdtemp(tmpl))
		tap_bail("mkdtemp failed");
}

static inline const struct bm_metric *tu_metric(const struct bm_result *r, const char *name)
{
	for (unsigned i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->m[i].name, name))
			return &r->m[i];
	return NULL;
}

/* The value, or -1 when missing: metrics the tests read are never negative. */
static inline double tu_mval(const struct bm_result *r, const char *name)
{
	const struct bm_metric *m = tu_metric(r, name);

	return m ? m->value : -1;
}

/* As tu_mval, and -2 when the unit is not the one wanted. */
static inline double tu_val(const struct bm_result *r, const char *name, const char *unit)
{
	const struct bm_metric *m = tu_metric(r, name);

	if (!m)
		return -1;
	return strcmp(m->unit, unit) ? -2 : m->value;
}

/* got must equal the file expected byte for byte; on a difference it goes
 * to actual so that "diff expected actual" shows what changed. */
static inline void tu_golden(const char *expected, const char *actual, const char *what,
			     const char *got, size_t len)
{
	char *want = NULL;
	size_t wlen = 0;
	FILE *f;

	if (bm_read_file(expected, &want, &wlen, 1 << 20)) {
		tap_ok(0, "cannot read %s", expected);
		return;
	}
	tap_ok(wlen == len && !memcmp(want, got, len), "%s matches %s", what, expected);
	if (wlen != len || memcmp(want, got, len)) {
		f = fopen(actual, "w");
		if (f) {
			fwrite(got, 1, len, f);
			fclose(f);
		}
		tap_diag("diff %s %s", expected, actual);
	}
	free(want);
}

#endif
