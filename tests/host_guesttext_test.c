/* SPDX-License-Identifier: MIT */
/*
 * Issue 43, case 10: text from the guest is data.  Record values may hold any
 * byte but NUL (escaped on the wire), a console log any byte at all; an E
 * message with "ESC ] 0 ; title BEL", a carriage return, bytes that are not
 * UTF-8 and C1 controls reached the terminal through parse, compare and TAP,
 * and JUnit's console tail stopped at the first NUL.  Every output here is
 * checked against glibc's UTF-8 decoder: printable text and newlines only.
 */
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "boot.h"
#include "cli.h"
#include "junit.h"
#include "results.h"
#include "table.h"
#include "tap.h"
#include "testcli.h"
#include "testrec.h"
#include "testutil.h"
#include "text.h"
#include "util.h"

#define RUN "0ddba11e"
/* ESC ] 0 ; title BEL (an xterm title), a clear screen, CR, bytes that are
 * not UTF-8, a raw C1 CSI and one encoded as UTF-8, DEL; and an e-acute,
 * which is text */
#define HOSTILE "\033]0;pwned\007\033[2J\rX\xff\xfe\xc0\xaf\x9b\xc2\x9b\x7f\xc3\xa9"

/* 1 when s[0..n) is what a terminal may be given: strict UTF-8 (glibc's
 * decoder) of printable characters, newlines and tabs only. */
static int printable(const char *s, size_t n, char *why, size_t wlen)
{
	mbstate_t st;
	size_t i = 0, k;
	wchar_t wc;

	memset(&st, 0, sizeof(st));
	while (i < n) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\n' || c == '\t') {
			i++;
			continue;
		}
		k = mbrtowc(&wc, s + i, n - i, &st);
		if (k == (size_t)-1 || k == (size_t)-2 || k == 0 || wc < 0x20 || wc == 0x7f ||
		    (wc >= 0x80 && wc < 0xa0)) {
			snprintf(why, wlen, "byte %zu (0x%02x) of \"%.*s\"", i, c,
				 (int)(n - i < 40 ? n - i : 40), s + i);
			return 0;
		}
		i += k;
	}
	return 1;
}

static void check_text(const char *what, const char *s, size_t n)
{
	char why[128] = "";

	tap_ok(printable(s, n, why, sizeof(why)), "%s is printable text %s", what, why);
}

/* A boot whose every guest string is hostile; results= of END given. */
static char *hostile_log(const char *end_results, size_t *len)
{
	const char *h[] = { "v", "1", "kernel", "6.1.0" HOSTILE "-amd64", "cpu", HOSTILE,
			    "fs", "ext4", NULL };
	const char *r[] = { "wl", "dd", "test", "dd32w" HOSTILE, "fs", "ext4" HOSTILE, "rep", "1",
			    "params", "size=32M" HOSTILE, "mkfs", "mkfs.ext4" HOSTILE, "mount",
			    "noatime" HOSTILE, "partial", "0", "m_real", "1.5:s",
			    "m_bw", "21.3:MiB\033[m\x9b", NULL };
	const char *e[] = { "class", "setup", "msg", "mkfs failed: " HOSTILE, "fs", "ext4",
			    "test", "dd32r" HOSTILE, "rep", "1", NULL };
	const char *e2[] = { "class", "bench" HOSTILE, "msg", HOSTILE, NULL };
	const char *z[] = { "n", "5", "results", end_results, "errors", "2", "tests", "3", NULL };
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	if (!f)
		tap_bail("open_memstream");
	tu_put_rec(f, RUN, 1, 'H', h);
	tu_put_rec(f, RUN, 2, 'R', r);
	tu_put_rec(f, RUN, 3, 'E', e);
	tu_put_rec(f, RUN, 4, 'E', e2);
	tu_put_rec(f, RUN, 5, 'Z', z);
	fclose(f);
	return text;
}

