// SPDX-License-Identifier: MIT
/* Filesystem profiles and suites (profile.h). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "opts.h"
#include "profile.h"

#define PROF_STR(n, f, h) { .name = n, .type = BM_OPT_STR, \
	.off = offsetof(struct bm_fsprof, f), \
	.len = sizeof(((struct bm_fsprof *)0)->f), .help = h }

static const struct bm_opt fsprof_opts[] = {
	PROF_STR("type", type, "filesystem type given to mount(2)"),
	PROF_STR("mkfs", mkfs, "mkfs argv, split on spaces; the device is appended"),
	PROF_STR("mount_opts", mount_opts, "mount options, as for mount -o"),
	PROF_STR("modules", modules, "modules to load before the first mkfs"),
	BM_OPT_END
};

int bm_open_regular(const char *path)
{
	struct stat st;
	int fd, rc;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		rc = -errno;
		goto out_close_fd;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = S_ISDIR(st.st_mode) ? -EISDIR : -BM_ENOTREG;
		goto out_close_fd;
	}
	/* regular files ignore it; a network filesystem might not */
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		rc = -errno;
		goto out_close_fd;
	}
	return fd;
out_close_fd:
	close(fd);
	return rc;
}

const char *bm_strerror(int err)
{
	return err == BM_ENOTREG ? "not a regular file (a FIFO, a device or a socket)" :
	       strerror(err);
}

