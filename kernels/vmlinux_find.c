// SPDX-License-Identifier: MIT
/*
 * Where a kernel's vmlinux is (kernel.h, bm_vmlinux_get): beside a Debian
 * kernel's vmlinuz in the cache, taken out at fetch or, for an entry
 * cached before bootmark did that, on first use under the entry's lock; a
 * local build's own vmlinux beside its bzImage when it is the same build,
 * else one taken out of the bzImage into <cache>/vmlinux/<sha256>.
 */
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel.h"
#include "sha256.h"
#include "util.h"

/* "vmlinux-<release>.<random>.tmp" files of extractions that were killed:
 * only the lock's holder writes them, so with the lock held they are stale. */
static void remove_stale(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct dirent *de;
	size_t n = strlen(name), len;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		len = strlen(de->d_name);
		if (len > n + 5 && !strncmp(de->d_name, name, n) && de->d_name[n] == '.' &&
		    !strcmp(de->d_name + len - 4, ".tmp") &&
		    !bm_path(path, sizeof(path), "%s/%s", dir, de->d_name))
			unlink(path);
	}
	closedir(d);
}

/* out from bzimage unless a good one is there, under the lock file lock. */
static int extract_locked(const char *bzimage, const char *out, const char *lock, const char *rel)
{
	char what[BM_REL_MAX + 48], dir[PATH_MAX], name[PATH_MAX], copy[PATH_MAX];
	int rc, fd;

	snprintf(what, sizeof(what), "extracting the vmlinux of %s", rel);
	rc = bm_cache_lock(lock, what, &fd);
	if (rc) {
		bm_msg("cannot lock %s: %s", lock, strerror(-rc));
		return rc;
	}
	if (bm_vmlinux_check(out) >= 0)
		goto out_unlock;  /* another bootmark did it meanwhile */
	snprintf(copy, sizeof(copy), "%s", out);
	snprintf(dir, sizeof(dir), "%s", dirname(copy));
	snprintf(copy, sizeof(copy), "%s", out);
	snprintf(name, sizeof(name), "%s", basename(copy));
	remove_stale(dir, name);
	rc = bm_vmlinux_extract(bzimage, out);
out_unlock:
	bm_cache_unlock(fd);
	return rc;
}

/* The whole version string of a bzImage (header 0x20e), "" if none. */
static void bz_version(const unsigned char *b, size_t len, char *ver, size_t vlen)
{
	size_t off, n;

	ver[0] = '\0';
	if (len < 0x210 || memcmp(b + 0x202, "HdrS", 4))
		return;
	off = (size_t)(b[0x20e] | b[0x20f] << 8) + 0x200;
	for (n = 0; off + n < len && b[off + n] && n + 1 < vlen; n++)
		ver[n] = (char)b[off + n];
	ver[n] = '\0';
}

/*
 * The banner is "Linux version " + the bzImage's string with the compiler
 * inserted before " #": "6.1.0-53-amd64 (debian-kernel@lists.debian.org)
 * (gcc-12 ...) #1 SMP PREEMPT_DYNAMIC Debian 6.1.187-1 (2026-09-07)".
 */
static int has_banner(const struct bm_map *v, const char *ver)
{
	const char *hash = strstr(ver, " #"), *p, *end = (const char *)v->p + v->len, *nul;
	char head[600];

	if (!hash)
		return 0;
	snprintf(head, sizeof(head), "Linux version %.*s", (int)(hash - ver), ver);
	for (p = (const char *)v->p; (p = memmem(p, (size_t)(end - p), head, strlen(head)));
	     p += strlen(head)) {
		nul = memchr(p, '\0', (size_t)(end - p));
		if (nul && memmem(p, (size_t)(nul - p), hash + 1, strlen(hash + 1)))
			return 1;
	}
	return 0;
}

