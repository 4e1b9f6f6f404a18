// SPDX-License-Identifier: MIT
/*
 * AIM7's disk subtests, each one job as AIM VII's sources define it, in
 * the task's current directory (multitask.c passes "DISKS" tests an empty
 * directory when the config lists none, so every name is relative):
 *
 *   disk1.c      disk_rr disk_rw disk_rd disk_wrt disk_cp sync_disk_rw
 *                sync_disk_wrt sync_disk_cp sync_disk_update
 *   disk_src.c   disk_src (dsearch() over the fakeh tree)
 *   creat-clo.c  creat-clo, link_test
 *
 * n is disk_iteration_count (KiB): FILESIZE + POOLSIZE/tasks.  Blocks are
 * NBUFSIZE = 1 KiB; random block numbers are aim_rand() % blocks, and
 * aim_rand() gives 15 bits, so no test reaches past block 32767.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wl_aim7.h"

#define TMPFILE1 "tmpa.common"
#define TMPFILE2 "tmpb."      /* AIM: "tmpb.", then aim_mktemp()'s 10 digits */
#define MODE_ALL 0777          /* S_IRWXU | S_IRWXG | S_IRWXO */

static char nbuf[AIM7_NBUF];   /* disk1.c's nbuf: never written by the tests */

int aim7_fail(struct aim7_env *env, int err, const char *fmt, ...)
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

void aim7_mktemp(struct aim7_env *env, char *buf, size_t len, const char *prefix)
{
	if (++env->mktemp_counter == 100000)
		env->mktemp_counter = 0;
	snprintf(buf, len, "%s%05u%05u", prefix, (unsigned)(getpid() % 100000),
		 (unsigned)env->mktemp_counter % 100000);
}

/* n 1 KiB writes at the current offset (0 or -errno; a short write is ENOSPC). */
static int write_blocks(int fd, unsigned n)
{
	ssize_t w;

	while (n--) {
		w = write(fd, nbuf, sizeof(nbuf));
		if (w != (ssize_t)sizeof(nbuf))
			return w < 0 ? -errno : -ENOSPC;
	}
	return 0;
}

/* The creat()-write-close of disk_rr/disk_rw, the open()-write-close of
 * the sync_ tests: a file of n blocks, closed again. */
static int make_file(struct aim7_env *env, const char *what, const char *fn, unsigned n,
		     int flags)
{
	int fd = open(fn, flags, MODE_ALL), ret;

	if (fd < 0)
		return aim7_fail(env, errno, "%s: cannot create %s", what, fn);
	ret = write_blocks(fd, n);
	close(fd);
	if (ret) {
		unlink(fn);
		return aim7_fail(env, -ret, "%s: cannot write %s", what, fn);
	}
	return 0;
}

/* count random 1 KiB transfers over the first `blocks` blocks; disk_rr
 * reads, disk_rw and sync_disk_rw write, sync_disk_update reads a block
 * and writes the next one (read() has moved the offset: AIM's quirk). */
enum { RND_READ, RND_WRITE, RND_UPDATE };
static int random_io(struct aim7_env *env, const char *what, int fd, unsigned blocks,
		     unsigned count, int kind)
{
	unsigned i;
	ssize_t n;

	for (i = 0; i < count; i++) {
		off_t sk = (off_t)(aim7_rand(&env->seed) % blocks) << 10;

		if (lseek(fd, sk, SEEK_SET) < 0)
			return aim7_fail(env, errno, "%s: can't lseek", what);
		if (kind != RND_WRITE) {
			n = read(fd, nbuf, sizeof(nbuf));
			if (n != (ssize_t)sizeof(nbuf))
				return aim7_fail(env, n < 0 ? errno : EIO, "%s: can't read", what);
		}
		if (kind != RND_READ) {
			n = write(fd, nbuf, sizeof(nbuf));
			if (n != (ssize_t)sizeof(nbuf))
				return aim7_fail(env, n < 0 ? errno : ENOSPC, "%s: can't write", what);
		}
	}
	return 0;
}

/* disk1.c disk_rr() / disk_rw(): creat an n-block file, close, reopen
 * (O_RDONLY / O_WRONLY), unlink, n random reads / writes, close. */
