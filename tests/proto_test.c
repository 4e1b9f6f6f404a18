/* SPDX-License-Identifier: MIT */
/* Unit tests for common/proto.c, common/stream.c and common/crc32.c. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"
#include "tap.h"
#include "testrec.h"

#define RUN "0123abcd"

static struct bm_record rec;  /* big: keep it off the stack */

/* A record line the caller frees (tests/testrec.h builds it). */
static char *mk(const char *run, uint64_t seq, char type, const char *pairs)
{
	return strdup(tu_rec(run, seq, type, pairs));
}

/* Seals a hand-written record body with its CRC, for malformed-input tests. */
static void seal(const char *body, char *out, size_t len)
{
	snprintf(out, len, "%s #%08x\n", body, (unsigned)bm_crc32(0, body, strlen(body)));
}

/* Scans a copy in a heap block of exactly len bytes, so ASan sees overreads. */
static int scan_copy(const char *line, size_t len, size_t *pos)
{
	char *copy = malloc(len ? len : 1);
	int rc;

	memcpy(copy, line, len);
	rc = bm_scan(copy, len, pos, &rec);
	free(copy);
	return rc;
}

static int scan1(const char *line)
{
	size_t pos = 0;

	return scan_copy(line, strlen(line), &pos);
}

static void test_crc(void)
{
	TAP_EQ_INT(bm_crc32(0, "123456789", 9), 0xcbf43926u, "crc32(123456789) is zlib's");
	TAP_EQ_INT(bm_crc32(bm_crc32(0, "1234", 4), "56789", 5), 0xcbf43926u,
		   "crc32 continues across calls");
	TAP_EQ_INT(bm_crc32(0, "", 0), 0, "crc32 of nothing is 0");
}

static void test_encode(void)
{
	struct bm_line l;
	char big[BM_VAL_MAX + 1];
	int n;

	bm_line_start(&l, RUN, 7, 'R');
	bm_line_add(&l, "wl", "dd");
	bm_line_addf(&l, "m_real", "%.3f:%s", 1.2345, "s");
	n = bm_line_finish(&l);
	TAP_EQ_INT(n, (int)strlen(l.buf), "finish returns the line length");
	tap_ok(!strncmp(l.buf, "@@B1 " RUN " 7 R wl=dd m_real=1.234:s #", 32 + 8) &&
	       l.buf[n - 1] == '\n', "encoded line: %.*s", n - 1, l.buf);
	TAP_EQ_INT(bm_line_start(&l, "0123ABCD", 1, 'H'), -EINVAL, "uppercase run id refused");
	TAP_EQ_INT(bm_line_start(&l, "0123abc", 1, 'H'), -EINVAL, "short run id refused");
	TAP_EQ_INT(bm_line_start(&l, RUN, 0, 'H'), -EINVAL, "seq 0 refused");
	TAP_EQ_INT(bm_line_start(&l, RUN, 1, 'X'), -EINVAL, "unknown type refused");
	bm_line_start(&l, RUN, 1, 'H');
	TAP_EQ_INT(bm_line_add(&l, "Key", "v"), -EINVAL, "uppercase key refused");
	TAP_EQ_INT(bm_line_finish(&l), -EINVAL, "the error is sticky until finish");
	bm_line_start(&l, RUN, 1, 'H');
	TAP_EQ_INT(bm_line_add(&l, "abcdefghijabcdefghijabcdefghij12", "v"), -EINVAL,
		   "32-character key refused");
	bm_line_start(&l, RUN, 1, 'H');
	bm_line_add(&l, "a", "1");
	TAP_EQ_INT(bm_line_add(&l, "a", "2"), -EINVAL, "duplicate key refused");
	memset(big, 'x', BM_VAL_MAX);
	big[BM_VAL_MAX] = '\0';
	bm_line_start(&l, RUN, 1, 'H');
	TAP_EQ_INT(bm_line_add(&l, "v", big), -E2BIG, "512-byte value refused");
	big[200] = '\0';
	bm_line_start(&l, RUN, 1, 'H');
	TAP_EQ_INT(bm_line_addf(&l, "K", "%d", 1), -EINVAL, "addf checks the key too");
	bm_line_start(&l, RUN, 1, 'H');
	n = 0;
	for (int i = 0; i < 6 && !n; i++) {
		char key[16];  /* room for any int: gcc 14 with ASan warns at 8 */

		snprintf(key, sizeof(key), "k%d", i);
		n = bm_line_add(&l, key, big);
	}
	TAP_EQ_INT(n, -E2BIG, "a line past BM_LINE_MAX is refused");
	TAP_EQ_INT(bm_line_finish(&l), -E2BIG, "finish reports the overflow");
	tap_ok(l.len < BM_LINE_MAX && strlen(l.buf) == l.len, "buffer intact after overflow");
}

