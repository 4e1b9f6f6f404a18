// SPDX-License-Identifier: MIT
/*
 * Output folders nobody else can redirect (outdir.h; docs/reliability.md,
 * "Shared hosts").  bootmark runs as root on machines several people share;
 * a file it writes must be the file it created, not whatever another user
 * planted under that name.  The rules follow OpenSSH's StrictModes: every
 * directory from / down to an output folder, and every symlink on the way,
 * belongs to root or to us, and a directory others may write to needs the
 * sticky bit (then they cannot rename or remove what is ours); the folder
 * itself is ours; files are created relative to its descriptor with
 * O_CREAT|O_EXCL|O_NOFOLLOW after any old entry is unlinked, never opened
 * through a name that already exists.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outdir.h"
#include "util.h"

static int owner_ok(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

/* One directory on the way: root's or ours; writable by others only if sticky. */
static int dir_ok(const char *path, const struct stat *st, char *why, size_t len)
{
	if (!owner_ok(st->st_uid)) {
		snprintf(why, len, "%s belongs to uid %u (another user)", path, (unsigned)st->st_uid);
		return -EPERM;
	}
	if ((st->st_mode & 022) && !(st->st_mode & S_ISVTX)) {
		snprintf(why, len, "%s is writable by %s (mode %04o, no sticky bit)", path,
			 st->st_mode & 002 ? "everyone" : "its group", (unsigned)(st->st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

/* Symlinks on the way as given: a link another user made may point anywhere. */
static int links_ok(const char *path, char *why, size_t len)
{
	char buf[PATH_MAX], *p;
	struct stat st;

	if (bm_path(buf, sizeof(buf), "%s", path))
		return -ENAMETOOLONG;
	for (p = buf + 1;; p++) {
		char c = *p;

		if (c && c != '/')
			continue;
		*p = '\0';
		if (!lstat(buf, &st) && S_ISLNK(st.st_mode) && !owner_ok(st.st_uid)) {
			snprintf(why, len, "%s is a symbolic link of uid %u (another user)", buf,
				 (unsigned)st.st_uid);
			return -EPERM;
		}
		if (!c)
			return 0;
		*p = c;
	}
}

static int prefix_ok(const char *dir, char *why, size_t len)
{
	struct stat st;

	if (stat(dir, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, len, "%s is not a directory", dir);
		return -ENOTDIR;
	}
	return dir_ok(dir, &st, why, len);
}

int bm_dir_trusted(const char *path, char *why, size_t len)
{
	char real[PATH_MAX];
	size_t n, total;
	int rc;

	rc = links_ok(path, why, len);
	if (rc)
		return rc;
	if (!realpath(path, real))
		return -errno;
	/* "/", then every ancestor, then the folder itself */
	rc = prefix_ok("/", why, len);
	total = strlen(real);
	for (n = 2; !rc && n <= total; n++) {
		char c = real[n];

		if (c && c != '/')
			continue;
		real[n] = '\0';
		rc = prefix_ok(real, why, len);
		real[n] = c;
	}
	return rc;
}

int bm_out_ready(const char *dir, char *why, size_t len)
{
	char anc[PATH_MAX], *slash;
	struct stat st;

	if (bm_path(anc, sizeof(anc), "%s", dir))
		return -ENAMETOOLONG;
	/* the folder, or the nearest ancestor bootmark would create it in */
	while (stat(anc, &st)) {
		if (errno != ENOENT)
			return -errno;
		slash = strrchr(anc, '/');
		if (!slash)
			return bm_dir_trusted(".", why, len);
		*slash = '\0';
		if (!anc[0])
			return bm_dir_trusted("/", why, len);
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, len, "%s is not a directory", anc);
		return -ENOTDIR;
	}
	return bm_dir_trusted(anc, why, len);
}

int bm_entry_ready(const char *path, int replace_links, char *why, size_t len)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (S_ISLNK(st.st_mode)) {
		if (replace_links > 0)
			return 0;  /* unlinked, never followed */
		snprintf(why, len, "%s is a symbolic link: bootmark does not write through "
			 "one (remove it%s)", path, replace_links < 0 ? "" : ", or --overwrite");
		return -EEXIST;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, len, "%s exists and is not a regular file", path);
		return -EEXIST;
	}
	if (st.st_uid != geteuid()) {
		snprintf(why, len, "%s belongs to uid %u (another user)", path, (unsigned)st.st_uid);
		return -EEXIST;
	}
	if (st.st_nlink > 1 && replace_links <= 0) {
		snprintf(why, len, "%s has %u hard links: bootmark does not write through "
			 "one", path, (unsigned)st.st_nlink);
		return -EEXIST;
	}
	return 0;
}

/* The folder holding path, opened without following its last component. */
static int open_parent(const char *path, char *name, size_t nlen)
{
	char dir[PATH_MAX], *slash;
	struct stat st;
	int fd;

	if (bm_path(dir, sizeof(dir), "%s", path))
		return -ENAMETOOLONG;
	slash = strrchr(dir, '/');
	if (bm_path(name, nlen, "%s", slash ? slash + 1 : dir))
		return -ENAMETOOLONG;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !owner_ok(st.st_uid) ||
	    ((st.st_mode & 022) && !(st.st_mode & S_ISVTX))) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

int bm_out_open(const char *path, int flags, mode_t mode)
{
	char name[NAME_MAX + 1];
	struct stat st;
	int dfd, fd;

	dfd = open_parent(path, name, sizeof(name));
	if (dfd < 0)
		return dfd;
	/* an old entry of ours, or a link, goes; another user's file stays */
	if (!fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		if (!S_ISLNK(st.st_mode) && (!S_ISREG(st.st_mode) || st.st_uid != geteuid())) {
			close(dfd);
			return -EEXIST;
		}
		if (unlinkat(dfd, name, 0) && errno != ENOENT) {
			fd = -errno;
			close(dfd);
			return fd;
		}
	}
	fd = openat(dfd, name, flags | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
	fd = fd < 0 ? -errno : fd;
	close(dfd);
	return fd;
}

int bm_out_clear(const char *dir)
{
	struct dirent *e;
	DIR *d;
	int dfd, rc = 0;

	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return errno == ENOENT ? 0 : -errno;
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return -errno;
	}
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		/* links and files are removed as names; folders are left */
		if (unlinkat(dfd, e->d_name, 0) && errno != EISDIR && errno != EPERM && !rc)
			rc = -errno;
	}
	closedir(d);
	return rc;
}

