// SPDX-License-Identifier: MIT
/*
 * kerntree's compress=bzip2: seed 004's kernuntar ran "tar xjf" on a
 * .tar.bz2, so its REAL and UTIME are mostly bzip2's.  prepare() compresses
 * the generated archive once (bzip2 -c fed from the ustar stream, into a
 * file outside the test filesystem); the untar tests read it through
 * "bzip2 -dc", a process per copy as two tar commands would run, and the
 * extractor reads the pipe.  bzip2 is BusyBox's in the image, the first
 * bzip2 on PATH in host mode.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktree_bz2.h"
#include "spawn.h"

/* argv for bzip2 with mode ("-c" or "-dc"): busybox's applet or a bzip2. */
static int bz2_argv(char *prog, size_t len, char **argv, const char *mode, const char *file)
{
	int i = 0;

	if (!access("/bin/busybox", X_OK)) {
		snprintf(prog, len, "/bin/busybox");
		argv[i++] = prog;
		argv[i++] = "bzip2";
	} else if (!spawn_find("bzip2", prog, len)) {
		argv[i++] = prog;
	} else {
		return -ENOENT;
	}
	argv[i++] = (char *)mode;
	if (file)
		argv[i++] = (char *)file;
	argv[i] = NULL;
	return 0;
}

/* Forks argv with stdin and stdout as given (-1: leave it). */
static pid_t bz2_spawn(char **argv, int in, int out)
{
	pid_t pid = fork();

	if (pid == 0) {
		if ((in >= 0 && dup2(in, 0) < 0) || (out >= 0 && dup2(out, 1) < 0))
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

static int bz2_wait(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -EIO;
}

struct bz2_feed {
	ustar_read_fn fn;
	void *arg;
	int fd;
	int ret;
};

static void *bz2_feeder(void *p)
{
	struct bz2_feed *f = p;
	char buf[1 << 16];
	ssize_t n, w, off;

	while ((n = f->fn(f->arg, buf, sizeof(buf))) > 0)
		for (off = 0; off < n; off += w) {
			w = write(f->fd, buf + off, (size_t)(n - off));
			if (w < 0 && errno == EINTR)
				w = 0;
			else if (w < 0) {
				f->ret = -errno;
				goto out;
			}
		}
	if (n < 0)
		f->ret = (int)n;
out:
	close(f->fd);
	return NULL;
}

int ktree_bz2_compress(const char *path, ustar_read_fn fn, void *arg, char *err,
		       size_t errlen)
{
	char prog[256], *argv[6], tmp[300];
	struct bz2_feed feed = { fn, arg, -1, 0 };
	pthread_t th;
	int p[2], out, ret;
	pid_t pid;

	if (bz2_argv(prog, sizeof(prog), argv, "-c", NULL)) {
		snprintf(err, errlen, "compress=bzip2: no /bin/busybox or bzip2 on PATH");
		return -ENOENT;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (out < 0) {
		snprintf(err, errlen, "cannot create %s: %s", tmp, strerror(errno));
		return -errno;
	}
	if (pipe2(p, O_CLOEXEC)) {
		ret = -errno;
		goto out_close;
	}
	pid = bz2_spawn(argv, p[0], out);
	close(p[0]);
	if (pid < 0) {
		ret = -errno;
		close(p[1]);
		goto out_close;
	}
	feed.fd = p[1];
	ret = -pthread_create(&th, NULL, bz2_feeder, &feed);
	if (ret)
		close(p[1]);
	else
		pthread_join(th, NULL);
	if (!ret)
		ret = feed.ret;
	if (bz2_wait(pid) && !ret)
		ret = -EIO;
out_close:
	if (close(out) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret) {
		unlink(tmp);
		snprintf(err, errlen, "%s: %s bzip2 -c failed: %s", path, prog, strerror(-ret));
	}
	return ret;
}

int ktree_bz2_open(const char *path, struct ktree_bz2 *z, char *err, size_t errlen)
{
	char prog[256], *argv[6];
	int p[2];

	z->fd = -1;
	z->pid = -1;
	if (bz2_argv(prog, sizeof(prog), argv, "-dc", path)) {
		snprintf(err, errlen, "compress=bzip2: no /bin/busybox or bzip2 on PATH");
		return -ENOENT;
	}
	if (access(path, R_OK)) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return -errno;
	}
	if (pipe2(p, O_CLOEXEC))
		return -errno;
	z->pid = bz2_spawn(argv, -1, p[1]);
	close(p[1]);
	if (z->pid < 0) {
		close(p[0]);
		return -errno;
	}
	z->fd = p[0];
	return 0;
}

int ktree_bz2_close(struct ktree_bz2 *z)
{
	char buf[4096];
	int ret = 0;
	ssize_t n;

	/* the rest of the stream (the archive's end-of-record padding): bzip2
	 * must not die of EPIPE after the extractor has seen the end marker */
	while (z->fd >= 0 && ((n = read(z->fd, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR)))
		;
	if (z->fd >= 0)
		close(z->fd);
	if (z->pid > 0)
		ret = bz2_wait(z->pid);
	z->fd = -1;
	z->pid = -1;
	return ret;
}
