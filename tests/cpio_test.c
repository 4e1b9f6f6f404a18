/* initramfs/cpio*.c and list.c: write archives from lists, read them back with our
 * reader and with GNU cpio, and check what reproducibility promises. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpio.h"
#include "list.h"
#include "tap.h"

static char tmp[] = "/tmp/bm-cpio-test.XXXXXX";

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static void put_file(const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		printf("Bail out! cannot write %s\n", path);
		exit(1);
	}
}

/* Parses the list text (with @T@ standing for the temp folder) and writes the
 * archive into memory. Returns 0 or -errno; err says why. */
static int build(const char *list, uint32_t mtime, char **buf, size_t *len, char *err, size_t errlen)
{
	char text[4096], *w = text;
	struct bm_cpio c;
	FILE *in, *out;
	int rc;

	for (const char *p = list; *p && w < text + sizeof(text) - 64; p++) {
		if (!strncmp(p, "@T@", 3)) {
			w += sprintf(w, "%s", tmp);
			p += 2;
		} else {
			*w++ = *p;
		}
	}
	*w = '\0';
	bm_cpio_init(&c);
	in = fmemopen(text, strlen(text), "r");
	rc = bm_list_parse(&c, in, "test.list", err, errlen);
	fclose(in);
	if (!rc) {
		out = open_memstream(buf, len);
		rc = bm_cpio_write(&c, out, mtime, err, errlen);
		fclose(out);
		if (rc)
			free(*buf);
	}
	bm_cpio_free(&c);
	return rc;
}

static const char full_list[] =
	"# every kind, out of order, parents of /etc/deep missing\n"
	"\n"
	"file /etc/deep/er/payload @T@/payload 0640 1000 100\n"
	"slink /bin/sh busybox 0777 0 0\n"
	"nod /dev/console 0600 0 0 c 5 1\n"
	"nod /dev/vda 0660 0 6 b 254 0\n"
	"dir /dev 0755 0 0\n"
	"dir /tmp 1777 0 0\n"
	"dir /tmp 1777 0 0\n"
	"file /empty @T@/empty 0644 0 0\n";

/* name, mode, uid, gid, size (in output order) */
static const struct want {
	const char *name;
	uint32_t mode, uid, gid, size;
} full_want[] = {
	{ "bin", 040755, 0, 0, 0 },
	{ "bin/sh", 0120777, 0, 0, 7 },
	{ "dev", 040755, 0, 0, 0 },
	{ "dev/console", 020600, 0, 0, 0 },
	{ "dev/vda", 060660, 0, 6, 0 },
	{ "empty", 0100644, 0, 0, 0 },
	{ "etc", 040755, 0, 0, 0 },
	{ "etc/deep", 040755, 0, 0, 0 },
	{ "etc/deep/er", 040755, 0, 0, 0 },
	{ "etc/deep/er/payload", 0100640, 1000, 100, 5 },
	{ "tmp", 041777, 0, 0, 0 },
};
#define NWANT (sizeof(full_want) / sizeof(full_want[0]))

struct seen {
	unsigned n, bad_meta, bad_order;
	const unsigned char *base;
	const unsigned char *payload, *link;
	uint32_t console_rdev[2];
};

static int check_ent(const struct bm_cpio_ent *e, void *arg)
{
	struct seen *s = arg;
	const struct want *w = s->n < NWANT ? &full_want[s->n] : NULL;

	if (!w || strcmp(e->name, w->name) || e->mode != w->mode || e->uid != w->uid ||
	    e->gid != w->gid || e->size != w->size) {
		tap_diag("entry %u: %s mode %o uid %u gid %u size %u", s->n, e->name,
			 e->mode, e->uid, e->gid, e->size);
		s->bad_meta++;
	}
	if (e->ino != s->n + 1 || e->mtime != 1234 || e->devmajor || e->devminor ||
	    e->nlink != ((e->mode & 0170000) == 040000 ? 2U : 1U) ||
	    (size_t)((const unsigned char *)e->name - s->base) % 4 != 2)
		s->bad_order++;
	if (!strcmp(e->name, "etc/deep/er/payload"))
		s->payload = e->data;
	if (!strcmp(e->name, "bin/sh"))
		s->link = e->data;
	if (!strcmp(e->name, "dev/console")) {
		s->console_rdev[0] = e->rdevmajor;
		s->console_rdev[1] = e->rdevminor;
	}
	s->n++;
	return 0;
}