static void test_roundtrip(void)
{
	static const char *const vals[] = {
		"size=32M bs=1M", "100%", "a#b", " #deadbeef", "#", "h\xc3\xa9llo \xe2\x82\xac",
		"\x01\x7f\xff\t\r\n", "", "a=b=c", "%41", "@@B1 ffffffff 1 H #00000000",
	};
	int n = (int)(sizeof(vals) / sizeof(vals[0]));
	struct bm_line l;
	size_t pos = 0;
	int ok = 1, len;

	bm_line_start(&l, RUN, 42, 'E');
	for (int i = 0; i < n; i++) {
		char key[8];

		snprintf(key, sizeof(key), "k%d", i);
		bm_line_add(&l, key, vals[i]);
	}
	len = bm_line_finish(&l);
	tap_ok(len > 0 && !memchr(l.buf, '\r', (size_t)len), "encode values with spaces, %%, #, UTF-8, controls");
	TAP_EQ_INT(scan_copy(l.buf, (size_t)len, &pos), 1, "decode the round trip");
	TAP_EQ_INT(pos, len - 1, "scan stops after the CRC");
	TAP_EQ_INT(rec.nkv, n, "all pairs decoded");
	for (int i = 0; i < n && i < (int)rec.nkv; i++)
		ok &= !strcmp(rec.kv[i].val, vals[i]);
	tap_ok(ok, "every value survives the round trip");
	TAP_EQ_STR(rec.run, RUN, "run id decoded");
	TAP_EQ_INT(rec.seq, 42, "seq decoded");
	TAP_EQ_INT(rec.type, 'E', "type decoded");
	tap_ok(!strncmp(rec.raw, l.buf, (size_t)len - 1) && strlen(rec.raw) == (size_t)len - 1,
	       "raw holds the record without the newline");
	TAP_EQ_STR(bm_rec_get(&rec, "k7"), "", "empty value");
	tap_ok(bm_rec_get(&rec, "nope") == NULL, "absent key gives NULL");
}

/* A flip may only be accepted when it did not change the record (the CRC's
 * letter case, or the newline after it). */
static void test_bitflips(void)
{
	char *line = mk(RUN, 3, 'R', "wl=dd test=dd32w fs=ext4 rep=1 m_real=1.234:s");
	size_t len = strlen(line);
	char orig[BM_LINE_MAX];
	unsigned flips = 0, rejected = 0, bad = 0;

	scan1(line);
	memcpy(orig, rec.raw, sizeof(orig));
	for (size_t i = 0; i < len; i++) {
		for (int b = 0; b < 8; b++, flips++) {
			size_t pos = 0;
			int rc;

			line[i] ^= (char)(1 << b);
			rc = scan_copy(line, len, &pos);
			line[i] ^= (char)(1 << b);
			if (rc != 1)
				rejected++;
			else if (strcmp(rec.raw, orig) || rec.seq != 3 ||
				 strcmp(bm_rec_get(&rec, "m_real"), "1.234:s"))
				bad++;
		}
	}
	TAP_EQ_INT(bad, 0, "no single-bit flip yields a different record");
	tap_ok(rejected + 8 + 8 >= flips, "%u of %u flips rejected (only CRC case and newline pass)",
	       rejected, flips);
	free(line);
}

