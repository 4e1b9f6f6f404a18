/* SPDX-License-Identifier: MIT */
/*
 * A small ustar (POSIX.1-1988) writer and reader, bootmark's own.
 *
 * The writer makes the headers of the kernel-tree stream: names up to 255
 * bytes through the prefix field, nothing else.  The reader also takes what
 * real tarballs carry: GNU tar's 'L'/'K' long names (Debian's
 * linux-source tarball), pax 'x' headers (path, linkpath, size), and
 * base-256 sizes.  Pull interface, in the manner of libarchive: next()
 * gives the header of the next entry, data() its contents; next() skips
 * what the caller did not read.
 */
#ifndef BM_RUNNER_USTAR_H
#define BM_RUNNER_USTAR_H

#include <stdint.h>
#include <sys/types.h>

#define USTAR_BLOCK 512
#define USTAR_NAME_MAX 255      /* prefix (155) + '/' + name (100) - 1 */
#define USTAR_PATH_MAX 4096     /* longest name the reader takes (GNU, pax) */

enum {
	USTAR_REG = '0', USTAR_LNK = '1', USTAR_SYM = '2', USTAR_DIR = '5',
};

struct ustar_entry {
	const char *name;       /* as in the archive, "linux/Makefile" */
	const char *linkname;   /* symlink / hard link target, or "" */
	char type;              /* USTAR_REG ... ('\0' is read as USTAR_REG) */
	unsigned mode;          /* permission bits */
	uint64_t size;          /* data bytes (0 for directories and links) */
	int64_t mtime;
};

/* Bytes an entry of size bytes of data takes after its header. */
static inline uint64_t ustar_padded(uint64_t size)
{
	return (size + USTAR_BLOCK - 1) / USTAR_BLOCK * USTAR_BLOCK;
}

/* Fills blk with the header of e.  0, -ENAMETOOLONG when the name cannot
 * be split into prefix and name, or -EOVERFLOW (size of 8 GiB or more). */
int ustar_header(unsigned char blk[USTAR_BLOCK], const struct ustar_entry *e);

/* Reads len bytes (fewer only at the end of the stream); -errno on error. */
typedef ssize_t (*ustar_read_fn)(void *arg, void *buf, size_t len);

struct ustar_reader {
	ustar_read_fn read;
	void *arg;
	uint64_t offset;        /* stream bytes consumed, for messages */
	uint64_t left;          /* data bytes of the current entry not yet read */
	uint64_t pad;           /* padding after them */
	int done;
	char name[USTAR_PATH_MAX];
	char link[USTAR_PATH_MAX];
};

void ustar_reader_init(struct ustar_reader *r, ustar_read_fn fn, void *arg);
/* 1 and the next entry in e (valid until the next call), 0 at the end of
 * the archive, -EBADMSG for a damaged header (r->offset names where),
 * -ENODATA when the stream stops inside an entry, or the read's -errno. */
int ustar_next(struct ustar_reader *r, struct ustar_entry *e);
/* Up to len bytes of the current entry's data: the count, 0 at its end. */
ssize_t ustar_data(struct ustar_reader *r, void *buf, size_t len);

#endif
