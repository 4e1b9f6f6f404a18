// SPDX-License-Identifier: MIT
/*
 * The vmlinux inside a bzImage (kernels/vmlinux.c): the setup header's
 * payload fields, the formats by magic, the PVH note, extraction with each
 * Debian decompressor on a small ELF made here, and extraction of the real
 * Debian bzImages in the kernel cache (skipped when they are not cached).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel.h"
#include "tap.h"
#include "util.h"

static char tmp[64];

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static void put64(unsigned char *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/*
 * A minimal x86-64 ELF: header, one PT_NOTE program header and its notes (a
 * "Xen" note of type note_type after a "GNU" one), then filler so that the
 * compressors have something to do.  Returns its length.
 */
static size_t make_elf(unsigned char *b, size_t cap, uint32_t note_type)
{
	size_t notes = 64 + 56, o = notes, i;

	memset(b, 0, cap);
	memcpy(b, "\177ELF", 4);
	b[4] = 2;  /* 64-bit */
	b[5] = 1;  /* little-endian */
	b[6] = 1;
	b[16] = 2; /* ET_EXEC */
	b[18] = 62; /* EM_X86_64 */
	put64(b + 32, 64);  /* e_phoff */
	b[54] = 56;         /* e_phentsize */
	b[56] = 1;          /* e_phnum */
	put32(b + 64, 4);   /* PT_NOTE */
	put64(b + 64 + 8, notes);
	/* GNU note, 4-byte name, 8-byte descriptor */
	put32(b + o, 4);
	put32(b + o + 4, 8);
	put32(b + o + 8, 3);
	memcpy(b + o + 12, "GNU", 4);
	o += 12 + 4 + 8;
	put32(b + o, 4);
	put32(b + o + 4, 4);
	put32(b + o + 8, note_type);
	memcpy(b + o + 12, "Xen", 4);
	put32(b + o + 16, 0x1000000);
	o += 12 + 4 + 4;
	put64(b + 64 + 32, o - notes);  /* p_filesz */
	for (i = o; i < cap; i++)
		b[i] = (unsigned char)((i * 7) ^ (i >> 9));
	return cap;
}

static void pvh_note(void)
{
	static unsigned char b[4096];
	size_t n = make_elf(b, sizeof(b), 18);

	TAP_EQ_INT(bm_elf_pvh(b, n), 1, "an ELF with a Xen note of type 18 has a PVH entry");
	make_elf(b, sizeof(b), 17);
	TAP_EQ_INT(bm_elf_pvh(b, n), 0, "the same ELF with a note of type 17 has none");
	make_elf(b, sizeof(b), 18);
	b[18] = 3;  /* EM_386 */
	TAP_EQ_INT(bm_elf_pvh(b, n), -ENOEXEC, "a 32-bit x86 machine is not ours");
	make_elf(b, sizeof(b), 18);
	put64(b + 32, 1u << 20);
	TAP_EQ_INT(bm_elf_pvh(b, n), -EBADMSG, "program headers past the end");
	make_elf(b, sizeof(b), 18);
	put32(b + 120 + 24 + 4, 0x7fffffff);  /* the Xen note's descriptor size */
	TAP_EQ_INT(bm_elf_pvh(b, n), 0, "a note running past its segment is not read");
	TAP_EQ_INT(bm_elf_pvh((const unsigned char *)"MZ", 2), -ENOEXEC, "not an ELF");
}

/* A bzImage-shaped file: setup_sects 3, protocol 2.15, the payload at
 * 0x80 into the protected-mode code. */
static size_t make_bz(unsigned char *b, size_t cap, const unsigned char *pay, size_t plen,
		      unsigned proto)
{
	size_t start = 4 * 512 + 0x80;

	memset(b, 0, cap);
	if (start + plen > cap)
		return 0;
	b[0x1f1] = 3;
	memcpy(b + 0x202, "HdrS", 4);
	b[0x206] = (unsigned char)proto;
	b[0x207] = (unsigned char)(proto >> 8);
	put32(b + 0x248, 0x80);
	put32(b + 0x24c, (uint32_t)plen);
	memcpy(b + start, pay, plen);
	return start + plen;
}