static void load(struct bm_results *r, const char *end_results)
{
	struct bm_stream s;
	size_t len;
	char *text = hostile_log(end_results, &len);

	bm_stream_init(&s, "");
	bm_stream_feed_text(&s, text, len);
	if (bm_results_from_stream(r, &s))
		tap_bail("results");
	bm_stream_free(&s);
	free(text);
}

static void test_text_function(void)
{
	char out[64];
	size_t n = bm_text_safe(out, sizeof(out), "a\0b" HOSTILE "\n\tz", 3 + sizeof(HOSTILE) + 2,
				0);

	TAP_EQ_STR(out, "a?b?]0;pwned??[2JX???????\xc3\xa9??z",
		   "controls, bad bytes and C1 as '?', CR dropped, NUL no end, UTF-8 kept");
	tap_ok(n == strlen(out), "its length");
	bm_text_safe(out, sizeof(out), "l1\r\nl2\t\x1b", 8, BM_TEXT_LINES);
	TAP_EQ_STR(out, "l1\nl2\t?", "several lines: newline and tab kept");
	bm_text_safe(out, 5, "abc\xc3\xa9" "d", 6, 0);
	TAP_EQ_STR(out, "abc", "never a character cut in two");
}

static void test_model(void)
{
	struct bm_results r;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = NULL;

	load(&r, "1");
	bm_classify(&r, NULL, BM_WATCH_NONE, NULL);
	check_text("the E message", r.err[0].msg, strlen(r.err[0].msg));
	tap_ok(strstr(r.err[0].msg, "]0;pwned") && strstr(r.err[0].msg, "\xc3\xa9"),
	       "... still says what the guest said");
	check_text("the E class", r.err[1].cls, strlen(r.err[1].cls));
	check_text("the E test", r.err[0].test, strlen(r.err[0].test));
	check_text("the R test", r.res[0].test, strlen(r.res[0].test));
	check_text("the R fs", r.res[0].fs, strlen(r.res[0].fs));
	check_text("the R params", r.res[0].params, strlen(r.res[0].params));
	check_text("the R mkfs", r.res[0].mkfs, strlen(r.res[0].mkfs));
	check_text("the R mount", r.res[0].mount, strlen(r.res[0].mount));
	for (i = 0; i < r.res[0].nm; i++)
		check_text("a metric's unit", r.res[0].m[i].unit, strlen(r.res[0].m[i].unit));
	check_text("the HELLO's kernel", bm_hello_get(&r, "kernel"),
		   strlen(bm_hello_get(&r, "kernel")));
	check_text("the status reason", r.status_why, strlen(r.status_why));

	f = open_memstream(&buf, &len);
	bm_results_json(f, &r);
	fclose(f);
	check_text("results.json", buf, len);
	free(buf);
	bm_results_free(&r);

	/* END's own words go into the stream's reason */
	load(&r, "1" HOSTILE);
	bm_classify(&r, NULL, BM_WATCH_NONE, NULL);
	tap_ok(r.status == BM_ST_PROTOCOL_ERROR, "END results= hostile: %s",
	       bm_status_name(r.status));
	check_text("its reason", r.status_why, strlen(r.status_why));
	bm_results_free(&r);
}

