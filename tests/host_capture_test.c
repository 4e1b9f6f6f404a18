/* SPDX-License-Identifier: MIT */
/*
 * bootmark capture without a device (host/backend/pxe/capture.c, capture_out.c): the
 * line splitter (LF, CR, CRLF, lines across reads, over-long lines), runs
 * split at reboots, damaged records reported with their reason, a result
 * damaged the first time recovered from the repeat, and the folders.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "capture_src.h"
#include "profile.h"
#include "tap.h"
#include "testrec.h"
#include "testutil.h"
#include "util.h"

#define RA "aaaa0001"
#define RB "bbbb0002"

static const char *rec(const char *run, uint64_t seq, char type, const char *pairs)
{
	return tu_rec(run, seq, type, pairs);
}

/* --- the splitter ----------------------------------------------------------- */

struct got {
	char lines[16][64];
	uint64_t off[16];
	unsigned long no[16];
	int n;
};

static void collect(void *arg, const char *line, size_t len, uint64_t off, unsigned long no)
{
	struct got *g = arg;

	if (g->n < 16) {
		snprintf(g->lines[g->n], sizeof(g->lines[0]), "%.*s", (int)len, line);
		g->off[g->n] = off;
		g->no[g->n++] = no;
	}
}

static void test_lines(void)
{
	static const char text[] = "one\r\ntwo\rthree\n\nfour";
	struct bm_lines l;
	struct got g = { .n = 0 };
	char *big;

	bm_lines_init(&l, collect, &g);
	for (size_t i = 0; i < sizeof(text) - 1; i++)  /* one byte per read */
		bm_lines_feed(&l, text + i, 1);
	tap_ok(g.n == 4, "4 lines before the end (got %d)", g.n);
	bm_lines_flush(&l);
	tap_ok(g.n == 5 && !strcmp(g.lines[0], "one") && !strcmp(g.lines[1], "two") &&
	       !strcmp(g.lines[2], "three") && !strcmp(g.lines[3], "") && !strcmp(g.lines[4], "four"),
	       "CRLF, CR and LF end lines; an empty line stays; the last line without an end");
	tap_ok(g.off[1] == 5 && g.off[2] == 9 && g.off[4] == 16 && g.no[4] == 5,
	       "line offsets and numbers (two at %llu, four at %llu line %lu)",
	       (unsigned long long)g.off[1], (unsigned long long)g.off[4], g.no[4]);

	memset(&g, 0, sizeof(g));
	bm_lines_init(&l, collect, &g);
	bm_lines_feed(&l, "x\r", 2);
	bm_lines_feed(&l, "\ny\n", 3);
	tap_ok(g.n == 2 && !strcmp(g.lines[1], "y"), "a CRLF split across reads is one line end");

	memset(&g, 0, sizeof(g));
	big = malloc(BM_CAP_LINE_MAX + 100);
	if (!big)
		tap_bail("no memory");
	memset(big, 'z', BM_CAP_LINE_MAX + 100);
	bm_lines_init(&l, collect, &g);
	bm_lines_feed(&l, "a\n", 2);
	bm_lines_feed(&l, big, BM_CAP_LINE_MAX);
	bm_lines_feed(&l, big, 100);
	bm_lines_feed(&l, "\nb\n", 3);
	tap_ok(g.n == 2 && !strcmp(g.lines[1], "b") && l.dropped == 1 && g.no[1] == 3,
	       "an over-long line is dropped and counted, the next line is whole");
	memset(&g, 0, sizeof(g));
	bm_lines_init(&l, collect, &g);
	bm_lines_feed(&l, big, BM_CAP_LINE_MAX);
	bm_lines_feed(&l, "\n", 1);
	tap_ok(g.n == 1 && strlen(g.lines[0]) > 0 && !l.dropped, "a line of exactly the limit is kept");
	free(big);
}

/* --- damaged records -------------------------------------------------------- */

