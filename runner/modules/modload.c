// SPDX-License-Identifier: MIT
/* Loads a computed plan with finit_module(2) (see modload.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "log.h"
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

static int load_one(const struct bm_moddb *db, const struct bm_mod *m)
{
	char path[512];
	int fd, flags = 0, ret = 0;

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
	const struct bm_mod *m;
	size_t i;
	int ret;

	if (p->skipped[0])
		rlog(RLOG_INFO, "optional modules not available: %s", p->skipped);
	for (i = 0; i < p->n; i++) {
		m = &db->mods[p->step[i].mod];
		ret = load_one(db, m);
		if (!ret) {
			rlog(RLOG_DEBUG, "loaded %s", m->name);
			continue;
		}
		if (p->step[i].optional) {
			/* e.g. crc32c_intel on a CPU without SSE4.2: the generic one serves. */
			rlog(RLOG_INFO, "optional module %s not loaded: %s", m->name,
			     strerror(-ret));
			continue;
		}
		snprintf(err, errlen, "cannot load module %s (%s): %s", m->name,
			 m->path, strerror(-ret));
		return ret;
	}
	return 0;
}
