/* SPDX-License-Identifier: MIT */
/* Boot status from console text, watchdog verdict and protocol stream (host/status.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "tap.h"

#define RUN "5eed0004"

static uint64_t seq;

/* One encoded record appended to text; kv is "k=v k=v". */
static void rec(char *text, size_t len, char type, const char *kv)
{
	struct bm_line l;
	char buf[512], *save = NULL, *tok;

	bm_line_start(&l, RUN, ++seq, type);
	snprintf(buf, sizeof(buf), "%s", kv);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');

		*eq = '\0';
		bm_line_add(&l, tok, eq + 1);
	}
	if (bm_line_finish(&l) < 0)
		tap_bail("cannot encode a record");
	strncat(text, l.buf, len - strlen(text) - 1);
}

static void end(char *text, size_t len, int results, int errors)
{
	char kv[64];

	snprintf(kv, sizeof(kv), "n=%llu results=%d errors=%d", (unsigned long long)seq + 1,
		 results, errors);
	rec(text, len, 'Z', kv);
}

static enum bm_status classify(const char *results_text, const char *console_text,
			       enum bm_watch w, struct bm_results *r)
{
	struct bm_stream s;
	struct bm_console c;

	bm_stream_init(&s, "");
	bm_stream_feed_text(&s, results_text, strlen(results_text));
	if (bm_results_from_stream(r, &s))
		tap_bail("bm_results_from_stream failed");
	bm_stream_free(&s);
	bm_console_scan(console_text, strlen(console_text), &c);
	bm_classify(r, &c, w, w == BM_WATCH_SILENCE ? "no progress for 120 s" : NULL);
	return r->status;
}

static void check(const char *name, const char *res, const char *con, enum bm_watch w,
		  enum bm_status want)
{
	struct bm_results r;
	enum bm_status got = classify(res, con, w, &r);

	tap_ok(got == want, "%s: %s (want %s; why: %s)", name, bm_status_name(got),
	       bm_status_name(want), r.status_why);
	bm_results_free(&r);
}

static const char banner[] = "[    0.000000] Linux version 6.1.0-53-amd64 (debian-kernel@lists.debian.org)\n";

int main(void)
{
	static char ok[4096], err[4096], trunc[4096], con[16384];
	struct bm_results r;
	double v;
	char unit[16];

	tap_plan(0);
	seq = 0;
	rec(ok, sizeof(ok), 'H', "v=1 kernel=6.1.0-53-amd64 suite=smoke");
	rec(ok, sizeof(ok), 'R', "wl=dd test=dd32w fs=ext4 rep=1 m_real=1.5:s");
	end(ok, sizeof(ok), 1, 0);
	seq = 0;
	rec(err, sizeof(err), 'H', "v=1 kernel=6.1.0-53-amd64");
	rec(err, sizeof(err), 'E', "class=setup msg=mkfs.xfs%20failed fs=xfs");
	end(err, sizeof(err), 0, 1);
	seq = 0;
	rec(trunc, sizeof(trunc), 'H', "v=1 kernel=6.1.0-53-amd64");
	rec(trunc, sizeof(trunc), 'R', "wl=dd test=dd32w fs=ext4 rep=1 m_real=1.5:s");

	check("complete stream", ok, banner, BM_WATCH_EXITED, BM_ST_COMPLETED);
	check("complete stream, hung at poweroff", ok, banner, BM_WATCH_SILENCE, BM_ST_COMPLETED);
	check("error record", err, banner, BM_WATCH_EXITED, BM_ST_RUN_ERROR);
	check("no END", trunc, banner, BM_WATCH_EXITED, BM_ST_PROTOCOL_ERROR);
	check("no END, watchdog", trunc, banner, BM_WATCH_SILENCE, BM_ST_HANG);
	check("nothing at all", "", "", BM_WATCH_EXITED, BM_ST_BOOT_FAILURE);
	check("banner only", "", banner, BM_WATCH_EXITED, BM_ST_BOOT_FAILURE);
	check("silent before HELLO", "", banner, BM_WATCH_SILENCE, BM_ST_HANG);
	check("QEMU did not start", "", "", BM_WATCH_NOSTART, BM_ST_INFRA_ERROR);

	snprintf(con, sizeof(con), "%s[    2.1] Kernel panic - not syncing: VFS: Unable to mount root fs\n"
		 "[    2.2] ---[ end Kernel panic ]---\n", banner);
	check("panic beats everything", ok, con, BM_WATCH_EXITED, BM_ST_PANIC);
	classify("", con, BM_WATCH_EXITED, &r);
	TAP_EQ_STR(r.status_why, "Kernel panic - not syncing: VFS: Unable to mount root fs",
		   "panic reason is the panic line");
	bm_results_free(&r);

	snprintf(con, sizeof(con), "%s[    1.0] Initramfs unpacking failed: invalid magic at start of compressed archive\n", banner);
	classify("", con, BM_WATCH_EXITED, &r);
	tap_ok(r.status == BM_ST_BOOT_FAILURE && strstr(r.status_why, "Initramfs unpacking failed"),
	       "initramfs error named: %s", r.status_why);
	bm_results_free(&r);

	/* Records on the console (shared UART) with noise around them. */
	snprintf(con, sizeof(con), "%snoise\n%snoise\n", banner, ok);
	check("records on the console", con, con, BM_WATCH_EXITED, BM_ST_COMPLETED);

	TAP_EQ_INT(bm_parse_metric("1.234:s", &v, unit, sizeof(unit)), 0, "metric parses");
	tap_ok(v == 1.234 && !strcmp(unit, "s"), "metric value and unit");
	TAP_EQ_INT(bm_parse_metric("5:count", &v, unit, sizeof(unit)), 0, "count metric");
	TAP_EQ_INT(bm_parse_metric("1.5", &v, unit, sizeof(unit)), -EINVAL, "no unit");
	TAP_EQ_INT(bm_parse_metric(":s", &v, unit, sizeof(unit)), -EINVAL, "no value");
	TAP_EQ_INT(bm_parse_metric("1,5:s", &v, unit, sizeof(unit)), -EINVAL, "comma decimal");
	TAP_EQ_INT(bm_parse_metric("1e999:s", &v, unit, sizeof(unit)), -EINVAL, "out of range");
	TAP_EQ_INT(bm_parse_metric("1:aaaaaaaaaaaaaaaaaaaaaaa", &v, unit, sizeof(unit)), -EINVAL,
		   "unit too long");
	return tap_done();
}
