// SPDX-License-Identifier: MIT
/* Kernel spec parsing and the bzImage release string. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel.h"
#include "util.h"

int bm_release_ok(const char *rel)
{
	return strlen(rel) < BM_REL_MAX && isdigit((unsigned char)rel[0]) && bm_safe_name(rel);
}

static int split_local(struct bm_kspec *k, const char *rest, char *err, size_t errlen)
{
	const char *colon = strchr(rest, ':');
	size_t n = colon ? (size_t)(colon - rest) : strlen(rest);

	if (!n) {
		snprintf(err, errlen, "kernel spec '%s': missing bzImage path", k->text);
		return -EINVAL;
	}
	if (n >= sizeof(k->bzimage) || (colon && strlen(colon + 1) >= sizeof(k->modroot))) {
		snprintf(err, errlen, "kernel spec '%s': path too long", k->text);
		return -EINVAL;
	}
	memcpy(k->bzimage, rest, n);
	k->bzimage[n] = '\0';
	if (colon) {
		if (!colon[1]) {
			snprintf(err, errlen, "kernel spec '%s': empty modules root after ':'", k->text);
			return -EINVAL;
		}
		strcpy(k->modroot, colon + 1);
	}
	return 0;
}

/*
 * Extra arguments go on the kernel command line verbatim, so anything the
 * kernel's parser or the run's identity depends on is refused: control
 * characters (a newline would end the line in a PXE config), and the
 * bootmark.* keys the host sets itself.
 */
static int check_args(const char *spec, const char *args, char *err, size_t errlen)
{
	static const char *const reserved[] = { "bootmark.run=", "bootmark.results=",
						"bootmark.suite=", "bootmark.fs=", NULL };
	const char *p;
	size_t i;

	if (strlen(args) >= BM_KARGS_MAX) {
		snprintf(err, errlen, "kernel spec '%s': extra arguments longer than %d bytes",
			 spec, BM_KARGS_MAX - 1);
		return -EINVAL;
	}
	for (p = args; *p; p++)
		if ((unsigned char)*p < ' ' || (unsigned char)*p >= 0x7f) {
			snprintf(err, errlen, "kernel spec '%s': extra arguments hold a control "
				 "or non-ASCII byte (0x%02x)", spec, (unsigned char)*p);
			return -EINVAL;
		}
	for (i = 0; reserved[i]; i++)
		for (p = strstr(args, reserved[i]); p; p = strstr(p + 1, reserved[i]))
			if (p == args || p[-1] == ' ') {
				snprintf(err, errlen, "kernel spec '%s': %s is set by bootmark, "
					 "not by a kernel spec", spec, reserved[i]);
				return -EINVAL;
			}
	return 0;
}

