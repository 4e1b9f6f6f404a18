// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the result protocol (common/proto.c, common/stream.c)
 * and the host's reading of it (host/results/results.c).  The bytes come off a
 * serial line shared with printk, so anything may arrive: NUL and 0xff
 * bytes, lines without a newline, several markers on one line.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"
#include "results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* bm_scan() over the whole input as one line: every call must either
 * advance pos or report the end, or a caller's loop never finishes. */
static void scan_all(const char *buf, size_t len, struct bm_record *rec)
{
	size_t pos = 0, before;
	int rc;

	for (;;) {
		before = pos;
		rc = bm_scan(buf, len, &pos, rec);
		if (!rc)
			break;
		if (pos <= before || pos > len)
			abort();
		if (rc == 1) {
			/* a decoded record must hold what the header promises */
			if (strlen(rec->run) != BM_RUN_LEN || rec->nkv > BM_KV_MAX)
				abort();
			bm_rec_get(rec, "n");
			bm_rec_get(rec, "msg");
		}
	}
}

/* The stream fed line by line, as bm_stream_feed() is called by a reader
 * that splits on '\n' only (a CR stays in the line). */
static void stream_lines(const char *buf, size_t len, const char *run)
{
	struct bm_stream s;
	char why[256];
	size_t start = 0, i;
	uint64_t seq;

	bm_stream_init(&s, run);
	for (i = 0; i <= len; i++) {
		if (i < len && buf[i] != '\n')
			continue;
		bm_stream_feed(&s, buf + start, i - start);
		start = i + 1;
	}
	bm_stream_check(&s, why, sizeof(why));
	/* the low seqs, the edges, and past the end must all be safe to ask */
	for (seq = 0; seq <= s.max_seq && seq < 64; seq++)
		bm_stream_get(&s, seq);
	bm_stream_get(&s, s.max_seq);
	bm_stream_get(&s, s.max_seq + 1);
	bm_stream_get(&s, UINT64_MAX);
	bm_stream_free(&s);
}

/* The host path: bootmark parse / export on a results.log or console.log. */
static void host_results(const char *buf, size_t len)
{
	struct bm_stream s;
	struct bm_results r;
	struct bm_console c;

	bm_stream_init(&s, "");
	bm_stream_feed_text(&s, buf, len);
	if (!bm_results_from_stream(&r, &s)) {
		bm_console_scan(buf, len, &c);
		bm_classify(&r, &c, BM_WATCH_EXITED, "fuzz");
		bm_status_name(r.status);
		bm_hello_get(&r, "kernel");
	}
	bm_results_free(&r);
	bm_stream_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* An exact-size copy with no NUL after it: these APIs take a length,
	 * and ASan then catches any read past it. */
	char *buf = malloc(size ? size : 1);
	struct bm_record *rec = malloc(sizeof(*rec));

	if (!buf || !rec)
		abort();
	memcpy(buf, data, size);
	scan_all(buf, size, rec);
	stream_lines(buf, size, "");
	stream_lines(buf, size, "5f3a9c01");
	host_results(buf, size);
	free(rec);
	free(buf);
	return 0;
}
