/* SPDX-License-Identifier: MIT */
/* A kernel's architecture (kernels/arch.c): from a Debian release's flavour and
 * from small synthetic images (bzImage and arm64 Image headers, ELF headers,
 * garbage); arm64 local builds and cache entries (kernels/local.c, deb.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "testutil.h"
#include "util.h"

static char dir[] = "/tmp/bm-kernel-arch-XXXXXX";

static const char *file(const char *name, const unsigned char *buf, size_t len)
{
	static char path[8][256];
	static int i;
	char *p = path[i++ % 8];
	FILE *f;

	snprintf(p, 256, "%s/%s", dir, name);
	f = fopen(p, "w");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f))
		tap_bail("cannot write a test file");
	return p;
}

/* 4 KiB images: the kernel's own headers at their offsets, zeroes elsewhere */
static unsigned char bz[4096], img[4096], elf_x86[64], elf_arm[64], elf_be[64], elf_rv[64];
static unsigned char junk[4096];

static void make_images(void)
{
	static const char banner[] = "Linux version %s (%s)\0"
		"Linux version 6.1.0-53-arm64 (debian-kernel@lists.debian.org) (gcc-12)";
	size_t i;

	bz[0] = 'M', bz[1] = 'Z';
	memcpy(bz + 0x202, "HdrS", 4);
	bz[0x206] = 0x0f, bz[0x207] = 0x02;
	img[0] = 'M', img[1] = 'Z';   /* the EFI stub's, as Debian's signed Image has */
	memcpy(img + 0x38, "ARM\x64", 4);
	memcpy(img + 0x400, banner, sizeof(banner));
	memcpy(elf_x86, "\177ELF\2\1\1", 7);
	elf_x86[18] = 62;             /* EM_X86_64, little-endian */
	memcpy(elf_arm, "\177ELF\2\1\1", 7);
	elf_arm[18] = 183;            /* EM_AARCH64 */
	memcpy(elf_be, "\177ELF\2\2\1", 7);
	elf_be[19] = 183;             /* big-endian e_machine */
	memcpy(elf_rv, "\177ELF\2\1\1", 7);
	elf_rv[18] = 243;             /* EM_RISCV */
	for (i = 0; i < sizeof(junk); i++)
		junk[i] = (unsigned char)(i * 7 + 3);
}

static void arches(void)
{
	char msg[32];

	TAP_EQ_STR(bm_arches[0], "amd64", "amd64 first");
	TAP_EQ_STR(bm_arches[1], "arm64", "then arm64");
	tap_ok(bm_arches[2] == NULL, "and no other");
	TAP_EQ_STR(bm_arches_text(), "amd64, arm64", "named for messages");
	tap_ok(bm_arch_ok("arm64") && bm_arch_ok("amd64"), "both supported");
	tap_ok(!bm_arch_ok("riscv64") && !bm_arch_ok("") && !bm_arch_ok(NULL) &&
	       !bm_arch_ok("arm"), "riscv64, empty, NULL and a prefix are not");
	TAP_EQ_INT(bm_arch_check("test", "riscv64"), -EINVAL, "bm_arch_check refuses riscv64");
	TAP_EQ_INT(bm_arch_check("test", "arm64"), 0, "and takes arm64");
	snprintf(msg, sizeof(msg), "%s", bm_host_arch());
	tap_ok(msg[0] && strcmp(msg, "x86_64") && strcmp(msg, "aarch64"),
	       "the host's in Debian's words (%s)", msg);
}

static void releases(void)
{
	static const char *const cases[][2] = {
		{ "6.1.0-53-amd64", "amd64" },
		{ "6.1.0-53-arm64", "arm64" },
		{ "6.1.0-53-cloud-arm64", "arm64" },
		{ "6.12.43+deb12-rt-arm64", "arm64" },
		{ "6.12.117+deb13-arm64-16k", "arm64" },
		{ "6.12.74+deb13+1-amd64", "amd64" },
		{ "6.1.0-53-686-pae", NULL },
		{ "6.1.0-53-riscv64", NULL },
		{ "6.8.0-arm64x", NULL },
		{ "arm64", NULL },
		{ "", NULL },
	};
	char arch[BM_ARCH_MAX], small[4];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = bm_release_arch(cases[i][0], arch, sizeof(arch));

		if (cases[i][1])
			tap_ok(!rc && !strcmp(arch, cases[i][1]), "release '%s': %s", cases[i][0],
			       cases[i][1]);
		else
			TAP_EQ_INT(rc, -ENOEXEC, cases[i][0]);
	}
	TAP_EQ_INT(bm_release_arch("6.1.0-53-arm64", small, sizeof(small)), -ENOEXEC,
		   "a buffer too small for the name is no match");
}

