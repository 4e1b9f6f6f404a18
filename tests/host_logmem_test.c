/* SPDX-License-Identifier: MIT */
/*
 * Issue 43, case 9: reading a log costs memory in proportion to what is
 * kept, not to the log.  A kept record cost a decoded struct bm_record
 * (22 KB) whatever its size: 300,000 heartbeats took 6.7 GB.  Here the heap
 * the stream holds per record is measured (mallinfo2, or ASan's allocator
 * under the sanitizers), the limits (BM_STREAM_KEEP_MAX, BM_RESULTS_MAX)
 * are reached and said, and the reader that gives a log in pieces finds
 * every record of a line longer than a piece, and never waits on a FIFO.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define BM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BM_ASAN 1
#endif
#endif
#ifdef BM_ASAN
/* ASan's allocator (sanitizer/allocator_interface.h, which only clang ships) */
size_t __sanitizer_get_current_allocated_bytes(void);
#else
#include <malloc.h>
#endif

#include "results.h"
#include "tap.h"
#include "testrec.h"
#include "testutil.h"

#define RUN "0badc0de"

/* Heap bytes in use now. */
static size_t heap_used(void)
{
#ifdef BM_ASAN
	return __sanitizer_get_current_allocated_bytes();
#else
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
#endif
}

/* A boot of n records: HELLO, n - 2 heartbeats or dd results, END. */
static char *make_log(size_t n, int results, size_t *len)
{
	static const char *const hello[] = { "v", "1", "kernel", "6.1.0-53-amd64", "fs", "ext4",
					     NULL };
	char *text = NULL, t[32], rep[16], nbuf[24], res[24];
	FILE *f = open_memstream(&text, len);
	uint64_t seq;

	if (!f)
		tap_bail("open_memstream");
	tu_put_rec(f, RUN, 1, 'H', hello);
	for (seq = 2; seq < n; seq++) {
		snprintf(t, sizeof(t), "%llu.0", (unsigned long long)seq);
		snprintf(rep, sizeof(rep), "%llu", (unsigned long long)seq - 1);
		if (results) {
			const char *r[] = { "wl", "dd", "test", "dd32w", "fs", "ext4", "rep", rep,
					    "params", "size=32M bs=1M", "mkfs", "mkfs.ext4 -F -q",
					    "mount", "noatime", "partial", "0", "m_real", "1.5:s",
					    "m_utime", "0.01:s", "m_stime", "0.2:s", NULL };

			tu_put_rec(f, RUN, seq, 'R', r);
		} else {
			const char *b[] = { "phase", "run", "t", t, NULL };

			tu_put_rec(f, RUN, seq, 'B', b);
		}
	}
	snprintf(nbuf, sizeof(nbuf), "%llu", (unsigned long long)n);
	snprintf(res, sizeof(res), "%zu", results ? n - 2 : 0);
	{
		const char *z[] = { "n", nbuf, "results", res, "errors", "0", NULL };

		tu_put_rec(f, RUN, n, 'Z', z);
	}
	fclose(f);
	return text;
}

/* Heap bytes a stream holds per record of a log of n records. */
static double stream_cost(size_t n, int results, size_t *log_per_record)
{
	struct bm_stream s;
	size_t len, before, after;
	char *text = make_log(n, results, &len);
	char why[256];

	*log_per_record = len / n;
	before = heap_used();
	bm_stream_init(&s, "");
	bm_stream_feed_text(&s, text, len);
	after = heap_used();
	tap_ok(bm_stream_check(&s, why, sizeof(why)) == 0, "%zu records: %s", n, why);
	bm_stream_free(&s);
	free(text);
	return (double)(after - before) / (double)n;
}

