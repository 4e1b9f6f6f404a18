// SPDX-License-Identifier: MIT
/* The "disk-refused" boot status (host/results/status.c): an E record of class refused. */
#include <stdio.h>
#include <string.h>

#include "results.h"
#include "tap.h"

#define RUN "5eed0007"

/* One record; fields are key, value pairs ending in NULL. */
static void rec(char *text, size_t len, uint64_t seq, int type, ...)
{
	struct bm_line l;
	const char *k;
	va_list ap;

	bm_line_start(&l, RUN, seq, (char)type);
	va_start(ap, type);
	while ((k = va_arg(ap, const char *)))
		bm_line_add(&l, k, va_arg(ap, const char *));
	va_end(ap);
	if (bm_line_finish(&l) < 0)
		tap_bail("cannot encode a record");
	strncat(text, l.buf, len - strlen(text) - 1);
}

static void classify(const char *text, enum bm_watch w, const char *name,
		     enum bm_status want, const char *why)
{
	struct bm_results r;
	struct bm_stream s;
	struct bm_console c = { .banner = 1 };

	bm_stream_init(&s, "");
	bm_stream_feed_text(&s, text, strlen(text));
	if (bm_results_from_stream(&r, &s))
		tap_bail("bm_results_from_stream failed");
	bm_stream_free(&s);
	bm_classify(&r, &c, w, w == BM_WATCH_SILENCE ? "silent" : NULL);
	tap_ok(r.status == want && (!why || strstr(r.status_why, why)), "%s: %s (%s)", name,
	       bm_status_name(r.status), r.status_why);
	bm_results_free(&r);
}

int main(void)
{
	static const char msg[] = "/dev/vdb (serial DECOY) holds a GPT partition table that "
				  "bootmark did not make; set disk_wipe=DECOY to overwrite it";
	static char full[4096], cut[4096], disk[4096];

	tap_plan(0);
	TAP_EQ_STR(bm_status_name(BM_ST_DISK_REFUSED), "disk-refused", "status name");
	rec(full, sizeof(full), 1, 'H', "v", "1", "kernel", "6.1.0-53-amd64", NULL);
	rec(full, sizeof(full), 2, 'E', "class", "refused", "msg", msg, NULL);
	strcpy(cut, full);
	rec(full, sizeof(full), 3, 'Z', "n", "3", "results", "0", "errors", "1", NULL);
	classify(full, BM_WATCH_EXITED, "refusal, complete stream", BM_ST_DISK_REFUSED,
		 "holds a GPT partition table");
	classify(cut, BM_WATCH_EXITED, "refusal, end record lost", BM_ST_DISK_REFUSED,
		 "disk_wipe=DECOY");
	classify(cut, BM_WATCH_SILENCE, "refusal, then silence", BM_ST_DISK_REFUSED, NULL);
	rec(disk, sizeof(disk), 1, 'H', "v", "1", NULL);
	rec(disk, sizeof(disk), 2, 'E', "class", "disk", "msg", "no disk at all in /sys/block",
	    NULL);
	rec(disk, sizeof(disk), 3, 'Z', "n", "3", "results", "0", "errors", "1", NULL);
	classify(disk, BM_WATCH_EXITED, "no disk at all: setup-failure",
		 BM_ST_SETUP_FAILURE, "no disk at all");
	return tap_done();
}