static int disk_rr_rw(struct aim7_env *env, int write_test)
{
	const char *what = write_test ? "disk_rw" : "disk_rr";
	char fn[64];
	int fd, ret;

	aim7_mktemp(env, fn, sizeof(fn), TMPFILE2);
	ret = make_file(env, what, fn, env->disk_kib, O_WRONLY | O_CREAT | O_TRUNC);
	if (ret)
		return ret;
	fd = open(fn, write_test ? O_WRONLY : O_RDONLY);
	if (fd < 0)
		return aim7_fail(env, errno, "%s: cannot open %s", what, fn);
	unlink(fn);
	ret = random_io(env, what, fd, env->disk_kib, env->disk_kib,
			write_test ? RND_WRITE : RND_READ);
	close(fd);
	return ret;
}

static int disk_rr(struct aim7_env *env)
{
	return disk_rr_rw(env, 0);
}

static int disk_rw(struct aim7_env *env)
{
	return disk_rr_rw(env, 1);
}

/* disk1.c sync_disk_rw(): "divide by 2 so as not to pound disk": an
 * n/2-block file, reopened O_WRONLY|O_SYNC, n/2 random writes, unlink. */
static int sync_disk_rw(struct aim7_env *env)
{
	unsigned blocks = env->disk_kib / 2;
	char fn[64];
	int fd, ret;

	aim7_mktemp(env, fn, sizeof(fn), TMPFILE2);
	ret = make_file(env, "sync_disk_rw", fn, blocks, O_WRONLY | O_CREAT | O_TRUNC);
	if (ret)
		return ret;
	fd = open(fn, O_WRONLY | O_SYNC);
	if (fd < 0)
		return aim7_fail(env, errno, "sync_disk_rw: cannot open %s", fn);
	ret = blocks ? random_io(env, "sync_disk_rw", fd, blocks, blocks, RND_WRITE) : 0;
	unlink(fn);
	close(fd);
	return ret;
}

/* disk1.c sync_disk_update(): an n-block file, reopened O_RDWR|O_SYNC,
 * n/2 random read-then-write pairs ("only touch 1/2 the blocks"). */
static int sync_disk_update(struct aim7_env *env)
{
	unsigned blocks = env->disk_kib;
	char fn[64];
	int fd, ret;

	aim7_mktemp(env, fn, sizeof(fn), TMPFILE2);
	ret = make_file(env, "sync_disk_update", fn, blocks, O_WRONLY | O_CREAT | O_TRUNC);
	if (ret)
		return ret;
	fd = open(fn, O_RDWR | O_SYNC);
	if (fd < 0)
		return aim7_fail(env, errno, "sync_disk_update: cannot open %s", fn);
	ret = random_io(env, "sync_disk_update", fd, blocks, blocks / 2, RND_UPDATE);
	unlink(fn);
	close(fd);
	return ret;
}

/* disk1.c disk_rd(): n sequential 1 KiB reads of tmpa.common. */
static int disk_rd(struct aim7_env *env)
{
	int fd = open(TMPFILE1, O_RDONLY);
	unsigned i;
	ssize_t n;

	if (fd < 0)
		return aim7_fail(env, errno, "disk_rd: cannot open %s", TMPFILE1);
	if (lseek(fd, 0, SEEK_SET) < 0) {
		close(fd);
		return aim7_fail(env, errno, "disk_rd: can't lseek %s", TMPFILE1);
	}
	for (i = 0; i < env->disk_kib; i++) {
		n = read(fd, nbuf, sizeof(nbuf));
		if (n != (ssize_t)sizeof(nbuf)) {
			close(fd);
			return aim7_fail(env, n < 0 ? errno : EIO, "disk_rd: can't read %s", TMPFILE1);
		}
	}
	close(fd);
	return 0;
}

/* disk1.c disk_cp() and sync_disk_cp(): blocks of tmpa.common copied to a
 * temporary file: creat() and unlinked at once (disk_cp, n blocks), or
 * O_SYNC|O_WRONLY|O_CREAT|O_TRUNC and unlinked at the end (n/2 blocks). */
