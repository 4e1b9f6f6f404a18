// SPDX-License-Identifier: MIT
/* aio's report (runner/workloads/aio/report_aio.c) against a golden file: seed 002's
 * figures (libaio only, 100 threads), smoke-like rows of both engines, an
 * order=random block kept apart, a row that ran buffered though O_DIRECT
 * was asked (its own block, labelled by what ran) and a record without a
 * latency (its cell "-", not 0). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "tap.h"
#include "testutil.h"
#include "wl_aio.h"

#define EXPECTED "tests/data/report_aio.expected"
#define NRES 24

static struct bm_rres res[NRES];
static struct bm_rrow rows[NRES];
static size_t nres;


static struct bm_rres *add(const char *label, const char *eng, const char *fsize,
			   const char *rest, const char *cache, double files_s, double lat)
{
	struct bm_rres *h = &res[nres];
	double kib = !strcmp(fsize, "40k") ? 40 : 128;

	memset(h, 0, sizeof(*h));
	h->seq = nres + 2;
	h->rep = 1;
	snprintf(h->wl, sizeof(h->wl), "aio");
	snprintf(h->fs, sizeof(h->fs), "ext4");
	snprintf(h->test, sizeof(h->test), "aio-%s-%s%s", strcmp(eng, "libaio") ? "uring" : eng,
		 fsize, strcmp(cache, "warm") ? "" : "-warm");
	snprintf(h->params, sizeof(h->params), "engine=%s %s fsize=%s %s cache=%s", eng,
		 "files=1000", fsize, rest, cache);
	tu_rmetric(h, "real", 1.5, "s");
	tu_rmetric(h, "files_s", files_s, "files/s");
	tu_rmetric(h, "rate", files_s * kib / 1024, "MiB/s");
	if (lat >= 0)
		tu_rmetric(h, "lat_avg", lat, "ms");
	tu_rmetric(h, "direct", strstr(rest, "direct=1") ? 1 : 0, "count");
	rows[nres].label = label;
	rows[nres].r = h;
	nres++;
	return h;
}

static void fixture(void)
{
	static const char *const seed = "qd=16 threads=100 direct=1";
	static const char *const smoke = "qd=16 threads=2 direct=1";
	struct bm_rres *h;

	add("2.6.30.5", "libaio", "40k", seed, "cold", 682, 146);
	add("2.6.30.5", "libaio", "40k", seed, "warm", 718, 139);
	add("2.6.30.5+patch_v4", "libaio", "40k", seed, "cold", 900, 111);
	add("2.6.30.5+patch_v4", "libaio", "40k", seed, "warm", 965, 103);
	add("2.6.30.5", "libaio", "128k", seed, "cold", 242, 413);
	add("2.6.30.5", "libaio", "128k", seed, "warm", 350, 285);
	add("2.6.30.5+patch_v4", "libaio", "128k", seed, "cold", 292, 342);
	add("2.6.30.5+patch_v4", "libaio", "128k", seed, "warm", 420, 238);
	add("EXT4 6.1.0-53", "libaio", "40k", smoke, "cold", 3893, 0.167);
	add("EXT4 6.1.0-53", "io_uring", "40k", smoke, "cold", 10136, 0.170);
	add("XFS 6.1.0-53", "libaio", "40k", smoke, "cold", 3000, 0.2);
	h = add("XFS 6.1.0-53", "io_uring", "40k", smoke, "cold", 2000, 0.4);
	h->partial = 1;
	/* a repeat: averaged */
	h = add("EXT4 6.1.0-53", "libaio", "40k", smoke, "cold", 3907, 0.171);
	h->rep = 2;
	/* order=random: a block of its own */
	add("EXT4 6.1.0-53", "libaio", "40k", "qd=16 threads=2 direct=1 order=random", "cold",
	    3100, 0.2);
	/* O_DIRECT asked, refused, read buffered: labelled by what ran */
	h = add("TMPFS 6.1.0-53", "io_uring", "40k", smoke, "cold", 20000, 0.05);
	h->m[h->nm - 1].value = 0;
	/* no latency in the record: "-" */
	add("JFS 6.1.0-53", "libaio", "40k", smoke, "cold", 2500, -1);
}

int main(void)
{
	char *got = NULL, want[16384];
	size_t glen = 0, wlen;
	FILE *f;

	tap_plan(2);
	fixture();
	f = open_memstream(&got, &glen);
	if (!f)
		return 1;
	report_aio_ops.print(f, rows, nres);
	fclose(f);
	f = fopen(EXPECTED, "r");
	wlen = f ? fread(want, 1, sizeof(want) - 1, f) : 0;
	if (f)
		fclose(f);
	want[wlen] = '\0';
	tap_ok(f != NULL, "golden file %s", EXPECTED);
	tap_ok(!strcmp(got, want), "table matches %s", EXPECTED);
	if (strcmp(got, want)) {
		f = fopen("/tmp/report_aio.expected.actual", "w");
		if (f) {
			fputs(got, f);
			fclose(f);
		}
		fprintf(stderr, "diff %s /tmp/report_aio.expected.actual\n", EXPECTED);
	}
	free(got);
	return tap_done();
}
