// SPDX-License-Identifier: MIT
/* fork+execve with captured output, and mount option flags (spawn.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn.h"

extern char **environ;

int spawn_find(const char *prog, char *out, size_t len)
{
	char dirs[] = SPAWN_PATH, *save = NULL, *d;

	if (strchr(prog, '/')) {
		snprintf(out, len, "%s", prog);
		return access(out, X_OK) ? -errno : 0;
	}
	for (d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		snprintf(out, len, "%s/%s", d, prog);
		if (!access(out, X_OK))
			return 0;
	}
	return -ENOENT;
}

/* In the child: only async-signal-safe calls until execve. */
static void child(const char *path, char *const argv[], int outfd)
{
	int nul = open("/dev/null", O_RDONLY);

	if (nul >= 0)
		dup2(nul, 0);
	dup2(outfd, 1);
	dup2(outfd, 2);
	execve(path, argv, environ);
	_exit(errno == ENOENT ? 127 : 126);
}

static void drain(int fd, char *out, size_t outlen)
{
	size_t used = 0;
	char sink[512];
	ssize_t n;

	for (;;) {
		if (used + 1 < outlen)
			n = read(fd, out + used, outlen - 1 - used);
		else
			n = read(fd, sink, sizeof(sink)); /* keep the child from blocking */
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (used + 1 < outlen)
			used += (size_t)n;
	}
	if (outlen)
		out[used] = '\0';
}

int spawn_run(char *const argv[], char *out, size_t outlen)
{
	char path[256];
	int pfd[2], status, ret;
	pid_t pid;

	if (outlen)
		out[0] = '\0';
	ret = spawn_find(argv[0], path, sizeof(path));
	if (ret)
		return ret;
	if (pipe2(pfd, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		goto out_close_pipe;
	}
	if (pid == 0) {
		child(path, argv, pfd[1]);
	}
	close(pfd[1]);
	pfd[1] = -1;
	drain(pfd[0], out, outlen);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			ret = -errno;
			goto out_close_pipe;
		}
	}
	ret = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
out_close_pipe:
	close(pfd[0]);
	if (pfd[1] >= 0)
		close(pfd[1]);
	return ret;
}

void spawn_reap_orphans(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

static const struct {
	const char *name;
	unsigned long set, clear;
} mount_flags[] = {
	{ "noatime",     MS_NOATIME, 0 },
	{ "nodiratime",  MS_NODIRATIME, 0 },
	{ "relatime",    MS_RELATIME, 0 },
	{ "strictatime", MS_STRICTATIME, 0 },
	{ "sync",        MS_SYNCHRONOUS, 0 },
	{ "dirsync",     MS_DIRSYNC, 0 },
	{ "nosuid",      MS_NOSUID, 0 },
	{ "nodev",       MS_NODEV, 0 },
	{ "noexec",      MS_NOEXEC, 0 },
	{ "ro",          MS_RDONLY, 0 },
	{ "rw",          0, MS_RDONLY },
	{ "defaults",    0, 0 },
};

int mountopt_parse(const char *opts, unsigned long *flags, char *data, size_t len)
{
	char buf[256], *save = NULL, *tok;
	size_t i, used = 0;
	int n;

	*flags = 0;
	if (len)
		data[0] = '\0';
	if (strlen(opts) >= sizeof(buf))
		return -E2BIG;
	snprintf(buf, sizeof(buf), "%s", opts);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(mount_flags) / sizeof(mount_flags[0]); i++)
			if (!strcmp(tok, mount_flags[i].name))
				break;
		if (i < sizeof(mount_flags) / sizeof(mount_flags[0])) {
			*flags = (*flags | mount_flags[i].set) & ~mount_flags[i].clear;
			continue;
		}
		n = snprintf(data + used, len - used, "%s%s", used ? "," : "", tok);
		if (n < 0 || (size_t)n >= len - used)
			return -E2BIG;
		used += (size_t)n;
	}
	return 0;
}