static int copy_common(struct aim7_env *env, int sync)
{
	const char *what = sync ? "sync_disk_cp" : "disk_cp";
	unsigned n = sync ? env->disk_kib / 2 : env->disk_kib;
	char fn[64];
	int fd, fd2, ret = 0;
	ssize_t st;

	aim7_mktemp(env, fn, sizeof(fn), TMPFILE2);
	fd = open(TMPFILE1, O_RDONLY);
	if (fd < 0)
		return aim7_fail(env, errno, "%s: cannot open %s", what, TMPFILE1);
	fd2 = open(fn, O_WRONLY | O_CREAT | O_TRUNC | (sync ? O_SYNC : 0), MODE_ALL);
	if (fd2 < 0) {
		ret = aim7_fail(env, errno, "%s: cannot create %s", what, fn);
		close(fd);
		return ret;
	}
	if (!sync)
		unlink(fn);     /* "make it anonymous (and work NFS harder)" */
	if (lseek(fd, 0, SEEK_SET) < 0)
		ret = aim7_fail(env, errno, "%s: cannot lseek %s", what, TMPFILE1);
	while (!ret && n--) {
		st = read(fd, nbuf, sizeof(nbuf));
		if (st != (ssize_t)sizeof(nbuf))
			ret = aim7_fail(env, st < 0 ? errno : EIO, "%s: cannot read %s", what,
					TMPFILE1);
		else if ((st = write(fd2, nbuf, sizeof(nbuf))) != (ssize_t)sizeof(nbuf))
			ret = aim7_fail(env, st < 0 ? errno : ENOSPC, "%s: cannot write %s", what, fn);
	}
	if (sync)
		unlink(fn);
	close(fd);
	close(fd2);
	return ret;
}

static int disk_cp(struct aim7_env *env)
{
	return copy_common(env, 0);
}

static int sync_disk_cp(struct aim7_env *env)
{
	return copy_common(env, 1);
}

/* disk1.c disk_wrt() and sync_disk_wrt(): n blocks to a creat()ed file
 * unlinked at once, or n/2 blocks through O_SYNC, unlinked at the end. */
static int write_test(struct aim7_env *env, int sync)
{
	const char *what = sync ? "sync_disk_wrt" : "disk_wrt";
	char fn[64];
	int fd, ret;

	aim7_mktemp(env, fn, sizeof(fn), TMPFILE2);
	fd = open(fn, O_WRONLY | O_CREAT | O_TRUNC | (sync ? O_SYNC : 0), MODE_ALL);
	if (fd < 0)
		return aim7_fail(env, errno, "%s: cannot create %s", what, fn);
	if (!sync)
		unlink(fn);
	ret = write_blocks(fd, sync ? env->disk_kib / 2 : env->disk_kib);
	if (sync)
		unlink(fn);
	close(fd);
	return ret ? aim7_fail(env, -ret, "%s: cannot write %s", what, fn) : 0;
}

static int disk_wrt(struct aim7_env *env)
{
	return write_test(env, 0);
}

static int sync_disk_wrt(struct aim7_env *env)
{
	return write_test(env, 1);
}

/* creat-clo.c creat_clo(): 1000 creat() + close() of one name, then unlink. */
static int creat_clo(struct aim7_env *env)
{
	char fn[64];
	int n, fd;

	aim7_mktemp(env, fn, sizeof(fn), TMPFILE2);
	for (n = 0; n < 1000; n++) {
		fd = creat(fn, MODE_ALL);
		if (fd < 0)
			return aim7_fail(env, errno, "creat-clo: creat %s", fn);
		if (close(fd))
			return aim7_fail(env, errno, "creat-clo: close %s", fn);
	}
	unlink(fn);
	return 0;
}

/* creat-clo.c link_test(): creat one file, 7 links to it (LINK_MAX 8),
 * 9 rounds of unlink + link of each link, unlink all 8, close. */
static int link_test(struct aim7_env *env)
{
	char fns[8][32];
	int i, n, fd, ret = 0;

	for (i = 0; i < 8; i++)
		aim7_mktemp(env, fns[i], sizeof(fns[i]), "link");
	fd = creat(fns[0], MODE_ALL);
	if (fd < 0)
		return aim7_fail(env, errno, "link_test: unable to create %s", fns[0]);
	for (i = 1; i < 8 && !ret; i++)
		if (link(fns[0], fns[i]))
			ret = aim7_fail(env, errno, "link_test: link %s", fns[i]);
	for (n = 0; n < 9 && !ret; n++)
		for (i = 1; i < 8 && !ret; i++)
			if (unlink(fns[i]) || link(fns[0], fns[i]))
				ret = aim7_fail(env, errno, "link_test: relink %s", fns[i]);
	for (i = 0; i < 8; i++)
		if (unlink(fns[i]) && !ret)
			ret = aim7_fail(env, errno, "link_test: unlink %s", fns[i]);
	close(fd);
	return ret;
}

