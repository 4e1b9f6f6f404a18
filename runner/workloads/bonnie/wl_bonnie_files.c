// SPDX-License-Identifier: MIT
/*
 * bonnie's file tests, as bonnie++ 2.00a's COpenTest: num * 1024 files in
 * <mnt>/Bonnie.<pid> (and its %05d subdirectories when dirs > 1).
 *
 *   create  open(O_CREAT|O_EXCL|O_WRONLY), write min..max bytes in 8 KiB
 *           chunks when max_size > 0, close; in name order; then sync()
 *   stat    stat(), and read the whole file when its size is not 0
 *   delete  unlink, then rmdir the directories; then sync()
 *
 * Sequential stat and delete walk readdir() order, random ones a shuffled
 * name list.  sync() is inside the timer of create and delete.  The
 * directory walks use *at() calls on directory fds where bonnie++ does
 * chdir(): the same one-component lookups, without moving PID 1's cwd.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hosttree.h"
#include "log.h"
#include "stats.h"
#include "wl.h"
#include "wl_bonnie.h"

#define BON_FILE_CHUNK 8192     /* bonnie++'s default -n chunk */
#define BON_RAND_EXTRA 12       /* up to 12 random characters per name */
#define BON_NAME_MAX (6 + 10 + BON_RAND_EXTRA + 1)
#define BON_FILE_BEAT 1024

static const char bon_rand_chars[] =
	"abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/* The pointer block has a slot before names[0] that holds the text block,
 * so that a shuffle cannot lose it. */
char **bon_names_make(long n, long dirs, int random_order, uint64_t *rng)
{
	return bon_names_make_v(n, dirs, random_order, rng, BON_V200A);
}

/* 1.02c (1.03's make_names) wrote the index as %07d, 2.00a as %010x. */
char **bon_names_make_v(long n, long dirs, int random_order, uint64_t *rng, int version)
{
	long per = n / dirs, i;
	char **p = malloc((size_t)(n + 1) * sizeof(*p));
	char *text = malloc((size_t)n * BON_NAME_MAX), *at;

	if (!p || !text) {
		free(p);
		free(text);
		return NULL;
	}
	p[0] = text;
	for (i = 0, at = text; i < n; i++) {
		char extra[BON_RAND_EXTRA + 1], dir[24] = "";
		int len = (int)(bon_rng_next(rng) % (BON_RAND_EXTRA + 1)), j;

		for (j = 0; j < len; j++)
			extra[j] = bon_rand_chars[bon_rng_next(rng) % (sizeof(bon_rand_chars) - 1)];
		extra[len] = '\0';
		if (dirs > 1)
			snprintf(dir, sizeof(dir), "%05ld/", i / (per + 1));
		p[i + 1] = at;
		if (version == BON_V102C && random_order)
			at += snprintf(at, BON_NAME_MAX, "%s%s%07ld", dir, extra, i);
		else if (version == BON_V102C)
			at += snprintf(at, BON_NAME_MAX, "%s%07ld%s", dir, i, extra);
		else if (random_order)
			at += snprintf(at, BON_NAME_MAX, "%s%s%010lx", dir, extra, (unsigned long)i);
		else
			at += snprintf(at, BON_NAME_MAX, "%s%010lx%s", dir, (unsigned long)i, extra);
		at++;
	}
	return p + 1;
}

void bon_names_free(char **names)
{
	if (!names)
		return;
	free(names[-1]);
	free(names - 1);
}

void bon_names_shuffle(char **names, long n, uint64_t *rng)
{
	long i, j;
	char *tmp;

	for (i = 0; i < n; i++) {
		j = (long)(bon_rng_next(rng) % (uint64_t)n);
		tmp = names[i];
		names[i] = names[j];
		names[j] = tmp;
	}
}

