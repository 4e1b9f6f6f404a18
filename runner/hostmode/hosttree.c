// SPDX-License-Identifier: MIT
/* Walks of a host-mode test directory by descriptor (hosttree.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hosttree.h"

/* Called for each entry, children before their directory. */
typedef int (*visit_fn)(int dirfd, const char *name, const struct stat *st);

static int keep_first(int ret, int r)
{
	return ret ? ret : r;
}

static int walk(int dirfd, const char *name, dev_t dev, int depth, visit_fn visit);

/* Every entry of the open directory fd; fd is consumed. */
static int walk_dir(int fd, dev_t dev, int depth, visit_fn visit)
{
	struct dirent *de;
	DIR *d = fdopendir(fd);
	int ret = 0;

	if (!d) {
		ret = -errno;
		close(fd);
		return ret;
	}
	for (;;) {
		errno = 0;
		de = readdir(d);
		if (!de) {
			ret = keep_first(ret, -errno);
			break;
		}
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		ret = keep_first(ret, walk(dirfd(d), de->d_name, dev, depth + 1, visit));
	}
	closedir(d);
	return ret;
}

static int walk(int dirfd, const char *name, dev_t dev, int depth, visit_fn visit)
{
	struct stat st;
	int fd, ret = 0;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (S_ISDIR(st.st_mode)) {
		if (st.st_dev != dev)
			return -EXDEV;
		if (depth > HOSTTREE_DEPTH)
			return -ELOOP;
		fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		ret = walk_dir(fd, dev, depth, visit);
	}
	return keep_first(ret, visit(dirfd, name, &st));
}

static int start(int parentfd, const char *name, visit_fn visit)
{
	struct stat st;

	if (fstat(parentfd, &st))
		return -errno;
	return walk(parentfd, name, st.st_dev, 0, visit);
}

static int visit_remove(int dirfd, const char *name, const struct stat *st)
{
	if (unlinkat(dirfd, name, S_ISDIR(st->st_mode) ? AT_REMOVEDIR : 0))
		return -errno;
	return 0;
}

static int visit_fadvise(int dirfd, const char *name, const struct stat *st)
{
	int fd, ret;

	if (!S_ISREG(st->st_mode))
		return 0;
	/* O_NONBLOCK: should a FIFO replace the file meanwhile, don't hang on it. */
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = -posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	return ret;
}

int hosttree_remove(int parentfd, const char *name)
{
	return start(parentfd, name, visit_remove);
}

int hosttree_fadvise(int parentfd, const char *name)
{
	return start(parentfd, name, visit_fadvise);
}