/* The fakeh tree: its shape is AIM's (fakeh.tar: 8 directories 0 to 6
 * levels deep, each with 40 empty files, and a dirlist naming 57 of them
 * for stat and 43 absent names for creat), the names are bootmark's. */
static const char *const fakeh_dirs[] = {
	".", "b", "u/d/t/s/s", "u/j/p/t/c", "u/k/s/s/m/m", "u/s/u/x", "u/t/b/s/b", "u/y",
};
static const int fakeh_stat[] = { 8, 6, 8, 8, 7, 7, 6, 7 };    /* 57 */
static const int fakeh_creat[] = { 0, 7, 6, 7, 6, 6, 6, 5 };   /* 43 */
#define FAKEH_FILES 40
#define FAKEH_MFILES 75        /* disk_src.c MFILES: list slots of each kind */

static int mkdir_p(const char *path)
{
	char buf[160], *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return mkdir(buf, 0755) && errno != EEXIST ? -errno : 0;
}

int aim7_make_fakeh(char *err, size_t errlen)
{
	char path[160];
	FILE *list;
	size_t d;
	int i, fd, ret = 0;

	for (d = 0; d < sizeof(fakeh_dirs) / sizeof(fakeh_dirs[0]) && !ret; d++) {
		snprintf(path, sizeof(path), "fakeh/%s", fakeh_dirs[d]);
		ret = mkdir_p(path);
		for (i = 0; i < FAKEH_FILES && !ret; i++) {
			snprintf(path, sizeof(path), "fakeh/%s/fake%02d", fakeh_dirs[d], i);
			fd = creat(path, 0664);
			if (fd < 0)
				ret = -errno;
			else
				close(fd);
		}
	}
	list = ret ? NULL : fopen("fakeh/dirlist", "w");
	if (!ret && !list)
		ret = -errno;
	for (d = 0; list && d < sizeof(fakeh_dirs) / sizeof(fakeh_dirs[0]); d++) {
		fprintf(list, "./%s\n", fakeh_dirs[d]);
		for (i = 0; i < FAKEH_FILES; i++)
			fprintf(list, "./%s/fake%02d\n", fakeh_dirs[d], i);
		for (i = 0; i < fakeh_stat[d]; i++)
			fprintf(list, "s ./%s/fake%02d\n", fakeh_dirs[d], i * 5);
		for (i = 0; i < fakeh_creat[d]; i++)
			fprintf(list, "c ./%s/notexist%d\n", fakeh_dirs[d], i + 1);
	}
	if (list && fclose(list))
		ret = -errno;
	if (ret)
		snprintf(err, errlen, "cannot make the fakeh tree for disk_src: %s", strerror(-ret));
	return ret;
}

/* disk_src.c scramble(): MSCR = 5 passes, each swapping every slot with
 * slot aim_rand() % num (empty slots included). */
static void scramble(struct aim7_env *env, char **list, int num)
{
	int pass, i, r;
	char *t;

	for (pass = 0; pass < 5; pass++)
		for (i = 0; i < num; i++) {
			r = (int)(aim7_rand(&env->seed) % (unsigned)num);
			t = list[i];
			list[i] = list[r];
			list[r] = t;
		}
}

/* disk_src.c get_list(): the "s" and "c" lines of dirlist; creat names
 * get the last 5 digits of the pid. */
static int get_list(FILE *f, char *st[], char *cr[])
{
	char line[160];
	int ns = 0, nc = 0;
	size_t n;

	while (fgets(line, sizeof(line) - 1, f)) {
		if ((line[0] != 's' && line[0] != 'c') || ns >= FAKEH_MFILES || nc >= FAKEH_MFILES)
			continue;
		n = strlen(line);
		if (n && line[n - 1] == '\n')
			line[n - 1] = '\0';
		if (line[0] == 's') {
			st[ns] = strdup(line + 2);
			if (!st[ns++])
				return -ENOMEM;
		} else {
			cr[nc] = malloc(strlen(line + 2) + 8);
			if (!cr[nc])
				return -ENOMEM;
			sprintf(cr[nc++], "%s%05d", line + 2, (int)(getpid() % 100000));
		}
	}
	return 0;
}