static void test_strict(void)
{
	static const struct { const char *body; int want; } cases[] = {
		{ "@@B1 " RUN " 1 H a=1", 1 },
		{ "@@B1 0123ABCD 1 H a=1", -EBADMSG },
		{ "@@B1 0123abc 1 H a=1", -EBADMSG },
		{ "@@B1 " RUN " 0 H a=1", -EBADMSG },
		{ "@@B1 " RUN " 01 H a=1", -EBADMSG },
		{ "@@B1 " RUN " +1 H a=1", -EBADMSG },
		{ "@@B1 " RUN " -1 H a=1", -EBADMSG },
		{ "@@B1 " RUN " 9223372036854775807 H", 1 },
		{ "@@B1 " RUN " 9223372036854775808 H", -EBADMSG },
		{ "@@B1 " RUN " 99999999999999999999999 H", -EBADMSG },
		{ "@@B1 " RUN " 1 X a=1", -EBADMSG },
		{ "@@B1 " RUN " 1 h a=1", -EBADMSG },
		{ "@@B1 " RUN " 1 HH a=1", -EBADMSG },
		{ "@@B1 " RUN " 1 H Key=1", -EBADMSG },
		{ "@@B1 " RUN " 1 H =1", -EBADMSG },
		{ "@@B1 " RUN " 1 H novalue", -EBADMSG },
		{ "@@B1 " RUN " 1 H abcdefghijabcdefghijabcdefghij1=1", 1 },
		{ "@@B1 " RUN " 1 H abcdefghijabcdefghijabcdefghij12=1", -EBADMSG },
		{ "@@B1 " RUN " 1 H a=%4", -EBADMSG },
		{ "@@B1 " RUN " 1 H a=%00", -EBADMSG },
		{ "@@B1 " RUN " 1 H a=%G1", -EBADMSG },
		{ "@@B1 " RUN " 1 H a=%4a%4A", 1 },
		{ "@@B1 " RUN " 1 H a=1  b=2", -EBADMSG },
		{ "@@B1 " RUN " 1 H a=1\tb=2", -EBADMSG },
		{ "@@B1 " RUN " 1 H a=1 a=2", -EBADMSG },
		{ "@@B1 " RUN "  1 H", -EBADMSG },
		{ "@@B1 " RUN " 1 H", 1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char line[BM_LINE_MAX * 2];

		seal(cases[i].body, line, sizeof(line));
		TAP_EQ_INT(scan1(line), cases[i].want, cases[i].body);
	}
}

static void test_limits(void)
{
	char body[BM_LINE_MAX * 2], line[BM_LINE_MAX * 3];
	int at = snprintf(body, sizeof(body), "@@B1 %s 1 R", RUN);

	for (int i = 0; i < BM_KV_MAX + 1; i++)
		at += snprintf(body + at, sizeof(body) - (size_t)at, " k%d=1", i);
	seal(body, line, sizeof(line));
	TAP_EQ_INT(scan1(line), -EBADMSG, "41 pairs refused");
	at = snprintf(body, sizeof(body), "@@B1 %s 1 R v=", RUN);
	memset(body + at, 'x', BM_VAL_MAX - 1);
	body[at + BM_VAL_MAX - 1] = '\0';
	seal(body, line, sizeof(line));
	TAP_EQ_INT(scan1(line), 1, "511-byte value accepted");
	strcat(body, "x");
	seal(body, line, sizeof(line));
	TAP_EQ_INT(scan1(line), -EBADMSG, "512-byte value refused");
	at = snprintf(body, sizeof(body), "@@B1 %s 1 R", RUN);
	for (int i = 0; at < BM_LINE_MAX; i++)
		at += snprintf(body + at, sizeof(body) - (size_t)at, " k%d=%.60s", i,
			       "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
	seal(body, line, sizeof(line));
	TAP_EQ_INT(scan1(line), -EBADMSG, "a record longer than BM_LINE_MAX refused");
	seal("@@B1 " RUN " 1 H a=1", line, sizeof(line));
	for (char *p = strchr(line, '#') + 1; *p != '\n'; p++)
		*p = (char)(*p >= 'a' ? *p - 32 : *p);
	TAP_EQ_INT(scan1(line), 1, "uppercase CRC digits accepted");
	tap_ok(strspn(rec.raw + strlen(rec.raw) - 8, "0123456789abcdef") == 8,
	       "raw keeps the CRC in lowercase: %s", rec.raw);
	line[strlen(line) - 2] = '\0';
	TAP_EQ_INT(scan1(line), -EBADMSG, "7-digit CRC refused");
}

static void test_splice(void)
{
	char *a = mk(RUN, 5, 'P', "phase=mkfs fs=ext4 test=dd32w rep=1");
	char *b = mk(RUN, 6, 'B', "phase=mkfs t=1.5");
	char buf[4 * BM_LINE_MAX];
	size_t half = strlen(a) / 2, pos = 0;
	int n = 0, rc;

	snprintf(buf, sizeof(buf), "%.*s[    1.234567] EXT4-fs (vdb): mounted%s", (int)half, a,
		 a + half);
	TAP_EQ_INT(scan1(buf), -EBADMSG, "printk text spliced into a record is rejected");
	snprintf(buf, sizeof(buf), "[    1.234567] virtio_blk virtio1: 1.00 GiB%s", a);
	TAP_EQ_INT(scan1(buf), 1, "printk text before a record is accepted");
	a[strlen(a) - 1] = '\0';
	snprintf(buf, sizeof(buf), "%s[    1.234567] random: crng init done\n", a);
	TAP_EQ_INT(scan1(buf), 1, "printk text after a record is accepted");
	snprintf(buf, sizeof(buf), "%s junk %s", a, b);
	while ((rc = scan_copy(buf, strlen(buf), &pos)) != 0)
		n += rc == 1 ? (int)rec.seq : 100;
	TAP_EQ_INT(n, 5 + 6, "two records on one line both decode");
	snprintf(buf, sizeof(buf), "%s\r\n", a);
	TAP_EQ_INT(scan1(buf), 1, "CRLF line ending accepted");
	snprintf(buf, sizeof(buf), "%.*s%s", (int)half, a, b);
	pos = 0;
	rc = scan_copy(buf, strlen(buf), &pos);
	TAP_EQ_INT(rc, -EBADMSG, "a record cut short by a newer one is rejected");
	rc = scan_copy(buf, strlen(buf), &pos);
	tap_ok(rc == 1 && rec.seq == 6, "and the newer one is still found");
	free(a);
	free(b);
}

/* Arbitrary bytes, markers everywhere: must stay in bounds (ASan) and end. */
static void test_garbage(void)
{
	size_t len = 64 * 1024, pos = 0, calls = 0;
	char *g = malloc(len);
	unsigned seed = 12345;
	int rc;

	for (size_t i = 0; i < len; i++) {
		seed = seed * 1103515245u + 12345u;
		g[i] = (char)(seed >> 16);
	}
	for (size_t i = 0; i + 40 < len; i += 997)
		memcpy(g + i, "@@B1 " RUN " 1 R k=\xff\x00%", 24);
	while ((rc = bm_scan(g, len, &pos, &rec)) != 0 && calls < len)
		calls++;
	tap_ok(calls > 50 && calls < len && pos == len, "64 KiB of garbage: %zu markers, no record",
	       calls);
	memset(g, 'a', len);
	memcpy(g, "@@B1 " RUN " 1 R k=", 20);
	pos = 0;
	TAP_EQ_INT(bm_scan(g, len, &pos, &rec), -EBADMSG, "64 KiB value is refused");
	memcpy(g + len - 5, "@@B1 ", 5);
	pos = len - 5;
	TAP_EQ_INT(bm_scan(g, len, &pos, &rec), -EBADMSG, "a marker at the very end is refused");
	pos = 0;
	TAP_EQ_INT(bm_scan(g, 0, &pos, &rec), 0, "an empty line has no record");
	for (size_t i = 0; i + 5 <= len; i += 5)
		memcpy(g + i, "@@B1 ", 5);
	pos = calls = 0;
	while (bm_scan(g, len, &pos, &rec) != 0)
		calls++;
	TAP_EQ_INT(calls, len / 5, "a line of bare markers: each one tried once");
	free(g);
}

/* ---- stream ----------------------------------------------------------- */

/* A complete run: hello, phase, two results, an error, the repeat, end. */
static int run_lines(char **l, const char *run, int end_n)
{
	char z[64];
	int n = 0;

	snprintf(z, sizeof(z), "n=%d results=2 errors=1", end_n);
	l[n++] = mk(run, 1, 'H', "v=1 kernel=6.1.0-53-amd64 machine=x86_64");
	l[n++] = mk(run, 2, 'P', "phase=run fs=ext4 test=dd32w rep=1");
	l[n++] = mk(run, 3, 'R', "wl=dd test=dd32w fs=ext4 rep=1 m_real=1.234:s");
	l[n++] = mk(run, 4, 'R', "wl=dd test=dd32r fs=ext4 rep=1 m_real=0.5:s");
	l[n++] = mk(run, 5, 'E', "class=bench msg=oops");
	l[n++] = strdup(l[2]);
	l[n++] = strdup(l[3]);
	l[n++] = mk(run, 6, 'Z', z);
	return n;
}

/* Feeds lines (skipping index skip), returns the check result and reason. */
static int judge(struct bm_stream *s, char **l, int n, int skip, char *why)
{
	for (int i = 0; i < n; i++)
		if (i != skip)
			bm_stream_feed(s, l[i], strlen(l[i]));
	return bm_stream_check(s, why, 128);
}

static void free_lines(char **l, int n)
{
	for (int i = 0; i < n; i++)
		free(l[i]);
}

static void test_stream_basic(void)
{
	struct bm_stream s;
	char *l[16], why[128];
	int n = run_lines(l, RUN, 6);

	bm_stream_init(&s, RUN);
	TAP_EQ_INT(bm_stream_check(&s, why, sizeof(why)), -ENODATA, "empty stream: no data");
	TAP_EQ_STR(why, "no records", "empty stream: reason");
	TAP_EQ_INT(judge(&s, l, n, -1, why), 0, "complete run passes");
	TAP_EQ_INT(s.conflicts, 0, "identical repeats merge without conflict");
	TAP_EQ_INT(s.hellos, 1, "one hello");
	TAP_EQ_INT(s.end_n, 6, "end n read");
	tap_ok(bm_stream_get(&s, 3) && bm_stream_get(&s, 3)->type == 'R', "get seq 3");
	tap_ok(!bm_stream_get(&s, 7) && !bm_stream_get(&s, 0), "get out of range is NULL");
	bm_stream_free(&s);

	bm_stream_init(&s, RUN);
	judge(&s, l, n, 1, why);
	TAP_EQ_STR(why, "missing seq 2", "a lost line is detected");
	bm_stream_free(&s);

	bm_stream_init(&s, RUN);
	judge(&s, l, n, 7, why);
	TAP_EQ_STR(why, "no end record", "a lost end record is detected");
	bm_stream_free(&s);

	bm_stream_init(&s, RUN);
	judge(&s, l, n, 0, why);
	TAP_EQ_STR(why, "no hello", "a lost hello is detected");
	bm_stream_free(&s);
	free_lines(l, n);
}

static void test_stream_repeat(void)
{
	struct bm_stream s;
	char *l[16], why[128];
	int n = run_lines(l, RUN, 6);

	l[2][30] ^= 4;
	bm_stream_init(&s, RUN);
	TAP_EQ_INT(judge(&s, l, n, -1, why), 0, "the repeat recovers a damaged line");
	TAP_EQ_INT(s.bad_crc, 1, "the damaged copy is counted");
	bm_stream_free(&s);

	l[5][30] ^= 4;
	bm_stream_init(&s, RUN);
	judge(&s, l, n, -1, why);
	TAP_EQ_STR(why, "missing seq 3", "both copies damaged: missing");
	bm_stream_free(&s);
	l[2][30] ^= 4;
	free(l[5]);
	l[5] = mk(RUN, 3, 'R', "wl=dd test=dd32w fs=ext4 rep=1 m_real=9.999:s");
	bm_stream_init(&s, RUN);
	judge(&s, l, n, -1, why);
	TAP_EQ_STR(why, "conflicting copies of seq 3", "conflicting duplicate detected");
	TAP_EQ_INT(s.conflicts, 1, "conflict counted");
	bm_stream_free(&s);
	free_lines(l, n);
}

static void test_stream_foreign(void)
{
	struct bm_stream s;
	char *l[16], *o[16], why[128];
	int n = run_lines(l, RUN, 6), m = run_lines(o, "deadbeef", 6);

	bm_stream_init(&s, RUN);
	for (int i = 0; i < m; i++)
		bm_stream_feed(&s, o[i], strlen(o[i]));
	TAP_EQ_INT(judge(&s, l, n, -1, why), 0, "records of another run are ignored");
	TAP_EQ_INT(s.foreign, m, "and counted");
	bm_stream_free(&s);

	bm_stream_init(&s, "");
	bm_stream_feed(&s, o[6], strlen(o[6]));
	TAP_EQ_INT(judge(&s, l, n, -1, why), 0, "run id taken from the hello");
	TAP_EQ_STR(s.run, RUN, "adopted run id");
	TAP_EQ_INT(s.foreign, 1, "a stale record before the hello is dropped");
	bm_stream_free(&s);
	free_lines(l, n);
	free_lines(o, m);
}

static void test_stream_end(void)
{
	struct bm_stream s;
	char *l[16], why[128];
	int n = run_lines(l, RUN, 5);

	bm_stream_init(&s, RUN);
	judge(&s, l, n, -1, why);
	TAP_EQ_STR(why, "end n=5 but seq 6 seen", "end n mismatch detected");
	bm_stream_free(&s);
	free(l[7]);
	l[7] = mk(RUN, 6, 'Z', "n=6 results=3 errors=1");
	bm_stream_init(&s, RUN);
	judge(&s, l, n, -1, why);
	TAP_EQ_STR(why, "end results=3 but 2 result records", "end result count checked");
	bm_stream_free(&s);
	free(l[7]);
	l[7] = mk(RUN, 1000001, 'Z', "n=1000001 results=2 errors=1");
	bm_stream_init(&s, RUN);
	judge(&s, l, n, -1, why);
	TAP_EQ_STR(why, "no end record", "seq past 1,000,000 refused");
	TAP_EQ_INT(s.bad_crc, 1, "and counted as malformed");
	bm_stream_free(&s);
	free(l[7]);
	l[7] = mk(RUN, 6, 'H', "v=1");
	bm_stream_init(&s, RUN);
	judge(&s, l, n, -1, why);
	TAP_EQ_STR(why, "2 hello records (the guest rebooted)", "second hello detected");
	bm_stream_free(&s);
	free_lines(l, n);
}

/*
 * M records (bootmark.lava=1): one metric each after its R, with a seq of
 * their own, not repeated before Z, counted neither as results nor errors.
 */
static void test_stream_metric(void)
{
	struct bm_stream s;
	char *l[16], why[128] = "";
	int n = 0;

	l[n++] = mk(RUN, 1, 'H', "v=1 kernel=6.1.0-53-amd64");
	l[n++] = mk(RUN, 2, 'R', "wl=dd test=dd32w fs=ext4 rep=1 m_real=1.5:s m_bw=81.8:MiB/s");
	l[n++] = mk(RUN, 3, 'M', "id=ext4__dd32w__r1__real result=pass measurement=1.5 units=s");
	l[n++] = mk(RUN, 4, 'M', "id=ext4__dd32w__r1__bw result=pass measurement=81.8 units=MiB/s");
	l[n++] = mk(RUN, 5, 'E', "class=setup msg=no fs=ext4 test=dd32r rep=1");
	l[n++] = mk(RUN, 6, 'M', "id=ext4__dd32r__r1 result=fail measurement=0 units=none");
	l[n++] = strdup(l[1]);
	l[n++] = mk(RUN, 7, 'Z', "n=7 results=1 errors=1");
	TAP_EQ_INT(scan1(l[3]), 1, "an M record decodes");
	tap_ok(rec.type == 'M' && !strcmp(bm_rec_get(&rec, "units") ?: "", "MiB/s"),
	       "M type and units");
	bm_stream_init(&s, RUN);
	TAP_EQ_INT(judge(&s, l, n, -1, why), 0, "a run with M records is complete");
	TAP_EQ_STR(why, "complete: 7 records", "every M record counted as a record");
	bm_stream_free(&s);
	bm_stream_init(&s, RUN);
	judge(&s, l, n, 3, why);
	TAP_EQ_STR(why, "missing seq 4", "a lost M record is a lost line");
	bm_stream_free(&s);
	free_lines(l, n);
}

/* Lines as they arrive: CRLF, printk interleaved, one record split. */
static void test_stream_log(void)
{
	struct bm_stream s;
	char *l[16], why[128], buf[2 * BM_LINE_MAX];
	int n = run_lines(l, RUN, 6);

	bm_stream_init(&s, RUN);
	for (int i = 0; i < n; i++) {
		l[i][strlen(l[i]) - 1] = '\0';
		snprintf(buf, sizeof(buf), "[  %d.000000] ata1: link down %s\r\n", i, l[i]);
		bm_stream_feed(&s, buf, strlen(buf));
	}
	tap_ok(bm_stream_check(&s, why, sizeof(why)) == 0, "CRLF and printk prefixes: %s", why);
	bm_stream_free(&s);
	free_lines(l, n);
}

int main(void)
{
	tap_plan(0);
	test_crc();
	test_encode();
	test_roundtrip();
	test_bitflips();
	test_strict();
	test_limits();
	test_splice();
	test_garbage();
	test_stream_basic();
	test_stream_repeat();
	test_stream_foreign();
	test_stream_end();
	test_stream_metric();
	test_stream_log();
	return tap_done();
}
