/* SPDX-License-Identifier: MIT */
/*
 * JUnit XML and TAP output (host/report/junit.c): a completed run from the
 * fixture log, and a hung boot with E records whose messages need
 * escaping, a partial result and a console excerpt.  The XML is checked
 * with a small tag-balance parser; the counts against the records.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "junit.h"
#include "profile.h"
#include "results.h"
#include "tap.h"

#define FIXTURE "tests/data/host_results.log"
#define RUN "5eed0005"

static uint64_t seq;

/* One encoded record appended to text; kv is "k=v|k=v" (values may hold spaces). */
static void rec(char *text, size_t len, char type, const char *kv)
{
	struct bm_line l;
	char buf[512], *save = NULL, *tok;

	bm_line_start(&l, RUN, ++seq, type);
	snprintf(buf, sizeof(buf), "%s", kv);
	for (tok = strtok_r(buf, "|", &save); tok; tok = strtok_r(NULL, "|", &save)) {
		char *eq = strchr(tok, '=');

		*eq = '\0';
		bm_line_add(&l, tok, eq + 1);
	}
	if (bm_line_finish(&l) < 0)
		tap_bail("cannot encode a record");
	strncat(text, l.buf, len - strlen(text) - 1);
}

static unsigned count(const char *hay, const char *needle)
{
	unsigned n = 0;

	for (hay = strstr(hay, needle); hay; hay = strstr(hay + 1, needle))
		n++;
	return n;
}

/*
 * Tag balance: every <name ...> closed by </name> in order, <.../> and
 * <?...?> standalone, no raw '<' or '&' outside tags/entities, no raw
 * '<' or '"' inside attribute values.  Returns 0 when well formed.
 */
static int xml_check(const char *x)
{
	char stack[16][32];
	int depth = 0, roots = 0;

	while (*x) {
		const char *end, *p;
		size_t n;

		if (*x == '&') {
			if (strncmp(x, "&lt;", 4) && strncmp(x, "&gt;", 4) && strncmp(x, "&amp;", 5) &&
			    strncmp(x, "&quot;", 6) && strncmp(x, "&apos;", 6))
				return -1;
			x++;
			continue;
		}
		if (*x != '<') {
			if (*x == '>')
				return -2;
			x++;
			continue;
		}
		/* inside a tag: quoted values may hold '>' only escaped */
		for (end = x + 1; *end && *end != '>'; end++) {
			if (*end == '"') {
				for (end++; *end && *end != '"'; end++)
					if (*end == '<')
						return -3;
				if (!*end)
					return -4;
			}
		}
		if (!*end)
			return -5;
		if (x[1] == '?') {
			x = end + 1;
			continue;
		}
		if (x[1] == '/') {
			n = strcspn(x + 2, " >");
			if (!depth || strlen(stack[depth - 1]) != n || strncmp(stack[depth - 1], x + 2, n))
				return -6;
			depth--;
		} else if (end[-1] != '/') {
			p = x + 1;
			n = strcspn(p, " />");
			if (depth == 16 || n >= 32)
				return -7;
			roots += depth == 0;
			memcpy(stack[depth], p, n);
			stack[depth++][n] = '\0';
		}
		x = end + 1;
	}
	return depth || roots != 1 ? -8 : 0;
}

static char *render(int junit, const struct bm_ci_boot *b, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f)
		tap_bail("open_memstream");
	rc = junit ? bm_junit_write(f, b, n) : bm_tap_write(f, b, n);
	fclose(f);
	tap_ok(rc == 0, "%s written", junit ? "JUnit" : "TAP");
	return buf;
}

