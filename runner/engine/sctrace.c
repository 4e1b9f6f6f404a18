// SPDX-License-Identifier: MIT
/* strace -f around one test's run(), its calls counted per task (sctrace.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sctrace.h"

#define SC_SUM       "trace"
#define SC_MAX       1024       /* (task, call) pairs of one test */
#define SC_WAIT_MS   20000      /* strace under TCG takes a while to start */

extern char **environ;

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* The pid tracing the calling thread, 0 when none, -errno. */
static long tracer_of_self(void)
{
	char buf[2048], *p;
	ssize_t n;
	int fd = open("/proc/thread-self/status", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -EIO;
	buf[n] = '\0';
	p = strstr(buf, "\nTracerPid:");
	return p ? strtol(p + 11, NULL, 10) : -ENOENT;
}

/* In the child: only async-signal-safe calls until execve. */
static void child(const char *strace, char *const argv[])
{
	int nul = open("/dev/null", O_RDWR);

	if (nul >= 0) {
		dup2(nul, 0);
		dup2(nul, 1);
	}
	execve(strace, argv, environ);
	_exit(127);
}

int sctrace_start(struct sctrace *t, const char *strace)
{
	char out[96], pid[24];
	char *argv[] = { (char *)strace, "-f", "-qq", "-e", "signal=none", "-s", "0", "-o", out,
			 "-p", pid, NULL };
	long tracer = 0;
	int i, st, ret;

	t->pid = 0;
	snprintf(t->dir, sizeof(t->dir), "/tmp/bm-strace.XXXXXX");
	if (!mkdtemp(t->dir))
		return -errno;
	snprintf(out, sizeof(out), "%s/%s", t->dir, SC_SUM);
	snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	t->pid = fork();
	if (t->pid < 0) {
		ret = -errno;
		goto out_rmdir;
	}
	if (t->pid == 0)
		child(strace, argv);
	for (i = 0; i < SC_WAIT_MS && tracer <= 0; i += 5) {
		if (waitpid(t->pid, &st, WNOHANG) == t->pid) {
			ret = -ECHILD;      /* strace gave up: it said why on stderr */
			goto out_rmdir;
		}
		nap_ms(5);
		tracer = tracer_of_self();
	}
	if (tracer <= 0) {
		ret = tracer < 0 ? (int)tracer : -ETIMEDOUT;
		kill(t->pid, SIGKILL);
		waitpid(t->pid, &st, 0);
		goto out_rmdir;
	}
	/* seized: strace restarts the thread with syscall stops right after */
	nap_ms(100);
	return 0;
out_rmdir:
	t->pid = 0;
	rmdir(t->dir);
	return ret;
}

/* Calls per task and name, from the trace's "PID name(" lines. */
struct sc_count {
	long pid;
	char name[32];
	unsigned long calls;
};

static int count_line(const char *line, struct sc_count *tab, unsigned *n, unsigned max)
{
	char *end;
	long pid = strtol(line, &end, 10);
	size_t len;
	unsigned i;

	if (end == line)
		return 0;
	while (*end == ' ')
		end++;
	len = strspn(end, "abcdefghijklmnopqrstuvwxyz0123456789_");
	if (!len || end[len] != '(' || len >= sizeof(tab->name))
		return 0;    /* "<... resumed>", "+++ exited", a cut line's tail */
	for (i = 0; i < *n; i++)
		if (tab[i].pid == pid && !strncmp(tab[i].name, end, len) && !tab[i].name[len])
			break;
	if (i == *n) {
		if (*n == max)
			return -ENOSPC;
		tab[i].pid = pid;
		memcpy(tab[i].name, end, len);
		tab[i].name[len] = '\0';
		tab[i].calls = 0;
		(*n)++;
	}
	tab[i].calls++;
	return 0;
}

int sctrace_summarize(const char *path, FILE *out, const char *fs, const char *test, int rep)
{
	struct sc_count *tab = calloc(SC_MAX, sizeof(*tab));
	char line[512];
	unsigned n = 0, i;
	int whole = 1, ret = 0;
	FILE *f;

	if (!tab)
		return -ENOMEM;
	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		goto out_free;
	}
	while (fgets(line, sizeof(line), f)) {
		/* only a line's start says who called what */
		if (whole && !ret)
			ret = count_line(line, tab, &n, SC_MAX);
		whole = strchr(line, '\n') != NULL;
	}
	fclose(f);
	for (i = 0; i < n; i++)
		fprintf(out, "bootmark-runner: strace %s %s %d: %ld %lu %s\n", fs, test, rep,
			tab[i].pid, tab[i].calls, tab[i].name);
out_free:
	free(tab);
	return ret;
}

int sctrace_stop(struct sctrace *t, FILE *out, const char *fs, const char *test, int rep)
{
	char path[96];
	int st, ret = 0, r;

	if (!t->pid)
		return -ECHILD;
	kill(t->pid, SIGINT);
	while (waitpid(t->pid, &st, 0) < 0) {
		if (errno != EINTR) {
			ret = -errno;
			break;
		}
	}
	t->pid = 0;
	snprintf(path, sizeof(path), "%s/%s", t->dir, SC_SUM);
	r = sctrace_summarize(path, out, fs, test, rep);
	if (r && !ret)
		ret = r;
	unlink(path);
	rmdir(t->dir);
	return ret;
}