static void buffers(void)
{
	static const struct {
		const unsigned char *buf;
		size_t len;
		const char *arch, *what;
	} cases[] = {
		{ bz, sizeof(bz), "amd64", "a bzImage (HdrS at 0x202)" },
		{ img, sizeof(img), "arm64", "an arm64 Image (ARM\\x64 at 0x38)" },
		{ elf_x86, sizeof(elf_x86), "amd64", "an x86-64 ELF" },
		{ elf_arm, sizeof(elf_arm), "arm64", "an AArch64 ELF" },
		{ elf_be, sizeof(elf_be), "arm64", "a big-endian AArch64 ELF" },
		{ elf_rv, sizeof(elf_rv), NULL, "a RISC-V ELF" },
		{ junk, sizeof(junk), NULL, "garbage" },
		{ bz, 0x205, NULL, "a bzImage cut before its magic's end" },
		{ img, 0x3b, NULL, "an Image cut inside its magic" },
		{ elf_arm, 19, NULL, "an ELF cut inside e_machine" },
	};
	char arch[BM_ARCH_MAX], small[5];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc;

		memset(arch, 0, sizeof(arch));
		rc = bm_image_arch_buf(cases[i].buf, cases[i].len, arch, sizeof(arch));
		if (cases[i].arch)
			tap_ok(!rc && !strcmp(arch, cases[i].arch), "%s: %s", cases[i].what,
			       cases[i].arch);
		else
			TAP_EQ_INT(rc, -ENOEXEC, cases[i].what);
	}
	TAP_EQ_INT(bm_image_arch_buf(img, sizeof(img), small, sizeof(small)), -ENAMETOOLONG,
		   "a buffer too small for the name");
}

static void files(void)
{
	const char *pbz = file("bzImage", bz, sizeof(bz)), *pimg = file("Image", img, sizeof(img));
	const char *pjunk = file("junk", junk, sizeof(junk)), *pelf = file("vmlinux", elf_arm,
									      sizeof(elf_arm));
	char arch[BM_ARCH_MAX], missing[300];

	TAP_EQ_INT(bm_kernel_arch_of("6.1.0-53-cloud-arm64", NULL, arch, sizeof(arch)), 0,
		   "a release alone");
	TAP_EQ_STR(arch, "arm64", "names arm64");
	TAP_EQ_INT(bm_kernel_arch_of("6.1.0-53-amd64", pimg, arch, sizeof(arch)), 0,
		   "a Debian release wins over the file");
	TAP_EQ_STR(arch, "amd64", "(its name is what the cache keeps)");
	TAP_EQ_INT(bm_kernel_arch_of(NULL, pbz, arch, sizeof(arch)), 0, "a bzImage file");
	TAP_EQ_STR(arch, "amd64", "is amd64");
	TAP_EQ_INT(bm_kernel_arch_of(NULL, pimg, arch, sizeof(arch)), 0, "an arm64 Image file");
	TAP_EQ_STR(arch, "arm64", "is arm64");
	TAP_EQ_INT(bm_kernel_arch_of("my-build", pelf, arch, sizeof(arch)), 0,
		   "a release that names none: the file tells");
	TAP_EQ_STR(arch, "arm64", "an AArch64 vmlinux");
	TAP_EQ_INT(bm_kernel_arch_of(NULL, pjunk, arch, sizeof(arch)), -ENOEXEC, "garbage: -ENOEXEC");
	TAP_EQ_INT(bm_kernel_arch_of("6.1.0-53-686-pae", NULL, arch, sizeof(arch)), -ENOEXEC,
		   "an i386 release and no file: -ENOEXEC");
	snprintf(missing, sizeof(missing), "%s/none", dir);
	TAP_EQ_INT(bm_kernel_arch_of(NULL, missing, arch, sizeof(arch)), -ENOENT,
		   "a missing file: -ENOENT");
}

