// SPDX-License-Identifier: MIT
/*
 * A run carries its configuration (initrd.h, bm_config_archive).  The guest
 * reads its suite and filesystem profiles from /etc/bootmark; the base image
 * holds the tree's, so a suite of the user's own (--configs DIR) would never
 * reach it.  Each boot's initrd therefore ends with a small archive of exactly
 * the suite and the profiles the run names, taken from the configs folder the
 * host validated (host/cli/setup.c); the kernel unpacks it after the base and the
 * files replace the base's of the same name.  The archive is named by a hash
 * of what it holds, so the same inputs give the same bytes and one file.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "cpio.h"
#include "initrd.h"
#include "outdir.h"
#include "profile.h"
#include "sha256.h"
#include "util.h"

#define CFG_FILE_MAX (1 << 20)
#define CFG_MAX (1 + 8)  /* the suite and up to 8 profiles (host/cli/setup.h) */

/* The key: every name and its bytes, and the compression. */
static int key_add(struct bm_sha256 *h, const char *name, const char *path)
{
	char *text = NULL;
	size_t len = 0;
	int rc = bm_read_file(path, &text, &len, CFG_FILE_MAX);

	if (rc)
		return rc;
	bm_sha256_update(h, name, strlen(name) + 1);
	bm_sha256_update(h, &len, sizeof(len));
	bm_sha256_update(h, text, len);
	free(text);
	return 0;
}

/* The archive's entries (archive path, host path); n of them. */
struct cfg_files {
	char arch[CFG_MAX][64];
	char host[CFG_MAX][PATH_MAX];
	int n;
};

static int collect(const struct bm_initrd_req *req, struct cfg_files *f)
{
	char fs[256], *tok, *save = NULL;

	f->n = 0;
	if (bm_path(f->arch[0], sizeof(f->arch[0]), "/etc/bootmark/suites/%s", req->suite) ||
	    bm_path(f->host[0], sizeof(f->host[0]), "%s/suites/%s", req->configs, req->suite))
		return -ENAMETOOLONG;
	f->n = 1;
	snprintf(fs, sizeof(fs), "%s", req->fs);
	for (tok = strtok_r(fs, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (f->n == CFG_MAX)
			return -E2BIG;
		if (bm_path(f->arch[f->n], sizeof(f->arch[0]), "/etc/bootmark/fs/%s", tok) ||
		    bm_path(f->host[f->n], sizeof(f->host[0]), "%s/fs/%s", req->configs, tok))
			return -ENAMETOOLONG;
		f->n++;
	}
	return 0;
}

static int write_cpio(const struct cfg_files *f, const char *path)
{
	struct bm_cpio c;
	char err[512] = "";
	FILE *out;
	int i, rc = 0, fd;

	bm_cpio_init(&c);
	for (i = 0; !rc && i < f->n; i++)
		rc = bm_cpio_add_file(&c, f->arch[i], f->host[i], 0644, 0, 0);
	if (rc)
		goto out_free;
	fd = bm_out_open(path, O_WRONLY | O_CLOEXEC, 0644);
	out = fd < 0 ? NULL : fdopen(fd, "w");
	if (!out) {
		rc = fd < 0 ? fd : -errno;
		if (fd >= 0)
			close(fd);
		goto out_free;
	}
	rc = bm_cpio_write(&c, out, 0, err, sizeof(err));
	if (fclose(out) && !rc)
		rc = -errno;
	if (rc && err[0])
		bm_msg("%s", err);
out_free:
	bm_cpio_free(&c);
	return rc;
}

int bm_config_archive(const struct bm_initrd_req *req, const char *ext,
		      int (*compress)(const char *ext, const char *in, const char *out),
		      char *path, size_t len)
{
	struct bm_sha256 h;
	struct cfg_files *f = calloc(1, sizeof(*f));
	char dir[PATH_MAX], raw[PATH_MAX + 8], zip[PATH_MAX + 8], hex[65];
	unsigned char d[32];
	int i, rc;

	if (!f)
		return -ENOMEM;
	rc = collect(req, f);
	bm_sha256_init(&h);
	for (i = 0; !rc && i < f->n; i++)
		rc = key_add(&h, f->arch[i], f->host[i]);
	if (rc)
		goto out_free;
	bm_sha256_update(&h, ext, strlen(ext) + 1);
	bm_sha256_final(&h, d);
	for (i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
	hex[12] = '\0';
	rc = bm_cache_root(dir, sizeof(dir));
	if (!rc)
		rc = bm_path(dir + strlen(dir), sizeof(dir) - strlen(dir), "/initrd");
	if (!rc)
		rc = bm_mkdir_p(dir, 0755);
	if (!rc)
		rc = bm_path(path, len, "%s/config-%s.cpio.%s", dir, hex, ext);
	if (rc || bm_is_file(path))
		goto out_free;
	rc = bm_out_tmp(path, raw, sizeof(raw));
	if (rc < 0)
		goto out_free;
	close(rc);
	rc = bm_out_tmp(path, zip, sizeof(zip));
	if (rc < 0)
		goto out_unlink_raw;
	close(rc);
	rc = write_cpio(f, raw);
	if (!rc)
		rc = compress(ext, raw, zip);
	/* whole or not at all: another run may want the same archive */
	if (!rc && rename(zip, path))
		rc = -errno;
	if (rc)
		unlink(zip);
out_unlink_raw:
	unlink(raw);
out_free:
	free(f);
	return rc;
}
