// SPDX-License-Identifier: MIT
/* runner/workloads/kerntree/ktree_gen.c: the tree's determinism, its proportions against the
 * measured Linux 6.1 tree, and its archive read back by the ustar reader. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktree_gen.h"
#include "tap.h"

/* FNV-1a 64 */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--)
		h = (h ^ *b++) * 0x100000001b3ull;
	return h;
}

/* Hash of every path and size, in archive order. */
static uint64_t listing_hash(const struct ktree *t)
{
	char path[USTAR_PATH_MAX];
	uint64_t h = 0xcbf29ce484222325ull, size;
	uint32_t k, e;

	for (k = 0; k < t->ndirs + t->nfiles; k++) {
		e = t->order[k];
		if (ktree_path(t, e, path, sizeof(path)))
			return 0;
		size = e < t->ndirs ? UINT64_MAX : t->files[e - t->ndirs].size;
		h = fnv(h, path, strlen(path) + 1);
		h = fnv(h, &size, sizeof(size));
	}
	return h;
}

/* Hash of the whole archive, read in odd-sized pieces. */
static uint64_t stream_hash(const struct ktree *t, uint64_t *len)
{
	static unsigned char buf[70001];
	struct ktree_stream s;
	uint64_t h = 0xcbf29ce484222325ull;
	ssize_t n;
	size_t want = 1;

	*len = 0;
	ktree_stream_init(&s, t);
	while ((n = ktree_stream_read(&s, buf, want)) > 0) {
		h = fnv(h, buf, (size_t)n);
		*len += (uint64_t)n;
		want = want * 7 % sizeof(buf) + 1;
	}
	return n < 0 ? 0 : h;
}

static void test_scale(void)
{
	static const uint32_t c[] = { 5, 5, 5 };
	uint32_t ppm = 0, q[3];

	TAP_EQ_INT(ktree_parse_scale("1", &ppm), 0, "scale 1");
	TAP_EQ_INT(ppm, 1000000, "is 10^6 ppm");
	ktree_parse_scale("0.005", &ppm);
	TAP_EQ_INT(ppm, 5000, "0.005 is 5000 ppm");
	ktree_parse_scale("0.0001", &ppm);
	TAP_EQ_INT(ppm, 100, "0.0001, the smallest");
	ktree_parse_scale("4", &ppm);
	TAP_EQ_INT(ppm, 4000000, "4, the largest");
	ktree_parse_scale(".5", &ppm);
	TAP_EQ_INT(ppm, 500000, ".5");
	TAP_EQ_INT(ktree_parse_scale("0", &ppm), -EINVAL, "0 refused");
	TAP_EQ_INT(ktree_parse_scale("0.00001", &ppm), -EINVAL, "below 0.0001 refused");
	TAP_EQ_INT(ktree_parse_scale("4.5", &ppm), -EINVAL, "above 4 refused");
	TAP_EQ_INT(ktree_parse_scale("1e-3", &ppm), -EINVAL, "exponent refused");
	TAP_EQ_INT(ktree_parse_scale("", &ppm), -EINVAL, "empty refused");
	TAP_EQ_INT(ktree_parse_scale(".", &ppm), -EINVAL, "'.' refused");
	TAP_EQ_INT(ktree_parse_scale("-1", &ppm), -EINVAL, "negative refused");

	/* 3 x 5 x 0.1 = 1.5 -> 2, handed to the first largest remainders */
	TAP_EQ_INT((int)ktree_quotas(c, 3, 100000, q), 2, "1.5 rounds to 2");
	tap_ok(q[0] == 1 && q[1] == 1 && q[2] == 0, "quotas 1 1 0 (got %u %u %u)", q[0], q[1], q[2]);
	TAP_EQ_INT((int)ktree_quotas(c, 3, 1000, q), 1, "never less than 1");
}

