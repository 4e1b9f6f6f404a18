// SPDX-License-Identifier: MIT
/* Boot modules stored uncompressed (modplain.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "modplain.h"
#include "util.h"

static const struct {
	const char *ext;
	char *prog;
	const char *package;
} unz[] = {
	{ ".ko.xz", "xz", "xz-utils" },
	{ ".ko.zst", "zstd", "zstd" },
	{ ".ko.gz", "gzip", "gzip" },
};

static int which(const char *path)
{
	size_t n = strlen(path), e;

	for (size_t i = 0; i < sizeof(unz) / sizeof(unz[0]); i++) {
		e = strlen(unz[i].ext);
		if (n > e && !strcmp(path + n - e, unz[i].ext))
			return (int)i;
	}
	return -1;
}

size_t bm_modplain_suffix(const char *path)
{
	int i = which(path);

	return i < 0 ? 0 : strlen(unz[i].ext) - 3;
}

void bm_modplain_path(const char *path, char *out, size_t len)
{
	snprintf(out, len, "%.*s", (int)(strlen(path) - bm_modplain_suffix(path)), path);
}

int bm_modplain_write(const char *host, const char *out, char *err, size_t errlen)
{
	int i = which(host), rc;
	char *argv[] = { NULL, "-d", "-c", "--", (char *)host, NULL };

	if (i < 0) {
		snprintf(err, errlen, "%s is not a compressed module", host);
		return -EINVAL;
	}
	argv[0] = unz[i].prog;
	rc = bm_run_to_file(argv, out);
	if (rc) {
		unlink(out);
		snprintf(err, errlen, "cannot decompress %s with %s (Debian package %s)", host,
			 unz[i].prog, unz[i].package);
	}
	return rc;
}

int bm_modplain_pack(const char *host, const char *out, char *err, size_t errlen)
{
	/* as the kernel's own modules_install compresses (scripts/Makefile.modinst):
	 * CRC32 and a 1 MiB dictionary, so a small decoder needs little memory */
	char *argv[] = { "xz", "-T1", "--check=crc32", "--lzma2=dict=1MiB", "-c", "--",
			 (char *)host, NULL };
	int rc = bm_run_to_file(argv, out);

	if (rc) {
		unlink(out);
		snprintf(err, errlen, "cannot compress %s with xz (Debian package xz-utils)", host);
	}
	return rc;
}
