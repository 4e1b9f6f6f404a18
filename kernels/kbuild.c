// SPDX-License-Identifier: MIT
/* bootmark kernel build: config = base + fragment, then make bzImage (or
 * arm64's Image, cross-compiled on another host). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kbuild.h"
#include "kernel.h"
#include "profile.h"
#include "stats.h"
#include "util.h"

#define LOG_TAIL 40  /* lines of build.log shown when make fails */

/* What each architecture builds, and the prefix of Debian's cross compiler */
static const struct kimage {
	const char *arch, *karch, *target, *image, *cross, *package;
} kimages[] = {
	{ "amd64", "x86", "bzImage", "arch/x86/boot/bzImage", "x86_64-linux-gnu-",
	  "gcc-x86-64-linux-gnu" },
	{ "arm64", "arm64", "Image", "arch/arm64/boot/Image", "aarch64-linux-gnu-",
	  "gcc-aarch64-linux-gnu" },
};

/* ARCH= and CROSS_COMPILE= for every make, or nothing for a native build */
struct kmake {
	const struct kimage *ki;
	char karch[32], cross[64];
	int foreign;
};

static int is_tarball(const char *p)
{
	static const char *const ext[] = { ".tar", ".tar.xz", ".tar.gz", ".tgz", ".tar.bz2",
					   ".tar.zst", NULL };
	size_t n = strlen(p), i;

	for (i = 0; ext[i]; i++)
		if (n > strlen(ext[i]) && !strcmp(p + n - strlen(ext[i]), ext[i]))
			return 1;
	return 0;
}

/* Prints the last LOG_TAIL lines of the log, so a failed build says why. */
static void show_tail(const char *log)
{
	char *lines[LOG_TAIL] = { 0 };
	char buf[1024];
	size_t n = 0, i;
	FILE *f = fopen(log, "re");

	if (!f)
		return;
	while (fgets(buf, sizeof(buf), f)) {
		free(lines[n % LOG_TAIL]);
		lines[n++ % LOG_TAIL] = strdup(buf);
	}
	fclose(f);
	for (i = n > LOG_TAIL ? n - LOG_TAIL : 0; i < n; i++) {
		fprintf(stderr, "  | %s", lines[i % LOG_TAIL] ? lines[i % LOG_TAIL] : "\n");
		free(lines[i % LOG_TAIL]);
	}
}

/* One step: argv with stdout and stderr appended to the log.  0, or
 * BM_KBUILD_FAILED when the program ran and failed, or -errno. */
static int step(const struct bm_kbuild *b, const char *what, char *const argv[], const char *log)
{
	double t0 = bm_now_s();
	char st[64];
	int fd, status, rc;
	pid_t pid;

	if (!b->quiet)
		printf("  %-12s ", what);
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		rc = -errno;
		bm_msg("cannot open %s: %s", log, strerror(errno));
		return rc;
	}
	dprintf(fd, "### bootmark kernel build: %s\n", what);
	rc = bm_proc_start(argv, fd, &pid);
	close(fd);
	if (rc) {
		bm_msg("cannot run %s: %s", argv[0], strerror(-rc));
		return rc;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (!b->quiet)
		printf("%.1f s\n", bm_now_s() - t0);
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	bm_status_str(status, st, sizeof(st));
	bm_msg("%s failed (%s); the end of %s:", what, st, log);
	show_tail(log);
	return BM_KBUILD_FAILED;
}