static void test_roundtrip(void)
{
	char *a = NULL, *b = NULL, err[512] = "";
	size_t alen = 0, blen = 0;
	struct seen s = { 0 };
	int rc;

	rc = build(full_list, 1234, &a, &alen, err, sizeof(err));
	tap_ok(rc == 0, "a list with every entry kind builds (%s)", rc ? err : "ok");
	if (rc)
		return;
	s.base = (const unsigned char *)a;
	rc = bm_cpio_read(a, alen, check_ent, &s);
	TAP_EQ_INT(rc, 0, "our reader reads the archive to its trailer");
	tap_ok(s.n == NWANT && !s.bad_meta, "entries sorted, parents added, metadata as listed");
	tap_ok(!s.bad_order, "inodes 1.., fixed mtime, no host dev, nlink, 4-byte alignment");
	tap_ok(s.payload && !memcmp(s.payload, "12345", 5), "file data read back");
	tap_ok(s.link && !memcmp(s.link, "busybox", 7), "symlink target read back");
	tap_ok(s.console_rdev[0] == 5 && s.console_rdev[1] == 1, "device numbers 5:1");
	tap_ok(alen % 4 == 0 && alen > 124 && !memcmp(a + alen - 124, "070701", 6) &&
	       !memcmp(a + alen - 124 + 110, "TRAILER!!!", 11), "ends in a padded TRAILER!!!");

	rc = build(full_list, 1234, &b, &blen, err, sizeof(err));
	tap_ok(rc == 0 && alen == blen && !memcmp(a, b, alen), "two builds are byte-identical");
	free(b);
	b = NULL;
	chmod(tmp, 0700);
	utimensat(AT_FDCWD, tmp, NULL, 0);
	rc = build(full_list, 1234, &b, &blen, err, sizeof(err));
	tap_ok(rc == 0 && alen == blen && !memcmp(a, b, alen),
	       "host permissions and times of the folders do not leak in");
	free(b);
	free(a);
}

static int count_ent(const struct bm_cpio_ent *e, void *arg)
{
	(*(unsigned *)arg)++;
	return 0;
}

static void test_reader_errors(void)
{
	char *a = NULL, err[512];
	size_t alen = 0;
	unsigned n = 0;
	struct bm_cpio_reader r;
	struct bm_cpio_ent e;
	char *two;
	int rc;

	if (build(full_list, 0, &a, &alen, err, sizeof(err))) {
		tap_ok(0, "reader errors: cannot build the archive (%s)", err);
		return;
	}
	TAP_EQ_INT(bm_cpio_read(a, alen - 124, count_ent, &n), -EINVAL,
		   "an archive cut before its trailer is refused");
	TAP_EQ_INT(bm_cpio_read(a, alen - 200, count_ent, &n), -EINVAL,
		   "an archive cut inside an entry is refused");
	a[3] = '8';
	TAP_EQ_INT(bm_cpio_read(a, alen, count_ent, &n), -EINVAL, "bad magic is refused");
	a[3] = '7';
	a[6 + 8 * 6] = 'g';
	TAP_EQ_INT(bm_cpio_read(a, alen, count_ent, &n), -EINVAL, "a non-hex field is refused");
	a[6 + 8 * 6] = '0';

	/* base + padding + modules, as the host concatenates them */
	two = malloc(2 * alen + 8);
	memcpy(two, a, alen);
	memset(two + alen, 0, 8);
	memcpy(two + alen + 8, a, alen);
	bm_cpio_reader_init(&r, two, 2 * alen + 8);
	n = 0;
	while ((rc = bm_cpio_next(&r, &e)) == 1)
		n++;
	tap_ok(rc == 0 && n == 2 * NWANT && r.archives == 2,
	       "two archives with zero padding between them read as one stream");
	free(two);
	free(a);
}

static const struct {
	const char *list, *want;
} bad[] = {
	{ "dir /a 0755 0 0\nfil /b 0755 0 0\n", "test.list:2: unknown entry type 'fil'" },
	{ "\n\ndir /a 0755 0\n", "test.list:3: dir takes 4 fields, not 3" },
	{ "dir /a 0755 0 0 0\n", "test.list:1: dir takes 4 fields, not 5" },
	{ "dir /a 0855 0 0\n", "test.list:1: bad mode '0855'" },
	{ "dir /a 010755 0 0\n", "test.list:1: bad mode" },
	{ "dir /a 0755 x 0\n", "test.list:1: bad uid or gid" },
	{ "dir a 0755 0 0\n", "test.list:1: bad path 'a'" },
	{ "dir /a/../b 0755 0 0\n", "test.list:1: bad path" },
	{ "dir / 0755 0 0\n", "test.list:1: bad path '/'" },
	{ "dir /a 0755 0 0\n# c\ndir /a 0700 0 0\n", "test.list:3: /a listed twice" },
	{ "slink /a b 0777 0 0\ndir /a 0755 0 0\n", "test.list:2: /a listed twice" },
	{ "file /a @T@/nothere 0644 0 0\n", "test.list:1: cannot use" },
	{ "file /a @T@ 0644 0 0\n", "is not a regular file" },
	{ "nod /dev/x 0600 0 0 x 1 1\n", "test.list:1: bad device type 'x'" },
	{ "nod /dev/x 0600 0 0 c 4096 1\n", "test.list:1: bad device number" },
};

