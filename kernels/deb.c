// SPDX-License-Identifier: MIT
/*
 * Debian kernels: apt-get download linux-image-<release>=<version> through
 * bootmark's apt (kernels/debapt.c), dpkg-deb -x, keep vmlinuz, config,
 * modules and arm64's device trees, depmod (the package ships no
 * modules.dep), take the vmlinux out of vmlinuz for PVH boots
 * (kernels/vmlinux.c; amd64 only: an arm64 vmlinuz is the uncompressed Image
 * QEMU boots), write which version, archive and architecture it was, then
 * rename the finished tree into the cache: a cache entry either is complete
 * or does not exist.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <pwd.h>
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

_Static_assert(BM_DEB_VER_MAX == BM_DEB_SUITE_MAX, "read_package fills both alike");

/* kernels/<release>/package: "version 6.1.187-1", "archive bookworm-security"
 * and "arch arm64" lines; entries cached before bootmark wrote it have none
 * (fields stay ""), and older ones no arch line (the release names it). */
static void read_package(struct bm_kernel *k)
{
	char path[PATH_MAX], line[256];
	FILE *f;

	if (bm_path(path, sizeof(path), "%s/package", k->modroot))
		return;
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		size_t n = strcspn(line, "\n");
		char *dst = !strncmp(line, "version ", 8) ? k->deb_version :
			    !strncmp(line, "archive ", 8) ? k->deb_archive : NULL;

		/* both fields have BM_DEB_VER_MAX == BM_DEB_SUITE_MAX bytes */
		if (dst && n > 8 && n - 8 < BM_DEB_VER_MAX) {
			memcpy(dst, line + 8, n - 8);
			dst[n - 8] = '\0';
		}
		if (!strncmp(line, "arch ", 5) && n > 5 && n - 5 < sizeof(k->arch)) {
			memcpy(k->arch, line + 5, n - 5);
			k->arch[n - 5] = '\0';
		}
	}
	fclose(f);
}

static int write_package(const char *keep, const struct bm_debpkg *p)
{
	char path[PATH_MAX];
	char text[BM_REL_MAX + BM_DEB_VER_MAX + BM_DEB_SUITE_MAX + BM_ARCH_MAX + 64];

	if (bm_path(path, sizeof(path), "%s/package", keep))
		return -ENAMETOOLONG;
	snprintf(text, sizeof(text), "package linux-image-%s\nversion %s\narchive %s\narch %s\n",
		 p->release, p->version, p->archive, p->arch);
	return bm_write_file_atomic(path, text, strlen(text));
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
	if (bm_path(out->vmlinux, sizeof(out->vmlinux), "%s/%s/boot/vmlinux-%s", dir, release,
		    release) || !bm_is_file(out->vmlinux))
		out->vmlinux[0] = '\0';
	out->deb = 1;
	read_package(out);
	if (!out->arch[0] && bm_release_arch(release, out->arch, sizeof(out->arch)))
		snprintf(out->arch, sizeof(out->arch), "amd64");  /* all bootmark fetched then */
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
	if (rc) {
		bm_msg("package has no lib/modules/%s: %s", rel, strerror(-rc));
		return rc;
	}
	/* arm64's device trees (vendor/board.dtb, 27 MB in 6.1) for bootmark pxe
	 * --dtb NAME; amd64's package has none */
	if (bm_path(src, sizeof(src), "%s/usr/lib/linux-image-%s", x, rel) ||
	    bm_path(dst, sizeof(dst), "%s/usr/lib/linux-image-%s", keep, rel))
		return -ENAMETOOLONG;
	if (bm_is_dir(src))
		rc = move(src, dst);
	if (rc)
		bm_msg("cannot keep the device trees usr/lib/linux-image-%s: %s", rel, strerror(-rc));
	return rc;
}

/*
 * apt-get drops privileges to _apt for the download; the cache under a
 * 0700 home is out of its reach, so it downloads into a temporary folder of
 * its own, given to _apt alone (mode 0700): a world-writable one would let
 * another user plant the .deb that is then extracted as root.
 */
