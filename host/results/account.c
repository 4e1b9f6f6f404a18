// SPDX-License-Identifier: MIT
/*
 * Every planned test accounted for (results.h, bm_results_unaccounted).  The
 * runner writes in its END record how many tests its suite expands into
 * (jobs x tests x filesystems x repeats); a boot is complete only when each
 * of them left an R or an E record.  An END and a clean stream alone do not
 * prove it: a runner that skipped a test without a word, or a suite that
 * came out shorter in the guest than on the host, would pass.
 *
 * What accounts for a test: an R or E record naming its (fs, test, rep); an
 * E naming only a filesystem (its module did not load: none of its tests
 * ran) accounts for that filesystem's share of the tests that are not on
 * the raw disk (END raw= counts those: they run once, fs=raw); an E naming neither (bad
 * configuration, no disk) for the whole plan.  Two lines of a suite may
 * give the same names (the seeds suite's Bray Bonnie and bonnie++ 1.02c
 * both give bon-putc ...; its two dbench lines both dbench64), so a name
 * accounts for as many tests as it has R records, or E records if it has
 * more: a test that stopped with an E after a partial R is one test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"

struct key {
	const char *fs, *test;
	int rep;
	unsigned nres, nerr;  /* R and E records that name it */
};

static int same(const struct key *a, const struct key *b)
{
	return a->rep == b->rep && !strcmp(a->fs, b->fs) && !strcmp(a->test, b->test);
}

/* Counts a record naming k in v[0..*n), adding k when it is new. */
static void add_key(struct key *v, size_t *n, const struct key *k, int is_err)
{
	size_t i;

	for (i = 0; i < *n && !same(&v[i], k); i++)
		;
	if (i == *n)
		v[(*n)++] = *k;
	if (is_err)
		v[i].nerr++;
	else
		v[i].nres++;
}

/* Filesystems the HELLO names (fs=ext4,xfs); 0 when it names none. */
static unsigned hello_nfs(const struct bm_results *r)
{
	const char *fs = bm_hello_get(r, "fs"), *p;
	unsigned n = 1;

	if (!fs || !*fs)
		return 0;
	for (p = fs; *p; p++)
		n += *p == ',';
	return n;
}

/* Distinct filesystems named by E records that name no test. */
static unsigned fs_wide_errors(const struct bm_results *r, int *global)
{
	unsigned n = 0;
	size_t i, j;

	*global = 0;
	for (i = 0; i < r->nerr; i++) {
		const struct bm_herr *e = &r->err[i];
		int dup = 0;

		if (e->test[0])
			continue;
		if (!e->fs[0]) {
			*global = 1;
			continue;
		}
		for (j = 0; j < i; j++)
			dup |= !r->err[j].test[0] && !strcmp(r->err[j].fs, e->fs);
		n += !dup;
	}
	return n;
}

long long bm_results_unaccounted(const struct bm_results *r, char *first, size_t len)
{
	struct key *v, k;
	size_t n = 0, i;
	unsigned nfs = hello_nfs(r), wide;
	long long have, planned = r->end_tests;
	int global;

	if (first && len)
		first[0] = '\0';
	if (planned <= 0)
		return 0;
	wide = fs_wide_errors(r, &global);
	if (global)
		return 0;
	v = calloc(r->nres + r->nerr + 1, sizeof(*v));
	if (!v)
		return 0;  /* cannot tell: the stream checks still apply */
	for (i = 0; i < r->nres; i++) {
		k = (struct key){ r->res[i].fs, r->res[i].test, r->res[i].rep, 0, 0 };
		add_key(v, &n, &k, 0);
	}
	for (i = 0; i < r->nerr; i++) {
		if (!r->err[i].test[0])
			continue;
		k = (struct key){ r->err[i].fs, r->err[i].test, r->err[i].rep, 0, 0 };
		add_key(v, &n, &k, 1);
	}
	for (have = 0, i = 0; i < n; i++)
		have += v[i].nres > v[i].nerr ? v[i].nres : v[i].nerr;
	if (wide && nfs && planned > r->end_raw)
		have += (long long)wide * ((planned - r->end_raw) / nfs);
	free(v);
	if (have >= planned)
		return 0;
	/* which one: the records do not name tests that never ran, so say
	 * where the last record left off */
	if (first && len && r->nres)
		snprintf(first, len, "after %s %s rep %d", r->res[r->nres - 1].fs,
			 r->res[r->nres - 1].test, r->res[r->nres - 1].rep);
	return planned - have;
}
