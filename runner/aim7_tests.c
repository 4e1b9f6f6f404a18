// SPDX-License-Identifier: MIT
/*
 * AIM7 subtests, part 1: disk and directory work.  Each is one job, a
 * bounded unit of work in the task's own directory.  The disk tests follow
 * the modified AIM7 (BellScurry/aim7-modified): 1 KiB buffers over a file
 * of disk_kib KiB (FILESIZE + POOLSIZE/tasks); disk_rd and disk_cp use the
 * shared tmpa.common written before the window; the sync_ variants open
 * the file they write with O_SYNC.  Temporary files are removed by the job
 * that made them.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wl_aim7.h"

#define KB 1024

/* "disk_rr: write /mnt/aim7.3/tmp.rr: No space left on device"; returns -err. */
static int fail(struct aim7_env *env, int err, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(env->err, env->errlen, fmt, ap);
	va_end(ap);
	n = strlen(env->err);
	snprintf(env->err + n, env->errlen - n, ": %s", strerror(err));
	return -err;
}

static void fill(char *buf, uint64_t tag)
{
	int i;

	for (i = 0; i < KB; i++)
		buf[i] = (char)('a' + (tag + (uint64_t)i) % 26);
}

static int write_all(int fd, const char *buf, size_t len, off_t off)
{
	ssize_t n;

	while (len) {
		n = off < 0 ? write(fd, buf, len) : pwrite(fd, buf, len, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -ENOSPC;
		buf += n;
		len -= (size_t)n;
		if (off >= 0)
			off += n;
	}
	return 0;
}

/* Sequential 1 KiB writes of kib KiB at the current offset. */
static int write_kib(int fd, unsigned kib)
{
	char buf[KB];
	unsigned i;
	int ret;

	for (i = 0; i < kib; i++) {
		fill(buf, i);
		ret = write_all(fd, buf, KB, -1);
		if (ret)
			return ret;
	}
	return 0;
}

int aim7_make_common(const char *path, unsigned kib, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), ret;

	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot create %s: %s", path, strerror(-ret));
		return ret;
	}
	ret = write_kib(fd, kib);
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (ret)
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(-ret));
	return ret;
}

static void tmp_path(char *buf, size_t len, const struct aim7_env *env, const char *name)
{
	snprintf(buf, len, "%s/tmp.%s", env->dir, name);
}

/* disk_wrt / sync_disk_wrt: a new file of disk_kib KiB, 1 KiB writes. */
static int do_wrt(struct aim7_env *env, const char *name, int sync)
{
	char path[512];
	int fd, ret;

	tmp_path(path, sizeof(path), env, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | (sync ? O_SYNC : 0), 0644);
	if (fd < 0)
		return fail(env, errno, "%s: open %s", name, path);
	ret = write_kib(fd, env->disk_kib);
	close(fd);
	unlink(path);
	return ret ? fail(env, -ret, "%s: write %s", name, path) : 0;
}

/* disk_cp / sync_disk_cp: tmpa.common copied in 1 KiB blocks. */
static int do_cp(struct aim7_env *env, const char *name, int sync)
{
	char path[512], buf[KB];
	int in, out, ret = 0;
	ssize_t n;

	tmp_path(path, sizeof(path), env, name);
	in = open(env->common, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return fail(env, errno, "%s: open %s", name, env->common);
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | (sync ? O_SYNC : 0), 0644);
	if (out < 0) {
		ret = fail(env, errno, "%s: open %s", name, path);
		goto out_close_in;
	}
	while ((n = read(in, buf, KB)) > 0) {
		ret = write_all(out, buf, (size_t)n, -1);
		if (ret) {
			ret = fail(env, -ret, "%s: write %s", name, path);
			break;
		}
	}
	if (n < 0)
		ret = fail(env, errno, "%s: read %s", name, env->common);
	close(out);
	unlink(path);
out_close_in:
	close(in);
	return ret;
}

static int disk_rd(struct aim7_env *env)
{
	char buf[KB];
	int fd = open(env->common, O_RDONLY | O_CLOEXEC), ret = 0;
	unsigned got = 0;
	ssize_t n;

	if (fd < 0)
		return fail(env, errno, "disk_rd: open %s", env->common);
	while ((n = read(fd, buf, KB)) > 0)
		got += (unsigned)n;
	if (n < 0)
		ret = fail(env, errno, "disk_rd: read %s", env->common);
	else if (got != env->disk_kib * KB)
		ret = fail(env, EIO, "disk_rd: %s has %u bytes, not %u", env->common, got,
			   env->disk_kib * KB);
	close(fd);
	return ret;
}

