// SPDX-License-Identifier: MIT
/*
 * kerntree: the kernel-tree tests of seed 004 (Alex Tomas, 2006), each on
 * a fresh filesystem, with one copy of the tree or two at once:
 *
 *   kernuntar  extract the tree from a tar stream, then syncfs()
 *   kernstat   stat every entry of the tree prepare() extracted
 *   kerncat    read every file of it to the end (cat > /dev/null)
 *   kernrm     remove it, then syncfs()
 *   kern*2     the same on two trees at once, one thread each
 *
 * The tree is the generated one (ktree_gen.h) served as a ustar stream from
 * memory and extracted by our own reader, or a tarball (tarball=PATH).
 * With compress=bzip2 the untar reads the archive through bzip2 -dc, as the
 * seed's "tar xjf" did (its UTIME of ~50 s was bzip2's): the generated
 * archive is compressed once in prepare() (runner/workloads/kerntree/ktree_bz2.c), a tarball
 * is taken as .tar.bz2.  Copies go to <mnt>/kern1 and <mnt>/kern2.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ktree_bz2.h"
#include "ktree_gen.h"
#include "ktree_ops.h"
#include "wl.h"
#include "wl_kerntree.h"

#define COPIES_MAX 2

enum { KT_UNTAR, KT_STAT, KT_CAT, KT_RM };

/* The .tar.bz2 the untar reads: the tarball, or the generated archive
 * compressed into /tmp (outside the test filesystem, in RAM in the image). */
static void kt_bz2_path(const struct kerntree_opts *o, char *buf, size_t len)
{
	uint32_t ppm = 0;

	if (o->tarball[0]) {
		snprintf(buf, len, "%s", o->tarball);
		return;
	}
	ktree_parse_scale(o->scale, &ppm);
	snprintf(buf, len, "/tmp/bootmark-kerntree-%lld-%u.tar.bz2", o->seed, (unsigned)ppm);
}

/* The generated tree, built once per (seed, scale) and shared read-only by
 * the copies; prepare() builds it, so run() never measures the building. */
static struct ktree kt_tree;
static uint64_t kt_tree_seed;
static uint32_t kt_tree_ppm;

static int kt_tree_get(const struct kerntree_opts *o)
{
	char path[200], err[300];
	struct ktree_stream st;
	uint32_t ppm;
	int ret = ktree_parse_scale(o->scale, &ppm);

	if (ret)
		return ret;
	if (kt_tree.files && kt_tree_seed == (uint64_t)o->seed && kt_tree_ppm == ppm)
		goto out_bz2;
	ktree_free(&kt_tree);
	ret = ktree_build(&kt_tree, (uint64_t)o->seed, ppm);
	if (ret)
		return ret;
	kt_tree_seed = (uint64_t)o->seed;
	kt_tree_ppm = ppm;
out_bz2:
	/* compressed once per (seed, scale), kept for the job's other tests */
	kt_bz2_path(o, path, sizeof(path));
	if (!kt_bz2(o) || !access(path, R_OK))
		return 0;
	ktree_stream_init(&st, &kt_tree);
	ret = ktree_bz2_compress(path, ktree_stream_read, &st, err, sizeof(err));
	if (ret)
		fprintf(stderr, "bootmark-runner: kerntree: %s\n", err);
	return ret;
}