static void test_full_size(void)
{
	/* the measured distribution (ktree_gen.c), counted back from the tree */
	static const uint32_t want[26] = {
		30, 0, 0, 2, 51, 140, 393, 985, 2366, 5088, 7503, 11022, 12778,
		12886, 11014, 7655, 4229, 1723, 450, 129, 51, 44, 11, 19, 9, 1,
	};
	uint32_t got[26] = { 0 }, i, b, maxdepth = 0, maxpath = 0;
	char path[USTAR_PATH_MAX];
	struct ktree t;
	int same = 1;

	TAP_EQ_INT(ktree_build(&t, 1, 1000000), 0, "scale 1 builds");
	TAP_EQ_INT(t.nfiles, KTREE_REF_FILES, "78579 files, as Linux 6.1");
	TAP_EQ_INT(t.ndirs, KTREE_REF_DIRS + 1, "5095 directories and the top one");
	tap_ok(t.bytes > KTREE_REF_BYTES * 0.95 && t.bytes < KTREE_REF_BYTES * 1.05,
	       "%llu bytes, within 5%% of 1298682509", (unsigned long long)t.bytes);
	for (i = 0; i < t.nfiles; i++) {
		uint64_t s = t.files[i].size;

		for (b = 0; s; b++)
			s >>= 1;
		got[b]++;
	}
	for (i = 0; i < 26; i++)
		same &= got[i] == want[i];
	tap_ok(same, "files per size bucket as measured");
	for (i = 0; i < t.ndirs; i++)
		maxdepth = t.dirs[i].depth > maxdepth ? t.dirs[i].depth : maxdepth;
	TAP_EQ_INT(maxdepth, 9, "directories 9 levels deep, as measured");
	for (i = 0; i < t.ndirs + t.nfiles; i++) {
		if (ktree_path(&t, i, path, sizeof(path)))
			break;
		maxpath = strlen(path) > maxpath ? (uint32_t)strlen(path) : maxpath;
	}
	tap_ok(maxpath > 100 && maxpath <= USTAR_NAME_MAX,
	       "longest path %u bytes: needs the prefix field, fits ustar", maxpath);
	ktree_free(&t);
}

static void test_determinism(void)
{
	struct ktree a, b, c, d;
	uint64_t ha, hb, la, lb, lc, ld;

	ktree_build(&a, 7, 20000);
	ktree_build(&b, 7, 20000);
	ktree_build(&c, 8, 20000);
	ktree_build(&d, 7, 40000);
	tap_ok(listing_hash(&a) && listing_hash(&a) == listing_hash(&b),
	       "same seed and scale: same listing");
	ha = stream_hash(&a, &la);
	hb = stream_hash(&b, &lb);
	tap_ok(ha && ha == hb && la == lb, "same seed and scale: same archive (%llu bytes)",
	       (unsigned long long)la);
	tap_ok(listing_hash(&a) != listing_hash(&c), "another seed: another listing");
	tap_ok(stream_hash(&c, &lc) != ha, "another seed: another archive");
	TAP_EQ_INT(a.nfiles, c.nfiles, "another seed: same file count");
	TAP_EQ_INT(a.nfiles, 1572, "scale 0.02: round(78579 x 0.02) files");
	TAP_EQ_INT(a.ndirs, 102 + 1, "scale 0.02: round(5095 x 0.02) directories + top");
	TAP_EQ_INT(d.nfiles, 3143, "scale 0.04: round(78579 x 0.04) files");
	TAP_EQ_INT(d.ndirs, 204 + 1, "scale 0.04: round(5095 x 0.04) directories + top");
	stream_hash(&d, &ld);
	tap_ok(ld > la * 3 / 2 && ld < la * 3, "twice the scale, about twice the archive (%llu, %llu)",
	       (unsigned long long)la, (unsigned long long)ld);
	ktree_free(&a);
	ktree_free(&b);
	ktree_free(&c);
	ktree_free(&d);
}

/* The archive read back: every entry, in order, with its text. */
static void test_archive(void)
{
	static char buf[1 << 16], want[1 << 16];
	char path[USTAR_PATH_MAX];
	struct ktree t;
	struct ktree_stream s;
	struct ustar_reader r;
	struct ustar_entry e;
	uint32_t k = 0, ent, bad = 0;
	uint64_t pos;
	ssize_t n;
	int ret;

	ktree_build(&t, 1, 5000);
	ktree_stream_init(&s, &t);
	ustar_reader_init(&r, ktree_stream_read, &s);
	while ((ret = ustar_next(&r, &e)) > 0 && k < t.ndirs + t.nfiles) {
		ent = t.order[k++];
		ktree_path(&t, ent, path, sizeof(path));
		if (strcmp(path, e.name) || (ent < t.ndirs) != (e.type == USTAR_DIR)) {
			bad++;
			continue;
		}
		if (ent < t.ndirs)
			continue;
		ent -= t.ndirs;
		bad += e.size != t.files[ent].size;
		for (pos = 0; (n = ustar_data(&r, buf, sizeof(buf))) > 0; pos += (uint64_t)n) {
			ktree_file_text(&t, ent, pos, want, (size_t)n);
			bad += memcmp(buf, want, (size_t)n) != 0;
		}
	}
	TAP_EQ_INT(ret, 0, "archive ends cleanly");
	TAP_EQ_INT(k, t.ndirs + t.nfiles, "every entry read back");
	TAP_EQ_INT(bad, 0, "names, types, sizes and text as generated");
	TAP_EQ_STR(t.order[0] == 0 ? t.dirs[0].name : "", KTREE_ROOT, "the top directory first");
	ktree_free(&t);
}

int main(void)
{
	tap_plan(0);
	test_scale();
	test_full_size();
	test_determinism();
	test_archive();
	return tap_done();
}
