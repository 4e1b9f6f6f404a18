/* SPDX-License-Identifier: MIT */
/*
 * The verdicts of issue 15: a boot QEMU never ran is no "completed"; every
 * planned test needs a record; a signal has its class; a lost HELLO with
 * records intact is a damaged stream; readers of a boot folder take what
 * its meta.json says the host saw; the JSON reader behind that.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "boot.h"
#include "bootdirs.h"
#include "json.h"
#include "results.h"
#include "tap.h"
#include "testrec.h"
#include "testutil.h"
#include "util.h"

#define RUN "5eed0015"

static char text[16384];
static uint64_t seq;

static void add(char type, const char *kv)
{
	strncat(text, tu_rec(RUN, ++seq, type, kv), sizeof(text) - strlen(text) - 1);
}

static void start(const char *hello)
{
	text[0] = '\0';
	seq = 0;
	add('H', hello);
}

/* END with the counts of what was added, and tests= when tests >= 0. */
static void finish(int results, int errors, int tests)
{
	char kv[96];

	if (tests >= 0)
		snprintf(kv, sizeof(kv), "n=%llu results=%d errors=%d tests=%d",
			 (unsigned long long)seq + 1, results, errors, tests);
	else
		snprintf(kv, sizeof(kv), "n=%llu results=%d errors=%d",
			 (unsigned long long)seq + 1, results, errors);
	add('Z', kv);
}

static enum bm_status judge(const char *console, const struct bm_boot_facts *f,
			    struct bm_results *r)
{
	struct bm_stream s;
	struct bm_console c;

	bm_stream_init(&s, "");
	bm_stream_feed_text(&s, text, strlen(text));
	if (bm_results_from_stream(r, &s))
		tap_bail("bm_results_from_stream failed");
	bm_stream_free(&s);
	bm_console_scan(console, strlen(console), &c);
	bm_classify_boot(r, &c, f);
	return r->status;
}

static void want(const char *name, const char *console, const struct bm_boot_facts *f,
		 enum bm_status st, const char *why_has)
{
	struct bm_results r;
	enum bm_status got = judge(console, f, &r);

	tap_ok(got == st && (!why_has || strstr(r.status_why, why_has)),
	       "%s: %s (want %s%s%s; why: %s)", name, bm_status_name(got), bm_status_name(st),
	       why_has ? ", why has " : "", why_has ? why_has : "", r.status_why);
	bm_results_free(&r);
}

#define EXITED(st) (struct bm_boot_facts){ .w = BM_WATCH_EXITED, .qemu_status = (st) }

static void qemu_never_ran(void)
{
	struct bm_boot_facts f = EXITED(1 << 8);
	struct bm_results r;

	text[0] = '\0';
	want("QEMU exit 1, no byte", "", &f, BM_ST_INFRA_ERROR, "exit status 1");
	f = EXITED(127 << 8);
	want("QEMU exit 127", "", &f, BM_ST_INFRA_ERROR, "not found");
	f = EXITED(1 << 8);
	f.why = "qemu-system-x86_64: -accel kvm: failed to set MSR 0x10a";
	want("QEMU's own words kept", "", &f, BM_ST_INFRA_ERROR, "failed to set MSR");
	f = EXITED(0);
	want("QEMU exit 0, no byte: no-console", "", &f, BM_ST_NO_CONSOLE, NULL);
	/* the stream empty as bm_results_empty leaves it: never complete */
	bm_results_empty(&r, RUN);
	bm_classify(&r, NULL, BM_WATCH_EXITED, NULL);
	tap_ok(r.status != BM_ST_COMPLETED && r.stream_rc,
	       "a boot with no records is never completed (%s)", bm_status_name(r.status));
	/* a QEMU that dies after HELLO: the host failed, not the kernel */
	start("v=1 kernel=6.1.0-53-amd64 fs=ext4");
	f = EXITED(1 << 8);
	want("QEMU exit 1 after HELLO", "x\n", &f, BM_ST_INFRA_ERROR, NULL);
	/* ... but a complete stream stands, whatever QEMU did afterwards */
	add('R', "wl=dd test=dd32w fs=ext4 rep=1 m_real=1.5:s");
	finish(1, 0, 1);
	want("complete stream, QEMU exit 1 at power-off", "x\n", &f, BM_ST_COMPLETED, NULL);
}