static void test_reports(const char *dir)
{
	static const char console[] = "Probing EDD\n\0\0" HOSTILE "\0 more\n"
				      "Kernel panic - not syncing: VFS " HOSTILE "\n";
	struct bm_ci_boot cb;
	struct bm_table_boot tb;
	struct bm_results r;
	char path[PATH_MAX], *buf = NULL, *tail;
	size_t len = 0;
	FILE *f = NULL;

	snprintf(path, sizeof(path), "%s/console.log", dir);
	f = fopen(path, "w");
	if (!f || fwrite(console, 1, sizeof(console) - 1, f) != sizeof(console) - 1 || fclose(f))
		tap_bail("cannot write console.log");
	tail = bm_console_tail(dir);
	tap_ok(tail && strstr(tail, "Kernel panic - not syncing: VFS"),
	       "the console tail goes past the NULs to the panic line");
	check_text("the console tail", tail ? tail : "", tail ? strlen(tail) : 0);

	load(&r, "1");
	bm_classify(&r, NULL, BM_WATCH_NONE, NULL);
	cb = (struct bm_ci_boot){ .kernel = "k", .r = &r, .console = tail };
	f = open_memstream(&buf, &len);
	bm_tap_write(f, &cb, 1);
	fclose(f);
	check_text("TAP", buf, len);
	tap_ok(strstr(buf, "mkfs failed") != NULL, "TAP carries the message");
	free(buf);
	f = open_memstream(&buf, &len);
	bm_junit_write(f, &cb, 1);
	fclose(f);
	check_text("JUnit", buf, len);
	tap_ok(strstr(buf, "Kernel panic - not syncing: VFS") != NULL, "JUnit carries the panic");
	free(buf);
	tb = (struct bm_table_boot){ .kernel = "6.1", .r = &r };
	f = open_memstream(&buf, &len);
	bm_table_print(f, &tb, 1);
	fclose(f);
	check_text("the table", buf, len);
	free(buf);
	bm_results_free(&r);
	free(tail);
}

static void test_commands(const char *dir)
{
	char boot[PATH_MAX], log[PATH_MAX], html[PATH_MAX], *text, *out;
	size_t len, n;
	FILE *f = NULL;
	int rc;

	if (bm_path(boot, sizeof(boot), "%s/k", dir) ||
	    bm_path(log, sizeof(log), "%s/results.log", boot) ||
	    bm_path(html, sizeof(html), "%s/r.html", dir) || bm_mkdir_p(boot, 0755) ||
	    !(f = fopen(log, "w")))
		tap_bail("cannot make a boot folder");
	text = hostile_log("1", &len);
	fwrite(text, 1, len, f);
	fclose(f);
	free(text);
	{
		const char *argv[] = { "parse", log, NULL };

		rc = tu_run_cmd(bm_cmd_parse, argv, &out, &n);
		check_text("parse's output", out, n);
		tap_ok(rc == 17 && strstr(out, "mkfs failed"), "parse: setup-failure (%d)", rc);
		free(out);
	}
	{
		const char *argv[] = { "compare", dir, NULL };

		rc = tu_run_cmd(bm_cmd_compare, argv, &out, &n);
		check_text("compare's output", out, n);
		free(out);
	}
	{
		const char *argv[] = { "compare", "--format", "markdown", dir, NULL };

		rc = tu_run_cmd(bm_cmd_compare, argv, &out, &n);
		check_text("compare --format markdown", out, n);
		free(out);
	}
	{
		const char *argv[] = { "export", "--format", "csv", dir, NULL };

		rc = tu_run_cmd(bm_cmd_export, argv, &out, &n);
		check_text("export --format csv", out, n);
		free(out);
	}
	{
		const char *argv[] = { "export", dir, NULL };

		rc = tu_run_cmd(bm_cmd_export, argv, &out, &n);
		check_text("export (JSON)", out, n);
		tap_ok(rc == 0 && strstr(out, "\xc3\xa9"), "... UTF-8 as it is (exit %d)", rc);
		free(out);
	}
	{
		const char *argv[] = { "report", dir, "-o", html, NULL };

		rc = tu_run_cmd(bm_cmd_report, argv, &out, &n);
		free(out);
		text = NULL;
		tap_ok(rc == 0 && !bm_read_file(html, &text, &len, 1 << 24), "report wrote %s",
		       html);
		check_text("the HTML report", text ? text : "", text ? len : 0);
		free(text);
		unlink(html);
	}
	unlink(log);
	rmdir(boot);
}

int main(void)
{
	char dir[] = "/tmp/bm-guesttext.XXXXXX", path[PATH_MAX];

	if (!setlocale(LC_CTYPE, "C.UTF-8"))
		tap_bail("no C.UTF-8 locale");
	tap_plan(0);
	tu_mkdtemp(dir);
	test_text_function();
	test_model();
	test_reports(dir);
	snprintf(path, sizeof(path), "%s/console.log", dir);
	unlink(path);
	test_commands(dir);
	rmdir(dir);
	return tap_done();
}