static ssize_t fd_read(void *arg, void *buf, size_t len)
{
	int fd = *(int *)arg;
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = read(fd, (char *)buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

/* The copies still running: the last one to end wakes the waiter at once. */
struct kt_left {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int n;
};

struct kt_copy {
	const struct kerntree_opts *o;
	struct kt_left *left;
	int kind;
	int topfd;              /* the test filesystem's root */
	char dir[16];           /* "kern1" */
	struct ktree_count c;
	char err[300];
	int ret;
};

static int kt_untar(struct kt_copy *cp)
{
	struct ktree_stream st;
	int dfd, fd = -1, ret;

	dfd = openat(cp->topfd, cp->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		snprintf(cp->err, sizeof(cp->err), "%s: %s", cp->dir, strerror(errno));
		return -errno;
	}
	if (kt_bz2(cp->o)) {
		struct ktree_bz2 z;
		char path[200];

		kt_bz2_path(cp->o, path, sizeof(path));
		ret = ktree_bz2_open(path, &z, cp->err, sizeof(cp->err));
		if (!ret) {
			ret = ktree_extract(dfd, fd_read, &z.fd, &cp->c, cp->err, sizeof(cp->err));
			if (ktree_bz2_close(&z) && !ret) {
				ret = -EIO;
				snprintf(cp->err, sizeof(cp->err), "bzip2 -dc %s failed", path);
			}
		}
	} else if (cp->o->tarball[0]) {
		fd = open(cp->o->tarball, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			ret = -errno;
			snprintf(cp->err, sizeof(cp->err), "cannot open %s: %s",
				 cp->o->tarball, strerror(errno));
			goto out_close_dfd;
		}
		ret = ktree_extract(dfd, fd_read, &fd, &cp->c, cp->err, sizeof(cp->err));
		close(fd);
	} else {
		ktree_stream_init(&st, &kt_tree);
		ret = ktree_extract(dfd, ktree_stream_read, &st, &cp->c, cp->err,
				    sizeof(cp->err));
	}
out_close_dfd:
	close(dfd);
	return ret;
}

static int kt_copy_run(struct kt_copy *cp)
{
	int dfd, ret;

	if (cp->kind == KT_UNTAR)
		return kt_untar(cp);
	if (cp->kind == KT_RM)
		ret = ktree_rm(cp->topfd, cp->dir, &cp->c);
	else {
		dfd = openat(cp->topfd, cp->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0)
			ret = -errno;
		else if (cp->kind == KT_STAT)
			ret = ktree_stat(dfd, &cp->c);
		else
			ret = ktree_cat(dfd, &cp->c);
		if (dfd >= 0)
			close(dfd);
	}
	if (ret && !cp->err[0])
		snprintf(cp->err, sizeof(cp->err), "%s: %s", cp->dir, strerror(-ret));
	return ret;
}

static void *kt_thread(void *arg)
{
	struct kt_copy *cp = arg;

	cp->ret = kt_copy_run(cp);
	pthread_mutex_lock(&cp->left->lock);
	if (--cp->left->n == 0)
		pthread_cond_signal(&cp->left->cond);
	pthread_mutex_unlock(&cp->left->lock);
	return NULL;
}

static int kt_top(const struct wl_ctx *ctx)
{
	int fd = open(ctx->mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* Waits until no copy is left, beating every 100 ms meanwhile.  The wait
 * ends when the last copy ends, not at the next beat: the test's real time
 * is measured around it (a 100 ms sleep here made kerncat read 0.10 or 0.20 s). */
static void kt_wait(struct wl_ctx *ctx, struct kt_left *left)
{
	struct timespec until;

	pthread_mutex_lock(&left->lock);
	while (left->n) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 100 * 1000 * 1000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		if (pthread_cond_timedwait(&left->cond, &left->lock, &until) == ETIMEDOUT &&
		    left->n && ctx->beat) {
			pthread_mutex_unlock(&left->lock);
			ctx->beat(ctx, "kerntree");
			pthread_mutex_lock(&left->lock);
		}
	}
	pthread_mutex_unlock(&left->lock);
}

/* The copies, one thread each; this thread beats while they work. */
static int kt_copies(struct wl_ctx *ctx, const struct kerntree_opts *o, int kind, int n,
		     int topfd, struct kt_copy *cp)
{
	struct kt_left left = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, n };
	pthread_t th[COPIES_MAX];
	int i, started = 0, ret = 0;

	for (i = 0; i < n; i++) {
		memset(&cp[i], 0, sizeof(cp[i]));
		cp[i].o = o;
		cp[i].left = &left;
		cp[i].kind = kind;
		cp[i].topfd = topfd;
		snprintf(cp[i].dir, sizeof(cp[i].dir), "kern%d", i + 1);
	}
	for (i = 0; i < n; i++) {
		ret = -pthread_create(&th[i], NULL, kt_thread, &cp[i]);
		if (ret)
			break;
		started++;
	}
	if (started < n) {              /* the copies never started count as ended */
		pthread_mutex_lock(&left.lock);
		left.n -= n - started;
		pthread_mutex_unlock(&left.lock);
	}
	kt_wait(ctx, &left);
	for (i = 0; i < started; i++) {
		pthread_join(th[i], NULL);
		if (cp[i].ret && !ret)
			ret = cp[i].ret;
	}
	return ret;
}

static int kt_kind_split(const struct kerntree_opts *o, int idx, int *copies)
{
	int k = kt_kind(o, idx);

	if (k < 0)
		return k;
	*copies = k >= 4 ? 2 : 1;
	return k % 4;
}

static int kt_mkdirs(int topfd, int n)
{
	char dir[16];
	int i;

	for (i = 1; i <= n; i++) {
		snprintf(dir, sizeof(dir), "kern%d", i);
		if (mkdirat(topfd, dir, 0755) && errno != EEXIST)
			return -errno;
	}
	return 0;
}

static int kt_prepare(struct wl_ctx *ctx, const void *opts, int idx)
{
	const struct kerntree_opts *o = opts;
	struct kt_copy cp[COPIES_MAX];
	int n, k = kt_kind_split(o, idx, &n), topfd, ret, i;

	if (k < 0)
		return k;
	if (!o->tarball[0]) {
		ret = kt_tree_get(o);
		if (ret)
			return ret;
	}
	topfd = kt_top(ctx);
	if (topfd < 0)
		return topfd;
	ret = kt_mkdirs(topfd, n);
	/* stat, cat and rm need the trees: extracted as the untar test does */
	if (!ret && k != KT_UNTAR)
		ret = kt_copies(ctx, o, KT_UNTAR, n, topfd, cp);
	if (!ret && k != KT_UNTAR && syncfs(topfd))
		ret = -errno;
	for (i = 0; ret && k != KT_UNTAR && i < n; i++)
		if (cp[i].err[0])
			fprintf(stderr, "bootmark-runner: kerntree: %s\n", cp[i].err);
	close(topfd);
	return ret;
}

static int kt_run(struct wl_ctx *ctx, const void *opts, int idx, struct bm_result *r)
{
	const struct kerntree_opts *o = opts;
	struct kt_copy cp[COPIES_MAX];
	struct ktree_count sum = { 0, 0, 0 };
	int n, k = kt_kind_split(o, idx, &n), topfd, ret, i;

	if (k < 0)
		return k;
	if (!o->tarball[0] && (ret = kt_tree_get(o)))
		return ret;
	topfd = kt_top(ctx);
	if (topfd < 0)
		return topfd;
	ret = kt_copies(ctx, o, k, n, topfd, cp);
	/* as in the seed, the writeback of untar and rm is measured */
	if ((k == KT_UNTAR || k == KT_RM) && syncfs(topfd) && !ret)
		ret = -errno;
	close(topfd);
	for (i = 0; i < n; i++) {
		sum.files += cp[i].c.files;
		sum.dirs += cp[i].c.dirs;
		sum.bytes += cp[i].c.bytes;
		if (cp[i].err[0])
			fprintf(stderr, "bootmark-runner: kerntree: %s\n", cp[i].err);
	}
	bm_result_add(r, "files", (double)sum.files, "count");
	bm_result_add(r, "dirs", (double)sum.dirs, "count");
	if (k == KT_UNTAR || k == KT_CAT)
		bm_result_add(r, "bytes", (double)sum.bytes, "B");
	if (ret)
		r->partial = 1;
	return ret;
}

/* The job's last test removes the compressed archive it made in /tmp (a
 * repeat of that test makes it again). */
static void kt_inspect(struct wl_ctx *ctx, const void *opts, int idx, struct bm_result *r)
{
	const struct kerntree_opts *o = opts;
	char path[200];

	(void)ctx;
	(void)r;
	if (!kt_bz2(o) || o->tarball[0] || idx != wl_kerntree_desc.ntests(o) - 1)
		return;
	kt_bz2_path(o, path, sizeof(path));
	unlink(path);
}

const struct wl_ops wl_kerntree_ops = {
	.desc = &wl_kerntree_desc,
	.flags = 0,
	.prepare = kt_prepare,
	.run = kt_run,
	.inspect = kt_inspect,
};