static void test_bad_lists(void)
{
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *a = NULL, err[512] = "";
		size_t alen = 0;
		int rc = build(bad[i].list, 0, &a, &alen, err, sizeof(err));

		tap_ok(rc == -EINVAL && strstr(err, bad[i].want), "bad list %zu: \"%s\" (got \"%s\")",
		       i, bad[i].want, err);
		if (!rc)
			free(a);
	}
}

static void test_writer_refusals(void)
{
	char path[512], *a = NULL, err[512] = "";
	size_t alen = 0;
	struct bm_cpio c;
	int fd, rc;

	rc = build("slink /lib64 lib 0777 0 0\nfile /lib64/x @T@/empty 0644 0 0\n", 0,
		   &a, &alen, err, sizeof(err));
	tap_ok(rc == -ENOTDIR && strstr(err, "/lib64/x"), "a file under a symlink is refused (%s)", err);
	if (!rc)
		free(a);

	snprintf(path, sizeof(path), "%s/huge", tmp);
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)BM_CPIO_MAX_FILE + 1)) {
		tap_skip("no sparse 4 GiB file here", "files over 4 GiB are refused");
	} else {
		bm_cpio_init(&c);
		TAP_EQ_INT(bm_cpio_add_file(&c, "/huge", path, 0644, 0, 0), -EFBIG,
			   "files over 4 GiB are refused");
		bm_cpio_free(&c);
	}
	if (fd >= 0)
		close(fd);
	unlink(path);
}

static int save(const char *name, const char *buf, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	if (fwrite(buf, 1, len, f) != len) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

/* GNU cpio is the independent reader: it must list and unpack our bytes. */
static void test_gnu_cpio(void)
{
	char *a = NULL, err[512], cmd[1024], line[512], path[512], link[64];
	size_t alen = 0, i = 0;
	int same = 1;
	ssize_t n;
	FILE *p;

	if (system("command -v cpio >/dev/null 2>&1")) {
		tap_skip("cpio is not installed", "cpio -t lists the archive");
		tap_skip("cpio is not installed", "cpio -id unpacks the archive");
		return;
	}
	if (build(full_list, 1234, &a, &alen, err, sizeof(err)) || save("a.cpio", a, alen)) {
		tap_ok(0, "cpio -t lists the archive (cannot build: %s)", err);
		free(a);
		return;
	}
	free(a);
	snprintf(cmd, sizeof(cmd), "cpio -t --quiet < %s/a.cpio", tmp);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\n")] = '\0';
		same &= i < NWANT && !strcmp(line, full_want[i].name);
		i++;
	}
	tap_ok(p && pclose(p) == 0 && same && i == NWANT, "cpio -t lists the archive");

	/* no device nodes: a normal user cannot create them */
	if (build("file /etc/deep/payload @T@/payload 0640 0 0\nslink /bin/sh busybox 0777 0 0\n",
		  0, &a, &alen, err, sizeof(err)) || save("b.cpio", a, alen)) {
		tap_ok(0, "cpio -id unpacks the archive (cannot build: %s)", err);
		free(a);
		return;
	}
	free(a);
	snprintf(cmd, sizeof(cmd), "mkdir %s/x && cd %s/x && cpio -id --quiet < ../b.cpio", tmp, tmp);
	snprintf(path, sizeof(path), "%s/x/bin/sh", tmp);
	n = system(cmd) == 0 ? readlink(path, link, sizeof(link) - 1) : -1;
	snprintf(path, sizeof(path), "%s/x/etc/deep/payload", tmp);
	p = fopen(path, "r");
	line[0] = '\0';
	if (p) {
		if (!fgets(line, sizeof(line), p))
			line[0] = '\0';
		fclose(p);
	}
	tap_ok(n == 7 && !memcmp(link, "busybox", 7) && !strcmp(line, "12345"),
	       "cpio -id unpacks the archive (file and symlink intact)");
}

int main(void)
{
	tap_plan(0);
	if (!mkdtemp(tmp)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	put_file("payload", "12345");
	put_file("empty", "");
	test_roundtrip();
	test_reader_errors();
	test_bad_lists();
	test_writer_refusals();
	test_gnu_cpio();
	nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return tap_done();
}
