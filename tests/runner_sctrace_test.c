// SPDX-License-Identifier: MIT
/* runner/engine/sctrace.c: a trace's calls counted per task, and strace attached
 * to this very process around a known number of calls. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sctrace.h"
#include "tap.h"

#define STRACE "/usr/bin/strace"

/* The counts printed for task pid and call name, from text; -1 when absent. */
static long count_of(const char *text, long pid, const char *name)
{
	char want[96];
	const char *p;

	snprintf(want, sizeof(want), ": %ld ", pid);
	for (p = text; (p = strstr(p, want)); p++) {
		char nm[32];
		long calls;

		if (sscanf(p + strlen(want), "%ld %31s", &calls, nm) == 2 && !strcmp(nm, name))
			return calls;
	}
	return -1;
}

static void read_all(FILE *f, char *buf, size_t len)
{
	size_t n;

	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
}

/* strace -f output of two tasks, with the shapes that must not count. */
static void test_summarize(void)
{
	char path[] = "/tmp/bm-sctrace-test.XXXXXX", long_arg[700], text[4096];
	FILE *f, *out = tmpfile();
	int fd = mkstemp(path);

	memset(long_arg, 'x', sizeof(long_arg) - 1);
	long_arg[sizeof(long_arg) - 1] = '\0';
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f || !out) {
		tap_ok(0, "temporary files");
		return;
	}
	fprintf(f, "100   clock_gettime(CLOCK_MONOTONIC, {tv_sec=1, tv_nsec=2}) = 0\n"
		   "100   io_uring_enter(4, 4, 0, 0, NULL, 8) = 4\n"
		   "101   pread64(3, \"%s\"..., 4096, 0) = 4096\n"
		   "100   clock_gettime(CLOCK_MONOTONIC,  <unfinished ...>\n"
		   "101   clock_gettime(CLOCK_MONOTONIC, {tv_sec=1, tv_nsec=3}) = 0\n"
		   "100   <... clock_gettime resumed>{tv_sec=1, tv_nsec=4}) = 0\n"
		   "101   +++ exited with 0 +++\n"
		   "100   clock_gettime(CLOCK_MONOTONIC, {tv_sec=1, tv_nsec=5}) = 0\n",
		long_arg);
	fclose(f);
	TAP_EQ_INT(sctrace_summarize(path, out, "raw", "raw-uring-r4k-q16-b4", 2), 0,
		   "trace counted");
	read_all(out, text, sizeof(text));
	tap_ok(count_of(text, 100, "clock_gettime") == 3, "task 100: 3 clock_gettime, the "
	       "unfinished one once, its resumption not: %ld", count_of(text, 100, "clock_gettime"));
	tap_ok(count_of(text, 100, "io_uring_enter") == 1, "task 100: 1 io_uring_enter");
	tap_ok(count_of(text, 101, "pread64") == 1 && count_of(text, 101, "clock_gettime") == 1,
	       "task 101: its pread64 (a line longer than the buffer: its tail is no call) and "
	       "its clock_gettime");
	tap_ok(strstr(text, "bootmark-runner: strace raw raw-uring-r4k-q16-b4 2: 100 ") == text,
	       "the line names the filesystem, test and repeat");
	tap_ok(!strstr(text, " exited") && !strstr(text, "resumed") && !strstr(text, " xxx"),
	       "exits, resumptions and cut tails are not calls");
	TAP_EQ_INT(sctrace_summarize("/nonexistent/trace", out, "raw", "t", 1), -ENOENT,
		   "no trace: -ENOENT");
	fclose(out);
	unlink(path);
}

/* strace attached to this process: exactly the calls made between start and stop. */
static void test_attached(void)
{
	struct sctrace t;
	char text[16384];
	FILE *out;
	long n;
	int i, ret;

	TAP_EQ_INT(sctrace_start(&t, "/nonexistent/strace"), -ECHILD,
		   "a strace that does not start: -ECHILD, nothing left running");
	if (access(STRACE, X_OK)) {
		tap_skip("no " STRACE " (host/install-deps.sh installs strace)", "strace attached");
		return;
	}
	ret = sctrace_start(&t, STRACE);
	if (ret == -ECHILD) {
		tap_skip("strace cannot attach to its parent here (ptrace refused)", "strace attached");
		return;
	}
	TAP_EQ_INT(ret, 0, "strace attached");
	if (ret)
		return;
	for (i = 0; i < 57; i++)
		syscall(SYS_getppid);
	out = tmpfile();
	TAP_EQ_INT(sctrace_stop(&t, out, "raw", "self", 1), 0, "strace stopped, trace counted");
	read_all(out, text, sizeof(text));
	n = count_of(text, (long)getpid(), "getppid");
	tap_ok(n == 57, "57 getppid of this thread counted: %ld", n);
	tap_ok(access(t.dir, F_OK) && errno == ENOENT, "its folder %s removed", t.dir);
	fclose(out);
}

int main(void)
{
	tap_plan(0);
	test_summarize();
	test_attached();
	return tap_done();
}