static void test_diagnose(void)
{
	char line[BM_LINE_MAX];
	struct bm_damage d;
	const char *r = rec(RA, 17, 'R', "wl=dd test=dd32w m_real=1.5:s");
	size_t n = strlen(r) - 1;  /* no newline */
	char *p;

	memcpy(line, r, n + 1);
	p = strstr(line, "m_real=1.5");
	p[8] = '7';  /* a flipped digit */
	bm_damage_diagnose(line, n, &d);
	tap_ok(!strcmp(d.why, "bad crc") && !strcmp(d.run, RA) && d.seq == 17,
	       "a flipped byte: bad crc, run and seq read (%s %s %llu)", d.why, d.run,
	       (unsigned long long)d.seq);
	bm_damage_diagnose(r, n - 20, &d);
	tap_ok(!strcmp(d.why, "truncated") && d.seq == 17, "a cut line: truncated (%s)", d.why);
	memcpy(line, r, n + 1);
	line[n - 3] = 'x';
	bm_damage_diagnose(line, n, &d);
	tap_ok(!strcmp(d.why, "bad framing"), "a crc that is not hex: bad framing (%s)", d.why);
	snprintf(line, sizeof(line), "@@B1 zz%s", r + 7);
	bm_damage_diagnose(line, strlen(line) - 1, &d);
	tap_ok(!d.run[0] && !d.seq, "an unreadable run id: no run, no seq");
}

/* --- runs ------------------------------------------------------------------- */

static void feed(struct bm_cap *c, const char *s)
{
	bm_cap_feed(c, s, strlen(s), 1.0);
}

/* Run rn of kernel k: HELLO, one result, the repeat, the end; dmg damages the first R. */
static void feed_run(struct bm_cap *c, const char *rn, const char *k, int dmg)
{
	char hello[128], bad[BM_LINE_MAX];
	const char *r2 = rec(rn, 2, 'R', "wl=dd test=dd32w fs=ext4 rep=1 m_real=1.5:s");

	snprintf(hello, sizeof(hello), "v=1 kernel=%s suite=smoke", k);
	feed(c, "[    1.000000] some kernel message\n");
	feed(c, rec(rn, 1, 'H', hello));
	snprintf(bad, sizeof(bad), "%s", r2);
	if (dmg)
		strstr(bad, "wl=dd")[3] ^= 1;  /* a flipped bit: "wl=ed" */
	feed(c, bad);
	feed(c, "usb 1-1: new device\r\n");
	feed(c, r2);  /* the repeat */
	feed(c, rec(rn, 3, 'Z', "n=3 results=1 errors=0"));
}

static void test_runs(void)
{
	char dir[] = "/tmp/bm-capture-XXXXXX", path[512], *rep = NULL, *text;
	size_t replen = 0, len;
	struct bm_cap c;
	FILE *f;

	tu_mkdtemp(dir);
	bm_cap_init(&c, dir);
	c.report = f = open_memstream(&rep, &replen);
	feed(&c, "early firmware noise\n");
	feed_run(&c, RA, "6.1.0-53-amd64", 1);
	feed(&c, "[    0.000000] Linux version 6.1.0-53-amd64 (debian-kernel@lists.debian.org)\n");
	feed(&c, "[    0.100000] Command line: console=ttyS0\n");
	feed_run(&c, RB, "6.1.0-53-amd64", 0);
	/* a late copy of a record of the first run still goes to it */
	feed(&c, rec(RA, 2, 'R', "wl=dd test=dd32w fs=ext4 rep=1 m_real=1.5:s"));
	tap_ok(bm_cap_finish(&c) == 0, "finish writes the folders");
	fclose(f);
	tap_ok(c.nruns == 2 && !strcmp(c.runs[0]->run, RA) && !strcmp(c.runs[1]->run, RB),
	       "two runs (%zu)", c.nruns);
	tap_ok(c.nruns == 2 && !strcmp(c.runs[0]->label, "6.1.0-53-amd64") &&
	       !strcmp(c.runs[1]->label, "6.1.0-53-amd64_2"),
	       "the same release twice: labels as bootmark run makes them");
	tap_ok(c.nruns == 2 && c.runs[0]->r.status == BM_ST_COMPLETED &&
	       c.runs[1]->r.status == BM_ST_COMPLETED, "both complete (%s, %s)",
	       c.nruns ? c.runs[0]->r.status_why : "", c.nruns > 1 ? c.runs[1]->r.status_why : "");
	tap_ok(c.nruns && c.runs[0]->damaged == 1 && c.runs[0]->recovered == 1 && c.damaged == 1,
	       "the damaged first copy is counted and recovered from the repeat");
	tap_ok(rep && strstr(rep, "line 4 (offset 122): damaged record (run " RA " seq 2): bad crc"),
	       "the report names line, offset, run, seq and why");
	for (char *ln = rep, *nl; ln && *ln; ln = nl + 1) {
		nl = strchr(ln, '\n');
		if (!nl)
			break;
		tap_diag("%.*s", (int)(nl - ln), ln);
	}
	bm_path(path, sizeof(path), "%s/preamble.log", dir);
	tap_ok(!bm_read_file(path, &text, &len, 1 << 20) && !strcmp(text, "early firmware noise\n[    1.000000] some kernel message\n"),
	       "lines before any run go to preamble.log");
	free(text);
	bm_path(path, sizeof(path), "%s/6.1.0-53-amd64_2/console.log", dir);
	tap_ok(!bm_read_file(path, &text, &len, 1 << 20) && !strncmp(text, "[    0.000000] Linux version", 28) &&
	       strstr(text, "usb 1-1: new device\n"),
	       "the second boot's console starts at its banner, CRLF made LF");
	free(text);
	bm_path(path, sizeof(path), "%s/6.1.0-53-amd64/results.log", dir);
	tap_ok(!bm_read_file(path, &text, &len, 1 << 20) && len && text[len - 1] == '\n' &&
	       strstr(text, " Z n=3 "), "results.log holds the intact records");
	free(text);
	bm_path(path, sizeof(path), "%s/6.1.0-53-amd64/meta.json", dir);
	tap_ok(!bm_read_file(path, &text, &len, 1 << 20) && strstr(text, "\"captured\": true") &&
	       strstr(text, "\"run\": \"" RA "\""), "meta.json says captured");
	free(text);
	bm_cap_free(&c);
	free(rep);
	bm_rm_rf(dir);
}