static void test_memory_per_record(void)
{
	size_t line;
	double per = stream_cost(20000, 0, &line);

	/* 22 KB per record before: a decoded struct bm_record each */
	tap_ok(per < 3 * line + 64, "a heartbeat costs %.0f bytes of heap (%zu in the log), "
	       "not a %zu-byte decoded record", per, line, sizeof(struct bm_record));
	per = stream_cost(20000, 1, &line);
	tap_ok(per < 2 * line + 64, "a result record costs %.0f bytes of heap (%zu in the log)",
	       per, line);
}

static void test_stream_limit(void)
{
	struct bm_stream s;
	size_t len;
	char *text = make_log(5000, 0, &len), why[256];
	int rc;

	bm_stream_init(&s, "");
	s.keep_max = 64 << 10;  /* BM_STREAM_KEEP_MAX (64 MiB) scaled down */
	bm_stream_feed_text(&s, text, len);
	tap_ok(s.kept <= s.keep_max && s.unkept > 0, "kept %zu bytes of %zu, %u records not kept",
	       s.kept, len, s.unkept);
	rc = bm_stream_check(&s, why, sizeof(why));
	tap_ok(rc == -EPROTO && strstr(why, "were not kept"), "the check says so: %s", why);
	bm_stream_free(&s);
	free(text);
}

static void test_results_limit(void)
{
	struct bm_results r;
	struct bm_stream s;
	size_t n = BM_RESULTS_MAX + 7, len;
	char *text = make_log(n + 2, 1, &len);

	bm_stream_init(&s, "");
	bm_stream_feed_text(&s, text, len);
	tap_ok(!bm_results_from_stream(&r, &s), "%zu results read", n);
	TAP_EQ_INT(r.nres, BM_RESULTS_MAX, "BM_RESULTS_MAX of them kept");
	TAP_EQ_INT(r.unkept_res, 7, "the rest counted");
	bm_classify(&r, NULL, BM_WATCH_NONE, NULL);
	tap_ok(r.status == BM_ST_PROTOCOL_ERROR && strstr(r.status_why, "past the 8192"),
	       "the boot is a protocol-error that says why: %s", r.status_why);
	bm_results_free(&r);
	bm_stream_free(&s);
	free(text);
}

struct seen {
	unsigned lines;
	uint64_t last_off;
	int ordered;
};

static int count_cb(void *arg, const char *line, size_t len, uint64_t off)
{
	struct seen *w = arg;

	w->ordered &= !w->lines || off > w->last_off;
	w->last_off = off;
	w->lines++;
	return 0;
}

/* A line of 3 MiB (three pieces and more), records all along it, some of
 * them across the places a piece ends: every one is found. */
static void test_long_line(const char *dir)
{
	char path[PATH_MAX], fifo[PATH_MAX];
	struct bm_results r;
	struct seen w = { 0, 0, 1 };
	struct bm_line l;
	uint64_t size, seq;
	size_t at = 0;
	FILE *f = NULL;
	int rc;

	snprintf(path, sizeof(path), "%s/long.log", dir);
	f = fopen(path, "w");
	if (!f)
		tap_bail("cannot write a log");
	for (seq = 1; seq <= 3000; seq++) {
		char t[24];

		bm_line_start(&l, RUN, seq, seq == 1 ? 'H' : seq == 3000 ? 'Z' : 'B');
		if (seq == 1) {
			bm_line_add(&l, "v", "1");
		} else if (seq == 3000) {
			bm_line_add(&l, "n", "3000");
			bm_line_add(&l, "results", "0");
			bm_line_add(&l, "errors", "0");
		} else {
			snprintf(t, sizeof(t), "%llu.5", (unsigned long long)seq);
			bm_line_add(&l, "phase", "run");
			bm_line_add(&l, "t", t);
		}
		bm_line_finish(&l);
		l.buf[--l.len] = '\0';  /* no newline: one line of everything */
		/* printk chatter between records, of every length; the HELLO
		 * across the place the first piece would be cut without care */
		size_t chat = seq == 1 ? BM_LOG_PIECE - (BM_LINE_MAX - 1) - 10 : (seq * 7919) % 2500;

		for (size_t k = 0; k < chat; k++, at++)
			fputc('a' + (int)(k % 26), f);
		fputs(l.buf, f);
		at += l.len;
	}
	fputc('\n', f);
	fclose(f);
	tap_ok(at > 3 * BM_LOG_PIECE, "one line of %zu bytes", at);
	rc = bm_results_load(&r, path, "");
	tap_ok(!rc && r.stream_rc == 0 && r.bad_crc == 0 && r.max_seq == 3000,
	       "all 3000 records of it, none damaged (rc %d, %s, bad %u)", rc, r.stream_why,
	       r.bad_crc);
	bm_results_free(&r);
	rc = bm_log_lines(path, count_cb, &w, &size);
	tap_ok(!rc && w.lines >= 3 && w.ordered && size == at + 1,
	       "given in %u parts of at most a piece, in order, %llu bytes", w.lines,
	       (unsigned long long)size);

	snprintf(fifo, sizeof(fifo), "%s/fifo.log", dir);
	if (mkfifo(fifo, 0600))
		tap_bail("mkfifo");
	rc = bm_log_lines(fifo, count_cb, &w, &size);
	TAP_EQ_INT(rc, -EINVAL, "a FIFO is refused, not waited on");
	rc = bm_results_load(&r, fifo, "");
	TAP_EQ_INT(rc, -EINVAL, "... by every reader of a log");
	unlink(fifo);
	unlink(path);
}