static void header(void)
{
	static unsigned char b[8192];
	static const unsigned char xz[] = { 0xfd, '7', 'z', 'X', 'Z', 0, 1, 2, 0x10, 0x20, 0, 0 };
	static const unsigned char junk[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	struct bm_payload p;
	size_t n = make_bz(b, sizeof(b), xz, sizeof(xz), 0x20f);

	TAP_EQ_INT(bm_bzimage_payload(b, n, &p), 0, "payload of a crafted bzImage");
	tap_ok(p.off == 4 * 512 + 0x80 && p.len == sizeof(xz), "offset counts from the "
	       "protected-mode code ((setup_sects + 1) * 512): %zu, %zu", p.off, p.len);
	TAP_EQ_STR(p.format, "xz", "format by its magic");
	TAP_EQ_INT(p.size, 0x2010, "uncompressed size from the last 4 bytes");
	b[0x1f1] = 0;  /* setup_sects 0 means 4: the payload moves by one sector */
	TAP_EQ_INT(bm_bzimage_payload(b, n, &p), -EBADMSG,
		   "setup_sects 0 counts as 4: the payload one sector on, past the end");
	n = make_bz(b, sizeof(b), junk, sizeof(junk), 0x20f);
	TAP_EQ_INT(bm_bzimage_payload(b, n, &p), -EPROTONOSUPPORT, "unknown magic");
	n = make_bz(b, sizeof(b), xz, sizeof(xz), 0x207);
	TAP_EQ_INT(bm_bzimage_payload(b, n, &p), -ENOTSUP, "protocol 2.07 has no payload fields");
	n = make_bz(b, sizeof(b), xz, sizeof(xz), 0x20f);
	TAP_EQ_INT(bm_bzimage_payload(b, n - 1, &p), -EBADMSG, "payload past the end of the file");
	put32(b + 0x248, 0xfffffff0u);
	TAP_EQ_INT(bm_bzimage_payload(b, n, &p), -EBADMSG, "offset that wraps around");
	memcpy(b + 0x202, "HdrX", 4);
	TAP_EQ_INT(bm_bzimage_payload(b, n, &p), -ENOEXEC, "no HdrS: not a bzImage");
	TAP_EQ_STR(bm_payload_format((const unsigned char *)"\x28\xb5\x2f\xfd", 4), "zstd", "zstd magic");
	TAP_EQ_STR(bm_payload_format((const unsigned char *)"\x02\x21\x4c\x18", 4), "lz4",
		   "lz4 legacy magic");
	TAP_EQ_STR(bm_payload_format((const unsigned char *)"\x5d\x00\x00\x80", 4), "lzma", "lzma magic");
	TAP_EQ_STR(bm_payload_format((const unsigned char *)"\x89LZO", 4), "lzo", "lzo magic");
	TAP_EQ_STR(bm_payload_format((const unsigned char *)"BZh9", 4), "bzip2", "bzip2 magic");
	TAP_EQ_STR(bm_payload_format((const unsigned char *)"\x1f\x8b\x08", 3), "gzip", "gzip magic");
}

/* prog in a folder of $PATH, as execvp would find it. */
static int have(const char *prog)
{
	const char *path = getenv("PATH");
	char dirs[4096], file[PATH_MAX], *d, *save = NULL;

	snprintf(dirs, sizeof(dirs), "%s", path && *path ? path : "/usr/bin:/bin");
	for (d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save))
		if (!bm_path(file, sizeof(file), "%s/%s", d, prog) && !access(file, X_OK))
			return 1;
	return 0;
}

static int read_all(const char *path, unsigned char **buf, size_t *len)
{
	struct bm_map m;
	int rc = bm_map_file(path, &m);

	if (rc)
		return rc;
	*buf = malloc(m.len);
	if (*buf)
		memcpy(*buf, m.p, m.len);
	*len = m.len;
	bm_unmap_file(&m);
	return *buf ? 0 : -ENOMEM;
}

/* Compresses the ELF with argv (stdout), wraps it as the kernel's build
 * does (+ size word when append), extracts, compares. */
static void one_format(const char *name, char *const argv[], int append, const unsigned char *elf,
		       size_t elen)
{
	char comp[PATH_MAX], bz[PATH_MAX], out[PATH_MAX];
	static unsigned char b[1 << 20];
	unsigned char *c = NULL, *x = NULL;
	size_t clen = 0, xlen = 0, n;
	int fd, rc;

	snprintf(comp, sizeof(comp), "%s/elf.%s", tmp, name);
	snprintf(bz, sizeof(bz), "%s/bz.%s%s", tmp, name, append ? "" : ".bare");
	snprintf(out, sizeof(out), "%s/vmlinux.%s%s", tmp, name, append ? "" : ".bare");
	fd = open(comp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	rc = fd < 0 ? -errno : bm_run_ok(argv, NULL, fd);
	if (fd >= 0)
		close(fd);
	if (!rc)
		rc = read_all(comp, &c, &clen);
	if (rc || clen + 4 > sizeof(b) / 2) {
		tap_ok(0, "%s: compress the test ELF (%s)", name, strerror(-rc));
		free(c);
		return;
	}
	if (append) {
		c = realloc(c, clen + 4);
		put32(c + clen, (uint32_t)elen);
		clen += 4;
	}
	n = make_bz(b, sizeof(b), c, clen, 0x20f);
	fd = open(bz, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, b, n) != (ssize_t)n)
		rc = -EIO;
	if (fd >= 0)
		close(fd);
	if (!rc)
		rc = bm_vmlinux_extract(bz, out);
	if (!rc)
		rc = read_all(out, &x, &xlen);
	tap_ok(!rc && xlen == elen && !memcmp(x, elf, elen), "%s%s: extracted ELF is the original "
	       "(%s)", name, append ? " + size word" : ", bare stream", rc ? strerror(-rc) : "ok");
	unlink(comp);
	unlink(bz);
	unlink(out);
	free(c);
	free(x);
}

