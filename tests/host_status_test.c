/* SPDX-License-Identifier: MIT */
/* Boot status from console text, watchdog verdict and protocol stream (host/results/status.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "tap.h"

#define RUN "5eed0004"

static uint64_t seq;
static int fail_on_warning;

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
	c.fail_on_warning = fail_on_warning;
	bm_classify(r, &c, w, w == BM_WATCH_SILENCE ? "no progress for 120 s" :
			      w == BM_WATCH_TIMEOUT ? "hard timeout of 1800 s reached" : NULL);
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
static const char warning[] =
	"[    3.1] ------------[ cut here ]------------\n"
	"[    3.1] WARNING: CPU: 1 PID: 42 at fs/ext4/inode.c:123 ext4_foo+0x1/0x2\n"
	"[    3.2] Call Trace:\n"
	"[    3.3] ---[ end trace 0000000000000000 ]---\n";

/* A complete stream with one E record of class cls. */
static void with_error(char *text, size_t len, const char *cls)
{
	char kv[128];

	text[0] = '\0';
	seq = 0;
	rec(text, len, 'H', "v=1 kernel=6.1.0-53-amd64");
	snprintf(kv, sizeof(kv), "class=%s msg=it%%20failed fs=xfs", cls);
	rec(text, len, 'E', kv);
	end(text, len, 0, 1);
}

static void error_classes(void)
{
	static const char *const setup[] = { "setup", "module", "config", "disk", NULL };
	static const char *const bench[] = { "bench", "internal", "watchdog", NULL };
	static char text[4096];
	char name[64];
	int i;

	for (i = 0; setup[i]; i++) {
		with_error(text, sizeof(text), setup[i]);
		snprintf(name, sizeof(name), "first E record of class %s", setup[i]);
		check(name, text, banner, BM_WATCH_EXITED, BM_ST_SETUP_FAILURE);
	}
	for (i = 0; bench[i]; i++) {
		with_error(text, sizeof(text), bench[i]);
		snprintf(name, sizeof(name), "first E record of class %s", bench[i]);
		check(name, text, banner, BM_WATCH_EXITED, BM_ST_BENCH_ERROR);
	}
	/* the FIRST E record decides */
	text[0] = '\0';
	seq = 0;
	rec(text, sizeof(text), 'H', "v=1 kernel=6.1.0-53-amd64");
	rec(text, sizeof(text), 'E', "class=bench msg=fio%20died");
	rec(text, sizeof(text), 'E', "class=setup msg=mkfs%20failed");
	end(text, sizeof(text), 0, 2);
	check("bench error first, then a setup error", text, banner, BM_WATCH_EXITED,
	      BM_ST_BENCH_ERROR);
}

/* Warnings are recorded whatever the class; they decide only with the flag. */
static void warnings(const char *ok, const char *trunc, char *con, size_t len)
{
	struct bm_results r;
	struct bm_console c;
	static char err[4096];

	snprintf(con, len, "%s%s%s", banner, warning, warning);
	classify(ok, con, BM_WATCH_EXITED, &r);
	tap_ok(r.status == BM_ST_COMPLETED && r.kernel_warnings == 2 &&
	       !strncmp(r.kernel_warning_first, "[    3.1] WARNING: CPU: 1", 25),
	       "warnings without --fail-on-warning: completed, 2 recorded (%d, %s)",
	       r.kernel_warnings, r.kernel_warning_first);
	bm_results_free(&r);
	fail_on_warning = 1;
	check("warnings with --fail-on-warning", ok, con, BM_WATCH_EXITED, BM_ST_KERNEL_WARNING);
	check("no warning with --fail-on-warning", ok, banner, BM_WATCH_EXITED, BM_ST_COMPLETED);
	with_error(err, sizeof(err), "setup");
	check("warning and an E record, with the flag", err, con, BM_WATCH_EXITED,
	      BM_ST_KERNEL_WARNING);
	classify(trunc, con, BM_WATCH_EXITED, &r);
	tap_ok(r.status == BM_ST_PROTOCOL_ERROR && r.kernel_warnings == 2,
	       "warnings recorded on a broken stream too (%s, %d)", bm_status_name(r.status),
	       r.kernel_warnings);
	bm_results_free(&r);
	fail_on_warning = 0;
	snprintf(con, len, "[ 1.0] BUG: KASAN: slab-out-of-bounds in foo\n[ 2.0] UBSAN: shift-out-of-bounds\n"
		 "[ 3.0] Oops: 0000 [#1] SMP\n[ 4.0] KFENCE: use-after-free\n"
		 "[ 5.0] general protection fault, probably for non-canonical address\n"
		 "[ 6.0] BUG: scheduling while atomic\n[ 7.0] a WARNING: that is not one\n");
	bm_console_scan(con, strlen(con), &c);
	tap_ok(c.warnings == 6 && !strcmp(c.warn_line, "[ 1.0] BUG: KASAN: slab-out-of-bounds in foo"),
	       "every kind of report counted once (%d, %s)", c.warnings, c.warn_line);
}

