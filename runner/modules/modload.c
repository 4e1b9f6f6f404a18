// SPDX-License-Identifier: MIT
/* Loads a computed plan with finit_module(2) (see modload.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "modload.h"

/* Not in older uapi headers; the kernel decompresses (CONFIG_MODULE_DECOMPRESS). */
#ifndef MODULE_INIT_COMPRESSED_FILE
#define MODULE_INIT_COMPRESSED_FILE 4
#endif

int modload_default_dir(char *buf, size_t len)
{
	struct utsname u;

	if (uname(&u))
		return -errno;
	snprintf(buf, len, "/lib/modules/%s", u.release);
	return 0;
}

static int is_compressed(const char *path)
{
	static const char *const ext[] = { ".ko.xz", ".ko.zst", ".ko.gz" };
	size_t n = strlen(path), i, e;

	for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		e = strlen(ext[i]);
		if (n > e && !strcmp(path + n - e, ext[i]))
			return 1;
	}
	return 0;
}

static int load_one(void *ctx, const struct bm_moddb *db, const struct bm_mod *m)
{
	char path[512];
	int fd, flags = 0, ret = 0;

	(void)ctx;
	snprintf(path, sizeof(path), "%s/%s", db->dir, m->path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (is_compressed(path))
		flags |= MODULE_INIT_COMPRESSED_FILE;
	if (syscall(SYS_finit_module, fd, "", flags) != 0 && errno != EEXIST)
		ret = -errno;
	close(fd);
	return ret;
}

int mod_plan_load(const struct bm_moddb *db, const struct mod_plan *p,
		  char *err, size_t errlen)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	return mod_plan_run(db, p, ncpu > 0 ? (unsigned)ncpu : 1, load_one, NULL, err, errlen);
}
