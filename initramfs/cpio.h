/* newc ("070701") cpio archives: a reproducible writer and a bounds-checked reader.
 *
 * The writer collects entries, then emits them sorted by path (so every parent
 * precedes its children), adds missing parent directories (0755, root), numbers
 * inodes 1, 2, ... in output order and stamps every entry with one fixed mtime.
 * Nothing about the host leaks in except the bytes of the files named.
 * Archive names carry no leading '/', as the kernel's gen_init_cpio writes them.
 */
#ifndef BM_CPIO_H
#define BM_CPIO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define BM_CPIO_MAX_FILE 0xffffffffULL /* the newc size field is 8 hex digits */

struct bm_cpio_node {
	char *name;      /* normalised, no leading '/' */
	char *hostpath;  /* regular files: where the bytes come from */
	char *target;    /* symlinks */
	uint32_t mode;   /* S_IFMT bits | permissions */
	uint32_t uid, gid;
	uint32_t rmajor, rminor; /* device nodes */
	uint64_t size;   /* regular files: size when added, checked again on write */
	int implicit;    /* parent directory added by the writer */
};

struct bm_cpio {
	struct bm_cpio_node *nodes;
	size_t n, cap;
};

void bm_cpio_init(struct bm_cpio *c);
void bm_cpio_free(struct bm_cpio *c);

/* 0 if path can name an entry: absolute, not "/" itself, no "." or ".."
 * component, shorter than PATH_MAX; -EINVAL otherwise. */
int bm_cpio_check_path(const char *path);

/* Each returns 0 or -errno: -EINVAL bad path or mode, -EEXIST the path is already
 * taken (an identical directory is accepted), -EFBIG file over 4 GiB, or the errno
 * of stat() on the host file. perm holds only the 07777 bits. */
int bm_cpio_add_dir(struct bm_cpio *c, const char *path, unsigned perm,
		    unsigned uid, unsigned gid);
int bm_cpio_add_file(struct bm_cpio *c, const char *path, const char *hostpath,
		     unsigned perm, unsigned uid, unsigned gid);
int bm_cpio_add_slink(struct bm_cpio *c, const char *path, const char *target,
		      unsigned perm, unsigned uid, unsigned gid);
/* type is 'c' or 'b' */
int bm_cpio_add_nod(struct bm_cpio *c, const char *path, unsigned perm,
		    unsigned uid, unsigned gid, char type, unsigned maj, unsigned min);

/* Writes the whole archive, TRAILER!!! included. Returns 0 or -errno; err gets a
 * message naming the path at fault. */
int bm_cpio_write(struct bm_cpio *c, FILE *out, uint32_t mtime, char *err, size_t errlen);

/* --- reader ------------------------------------------------------------------ */

struct bm_cpio_ent {
	const char *name;          /* NUL-terminated, points into the buffer */
	const unsigned char *data; /* file contents or symlink target (not terminated) */
	uint32_t ino, mode, uid, gid, nlink, mtime, size;
	uint32_t devmajor, devminor, rdevmajor, rdevminor;
};

struct bm_cpio_reader {
	const unsigned char *buf;
	size_t len, off;
	int in_archive; /* an entry was read since the last TRAILER!!! */
	unsigned archives; /* complete archives seen (each ends in TRAILER!!!) */
};

void bm_cpio_reader_init(struct bm_cpio_reader *r, const void *buf, size_t len);
/* 1 and *e filled, 0 at the clean end of the buffer, -EINVAL on a malformed or
 * truncated archive. Trailers are consumed silently; like the kernel, zero padding
 * and further archives may follow one. */
int bm_cpio_next(struct bm_cpio_reader *r, struct bm_cpio_ent *e);
/* Calls fn for every entry; stops at fn's first non-zero return and returns it.
 * Returns 0 or -EINVAL as bm_cpio_next. */
int bm_cpio_read(const void *buf, size_t len,
		 int (*fn)(const struct bm_cpio_ent *e, void *arg), void *arg);

#endif