/* The kernel restarted before END: console restart, second banner, second HELLO. */
static void reboots(const char *ok, const char *trunc, char *con, size_t len)
{
	static char twice[8192];

	snprintf(con, len, "%s[ 9.0] reboot: Restarting system\n", banner);
	check("restart before END", trunc, con, BM_WATCH_EXITED, BM_ST_UNEXPECTED_REBOOT);
	check("restart before HELLO", "", con, BM_WATCH_EXITED, BM_ST_UNEXPECTED_REBOOT);
	check("restart after a complete stream", ok, con, BM_WATCH_EXITED, BM_ST_COMPLETED);
	check("restart, then silence: hang first", trunc, con, BM_WATCH_SILENCE, BM_ST_HANG);
	snprintf(con, len, "%s%s", banner, banner);
	check("two kernel banners", "", con, BM_WATCH_EXITED, BM_ST_UNEXPECTED_REBOOT);
	snprintf(twice, sizeof(twice), "%s", trunc);
	seq = 0;
	rec(twice, sizeof(twice), 'H', "v=1 kernel=6.1.0-53-amd64 boot=again");
	check("a second, different HELLO at seq 1", twice, banner, BM_WATCH_EXITED,
	      BM_ST_UNEXPECTED_REBOOT);
	snprintf(twice, sizeof(twice), "%s", trunc);
	seq = 2;
	rec(twice, sizeof(twice), 'H', "v=1 kernel=6.1.0-53-amd64");
	check("a second HELLO at a later seq", twice, banner, BM_WATCH_EXITED,
	      BM_ST_UNEXPECTED_REBOOT);
	snprintf(twice, sizeof(twice), "%s%s", trunc, trunc);
	check("the same HELLO twice is a retransmission", twice, banner, BM_WATCH_EXITED,
	      BM_ST_PROTOCOL_ERROR);
	snprintf(con, len, "%s[ 1.0] Initramfs unpacking failed: junk\n"
		 "[ 2.0] reboot: Restarting system\n", banner);
	check("an initramfs error beats the restart it causes", "", con, BM_WATCH_EXITED,
	      BM_ST_INITRAMFS_ERROR);
	snprintf(con, len, "%s[ 1.0] Initramfs unpacking failed: junk\n"
		 "[ 1.1] Kernel panic - not syncing: VFS: Unable to mount root fs\n", banner);
	check("an initramfs error beats the panic it causes", "", con, BM_WATCH_EXITED,
	      BM_ST_INITRAMFS_ERROR);
}

