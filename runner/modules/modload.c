// SPDX-License-Identifier: MIT
/* Loads a computed plan with finit_module(2) (see modload.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "modload.h"

/* The image's busybox, whose xzcat decompresses for kernels that cannot. */
#define MODLOAD_BUSYBOX "/bin/busybox"

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

static int finit(int fd, const char *args, int flags)
{
	return syscall(SYS_finit_module, fd, args, flags) != 0 && errno != EEXIST ? -errno : 0;
}

/*
 * A .ko.xz for a kernel that cannot decompress it (no CONFIG_MODULE_DECOMPRESS:
 * Debian 6.1, whose modules the image builder compressed, initramfs/modplain.h):
 * busybox's xzcat into a memfd, then finit_module of that, as kmod does for
 * such kernels (it decompresses in user space and calls init_module).
 */
static int load_unpacked(const char *path, const char *args)
{
	char *argv[] = { "busybox", "xzcat", "--", (char *)path, NULL };
	char *envp[] = { NULL };
	int mfd, status, ret;
	pid_t pid;

	if (!strstr(path, ".ko.xz"))
		return -EOPNOTSUPP;  /* the image builder makes only .xz */
	mfd = memfd_create("bootmark-module", MFD_CLOEXEC);
	if (mfd < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		goto out_close;
	}
	if (pid == 0) {
		/* only async-signal-safe calls: the loader has other threads */
		if (dup2(mfd, 1) == 1)
			execve(MODLOAD_BUSYBOX, argv, envp);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			ret = -errno;
			goto out_close;
		}
	ret = WIFEXITED(status) && !WEXITSTATUS(status) ? finit(mfd, args, 0) : -ENOEXEC;
out_close:
	close(mfd);
	return ret;
}

/* ctx: the caller's per-module loaded flags, or NULL */
int modload_one(void *ctx, const struct bm_moddb *db, const struct bm_mod *m)
{
	unsigned char *loaded = ctx;
	const char *args = modparam_for(m->name);
	char path[512];
	int fd, ret;

	/* depmod writes a module outside the release's directory in full (and
	 * the boot index all of them: BM_MODULES_BOOT_DIR) */
	if (m->path[0] == '/')
		snprintf(path, sizeof(path), "%s", m->path);
	else
		snprintf(path, sizeof(path), "%s/%s", db->dir, m->path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = finit(fd, args, is_compressed(path) ? MODULE_INIT_COMPRESSED_FILE : 0);
	close(fd);
	if (ret == -EOPNOTSUPP && is_compressed(path))
		ret = load_unpacked(path, args);
	if (!ret && loaded)
		loaded[m - db->mods] = 1;  /* each thread its own modules' bytes */
	return ret;
}

int mod_plan_load(const struct bm_moddb *db, const struct mod_plan *p, unsigned char *loaded,
		  char *err, size_t errlen)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	return mod_plan_run(db, p, ncpu > 0 ? (unsigned)ncpu : 1, modload_one, loaded, err, errlen);
}
