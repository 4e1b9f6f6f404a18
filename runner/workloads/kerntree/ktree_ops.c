// SPDX-License-Identifier: MIT
/* The kernel-tree operations (ktree_ops.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ktree_ops.h"

#define BUF_SIZE (128 * 1024)   /* coreutils cat's and GNU tar's buffer size */

/* "./a//b/" -> "a/b"; -EINVAL for an absolute name or a ".." component. */
static int clean_name(const char *in, char *out, size_t len)
{
	size_t n = 0;
	const char *p = in, *e;

	if (*in == '/')
		return -EINVAL;
	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		e = strchr(p, '/');
		if (!e)
			e = p + strlen(p);
		if (e - p == 2 && p[0] == '.' && p[1] == '.')
			return -EINVAL;
		if (!(e - p == 1 && p[0] == '.')) {
			if (n + (size_t)(e - p) + 2 > len)
				return -ENAMETOOLONG;
			if (n)
				out[n++] = '/';
			memcpy(out + n, p, (size_t)(e - p));
			n += (size_t)(e - p);
		}
		p = e;
	}
	out[n] = '\0';
	return n ? 0 : -EINVAL;
}

/* mkdir -p of the directories above name, when the archive left them out. */
static int make_parents(int rootfd, char *name)
{
	char *s;
	int ret = 0;

	for (s = strchr(name, '/'); s && !ret; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdirat(rootfd, name, 0755) && errno != EEXIST)
			ret = -errno;
		*s = '/';
	}
	return ret;
}

static int write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int extract_file(int rootfd, struct ustar_reader *rd, const struct ustar_entry *e,
			const char *name, char *buf, struct ktree_count *c)
{
	struct timespec ts[2] = { { .tv_sec = e->mtime }, { .tv_sec = e->mtime } };
	ssize_t n;
	int fd, ret = 0;

	fd = openat(rootfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		    e->mode & 0777);
	if (fd < 0)
		return -errno;
	while ((n = ustar_data(rd, buf, BUF_SIZE)) > 0) {
		ret = write_all(fd, buf, (size_t)n);
		if (ret)
			break;
		c->bytes += (uint64_t)n;
	}
	if (n < 0 && !ret)
		ret = (int)n;
	/* tar restores the modification time; so do we */
	if (!ret && futimens(fd, ts))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

static int extract_one(int rootfd, struct ustar_reader *rd, const struct ustar_entry *e,
		       char *name, char *buf, struct ktree_count *c)
{
	switch (e->type) {
	case USTAR_DIR:
		if (mkdirat(rootfd, name, (e->mode & 0777) | 0700) && errno != EEXIST)
			return -errno;
		c->dirs++;
		return 0;
	case USTAR_SYM:
		if (symlinkat(e->linkname, rootfd, name))
			return -errno;
		break;
	case USTAR_LNK: {
		char target[USTAR_PATH_MAX];
		int ret = clean_name(e->linkname, target, sizeof(target));

		if (ret)
			return ret;
		if (linkat(rootfd, target, rootfd, name, 0))
			return -errno;
		break;
	}
	case USTAR_REG:
	case '7': /* contiguous file: a regular file everywhere else */
		return extract_file(rootfd, rd, e, name, buf, c) ?: (c->files++, 0);
	default:
		return 0; /* devices and fifos have no place in a source tree */
	}
	c->files++;
	return 0;
}

int ktree_extract(int rootfd, ustar_read_fn fn, void *arg, struct ktree_count *c,
		  char *err, size_t errlen)
{
	struct ustar_reader *rd = malloc(sizeof(*rd));
	char *buf = malloc(BUF_SIZE), name[USTAR_PATH_MAX];
	struct ustar_entry e;
	int ret;

	if (!rd || !buf) {
		ret = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto out_free;
	}
	ustar_reader_init(rd, fn, arg);
	while ((ret = ustar_next(rd, &e)) > 0) {
		ret = clean_name(e.name, name, sizeof(name));
		if (ret) {
			snprintf(err, errlen, "archive entry \"%.200s\": unsafe name", e.name);
			goto out_free;
		}
		ret = extract_one(rootfd, rd, &e, name, buf, c);
		if (ret == -ENOENT && !make_parents(rootfd, name))
			ret = extract_one(rootfd, rd, &e, name, buf, c);
		if (ret) {
			snprintf(err, errlen, "%.200s: %s", name, strerror(-ret));
			goto out_free;
		}
	}
	if (ret < 0)
		snprintf(err, errlen, "archive at byte %llu: %s",
			 (unsigned long long)rd->offset,
			 ret == -EBADMSG ? "damaged header" : strerror(-ret));
out_free:
	free(buf);
	free(rd);
	return ret < 0 ? ret : 0;
}

enum walk_op { W_STAT, W_CAT };

static int cat_file(int dirfd, const char *name, char *buf, struct ktree_count *c)
{
	ssize_t n;
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, BUF_SIZE)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		c->bytes += (uint64_t)n;
	}
	close(fd);
	return ret;
}