/* The early classes: no HELLO, no crash. */
static void early(char *con, size_t len)
{
	struct bm_results r;
	static char orphan[1024];

	check("not one console byte", "", "", BM_WATCH_EXITED, BM_ST_NO_CONSOLE);
	check("banner only", "", banner, BM_WATCH_EXITED, BM_ST_NO_RUNNER);
	check("boot stub only, no banner (loglevel=4)", "", "Probing EDD (edd=off to disable)... ok\n",
	      BM_WATCH_EXITED, BM_ST_NO_RUNNER);
	check("one byte of firmware noise", "", "\n", BM_WATCH_EXITED, BM_ST_NO_RUNNER);
	seq = 1;
	rec(orphan, sizeof(orphan), 'R', "wl=dd test=dd32w fs=ext4 rep=1 m_real=1.5:s");
	/* the runner spoke; its HELLO was lost on the way (issue 15, case 5) */
	check("empty console but a record arrived", orphan, "", BM_WATCH_EXITED,
	      BM_ST_PROTOCOL_ERROR);
	snprintf(con, len, "%s[    1.0] Initramfs unpacking failed: invalid magic at start of compressed archive\n", banner);
	classify("", con, BM_WATCH_EXITED, &r);
	tap_ok(r.status == BM_ST_INITRAMFS_ERROR && strstr(r.status_why, "Initramfs unpacking failed"),
	       "initramfs error named: %s", r.status_why);
	bm_results_free(&r);
	snprintf(con, len, "%s[ 1.0] Run /init as init process\n[ 1.1] No working init found.\n", banner);
	check("no working init", "", con, BM_WATCH_EXITED, BM_ST_INITRAMFS_ERROR);
}

/* parse on a log of two boots: each run's console facts are its own. */
static void segments(const char *ok)
{
	static char log[16384], two[4096];
	struct bm_console c;
	size_t off, n;
	char *p;

	snprintf(two, sizeof(two), "%s", ok);
	while ((p = strstr(two, RUN)))
		memcpy(p, "0badf00d", 8);
	snprintf(log, sizeof(log), "%s%s[ 9.0] reboot: Restarting system\nSeaBIOS\n%s%.40s\n"
		 "[ 5.0] Kernel panic - not syncing: Attempted to kill init\n",
		 banner, ok, banner, two);
	bm_console_segment(log, strlen(log), RUN, &off, &n);
	bm_console_scan(log + off, n, &c);
	tap_ok(off == 0 && c.banners == 1 && c.restarts == 1 && !c.panic,
	       "run 1: its banner and restart, not run 2's panic (off %zu, %d, %d, %d)", off,
	       c.banners, c.restarts, c.panic);
	bm_console_segment(log, strlen(log), "0badf00d", &off, &n);
	bm_console_scan(log + off, n, &c);
	tap_ok(!strncmp(log + off, banner, 20) && off + n == strlen(log) && c.banners == 1 &&
	       !c.restarts && c.panic, "run 2: from its banner to the end (%d, %d, %d)",
	       c.banners, c.restarts, c.panic);
	bm_console_segment(log, strlen(log), "", &off, &n);
	tap_ok(off == 0 && n == strlen(log), "no run: the whole log");
}

static void exit_codes(void)
{
	static const struct {
		enum bm_status st;
		const char *name;
		int code;
	} want[] = {
		{ BM_ST_COMPLETED, "completed", 0 },
		{ BM_ST_NO_CONSOLE, "no-console", 10 },
		{ BM_ST_NO_RUNNER, "no-runner", 11 },
		{ BM_ST_INITRAMFS_ERROR, "initramfs-error", 12 },
		{ BM_ST_PANIC, "panic", 13 },
		{ BM_ST_KERNEL_WARNING, "kernel-warning", 14 },
		{ BM_ST_HANG, "hang", 15 },
		{ BM_ST_UNEXPECTED_REBOOT, "unexpected-reboot", 16 },
		{ BM_ST_SETUP_FAILURE, "setup-failure", 17 },
		{ BM_ST_BENCH_ERROR, "bench-error", 18 },
		{ BM_ST_PROTOCOL_ERROR, "protocol-error", 19 },
		{ BM_ST_DISK_REFUSED, "disk-refused", 20 },
		{ BM_ST_TIMEOUT, "timeout", 21 },
		{ BM_ST_INFRA_ERROR, "infra-error", 111 },
	};
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		tap_ok(!strcmp(bm_status_name(want[i].st), want[i].name) &&
		       bm_status_exit(want[i].st) == want[i].code, "class %s exits %d (%s, %d)",
		       want[i].name, want[i].code, bm_status_name(want[i].st),
		       bm_status_exit(want[i].st));
	TAP_EQ_STR(bm_status_name((enum bm_status)99), "unknown", "unknown class name");
	TAP_EQ_INT(bm_status_exit((enum bm_status)99), 111, "unknown class exits 111");
	tap_ok(bm_status_ran(BM_ST_SETUP_FAILURE) && bm_status_ran(BM_ST_BENCH_ERROR) &&
	       bm_status_ran(BM_ST_KERNEL_WARNING) && !bm_status_ran(BM_ST_PROTOCOL_ERROR) &&
	       !bm_status_ran(BM_ST_TIMEOUT), "ran: the complete-stream classes only");
}

