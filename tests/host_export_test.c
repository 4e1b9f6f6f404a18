/* SPDX-License-Identifier: MIT */
/*
 * Tidy export (host/report/export.c) and the JSON writer (host/results/json.c).  The
 * fixture results.log must be exactly what the real encoder writes: its
 * records are re-encoded here with bm_line_* and compared byte for byte.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "json.h"
#include "profile.h"
#include "results.h"
#include "tap.h"

#define FIXTURE "tests/data/host_results.log"

static char *capture_begin(FILE **f, size_t *len, char **buf)
{
	*f = open_memstream(buf, len);
	if (!*f)
		tap_bail("open_memstream");
	return NULL;
}

static void golden(const char *got, size_t len, const char *path, const char *name)
{
	char *want = NULL, actual[256];
	size_t wlen = 0;
	FILE *f;

	if (bm_read_file(path, &want, &wlen, 1 << 20)) {
		tap_ok(0, "%s: cannot read %s", name, path);
		return;
	}
	tap_ok(wlen == len && !memcmp(want, got, len), "%s matches %s", name, path);
	if (wlen != len || memcmp(want, got, len)) {
		snprintf(actual, sizeof(actual), "/tmp/%s.actual", strrchr(path, '/') + 1);
		f = fopen(actual, "w");
		if (f) {
			fwrite(got, 1, len, f);
			fclose(f);
		}
		tap_diag("actual output in %s", actual);
	}
	free(want);
}

/* Every record line of the fixture, decoded and encoded again, is identical. */
static void fixture_is_encoder_output(void)
{
	static struct bm_record rec;
	char *text, *line, *save = NULL;
	size_t len, pos;
	unsigned n = 0, same = 0, i;

	if (bm_read_file(FIXTURE, &text, &len, 1 << 20))
		tap_bail("cannot read " FIXTURE);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct bm_line l;

		pos = 0;
		if (bm_scan(line, strlen(line), &pos, &rec) != 1)
			continue;
		n++;
		bm_line_start(&l, rec.run, rec.seq, rec.type);
		for (i = 0; i < rec.nkv; i++)
			bm_line_add(&l, rec.kv[i].key, rec.kv[i].val);
		if (bm_line_finish(&l) > 0 && !strncmp(l.buf, line, strlen(line)) &&
		    l.buf[strlen(line)] == '\n')
			same++;
	}
	TAP_EQ_INT(n, 16, "fixture holds 16 record lines (10 records + 6 repeats)");
	TAP_EQ_INT(same, n, "every fixture record re-encodes to the same bytes");
	free(text);
}

static void export_fmt(const struct bm_results *r, enum bm_export_fmt fmt, const char *path)
{
	struct bm_export e;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	capture_begin(&f, &len, &buf);
	bm_export_begin(&e, f, fmt);
	bm_export_boot(&e, "6.1.0-53-amd64", r);
	bm_export_end(&e);
	fclose(f);
	TAP_EQ_INT(e.rows, 36, "6 results x 6 metrics = 36 rows");
	golden(buf, len, path, fmt == BM_EXPORT_CSV ? "CSV export" : "JSON export");
	free(buf);
}

static void csv_quoting(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	capture_begin(&f, &len, &buf);
	bm_csv_field(f, "plain");
	fputc('|', f);
	bm_csv_field(f, "a,b");
	fputc('|', f);
	bm_csv_field(f, "say \"hi\"");
	fputc('|', f);
	bm_csv_field(f, "two\nlines");
	fputc('|', f);
	bm_csv_field(f, " pad");
	fputc('|', f);
	bm_csv_field(f, "");
	fclose(f);
	TAP_EQ_STR(buf, "plain|\"a,b\"|\"say \"\"hi\"\"\"|\"two\nlines\"|\" pad\"|", "CSV quoting");
	free(buf);
}

static void json_writer(void)
{
	struct bm_json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	capture_begin(&f, &len, &buf);
	bm_json_init(&j, f, 0);
	bm_json_obj_begin(&j);
	bm_json_kstr(&j, "s", "q\"b\\n\n\t\x01\xff");
	bm_json_knum(&j, "x", 0.1);
	bm_json_knum(&j, "inf", INFINITY);
	bm_json_key(&j, "a");
	bm_json_arr_begin(&j);
	bm_json_int(&j, -3);
	bm_json_bool(&j, 1);
	bm_json_obj_begin(&j);
	bm_json_obj_end(&j);
	bm_json_arr_begin(&j);
	bm_json_arr_end(&j);
	bm_json_arr_end(&j);
	bm_json_obj_end(&j);
	fclose(f);
	TAP_EQ_STR(buf, "{\"s\":\"q\\\"b\\\\n\\n\\t\\u0001\\u00ff\",\"x\":0.1,\"inf\":null,"
		   "\"a\":[-3,true,{},[]]}", "compact JSON with escapes");
	free(buf);
}

int main(void)
{
	struct bm_results r;

	tap_plan(0);
	fixture_is_encoder_output();
	if (bm_results_load(&r, FIXTURE, ""))
		tap_bail("cannot load " FIXTURE);
	bm_classify(&r, NULL, BM_WATCH_NONE, NULL);
	TAP_EQ_STR(bm_status_name(r.status), "completed", "fixture run completed");
	export_fmt(&r, BM_EXPORT_CSV, "tests/data/host_export.csv.expected");
	export_fmt(&r, BM_EXPORT_JSON, "tests/data/host_export.json.expected");
	bm_results_free(&r);
	csv_quoting();
	json_writer();
	return tap_done();
}
