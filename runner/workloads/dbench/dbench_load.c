// SPDX-License-Identifier: MIT
/*
 * dbench 4.0 loadfile parsing (child.c's rules): '\' becomes '/', an
 * optional leading number is a target timestamp, the last field is the
 * expected NT status.  Paths are kept with their "client1" so that each
 * client substitutes its own number when it runs (dbench does the same
 * substitution on every line it reads).  Unlike dbench, which skips a
 * malformed line with a message, a bad line is an error naming it: a
 * benchmark must not quietly run less than its loadfile says.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dbench_load.h"
#include "profile.h"
#include "spawn.h"

#define DB_TOK_MAX 8

const char *const db_kind_name[DB_NKINDS] = {
	[DB_NTCREATEX] = "NTCreateX", [DB_CLOSE] = "Close", [DB_READX] = "ReadX",
	[DB_WRITEX] = "WriteX", [DB_FLUSH] = "Flush", [DB_RENAME] = "Rename",
	[DB_UNLINK] = "Unlink", [DB_MKDIR] = "Mkdir", [DB_RMDIR] = "Rmdir",
	[DB_DELTREE] = "Deltree", [DB_QPATHINFO] = "QUERY_PATH_INFORMATION",
	[DB_QFILEINFO] = "QUERY_FILE_INFORMATION", [DB_QFSINFO] = "QUERY_FS_INFORMATION",
	[DB_SFILEINFO] = "SET_FILE_INFORMATION", [DB_FINDFIRST] = "FIND_FIRST",
	[DB_LOCKX] = "LockX", [DB_UNLOCKX] = "UnlockX",
};

/* Fields between the op name and the status: S a path, N a number. */
static const char *const db_fields[DB_NKINDS] = {
	[DB_NTCREATEX] = "SNNN", [DB_CLOSE] = "N", [DB_READX] = "NNNN",
	[DB_WRITEX] = "NNNN", [DB_FLUSH] = "N", [DB_RENAME] = "SS",
	[DB_UNLINK] = "SN", [DB_MKDIR] = "S", [DB_RMDIR] = "S", [DB_DELTREE] = "S",
	[DB_QPATHINFO] = "SN", [DB_QFILEINFO] = "NN", [DB_QFSINFO] = "N",
	[DB_SFILEINFO] = "NN", [DB_FINDFIRST] = "SNNN", [DB_LOCKX] = "NNN",
	[DB_UNLOCKX] = "NNN",
};

struct db_tok {
	const char *s;
	size_t len;
	int quoted;
};

/* Splits one line into words; "..." keeps blanks.  -1 when too many. */
static int db_split(const char *p, const char *end, struct db_tok *t, int max)
{
	int n = 0;

	for (;;) {
		while (p < end && isspace((unsigned char)*p))
			p++;
		if (p >= end)
			return n;
		if (n == max)
			return -1;
		t[n].quoted = *p == '"';
		if (t[n].quoted) {
			t[n].s = ++p;
			while (p < end && *p != '"')
				p++;
			t[n].len = (size_t)(p - t[n].s);
			if (p < end)
				p++;
		} else {
			t[n].s = p;
			while (p < end && !isspace((unsigned char)*p))
				p++;
			t[n].len = (size_t)(p - t[n].s);
		}
		n++;
	}
}

static int db_num(const struct db_tok *t, int64_t *v)
{
	char buf[32], *end;

	if (t->quoted || !t->len || t->len >= sizeof(buf))
		return -1;
	memcpy(buf, t->s, t->len);
	buf[t->len] = '\0';
	errno = 0;
	*v = strtoll(buf, &end, 0);
	return *end || errno ? -1 : 0;
}

/* NT_STATUS_<NAME> or a 0x code, as dbench accepts; 1 OK, 0 other, -1 bad. */
static int db_status(const struct db_tok *t)
{
	size_t i;

	if (t->len > 2 && !strncmp(t->s, "0x", 2)) {
		for (i = 2; i < t->len; i++)
			if (!isxdigit((unsigned char)t->s[i]))
				return -1;
		return strtoul(t->s, NULL, 16) == 0;
	}
	if (t->len <= 10 || strncmp(t->s, "NT_STATUS_", 10))
		return -1;
	for (i = 10; i < t->len; i++)
		if (!isupper((unsigned char)t->s[i]) && t->s[i] != '_')
			return -1;
	return t->len == 12 && !strncmp(t->s + 10, "OK", 2);
}

