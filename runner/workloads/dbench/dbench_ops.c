// SPDX-License-Identifier: MIT
/*
 * dbench 4.0 fileio.c, operation by operation (docs/workloads.md lists
 * each one's syscalls).  Statuses: NTCreateX, and the queries, only count
 * a mismatch (dbench prints it); Unlink, Rename and Rmdir end the run, as
 * dbench exits there.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include "dbench_ops.h"

#define FILE_DIRECTORY_FILE 1
#define FILE_CREATE 2
#define FILE_OVERWRITE 4
#define FILE_OVERWRITE_IF 5

void db_path(char *out, size_t len, const char *dir, const char *path, int id)
{
	size_t used = (size_t)snprintf(out, len, "%s", dir);
	const char *p = path, *hit;

	while (used < len && (hit = strstr(p, "client1"))) {
		used += (size_t)snprintf(out + used, len - used, "%.*sclient%d", (int)(hit - p), p, id);
		p = hit + 7;
	}
	if (used < len)
		snprintf(out + used, len - used, "%s", p);
}

uint64_t db_max_io(const struct db_load *l)
{
	uint64_t m = 4096;
	size_t i;

	for (i = 0; i < l->n; i++)
		if ((l->op[i].kind == DB_READX || l->op[i].kind == DB_WRITEX) &&
		    (uint64_t)l->op[i].a[2] > m)
			m = (uint64_t)l->op[i].a[2];
	return m;
}

int db_client_init(struct db_client *c, int id, const char *dir, const struct db_load *l,
		   int sync_open, int sync_dirs)
{
	memset(c, 0, sizeof(*c));
	c->id = id;
	c->dir = dir;
	c->l = l;
	c->sync_open = sync_open;
	c->sync_dirs = sync_dirs;
	c->buf = calloc(1, db_max_io(l));
	c->dirbuf = malloc(DB_DIRBUF);
	return c->buf && c->dirbuf ? 0 : -ENOMEM;
}

/* The handles a client still holds: closed as its process's exit closes them. */
static void db_client_close(struct db_client *c)
{
	int i;

	for (i = 0; i < DB_FTABLE_MAX; i++) {
		if (c->ft[i].handle) {
			close(c->ft[i].fd);
			free(c->ft[i].name);
			c->ft[i].handle = 0;
		}
	}
}

void db_client_free(struct db_client *c)
{
	db_client_close(c);
	free(c->buf);
	free(c->dirbuf);
	c->buf = NULL;
	c->dirbuf = NULL;
}

__attribute__((format(printf, 3, 4)))
static int db_fail(struct db_client *c, const struct db_op *op, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(c->err, sizeof(c->err), "client %d, loadfile line %u: %s: ", c->id,
			 op->line, db_kind_name[op->kind]);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < sizeof(c->err))
		vsnprintf(c->err + n, sizeof(c->err) - (size_t)n, fmt, ap);
	va_end(ap);
	return -EIO;
}

/*
 * A folder read as dbench 4.0, a glibc program, reads it with opendir(),
 * readdir() and closedir(): an open with O_NONBLOCK, an fstat, getdents64 of
 * 32 KiB into buf (DB_DIRBUF bytes), a close.  Stops at the first entry for
 * which stop(name, arg) is true.  musl's DIR reads 2 KiB a call and is a 2 KiB
 * malloc each time: in a process of many client threads, its free unmaps and
 * shoots down the other CPUs' TLBs (perf, 4 clients: pvm_flush_tlb_multi 3.4%,
 * mallocng 4%, the mmap lock 1%; throughput 0.87x dbench's, docs/performance.md).
 */
static void db_scan(char *buf, const char *dname, int (*stop)(const char *, void *), void *arg)
{
	struct stat st;
	long n, pos;
	int fd = openat(AT_FDCWD, dname, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_DIRECTORY);

	if (fd < 0)
		return;
	fstat(fd, &st);
	while (stop && (n = syscall(SYS_getdents64, fd, buf, DB_DIRBUF)) > 0) {
		for (pos = 0; pos < n;) {
			struct dirent *d = (struct dirent *)(void *)(buf + pos);

			pos += d->d_reclen;
			if (stop(d->d_name, arg))
				goto out_close;
		}
	}
out_close:
	close(fd);
}

static int db_same_name(const char *name, void *want)
{
	return !strcasecmp(want, name);
}

/* dbench's resolve_name: stat, and when that fails a case-blind search
 * of the folder (the name itself is not changed). */