/* A lost HELLO, a boot that never says hello, a run cut short. */
static void test_broken(void)
{
	struct bm_cap c;

	bm_cap_init(&c, NULL);
	c.report = NULL;
	feed(&c, rec(RA, 2, 'P', "phase=mkfs fs=ext4 test=dd32w rep=1"));
	feed(&c, "[    0.000000] Linux version 6.12.0-test (gcc) #1\n");
	feed(&c, "Kernel panic - not syncing: VFS: Unable to mount root fs\n");
	feed(&c, "[    0.000000] Linux version 6.1.0-53-amd64 (gcc) #1\n");
	feed(&c, rec(RB, 1, 'H', "v=1 kernel=6.1.0-53-amd64"));
	feed(&c, rec(RB, 2, 'P', "phase=mkfs fs=ext4 test=dd32w rep=1"));
	feed(&c, "half a line without its end");
	bm_cap_finish(&c);
	tap_ok(c.nruns == 3, "three boots (%zu)", c.nruns);
	if (c.nruns != 3)
		goto out;
	/* records without their HELLO: a damaged stream, not a silent runner */
	tap_ok(c.runs[0]->r.status == BM_ST_PROTOCOL_ERROR && !c.runs[0]->kernel[0],
	       "a run whose HELLO was lost: protocol-error (%s)", c.runs[0]->r.status_why);
	tap_ok(c.runs[1]->r.status == BM_ST_PANIC && !strcmp(c.runs[1]->kernel, "6.12.0-test") &&
	       !c.runs[1]->run[0], "a boot without HELLO: its banner's release, panic");
	tap_ok(c.runs[2]->r.status == BM_ST_PROTOCOL_ERROR && !strcmp(c.runs[2]->run, RB) &&
	       c.runs[2]->con.n && strstr(c.runs[2]->con.p, "half a line without its end\n"),
	       "the banner's boot takes the run id of its HELLO; the last partial line is kept");
	tap_ok(c.ended == 3, "all ended at the finish");
out:
	bm_cap_free(&c);
}

static void test_silence(void)
{
	struct bm_cap c;

	bm_cap_init(&c, NULL);
	c.report = NULL;
	bm_cap_feed(&c, rec(RA, 1, 'H', "v=1 kernel=6.1.0-53-amd64"), 60, 10.0);
	bm_cap_tick(&c, 15.0, 30);
	tap_ok(c.ended == 0, "quiet for less than --silence: still running");
	bm_cap_tick(&c, 41.0, 30);
	bm_cap_flush(&c, 0);
	tap_ok(c.ended == 1 && c.runs[0]->r.status == BM_ST_HANG, "silent past --silence: hang (%s)",
	       c.runs[0]->r.status_why);
	bm_cap_free(&c);
}