static void planned(void)
{
	struct bm_boot_facts f = EXITED(0);

	start("v=1 kernel=6.1.0-53-amd64 fs=ext4,xfs");
	add('R', "wl=dd test=dd32w fs=ext4 rep=1 m_real=1.5:s");
	add('R', "wl=dd test=dd32r fs=ext4 rep=1 m_real=1.5:s");
	finish(2, 0, 4);
	want("2 of 4 planned tests: protocol-error", "x\n", &f, BM_ST_PROTOCOL_ERROR,
	     "2 of 4 planned tests");
	start("v=1 kernel=6.1.0-53-amd64 fs=ext4,xfs");
	add('R', "wl=dd test=dd32w fs=ext4 rep=1 m_real=1.5:s");
	add('R', "wl=dd test=dd32r fs=ext4 rep=1 m_real=1.5:s");
	add('E', "class=module msg=no%20xfs fs=xfs");
	finish(2, 1, 4);
	want("a filesystem-wide E accounts for its tests", "x\n", &f, BM_ST_SETUP_FAILURE, NULL);
	start("v=1 kernel=6.1.0-53-amd64 fs=ext4");
	add('R', "wl=dd test=dd32w fs=ext4 rep=1 m_real=1.5:s");
	add('E', "class=bench msg=eio fs=ext4 test=dd32r rep=1");
	finish(1, 1, 2);
	want("a test's E accounts for it", "x\n", &f, BM_ST_BENCH_ERROR, NULL);
	/* a raw job's tests run once, fs=raw (END raw=): a filesystem-wide E
	 * accounts for that filesystem's share of the others only; here 1 dd per
	 * filesystem and 3 raw tests, one of them missing */
	start("v=1 kernel=6.1.0-53-amd64 fs=ext4,xfs");
	add('R', "wl=dd test=dd32w fs=ext4 rep=1 m_real=1.5:s");
	add('E', "class=module msg=no%20xfs fs=xfs");
	add('R', "wl=rawio test=raw-psync-r4k-q1 fs=raw rep=1 m_iops=1:ops/s");
	add('R', "wl=rawio test=raw-uring-r4k-q1 fs=raw rep=1 m_iops=1:ops/s");
	add('Z', "n=6 results=3 errors=1 tests=5 raw=3");
	want("raw tests are not a filesystem's share: one missing is missing", "x\n", &f,
	     BM_ST_PROTOCOL_ERROR, "1 of 5 planned tests");
	start("v=1 kernel=6.1.0-53-amd64 fs=ext4,xfs");
	add('R', "wl=dd test=dd32w fs=ext4 rep=1 m_real=1.5:s");
	add('E', "class=module msg=no%20xfs fs=xfs");
	add('R', "wl=rawio test=raw-psync-r4k-q1 fs=raw rep=1 m_iops=1:ops/s");
	add('R', "wl=rawio test=raw-uring-r4k-q1 fs=raw rep=1 m_iops=1:ops/s");
	add('R', "wl=rawio test=raw-uring-r4k-q32 fs=raw rep=1 m_iops=1:ops/s");
	add('Z', "n=7 results=4 errors=1 tests=5 raw=3");
	want("... and all there: the filesystem's E, not a protocol error", "x\n", &f,
	     BM_ST_SETUP_FAILURE, NULL);
	/* two suite lines that give the same names (seeds: Bray's Bonnie and
	 * bonnie++ 1.02c both give bon-putc): each R is a test of its own */
	start("v=1 kernel=6.1.0-53-amd64 fs=ext4");
	add('R', "wl=bonnie test=bon-putc fs=ext4 rep=1 params=version=bray m_real=1.5:s");
	add('R', "wl=bonnie test=bon-putc fs=ext4 rep=1 params=version=1.02c m_real=1.5:s");
	add('R', "wl=bonnie test=bon-seq-create fs=ext4 rep=1 params=version=1.02c m_real=1:s");
	finish(3, 0, 3);
	want("two lines, the same test name: both count", "x\n", &f, BM_ST_COMPLETED, NULL);
	start("v=1 kernel=6.1.0-53-amd64 fs=ext4");
	add('R', "wl=bonnie test=bon-putc fs=ext4 rep=1 params=version=bray m_real=1.5:s");
	add('R', "wl=bonnie test=bon-seq-create fs=ext4 rep=1 params=version=1.02c m_real=1:s");
	finish(2, 0, 3);
	want("... and one of them missing is still missing", "x\n", &f, BM_ST_PROTOCOL_ERROR,
	     "1 of 3 planned tests");
	start("v=1 kernel=6.1.0-53-amd64 fs=ext4");
	add('R', "wl=dd test=dd32w fs=ext4 rep=1 partial=1 m_real=1.5:s");
	add('E', "class=bench msg=eio fs=ext4 test=dd32w rep=1");
	finish(1, 1, 2);
	want("a partial R and its E are one test: the other is missing", "x\n", &f,
	     BM_ST_PROTOCOL_ERROR, "1 of 2 planned tests");
	start("v=1 kernel=6.1.0-53-amd64 fs=ext4");
	add('E', "class=config msg=bad");
	finish(0, 1, 2);
	want("an E naming nothing accounts for all", "x\n", &f, BM_ST_SETUP_FAILURE, NULL);
	start("v=1 kernel=6.1.0-53-amd64 fs=ext4");
	add('R', "wl=dd test=dd32w fs=ext4 rep=1 m_real=1.5:s");
	finish(1, 0, -1);
	want("no tests= (older runner): completed", "x\n", &f, BM_ST_COMPLETED, NULL);
	f.planned = 3;
	want("... but the host planned 3 and END has none: completed", "x\n", &f,
	     BM_ST_COMPLETED, NULL);
	start("v=1 kernel=6.1.0-53-amd64 fs=ext4");
	add('R', "wl=dd test=dd32w fs=ext4 rep=1 m_real=1.5:s");
	finish(1, 0, 1);
	want("the guest planned 1, the host 3", "x\n", &f, BM_ST_PROTOCOL_ERROR,
	     "the guest planned 1 tests, the host's suite 3");
	f.planned = 1;
	want("the guest and the host agree", "x\n", &f, BM_ST_COMPLETED, NULL);
}

