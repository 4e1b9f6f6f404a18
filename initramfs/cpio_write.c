/* newc writer, second half: complete the tree, sort it and emit the bytes. */
#include "cpio.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct wctx {
	FILE *out;
	uint64_t off;
	uint32_t mtime;
	char *err;
	size_t errlen;
};

static int cmp_node(const void *a, const void *b)
{
	const struct bm_cpio_node *x = a, *y = b;

	return strcmp(x->name, y->name);
}

static struct bm_cpio_node *find_sorted(const struct bm_cpio *c, const char *name)
{
	struct bm_cpio_node key = { .name = (char *)name };

	return bsearch(&key, c->nodes, c->n, sizeof(key), cmp_node);
}

/* Every ancestor of every entry must exist before the kernel can create the
 * entry: it skips files whose parent is missing, silently. Names are copied
 * before they are cut: cutting one in place would confuse the binary search. */
static int add_parents(struct bm_cpio *c, char *err, size_t errlen)
{
	char name[PATH_MAX + 1];
	size_t nsorted;
	int rc;

	qsort(c->nodes, c->n, sizeof(*c->nodes), cmp_node);
	nsorted = c->n;
	for (size_t i = 0; i < nsorted; i++) {
		snprintf(name, sizeof(name), "/%s", c->nodes[i].name);
		for (char *slash = strrchr(name, '/'); slash != name; slash = strrchr(name, '/')) {
			struct bm_cpio head = { c->nodes, nsorted, 0 };

			*slash = '\0';
			if (find_sorted(&head, name + 1))
				break;
			/* bm_cpio_add_dir accepts repeats, which dedupes new parents */
			rc = bm_cpio_add_dir(c, name, 0755, 0, 0);
			if (rc) {
				snprintf(err, errlen, "cannot add directory %s: %s", name, strerror(-rc));
				return rc;
			}
			c->nodes[c->n - 1].implicit = 1;
		}
	}
	qsort(c->nodes, c->n, sizeof(*c->nodes), cmp_node);
	for (size_t i = 0; i < c->n; i++) {
		struct bm_cpio_node *parent;
		char *slash;

		snprintf(name, sizeof(name), "%s", c->nodes[i].name);
		slash = strrchr(name, '/');
		if (!slash)
			continue;
		*slash = '\0';
		parent = find_sorted(c, name);
		if (!parent || !S_ISDIR(parent->mode)) {
			snprintf(err, errlen, "/%s: parent is not a directory", c->nodes[i].name);
			return -ENOTDIR;
		}
	}
	return 0;
}

static int put(struct wctx *w, const void *p, size_t len)
{
	if (len && fwrite(p, 1, len, w->out) != len)
		return -EIO;
	w->off += len;
	return 0;
}

static int pad4(struct wctx *w)
{
	static const char zero[4];

	return put(w, zero, (4 - (w->off & 3)) & 3);
}

static int put_header(struct wctx *w, uint32_t ino, const struct bm_cpio_node *nd,
		      const char *name, uint32_t size)
{
	char hdr[111];
	uint32_t nlink = S_ISDIR(nd->mode) ? 2 : 1;
	size_t namesize = strlen(name) + 1;
	int rc;

	snprintf(hdr, sizeof(hdr),
		 "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		 ino, nd->mode, nd->uid, nd->gid, nlink, w->mtime, size,
		 0U, 0U, nd->rmajor, nd->rminor, (uint32_t)namesize, 0U);
	rc = put(w, hdr, 110);
	if (!rc)
		rc = put(w, name, namesize);
	return rc ? rc : pad4(w);
}

static int put_file(struct wctx *w, const struct bm_cpio_node *nd)
{
	char buf[65536];
	uint64_t done = 0;
	struct stat st;
	int fd, rc = 0;

	fd = open(nd->hostpath, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		snprintf(w->err, w->errlen, "cannot open %s: %s", nd->hostpath, strerror(errno));
		return rc;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (uint64_t)st.st_size != nd->size)
		goto out_changed;
	for (;;) {
		ssize_t got = read(fd, buf, sizeof(buf));

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			rc = -errno;
			snprintf(w->err, w->errlen, "cannot read %s: %s", nd->hostpath, strerror(errno));
			goto out_close_fd;
		}
		if (!got)
			break;
		done += (uint64_t)got;
		if (done > nd->size)
			goto out_changed;
		rc = put(w, buf, (size_t)got);
		if (rc)
			goto out_write_failed;
	}
	if (done != nd->size)
		goto out_changed;
	goto out_close_fd;

out_write_failed:
	snprintf(w->err, w->errlen, "cannot write archive: %s", strerror(-rc));
	goto out_close_fd;
out_changed:
	rc = -ESTALE;
	snprintf(w->err, w->errlen, "%s changed while the archive was written", nd->hostpath);
out_close_fd:
	close(fd);
	return rc;
}

static int put_node(struct wctx *w, uint32_t ino, const struct bm_cpio_node *nd)
{
	uint32_t size = 0;
	int rc;

	if (S_ISREG(nd->mode))
		size = (uint32_t)nd->size;
	else if (S_ISLNK(nd->mode))
		size = (uint32_t)strlen(nd->target);
	rc = put_header(w, ino, nd, nd->name, size);
	if (!rc && S_ISLNK(nd->mode))
		rc = put(w, nd->target, size);
	if (rc) {
		snprintf(w->err, w->errlen, "cannot write archive: %s", strerror(-rc));
		return rc;
	}
	if (S_ISREG(nd->mode)) {
		rc = put_file(w, nd);
		if (rc)
			return rc;
	}
	return pad4(w);
}

int bm_cpio_write(struct bm_cpio *c, FILE *out, uint32_t mtime, char *err, size_t errlen)
{
	static const struct bm_cpio_node trailer = { .mode = 0 };
	struct wctx w = { out, 0, mtime, err, errlen };
	int rc;

	rc = add_parents(c, err, errlen);
	if (rc)
		return rc;
	for (size_t i = 0; i < c->n; i++) {
		rc = put_node(&w, (uint32_t)(i + 1), &c->nodes[i]);
		if (rc)
			return rc;
	}
	/* the trailer has no inode and no time: it is not a file */
	w.mtime = 0;
	rc = put_header(&w, 0, &trailer, "TRAILER!!!", 0);
	if (!rc && fflush(out))
		rc = -errno;
	if (rc)
		snprintf(err, errlen, "cannot write archive: %s", strerror(-rc));
	return rc;
}