/* stat: every entry, as find -exec stat; cat: find -type f | xargs cat,
 * trusting d_type as find does. */
static int walk(int dirfd, enum walk_op op, char *buf, struct ktree_count *c)
{
	struct dirent *de;
	struct stat st;
	int isdir, fd, ret = 0;
	DIR *d = fdopendir(dirfd);

	if (!d) {
		ret = -errno;
		close(dirfd);
		return ret;
	}
	while (!ret && (errno = 0, de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		isdir = de->d_type == DT_DIR;
		if (op == W_STAT || de->d_type == DT_UNKNOWN) {
			if (fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW)) {
				ret = -errno;
				break;
			}
			isdir = S_ISDIR(st.st_mode);
			if (op == W_STAT && !isdir)
				c->files++;
			if (op == W_CAT && !S_ISREG(st.st_mode))
				continue;
		} else if (op == W_CAT && de->d_type != DT_REG && !isdir) {
			continue;
		}
		if (isdir) {
			fd = openat(dirfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			ret = fd < 0 ? -errno : walk(fd, op, buf, c);
			c->dirs++;
		} else if (op == W_CAT) {
			ret = cat_file(dirfd, de->d_name, buf, c);
			c->files++;
		}
	}
	if (!de && errno && !ret)
		ret = -errno;
	closedir(d);
	return ret;
}

static int walk_top(int dirfd, enum walk_op op, struct ktree_count *c)
{
	char *buf = op == W_CAT ? malloc(BUF_SIZE) : NULL;
	int fd, ret;

	if (op == W_CAT && !buf)
		return -ENOMEM;
	fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ret = fd < 0 ? -errno : walk(fd, op, buf, c);
	free(buf);
	return ret;
}

int ktree_stat(int dirfd, struct ktree_count *c)
{
	return walk_top(dirfd, W_STAT, c);
}

int ktree_cat(int dirfd, struct ktree_count *c)
{
	return walk_top(dirfd, W_CAT, c);
}

/* As rm -r (fts): a directory's names are read first, then removed. */
int ktree_rm(int parentfd, const char *name, struct ktree_count *c)
{
	struct dirent *de;
	char **names = NULL, **grow;
	size_t n = 0, cap = 0, i;
	int fd, ret = 0;
	DIR *d;

	fd = openat(parentfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		ret = -errno;
		close(fd);
		return ret;
	}
	while (!ret && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			grow = realloc(names, cap * sizeof(*names));
			if (!grow) {
				ret = -ENOMEM;
				break;
			}
			names = grow;
		}
		/* the type first: directories are not tried with unlink() */
		names[n] = malloc(strlen(de->d_name) + 2);
		if (names[n])
			sprintf(names[n], "%c%s", de->d_type == DT_DIR ? 'd' :
				de->d_type == DT_UNKNOWN ? '?' : 'f', de->d_name);
		if (!names[n])
			ret = -ENOMEM;
		else
			n++;
	}
	for (i = 0; i < n; i++) {
		const char *nm = names[i] + 1;

		if (ret) {
			/* nothing more after an error */
		} else if (names[i][0] == 'd') {
			ret = ktree_rm(fd, nm, c);
			c->dirs += !ret;
		} else if (!unlinkat(fd, nm, 0)) {
			c->files++;
		} else if (names[i][0] == '?' && (errno == EISDIR || errno == EPERM)) {
			ret = ktree_rm(fd, nm, c);
			c->dirs += !ret;
		} else {
			ret = -errno;
		}
		free(names[i]);
	}
	free(names);
	closedir(d);
	if (!ret && unlinkat(parentfd, name, AT_REMOVEDIR))
		ret = -errno;
	return ret;
}