static int db_pool_add(struct db_load *l, const struct db_tok *t, uint32_t *off)
{
	size_t i;

	if (l->pool_len + t->len + 1 > l->pool_cap) {
		size_t cap = l->pool_cap ? l->pool_cap * 2 : 65536;
		char *p;

		while (cap < l->pool_len + t->len + 1)
			cap *= 2;
		p = realloc(l->pool, cap);
		if (!p)
			return -ENOMEM;
		if (!l->pool_len)
			p[l->pool_len++] = '\0';  /* offset 0 means "no string" */
		l->pool = p;
		l->pool_cap = cap;
	}
	*off = (uint32_t)l->pool_len;
	for (i = 0; i < t->len; i++)
		l->pool[l->pool_len++] = t->s[i] == '\\' ? '/' : t->s[i];
	l->pool[l->pool_len++] = '\0';
	return 0;
}

static int db_kind_of(const struct db_tok *t)
{
	int k;

	for (k = 0; k < DB_NKINDS; k++)
		if (strlen(db_kind_name[k]) == t->len && !memcmp(db_kind_name[k], t->s, t->len))
			return k;
	return -1;
}

static int db_parse_line(struct db_load *l, const char *p, const char *end, uint32_t line,
			 char *err, size_t errlen, const char *origin)
{
	struct db_tok t[DB_TOK_MAX + 1];
	struct db_op op = { .line = line };
	const char *f;
	int n = db_split(p, end, t, DB_TOK_MAX + 1), i = 0, k, st, ret;
	int64_t ts;

#define BAD(...) do { int o_ = snprintf(err, errlen, "%s: line %u: ", origin, line); \
	if (o_ >= 0 && (size_t)o_ < errlen) snprintf(err + o_, errlen - (size_t)o_, __VA_ARGS__); \
	return -EINVAL; } while (0)
	if (n == 0)
		return 0;
	if (n < 0)
		BAD("too many fields");
	if (!t[0].quoted && t[0].len && isdigit((unsigned char)t[0].s[0])) {
		char buf[32], *e;

		if (t[0].len >= sizeof(buf))
			BAD("timestamp \"%.*s\" is not a number", (int)t[0].len, t[0].s);
		memcpy(buf, t[0].s, t[0].len);
		buf[t[0].len] = '\0';
		op.t = strtod(buf, &e);
		if (*e || op.t < 0)
			BAD("timestamp \"%s\" is not a number", buf);
		i = 1;
	}
	if (i >= n)
		BAD("no operation after the timestamp");
	k = db_kind_of(&t[i]);
	if (k < 0)
		BAD("unknown operation \"%.*s\"", (int)t[i].len, t[i].s);
	op.kind = (uint8_t)k;
	f = db_fields[k];
	if (n - i - 1 != (int)strlen(f) + 1)
		BAD("%s: %d fields, expected %d (%s then the status)", db_kind_name[k], n - i - 1,
		    (int)strlen(f) + 1, f);
	for (int j = 0, a = 0; f[j]; j++) {
		const struct db_tok *tk = &t[i + 1 + j];

		if (f[j] == 'N') {
			if (db_num(tk, &ts))
				BAD("%s: field %d \"%.*s\" is not a number", db_kind_name[k], j + 1,
				    (int)tk->len, tk->s);
			op.a[a++] = ts;
		} else {
			if (!tk->len)
				BAD("%s: field %d: empty path", db_kind_name[k], j + 1);
			ret = db_pool_add(l, tk, op.name ? &op.name2 : &op.name);
			if (ret)
				return ret;
		}
	}
	st = db_status(&t[n - 1]);
	if (st < 0)
		BAD("%s: bad status \"%.*s\" (NT_STATUS_<NAME> or 0x<hex>)", db_kind_name[k],
		    (int)t[n - 1].len, t[n - 1].s);
#undef BAD
	op.ok = (uint8_t)st;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 4096;
		struct db_op *o = realloc(l->op, cap * sizeof(*o));

		if (!o)
			return -ENOMEM;
		l->op = o;
		l->cap = cap;
	}
	l->op[l->n++] = op;
	return 0;
}

/*
 * The complete lines of text[0..len) into l (*line counts them); with
 * final, a last line without its newline too.  Returns the bytes taken (up
 * to the last newline), or -errno with err set; on an error l is freed.
 */
static long db_parse_lines(struct db_load *l, const char *text, size_t len, int final,
			   uint32_t *line, const char *origin, char *err, size_t errlen)
{
	const char *p = text, *end = text + len, *nl;
	int ret;

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl && !final)
			break;
		if (!nl)
			nl = end;
		ret = db_parse_line(l, p, nl, ++*line, err, errlen, origin);
		if (ret) {
			if (ret == -ENOMEM)
				snprintf(err, errlen, "%s: out of memory at line %u", origin, *line);
			db_load_free(l);
			return ret;
		}
		p = nl + 1;
	}
	return p > end ? (long)len : (long)(p - text);
}