int bm_vmlinux_same_build(const char *vmlinux, const char *bzimage)
{
	char ver[512];
	struct bm_map v, z;
	int rc;

	rc = bm_map_file(bzimage, &z);
	if (rc)
		return rc;
	bz_version(z.p, z.len, ver, sizeof(ver));
	bm_unmap_file(&z);
	if (!ver[0])
		return 0;
	rc = bm_map_file(vmlinux, &v);
	if (rc)
		return rc;
	/* the release, the build number and its date */
	rc = has_banner(&v, ver);
	bm_unmap_file(&v);
	return rc;
}

/* A kernel tree's vmlinux (arch/x86/boot/bzImage -> ../../../vmlinux), or
 * one beside the image, when it is this bzImage's build. */
static int local_own(struct bm_kernel *k)
{
	const char *const cand[] = { "%s/vmlinux-%s", "%s/vmlinux", "%s/../../../vmlinux" };
	char copy[PATH_MAX], dir[PATH_MAX], path[PATH_MAX];
	size_t i;

	snprintf(copy, sizeof(copy), "%s", k->vmlinuz);
	snprintf(dir, sizeof(dir), "%s", dirname(copy));
	for (i = 0; i < sizeof(cand) / sizeof(cand[0]); i++) {
		int r = i ? bm_path(path, sizeof(path), cand[i], dir)
			  : bm_path(path, sizeof(path), cand[i], dir, k->release);

		if (r || bm_vmlinux_check(path) < 0 || bm_vmlinux_same_build(path, k->vmlinuz) != 1)
			continue;
		if (!realpath(path, k->vmlinux))
			continue;
		return 0;
	}
	return -ENOENT;
}

/* <cache>/vmlinux/<sha256 of the bzImage>, extracted when missing. */
static int local_cached(struct bm_kernel *k)
{
	char root[PATH_MAX], dir[PATH_MAX], lock[PATH_MAX], sha[65];
	int rc;

	rc = bm_sha256_file(k->vmlinuz, sha);
	if (!rc)
		rc = bm_cache_root(root, sizeof(root));
	if (rc)
		return rc;
	if (bm_path(dir, sizeof(dir), "%s/vmlinux", root) ||
	    bm_path(k->vmlinux, sizeof(k->vmlinux), "%s/%s", dir, sha) ||
	    bm_path(lock, sizeof(lock), "%s/.%s.lock", dir, sha))
		return -ENAMETOOLONG;
	if (bm_vmlinux_check(k->vmlinux) >= 0)
		return 0;
	rc = bm_mkdir_p(dir, 0755);
	if (rc) {
		bm_msg("cannot create %s: %s", dir, strerror(-rc));
		return rc;
	}
	return extract_locked(k->vmlinuz, k->vmlinux, lock, k->release);
}

int bm_vmlinux_get(struct bm_kernel *k)
{
	char kdir[PATH_MAX], lock[PATH_MAX];
	int rc;

	/* PVH is x86's: an arm64 kernel boots from its Image, it has no vmlinux */
	if (k->arch[0] && strcmp(k->arch, "amd64")) {
		bm_msg("kernel %s: no vmlinux for %s kernels (QEMU boots the Image %s)",
		       k->release, k->arch, k->vmlinuz);
		k->vmlinux[0] = '\0';
		return -ENOTSUP;
	}
	if (!k->deb) {
		rc = local_own(k);
		if (rc)
			rc = local_cached(k);
	} else {
		rc = bm_kernels_dir(kdir, sizeof(kdir));
		if (!rc && (bm_path(k->vmlinux, sizeof(k->vmlinux), "%s/%s/boot/vmlinux-%s", kdir,
				    k->release, k->release) ||
			    bm_path(lock, sizeof(lock), "%s/.%s.lock", kdir, k->release)))
			rc = -ENAMETOOLONG;
		if (!rc && bm_vmlinux_check(k->vmlinux) < 0)
			rc = extract_locked(k->vmlinuz, k->vmlinux, lock, k->release);
	}
	if (rc)
		k->vmlinux[0] = '\0';
	return rc;
}
