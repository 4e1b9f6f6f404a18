// SPDX-License-Identifier: MIT
/*
 * Reads and writes of a few blocks of the test disk (disk.h, struct disk_fd):
 * O_DIRECT where the device takes it, so the checks leave none of the disk
 * in the page cache and a write reaches the disk before the next step;
 * buffered where it does not (an image file on tmpfs in the tests, an
 * offset or length off the logical block), the write then flushed.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "disk.h"

static int reopen(struct disk_fd *f, int direct)
{
	if (f->fd >= 0)
		close(f->fd);
	f->direct = direct;
	f->fd = open(f->dev, f->flags | O_CLOEXEC | (direct ? O_DIRECT : 0));
	return f->fd < 0 ? -errno : 0;
}

int disk_fd_open(struct disk_fd *f, const char *dev, int flags)
{
	int ret;

	f->fd = -1;
	f->dev = dev;
	f->flags = flags;
	ret = reopen(f, 1);
	if (ret == -EINVAL)
		ret = reopen(f, 0);
	return ret;
}

/* All of len at off, or -errno; a direct transfer refused as EINVAL is done
 * again buffered.  Reads past the end give zeros. */
static int xfer(struct disk_fd *f, int write, void *buf, size_t len, uint64_t off)
{
	size_t done = 0;
	ssize_t n;
	int ret;

	while (done < len) {
		n = write ? pwrite(f->fd, (char *)buf + done, len - done, (off_t)(off + done))
			  : pread(f->fd, (char *)buf + done, len - done, (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EINVAL && f->direct) {
			ret = reopen(f, 0);
			if (ret)
				return ret;
			continue;
		}
		if (n < 0)
			return -errno;
		if (n == 0 && write)
			return -ENOSPC;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	for (; done < len; done++)
		((char *)buf)[done] = 0;
	return 0;
}

int disk_fd_pread(struct disk_fd *f, void *buf, size_t len, uint64_t off)
{
	return xfer(f, 0, buf, len, off);
}

int disk_fd_pwrite(struct disk_fd *f, const void *buf, size_t len, uint64_t off)
{
	return xfer(f, 1, (void *)buf, len, off);
}

/* fsync: a buffered write's pages, and the disk's own cache for both kinds */
int disk_fd_sync(struct disk_fd *f)
{
	return fsync(f->fd) ? -errno : 0;
}

void disk_fd_close(struct disk_fd *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}
