// SPDX-License-Identifier: MIT
/* Running helper programs: fork + execvp with an argv, never a shell. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "outdir.h"
#include "util.h"

/*
 * In the child: a helper never outlives bootmark.  A bootmark killed by
 * SIGKILL (or crashed) cannot stop its QEMU, which then ran the suite on,
 * unwatched, or a hung guest forever (issue 43): the kernel kills the child
 * when its parent dies.  A parent that died before prctl() is seen by
 * getppid() no longer being the pid it had before the fork.
 */
static void die_with_parent(pid_t parent)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(126);
}

/* In the child: failures are reported through the exit code, as sinit does. */
static void child_exec(char *const argv[], const char *cwd, int out_fd, pid_t parent)
{
	int nul;

	die_with_parent(parent);
	nul = open("/dev/null", O_RDONLY);
	if (nul >= 0 && nul != 0) {
		dup2(nul, 0);
		close(nul);
	}
	if (out_fd >= 0 && out_fd != 1) {
		dup2(out_fd, 1);
		/* stderr stays open: an fd 2 left closed is the next file's, and QEMU
		 * refuses a standard stream for its -add-fd */
		if (out_fd > 2)
			close(out_fd);
	}
	if (cwd && chdir(cwd)) {
		fprintf(stderr, "bootmark: cannot enter %s: %s\n", cwd, strerror(errno));
		_exit(126);
	}
	execvp(argv[0], argv);
	fprintf(stderr, "bootmark: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

static int capture(int fd, char **out, size_t *outlen)
{
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	ssize_t n;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (cap - len < 2) {
			char *nb = realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	*out = buf;
	if (outlen)
		*outlen = len;
	return 0;
}

int bm_run_prog(char *const argv[], const char *cwd, int out_fd,
		char **out, size_t *outlen, int *status)
{
	int pipefd[2] = { -1, -1 };
	pid_t pid, self = getpid();
	int rc = 0;

	if (out) {
		*out = NULL;
		if (pipe2(pipefd, O_CLOEXEC))
			return -errno;
	}
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		goto out_close_pipe;
	}
	if (pid == 0) {
		if (out) {
			dup2(pipefd[1], 1);
			out_fd = -1;
		}
		child_exec(argv, cwd, out_fd, self);
	}
	if (out) {
		close(pipefd[1]);
		pipefd[1] = -1;
		rc = capture(pipefd[0], out, outlen);
	}
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR) {
			rc = -errno;
			break;
		}
	}
	if (rc && out && *out) {
		free(*out);
		*out = NULL;
	}
out_close_pipe:
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	return rc;
}

int bm_proc_start(char *const argv[], int log_fd, pid_t *pid)
{
	pid_t self = getpid();

	*pid = fork();
	if (*pid < 0)
		return -errno;
	if (*pid == 0) {
		if (log_fd >= 0)
			dup2(log_fd, 2);
		child_exec(argv, NULL, log_fd, self);
	}
	return 0;
}

void bm_status_str(int status, char *buf, size_t len)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exit status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d", WTERMSIG(status));
	else
		snprintf(buf, len, "wait status 0x%x", status);
}

int bm_run_ok(char *const argv[], const char *cwd, int out_fd)
{
	char how[64];
	int status = 0, rc;

	rc = bm_run_prog(argv, cwd, out_fd, NULL, NULL, &status);
	if (rc) {
		bm_msg("cannot run %s: %s", argv[0], strerror(-rc));
		return rc;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	bm_status_str(status, how, sizeof(how));
	bm_msg("%s failed (%s)", argv[0], how);
	return -ECHILD;
}

int bm_run_to_file(char *const argv[], const char *path)
{
	int fd = bm_out_open(path, O_WRONLY | O_CLOEXEC, 0644), rc;

	if (fd < 0)
		return fd;
	rc = bm_run_ok(argv, NULL, fd);
	close(fd);
	return rc;
}