static void signals_and_damage(void)
{
	struct bm_boot_facts f = { .w = BM_WATCH_INTERRUPTED, .why = "stopped by SIGTERM",
				   .qemu_status = 15 };
	char *p;

	start("v=1 kernel=6.1.0-53-amd64 fs=ext4");
	add('R', "wl=dd test=dd32w fs=ext4 rep=1 m_real=1.5:s");
	want("a signal before END: interrupted", "x\n", &f, BM_ST_INTERRUPTED, "SIGTERM");
	text[0] = '\0';
	want("a signal before HELLO", "x\n", &f, BM_ST_INTERRUPTED, "before HELLO");
	start("v=1 kernel=6.1.0-53-amd64 fs=ext4");
	add('R', "wl=dd test=dd32w fs=ext4 rep=1 m_real=1.5:s");
	finish(1, 0, 1);
	want("a signal after END: completed", "x\n", &f, BM_ST_COMPLETED, NULL);
	/* a flipped bit in the HELLO: the records after it are still the run's */
	p = strstr(text, " H ");
	p[5] ^= 0x01;
	f = EXITED(0);
	want("damaged HELLO, intact records: protocol-error", "x\n", &f, BM_ST_PROTOCOL_ERROR,
	     "no intact HELLO");
	tap_ok(bm_status_usable(BM_ST_PROTOCOL_ERROR) && !bm_status_usable(BM_ST_PANIC) &&
	       !bm_status_usable(BM_ST_INTERRUPTED), "protocol-error results are usable");
	TAP_EQ_INT(bm_status_exit(BM_ST_INTERRUPTED), 22, "interrupted exits 22");
	TAP_EQ_INT(bm_status_parse("interrupted"), BM_ST_INTERRUPTED, "class names parse");
	TAP_EQ_INT(bm_status_parse("nosuch"), -1, "unknown class name: -1");
}

static void json_reader(void)
{
	static const char doc[] = "{ \"a\": \"x\\u00e9\\ud83d\\ude00\\n\", \"n\": -12.5e3,"
				  " \"o\": {\"a\": [1, {\"b\": null}]}, \"t\": true, \"z\": null }";
	static const char *const bad[] = {
		"", "{", "{\"a\" 1}", "{\"a\": 01}", "{\"a\": 1,}", "[1 2]", "{\"a\": \"\\x\"}",
		"{\"a\": \"\\ud800\"}", "{\"a\": \"tab\there\"}", "{} x", "{\"a\": tru}", "-", "1.",
	};
	char v[64];
	size_t i;

	TAP_EQ_INT(bm_json_get(doc, strlen(doc), "a", v, sizeof(v)), 0, "string member");
	TAP_EQ_STR(v, "x\xc3\xa9\xf0\x9f\x98\x80\n", "escapes and a surrogate pair decoded");
	TAP_EQ_INT(bm_json_get(doc, strlen(doc), "n", v, sizeof(v)), 0, "number member");
	TAP_EQ_STR(v, "-12.5e3", "number as its text");
	TAP_EQ_INT(bm_json_get(doc, strlen(doc), "z", v, sizeof(v)), 0, "null member");
	TAP_EQ_STR(v, "null", "null as its text");
	TAP_EQ_INT(bm_json_get(doc, strlen(doc), "b", v, sizeof(v)), -ENOENT,
		   "a nested key is not a top-level member");
	TAP_EQ_INT(bm_json_get(doc, strlen(doc), "o", v, sizeof(v)), -EMEDIUMTYPE,
		   "an object member says so");
	TAP_EQ_INT(bm_json_get(doc, strlen(doc), "a", v, 3), -ENAMETOOLONG, "too small a buffer");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		tap_ok(bm_json_valid(bad[i], strlen(bad[i])) == -EINVAL, "invalid: '%s'", bad[i]);
	TAP_EQ_INT(bm_json_valid("[1, 2.5, -0, \"\", {}, []]", 24), 0, "valid array");
}