static void db_resolve(struct db_client *c, const char *name)
{
	char dname[PATH_MAX], *p;
	struct stat st;

	if (stat(name, &st) == 0)
		return;
	snprintf(dname, sizeof(dname), "%s", name);
	p = strrchr(dname, '/');
	if (!p)
		return;
	*p = '\0';
	db_scan(c->dirbuf, dname, db_same_name, p + 1);
}

static int db_slot(struct db_client *c, int64_t handle)
{
	int i;

	for (i = 0; i < DB_FTABLE_MAX; i++)
		if (c->ft[i].handle == handle)
			return i;
	return -1;
}

static int db_fd(struct db_client *c, const struct db_op *op, int *fd, int *slot)
{
	int i = db_slot(c, op->a[0]);

	if (i < 0 || !op->a[0])
		return db_fail(c, op, "handle %lld was not found", (long long)op->a[0]);
	*fd = c->ft[i].fd;
	if (slot)
		*slot = i;
	return 0;
}

static void db_sync_parent(struct db_client *c, const char *name)
{
	char dname[PATH_MAX], *p;
	int fd;

	if (!c->sync_dirs)
		return;
	snprintf(dname, sizeof(dname), "%s", name);
	p = strrchr(dname, '/');
	if (!p)
		return;
	*p = '\0';
	fd = open(dname, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fdatasync(fd);
		close(fd);
	}
}

static int db_createx(struct db_client *c, const struct db_op *op, const char *name)
{
	int flags = O_RDWR | O_CLOEXEC, fd, i;
	int64_t opts = op->a[0], disp = op->a[1];
	struct stat st;

	db_resolve(c, name);
	if (c->sync_open)
		flags |= O_SYNC;
	if (disp == FILE_CREATE)
		flags |= O_CREAT;
	if (disp == FILE_OVERWRITE || disp == FILE_OVERWRITE_IF)
		flags |= O_CREAT | O_TRUNC;
	if (opts & FILE_DIRECTORY_FILE) {
		mkdir(name, 0700);
		flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
	}
	fd = open(name, flags, 0600);
	if (fd < 0 && errno == EISDIR)
		fd = open(name, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0600);
	if (fd < 0 || !op->ok) {
		/* dbench prints "open ... failed/succeeded" and goes on */
		c->mism += (fd < 0) == op->ok;
		if (fd >= 0)
			close(fd);
		return 0;
	}
	i = db_slot(c, 0);
	if (i < 0) {
		close(fd);
		return db_fail(c, op, "file table full (%d open files)", DB_FTABLE_MAX);
	}
	c->ft[i].name = strdup(name);
	if (!c->ft[i].name) {
		close(fd);
		return -ENOMEM;
	}
	c->ft[i].handle = op->a[2];
	c->ft[i].fd = fd;
	/* fio_createx's fstat of every handle it keeps (for its xattr hook,
	 * which -x enables; seen in 4.0's trace, tests/trace_dbench.sh) */
	fstat(fd, &st);
	return 0;
}

/* Unlink, Rename, Rmdir: dbench exits when the status is not the expected one. */
static int db_must(struct db_client *c, const struct db_op *op, int ret, const char *name)
{
	int e = errno;

	if ((ret == 0) != op->ok)
		return db_fail(c, op, "%s %s: %s", name, ret ? "failed" : "succeeded",
			       ret ? strerror(e) : "expected an error status");
	if (!ret)
		db_sync_parent(c, name);
	return 0;
}

static int db_count_down(const char *name, void *left)
{
	(void)name;
	return --*(int64_t *)left <= 0;
}

static void db_findfirst(struct db_client *c, const struct db_op *op, const char *name)
{
	char dname[PATH_MAX], *p;
	int64_t left = op->a[1];

	db_resolve(c, name);
	if (!strpbrk(name, "<>*?\""))
		return;
	snprintf(dname, sizeof(dname), "%s", name);
	p = strrchr(dname, '/');
	if (!p)
		return;
	*p = '\0';
	/* maxcnt 0: opendir() and closedir(), no readdir() */
	db_scan(c->dirbuf, dname, left > 0 ? db_count_down : NULL, &left);
}

static int db_lock(struct db_client *c, const struct db_op *op, short type)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_start = op->a[1],
			    .l_len = op->a[2] };
	int fd = -1, ret = db_fd(c, op, &fd, NULL);

	if (!ret && fcntl(fd, F_SETLKW, &fl) && op->ok)
		c->mism++;
	return ret;
}