static void formats(void)
{
	static unsigned char elf[200000];
	char elfpath[PATH_MAX];
	size_t n = make_elf(elf, sizeof(elf), 18);
	int fd;
	struct {
		const char *name, *prog;
		char *argv[6];
	} f[] = {
		{ "gzip", "gzip", { "gzip", "-9", "-n", "-c", elfpath, NULL } },
		{ "xz", "xz", { "xz", "--check=crc32", "-c", elfpath, NULL } },
		{ "zstd", "zstd", { "zstd", "-q", "-19", "-c", elfpath, NULL } },
		{ "lz4", "lz4", { "lz4", "-l", "-9", "-c", elfpath, NULL } },
		{ "bzip2", "bzip2", { "bzip2", "-9", "-c", elfpath, NULL } },
		{ "lzma", "xz", { "xz", "--format=lzma", "-c", elfpath, NULL } },
		{ "lzo", "lzop", { "lzop", "-9", "-c", elfpath, NULL } },
	};
	size_t i;

	snprintf(elfpath, sizeof(elfpath), "%s/elf", tmp);
	fd = open(elfpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, elf, n) != (ssize_t)n) {
		tap_bail("cannot write the test ELF");
		return;
	}
	close(fd);
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (!have(f[i].prog)) {
			tap_skip("program missing", "%s: no %s on PATH", f[i].name, f[i].prog);
			continue;
		}
		one_format(f[i].name, f[i].argv, 1, elf, n);
	}
	/* gzip's own trailer is the size: a build that appends none */
	one_format("gzip", f[0].argv, 0, elf, n);
	unlink(elfpath);
}

/* The Debian kernels of the cache, taken out into tmp. */
static void real_kernel(const char *rel, const char *fmt, const char *other)
{
	char kdir[PATH_MAX], bz[PATH_MAX], obz[PATH_MAX], out[PATH_MAX];
	struct bm_payload p;
	struct bm_map m;
	struct stat st;
	int rc;

	if (bm_kernels_dir(kdir, sizeof(kdir)) ||
	    bm_path(bz, sizeof(bz), "%s/%s/boot/vmlinuz-%s", kdir, rel, rel) ||
	    bm_path(obz, sizeof(obz), "%s/%s/boot/vmlinuz-%s", kdir, other, other) ||
	    bm_map_file(bz, &m)) {
		tap_skip("not cached", "real bzImage of %s (bootmark kernel fetch deb:%s)", rel, rel);
		return;
	}
	rc = bm_bzimage_payload(m.p, m.len, &p);
	bm_unmap_file(&m);
	tap_ok(!rc && !strcmp(p.format, fmt), "%s: payload is %s (%s)", rel, fmt, rc ? strerror(-rc) :
	       p.format);
	snprintf(out, sizeof(out), "%s/vmlinux-%s", tmp, rel);
	rc = bm_vmlinux_extract(bz, out);
	tap_ok(!rc && !stat(out, &st) && (uint64_t)st.st_size == p.size,
	       "%s: extracted, %u bytes as the bzImage says", rel, p.size);
	TAP_EQ_INT(bm_vmlinux_check(out), 1, "the Debian vmlinux has a PVH entry");
	TAP_EQ_INT(bm_vmlinux_same_build(out, bz), 1, "its banner is the bzImage's version string");
	if (bm_is_file(obz))
		TAP_EQ_INT(bm_vmlinux_same_build(out, obz), 0, "another kernel's bzImage is not its build");
	unlink(out);
}

int main(void)
{
	tap_plan(0);
	/* mkdtemp's template: six 'X' to replace */
	snprintf(tmp, sizeof(tmp), "/tmp/bm-vmlinux-test.%6s", "");
	memset(tmp + strlen(tmp) - 6, 'X', 6);
	if (!mkdtemp(tmp)) {
		tap_bail("mkdtemp");
		return 1;
	}
	pvh_note();
	header();
	formats();
	real_kernel("6.1.0-53-amd64", "xz", "6.12.117+deb12-amd64");
	real_kernel("6.12.117+deb12-amd64", "zstd", "6.1.0-53-amd64");
	bm_rm_rf(tmp);
	return tap_done();
}
