// SPDX-License-Identifier: MIT
/* runner/engine/emit.c: records round-trip through the host's parser (common/stream.c). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emit.h"
#include "proto.h"
#include "tap.h"

static void test_values(void)
{
	char b[64];

	emit_fmt_value(b, sizeof(b), 525436);
	TAP_EQ_STR(b, "525436", "integral value");
	emit_fmt_value(b, sizeof(b), 2101632);
	TAP_EQ_STR(b, "2101632", "large integral value, no exponent");
	emit_fmt_value(b, sizeof(b), 1.25);
	TAP_EQ_STR(b, "1.25", "trailing zeros dropped");
	emit_fmt_value(b, sizeof(b), 0.0400001);
	TAP_EQ_STR(b, "0.04", "six decimals");
}

static void test_roundtrip(void)
{
	char path[] = "/tmp/bm-emit-XXXXXX", *text = NULL, why[256];
	struct emit_ctx ec = { .fs = "ext4", .test = "dd32w", .rep = 1 };
	struct bm_kv kv[2] = { { "v", "1" }, { "kernel", "6.1.0-53-amd64" } };
	struct bm_result r = { .wl = "dd", .test = "dd32w", .params = "size=32M bs=1M" };
	const struct bm_record *rec;
	struct bm_stream s;
	struct emitter e;
	size_t len = 0;
	FILE *f;
	int fd = mkstemp(path), nlines = 0;

	if (fd < 0)
		tap_bail("mkstemp failed");

	emit_init_fd(&e, fd, "0a1b2c3d");
	bm_result_add(&r, "real", 1.234, "s");
	bm_result_add(&r, "written", 525436, "KiB");
	emit_hello(&e, kv, 2);
	emit_phase(&e, "mkfs", &ec);
	emit_beat(&e);
	emit_result(&e, &r, &ec, "mkfs.ext4 -F -q /dev/vda", "noatime");
	emit_error(&e, "bench", &ec, "it went %s", "wrong with spaces & 100%");
	emit_end(&e);
	emit_close(&e);

	f = fopen(path, "r");
	if (!f)
		tap_bail("cannot reopen the record file");
	bm_stream_init(&s, "");
	while (getline(&text, &len, f) > 0) {
		nlines++;
		bm_stream_feed(&s, text, strlen(text));
	}
	fclose(f);
	free(text);
	unlink(path);
	TAP_EQ_INT(nlines, 7, "six records and the R repeat");
	TAP_EQ_INT(bm_stream_check(&s, why, sizeof(why)), 0, "stream complete");
	TAP_EQ_INT(s.conflicts, 0, "repeat is byte-identical");
	rec = bm_stream_get(&s, 4);
	tap_ok(rec && rec->type == 'R', "seq 4 is the result");
	if (rec) {
		TAP_EQ_STR(bm_rec_get(rec, "m_real"), "1.234:s", "m_real");
		TAP_EQ_STR(bm_rec_get(rec, "m_written"), "525436:KiB", "m_written");
		TAP_EQ_STR(bm_rec_get(rec, "mkfs"), "mkfs.ext4 -F -q /dev/vda", "mkfs argv");
		TAP_EQ_STR(bm_rec_get(rec, "partial"), "0", "partial");
	}
	rec = bm_stream_get(&s, 5);
	tap_ok(rec && rec->type == 'E' && !strcmp(bm_rec_get(rec, "msg") ?: "",
		"it went wrong with spaces & 100%"), "E msg survives escaping");
	rec = bm_stream_get(&s, 6);
	tap_ok(rec && rec->type == 'Z' && !strcmp(bm_rec_get(rec, "n") ?: "", "6") &&
	       !strcmp(bm_rec_get(rec, "results") ?: "", "1") &&
	       !strcmp(bm_rec_get(rec, "errors") ?: "", "1"), "Z n=6 results=1 errors=1");
	bm_stream_free(&s);
}

static void test_lava_ids(void)
{
	char b[128];

	emit_lava_id(b, sizeof(b), "ext4", "dd32w", 1, "bw", NULL);
	TAP_EQ_STR(b, "ext4__dd32w__r1__bw", "metric id");
	emit_lava_id(b, sizeof(b), "ext4", "aim7-fserver-t1", 2, "jobs_min", NULL);
	TAP_EQ_STR(b, "ext4__aim7_fserver_t1__r2__jobs_min", "'-' becomes '_'");
	emit_lava_id(b, sizeof(b), "XFS", "--a__b..", 3, NULL, NULL);
	TAP_EQ_STR(b, "xfs__a_b__r3", "lowercased, runs collapsed, trimmed: no \"__\" inside a part");
	emit_lava_id(b, sizeof(b), "ext4", "", 0, NULL, "module");
	TAP_EQ_STR(b, "run__module", "filesystem failure (no rep): as its E record, no fs");
	emit_lava_id(b, sizeof(b), NULL, NULL, 0, NULL, "disk");
	TAP_EQ_STR(b, "run__disk", "failure outside any test");
	emit_lava_id(b, sizeof(b), "ext4", "?", 1, "real", NULL);
	TAP_EQ_STR(b, "ext4__x__r1__real", "an empty part is x");
	emit_lava_id(b, 8, "ext4", "dd32w", 1, "bw", NULL);
	TAP_EQ_STR(b, "ext4__d", "truncated, terminated");
	emit_lava_unit(b, sizeof(b), "MiB/s");
	TAP_EQ_STR(b, "MiB/s", "unit kept");
	emit_lava_unit(b, sizeof(b), "%");
	TAP_EQ_STR(b, "percent", "% spelled out");
	emit_lava_unit(b, sizeof(b), "a b");
	TAP_EQ_STR(b, "a_b", "space in a unit");
	emit_lava_unit(b, sizeof(b), "");
	TAP_EQ_STR(b, "none", "no unit");
}

/* Reads the record file into a stream; returns the number of lines. */
static int read_stream(const char *path, struct bm_stream *s)
{
	char *text = NULL;
	size_t len = 0;
	int nlines = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		tap_bail("cannot reopen the record file");
	bm_stream_init(s, "");
	while (getline(&text, &len, f) > 0) {
		nlines++;
		bm_stream_feed(s, text, strlen(text));
	}
	fclose(f);
	free(text);
	return nlines;
}

