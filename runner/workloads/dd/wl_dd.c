// SPDX-License-Identifier: MIT
/*
 * dd: the seed 004 tests (Alex Tomas, 2006).  One job expands into up to
 * three tests on one file of `size` bytes moved in `bs` blocks:
 *
 *   dd<MiB>w   write a new file, then syncfs()     - writeback is measured
 *   dd<MiB>r   read the file written by prepare()  - caches dropped first
 *   dd<MiB>rw  overwrite the file in place, syncfs() - no O_TRUNC: the
 *              filesystem keeps its blocks
 *
 * After each test the file's extents are counted with FIEMAP as filefrag
 * does (physically contiguous extents merged), or where the filesystem has
 * no FIEMAP (jfs, reiserfs) with FIBMAP, filefrag's fallback; it is the
 * seed's DETAILS column.  The count is taken in inspect(), after the
 * measurement window has closed, so its metadata reads never show in READ.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fiemap_compat.h"
#include "seqio.h"
#include "stats.h"
#include "wl.h"
#include "wl_dd.h"

#define MiB (1024ull * 1024ull)
#define DD_BEAT_BYTES (64 * MiB)

static void dd_path(const struct wl_ctx *ctx, char *buf, size_t len)
{
	snprintf(buf, len, "%s/dd.dat", ctx->mnt);
}

/*
 * filefrag's fallback where FIEMAP is not supported (e2fsprogs
 * misc/filefrag.c, filefrag_fibmap): the physical block of every block of
 * the file, one FIBMAP each, a new extent where a block does not follow the
 * one before it on the disk; holes (block 0) are skipped.  The file is
 * synced first, as FIEMAP_FLAG_SYNC does.  One ioctl per block: 16384 for a
 * 64 MiB file of 4 KiB blocks, outside the measurement window.
 */
static int count_fibmap(int fd, unsigned *count)
{
	unsigned long long i, nblocks;
	unsigned n = 0, last = 0;
	struct stat st;
	int bsz = 0, b;

	if (ioctl(fd, FIGETBSZ, &bsz) < 0 || fstat(fd, &st))
		return -errno;
	if (bsz <= 0)
		return -EINVAL;
	if (fsync(fd) && errno != EINVAL)
		return -errno;
	nblocks = ((unsigned long long)st.st_size + (unsigned)bsz - 1) / (unsigned)bsz;
	if (nblocks > INT_MAX)
		return -EFBIG;   /* FIBMAP takes an int */
	for (i = 0; i < nblocks; i++) {
		b = (int)i;
		if (ioctl(fd, FIBMAP, &b) < 0)
			return -errno;
		if (!b)
			continue;
		if (!n || (unsigned)b != last + 1)
			n++;
		last = (unsigned)b;
	}
	*count = n;
	return 0;
}

int dd_count_extents(int fd, unsigned *count)
{
	enum { BATCH = 64 };
	struct fiemap *fm;
	uint64_t start = 0, expect = UINT64_MAX;
	unsigned i, n = 0, last = 0;
	int ret = 0;

	fm = calloc(1, sizeof(*fm) + BATCH * sizeof(struct fiemap_extent));
	if (!fm)
		return -ENOMEM;
	while (!last) {
		memset(fm, 0, sizeof(*fm));
		fm->fm_start = start;
		fm->fm_length = FIEMAP_MAX_OFFSET - start;
		fm->fm_flags = FIEMAP_FLAG_SYNC;
		fm->fm_extent_count = BATCH;
		if (ioctl(fd, FS_IOC_FIEMAP, fm) < 0) {
			ret = -errno;
			if (ret == -EOPNOTSUPP || ret == -ENOTTY)
				ret = count_fibmap(fd, count);
			goto out_free;
		}
		if (!fm->fm_mapped_extents)
			break;
		for (i = 0; i < fm->fm_mapped_extents; i++) {
			struct fiemap_extent *fe = &fm->fm_extents[i];

			/* filefrag's rule: a new extent only where the disk run breaks. */
			if (fe->fe_physical != expect)
				n++;
			expect = fe->fe_physical + fe->fe_length;
			if (fe->fe_flags & FIEMAP_EXTENT_LAST)
				last = 1;
			start = fe->fe_logical + fe->fe_length;
		}
	}
	*count = n;
out_free:
	free(fm);
	return ret;
}