static int db_sfileinfo(struct db_client *c, const struct db_op *op)
{
	struct timeval tv[2];
	struct stat st;
	int fd = -1, i = 0, ret = db_fd(c, op, &fd, &i);

	if (ret)
		return ret;
	if (fstat(fd, &st))
		return 0;
	tv[0].tv_sec = st.st_atime - 10;
	tv[0].tv_usec = 0;
	tv[1].tv_sec = st.st_mtime - 12;
	tv[1].tv_usec = 0;
	utimes(c->ft[i].name, tv);
	return 0;
}

int db_exec(struct db_client *c, const struct db_op *op, uint64_t *bytes)
{
	const struct db_load *l = c->l;
	char *name = c->path[0], *name2 = c->path[1];
	struct statvfs sv;
	struct stat st;
	int fd = -1, i = 0, ret = 0;
	ssize_t n;

	*bytes = 0;
	if (op->name)
		db_path(name, PATH_MAX, c->dir, db_str(l, op->name), c->id);
	if (op->name2)
		db_path(name2, PATH_MAX, c->dir, db_str(l, op->name2), c->id);
	switch (op->kind) {
	case DB_NTCREATEX:
		return db_createx(c, op, name);
	case DB_CLOSE:
		ret = db_fd(c, op, &fd, &i);
		if (!ret) {
			close(fd);
			free(c->ft[i].name);
			c->ft[i].name = NULL;
			c->ft[i].handle = 0;
		}
		return ret;
	case DB_READX:
		ret = db_fd(c, op, &fd, NULL);
		if (!ret && pread(fd, c->buf, (size_t)op->a[2], op->a[1]) < 0)
			c->mism++;
		*bytes = (uint64_t)op->a[2];
		return ret;
	case DB_WRITEX:
		ret = db_fd(c, op, &fd, NULL);
		if (ret)
			return ret;
		n = pwrite(fd, c->buf, (size_t)op->a[2], op->a[1]);
		if (n != op->a[3])
			return db_fail(c, op, "wrote %zd bytes, expected %lld (%s)", n,
				       (long long)op->a[3], n < 0 ? strerror(errno) : "short write");
		*bytes = (uint64_t)op->a[2];
		return 0;
	case DB_FLUSH:
		ret = db_fd(c, op, &fd, NULL);
		if (!ret)
			fsync(fd);
		return ret;
	case DB_RENAME:
		/* fio_rename resolves both names first */
		db_resolve(c, name);
		db_resolve(c, name2);
		return db_must(c, op, rename(name, name2), name);
	case DB_UNLINK:
		db_resolve(c, name);
		return db_must(c, op, unlink(name), name);
	case DB_MKDIR:
		db_resolve(c, name);  /* fio_mkdir resolves the name first */
		mkdir(name, 0777);
		return 0;
	case DB_RMDIR:
		return db_must(c, op, rmdir(name), name);
	case DB_DELTREE:
		db_deltree(name);
		return 0;
	case DB_QPATHINFO:
		db_resolve(c, name);
		return 0;
	case DB_QFILEINFO:
		ret = db_fd(c, op, &fd, NULL);
		if (!ret)
			fstat(fd, &st);
		return ret;
	case DB_QFSINFO:
		statvfs(c->dir, &sv);
		return 0;
	case DB_SFILEINFO:
		return db_sfileinfo(c, op);
	case DB_FINDFIRST:
		db_findfirst(c, op, name);
		return 0;
	case DB_LOCKX:
		return db_lock(c, op, F_WRLCK);
	case DB_UNLOCKX:
		return db_lock(c, op, F_UNLCK);
	}
	return db_fail(c, op, "unknown operation kind %d", op->kind);
}

/* dbench 4.0's fio_cleanup, which each client runs when its time is up: its
 * folder's files deleted (Deltree leaves the folders), then an rmdir of
 * clients/ that only the last client to leave can win. */
void db_cleanup(struct db_client *c)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/clients/client%d", c->dir, c->id);
	db_deltree(path);
	snprintf(path, sizeof(path), "%s/clients", c->dir);
	rmdir(path);
	db_client_close(c);
	c->cleaned = 1;
}

static int db_delete_one(const char *name, void *dir)
{
	char sub[PATH_MAX];
	struct stat st;

	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return 0;
	if (snprintf(sub, sizeof(sub), "%s/%s", (const char *)dir, name) >= (int)sizeof(sub))
		return 0;
	if (stat(sub, &st))
		return 0;
	if (S_ISDIR(st.st_mode))
		db_deltree(sub);
	else
		unlink(sub);
	return 0;
}

/* fio_deltree: the files of a tree deleted, its folders left; a buffer a level */
void db_deltree(const char *path)
{
	char *buf = malloc(DB_DIRBUF);

	if (!buf)
		return;
	db_scan(buf, path, db_delete_one, (void *)path);
	free(buf);
}