static int is_metric(const struct bm_record *rec, const char *id, const char *result,
		     const char *measurement, const char *units)
{
	return rec && rec->type == BM_REC_METRIC &&
	       !strcmp(bm_rec_get(rec, "id") ?: "", id) &&
	       !strcmp(bm_rec_get(rec, "result") ?: "", result) &&
	       !strcmp(bm_rec_get(rec, "measurement") ?: "", measurement) &&
	       !strcmp(bm_rec_get(rec, "units") ?: "", units);
}

static void test_lava_records(void)
{
	char path[] = "/tmp/bm-emit-XXXXXX", why[256];
	struct emit_ctx ec = { .fs = "ext4", .test = "dd32w", .rep = 1 };
	struct emit_ctx ec2 = { .fs = "ext4", .test = "dd32r", .rep = 1 };
	struct bm_kv kv[1] = { { "v", "1" } };
	struct bm_result r = { .wl = "dd", .test = "dd32w", .params = "size=32M" };
	struct bm_result p = { .wl = "dd", .test = "dd32rw", .params = "size=32M", .partial = 1 };
	struct emit_ctx ec3 = { .fs = "ext4", .test = "dd32rw", .rep = 1 };
	struct bm_stream s;
	struct emitter e;
	int fd = mkstemp(path), nlines;

	if (fd < 0)
		tap_bail("mkstemp failed");
	emit_init_fd(&e, fd, "0a1b2c3d");
	emit_set_lava(&e, 1);
	bm_result_add(&r, "real", 0.391987, "s");
	bm_result_add(&r, "bw", 81.81973, "MiB/s");
	bm_result_add(&r, "cpu", 97.5, "%");
	bm_result_add(&p, "real", 1.5, "s");
	emit_hello(&e, kv, 1);                                    /* 1 */
	emit_result(&e, &r, &ec, "mkfs.ext4", "noatime");         /* 2 R, 3-5 M */
	emit_error(&e, "setup", &ec2, "mkfs failed");             /* 6 E, 7 M */
	emit_error(&e, "setup", &ec2, "cannot unmount");          /* 8 E, no M */
	emit_result(&e, &p, &ec3, "mkfs.ext4", "noatime");        /* 9 R, 10 M */
	emit_error(&e, "disk", NULL, "no disk");                  /* 11 E, 12 M */
	emit_end(&e);                                             /* R repeats, 13 Z */
	emit_close(&e);

	nlines = read_stream(path, &s);
	unlink(path);
	TAP_EQ_INT(nlines, 15, "13 records and the repeat of the 2 R (no M repeated)");
	TAP_EQ_INT(bm_stream_check(&s, why, sizeof(why)), 0, "stream with M records complete");
	tap_ok(is_metric(bm_stream_get(&s, 3), "ext4__dd32w__r1__real", "pass", "0.391987", "s"),
	       "M real after its R");
	tap_ok(is_metric(bm_stream_get(&s, 4), "ext4__dd32w__r1__bw", "pass", "81.81973", "MiB/s"),
	       "M bw: the R's value text, its unit");
	tap_ok(is_metric(bm_stream_get(&s, 5), "ext4__dd32w__r1__cpu", "pass", "97.5", "percent"),
	       "M cpu: %% spelled percent");
	tap_ok(is_metric(bm_stream_get(&s, 7), "ext4__dd32r__r1", "fail", "0", "none"),
	       "failed test: one fail M after its E");
	tap_ok(bm_stream_get(&s, 8) && bm_stream_get(&s, 8)->type == BM_REC_ERROR,
	       "a second error of the same test: no second fail M");
	tap_ok(is_metric(bm_stream_get(&s, 10), "ext4__dd32rw__r1__real", "unknown", "1.5", "s"),
	       "partial result: unknown");
	tap_ok(is_metric(bm_stream_get(&s, 12), "run__disk", "fail", "0", "none"),
	       "error outside a test: run__<class>");
	tap_ok(bm_stream_get(&s, 13) && !strcmp(bm_rec_get(bm_stream_get(&s, 13), "results") ?: "",
						"2"), "Z counts R records only");
	bm_stream_free(&s);
}

int main(void)
{
	tap_plan(0);
	test_values();
	test_roundtrip();
	test_lava_ids();
	test_lava_records();
	return tap_done();
}
