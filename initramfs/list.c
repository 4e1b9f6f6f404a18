/* Parser for the readable list: each line becomes one bm_cpio_add_* call. */
#include "list.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 9

static int split(char *line, char **f)
{
	char *save;
	int n = 0;

	for (char *tok = strtok_r(line, " \t\r\n", &save); tok;
	     tok = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == MAX_FIELDS)
			return MAX_FIELDS + 1;
		f[n++] = tok;
	}
	return n;
}

/* Whole-string unsigned number in base 8 or 10 below max. */
static int num(const char *s, int base, unsigned long max, unsigned *v)
{
	char *end;
	unsigned long x;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	x = strtoul(s, &end, base);
	if (errno || *end || x > max)
		return -EINVAL;
	*v = (unsigned)x;
	return 0;
}

static int owner(char **f, unsigned *mode, unsigned *uid, unsigned *gid,
		 char *err, size_t errlen)
{
	if (num(f[0], 8, 07777, mode)) {
		snprintf(err, errlen, "bad mode '%s' (octal, 07777 at most)", f[0]);
		return -EINVAL;
	}
	if (num(f[1], 10, UINT_MAX - 1, uid) || num(f[2], 10, UINT_MAX - 1, gid)) {
		snprintf(err, errlen, "bad uid or gid '%s %s'", f[1], f[2]);
		return -EINVAL;
	}
	return 0;
}

static int add_nod(struct bm_cpio *c, char **f, char *err, size_t errlen)
{
	unsigned mode, uid, gid, maj, min;
	int rc = owner(f + 2, &mode, &uid, &gid, err, errlen);

	if (rc)
		return rc;
	if (strcmp(f[5], "c") && strcmp(f[5], "b")) {
		snprintf(err, errlen, "bad device type '%s' (c or b)", f[5]);
		return -EINVAL;
	}
	/* dev_t in newc is 32-bit major and minor; Linux wants 12 and 20 bits */
	if (num(f[6], 10, 0xfff, &maj) || num(f[7], 10, 0xfffff, &min)) {
		snprintf(err, errlen, "bad device number '%s %s'", f[6], f[7]);
		return -EINVAL;
	}
	return bm_cpio_add_nod(c, f[1], mode, uid, gid, f[5][0], maj, min);
}

static const struct {
	const char *kind;
	int nfields;
	int owner_at; /* index of the mode field */
} kinds[] = {
	{ "dir", 5, 2 },
	{ "file", 6, 3 },
	{ "slink", 6, 3 },
	{ "nod", 8, 2 },
};

static int add_entry(struct bm_cpio *c, int k, char **f, char *err, size_t errlen)
{
	unsigned mode, uid, gid;
	int rc;

	if (k == 3)
		return add_nod(c, f, err, errlen);
	rc = owner(f + kinds[k].owner_at, &mode, &uid, &gid, err, errlen);
	if (rc)
		return rc;
	if (k == 0)
		return bm_cpio_add_dir(c, f[1], mode, uid, gid);
	if (k == 1)
		return bm_cpio_add_file(c, f[1], f[2], mode, uid, gid);
	return bm_cpio_add_slink(c, f[1], f[2], mode, uid, gid);
}

/* The path and the numbers are valid by now, so the errno says what is wrong. */
static int explain(int rc, size_t k, char **f, char *err, size_t errlen)
{
	if (rc == -ENOMEM)
		return rc;
	if (rc == -EEXIST)
		snprintf(err, errlen, "%s listed twice", f[1]);
	else if (rc == -EFBIG)
		snprintf(err, errlen, "%s is larger than 4 GiB", f[2]);
	else if (k == 2)
		snprintf(err, errlen, "bad symlink target '%s'", f[2]);
	else if (k == 1 && (rc == -EINVAL || rc == -EISDIR))
		snprintf(err, errlen, "%s is not a regular file", f[2]);
	else if (k == 1)
		snprintf(err, errlen, "cannot use %s: %s", f[2], strerror(-rc));
	else if (rc != -EINVAL || !*err)
		snprintf(err, errlen, "cannot add %s: %s", f[1], strerror(-rc));
	return -EINVAL;
}

int bm_list_parse_line(struct bm_cpio *c, char *line, char *err, size_t errlen)
{
	char *f[MAX_FIELDS];
	int n, rc;

	if (errlen)
		err[0] = '\0';
	n = split(line, f);
	if (n == 0 || f[0][0] == '#')
		return 0;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		if (strcmp(f[0], kinds[k].kind))
			continue;
		if (n != kinds[k].nfields) {
			snprintf(err, errlen, "%s takes %d fields, not %d", f[0],
				 kinds[k].nfields - 1, n - 1);
			return -EINVAL;
		}
		if (bm_cpio_check_path(f[1])) {
			snprintf(err, errlen, "bad path '%s' (absolute, no '.' or '..')", f[1]);
			return -EINVAL;
		}
		rc = add_entry(c, (int)k, f, err, errlen);
		return rc ? explain(rc, k, f, err, errlen) : 0;
	}
	snprintf(err, errlen, "unknown entry type '%s'", f[0]);
	return -EINVAL;
}

int bm_list_parse(struct bm_cpio *c, FILE *f, const char *name, char *err, size_t errlen)
{
	char *line = NULL, msg[512];
	size_t cap = 0;
	unsigned long lineno = 0;
	ssize_t len;
	int rc = 0;

	errno = 0;
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if ((size_t)len != strlen(line)) {
			snprintf(err, errlen, "%s:%lu: NUL byte in line", name, lineno);
			rc = -EINVAL;
			break;
		}
		rc = bm_list_parse_line(c, line, msg, sizeof(msg));
		if (rc) {
			snprintf(err, errlen, "%s:%lu: %s", name, lineno, msg);
			break;
		}
	}
	if (!rc && ferror(f)) {
		rc = errno ? -errno : -EIO;
		snprintf(err, errlen, "cannot read %s: %s", name, strerror(-rc));
	}
	free(line);
	return rc;
}

int bm_list_parse_file(struct bm_cpio *c, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	int rc;

	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return rc;
	}
	rc = bm_list_parse(c, f, path, err, errlen);
	fclose(f);
	return rc;
}