int bm_out_tmp(const char *path, char *tmp, size_t len)
{
	char name[NAME_MAX + 1];
	int dfd, fd, i;

	dfd = open_parent(path, name, sizeof(name));
	if (dfd < 0)
		return dfd;
	for (i = 0; i < 100; i++) {
		char run[9], *slash;

		if (bm_run_id(run) || bm_path(tmp, len, "%s.%s.tmp", path, run))
			break;
		slash = strrchr(tmp, '/');
		fd = openat(dfd, slash ? slash + 1 : tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			    O_CLOEXEC, 0644);
		if (fd >= 0 || errno != EEXIST) {
			close(dfd);
			return fd < 0 ? -errno : fd;
		}
	}
	close(dfd);
	return -EEXIST;
}

int bm_out_plan_dir(const char *dir)
{
	char why[PATH_MAX + 128];
	int rc = bm_out_ready(dir, why, sizeof(why));

	if (rc == -EPERM || rc == -ENOTDIR) {
		bm_msg("refusing --out %s: %s", dir, why);
		return -EINVAL;
	}
	if (rc)
		bm_msg("cannot check %s: %s", dir, strerror(-rc));
	return rc;
}

int bm_out_plan_file(const char *path, int replace_links)
{
	char dir[PATH_MAX], why[PATH_MAX + 128], *slash;
	int rc;

	if (bm_path(dir, sizeof(dir), "%s", path))
		return -EINVAL;
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	rc = bm_out_ready(dir, why, sizeof(why));
	if (!rc)
		rc = bm_entry_ready(path, replace_links, why, sizeof(why));
	if (rc == -EPERM || rc == -ENOTDIR || rc == -EEXIST) {
		bm_msg("refusing to write %s: %s", path, why);
		return -EINVAL;
	}
	if (rc)
		bm_msg("cannot check %s: %s", path, strerror(-rc));
	return rc;
}

