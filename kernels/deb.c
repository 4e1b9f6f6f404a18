// SPDX-License-Identifier: MIT
/*
 * Debian kernels: apt-get download linux-image-<release>, dpkg-deb -x,
 * keep vmlinuz, config and modules, depmod (the package ships no
 * modules.dep), then rename the finished tree into the cache: a cache
 * entry either is complete or does not exist.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel.h"
#include "util.h"

int bm_kernels_dir(char *buf, size_t len)
{
	char root[PATH_MAX];
	int rc = bm_cache_root(root, sizeof(root));

	if (rc)
		return rc;
	return bm_path(buf, len, "%s/kernels", root);
}

int bm_deb_cached(const char *release, struct bm_kernel *out)
{
	char dir[PATH_MAX];
	int rc;

	memset(out, 0, sizeof(*out));
	rc = bm_kernels_dir(dir, sizeof(dir));
	if (rc)
		return rc;
	snprintf(out->release, sizeof(out->release), "%s", release);
	if (bm_path(out->vmlinuz, sizeof(out->vmlinuz), "%s/%s/boot/vmlinuz-%s", dir, release, release) ||
	    bm_path(out->config, sizeof(out->config), "%s/%s/boot/config-%s", dir, release, release) ||
	    bm_path(out->modroot, sizeof(out->modroot), "%s/%s", dir, release))
		return -ENAMETOOLONG;
	if (!bm_is_file(out->vmlinuz))
		return -ENOENT;
	if (!bm_is_file(out->config))
		out->config[0] = '\0';
	return 0;
}

/* The one .deb apt-get left in dir. */
static int find_deb(const char *dir, char *path, size_t len)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int rc = -ENOENT;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n > 4 && !strcmp(de->d_name + n - 4, ".deb")) {
			rc = bm_path(path, len, "%s/%s", dir, de->d_name);
			break;
		}
	}
	closedir(d);
	return rc;
}

/* Moves src to dst, making dst's parent first. */
static int move(const char *src, const char *dst)
{
	char parent[PATH_MAX], *slash;
	int rc;

	snprintf(parent, sizeof(parent), "%s", dst);
	slash = strrchr(parent, '/');
	if (slash) {
		*slash = '\0';
		rc = bm_mkdir_p(parent, 0755);
		if (rc)
			return rc;
	}
	return rename(src, dst) ? -errno : 0;
}

/* Picks the kept files out of the extracted package into keep/. */
static int keep_files(const char *x, const char *keep, const char *rel)
{
	char src[PATH_MAX], dst[PATH_MAX];
	int rc;

	if (bm_path(src, sizeof(src), "%s/boot/vmlinuz-%s", x, rel) ||
	    bm_path(dst, sizeof(dst), "%s/boot/vmlinuz-%s", keep, rel))
		return -ENAMETOOLONG;
	rc = move(src, dst);
	if (rc) {
		bm_msg("package has no boot/vmlinuz-%s: %s", rel, strerror(-rc));
		return rc;
	}
	if (!bm_path(src, sizeof(src), "%s/boot/config-%s", x, rel) &&
	    !bm_path(dst, sizeof(dst), "%s/boot/config-%s", keep, rel))
		move(src, dst);  /* optional: without it we assume gzip initrds */
	/* Older packages use /lib/modules, merged-/usr ones /usr/lib/modules. */
	if (bm_path(src, sizeof(src), "%s/lib/modules/%s", x, rel) ||
	    bm_path(dst, sizeof(dst), "%s/lib/modules/%s", keep, rel))
		return -ENAMETOOLONG;
	if (!bm_is_dir(src) && bm_path(src, sizeof(src), "%s/usr/lib/modules/%s", x, rel))
		return -ENAMETOOLONG;
	rc = move(src, dst);
	if (rc)
		bm_msg("package has no lib/modules/%s: %s", rel, strerror(-rc));
	return rc;
}

/*
 * apt-get drops privileges to _apt for the download; the cache under a
 * 0700 home is out of its reach, so it downloads into a world-writable
 * temporary directory of its own.
 */
