// SPDX-License-Identifier: MIT
/*
 * A kernel's architecture, in Debian's words (amd64, arm64): from a Debian
 * release's flavour (6.1.0-53-cloud-arm64), or from the image file itself
 * for local builds.  The supported ones and the host's are named here only,
 * so that kernel list, run --arch and their messages agree.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kernel.h"
#include "util.h"

const char *const bm_arches[] = { "amd64", "arm64", NULL };

const char *bm_host_arch(void)
{
	static char arch[sizeof(((struct utsname *)0)->machine)];
	struct utsname u;

	if (arch[0])
		return arch;
	if (uname(&u))
		return "unknown";
	/* uname -m -> Debian's name, as the results read a guest's (common/util.c) */
	snprintf(arch, sizeof(arch), "%s", bm_arch_of_machine(u.machine));
	return arch;
}

int bm_arch_ok(const char *arch)
{
	int i;

	for (i = 0; arch && bm_arches[i]; i++)
		if (!strcmp(arch, bm_arches[i]))
			return 1;
	return 0;
}

const char *bm_arches_text(void)
{
	static char text[64];
	size_t used = 0;
	int i;

	if (text[0])
		return text;
	for (i = 0; bm_arches[i] && used < sizeof(text); i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%s", i ? ", " : "",
					 bm_arches[i]);
	return text;
}

int bm_arch_check(const char *what, const char *arch)
{
	if (bm_arch_ok(arch))
		return 0;
	bm_msg("%s: architecture '%s' is not supported (supported: %s)", what, arch ? arch : "",
	       bm_arches_text());
	return -EINVAL;
}

/*
 * The last '-' component that names a supported architecture: "arm64" of
 * 6.1.0-53-arm64 and 6.1.0-53-cloud-arm64, and of 6.12.57+deb13-arm64-16k,
 * whose page size follows the architecture.
 */
int bm_release_arch(const char *rel, char *arch, size_t len)
{
	const char *end = rel + strlen(rel), *p;

	while (end > rel) {
		for (p = end; p > rel && p[-1] != '-'; p--)
			;
		if (p > rel) {
			size_t n = (size_t)(end - p);
			int i;

			for (i = 0; bm_arches[i]; i++)
				if (strlen(bm_arches[i]) == n && !memcmp(p, bm_arches[i], n) && n < len) {
					memcpy(arch, p, n);
					arch[n] = '\0';
					return 0;
				}
		}
		end = p > rel ? p - 1 : rel;
	}
	return -ENOEXEC;
}

#define ELF_MACHINE_OFF 18
#define EM_X86_64_ 62
#define EM_AARCH64_ 183
#define BZ_MAGIC_OFF 0x202       /* Documentation/arch/x86/boot.rst */
#define ARM64_MAGIC_OFF 0x38     /* Documentation/arch/arm64/booting.rst */

static int put(char *arch, size_t len, const char *name)
{
	if (strlen(name) >= len)
		return -ENAMETOOLONG;
	strcpy(arch, name);
	return 0;
}

int bm_image_arch_buf(const unsigned char *buf, size_t len, char *arch, size_t alen)
{
	if (len >= ELF_MACHINE_OFF + 2 && !memcmp(buf, "\177ELF", 4)) {
		/* EI_DATA: 1 little-endian, 2 big-endian */
		unsigned m = buf[5] == 2 ? (unsigned)buf[18] << 8 | buf[19]
					 : buf[18] | (unsigned)buf[19] << 8;

		if (m == EM_X86_64_)
			return put(arch, alen, "amd64");
		if (m == EM_AARCH64_)
			return put(arch, alen, "arm64");
		return -ENOEXEC;
	}
	if (len >= BZ_MAGIC_OFF + 4 && !memcmp(buf + BZ_MAGIC_OFF, "HdrS", 4))
		return put(arch, alen, "amd64");
	if (len >= ARM64_MAGIC_OFF + 4 && !memcmp(buf + ARM64_MAGIC_OFF, "ARM\x64", 4))
		return put(arch, alen, "arm64");
	return -ENOEXEC;
}

int bm_kernel_arch_of(const char *release, const char *vmlinuz, char *arch, size_t len)
{
	unsigned char buf[1024];
	ssize_t n;
	int fd, rc;

	if (release && !bm_release_arch(release, arch, len))
		return 0;
	if (!vmlinuz) {
		bm_msg("kernel %s: its release names none of the architectures %s", release,
		       bm_arches_text());
		return -ENOEXEC;
	}
	fd = open(vmlinuz, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		bm_msg("cannot open %s: %s", vmlinuz, strerror(-rc));
		return rc;
	}
	n = pread(fd, buf, sizeof(buf), 0);
	rc = n < 0 ? -errno : 0;
	close(fd);
	if (rc) {
		bm_msg("cannot read %s: %s", vmlinuz, strerror(-rc));
		return rc;
	}
	rc = bm_image_arch_buf(buf, (size_t)n, arch, len);
	if (rc == -ENOEXEC)
		bm_msg("cannot tell the architecture of %s: not an x86 bzImage, an arm64 Image "
		       "or an x86-64 or arm64 ELF", vmlinuz);
	return rc;
}