static void give_to_apt(const char *dir)
{
	struct passwd *pw = geteuid() == 0 ? getpwnam("_apt") : NULL;

	if (pw && !chown(dir, pw->pw_uid, pw->pw_gid))
		return;
	/* no _apt (or not root): apt downloads as us, the 0700 folder is ours */
}
static int download(const struct bm_debpkg *p, char *deb, size_t len, char *dldir, size_t dllen)
{
	const char *tmpdir = getenv("TMPDIR");
	char what[BM_REL_MAX + BM_ARCH_MAX + BM_DEB_VER_MAX + 16];
	char *const args[] = { "-q", "download", what, NULL };
	int status = 0, rc;

	/* a foreign architecture's package is named with it (linux-image-X:arm64) */
	snprintf(what, sizeof(what), "linux-image-%s%s%s=%s", p->release,
		 strcmp(p->arch, "amd64") ? ":" : "", strcmp(p->arch, "amd64") ? p->arch : "",
		 p->version);
	if (bm_path(dldir, dllen, "%s/bootmark-apt-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp"))
		return -ENAMETOOLONG;
	if (!mkdtemp(dldir))
		return -errno;
	give_to_apt(dldir);
	bm_msg("downloading linux-image-%s %s from %s", p->release, p->version, p->archive);
	rc = bm_apt_run("apt-get", args, dldir, NULL, &status);
	if (!rc && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		char how[64];

		bm_status_str(status, how, sizeof(how));
		bm_msg("apt-get download %s failed (%s)", what, how);
		rc = -ECHILD;
	}
	if (rc)
		return rc;
	rc = find_deb(dldir, deb, len);
	if (rc)
		bm_msg("apt-get download left no .deb in %s", dldir);
	return rc;
}

/* Not fatal: without it the kernel boots as a bzImage (and the next boot
 * that wants PVH tries again, under the entry's lock). */
static void keep_vmlinux(const char *keep, const char *rel)
{
	char z[PATH_MAX], x[PATH_MAX];

	if (bm_path(z, sizeof(z), "%s/boot/vmlinuz-%s", keep, rel) ||
	    bm_path(x, sizeof(x), "%s/boot/vmlinux-%s", keep, rel))
		return;
	if (bm_vmlinux_extract(z, x))
		bm_msg("kernel %s: no vmlinux for a direct (PVH) boot; it boots as a bzImage", rel);
}

static int download_extract(const char *tmp, const struct bm_debpkg *p)
{
	const char *rel = p->release;
	char deb[PATH_MAX], x[PATH_MAX], keep[PATH_MAX], dldir[PATH_MAX];
	char *ex[] = { "dpkg-deb", "-x", deb, x, NULL };
	char *dm[] = { "depmod", "-b", keep, (char *)rel, NULL };
	int rc;

	if (bm_path(x, sizeof(x), "%s/x", tmp) || bm_path(keep, sizeof(keep), "%s/keep", tmp))
		return -ENAMETOOLONG;
	dldir[0] = '\0';
	rc = download(p, deb, sizeof(deb), dldir, sizeof(dldir));
	if (rc)
		goto out_rm_dldir;
	bm_msg("extracting %s", strrchr(deb, '/') + 1);
	rc = bm_run_ok(ex, NULL, -1);
	if (rc)
		goto out_rm_dldir;
	rc = keep_files(x, keep, rel);
	if (!rc)
		rc = bm_run_ok(dm, NULL, -1);
	if (!rc && !strcmp(p->arch, "amd64"))
		keep_vmlinux(keep, rel);  /* arm64: the vmlinuz is already the Image */
	if (!rc)
		rc = write_package(keep, p);
out_rm_dldir:
	if (dldir[0] && strstr(dldir, "bootmark-apt-"))
		bm_rm_rf(dldir);
	return rc;
}