static void completed_run(struct bm_results *r)
{
	struct bm_console con = { 0 };
	struct bm_ci_boot b = { .kernel = "6.1.0-53-amd64", .r = r };
	char *x, *t;

	if (bm_results_load(r, FIXTURE, ""))
		tap_bail("cannot load " FIXTURE);
	con.banner = 1;
	bm_classify(r, &con, BM_WATCH_EXITED, "exited 0");
	TAP_EQ_STR(bm_status_name(r->status), "completed", "fixture run completed");
	x = render(1, &b, 1);
	TAP_EQ_INT(xml_check(x), 0, "completed run: well-formed XML");
	TAP_EQ_INT(count(x, "<testcase "), 7, "6 (fs, test) cases + the boot case");
	tap_ok(strstr(x, "<testsuites name=\"bootmark\" tests=\"7\" failures=\"0\"") != NULL,
	       "testsuites totals: 7 tests, 0 failures");
	tap_ok(strstr(x, "classname=\"bootmark.6.1.0-53-amd64.ext4\" name=\"dd32w\" "
			 "time=\"1.234\"/>") != NULL, "ext4 dd32w case: classname, name, m_real");
	tap_ok(strstr(x, "classname=\"bootmark.6.1.0-53-amd64\" name=\"boot\"") != NULL,
	       "boot case present");
	TAP_EQ_INT(count(x, "<failure"), 0, "no failures");
	free(x);
	t = render(0, &b, 1);
	tap_ok(!strncmp(t, "TAP version 13\n1..7\n", 20), "TAP header and plan 1..7");
	TAP_EQ_INT(count(t, "\nok "), 7, "7 ok lines");
	TAP_EQ_INT(count(t, "not ok"), 0, "no not ok");
	tap_ok(strstr(t, "ok 2 - 6.1.0-53-amd64 ext4 dd32w (1.234 s)\n") != NULL, "TAP case line");
	free(t);
}

static void hung_run(struct bm_results *r, char *console, size_t clen)
{
	static char text[16384];
	struct bm_stream s;
	struct bm_console con = { 0 };
	struct bm_ci_boot b[2];
	struct bm_results ok;
	char *x, *t;
	int i;

	rec(text, sizeof(text), 'H', "v=1|kernel=6.12.117+deb12-amd64|suite=smoke|fs=ext4");
	rec(text, sizeof(text), 'R', "wl=dd|test=dd32w|fs=ext4|rep=1|params=size=32M|"
		 "mkfs=mkfs.ext4|mount=noatime|partial=1|m_real=2.5:s");
	rec(text, sizeof(text), 'R', "wl=dd|test=dd32w|fs=ext4|rep=2|params=size=32M|"
		 "mkfs=mkfs.ext4|mount=noatime|partial=0|m_real=1.5:s");
	rec(text, sizeof(text), 'E', "class=setup|msg=mount said a<b & c>\"d\" 'q'|fs=ext4|"
		 "test=dd32r|rep=1");
	rec(text, sizeof(text), 'E', "class=config|msg=bad <profile>");
	bm_stream_init(&s, "");
	bm_stream_feed_text(&s, text, strlen(text));
	if (bm_results_from_stream(r, &s))
		tap_bail("bm_results_from_stream failed");
	bm_stream_free(&s);
	con.banner = 1;
	bm_classify(r, &con, BM_WATCH_SILENCE, "no progress for 120 s");
	TAP_EQ_STR(bm_status_name(r->status), "hang", "second boot hung");

	for (i = 1; i <= 50; i++)
		snprintf(console + strlen(console), clen - strlen(console),
			 "[%d] line %d <x> & \"y\"\r\n", i, i);
	if (bm_results_load(&ok, FIXTURE, ""))
		tap_bail("cannot load " FIXTURE);
	bm_classify(&ok, &con, BM_WATCH_EXITED, "exited 0");
	b[0] = (struct bm_ci_boot){ .kernel = "6.1.0-53-amd64", .r = &ok };
	b[1] = (struct bm_ci_boot){ .kernel = "6.12.117+deb12-amd64", .r = r,
				    .console = bm_tail_lines(console, strlen(console), 40) };
	x = render(1, b, 2);
	TAP_EQ_INT(xml_check(x), 0, "hung run: well-formed XML");
	TAP_EQ_INT(count(x, "<testcase "), 10, "7 + boot + dd32w + dd32r (E only)");
	tap_ok(strstr(x, "tests=\"10\" failures=\"2\"") != NULL,
	       "totals: 10 tests, 2 failed (boot, dd32r)");
	tap_ok(strstr(x, "mount said a&lt;b &amp; c&gt;&quot;d&quot; &apos;q&apos;") != NULL,
	       "E message escaped");
	TAP_EQ_INT(count(x, "a<b"), 0, "no raw '<' from the message");
	tap_ok(strstr(x, "<failure type=\"hang\" message=\"no progress for 120 s\">") != NULL,
	       "boot failure carries the status and why");
	tap_ok(strstr(x, "bad &lt;profile&gt;") != NULL, "E record without a test on the boot case");
	tap_ok(strstr(x, "name=\"dd32w\" time=\"4.000\"") != NULL, "time sums m_real of the reps");
	tap_ok(strstr(x, "partial: 1 of 2 result(s)") != NULL, "partial result flagged");
	tap_ok(strstr(x, "[50] line 50 &lt;x&gt; &amp; &quot;y&quot;") != NULL, "console tail kept");
	tap_ok(!strstr(x, "[10] line 10 ") && strstr(x, "[11] line 11 "),
	       "console excerpt is the last 40 lines");
	TAP_EQ_INT(count(x, "\r"), 0, "CR dropped");
	free(x);
	t = render(0, b, 2);
	tap_ok(strstr(t, "\n1..10\n") != NULL, "TAP plan 1..10");
	TAP_EQ_INT(count(t, "not ok"), 2, "2 not ok");
	tap_ok(strstr(t, "not ok 8 - 6.12.117+deb12-amd64 boot: hang\n") != NULL, "boot not ok");
	tap_ok(strstr(t, "\n# setup: mount said a<b & c>\"d\" 'q'\n") != NULL, "E as a diagnostic");
	tap_ok(strstr(t, "#   [50] line 50") != NULL, "console lines as diagnostics");
	TAP_EQ_INT(count(t, "line 40 "), 0, "TAP keeps the last 10 console lines");
	free(t);
	bm_results_free(&ok);
}

