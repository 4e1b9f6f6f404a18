// SPDX-License-Identifier: MIT
/* runner/emit.c: records round-trip through the host's parser (common/stream.c). */
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

int main(void)
{
	tap_plan(0);
	test_values();
	test_roundtrip();
	return tap_done();
}