/*
 * disk_rr, disk_rw, sync_disk_rw, sync_disk_update: a temporary file of
 * disk_kib KiB, then disk_kib random 1 KiB reads (mode 'r'), writes ('w')
 * or read-modify-writes ('u').  The random writes go through O_SYNC for
 * the sync_ tests; the file's creation does not.
 */
static int do_random(struct aim7_env *env, const char *name, int mode, int sync)
{
	char path[512], buf[KB];
	unsigned i, n = env->disk_kib;
	int fd, sfd = -1, ret;
	off_t off;

	tmp_path(path, sizeof(path), env, name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return fail(env, errno, "%s: open %s", name, path);
	ret = write_kib(fd, n);
	if (ret) {
		ret = fail(env, -ret, "%s: write %s", name, path);
		goto out_close;
	}
	if (sync) {
		sfd = open(path, O_RDWR | O_SYNC | O_CLOEXEC);
		if (sfd < 0) {
			ret = fail(env, errno, "%s: open %s", name, path);
			goto out_close;
		}
	}
	for (i = 0; i < n && !ret; i++) {
		errno = 0;
		off = (off_t)(aim7_rand(&env->rng) % n) * KB;
		if (mode != 'w' && pread(fd, buf, KB, off) != KB)
			ret = fail(env, errno ? errno : EIO, "%s: read %s", name, path);
		if (mode == 'w')
			fill(buf, i);
		else if (mode == 'u')
			buf[0] = (char)(buf[0] ^ 1);
		if (!ret && mode != 'r' && write_all(sync ? sfd : fd, buf, KB, off))
			ret = fail(env, errno ? errno : EIO, "%s: write %s", name, path);
	}
	if (sfd >= 0)
		close(sfd);
out_close:
	close(fd);
	unlink(path);
	return ret;
}

static int disk_wrt(struct aim7_env *e) { return do_wrt(e, "disk_wrt", 0); }
static int sync_disk_wrt(struct aim7_env *e) { return do_wrt(e, "sync_disk_wrt", 1); }
static int disk_cp(struct aim7_env *e) { return do_cp(e, "disk_cp", 0); }
static int sync_disk_cp(struct aim7_env *e) { return do_cp(e, "sync_disk_cp", 1); }
static int disk_rr(struct aim7_env *e) { return do_random(e, "disk_rr", 'r', 0); }
static int disk_rw(struct aim7_env *e) { return do_random(e, "disk_rw", 'w', 0); }
static int sync_disk_rw(struct aim7_env *e) { return do_random(e, "sync_disk_rw", 'w', 1); }
static int sync_disk_update(struct aim7_env *e) { return do_random(e, "sync_disk_update", 'u', 1); }

/* disk_src: directory search.  Scans the test directory (tmpa.common and
 * every task's directory) and the task's own directory with readdir,
 * stat()ing each name, 10 times, then 100 lookups of absent names. */
static int scan(struct aim7_env *env, const char *dir)
{
	char path[512];
	struct dirent *de;
	struct stat st;
	DIR *d = opendir(dir);

	if (!d)
		return fail(env, errno, "disk_src: opendir %s", dir);
	while ((de = readdir(d)))
		if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) < (int)sizeof(path))
			stat(path, &st);
	closedir(d);
	return 0;
}

static int disk_src(struct aim7_env *env)
{
	char top[512], path[600];
	struct stat st;
	int i, ret;

	snprintf(top, sizeof(top), "%s/..", env->dir);
	for (i = 0; i < 10; i++) {
		ret = scan(env, top);
		if (!ret)
			ret = scan(env, env->dir);
		if (ret)
			return ret;
	}
	for (i = 0; i < 100; i++) {
		snprintf(path, sizeof(path), "%s/absent.%d", env->dir, i);
		if (!stat(path, &st))
			return fail(env, EEXIST, "disk_src: %s", path);
	}
	return 0;
}