/* A boot folder read back: meta.json's facts decide as run did. */
static void boot_folder(void)
{
	char tmp[] = "/tmp/bm-verdict-XXXXXX", dir[PATH_MAX], path[PATH_MAX * 2 + 16];
	static const char meta_nostart[] = "{\n  \"watchdog\": \"not-started\",\n"
		"  \"watchdog_why\": \"cannot run qemu-system-x86_64 (not found)\",\n"
		"  \"qemu_exit\": null,\n  \"qemu_signal\": null,\n  \"planned_tests\": 3\n}\n";
	static const char meta_exit1[] = "{\n  \"watchdog\": \"exited\",\n"
		"  \"watchdog_why\": \"exit status 1\",\n  \"qemu_said\": \"qemu: bad option\",\n"
		"  \"qemu_exit\": 1,\n  \"qemu_signal\": null,\n  \"planned_tests\": 3\n}\n";
	static const char meta_sig[] = "{\n  \"watchdog\": \"interrupted\",\n"
		"  \"watchdog_why\": \"stopped by SIGHUP\",\n  \"qemu_exit\": null,\n"
		"  \"qemu_signal\": 15,\n  \"planned_tests\": 1\n}\n";
	struct bm_results r;
	struct bm_seen seen = { 0 };

	tu_mkdtemp(tmp);
	snprintf(dir, sizeof(dir), "%s/6.1.0-53-amd64", tmp);
	mkdir(dir, 0755);
	bm_path(path, sizeof(path), "%s/meta.json", dir);
	bm_write_file_atomic(path, meta_nostart, strlen(meta_nostart));
	TAP_EQ_INT(bm_boot_read(dir, "", &r), 0, "a folder with meta.json and no log reads");
	tap_ok(r.status == BM_ST_INFRA_ERROR && strstr(r.status_why, "not found"),
	       "... as infra-error (%s: %s)", bm_status_name(r.status), r.status_why);
	bm_results_free(&r);
	bm_write_file_atomic(path, meta_exit1, strlen(meta_exit1));
	bm_path(path, sizeof(path), "%s/console.log", dir);
	bm_write_file_atomic(path, "", 0);
	bm_boot_read(dir, "", &r);
	tap_ok(r.status == BM_ST_INFRA_ERROR && strstr(r.status_why, "qemu: bad option"),
	       "QEMU exit 1 read back (%s: %s)", bm_status_name(r.status), r.status_why);
	bm_results_free(&r);
	start("v=1 kernel=6.1.0-53-amd64 fs=ext4");
	add('R', "wl=dd test=dd32w fs=ext4 rep=1 m_real=1.5:s");
	bm_path(path, sizeof(path), "%s/results.log", dir);
	bm_write_file_atomic(path, text, strlen(text));
	bm_path(path, sizeof(path), "%s/meta.json", dir);
	bm_write_file_atomic(path, meta_sig, strlen(meta_sig));
	bm_boot_read(dir, "", &r);
	tap_ok(r.status == BM_ST_INTERRUPTED && r.nres == 1,
	       "an interrupted boot read back, its record kept (%s, %zu)",
	       bm_status_name(r.status), r.nres);
	bm_results_free(&r);
	unlink(path);
	bm_boot_read(dir, "", &r);
	TAP_EQ_INT(r.status, BM_ST_PROTOCOL_ERROR, "without meta.json: judged by the log alone");
	bm_results_free(&r);
	/* the same folder by another name counts once */
	TAP_EQ_INT(bm_seen_check(&seen, dir), 0, "first sight");
	snprintf(path, sizeof(path), "%s/../%s/./", dir, strrchr(dir, '/') + 1);
	TAP_EQ_INT(bm_seen_check(&seen, path), 1, "the same folder by another path");
	TAP_EQ_INT(bm_seen_check(&seen, tmp), 0, "another folder");
	bm_seen_free(&seen);
	bm_rm_rf(tmp);
}

int main(void)
{
	tap_plan(0);
	qemu_never_ran();
	planned();
	signals_and_damage();
	json_reader();
	boot_folder();
	return tap_done();
}