/* "SPEC ARGS": the spec is the first word; ARGS (trimmed) may be empty. */
static int split_args(struct bm_kspec *k, const char *spec, char *word, size_t wordlen,
		      char *err, size_t errlen)
{
	size_t n = strcspn(spec, " \t");
	const char *args = spec + n, *end;

	if (n >= wordlen) {
		snprintf(err, errlen, "kernel spec too long");
		return -EINVAL;
	}
	memcpy(word, spec, n);
	word[n] = '\0';
	while (*args == ' ' || *args == '\t')
		args++;
	end = args + strlen(args);
	while (end > args && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if ((size_t)(end - args) >= sizeof(k->args))
		return check_args(spec, args, err, errlen);
	memcpy(k->args, args, (size_t)(end - args));
	k->args[end - args] = '\0';
	return check_args(spec, k->args, err, errlen);
}

int bm_kspec_parse(struct bm_kspec *k, const char *spec, char *err, size_t errlen)
{
	char word[PATH_MAX];
	const char *rel = word;
	int rc;

	memset(k, 0, sizeof(*k));
	if (strlen(spec) >= sizeof(k->text)) {
		snprintf(err, errlen, "kernel spec too long");
		return -EINVAL;
	}
	strcpy(k->text, spec);
	rc = split_args(k, spec, word, sizeof(word), err, errlen);
	if (rc)
		return rc;
	spec = word;
	if (!strncmp(spec, "local:", 6)) {
		k->kind = BM_KSPEC_LOCAL;
		return split_local(k, spec + 6, err, errlen);
	}
	k->kind = BM_KSPEC_DEB;
	if (!strncmp(spec, "deb:", 4))
		rel = spec + 4;
	if (!bm_release_ok(rel)) {
		snprintf(err, errlen, "bad kernel spec '%s': expected a Debian release "
			 "such as 6.1.0-53-amd64, deb:RELEASE or local:BZIMAGE[:MODULES_ROOT]", spec);
		return -EINVAL;
	}
	strcpy(k->release, rel);
	return 0;
}

/* Offsets from Documentation/arch/x86/boot.rst. */
#define HDR_MAGIC_OFF   0x202
#define HDR_VERSION_OFF 0x206
#define HDR_KVER_OFF    0x20e
#define HDR_KVER_BASE   0x200

int bm_bzimage_release_buf(const unsigned char *buf, size_t len, char *rel, size_t rellen)
{
	unsigned version, ptr;
	size_t off, n = 0;

	if (len < HDR_KVER_OFF + 2 || memcmp(buf + HDR_MAGIC_OFF, "HdrS", 4))
		return -ENOEXEC;
	version = buf[HDR_VERSION_OFF] | (unsigned)buf[HDR_VERSION_OFF + 1] << 8;
	ptr = buf[HDR_KVER_OFF] | (unsigned)buf[HDR_KVER_OFF + 1] << 8;
	if (version < 0x200 || !ptr)
		return -ENOEXEC;
	off = (size_t)ptr + HDR_KVER_BASE;
	if (off >= len)
		return -ENOEXEC;
	while (off + n < len && n + 1 < rellen && buf[off + n] > ' ' && buf[off + n] < 0x7f)
		n++;
	if (!n || (off + n < len && buf[off + n] > ' ' && buf[off + n] < 0x7f))
		return -ENOEXEC;  /* empty or longer than rellen */
	memcpy(rel, buf + off, n);
	rel[n] = '\0';
	return 0;
}

int bm_bzimage_release(const char *path, char *rel, size_t rellen)
{
	/* The version string lives in the real-mode setup code: the boot
	 * sector plus at most 255 setup sectors (setup_sects is one byte). */
	const size_t max = 256 * 512;
	unsigned char *buf;
	ssize_t n;
	int fd, rc;

	buf = malloc(max);
	if (!buf)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		goto out_free_buf;
	}
	n = pread(fd, buf, max, 0);
	rc = n < 0 ? -errno : bm_bzimage_release_buf(buf, (size_t)n, rel, rellen);
	close(fd);
out_free_buf:
	free(buf);
	return rc;
}

/*
 * An uncompressed kernel (arm64 Image, ELF vmlinux) has no header naming
 * its release, but holds linux_banner as it is: "Linux version RELEASE (".
 */
int bm_banner_release_buf(const unsigned char *buf, size_t len, char *rel, size_t rellen)
{
	static const char mark[] = "Linux version ";
	const unsigned char *p = buf, *end = buf + len, *w;
	size_t n;

	while ((p = memmem(p, (size_t)(end - p), mark, sizeof(mark) - 1))) {
		p += sizeof(mark) - 1;
		for (w = p; w < end && *w > ' ' && *w < 0x7f; w++)
			;
		n = (size_t)(w - p);
		/* the banner's release, not a message that mentions a version */
		if (n && n < rellen && isdigit(*p) && end - w >= 2 && w[0] == ' ' && w[1] == '(') {
			memcpy(rel, p, n);
			rel[n] = '\0';
			return 0;
		}
	}
	return -ENOEXEC;
}

int bm_banner_release(const char *path, char *rel, size_t rellen)
{
	struct bm_map m;
	int rc;

	rc = bm_map_file(path, &m);
	if (rc)
		return rc;
	rc = bm_banner_release_buf(m.p, m.len, rel, rellen);
	bm_unmap_file(&m);
	return rc;
}