int main(void)
{
	static char ok[4096], err[4096], trunc[4096], con[16384], refused[4096];
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
	seq = 0;
	rec(refused, sizeof(refused), 'H', "v=1 kernel=6.1.0-53-amd64");
	rec(refused, sizeof(refused), 'E', "class=refused msg=holds%20a%20GPT");

	check("complete stream", ok, banner, BM_WATCH_EXITED, BM_ST_COMPLETED);
	check("complete stream, hung at poweroff", ok, banner, BM_WATCH_SILENCE, BM_ST_COMPLETED);
	check("complete stream beats a later timeout", ok, banner, BM_WATCH_TIMEOUT, BM_ST_COMPLETED);
	check("complete stream, empty console (PXE)", ok, "", BM_WATCH_EXITED, BM_ST_COMPLETED);
	check("error record", err, banner, BM_WATCH_EXITED, BM_ST_SETUP_FAILURE);
	check("no END", trunc, banner, BM_WATCH_EXITED, BM_ST_PROTOCOL_ERROR);
	check("no END, empty console", trunc, "", BM_WATCH_EXITED, BM_ST_PROTOCOL_ERROR);
	check("no END, silence watchdog", trunc, banner, BM_WATCH_SILENCE, BM_ST_HANG);
	check("no END, hard timeout", trunc, banner, BM_WATCH_TIMEOUT, BM_ST_TIMEOUT);
	check("silent before HELLO", "", banner, BM_WATCH_SILENCE, BM_ST_HANG);
	check("silent from the start", "", "", BM_WATCH_SILENCE, BM_ST_HANG);
	check("QEMU did not start", "", "", BM_WATCH_NOSTART, BM_ST_INFRA_ERROR);
	check("refusal", refused, banner, BM_WATCH_EXITED, BM_ST_DISK_REFUSED);
	check("refusal beats a timeout", refused, banner, BM_WATCH_TIMEOUT, BM_ST_DISK_REFUSED);
	error_classes();
	early(con, sizeof(con));

	snprintf(con, sizeof(con), "%s[    2.1] Kernel panic - not syncing: VFS: Unable to mount root fs\n"
		 "[    2.2] ---[ end Kernel panic ]---\n", banner);
	check("panic beats a complete stream", ok, con, BM_WATCH_EXITED, BM_ST_PANIC);
	check("panic beats disk-refused", refused, con, BM_WATCH_EXITED, BM_ST_PANIC);
	check("panic beats hang", trunc, con, BM_WATCH_SILENCE, BM_ST_PANIC);
	check("infra-error beats panic", "", con, BM_WATCH_NOSTART, BM_ST_INFRA_ERROR);
	check("watchdog saw the panic", trunc, banner, BM_WATCH_PANIC, BM_ST_PANIC);
	classify("", con, BM_WATCH_EXITED, &r);
	TAP_EQ_STR(r.status_why, "Kernel panic - not syncing: VFS: Unable to mount root fs",
		   "panic reason is the panic line");
	bm_results_free(&r);

	warnings(ok, trunc, con, sizeof(con));
	reboots(ok, trunc, con, sizeof(con));

	/* Records on the console (shared UART) with noise around them. */
	snprintf(con, sizeof(con), "%snoise\n%snoise\n", banner, ok);
	check("records on the console", con, con, BM_WATCH_EXITED, BM_ST_COMPLETED);
	segments(ok);
	exit_codes();

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
