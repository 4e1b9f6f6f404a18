/* newc writer: collect entries, then emit them sorted with fixed metadata. */
#include "cpio.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

void bm_cpio_init(struct bm_cpio *c)
{
	memset(c, 0, sizeof(*c));
}

static void node_free(struct bm_cpio_node *nd)
{
	free(nd->name);
	free(nd->hostpath);
	free(nd->target);
}

void bm_cpio_free(struct bm_cpio *c)
{
	for (size_t i = 0; i < c->n; i++)
		node_free(&c->nodes[i]);
	free(c->nodes);
	bm_cpio_init(c);
}

/* "/a//b/" -> "a/b". Root itself, "." and ".." are refused: the kernel would
 * accept them, but they make "sorted means parents first" false. */
static int norm_path(const char *path, char **out)
{
	size_t len = strlen(path);
	char *buf, *w;

	if (path[0] != '/' || len >= PATH_MAX)
		return -EINVAL;
	buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	w = buf;
	for (const char *p = path; *p;) {
		size_t seg;

		while (*p == '/')
			p++;
		seg = strcspn(p, "/");
		if (!seg)
			break;
		if ((seg == 1 && p[0] == '.') || (seg == 2 && p[0] == '.' && p[1] == '.')) {
			free(buf);
			return -EINVAL;
		}
		if (w != buf)
			*w++ = '/';
		memcpy(w, p, seg);
		w += seg;
		p += seg;
	}
	*w = '\0';
	if (w == buf) {
		free(buf);
		return -EINVAL;
	}
	*out = buf;
	return 0;
}

int bm_cpio_check_path(const char *path)
{
	char *name;
	int rc = norm_path(path, &name);

	if (!rc)
		free(name);
	return rc == -ENOMEM ? 0 : rc;
}

static struct bm_cpio_node *find_linear(const struct bm_cpio *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->nodes[i].name, name))
			return &c->nodes[i];
	return NULL;
}

/* Takes ownership of nd's strings whatever happens. */
static int add_node(struct bm_cpio *c, struct bm_cpio_node *nd)
{
	struct bm_cpio_node *old = find_linear(c, nd->name);

	if (old) {
		int same_dir = S_ISDIR(old->mode) && old->mode == nd->mode &&
			       old->uid == nd->uid && old->gid == nd->gid;
		node_free(nd);
		return same_dir ? 0 : -EEXIST;
	}
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;
		struct bm_cpio_node *p = realloc(c->nodes, cap * sizeof(*p));

		if (!p) {
			node_free(nd);
			return -ENOMEM;
		}
		c->nodes = p;
		c->cap = cap;
	}
	c->nodes[c->n++] = *nd;
	return 0;
}

static int node_start(struct bm_cpio_node *nd, const char *path, unsigned perm,
		      unsigned type, unsigned uid, unsigned gid)
{
	memset(nd, 0, sizeof(*nd));
	if (perm & ~07777U)
		return -EINVAL;
	nd->mode = type | perm;
	nd->uid = uid;
	nd->gid = gid;
	return norm_path(path, &nd->name);
}

int bm_cpio_add_dir(struct bm_cpio *c, const char *path, unsigned perm,
		    unsigned uid, unsigned gid)
{
	struct bm_cpio_node nd;
	int rc = node_start(&nd, path, perm, S_IFDIR, uid, gid);

	return rc ? rc : add_node(c, &nd);
}

int bm_cpio_add_file(struct bm_cpio *c, const char *path, const char *hostpath,
		     unsigned perm, unsigned uid, unsigned gid)
{
	struct bm_cpio_node nd;
	struct stat st;
	int rc = node_start(&nd, path, perm, S_IFREG, uid, gid);

	if (rc)
		return rc;
	if (stat(hostpath, &st)) {
		rc = -errno;
		goto out_free_node;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		goto out_free_node;
	}
	if ((uint64_t)st.st_size > BM_CPIO_MAX_FILE) {
		rc = -EFBIG;
		goto out_free_node;
	}
	nd.size = (uint64_t)st.st_size;
	nd.hostpath = strdup(hostpath);
	if (!nd.hostpath) {
		rc = -ENOMEM;
		goto out_free_node;
	}
	return add_node(c, &nd);

out_free_node:
	node_free(&nd);
	return rc;
}

int bm_cpio_add_slink(struct bm_cpio *c, const char *path, const char *target,
		      unsigned perm, unsigned uid, unsigned gid)
{
	struct bm_cpio_node nd;
	int rc = node_start(&nd, path, perm, S_IFLNK, uid, gid);

	if (rc)
		return rc;
	if (!*target || strlen(target) >= PATH_MAX) {
		node_free(&nd);
		return -EINVAL;
	}
	nd.target = strdup(target);
	if (!nd.target) {
		node_free(&nd);
		return -ENOMEM;
	}
	return add_node(c, &nd);
}

int bm_cpio_add_nod(struct bm_cpio *c, const char *path, unsigned perm,
		    unsigned uid, unsigned gid, char type, unsigned maj, unsigned min)
{
	struct bm_cpio_node nd;
	int rc;

	if (type != 'c' && type != 'b')
		return -EINVAL;
	rc = node_start(&nd, path, perm, type == 'c' ? S_IFCHR : S_IFBLK, uid, gid);
	if (rc)
		return rc;
	nd.rmajor = maj;
	nd.rminor = min;
	return add_node(c, &nd);
}