int bm_out_plan_entries(const char *dir, const char *const *names, int replace_links)
{
	char path[PATH_MAX], why[PATH_MAX + 128];
	int rc = 0;

	struct stat st;

	if (lstat(dir, &st) && errno == ENOENT)
		return 0;  /* made fresh by bootmark */
	rc = bm_dir_trusted(dir, why, sizeof(why));
	for (; !rc && *names; names++) {
		if (bm_path(path, sizeof(path), "%s/%s", dir, *names))
			return -EINVAL;
		rc = bm_entry_ready(path, replace_links, why, sizeof(why));
	}
	if (rc == -EPERM || rc == -ENOTDIR || rc == -EEXIST || rc == -ENOENT) {
		bm_msg("refusing %s: %s", dir, why);
		return -EINVAL;
	}
	return rc;
}

int bm_out_mkdir(const char *dir, mode_t mode, char *why, size_t len)
{
	char tmp[PATH_MAX], *p;
	int rc;

	if (bm_path(tmp, sizeof(tmp), "%s", dir))
		return -ENAMETOOLONG;
	rc = bm_out_ready(dir, why, len);
	if (rc)
		return rc;
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, mode) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, mode) && errno != EEXIST)
		return -errno;
	return bm_dir_trusted(tmp, why, len);
}