/* RFC 3629 strictly, and only characters an XML document may carry. */
static void strict_utf8(void)
{
	static const struct {
		const char *in, *want, *what;
	} c[] = {
		{ "\xed\xa0\x80", "???", "a surrogate half (U+D800)" },
		{ "\xed\xbf\xbf", "???", "a surrogate half (U+DFFF)" },
		{ "\xc0\xaf", "??", "an overlong '/'" },
		{ "\xe0\x80\xaf", "???", "an overlong 3-byte form" },
		{ "\xf0\x80\x80\xaf", "????", "an overlong 4-byte form" },
		{ "\xf4\x90\x80\x80", "????", "above U+10FFFF" },
		{ "\xf8\x88\x80\x80\x80", "?????", "a 5-byte form" },
		{ "\xef\xbf\xbe", "?", "U+FFFE" },
		{ "\xef\xbf\xbf", "?", "U+FFFF" },
		{ "\xf0\x9f\xbf\xbf", "?", "U+1FFFF" },
		{ "\xef\xb7\x90", "?", "U+FDD0" },
		{ "\xc2\x85", "?", "a C1 control (NEL)" },
		{ "\x7f", "?", "DEL" },
		{ "\xc2\xa0\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbd",
		  "\xc2\xa0\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbd", "valid 2, 3 and 4-byte characters kept" },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		bm_xml_escape(f, c[i].in, strlen(c[i].in));
		fclose(f);
		TAP_EQ_STR(buf, c[i].want, c[i].what);
		free(buf);
	}
}

static void escaper(void)
{
	const char in[] = "\x01ok\xff caf\xc3\xa9\r\n\t\xe2\x82";
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	bm_xml_escape(f, in, sizeof(in) - 1);
	fclose(f);
	TAP_EQ_STR(buf, "?ok? caf\xc3\xa9\n\t??", "controls and bad UTF-8 become '?', CR dropped");
	free(buf);
	strict_utf8();
	TAP_EQ_STR(bm_tail_lines("a\nb\nc\n", 6, 2), "b\nc\n", "tail of 2 lines");
	TAP_EQ_STR(bm_tail_lines("a\nb", 3, 5), "a\nb", "tail longer than the text");
	/* the checker itself must be able to say no */
	tap_ok(xml_check("<a><b></a></b>") != 0, "checker: crossed tags rejected");
	tap_ok(xml_check("<a>x & y</a>") != 0, "checker: raw & rejected");
	tap_ok(xml_check("<a v=\"<\"/>") != 0, "checker: raw < in an attribute rejected");
	tap_ok(xml_check("<a>1 > 0</a>") != 0, "checker: raw > rejected");
	tap_ok(xml_check("<a/><b/>") != 0, "checker: two roots rejected");
	TAP_EQ_INT(xml_check("<?xml v?><a x=\"1\"><b/>t&amp;</a>"), 0, "checker: good doc");
}

int main(void)
{
	static struct bm_results r1, r2;
	static char console[8192];

	tap_plan(0);
	completed_run(&r1);
	hung_run(&r2, console, sizeof(console));
	escaper();
	bm_results_free(&r1);
	bm_results_free(&r2);
	return tap_done();
}