static int dsearch_list(struct aim7_env *env, char *st[], char *cr[])
{
	struct stat sb;
	int i, fd;

	scramble(env, st, FAKEH_MFILES);
	scramble(env, cr, FAKEH_MFILES);
	for (i = 0; i < FAKEH_MFILES; i++) {
		if (st[i] && stat(st[i], &sb))
			return aim7_fail(env, errno, "disk_src: can't stat '%s'", st[i]);
		if (!cr[i])
			continue;
		fd = creat(cr[i], MODE_ALL);
		if (fd < 0)
			return aim7_fail(env, errno, "disk_src: can't creat '%s'", cr[i]);
		close(fd);
		if (unlink(cr[i]))
			return aim7_fail(env, errno, "disk_src: can't unlink '%s'", cr[i]);
	}
	return 0;
}

/* disk_src.c dsearch(): chdir into fakeh, read dirlist, scramble both
 * lists, stat each listed file and creat + unlink each absent name, chdir
 * back. */
static int disk_src(struct aim7_env *env)
{
	char *st[FAKEH_MFILES] = { 0 }, *cr[FAKEH_MFILES] = { 0 }, cwd[512];
	FILE *f;
	int i, ret;

	if (!getcwd(cwd, sizeof(cwd)))
		return aim7_fail(env, errno, "disk_src: getcwd");
	if (chdir("fakeh"))
		return aim7_fail(env, errno, "disk_src: directory 'fakeh' is inaccessible");
	f = fopen("dirlist", "r");
	if (!f) {
		ret = aim7_fail(env, errno, "disk_src: file 'dirlist' is inaccessible");
		goto out_chdir;
	}
	ret = get_list(f, st, cr);
	fclose(f);
	ret = ret ? aim7_fail(env, -ret, "disk_src: dirlist") : dsearch_list(env, st, cr);
	for (i = 0; i < FAKEH_MFILES; i++) {
		free(st[i]);
		free(cr[i]);
	}
out_chdir:
	if (chdir(cwd) && !ret)
		ret = aim7_fail(env, errno, "disk_src: chdir back to %s", cwd);
	return ret;
}

/* multitask.c disk_create_all_files(): tmpa.common, creat()ed and written
 * in 1 KiB blocks of j % 127, disk_iteration_count of them, no fsync. */
int aim7_make_common(unsigned kib, char *err, size_t errlen)
{
	char buf[AIM7_NBUF];
	int fd, i, ret = 0;

	for (i = 0; i < AIM7_NBUF; i++)
		buf[i] = (char)(i % 127);
	fd = creat(TMPFILE1, 0666);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create %s: %s", TMPFILE1, strerror(errno));
		return -errno;
	}
	while (!ret && kib--)
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			ret = errno ? -errno : -ENOSPC;
	if (close(fd) && !ret)
		ret = -errno;
	if (ret)
		snprintf(err, errlen, "cannot write %s: %s", TMPFILE1, strerror(-ret));
	return ret;
}

const struct aim7_test aim7_disk_tests[] = {
	{ "disk_rr", disk_rr, "disk1.c disk_rr()", "n-block file, n random 1 KiB reads" },
	{ "disk_rw", disk_rw, "disk1.c disk_rw()", "n-block file, n random 1 KiB writes" },
	{ "disk_rd", disk_rd, "disk1.c disk_rd()", "n sequential 1 KiB reads of tmpa.common" },
	{ "disk_wrt", disk_wrt, "disk1.c disk_wrt()", "n 1 KiB writes to an unlinked file" },
	{ "disk_cp", disk_cp, "disk1.c disk_cp()", "n blocks of tmpa.common copied" },
	{ "sync_disk_rw", sync_disk_rw, "disk1.c sync_disk_rw()",
	  "n/2-block file, n/2 random O_SYNC writes" },
	{ "sync_disk_wrt", sync_disk_wrt, "disk1.c sync_disk_wrt()", "n/2 O_SYNC 1 KiB writes" },
	{ "sync_disk_cp", sync_disk_cp, "disk1.c sync_disk_cp()", "n/2 blocks copied O_SYNC" },
	{ "sync_disk_update", sync_disk_update, "disk1.c sync_disk_update()",
	  "n-block file, n/2 random read + O_SYNC write" },
	{ "disk_src", disk_src, "disk_src.c disk_src(), dsearch()",
	  "57 stats, 43 creat+unlink in the fakeh tree" },
	{ "creat-clo", creat_clo, "creat-clo.c creat_clo()", "1000 creat+close of one name" },
	{ "link_test", link_test, "creat-clo.c link_test()", "7 links, 63 unlink+link pairs" },
	{ NULL, NULL, NULL, NULL },
};