/* A trusted folder no one else may make names in, sticky or not. */
static int private_dir_ok(const char *path, const struct stat *st, char *why, size_t len)
{
	if (!S_ISDIR(st->st_mode)) {
		snprintf(why, len, "%s is not a directory", path);
		return -ENOTDIR;
	}
	if (!owner_ok(st->st_uid)) {
		snprintf(why, len, "%s belongs to uid %u (another user)", path, (unsigned)st->st_uid);
		return -EPERM;
	}
	if (st->st_mode & 022) {
		snprintf(why, len, "%s is writable by %s (mode %04o): other users can make names "
			 "in it", path, st->st_mode & 002 ? "everyone" : "its group",
			 (unsigned)(st->st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

/* A regular file of ours, one link, that no one else may change. */
static int private_file_ok(const char *path, const struct stat *st, char *why, size_t len)
{
	if (S_ISLNK(st->st_mode))
		snprintf(why, len, "%s is a symbolic link: bootmark does not open one here", path);
	else if (!S_ISREG(st->st_mode))
		snprintf(why, len, "%s exists and is not a regular file", path);
	else if (st->st_uid != geteuid())
		snprintf(why, len, "%s belongs to uid %u (another user)", path, (unsigned)st->st_uid);
	else if (st->st_nlink > 1)
		snprintf(why, len, "%s has %u hard links: bootmark does not write through one",
			 path, (unsigned)st->st_nlink);
	else if (st->st_mode & 022)
		snprintf(why, len, "%s is writable by %s (mode %04o): another user could change "
			 "it", path, st->st_mode & 002 ? "everyone" : "its group",
			 (unsigned)(st->st_mode & 07777));
	else
		return 0;
	return -EEXIST;
}

int bm_private_dir(const char *dir, mode_t mode, char *why, size_t len)
{
	struct stat st;
	int rc;

	rc = mode ? bm_out_mkdir(dir, mode, why, len) : bm_dir_trusted(dir, why, len);
	if (rc)
		return rc;
	if (stat(dir, &st))
		return -errno;
	return private_dir_ok(dir, &st, why, len);
}

int bm_private_entry(const char *path, char *why, size_t len)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	return private_file_ok(path, &st, why, len);
}

int bm_private_open(const char *path, int flags, mode_t mode, char *why, size_t len)
{
	int base = (flags & ~(O_CREAT | O_EXCL)) | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
	char name[NAME_MAX + 1], dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	struct stat st;
	int dfd, fd = -1, rc, i;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	dfd = open_parent(path, name, sizeof(name));
	if (dfd < 0) {
		snprintf(why, len, "%s is %s", dir[0] ? dir : "/", dfd == -EPERM ?
			 "another user's, or others may write to it" : strerror(-dfd));
		return dfd;
	}
	if (fstat(dfd, &st)) {
		rc = -errno;
		goto out_close_dir;
	}
	rc = private_dir_ok(dir[0] ? dir : "/", &st, why, len);
	if (rc)
		goto out_close_dir;
	/* made here when missing, never opened through a name made by someone else */
	for (i = 0; i < 3; i++) {
		fd = openat(dfd, name, base);
		if (fd >= 0 || errno != ENOENT || !(flags & O_CREAT))
			break;
		fd = openat(dfd, name, base | O_CREAT | O_EXCL, mode);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0) {
		rc = -errno;
		if (rc == -ELOOP) {
			snprintf(why, len, "%s is a symbolic link: bootmark does not open one here",
				 path);
			rc = -EEXIST;
		}
		goto out_close_dir;
	}
	if (fstat(fd, &st)) {
		rc = -errno;
		goto out_close_fd;
	}
	rc = private_file_ok(path, &st, why, len);
	if (!rc && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK))
		rc = -errno;
	if (!rc) {
		close(dfd);
		return fd;
	}
out_close_fd:
	close(fd);
out_close_dir:
	close(dfd);
	return rc;
}

int bm_private_file(const char *path, const char *const *companions, int create,
		    char *real, size_t rlen, struct stat *st, char *why, size_t len)
{
	char buf[PATH_MAX], dir[PATH_MAX], rdir[PATH_MAX], one[PATH_MAX], *slash, *name;
	struct stat ls;
	int fd, rc, i;

	if (bm_path(buf, sizeof(buf), "%s", path))
		return -ENAMETOOLONG;
	/* a link of ours is the user's own pointer; another user's points anywhere */
	if (!lstat(path, &ls) && S_ISLNK(ls.st_mode)) {
		if (!owner_ok(ls.st_uid)) {
			snprintf(why, len, "%s is a symbolic link of uid %u (another user)", path,
				 (unsigned)ls.st_uid);
			return -EEXIST;
		}
		if (!realpath(path, buf)) {
			if (errno != ENOENT)
				return -errno;
			snprintf(why, len, "%s is a symbolic link to nothing: bootmark does not make "
				 "a file through one", path);
			return -EEXIST;
		}
	}
	slash = strrchr(buf, '/');
	name = slash ? slash + 1 : buf;
	if (!*name || !strcmp(name, ".") || !strcmp(name, "..")) {
		snprintf(why, len, "%s names a folder, not a file", path);
		return -EEXIST;
	}
	if (bm_path(dir, sizeof(dir), "%.*s", slash ? (int)(slash - buf) : 1, slash ? buf : "."))
		return -ENAMETOOLONG;
	rc = bm_private_dir(dir[0] ? dir : "/", create ? 0755 : 0, why, len);
	if (rc)
		return rc;
	/* no link left on the way: an opener that resolves links sees this file */
	if (!realpath(dir[0] ? dir : "/", rdir))
		return -errno;
	if (bm_path(real, rlen, "%s/%s", strcmp(rdir, "/") ? rdir : "", name))
		return -ENAMETOOLONG;
	rc = bm_private_entry(real, why, len);
	for (i = 0; !rc && companions && companions[i]; i++) {
		if (bm_path(one, sizeof(one), "%s%s", real, companions[i]))
			return -ENAMETOOLONG;
		rc = bm_private_entry(one, why, len);
	}
	if (rc)
		return rc;
	fd = bm_private_open(real, O_RDONLY | (create ? O_CREAT : 0), 0644, why, len);
	if (fd < 0)
		return fd;
	rc = fstat(fd, st) ? -errno : 0;
	close(fd);
	return rc;
}