/*
 * syncfs() rather than sync(): the seed's sync inside the window, limited
 * to the test filesystem, so that in host mode other filesystems' writeback
 * is not measured.  In the appliance the two are the same.
 */
static int dd_write_file(struct wl_ctx *ctx, const struct dd_opts *o, int trunc,
			 uint64_t *done)
{
	char path[512];
	unsigned char *buf = seqio_buffer(o->bs);
	int fd, ret;

	*done = 0;
	if (!buf)
		return -ENOMEM;
	dd_path(ctx, path, sizeof(path));
	fd = open(path, O_WRONLY | O_CLOEXEC | (trunc ? O_CREAT | O_TRUNC : 0), 0644);
	if (fd < 0) {
		ret = -errno;
		goto out_free_buf;
	}
	ret = seqio_move(ctx, fd, buf, o->bs, o->size, 1, "dd write", DD_BEAT_BYTES, done);
	if (syncfs(fd) && !ret)
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
out_free_buf:
	free(buf);
	return ret;
}

static int dd_read_file(struct wl_ctx *ctx, const struct dd_opts *o, uint64_t *done)
{
	char path[512];
	unsigned char *buf = seqio_buffer(o->bs);
	int fd, ret;

	*done = 0;
	if (!buf)
		return -ENOMEM;
	dd_path(ctx, path, sizeof(path));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto out_free_buf;
	}
	ret = seqio_move(ctx, fd, buf, o->bs, o->size, 0, "dd read", DD_BEAT_BYTES, done);
	close(fd);
out_free_buf:
	free(buf);
	return ret;
}

/* read and rewrite need the file on disk; write starts from an empty fs.
 * Continued (host mode, dd_continues), the file is the test before's. */
static int dd_prepare(struct wl_ctx *ctx, const void *opts, int idx)
{
	uint64_t done;
	int k = dd_kind(opts, idx);

	if (k < 0)
		return k;
	if (k == DD_WRITE || ctx->continued)
		return 0;
	return dd_write_file(ctx, opts, 1, &done);
}

/* The write test starts from an empty filesystem: nothing to remount. */
static int dd_prepares(const void *opts, int idx)
{
	return dd_kind(opts, idx) != DD_WRITE;
}

/*
 * The seed's three dd commands work on one file: the read reads what the
 * write wrote, the rewrite overwrites what was read.  Where the runner keeps
 * the directory (host mode) a read or rewrite takes over the file of the test
 * before instead of writing a new one, which would first free the old one
 * and allocate the new one in blocks just freed (and discarded, on a mount
 * with discard).  In the image every test has a fresh filesystem and
 * prepare() writes the file.
 */
static int dd_continues(const void *opts, int idx)
{
	int k = dd_kind(opts, idx), prev = idx > 0 ? dd_kind(opts, idx - 1) : -1;

	return k > DD_WRITE && prev >= 0;
}

static void dd_inspect(struct wl_ctx *ctx, const void *opts, int idx, struct bm_result *r)
{
	char path[512];
	unsigned n;
	int fd;

	dd_path(ctx, path, sizeof(path));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (!dd_count_extents(fd, &n))
		bm_result_add(r, "extents", n, "count");
	close(fd);
}

static int dd_run(struct wl_ctx *ctx, const void *opts, int idx, struct bm_result *r)
{
	const struct dd_opts *o = opts;
	int k = dd_kind(o, idx), ret;
	uint64_t done = 0;
	double t0, t;

	if (k < 0)
		return k;
	t0 = bm_now_s();
	if (k == DD_READ) {
		ret = dd_read_file(ctx, o, &done);
	} else {
		/* syncfs() inside: as in the seed, REAL includes writeback */
		ret = dd_write_file(ctx, o, k == DD_WRITE, &done);
	}
	t = bm_now_s() - t0;
	bm_result_add(r, "bytes", (double)done, "B");
	if (t > 0)
		bm_result_add(r, "bw", (double)done / MiB / t, "MiB/s");
	if (ret)
		r->partial = 1;
	return ret;
}

const struct wl_ops wl_dd_ops = {
	.desc = &wl_dd_desc,
	.flags = 0,
	.prepare = dd_prepare,
	.run = dd_run,
	.inspect = dd_inspect,
	.continues = dd_continues,
	.prepares = dd_prepares,
};
