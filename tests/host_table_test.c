/* SPDX-License-Identifier: MIT */
/* The seed-shaped table (host/report/table.c) against a golden file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "results.h"
#include "table.h"
#include "tap.h"

#define FIXTURE  "tests/data/host_results.log"
#define EXPECTED "tests/data/host_table.expected"

/* On a mismatch the output is left in /tmp for a diff. */
static void golden(const char *got, size_t len, const char *expected_path, const char *name)
{
	char *want = NULL, actual[256];
	size_t wlen = 0;
	FILE *f;

	if (bm_read_file(expected_path, &want, &wlen, 1 << 20)) {
		tap_ok(0, "%s: cannot read %s", name, expected_path);
		return;
	}
	if (wlen == len && !memcmp(want, got, len)) {
		tap_ok(1, "%s matches %s", name, expected_path);
		free(want);
		return;
	}
	snprintf(actual, sizeof(actual), "/tmp/%s.actual", strrchr(expected_path, '/') + 1);
	f = fopen(actual, "w");
	if (f) {
		fwrite(got, 1, len, f);
		fclose(f);
	}
	tap_ok(0, "%s differs from %s (diff %s %s)", name, expected_path, expected_path, actual);
	free(want);
}

static void shorten(void)
{
	char buf[64];

	bm_kernel_short("6.1.0-53-amd64", buf, sizeof(buf));
	TAP_EQ_STR(buf, "6.1.0-53", "flavour dropped");
	bm_kernel_short("6.12.117+deb12-amd64", buf, sizeof(buf));
	TAP_EQ_STR(buf, "6.12.117+deb12", "flavour dropped after +deb");
	bm_kernel_short("6.9.0-rc1", buf, sizeof(buf));
	TAP_EQ_STR(buf, "6.9.0-rc1", "local release kept");
	bm_kernel_short("-amd64", buf, sizeof(buf));
	TAP_EQ_STR(buf, "-amd64", "nothing left: kept");
}

int main(void)
{
	struct bm_results a, b;
	struct bm_table_boot boots[2];
	char *out = NULL;
	size_t len = 0, i;
	unsigned m;
	FILE *f;

	tap_plan(0);
	shorten();
	if (bm_results_load(&a, FIXTURE, "") || bm_results_load(&b, FIXTURE, ""))
		tap_bail("cannot load " FIXTURE);
	TAP_EQ_INT(a.nres, 6, "six results in the fixture");
	TAP_EQ_INT(a.stream_rc, 0, "fixture stream is complete");
	/* A second "kernel": slower and writing more, so rows differ. */
	for (i = 0; i < b.nres; i++)
		for (m = 0; m < b.res[i].nm; m++)
			if (!strcmp(b.res[i].m[m].name, "real") || !strcmp(b.res[i].m[m].name, "written"))
				b.res[i].m[m].value *= 2;
	b.res[0].rep = 2;  /* shows the repeat column for dd32w only */
	boots[0].kernel = "6.1.0-53";
	boots[0].r = &a;
	boots[1].kernel = "6.12.117+deb12";
	boots[1].r = &b;
	f = open_memstream(&out, &len);
	bm_table_print(f, boots, 2);
	fclose(f);
	golden(out, len, EXPECTED, "two-kernel table");
	tap_ok(strstr(out, "(partial)") != NULL, "partial result flagged");
	tap_ok(strstr(out, " #2 ") != NULL, "repeat shown when rep > 1");
	free(out);
	bm_results_free(&a);
	bm_results_free(&b);
	return tap_done();
}
