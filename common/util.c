// SPDX-License-Identifier: MIT
/* Host helpers: messages, paths and files. Processes are in exec.c. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "outdir.h"
#include "profile.h"
#include "util.h"

void bm_msg(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("bootmark: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int bm_path(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

int bm_mkdir_p(const char *path, mode_t mode)
{
	char why[PATH_MAX + 100];
	int rc = bm_out_mkdir(path, mode, why, sizeof(why));

	/* a folder another user could redirect is no place to write (outdir.c) */
	if (rc == -EPERM || rc == -ENOTDIR)
		bm_msg("refusing %s: %s", path, why);
	return rc;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path) ? -errno : 0;
	return unlink(path) ? -errno : 0;
}

int bm_rm_rf(const char *path)
{
	struct stat st;
	int rc;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	rc = nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	if (rc < 0)
		return -errno;
	return rc;
}

int bm_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int bm_is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int bm_write_file_atomic(const char *path, const void *buf, size_t len)
{
	char tmp[PATH_MAX];
	int fd, rc;

	/* a fresh name of our own (O_EXCL): a planted "path.tmp" link is no
	 * way in; rename replaces whatever path was, link or file, unfollowed */
	fd = bm_out_tmp(path, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	rc = write_all(fd, buf, len);
	if (!rc && fsync(fd))
		rc = -errno;
	if (close(fd) && !rc)
		rc = -errno;
	if (rc)
		goto out_unlink;
	if (rename(tmp, path)) {
		rc = -errno;
		goto out_unlink;
	}
	return 0;
out_unlink:
	unlink(tmp);
	return rc;
}

int bm_append_file(int fd, const char *src)
{
	char buf[65536];
	int in, rc = 0;
	ssize_t n;

	in = bm_open_regular(src);
	if (in < 0)
		return in;
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		rc = write_all(fd, buf, (size_t)n);
		if (rc)
			break;
	}
	close(in);
	return rc;
}

int bm_exe_dir(char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return -errno;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -EINVAL;
	*slash = '\0';
	return bm_path(buf, len, "%s", exe[0] ? exe : "/");
}

int bm_cache_root(char *buf, size_t len)
{
	const char *v;

	v = getenv("BOOTMARK_CACHE");
	if (v && *v)
		return bm_path(buf, len, "%s", v);
	v = getenv("XDG_CACHE_HOME");
	if (v && *v)
		return bm_path(buf, len, "%s/bootmark", v);
	v = getenv("HOME");
	if (!v || !*v)
		return -ENOENT;
	return bm_path(buf, len, "%s/.cache/bootmark", v);
}

void bm_utc_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int bm_run_id(char out[9])
{
	uint32_t v;

	if (getrandom(&v, sizeof(v), 0) != (ssize_t)sizeof(v))
		return -errno;
	snprintf(out, 9, "%08x", v);
	return 0;
}

int bm_safe_name(const char *s)
{
	if (!*s || !strcmp(s, ".") || !strcmp(s, ".."))
		return 0;
	for (; *s; s++) {
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("._+-", *s)))
			return 0;
	}
	return 1;
}

int bm_label_dup(char *buf, size_t len, const char *release, int dup)
{
	if (dup > 1)
		return bm_path(buf, len, "%s_%d", release, dup);
	return bm_path(buf, len, "%s", release);
}

void bm_last_line(const char *path, char *buf, size_t len)
{
	char *text = NULL, *end, *p;
	size_t n = 0;

	buf[0] = '\0';
	if (bm_read_file(path, &text, &n, (size_t)1 << 20))
		return;
	end = text + n;
	while (end > text && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	for (p = end; p > text && p[-1] != '\n'; p--)
		;
	snprintf(buf, len, "%.*s", (int)(end - p), p);
	free(text);
}

const char *bm_arch_of_machine(const char *machine)
{
	return !strcmp(machine, "x86_64") ? "amd64" : !strcmp(machine, "aarch64") ? "arm64" : machine;
}