/* The segment of a run in a log of several, from the file as from the text. */
static void test_segment_file(const char *dir)
{
	static const char log[] =
		"[ 0.0] Linux version 6.1.0-53-amd64 (first boot)\n"
		"@@B1 11111111 1 H v=1 #00000000\n"
		"chatter\n"
		"reboot: Restarting system\n"
		"[ 0.0] Linux version 6.1.0-53-amd64 (second boot)\n"
		"noise\r\n"
		"@@B1 0badc0de 1 H v=1 #00000000\n"
		"[ 1.0] Kernel panic - not syncing: here\n"
		"@@B1 0badc0de 2 Z n=2 #00000000\n"
		"tail of ours\n"
		"[ 0.0] Linux version 6.1.0-53-amd64 (third boot)\n"
		"@@B1 22222222 1 H v=1 #00000000\n";
	char path[PATH_MAX];
	struct bm_console c;
	uint64_t off = 0, n = 0;
	size_t toff, tn;
	FILE *f = NULL;
	int rc;

	snprintf(path, sizeof(path), "%s/multi.log", dir);
	f = fopen(path, "w");
	if (!f || fputs(log, f) < 0 || fclose(f))
		tap_bail("cannot write a log");
	bm_console_segment(log, sizeof(log) - 1, RUN, &toff, &tn);
	rc = bm_console_segment_file(path, RUN, &off, &n);
	tap_ok(!rc && off == toff && n == tn,
	       "the file's segment is the text's (%llu+%llu, %zu+%zu)", (unsigned long long)off,
	       (unsigned long long)n, toff, tn);
	tap_ok(!strncmp(log + off, "[ 0.0] Linux version 6.1.0-53-amd64 (second boot)", 40) &&
	       !strncmp(log + off + n, "[ 0.0] Linux version 6.1.0-53-amd64 (third", 40),
	       "from the run's banner to the next boot's");
	rc = bm_console_read(path, off, n, &c);
	tap_ok(!rc && c.panic && c.banners == 1 && !c.restarts && c.bytes == n,
	       "its facts alone: the panic, one banner, no restart");
	unlink(path);
}

int main(void)
{
	char dir[] = "/tmp/bm-logmem.XXXXXX";

	tap_plan(0);
	tu_mkdtemp(dir);
	test_memory_per_record();
	test_stream_limit();
	test_results_limit();
	test_long_line(dir);
	test_segment_file(dir);
	rmdir(dir);
	return tap_done();
}
