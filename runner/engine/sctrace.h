/* SPDX-License-Identifier: MIT */
/*
 * System calls of one test, counted by strace (the runner option strace=,
 * a diagnostic of make bench: docs/bench.md).  strace -f is attached to the
 * runner around a test's run(), so what the test does in the runner (rawio's
 * loop) and in the processes it starts (fio, its job process and threads)
 * is traced alike, into a file in /tmp; then the runner counts the calls
 * of each task and writes them to the console, one line per task and call:
 *
 *   bootmark-runner: strace raw raw-uring-r4k-q16-b4 1: 1 5000 io_uring_enter
 *
 * (filesystem, test, repeat: the task's id, calls, name).  Per task, since
 * a program's I/O thread is what its CPU per I/O measures; the runner's
 * heartbeat thread is one of the tasks.  strace slows every call, so a
 * traced boot's timings are no figures.
 */
#ifndef BM_RUNNER_SCTRACE_H
#define BM_RUNNER_SCTRACE_H

#include <stdio.h>
#include <sys/types.h>

struct sctrace {
	pid_t pid;                /* strace; 0 when not running */
	char dir[64];             /* its private folder in /tmp, for the summary */
};

/* Starts strace (path) attached to this process and every thread and child
 * it makes, and returns once the calling thread is traced.  0 or -errno
 * (nothing left running). */
int sctrace_start(struct sctrace *t, const char *strace);
/* Stops strace (SIGINT: it detaches), prints the counts to out (the
 * runner: stderr, the console) as above, removes the trace and its folder.  0 or -errno. */
int sctrace_stop(struct sctrace *t, FILE *out, const char *fs, const char *test, int rep);
/* The trace strace -f -o wrote at path ("PID name(...) = ..." lines), its
 * calls counted per task and name and printed to out as above, in the
 * order each pair first appears.  0 or -errno (-ENOSPC: more pairs than
 * it keeps; what was counted is printed). */
int sctrace_summarize(const char *path, FILE *out, const char *fs, const char *test, int rep);

#endif
