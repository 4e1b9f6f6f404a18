/* SPDX-License-Identifier: MIT */
/* Kernel specs (kernels/spec.c) and the bzImage release string. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel.h"
#include "tap.h"
#include "testkernel.h"

static struct bm_kspec k;

static void specs(void)
{
	char err[512];

	TAP_EQ_INT(bm_kspec_parse(&k, "6.1.0-53-amd64", err, sizeof(err)), 0, "bare release");
	TAP_EQ_INT(k.kind, BM_KSPEC_DEB, "bare release is Debian");
	TAP_EQ_STR(k.release, "6.1.0-53-amd64", "release kept");
	TAP_EQ_INT(bm_kspec_parse(&k, "deb:6.12.117+deb12-amd64", err, sizeof(err)), 0, "deb: prefix");
	TAP_EQ_STR(k.release, "6.12.117+deb12-amd64", "deb: release with '+'");
	TAP_EQ_INT(bm_kspec_parse(&k, "local:/k/bzImage", err, sizeof(err)), 0, "local without modules");
	TAP_EQ_INT(k.kind, BM_KSPEC_LOCAL, "local kind");
	TAP_EQ_STR(k.bzimage, "/k/bzImage", "local bzImage");
	TAP_EQ_STR(k.modroot, "", "no modules root");
	TAP_EQ_INT(bm_kspec_parse(&k, "local:/k/bzImage:/k/mods", err, sizeof(err)), 0, "local with modules");
	TAP_EQ_STR(k.bzimage, "/k/bzImage", "bzImage before ':'");
	TAP_EQ_STR(k.modroot, "/k/mods", "modules root after ':'");

	TAP_EQ_INT(bm_kspec_parse(&k, "deb:6.1.0-53-amd64  init_on_free=1 quiet ", err,
				  sizeof(err)), 0, "spec with extra arguments");
	TAP_EQ_STR(k.release, "6.1.0-53-amd64", "release is the first word");
	TAP_EQ_STR(k.args, "init_on_free=1 quiet", "arguments trimmed, inner spaces kept");
	TAP_EQ_INT(bm_kspec_parse(&k, "local:/k/bzImage mitigations=off", err, sizeof(err)), 0,
		   "local spec with an argument");
	TAP_EQ_STR(k.bzimage, "/k/bzImage", "bzImage path ends at the space");
	TAP_EQ_STR(k.args, "mitigations=off", "local spec's argument");
	TAP_EQ_INT(bm_kspec_parse(&k, "6.1.0-53-amd64 bootmark.run=12345678", err, sizeof(err)),
		   -EINVAL, "bootmark.run= is the host's");
	tap_ok(strstr(err, "bootmark.run=") != NULL, "message names the reserved key");
	TAP_EQ_INT(bm_kspec_parse(&k, "6.1.0-53-amd64 a=1\nb=2", err, sizeof(err)), -EINVAL,
		   "newline in the arguments");
	TAP_EQ_INT(bm_kspec_parse(&k, "6.1.0-53-amd64 xbootmark.run=1", err, sizeof(err)), 0,
		   "only whole arguments are reserved");
	TAP_EQ_INT(bm_kspec_parse(&k, "", err, sizeof(err)), -EINVAL, "empty spec");
	TAP_EQ_INT(bm_kspec_parse(&k, "deb:", err, sizeof(err)), -EINVAL, "deb: without release");
	TAP_EQ_INT(bm_kspec_parse(&k, "deb:../../etc", err, sizeof(err)), -EINVAL, "path in release");
	TAP_EQ_INT(bm_kspec_parse(&k, "6.1/evil", err, sizeof(err)), -EINVAL, "slash in release");
	TAP_EQ_INT(bm_kspec_parse(&k, "linux", err, sizeof(err)), -EINVAL, "release must start with a digit");
	TAP_EQ_INT(bm_kspec_parse(&k, "local:", err, sizeof(err)), -EINVAL, "local without path");
	TAP_EQ_INT(bm_kspec_parse(&k, "local:/k/bzImage:", err, sizeof(err)), -EINVAL,
		   "local with empty modules root");
	tap_ok(strstr(err, "local:/k/bzImage:") != NULL, "message names the spec: %s", err);
	TAP_EQ_INT(bm_kspec_parse(&k, "6.1.0/53", err, sizeof(err)), -EINVAL, "slash in release");
	TAP_EQ_INT(bm_kspec_parse(&k, "6.1.0 53", err, sizeof(err)), 0,
		   "a space ends the release: the rest is arguments");
	TAP_EQ_STR(k.args, "53", "the word after the space");
}

/* A setup header as Documentation/arch/x86/boot.rst lays it out. */
static void craft(unsigned char *buf, size_t len, unsigned version, unsigned ptr, const char *str)
{
	memset(buf, 0, len);
	memcpy(buf + 0x202, "HdrS", 4);
	buf[0x206] = (unsigned char)version;
	buf[0x207] = (unsigned char)(version >> 8);
	buf[0x20e] = (unsigned char)ptr;
	buf[0x20f] = (unsigned char)(ptr >> 8);
	if (str)
		memcpy(buf + 0x200 + ptr, str, strlen(str));
}