static void banner(void)
{
	static const char text[] = "xx Linux version 5 is old; Linux version %s (%s)\0"
		"Linux version 6.1.0-53-arm64 (debian-kernel@lists.debian.org) #1 SMP";
	char rel[BM_REL_MAX], small[8];

	TAP_EQ_INT(bm_banner_release_buf((const unsigned char *)text, sizeof(text), rel, sizeof(rel)),
		   0, "the banner is found past decoys");
	TAP_EQ_STR(rel, "6.1.0-53-arm64", "its release");
	TAP_EQ_INT(bm_banner_release_buf((const unsigned char *)text, sizeof(text), small,
					 sizeof(small)), -ENOEXEC, "a release longer than the buffer");
	TAP_EQ_INT(bm_banner_release_buf(junk, sizeof(junk), rel, sizeof(rel)), -ENOEXEC,
		   "no banner: -ENOEXEC");
	TAP_EQ_INT(bm_banner_release_buf((const unsigned char *)"Linux version 6.1", 17, rel,
					 sizeof(rel)), -ENOEXEC, "a banner cut at the file's end");
}

static void local_arm64(void)
{
	char spec[512], err[256], mods[512];
	struct bm_kspec k;
	struct bm_kernel out;

	snprintf(spec, sizeof(spec), "local:%s/Image:%s/root", dir, dir);
	snprintf(mods, sizeof(mods), "%s/root/lib/modules/6.1.0-53-arm64", dir);
	if (bm_mkdir_p(mods, 0755))
		tap_bail("cannot create a modules folder");
	TAP_EQ_INT(bm_kspec_parse(&k, spec, err, sizeof(err)), 0, "local: spec of an Image");
	TAP_EQ_INT(bm_local_resolve(&k, &out), 0, "an arm64 Image resolves");
	TAP_EQ_STR(out.arch, "arm64", "as arm64");
	TAP_EQ_STR(out.release, "6.1.0-53-arm64", "its release from the banner");
	snprintf(spec, sizeof(spec), "local:%s/bzImage", dir);
	TAP_EQ_INT(bm_kspec_parse(&k, spec, err, sizeof(err)), 0, "local: spec of a bzImage");
	TAP_EQ_INT(bm_local_resolve(&k, &out), -EINVAL,
		   "a bzImage without a version string is refused");
	snprintf(spec, sizeof(spec), "local:%s/junk", dir);
	TAP_EQ_INT(bm_kspec_parse(&k, spec, err, sizeof(err)), 0, "local: spec of garbage");
	TAP_EQ_INT(bm_local_resolve(&k, &out), -EINVAL, "garbage is refused");
}

/* a cache entry as kernel fetch leaves it, and one of before the arch line */
static void cached(void)
{
	static const char pkg[] = "package linux-image-6.1.0-53-arm64\nversion 6.1.187-1\n"
				  "archive bookworm-security\narch arm64\n";
	static const char old[] = "package linux-image-6.1.0-53-amd64\nversion 6.1.187-1\n"
				  "archive bookworm-security\n";
	char cache[300], path[600];
	struct bm_kernel k;

	snprintf(cache, sizeof(cache), "%s/cache", dir);
	setenv("BOOTMARK_CACHE", cache, 1);
	snprintf(path, sizeof(path), "%s/kernels/6.1.0-53-arm64/boot", cache);
	bm_mkdir_p(path, 0755);
	file("cache/kernels/6.1.0-53-arm64/boot/vmlinuz-6.1.0-53-arm64", img, sizeof(img));
	file("cache/kernels/6.1.0-53-arm64/package", (const unsigned char *)pkg, strlen(pkg));
	snprintf(path, sizeof(path), "%s/kernels/6.1.0-53-amd64/boot", cache);
	bm_mkdir_p(path, 0755);
	file("cache/kernels/6.1.0-53-amd64/boot/vmlinuz-6.1.0-53-amd64", bz, sizeof(bz));
	file("cache/kernels/6.1.0-53-amd64/package", (const unsigned char *)old, strlen(old));
	TAP_EQ_INT(bm_deb_cached("6.1.0-53-arm64", &k), 0, "an arm64 entry is cached");
	TAP_EQ_STR(k.arch, "arm64", "arch from its package file");
	TAP_EQ_STR(k.vmlinux, "", "no vmlinux: an arm64 kernel has none");
	TAP_EQ_INT(bm_vmlinux_get(&k), -ENOTSUP, "bm_vmlinux_get: -ENOTSUP for arm64");
	TAP_EQ_INT(bm_deb_cached("6.1.0-53-amd64", &k), 0, "an entry of before the arch line");
	TAP_EQ_STR(k.arch, "amd64", "arch from its release");
	TAP_EQ_STR(k.deb_version, "6.1.187-1", "version still read");
	unsetenv("BOOTMARK_CACHE");
}

int main(void)
{
	tap_plan(0);
	tu_mkdtemp(dir);
	make_images();
	arches();
	releases();
	buffers();
	files();
	banner();
	local_arm64();
	cached();
	bm_rm_rf(dir);
	return tap_done();
}
