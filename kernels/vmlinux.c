// SPDX-License-Identifier: MIT
/*
 * The uncompressed kernel inside a bzImage, for QEMU's direct (PVH) boot.
 *
 * Under TCG most of a bzImage boot is the kernel decompressing itself
 * instruction by emulated instruction.  QEMU boots an ELF vmlinux that
 * carries a PVH entry note straight away, so bootmark takes the payload
 * out of the bzImage once and decompresses it on the host with Debian's own
 * decompressors, run as programs.
 *
 * Where the payload is, from the x86 boot protocol (the kernel's
 * Documentation/arch/x86/boot.rst): the setup header's payload_offset
 * (0x248, protocol 2.08+) counts from the start of the protected-mode code,
 * which follows the (setup_sects + 1) 512-byte sectors of the real-mode
 * part (setup_sects 0 means 4); payload_length is at 0x24c.  The format is
 * told by its magic number.  The kernel's build appends the uncompressed
 * size as a little-endian 32-bit word (gzip's own trailer is the same
 * word), which checks the result.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel.h"
#include "outdir.h"
#include "util.h"

struct fmt {
	const char *name;
	unsigned char magic[6];
	size_t mlen;
	const char *prog;      /* the decompressor, and its package */
	const char *pkg;
	const char *opt;       /* an option before -dc, or NULL */
};

static const struct fmt fmts[] = {
	{ "gzip", { 0x1f, 0x8b }, 2, "gzip", "gzip", NULL },
	{ "gzip", { 0x1f, 0x9e }, 2, "gzip", "gzip", NULL },
	{ "xz", { 0xfd, '7', 'z', 'X', 'Z', 0x00 }, 6, "xz", "xz-utils", NULL },
	{ "zstd", { 0x28, 0xb5, 0x2f, 0xfd }, 4, "zstd", "zstd", NULL },
	{ "lz4", { 0x02, 0x21, 0x4c, 0x18 }, 4, "lz4", "lz4", NULL },
	{ "bzip2", { 'B', 'Z', 'h' }, 3, "bzip2", "bzip2", NULL },
	{ "lzma", { 0x5d, 0x00, 0x00 }, 3, "xz", "xz-utils", "--format=lzma" },
	{ "lzo", { 0x89, 'L', 'Z', 'O' }, 4, "lzop", "lzop", NULL },
};

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static const struct fmt *find_fmt(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++)
		if (n >= fmts[i].mlen && !memcmp(p, fmts[i].magic, fmts[i].mlen))
			return &fmts[i];
	return NULL;
}

const char *bm_payload_format(const unsigned char *p, size_t n)
{
	const struct fmt *f = find_fmt(p, n);

	return f ? f->name : NULL;
}

int bm_bzimage_payload(const unsigned char *buf, size_t len, struct bm_payload *p)
{
	size_t sects, start;
	uint32_t off, plen;

	memset(p, 0, sizeof(*p));
	if (len < 0x250 || memcmp(buf + 0x202, "HdrS", 4))
		return -ENOEXEC;  /* not a bzImage */
	if ((buf[0x206] | buf[0x207] << 8) < 0x208)
		return -ENOTSUP;  /* boot protocol before 2.08: no payload fields */
	sects = buf[0x1f1] ? buf[0x1f1] : 4;
	off = le32(buf + 0x248);
	plen = le32(buf + 0x24c);
	start = (sects + 1) * 512;
	if (plen < 8 || start > len || off > len - start || plen > len - start - off)
		return -EBADMSG;
	p->off = start + off;
	p->len = plen;
	p->size = le32(buf + p->off + plen - 4);
	p->format = bm_payload_format(buf + p->off, plen);
	return p->format ? 0 : -EPROTONOSUPPORT;
}

/* ELF64 little-endian fields. */
static uint64_t le64(const unsigned char *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static uint16_t le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

#define PT_NOTE_TYPE 4
#define XEN_ELFNOTE_PHYS32_ENTRY 18

/* The notes of one PT_NOTE segment: a "Xen" note of type 18 (the PVH entry). */
static int notes_pvh(const unsigned char *n, size_t len)
{
	size_t o = 0;

	while (len - o >= 12) {
		uint32_t nsz = le32(n + o), dsz = le32(n + o + 4), type = le32(n + o + 8);
		size_t name = o + 12, desc = name + ((nsz + 3u) & ~3u);

		if (nsz > len || dsz > len || desc > len || ((dsz + 3u) & ~3u) > len - desc)
			return 0;
		if (type == XEN_ELFNOTE_PHYS32_ENTRY && nsz == 4 && !memcmp(n + name, "Xen", 4))
			return 1;
		o = desc + ((dsz + 3u) & ~3u);
	}
	return 0;
}

int bm_elf_pvh(const unsigned char *buf, size_t len)
{
	uint64_t phoff;
	unsigned i, phnum, phent;

	if (len < 64 || memcmp(buf, "\177ELF", 4) || buf[4] != 2 || buf[5] != 1 ||
	    le16(buf + 18) != 62)
		return -ENOEXEC;  /* not a 64-bit little-endian x86-64 ELF */
	phoff = le64(buf + 32);
	phent = le16(buf + 54);
	phnum = le16(buf + 56);
	if (phent < 56 || phoff > len || (uint64_t)phnum * phent > len - phoff)
		return -EBADMSG;
	for (i = 0; i < phnum; i++) {
		const unsigned char *ph = buf + phoff + (uint64_t)i * phent;
		uint64_t off = le64(ph + 8), sz = le64(ph + 32);

		if (le32(ph) != PT_NOTE_TYPE || off > len || sz > len - off)
			continue;
		if (notes_pvh(buf + off, (size_t)sz))
			return 1;
	}
	return 0;
}

int bm_map_file(const char *path, struct bm_map *m)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;

	m->p = NULL;
	m->len = 0;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		rc = -errno;
	} else if (!S_ISREG(st.st_mode) || st.st_size <= 0) {
		rc = -ENOEXEC;
	} else {
		m->p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m->p == MAP_FAILED) {
			m->p = NULL;
			rc = -errno;
		} else {
			m->len = (size_t)st.st_size;
		}
	}
	close(fd);
	return rc;
}