/* creat-clo: 100 x (creat, close, unlink). */
static int creat_clo(struct aim7_env *env)
{
	char path[512];
	int i, fd;

	for (i = 0; i < 100; i++) {
		snprintf(path, sizeof(path), "%s/creat.%d", env->dir, i);
		fd = creat(path, 0644);
		if (fd < 0)
			return fail(env, errno, "creat-clo: creat %s", path);
		close(fd);
		if (unlink(path))
			return fail(env, errno, "creat-clo: unlink %s", path);
	}
	return 0;
}

/* dir_rtns_1: 20 mkdir, a readdir pass counting them, 20 rmdir. */
static int dir_rtns_1(struct aim7_env *env)
{
	char path[600], top[512];
	struct dirent *de;
	int i, n = 0, ret = 0;
	DIR *d;

	snprintf(top, sizeof(top), "%s/dirs", env->dir);
	if (mkdir(top, 0755) && errno != EEXIST)
		return fail(env, errno, "dir_rtns_1: mkdir %s", top);
	for (i = 0; i < 20 && !ret; i++) {
		snprintf(path, sizeof(path), "%s/d%d", top, i);
		if (mkdir(path, 0755))
			ret = fail(env, errno, "dir_rtns_1: mkdir %s", path);
	}
	d = opendir(top);
	if (!d && !ret)
		ret = fail(env, errno, "dir_rtns_1: opendir %s", top);
	while (d && (de = readdir(d)))
		n += de->d_name[0] == 'd';
	if (d)
		closedir(d);
	if (!ret && n != 20)
		ret = fail(env, EIO, "dir_rtns_1: %s lists %d directories, not 20", top, n);
	for (i = 0; i < 20; i++) {
		snprintf(path, sizeof(path), "%s/d%d", top, i);
		rmdir(path);
	}
	return ret;
}

/* link_test: one file, 100 x (link, unlink the link). */
static int link_test(struct aim7_env *env)
{
	char path[512], lnk[512];
	int i, fd, ret = 0;

	snprintf(path, sizeof(path), "%s/link.src", env->dir);
	snprintf(lnk, sizeof(lnk), "%s/link.dst", env->dir);
	fd = creat(path, 0644);
	if (fd < 0)
		return fail(env, errno, "link_test: creat %s", path);
	close(fd);
	for (i = 0; i < 100 && !ret; i++) {
		if (link(path, lnk))
			ret = fail(env, errno, "link_test: link %s", lnk);
		else if (unlink(lnk))
			ret = fail(env, errno, "link_test: unlink %s", lnk);
	}
	unlink(path);
	return ret;
}

const struct aim7_test aim7_disk_tests[] = {
	{ "disk_rd", disk_rd, "read tmpa.common (disk_kib KiB) in 1 KiB reads" },
	{ "disk_wrt", disk_wrt, "write a new disk_kib KiB file in 1 KiB writes" },
	{ "disk_cp", disk_cp, "copy tmpa.common to a new file, 1 KiB blocks" },
	{ "disk_rr", disk_rr, "write a disk_kib KiB file, then disk_kib random 1 KiB reads" },
	{ "disk_rw", disk_rw, "write a disk_kib KiB file, then disk_kib random 1 KiB writes" },
	{ "disk_src", disk_src, "10 readdir+stat scans of the test and task dirs, 100 absent lookups" },
	{ "sync_disk_wrt", sync_disk_wrt, "disk_wrt with O_SYNC" },
	{ "sync_disk_cp", sync_disk_cp, "disk_cp, the copy opened O_SYNC" },
	{ "sync_disk_rw", sync_disk_rw, "disk_rw, the random writes O_SYNC" },
	{ "sync_disk_update", sync_disk_update,
	  "disk_kib random 1 KiB read-modify-writes, writes O_SYNC" },
	{ "creat-clo", creat_clo, "100 x creat, close, unlink" },
	{ "dir_rtns_1", dir_rtns_1, "20 mkdir, one readdir pass, 20 rmdir" },
	{ "link_test", link_test, "100 x link, unlink" },
	{ NULL, NULL, NULL },
};

const struct aim7_test *aim7_test_find(const char *name)
{
	const struct aim7_test *t;

	for (t = aim7_disk_tests; t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	for (t = aim7_cpu_tests; t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}