/* After the last line: a loadfile with no operation is an error. */
static int db_parse_done(struct db_load *l, const char *origin, char *err, size_t errlen)
{
	if (l->n)
		return 0;
	snprintf(err, errlen, "%s: no operations", origin);
	db_load_free(l);
	return -EINVAL;
}

int db_load_parse(struct db_load *l, const char *text, size_t len, const char *origin,
		  char *err, size_t errlen)
{
	uint32_t line = 0;
	long ret;

	memset(l, 0, sizeof(*l));
	ret = db_parse_lines(l, text, len, 1, &line, origin, err, errlen);
	if (ret < 0)
		return (int)ret;
	return db_parse_done(l, origin, err, errlen);
}

void db_load_free(struct db_load *l)
{
	free(l->op);
	free(l->pool);
	memset(l, 0, sizeof(*l));
}

/*
 * The loadfile as a stream: the output of "xzcat" (busybox's in the image;
 * *pid set) reading it on its stdin, or the file itself.  Either way it is
 * opened here as a regular file: a FIFO would hang the test.  An fd, or
 * -errno with err set.
 */
static int db_input_open(const char *path, pid_t *pid, char *err, size_t errlen)
{
	size_t n = strlen(path);
	int xz = n > 3 && !strcmp(path + n - 3, ".xz"), p[2], fd, rc;
	char prog[256];
	char *argv[] = { prog, "xzcat", NULL };

	*pid = -1;
	fd = bm_open_regular(path);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", path, bm_strerror(-fd));
		return fd;
	}
	if (!xz)
		return fd;
	if (access("/bin/busybox", X_OK) == 0) {
		snprintf(prog, sizeof(prog), "/bin/busybox");
	} else if (spawn_find("xzcat", prog, sizeof(prog)) == 0) {
		argv[1] = NULL;
	} else {
		snprintf(err, errlen, "%s: no /bin/busybox or xzcat to decompress it", path);
		close(fd);
		return -ENOENT;
	}
	rc = pipe2(p, O_CLOEXEC) ? -errno : 0;
	if (!rc) {
		*pid = fork();
		if (*pid == 0) {
			dup2(fd, 0);
			dup2(p[1], 1);
			execv(prog, argv);
			_exit(127);
		}
		rc = *pid < 0 ? -errno : p[0];
		close(p[1]);
		if (rc < 0)
			close(p[0]);
	}
	close(fd);
	return rc;
}

/* The decompressor's exit status (0 without one: a plain file). */
static int db_input_wait(pid_t pid)
{
	int st;

	if (pid <= 0)
		return 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return st;
}

/*
 * Parsed as it arrives: the lines of each read are parsed while xzcat
 * decompresses the next ones, on the other CPU of a box that has one.
 * Reading all 26 MB of client.txt first and parsing after took the two
 * one after the other (docs/performance.md); the parse is the same.
 */
int db_load_file(struct db_load *l, const char *path, char *err, size_t errlen)
{
	size_t have = 0, cap = 1 << 18;
	char *buf = malloc(cap);
	uint32_t line = 0;
	long took = 0;
	ssize_t r;
	pid_t pid;
	int fd, ret = 0, st;

	err[0] = '\0';
	memset(l, 0, sizeof(*l));
	if (!buf)
		return -ENOMEM;
	fd = db_input_open(path, &pid, err, errlen);
	if (fd < 0) {
		ret = fd;
		goto out_free_buf;
	}
	for (;;) {
		if (have == cap) {
			snprintf(err, errlen, "%s: line %u: longer than %zu bytes", path, line + 1,
				 cap);
			ret = -EINVAL;
			break;
		}
		r = read(fd, buf + have, cap - have);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = -errno;
			break;
		}
		have += (size_t)r;
		took = db_parse_lines(l, buf, have, r == 0, &line, path, err, errlen);
		if (took < 0 || r == 0)
			break;
		memmove(buf, buf + took, have - (size_t)took);
		have -= (size_t)took;
	}
	close(fd);
	/* after a parse error xzcat ends on the closed pipe: only its status
	 * when all was read */
	st = db_input_wait(pid);
	if (took < 0)
		ret = (int)took;    /* l is freed, err says where */
	else if (!ret && st) {
		snprintf(err, errlen, "%s: xzcat failed (status %d)", path, st);
		ret = -EIO;
	}
	if (!ret)
		ret = db_parse_done(l, path, err, errlen);
	else if (took >= 0)
		db_load_free(l);
out_free_buf:
	free(buf);
	if (ret && !err[0])
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(-ret));
	return ret;
}