void bm_unmap_file(struct bm_map *m)
{
	if (m->p)
		munmap(m->p, m->len);
	m->p = NULL;
	m->len = 0;
}

int bm_vmlinux_check(const char *path)
{
	struct bm_map m;
	int rc = bm_map_file(path, &m);

	if (rc)
		return rc;
	rc = bm_elf_pvh(m.p, m.len);
	bm_unmap_file(&m);
	return rc;
}

/* All of buf to fd. */
static int write_all(int fd, const unsigned char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Decompresses in (n bytes of payload written to a file of its own) with
 * f's program into out_fd; the output must be an ELF of size bytes.
 * 0, -ENOENT (no such program), -ECHILD (it failed) or -EBADMSG.
 */
static int decompress(const struct fmt *f, const char *in, int out_fd, uint32_t size)
{
	char *argv[5];
	struct stat st;
	int status = 0, rc, n = 0;

	argv[n++] = (char *)f->prog;
	if (f->opt)
		argv[n++] = (char *)f->opt;
	argv[n++] = "-dc";
	argv[n++] = (char *)in;
	argv[n] = NULL;

	if (ftruncate(out_fd, 0) || lseek(out_fd, 0, SEEK_SET))
		return -errno;
	rc = bm_run_prog(argv, NULL, out_fd, NULL, NULL, &status);
	if (rc)
		return rc;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return -ENOENT;  /* the child could not exec it */
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return -ECHILD;
	if (fstat(out_fd, &st))
		return -errno;
	return (uint64_t)st.st_size == size ? 0 : -EBADMSG;
}

/* len bytes of the payload into a new temporary file beside out. */
static int payload_file(const char *out, const unsigned char *p, size_t len, char *tmp, size_t tlen)
{
	char base[PATH_MAX];
	int fd, rc;

	if (bm_path(base, sizeof(base), "%s.payload", out))
		return -ENAMETOOLONG;
	fd = bm_out_tmp(base, tmp, tlen);
	if (fd < 0)
		return fd;
	rc = write_all(fd, p, len);
	if (close(fd) && !rc)
		rc = -errno;
	if (rc)
		unlink(tmp);
	return rc;
}

/* The size word the build appended is not part of the stream (gzip's
 * trailer is): the stream less it first, then the whole payload. */
static int extract_payload(const struct fmt *f, const struct bm_payload *pl, const unsigned char *buf,
			   const char *out, int out_fd)
{
	char in[PATH_MAX];
	int rc = -EBADMSG, pass;

	for (pass = 0; pass < 2 && rc && rc != -ENOENT; pass++) {
		rc = payload_file(out, buf + pl->off, pl->len - (pass ? 0 : 4), in, sizeof(in));
		if (rc)
			return rc;
		rc = decompress(f, in, out_fd, pl->size);
		unlink(in);
	}
	return rc;
}

int bm_vmlinux_extract(const char *bzimage, const char *out)
{
	char tmp[PATH_MAX];
	struct bm_payload pl;
	const struct fmt *f;
	struct bm_map m;
	int rc, fd;

	rc = bm_map_file(bzimage, &m);
	if (rc) {
		bm_msg("cannot read %s: %s", bzimage, strerror(-rc));
		return rc;
	}
	rc = bm_bzimage_payload(m.p, m.len, &pl);
	if (rc) {
		bm_msg("%s: %s", bzimage, rc == -ENOEXEC ? "not a bzImage (no HdrS setup header)" :
		       rc == -ENOTSUP ? "boot protocol before 2.08: no payload to take out" :
		       rc == -EPROTONOSUPPORT ? "its payload is in no format bootmark knows" :
		       "its payload_offset and payload_length lie outside the file");
		goto out_unmap;
	}
	f = find_fmt(m.p + pl.off, pl.len);
	fd = bm_out_tmp(out, tmp, sizeof(tmp));
	if (fd < 0) {
		rc = fd;
		bm_msg("cannot create a file beside %s: %s", out, strerror(-rc));
		goto out_unmap;
	}
	bm_msg("extracting the %s-compressed vmlinux of %s (%u bytes)", pl.format, bzimage, pl.size);
	rc = extract_payload(f, &pl, m.p, out, fd);
	if (!rc && fsync(fd))
		rc = -errno;
	if (close(fd) && !rc)
		rc = -errno;
	if (!rc && bm_vmlinux_check(tmp) < 0)
		rc = -ENOEXEC;
	if (!rc && rename(tmp, out))
		rc = -errno;
	if (rc) {
		unlink(tmp);
		if (rc == -ENOENT)
			bm_msg("cannot decompress %s's payload: no %s (apt-get install %s)", bzimage,
			       f->prog, f->pkg);
		else
			bm_msg("cannot extract the vmlinux of %s: %s", bzimage,
			       rc == -ECHILD ? "the decompressor failed" :
			       rc == -EBADMSG ? "the result is not the size the bzImage names" :
			       rc == -ENOEXEC ? "the result is no x86-64 ELF" : strerror(-rc));
	}
out_unmap:
	bm_unmap_file(&m);
	return rc;
}