void bon_cleanup(const struct wl_ctx *ctx)
{
	char path[512];
	const char *name;
	int fd;

	bon_path(ctx, path, sizeof(path));
	name = strrchr(path, '/') + 1;
	fd = open(ctx->mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (unlinkat(fd, name, 0) && errno == EISDIR)
		hosttree_remove(fd, name);
	close(fd);
}

/* What a file test works on: the mount point, the test directory, names. */
struct bon_tree {
	int mntfd, dirfd;
	const char *name;           /* "Bonnie.<pid>" in mntfd */
	char path[512];
	char **names;
	long n;
	unsigned char buf[BON_FILE_CHUNK];
};

static int bon_tree_open(struct bon_tree *t, const struct wl_ctx *ctx,
			 const struct bonnie_opts *o, int create)
{
	char sub[24];
	long d;

	t->n = o->num * 1024;
	t->names = NULL;
	t->dirfd = -1;
	bon_path(ctx, t->path, sizeof(t->path));
	t->name = strrchr(t->path, '/') + 1;
	t->mntfd = open(ctx->mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t->mntfd < 0)
		return -errno;
	if (create && mkdirat(t->mntfd, t->name, 0700))
		return -errno;
	t->dirfd = openat(t->mntfd, t->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t->dirfd < 0)
		return -errno;
	for (d = 0; create && o->dirs > 1 && d < o->dirs; d++) {
		snprintf(sub, sizeof(sub), "%05ld", d);
		if (mkdirat(t->dirfd, sub, 0700))
			return -errno;
	}
	return 0;
}

static void bon_tree_close(struct bon_tree *t)
{
	if (t->dirfd >= 0)
		close(t->dirfd);
	if (t->mntfd >= 0)
		close(t->mntfd);
	bon_names_free(t->names);
	t->names = NULL;
	t->dirfd = t->mntfd = -1;
}

/* The names of a create test's stream: stat and delete rebuild them. */
static int bon_tree_names(struct bon_tree *t, const struct bonnie_opts *o, int rnd,
			  uint64_t *rng)
{
	*rng = bon_rng_init(o->seed, rnd ? BON_RND_CREATE : BON_SEQ_CREATE, 0);
	t->names = bon_names_make_v(t->n, o->dirs, rnd, rng, bon_ver(o));
	return t->names ? 0 : -ENOMEM;
}

/* 2.00a creates O_CREAT|O_EXCL|O_WRONLY; 1.02c called creat(). */
static int bon_create_one(struct bon_tree *t, const char *name, uint64_t size, int version)
{
	int flags = version == BON_V102C ? O_CREAT | O_TRUNC | O_WRONLY
					 : O_CREAT | O_EXCL | O_WRONLY;
	uint64_t done;
	size_t len;
	int fd, ret = 0;

	fd = openat(t->dirfd, name, flags | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	for (done = 0; done < size && !ret; done += len) {
		len = size - done < sizeof(t->buf) ? (size_t)(size - done) : sizeof(t->buf);
		if (write(fd, t->buf, len) != (ssize_t)len)
			ret = errno ? -errno : -ENOSPC;
	}
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* Creates every file in name order; sizes come from the names' stream. */
static int bon_create_all(struct wl_ctx *ctx, struct bon_tree *t,
			  const struct bonnie_opts *o, uint64_t *rng, struct bon_meas *m,
			  uint64_t *bytes)
{
	uint64_t range = o->max_size - o->min_size, size;
	long i;
	int ret;

	for (i = 0; i < t->n; i++) {
		uint64_t t0 = bm_now_ns();

		size = range ? o->min_size + bon_rng_next(rng) % (range + 1) : o->max_size;
		ret = bon_create_one(t, t->names[i], size, bon_ver(o));
		if (ret)
			return ret;
		*bytes += size;
		bon_unit_done(m, t0);
		bon_beat(ctx, (uint64_t)i + 1, BON_FILE_BEAT, "bonnie create");
	}
	return 0;
}

static int bon_stat_one(struct bon_tree *t, int dirfd, const char *name, uint64_t *bytes)
{
	struct stat st;
	ssize_t n;
	off_t done;
	int fd, ret = 0;

	if (fstatat(dirfd, name, &st, 0))
		return -errno;
	if (!st.st_size)
		return 0;
	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* bonnie++'s COpenTest::stat_file asks for the chunk or what is left */
	for (done = 0; done < st.st_size; done += n) {
		off_t left = st.st_size - done;

		n = read(fd, t->buf, left < (off_t)sizeof(t->buf) ? (size_t)left : sizeof(t->buf));
		if (n <= 0) {
			ret = n < 0 ? -errno : -ENODATA;
			break;
		}
	}
	close(fd);
	*bytes += (uint64_t)done;
	return ret;
}

/* One directory in readdir() order: stat (and read) or unlink each file. */
static int bon_walk_dir(struct wl_ctx *ctx, struct bon_tree *t, int fd, int del,
			struct bon_meas *m, uint64_t *bytes)
{
	struct dirent *de;
	DIR *d = fdopendir(fd);
	int ret = 0;

	if (!d) {
		close(fd);
		return -errno;
	}
	for (;;) {
		uint64_t t0 = bm_now_ns();

		errno = 0;
		de = readdir(d);
		if (!de) {
			ret = -errno;
			break;
		}
		if (de->d_name[0] == '.')
			continue;  /* our files never start with a dot */
		if (del)
			ret = unlinkat(dirfd(d), de->d_name, 0) ? -errno : 0;
		else
			ret = bon_stat_one(t, dirfd(d), de->d_name, bytes);
		if (ret)
			break;
		bon_unit_done(m, t0);
		bon_beat(ctx, m->units, BON_FILE_BEAT, del ? "bonnie delete" : "bonnie stat");
	}
	closedir(d);
	return ret;
}

/* Removes the (emptied) subdirectories and the test directory. */
static int bon_rmdirs(struct bon_tree *t, const struct bonnie_opts *o)
{
	char sub[24];
	long d;

	for (d = 0; o->dirs > 1 && d < o->dirs; d++) {
		snprintf(sub, sizeof(sub), "%05ld", d);
		if (unlinkat(t->dirfd, sub, AT_REMOVEDIR))
			return -errno;
	}
	return unlinkat(t->mntfd, t->name, AT_REMOVEDIR) ? -errno : 0;
}

static int bon_walk_seq(struct wl_ctx *ctx, struct bon_tree *t, const struct bonnie_opts *o,
			int del, struct bon_meas *m, uint64_t *bytes)
{
	char sub[24];
	long d;
	int fd, ret = 0;

	for (d = 0; d < o->dirs && !ret; d++) {
		snprintf(sub, sizeof(sub), "%05ld", d);
		fd = openat(t->dirfd, o->dirs > 1 ? sub : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		ret = bon_walk_dir(ctx, t, fd, del, m, bytes);
	}
	if (!ret && (long)m->units != t->n) {
		rlog(RLOG_ERR, "bonnie: expected %ld files, found %llu", t->n,
		     (unsigned long long)m->units);
		ret = -EIO;
	}
	if (!ret && del)
		ret = bon_rmdirs(t, o);
	return ret;
}

static int bon_walk_rnd(struct wl_ctx *ctx, struct bon_tree *t, const struct bonnie_opts *o,
			int del, struct bon_meas *m, uint64_t *bytes)
{
	long i;
	int ret = 0;

	for (i = 0; i < t->n && !ret; i++) {
		uint64_t t0 = bm_now_ns();

		if (del)
			ret = unlinkat(t->dirfd, t->names[i], 0) ? -errno : 0;
		else
			ret = bon_stat_one(t, t->dirfd, t->names[i], bytes);
		if (!ret)
			bon_unit_done(m, t0);
		bon_beat(ctx, (uint64_t)i + 1, BON_FILE_BEAT, del ? "bonnie delete" : "bonnie stat");
	}
	if (!ret && del)
		ret = bon_rmdirs(t, o);
	return ret;
}

static int bon_is_rnd(int test)
{
	return test >= BON_RND_CREATE;
}

static int bon_files_test(struct wl_ctx *ctx, struct bon_tree *t, const struct bonnie_opts *o,
			  int test, uint64_t *rng, struct bon_meas *m, uint64_t *bytes)
{
	int ret;

	switch (test) {
	case BON_SEQ_CREATE:
	case BON_RND_CREATE:
		ret = bon_create_all(ctx, t, o, rng, m, bytes);
		if (bon_ver(o) == BON_V200A)    /* 1.02c had no sync() here */
			sync();
		return ret;
	case BON_SEQ_STAT:
	case BON_SEQ_DEL:
		ret = bon_walk_seq(ctx, t, o, test == BON_SEQ_DEL, m, bytes);
		break;
	default:
		ret = bon_walk_rnd(ctx, t, o, test == BON_RND_DEL, m, bytes);
		break;
	}
	if ((test == BON_SEQ_DEL || test == BON_RND_DEL) && bon_ver(o) == BON_V200A)
		sync();
	return ret;
}

/*
 * Untimed, the tests of one stream (sequential or random) on a fresh tree,
 * as bonnie++ runs them: what a test finds before its timer starts.
 */
static int bon_files_replay(struct wl_ctx *ctx, const struct bonnie_opts *o, int rnd,
			    const int *tests, size_t n)
{
	struct bon_meas m;
	uint64_t rng, bytes = 0;
	struct bon_tree t;
	size_t i;
	int ret;

	memset(t.buf, 0, sizeof(t.buf));
	ret = bon_tree_open(&t, ctx, o, 1);
	if (!ret)
		ret = bon_tree_names(&t, o, rnd, &rng);
	for (i = 0; i < n && !ret; i++) {
		memset(&m, 0, sizeof(m));
		ret = bon_files_test(ctx, &t, o, tests[i], &rng, &m, &bytes);
	}
	bon_tree_close(&t);
	return ret;
}

/*
 * Stat and delete find the files their create test made, synced as 2.00a's
 * create ends; the runner keeps that state for cache=chained
 * (bonnie_keep_cache).  The random create, with cache=chained, follows the
 * sequential tests: their files made, read back and deleted, the blocks its
 * files are allocated from freed a moment ago.
 */
int bon_files_prepare(struct wl_ctx *ctx, const struct bonnie_opts *o, int test)
{
	static const int seq[] = { BON_SEQ_CREATE, BON_SEQ_STAT, BON_SEQ_DEL };
	int create = bon_is_rnd(test) ? BON_RND_CREATE : BON_SEQ_CREATE;

	if (test == BON_RND_CREATE && !strcmp(o->cache, "chained"))
		return bon_files_replay(ctx, o, 0, seq, sizeof(seq) / sizeof(seq[0]));
	if (test == BON_SEQ_CREATE || test == BON_RND_CREATE)
		return 0;
	return bon_files_replay(ctx, o, bon_is_rnd(test), &create, 1);
}

int bon_files_run(struct wl_ctx *ctx, const struct bonnie_opts *o, int test,
		  struct bm_result *r)
{
	int create = test == BON_SEQ_CREATE || test == BON_RND_CREATE, ret;
	struct bon_meas m = { 0 };
	struct bon_timer tm;
	struct bon_tree t;
	uint64_t rng, bytes = 0;

	memset(t.buf, 0, sizeof(t.buf));
	/* Untimed, as in bonnie++: directories, names, the shuffle. */
	ret = bon_tree_open(&t, ctx, o, create);
	if (!ret && (create || bon_is_rnd(test)))
		ret = bon_tree_names(&t, o, bon_is_rnd(test), &rng);
	if (ret)
		goto out_close;
	if (!create && bon_is_rnd(test)) {
		rng = bon_rng_init(o->seed, test, 1);
		bon_names_shuffle(t.names, t.n, &rng);
	}
	bon_timer_start(&tm);
	ret = bon_files_test(ctx, &t, o, test, &rng, &m, &bytes);
	bon_timer_stop(&tm, &m);
	bon_add_common(r, &m, (double)m.units, "files/s");
	bm_result_add(r, "files", (double)m.units, "count");
	if (o->max_size && test != BON_SEQ_DEL && test != BON_RND_DEL)
		bm_result_add(r, "bytes", (double)bytes, "B");
out_close:
	bon_tree_close(&t);
	return ret;
}