static void bzimage(void)
{
	static unsigned char buf[16384];
	char rel[BM_REL_MAX];
	const char *ver = "6.9.0-rc1-test (me@host) #1 SMP PREEMPT_DYNAMIC";

	craft(buf, sizeof(buf), 0x20f, 0x3000, ver);
	TAP_EQ_INT(bm_bzimage_release_buf(buf, sizeof(buf), rel, sizeof(rel)), 0, "crafted header");
	TAP_EQ_STR(rel, "6.9.0-rc1-test", "release is the first word");
	craft(buf, sizeof(buf), 0x20f, 0x3000, ver);
	memcpy(buf + 0x202, "HdrX", 4);
	TAP_EQ_INT(bm_bzimage_release_buf(buf, sizeof(buf), rel, sizeof(rel)), -ENOEXEC, "no HdrS magic");
	craft(buf, sizeof(buf), 0x1ff, 0x3000, ver);
	TAP_EQ_INT(bm_bzimage_release_buf(buf, sizeof(buf), rel, sizeof(rel)), -ENOEXEC,
		   "boot protocol older than 2.00");
	craft(buf, sizeof(buf), 0x20f, 0, NULL);
	TAP_EQ_INT(bm_bzimage_release_buf(buf, sizeof(buf), rel, sizeof(rel)), -ENOEXEC, "null pointer");
	craft(buf, sizeof(buf), 0x20f, 0xff00, NULL);
	TAP_EQ_INT(bm_bzimage_release_buf(buf, sizeof(buf), rel, sizeof(rel)), -ENOEXEC,
		   "pointer past the buffer");
	craft(buf, sizeof(buf), 0x20f, 0x3000, "");
	TAP_EQ_INT(bm_bzimage_release_buf(buf, sizeof(buf), rel, sizeof(rel)), -ENOEXEC, "empty version");
	craft(buf, sizeof(buf), 0x20f, 0x3000, ver);
	TAP_EQ_INT(bm_bzimage_release_buf(buf, sizeof(buf), rel, 5), -ENOEXEC, "release longer than buffer");
	TAP_EQ_INT(bm_bzimage_release_buf(buf, 0x100, rel, sizeof(rel)), -ENOEXEC, "short file");
}

/* The Debian 6.1 kernel from bootmark's kernel cache (fetched when missing). */
static void real_image(void)
{
	struct bm_kernel kern;
	char rel[BM_REL_MAX], why[600];

	if (tk_kernel("6.1.0-53-amd64", &kern, why, sizeof(why))) {
		tap_skip(why, "release of a real bzImage");
		return;
	}
	tap_ok(!bm_bzimage_release(kern.vmlinuz, rel, sizeof(rel)), "a real bzImage: %s",
	       kern.vmlinuz);
	TAP_EQ_STR(rel, "6.1.0-53-amd64", "release of a real bzImage");
}

int main(void)
{
	tap_plan(0);
	specs();
	bzimage();
	real_image();
	tap_ok(bm_release_ok("6.1.0-53-amd64") && !bm_release_ok(".."), "bm_release_ok");
	return tap_done();
}