/* .tmp-<release>-* folders of fetches that were killed: only the lock's
 * holder makes them, so with the lock held every one left is stale. */
static void remove_stale(const char *dir, const char *release)
{
	char prefix[BM_REL_MAX + 8], path[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	snprintf(prefix, sizeof(prefix), ".tmp-%s-", release);
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, prefix, strlen(prefix)) || strlen(de->d_name) != strlen(prefix) + 6 ||
		    bm_path(path, sizeof(path), "%s/%s", dir, de->d_name))
			continue;
		bm_msg("removing %s, left by a fetch that did not finish", path);
		bm_rm_rf(path);
	}
	closedir(d);
}

int bm_deb_known(const char *release)
{
	struct bm_debpkg p;

	return bm_deb_lookup(release, &p);
}

int bm_deb_fetch(const char *release)
{
	char dir[PATH_MAX], tmp[PATH_MAX], keep[PATH_MAX], final[PATH_MAX], where[512];
	char lock[PATH_MAX], what[BM_REL_MAX + 16];
	struct bm_debpkg p;
	struct bm_kernel k;
	int rc, lfd = -1;

	if (!bm_release_ok(release)) {
		bm_msg("bad kernel release '%s'", release);
		return -EINVAL;
	}
	if (!bm_deb_cached(release, &k)) {
		if (k.deb_version[0])
			bm_msg("kernel %s (%s, %s) is already cached in %s", release, k.deb_version,
			       k.deb_archive, k.modroot);
		else
			bm_msg("kernel %s is already cached in %s", release, k.modroot);
		return 0;
	}
	rc = bm_deb_lookup(release, &p);
	if (rc == -ENOENT) {
		bm_apt_searched(where, sizeof(where));
		bm_msg("Debian has no package linux-image-%s in %s (see bootmark kernel list)",
		       release, where);
		return -ENOENT;
	}
	if (rc) {
		bm_msg("cannot look up linux-image-%s in Debian's archives: %s", release,
		       rc == -ENODATA ? "bootmark has no package lists (see above)" : strerror(-rc));
		return rc;
	}
	rc = bm_kernels_dir(dir, sizeof(dir));
	if (!rc)
		rc = bm_mkdir_p(dir, 0755);
	if (rc) {
		bm_msg("cannot create the kernel cache %s: %s", dir, strerror(-rc));
		return rc;
	}
	if (bm_path(tmp, sizeof(tmp), "%s/.tmp-%s-XXXXXX", dir, release) ||
	    bm_path(final, sizeof(final), "%s/%s", dir, release) ||
	    bm_path(lock, sizeof(lock), "%s/.%s.lock", dir, release))
		return -ENAMETOOLONG;
	/* one fetch of a release at a time; the next one finds it complete */
	snprintf(what, sizeof(what), "fetching %s", release);
	rc = bm_cache_lock(lock, what, &lfd);
	if (rc) {
		bm_msg("cannot lock %s: %s", lock, strerror(-rc));
		return rc;
	}
	if (!bm_deb_cached(release, &k)) {
		bm_msg("kernel %s was cached by another bootmark meanwhile", release);
		goto out_unlock;
	}
	remove_stale(dir, release);
	if (!mkdtemp(tmp)) {
		rc = -errno;
		bm_msg("cannot create a directory in %s: %s", dir, strerror(-rc));
		goto out_unlock;
	}
	rc = download_extract(tmp, &p);
	if (rc)
		goto out_rm_tmp;
	bm_path(keep, sizeof(keep), "%s/keep", tmp);  /* fits: checked before */
	chmod(keep, 0755);
	if (rename(keep, final)) {
		rc = -errno;
		bm_msg("cannot rename %s to %s: %s", keep, final, strerror(-rc));
		goto out_rm_tmp;
	}
	bm_msg("kernel %s (%s, %s) cached in %s", release, p.version, p.archive, final);
out_rm_tmp:
	bm_rm_rf(tmp);
out_unlock:
	bm_cache_unlock(lfd);
	return rc;
}