static void test_src_parse(void)
{
	struct bm_src s;
	char err[256];

	tap_ok(!bm_src_parse(&s, BM_SRC_SERIAL, "/dev/ttyUSB0", 0, err, sizeof(err)) &&
	       s.baud == 115200 && !strcmp(s.desc, "serial:/dev/ttyUSB0,115200"),
	       "--serial: the default baud is 115200");
	tap_ok(!bm_src_parse(&s, BM_SRC_SERIAL, "/dev/ttyS1,9600", 0, err, sizeof(err)) &&
	       s.baud == 9600 && !strcmp(s.path, "/dev/ttyS1"), "--serial DEV,9600");
	tap_ok(bm_src_parse(&s, BM_SRC_SERIAL, "/dev/ttyS1,12345", 0, err, sizeof(err)) == -EINVAL &&
	       strstr(err, "12345"), "--serial: a rate that is not standard is refused (%s)", err);
	tap_ok(!bm_src_parse(&s, BM_SRC_TCP, "console:7001", 0, err, sizeof(err)) &&
	       !strcmp(s.host, "console") && !strcmp(s.port, "7001"), "--tcp HOST:PORT");
	tap_ok(!bm_src_parse(&s, BM_SRC_TCP, "[::1]:7001", 0, err, sizeof(err)) &&
	       !strcmp(s.host, "::1"), "--tcp [v6]:PORT");
	tap_ok(bm_src_parse(&s, BM_SRC_TCP, "console", 0, err, sizeof(err)) == -EINVAL &&
	       bm_src_parse(&s, BM_SRC_TCP, "console:0", 0, err, sizeof(err)) == -EINVAL &&
	       bm_src_parse(&s, BM_SRC_TCP, "console:70000", 0, err, sizeof(err)) == -EINVAL,
	       "--tcp without a port or with a bad one is refused");
}

/* --follow: a file that grows, is truncated, is replaced. */
static void test_src_follow(void)
{
	char dir[] = "/tmp/bm-capsrc-XXXXXX", path[256], old[300], buf[64], err[64];
	struct bm_src s;
	ssize_t n;
	FILE *f;

	tu_mkdtemp(dir);
	snprintf(path, sizeof(path), "%s/console.log", dir);
	f = fopen(path, "w");
	fputs("first\n", f);
	fclose(f);
	bm_src_parse(&s, BM_SRC_FILE, path, 1, err, sizeof(err));
	s.report = NULL;
	tap_ok(!bm_src_open(&s), "the log opens");
	n = bm_src_read(&s, buf, sizeof(buf), 10);
	tap_ok(n == 6 && !memcmp(buf, "first\n", 6), "its bytes");
	tap_ok(bm_src_read(&s, buf, sizeof(buf), 10) == 0, "at its end: nothing yet, not the end");
	f = fopen(path, "a");
	fputs("more\n", f);
	fclose(f);
	n = bm_src_read(&s, buf, sizeof(buf), 10);
	tap_ok(n == 5 && !memcmp(buf, "more\n", 5), "what was appended");
	if (truncate(path, 0))
		tap_bail("cannot truncate the log");
	f = fopen(path, "a");
	fputs("x\n", f);
	fclose(f);
	bm_src_read(&s, buf, sizeof(buf), 10);  /* sees the truncation */
	n = bm_src_read(&s, buf, sizeof(buf), 10);
	tap_ok(n == 2 && !memcmp(buf, "x\n", 2), "truncated: read again from the start");
	snprintf(old, sizeof(old), "%s.1", path);
	rename(path, old);
	f = fopen(path, "w");
	fputs("rotated\n", f);
	fclose(f);
	bm_src_read(&s, buf, sizeof(buf), 10);  /* sees the other inode */
	n = bm_src_read(&s, buf, sizeof(buf), 10);
	tap_ok(n == 8 && !memcmp(buf, "rotated\n", 8), "rotated: the new file from its start");
	bm_src_close(&s);
	bm_src_parse(&s, BM_SRC_FILE, path, 0, err, sizeof(err));
	bm_src_open(&s);
	bm_src_read(&s, buf, sizeof(buf), 10);
	tap_ok(bm_src_read(&s, buf, sizeof(buf), 10) == -ENODATA, "without --follow: the end");
	bm_src_close(&s);
	bm_rm_rf(dir);
}

int main(void)
{
	tap_plan(0);
	test_lines();
	test_diagnose();
	test_runs();
	test_broken();
	test_silence();
	test_src_parse();
	test_src_follow();
	return tap_done();
}