/* make -C src O=out [ARCH= CROSS_COMPILE=] args... as one step */
static int make_step(const struct bm_kbuild *b, const struct kmake *km, const char *what,
		     const char *src, const char *odir, char *const *args, const char *log)
{
	char *argv[16];
	size_t n = 0, i;

	argv[n++] = "make";
	argv[n++] = "-C";
	argv[n++] = (char *)src;
	argv[n++] = (char *)odir;
	if (km->foreign) {
		argv[n++] = (char *)km->karch;
		argv[n++] = (char *)km->cross;
	}
	for (i = 0; args[i] && n + 1 < sizeof(argv) / sizeof(argv[0]); i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	return step(b, what, argv, log);
}

/* The architecture's image and, when it is not the host's, its cross compiler. */
static int kmake_init(const struct bm_kbuild *b, struct kmake *km)
{
	const char *arch = b->arch[0] ? b->arch : bm_host_arch();
	char gcc[80];
	size_t i;

	memset(km, 0, sizeof(*km));
	if (bm_arch_check("kernel build", arch))
		return -EINVAL;
	for (i = 0; i < sizeof(kimages) / sizeof(kimages[0]); i++)
		if (!strcmp(kimages[i].arch, arch))
			km->ki = &kimages[i];
	if (!km->ki)
		return -EINVAL;
	km->foreign = strcmp(arch, bm_host_arch()) != 0;
	snprintf(km->karch, sizeof(km->karch), "ARCH=%s", km->ki->karch);
	snprintf(km->cross, sizeof(km->cross), "CROSS_COMPILE=%s", km->ki->cross);
	snprintf(gcc, sizeof(gcc), "%sgcc", km->ki->cross);
	if (km->foreign && !bm_in_path(gcc)) {
		bm_msg("kernel build for %s: no %s (apt-get install %s)", arch, gcc, km->ki->package);
		return -EINVAL;
	}
	return bm_kbuild_tools();
}

int bm_kconfig_missing(const char *fragment, const char *config, char *buf, size_t len)
{
	char line[512];
	size_t used = 0;
	FILE *f;
	int fd, rc = 0;

	buf[0] = '\0';
	fd = bm_open_regular(fragment);
	if (fd < 0)
		return fd;
	f = fdopen(fd, "r");
	if (!f) {
		rc = -errno;
		close(fd);
		return rc;
	}
	while (fgets(line, sizeof(line), f)) {
		char *eq = strstr(line, "=y");

		if (strncmp(line, "CONFIG_", 7) || !eq || (eq[2] != '\n' && eq[2]))
			continue;
		*eq = '\0';
		rc = bm_kconfig_has(config, line);
		if (rc < 0)
			break;
		if (!rc && used + strlen(line) + 2 < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "," : "", line);
		rc = 0;
	}
	fclose(f);
	return rc;
}

static int resolve_paths(const struct bm_kbuild *b, char *src, char *out, char *frag)
{
	char name[PATH_MAX], *base, *dot;
	int rc;

	if (!realpath(b->src, src)) {
		bm_msg("cannot open kernel source %s: %s", b->src, strerror(errno));
		return -EINVAL;
	}
	if (is_tarball(src) ? !bm_is_file(src) :
	    !bm_is_dir(src) || bm_path(name, sizeof(name), "%s/Kconfig", src) || !bm_is_file(name)) {
		bm_msg("%s is neither a kernel source tree (a folder with Kconfig) nor a tarball",
		       b->src);
		return -EINVAL;
	}
	if (!realpath(b->fragment, frag)) {
		bm_msg("cannot open config fragment %s: %s", b->fragment, strerror(errno));
		return -EINVAL;
	}
	if (b->out[0]) {
		rc = bm_mkdir_p(b->out, 0755);
		if (rc || !realpath(b->out, out)) {
			bm_msg("cannot create %s: %s", b->out, strerror(rc ? -rc : errno));
			return rc ? rc : -errno;
		}
		return 0;
	}
	snprintf(name, sizeof(name), "%s", src);
	base = basename(name);
	dot = strstr(base, ".tar");
	if (dot)
		*dot = '\0';
	if (!bm_safe_name(base)) {
		bm_msg("cannot name a build directory after '%s': give --out", base);
		return -EINVAL;
	}
	rc = bm_cache_root(out, PATH_MAX);
	if (!rc)
		rc = bm_path(out + strlen(out), PATH_MAX - strlen(out), "/builds/%s", base);
	if (!rc)
		rc = bm_mkdir_p(out, 0755);
	if (rc)
		bm_msg("cannot create the build directory %s: %s", out, strerror(-rc));
	return rc;
}

/* A tarball is unpacked once into OUT/src; later builds reuse it. */
static int unpack(const struct bm_kbuild *b, char *src, const char *out, const char *log)
{
	char dir[PATH_MAX], mark[PATH_MAX];
	int rc;

	if (bm_path(dir, sizeof(dir), "%s/src", out) ||
	    bm_path(mark, sizeof(mark), "%s/Kconfig", dir))
		return -ENAMETOOLONG;
	if (!bm_is_file(mark)) {
		char *argv[] = { "tar", "-xf", src, "-C", dir, "--strip-components=1", NULL };

		bm_rm_rf(dir);
		rc = bm_mkdir_p(dir, 0755);
		if (rc)
			return rc;
		rc = step(b, "unpack", argv, log);
		if (rc)
			return rc;
		if (!bm_is_file(mark)) {
			bm_msg("%s holds no kernel tree (no Kconfig after unpacking)", src);
			return -EINVAL;
		}
	}
	snprintf(src, PATH_MAX, "%s", dir);
	return 0;
}

/* Base config plus the fragment; later lines win in a .config. */
static int configure(const struct bm_kbuild *b, const struct kmake *km, const char *src,
		     const char *out, const char *frag, const char *log)
{
	char odir[PATH_MAX + 3], dotconfig[PATH_MAX], allconfig[PATH_MAX + 20];
	const char *target = b->base;
	int rc, fd;

	if (bm_path(odir, sizeof(odir), "O=%s", out) ||
	    bm_path(dotconfig, sizeof(dotconfig), "%s/.config", out) ||
	    bm_path(allconfig, sizeof(allconfig), "KCONFIG_ALLCONFIG=%s", frag))
		return -ENAMETOOLONG;
	if (!strcmp(target, "allnoconfig") || !strcmp(target, "tinyconfig")) {
		char *args[] = { allconfig, (char *)target, NULL };

		return make_step(b, km, target, src, odir, args, log);
	}
	if (!strcmp(target, "defconfig")) {
		char *args[] = { "defconfig", NULL };

		rc = make_step(b, km, "defconfig", src, odir, args, log);
	} else {
		char *argv[] = { "cp", (char *)b->base, dotconfig, NULL };

		rc = step(b, "base config", argv, log);
	}
	if (rc)
		return rc;
	fd = open(dotconfig, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	rc = bm_append_file(fd, frag);
	if (close(fd) && !rc)
		rc = -errno;
	if (rc) {
		bm_msg("cannot append %s to %s: %s", frag, dotconfig, bm_strerror(-rc));
		return rc;
	}
	{
		char *args[] = { "olddefconfig", NULL };

		return make_step(b, km, "olddefconfig", src, odir, args, log);
	}
}

int bm_kernel_build(const struct bm_kbuild *b, char *spec, size_t speclen)
{
	char src[PATH_MAX], out[PATH_MAX], frag[PATH_MAX], log[PATH_MAX + 16];
	char odir[PATH_MAX + 3], jobs[32], dotconfig[PATH_MAX], image[PATH_MAX];
	char missing[1024];
	double t0 = bm_now_s();
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct kmake km;
	int rc;

	rc = kmake_init(b, &km);
	if (!rc)
		rc = resolve_paths(b, src, out, frag);
	if (rc)
		return rc;
	if (bm_path(log, sizeof(log), "%s/build.log", out) ||
	    bm_path(odir, sizeof(odir), "O=%s", out) ||
	    bm_path(dotconfig, sizeof(dotconfig), "%s/.config", out) ||
	    bm_path(image, sizeof(image), "%s/%s", out, km.ki->image))
		return -ENAMETOOLONG;
	unlink(log);
	if (!b->quiet)
		printf("bootmark: building %s in %s (log: %s)\n", b->src, out, log);
	if (is_tarball(src)) {
		rc = unpack(b, src, out, log);
		if (rc)
			return rc;
	}
	rc = configure(b, &km, src, out, frag, log);
	if (rc)
		return rc;
	rc = bm_kconfig_missing(frag, dotconfig, missing, sizeof(missing));
	if (rc)
		return rc;
	if (missing[0])  /* a symbol this kernel version lacks is not fatal: the boot decides */
		bm_msg("warning: not =y after merging the fragment: %s", missing);
	bm_kbuild_libs(dotconfig);
	snprintf(jobs, sizeof(jobs), "-j%lld", b->jobs > 0 ? b->jobs : ncpu > 0 ? (long long)ncpu : 1);
	{
		char *args[] = { jobs, "KBUILD_BUILD_USER=bootmark", "KBUILD_BUILD_HOST=bootmark",
				 (char *)km.ki->target, NULL };

		rc = make_step(b, &km, km.ki->target, src, odir, args, log);
		if (rc)
			return rc;
	}
	if (!bm_is_file(image)) {
		bm_msg("make succeeded but %s does not exist", image);
		return BM_KBUILD_FAILED;
	}
	if (!b->quiet)
		printf("bootmark: built in %.0f s: local:%s\n", bm_now_s() - t0, image);
	return bm_path(spec, speclen, "local:%s", image);
}