int bm_read_file(const char *path, char **out, size_t *lenp, size_t max)
{
	size_t len = 0, cap = 4096;
	char *buf, *nb;
	ssize_t n;
	int fd, ret = 0;

	*out = NULL;
	fd = bm_open_regular(path);
	if (fd < 0)
		return fd;
	buf = malloc(cap);
	if (!buf) {
		ret = -ENOMEM;
		goto out_close_fd;
	}
	/* No fstat size: /proc and /sys files report 0 or 4096. */
	for (;;) {
		if (len + 1 >= cap) {
			if (cap > max) {
				ret = -EFBIG;
				goto out_free_buf;
			}
			nb = realloc(buf, cap * 2);
			if (!nb) {
				ret = -ENOMEM;
				goto out_free_buf;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			goto out_free_buf;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > max) {
			ret = -EFBIG;
			goto out_free_buf;
		}
	}
	buf[len] = '\0';
	*out = buf;
	if (lenp)
		*lenp = len;
	goto out_close_fd;
out_free_buf:
	free(buf);
out_close_fd:
	close(fd);
	return ret;
}

int bm_fsprof_parse(struct bm_fsprof *p, const char *name, const char *text,
		    char *err, size_t errlen)
{
	char origin[64];
	int ret;

	memset(p, 0, sizeof(*p));
	if (!*name || strlen(name) >= sizeof(p->name)) {
		snprintf(err, errlen, "profile name \"%s\" is empty or too long", name);
		return -EINVAL;
	}
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(origin, sizeof(origin), "fs/%s", name);
	ret = bm_opts_defaults(fsprof_opts, p);
	if (!ret)
		ret = bm_opts_parse_text(fsprof_opts, p, text, origin, err, errlen);
	if (ret)
		return ret;
	if (!p->type[0] || !p->mkfs[0]) {
		snprintf(err, errlen, "%s: %s missing", origin, !p->type[0] ? "type" : "mkfs");
		return -EINVAL;
	}
	return 0;
}

static int load_text(const char *dir, const char *name, char **text,
		     char *err, size_t errlen)
{
	char path[512];
	int ret;

	if (!*name || strchr(name, '/') || name[0] == '.') {
		snprintf(err, errlen, "bad name \"%s\"", name);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ret = bm_read_file(path, text, NULL, 64 << 10);
	if (ret)
		snprintf(err, errlen, "cannot read %s: %s", path, bm_strerror(-ret));
	return ret;
}

int bm_fsprof_load(struct bm_fsprof *p, const char *dir, const char *name,
		   char *err, size_t errlen)
{
	char *text;
	int ret = load_text(dir, name, &text, err, errlen);

	if (ret)
		return ret;
	ret = bm_fsprof_parse(p, name, text, err, errlen);
	free(text);
	return ret;
}

int bm_fsprof_mkfs_argv(const struct bm_fsprof *p, const char *dev, char *buf,
			size_t buflen, char *argv[], int max)
{
	char *save = NULL, *tok;
	int n = 0;

	if (strlen(p->mkfs) + 1 > buflen)
		return -E2BIG;
	memcpy(buf, p->mkfs, strlen(p->mkfs) + 1);
	for (tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (n + 2 >= max)  /* room for dev and the NULL */
			return -E2BIG;
		argv[n++] = tok;
	}
	if (!n)
		return -EINVAL;
	argv[n++] = (char *)dev;
	argv[n] = NULL;
	return n;
}

const char *bm_mkfs_label_opt(const char *type)
{
	static const struct { const char *type, *opt; } opts[] = {
		{ "ext2", "-L" }, { "ext3", "-L" }, { "ext4", "-L" }, { "xfs", "-L" },
		{ "jfs", "-L" }, { "btrfs", "-L" }, { "reiserfs", "-l" },
	};
	size_t i;

	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (!strcmp(type, opts[i].type))
			return opts[i].opt;
	return NULL;
}

int bm_mkfs_argv_label(const char *type, char *argv[], int n, int max, const char *label)
{
	const char *opt = bm_mkfs_label_opt(type);
	int i;

	if (!opt || n < 1)
		return n;
	/* A label the profile sets is replaced: mkfs.xfs rejects a repeated -L. */
	for (i = 1; i + 1 < n; i++)
		if (!strcmp(argv[i], opt)) {
			if (i + 2 == n)   /* "-L" right before the device: no value */
				return -EINVAL;
			argv[i + 1] = (char *)label;
			return n;
		}
	if (n + 3 > max)
		return -E2BIG;
	argv[n + 1] = argv[n - 1];  /* the device stays last */
	argv[n - 1] = (char *)opt;
	argv[n] = (char *)label;
	argv[n + 2] = NULL;
	return n + 2;
}

/* The profile's argv sets mkfs.xfs's data size (-d size=..., -dsize=...). */
static int xfs_sets_size(char *argv[], int n)
{
	const char *sub, *p;
	int i;

	for (i = 1; i < n - 1; i++) {
		if (strncmp(argv[i], "-d", 2))
			continue;
		sub = argv[i][2] ? argv[i] + 2 : i + 2 < n ? argv[i + 1] : "";
		for (p = sub; p; p = strchr(p, ','), p = p ? p + 1 : NULL)
			if (!strncmp(p, "size=", 5))
				return 1;
	}
	return 0;
}

/* mkreiserfs's block size: -b N, -bN, --block-size N or --block-size=N; 4096. */
static unsigned long reiserfs_block(char *argv[], int n)
{
	const char *v = NULL;
	int i;

	for (i = 1; i < n - 1 && !v; i++) {
		if (!strcmp(argv[i], "-b") || !strcmp(argv[i], "--block-size"))
			v = i + 2 < n ? argv[i + 1] : NULL;
		else if (!strncmp(argv[i], "-b", 2) && argv[i][1] != '-')
			v = argv[i] + 2;
		else if (!strncmp(argv[i], "--block-size=", 13))
			v = argv[i] + 13;
	}
	return v && strtoul(v, NULL, 10) ? strtoul(v, NULL, 10) : 4096;
}

int bm_mkfs_argv_size(const char *type, char *argv[], int n, int max, uint64_t bytes,
		      char *buf, size_t buflen)
{
	int i, before = 0, k;
	unsigned long block = 4096;

	if (n < 2)
		return -EINVAL;
	if (!strcmp(type, "ext2") || !strcmp(type, "ext3") || !strcmp(type, "ext4")) {
		k = snprintf(buf, buflen, "%lluk", (unsigned long long)(bytes >> 10));
	} else if (!strcmp(type, "xfs")) {
		if (xfs_sets_size(argv, n))
			return -EINVAL;
		k = snprintf(buf, buflen, "-d%csize=%lluk", '\0', (unsigned long long)(bytes >> 10));
		before = 2;
	} else if (!strcmp(type, "btrfs")) {
		for (i = 1; i < n - 1; i++)
			if (!strcmp(argv[i], "-b") || !strncmp(argv[i], "--byte-count", 12))
				return -EINVAL;
		k = snprintf(buf, buflen, "-b%c%llu", '\0', (unsigned long long)bytes);
		before = 2;
	} else if (!strcmp(type, "jfs") || !strcmp(type, "reiserfs")) {
		if (!strcmp(type, "reiserfs"))
			block = reiserfs_block(argv, n);
		k = snprintf(buf, buflen, "%llu", (unsigned long long)(bytes / block));
	} else {
		return -EOPNOTSUPP;
	}
	if (k < 0 || (size_t)k >= buflen)
		return -E2BIG;
	if (n + (before ? before : 1) + 1 > max)
		return -E2BIG;
	if (!before) {
		argv[n] = buf;
		argv[n + 1] = NULL;
		return n + 1;
	}
	/* two words before the device, which stays last */
	argv[n + 1] = argv[n - 1];
	argv[n - 1] = buf;
	argv[n] = buf + strlen(buf) + 1;
	argv[n + 2] = NULL;
	return n + 2;
}

static const struct bm_opt suite_opts[] = {
	{ .name = "disk_size", .type = BM_OPT_SIZE, .off = offsetof(struct bm_suite, disk_size),
	  .def = "1G", .min = 64 << 20, .max = 0, .help = "size of the test disk" },
	{ .name = "repeat", .type = BM_OPT_INT, .off = offsetof(struct bm_suite, repeat),
	  .def = "1", .min = 1, .max = 100, .help = "repetitions of every test" },
	BM_OPT_END
};

static int valid_wl_name(const char *s, size_t n)
{
	size_t i;

	if (!n || n >= sizeof(((struct bm_job *)0)->wl))
		return 0;
	for (i = 0; i < n; i++)
		if (!islower((unsigned char)s[i]) && !isdigit((unsigned char)s[i]) && s[i] != '_')
			return 0;
	return 1;
}

/* "suite k=v k=v" sets suite-wide options. */
static int suite_settings(struct bm_suite *s, char *rest, int line,
			  char *err, size_t errlen)
{
	char *save = NULL, *tok, *eq, msg[200];
	int ret;

	for (tok = strtok_r(rest, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		eq = strchr(tok, '=');
		if (!eq) {
			snprintf(err, errlen, "suites/%s:%d: \"%s\" is not key=value",
				 s->name, line, tok);
			return -EINVAL;
		}
		*eq = '\0';
		ret = bm_opt_set(suite_opts, s, tok, eq + 1, msg, sizeof(msg));
		if (ret) {
			snprintf(err, errlen, "suites/%s:%d: %s", s->name, line, msg);
			return ret;
		}
	}
	return 0;
}

static int suite_line(struct bm_suite *s, char *l, int line, char *err, size_t errlen)
{
	size_t n = strcspn(l, " \t");
	char *rest = l + n + strspn(l + n, " \t");
	struct bm_job *j;

	if (!valid_wl_name(l, n)) {
		snprintf(err, errlen, "suites/%s:%d: bad workload name \"%.*s\"",
			 s->name, line, (int)n, l);
		return -EINVAL;
	}
	if (n == 5 && !strncmp(l, "suite", 5))
		return suite_settings(s, rest, line, err, errlen);
	if (s->njobs >= BM_SUITE_JOBS) {
		snprintf(err, errlen, "suites/%s:%d: more than %d jobs", s->name, line,
			 BM_SUITE_JOBS);
		return -E2BIG;
	}
	if (strlen(rest) >= sizeof(j->args)) {
		snprintf(err, errlen, "suites/%s:%d: arguments too long", s->name, line);
		return -E2BIG;
	}
	j = &s->job[s->njobs++];
	memcpy(j->wl, l, n);
	j->wl[n] = '\0';
	snprintf(j->args, sizeof(j->args), "%s", rest);
	j->line = line;
	return 0;
}

int bm_suite_parse(struct bm_suite *s, const char *name, const char *text,
		   char *err, size_t errlen)
{
	char *copy, *l, *next, *hash, *e;
	int line = 0, ret = 0;

	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	ret = bm_opts_defaults(suite_opts, s);
	if (ret)
		return ret;
	copy = strdup(text);
	if (!copy)
		return -ENOMEM;
	for (l = copy; l && !ret; l = next) {
		line++;
		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		hash = strchr(l, '#');
		if (hash)
			*hash = '\0';
		l += strspn(l, " \t\r");
		for (e = l + strlen(l); e > l && isspace((unsigned char)e[-1]); e--)
			*(e - 1) = '\0';
		if (*l)
			ret = suite_line(s, l, line, err, errlen);
	}
	free(copy);
	if (!ret && !s->njobs) {
		snprintf(err, errlen, "suites/%s: no jobs", name);
		ret = -EINVAL;
	}
	return ret;
}

int bm_suite_load(struct bm_suite *s, const char *dir, const char *name,
		  char *err, size_t errlen)
{
	char *text;
	int ret = load_text(dir, name, &text, err, errlen);

	if (ret)
		return ret;
	ret = bm_suite_parse(s, name, text, err, errlen);
	free(text);
	return ret;
}