static int download(const char *pkg, char *deb, size_t len, char *dldir, size_t dllen)
{
	const char *tmpdir = getenv("TMPDIR");
	char *dl[] = { "apt-get", "-q", "download", (char *)pkg, NULL };
	int rc;

	if (bm_path(dldir, dllen, "%s/bootmark-apt-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp"))
		return -ENAMETOOLONG;
	if (!mkdtemp(dldir))
		return -errno;
	chmod(dldir, 0777);
	bm_msg("downloading %s", pkg);
	rc = bm_run_ok(dl, dldir, -1);
	if (rc)
		return rc;
	rc = find_deb(dldir, deb, len);
	if (rc)
		bm_msg("apt-get download left no .deb in %s", dldir);
	return rc;
}

static int download_extract(const char *tmp, const char *rel)
{
	char pkg[BM_REL_MAX + 16], deb[PATH_MAX], x[PATH_MAX], keep[PATH_MAX], dldir[PATH_MAX];
	char *ex[] = { "dpkg-deb", "-x", deb, x, NULL };
	char *dm[] = { "depmod", "-b", keep, (char *)rel, NULL };
	int rc;

	snprintf(pkg, sizeof(pkg), "linux-image-%s", rel);
	if (bm_path(x, sizeof(x), "%s/x", tmp) || bm_path(keep, sizeof(keep), "%s/keep", tmp))
		return -ENAMETOOLONG;
	dldir[0] = '\0';
	rc = download(pkg, deb, sizeof(deb), dldir, sizeof(dldir));
	if (rc)
		goto out_rm_dldir;
	bm_msg("extracting %s", strrchr(deb, '/') + 1);
	rc = bm_run_ok(ex, NULL, -1);
	if (rc)
		goto out_rm_dldir;
	rc = keep_files(x, keep, rel);
	if (!rc)
		rc = bm_run_ok(dm, NULL, -1);
out_rm_dldir:
	if (dldir[0] && strstr(dldir, "bootmark-apt-"))
		bm_rm_rf(dldir);
	return rc;
}

int bm_deb_known(const char *release)
{
	char pkg[BM_REL_MAX + 16];
	char *argv[] = { "apt-cache", "show", "-q", pkg, NULL };
	int status = 0, fd, rc;
	pid_t pid;

	snprintf(pkg, sizeof(pkg), "linux-image-%s", release);
	/* both stdout and stderr ("E: No packages found") go to /dev/null */
	fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	rc = bm_proc_start(argv, fd, &pid);
	close(fd);
	if (rc)
		return rc;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -ENOENT;
}

int bm_deb_fetch(const char *release)
{
	char dir[PATH_MAX], tmp[PATH_MAX], keep[PATH_MAX], final[PATH_MAX];
	struct bm_kernel k;
	int rc;

	if (!bm_release_ok(release)) {
		bm_msg("bad kernel release '%s'", release);
		return -EINVAL;
	}
	if (!bm_deb_cached(release, &k)) {
		bm_msg("kernel %s is already cached in %s", release, k.modroot);
		return 0;
	}
	if (bm_deb_known(release) == -ENOENT) {
		bm_msg("Debian has no package linux-image-%s (see bootmark kernel list)", release);
		return -ENOENT;
	}
	rc = bm_kernels_dir(dir, sizeof(dir));
	if (!rc)
		rc = bm_mkdir_p(dir, 0755);
	if (rc) {
		bm_msg("cannot create the kernel cache %s: %s", dir, strerror(-rc));
		return rc;
	}
	if (bm_path(tmp, sizeof(tmp), "%s/.tmp-%s-XXXXXX", dir, release) ||
	    bm_path(final, sizeof(final), "%s/%s", dir, release))
		return -ENAMETOOLONG;
	if (!mkdtemp(tmp)) {
		rc = -errno;
		bm_msg("cannot create a directory in %s: %s", dir, strerror(-rc));
		return rc;
	}
	rc = download_extract(tmp, release);
	if (rc)
		goto out_rm_tmp;
	bm_path(keep, sizeof(keep), "%s/keep", tmp);  /* fits: checked before */
	chmod(keep, 0755);
	if (rename(keep, final)) {
		rc = -errno;
		bm_msg("cannot rename %s to %s: %s", keep, final, strerror(-rc));
		goto out_rm_tmp;
	}
	bm_msg("kernel %s cached in %s", release, final);
out_rm_tmp:
	bm_rm_rf(tmp);
	return rc;
}
