// SPDX-License-Identifier: MIT
/*
 * The image manifest (host/backend/manifest.c): its name beside an image, the
 * parser and what it refuses, a program found as the runner finds it
 * (BM_MKFS_PATH), and a profile's mkfs: in the base, in a built tool archive,
 * or refused naming the program and its Debian package; the tool archive's
 * file that goes with a base (host/backend/initrd.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "initrd.h"
#include "manifest.h"
#include "tap.h"

/* As initramfs/mktool.sh writes it (a shortened base). */
static const char good[] =
	"bootmark-image-manifest 1\n"
	"# what the base image and its tool archives carry (initramfs/mktool.sh)\n"
	"archive base - base.cpio\n"
	"file base /bin/busybox\n"
	"file base /init\n"
	"file base /sbin/mke2fs\n"
	"file base /sbin/mkfs.ext4\n"
	"file base /sbin/mkfs.xfs\n"
	"file base /usr/sbin/mkfs.dup\n"
	"archive jfs jfsutils tools/jfs.cpio\n"
	"file jfs /sbin/mkfs.jfs\n"
	"archive reiserfs reiserfsprogs missing\n"
	"file reiserfs /sbin/mkfs.reiserfs\n"
	"file reiserfs /sbin/mkreiserfs\n"
	"archive dup dup-tools tools/dup.cpio\n"
	"file dup /bin/mkfs.dup\n";

static struct bm_manifest m;

static void test_name(void)
{
	char out[256];

	TAP_EQ_INT(bm_manifest_name("build/base.cpio.xz", out, sizeof(out)), 0, "name of .cpio.xz");
	TAP_EQ_STR(out, "build/base.manifest", "build/base.cpio.xz -> build/base.manifest");
	bm_manifest_name("/x/img.cpio.zst", out, sizeof(out));
	TAP_EQ_STR(out, "/x/img.manifest", ".cpio.zst");
	bm_manifest_name("/x/img.cpio", out, sizeof(out));
	TAP_EQ_STR(out, "/x/img.manifest", ".cpio");
	bm_manifest_name("/x/my.img", out, sizeof(out));
	TAP_EQ_STR(out, "/x/my.img.manifest", "another name: .manifest appended");
	TAP_EQ_INT(bm_manifest_name("/a/long/path.cpio.xz", out, 8), -ENAMETOOLONG, "too long");
}

static void test_parse(void)
{
	char err[256] = "";

	TAP_EQ_INT(bm_manifest_parse(&m, good, "/b", err, sizeof(err)), 0, "mktool's manifest parses");
	if (err[0])
		tap_diag("%s", err);
	TAP_EQ_INT(m.narch, 4, "four archives");
	TAP_EQ_INT(m.nfile, 10, "ten files");
	TAP_EQ_STR(m.arch[0].name, "base", "the base first");
	TAP_EQ_STR(m.arch[1].path, "/b/tools/jfs.cpio", "a built archive's path from the folder");
	TAP_EQ_STR(m.arch[1].package, "jfsutils", "its package");
	TAP_EQ_STR(m.arch[2].path, "", "missing: no path");
	TAP_EQ_STR(m.arch[2].package, "reiserfsprogs", "a missing archive keeps its package");
}

/* text must be refused with a message holding want. */
static void bad(const char *text, const char *want, const char *name)
{
	struct bm_manifest *b = calloc(1, sizeof(*b));
	char err[256] = "";
	int rc;

	if (!b)
		tap_bail("out of memory");
	rc = bm_manifest_parse(b, text, "/b", err, sizeof(err));
	tap_ok(rc == -EINVAL && strstr(err, want), "refused: %s (%s)", name, err);
	free(b);
}

static void test_bad(void)
{
	bad("", "empty", "an empty file");
	bad("bootmark-image-manifest 2\narchive base - base.cpio\n", "line 1: not a manifest of version 1",
	    "another version");
	bad("archive base - base.cpio\n", "line 1", "no version line");
	bad("bootmark-image-manifest 1\n", "no archive 'base'", "no base");
	bad("bootmark-image-manifest 1\narchive jfs jfsutils tools/jfs.cpio\n", "line 2", "base not first");
	bad("bootmark-image-manifest 1\narchive base - b.cpio\narchive base - b.cpio\n", "line 3",
	    "an archive twice");
	bad("bootmark-image-manifest 1\narchive base - b.cpio\narchive Jfs jfsutils t.cpio\n",
	    "archive 'Jfs'", "a name of capitals");
	bad("bootmark-image-manifest 1\narchive base - b.cpio\narchive jfs - t.cpio\n",
	    "bad package '-'", "a tool archive without a package");
	bad("bootmark-image-manifest 1\narchive base - b.cpio\narchive jfs jfs;rm t.cpio\n",
	    "bad package", "a package of other characters");
	bad("bootmark-image-manifest 1\narchive base - b.cpio\narchive jfs jfsutils ../t.cpio\n",
	    "bad path '../t.cpio'", "a path out of the folder");
	bad("bootmark-image-manifest 1\narchive base - b.cpio\narchive jfs jfsutils /t.cpio\n",
	    "bad path", "an absolute path");
	bad("bootmark-image-manifest 1\narchive base - b.cpio\nfile jfs /sbin/mkfs.jfs\n",
	    "no archive 'jfs' before it", "a file of an archive not declared");
	bad("bootmark-image-manifest 1\narchive base - b.cpio\nfile base sbin/mke2fs\n",
	    "want an absolute path", "a relative file");
	bad("bootmark-image-manifest 1\narchive base - b.cpio\nprog base /sbin/mke2fs\n",
	    "line 3: want", "an unknown line");
	bad("bootmark-image-manifest 1\narchive base - b.cpio extra\n", "line 2", "a word too many");
}

static void test_find(void)
{
	int i;

	i = bm_manifest_find(&m, "mkfs.jfs");
	tap_ok(i >= 0 && !strcmp(m.file[i].path, "/sbin/mkfs.jfs"), "mkfs.jfs found in /sbin");
	i = bm_manifest_find(&m, "/sbin/mkfs.xfs");
	tap_ok(i >= 0 && m.file[i].arch == 0, "a path is taken whole");
	TAP_EQ_INT(bm_manifest_find(&m, "/usr/sbin/mkfs.xfs"), -ENOENT, "only that path");
	/* /bin comes before /usr/sbin on the runner's path: the dup archive's */
	i = bm_manifest_find(&m, "mkfs.dup");
	tap_ok(i >= 0 && !strcmp(m.file[i].path, "/bin/mkfs.dup"),
	       "the first folder of BM_MKFS_PATH wins (%s)", i >= 0 ? m.file[i].path : "-");
	TAP_EQ_INT(bm_manifest_find(&m, "mkfs.btrfs"), -ENOENT, "a program nothing carries");
	TAP_EQ_INT(bm_manifest_find(&m, ""), -ENOENT, "an empty name");
}

static void prof(struct bm_fsprof *p, const char *name, const char *mkfs)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->mkfs, sizeof(p->mkfs), "%s", mkfs);
}

static void test_mkfs(void)
{
	const struct bm_manifest_arch *a = (void *)1;
	struct bm_fsprof p;
	char err[512] = "";

	prof(&p, "ext4", "mkfs.ext4 -F -q -E lazy_itable_init=0");
	tap_ok(!bm_manifest_mkfs(&m, &p, &a, err, sizeof(err)) && !a, "ext4: the base's");
	prof(&p, "jfs", "mkfs.jfs -q");
	tap_ok(!bm_manifest_mkfs(&m, &p, &a, err, sizeof(err)) && a &&
	       !strcmp(a->path, "/b/tools/jfs.cpio"), "jfs: the jfs archive");
	prof(&p, "reiserfs", "mkfs.reiserfs -q -f -f");
	TAP_EQ_INT(bm_manifest_mkfs(&m, &p, &a, err, sizeof(err)), -ENOENT,
		   "reiserfs, its archive not built: refused");
	TAP_EQ_STR(err, "mkfs.reiserfs is not in the image: install reiserfsprogs (make deps) "
		   "and run make", "the refusal names the program and the package");
	tap_ok(a == NULL, "no archive then");
	prof(&p, "btrfs", "mkfs.btrfs -f");
	TAP_EQ_INT(bm_manifest_mkfs(&m, &p, &a, err, sizeof(err)), -ENOENT, "btrfs: refused");
	tap_ok(strstr(err, "mkfs.btrfs is not in the image") && strstr(err, "initramfs/tools"),
	       "a program no list carries: named, and where a list goes (%s)", err);
	prof(&p, "x", "/usr/local/sbin/mkfs.jfs -q");
	TAP_EQ_INT(bm_manifest_mkfs(&m, &p, &a, err, sizeof(err)), -ENOENT,
		   "a path the image does not have: refused");
}

static void test_tool_file(void)
{
	char out[256];

	bm_initrd_tool_file("/b/base.cpio.zst", "/b/tools/jfs.cpio", out, sizeof(out));
	TAP_EQ_STR(out, "/b/tools/jfs.cpio.zst", "a zstd base takes the zstd archive");
	bm_initrd_tool_file("/b/base.cpio.xz", "/b/tools/jfs.cpio", out, sizeof(out));
	TAP_EQ_STR(out, "/b/tools/jfs.cpio.xz", "an xz base the xz one");
	bm_initrd_tool_file("/b/base.cpio", "/b/tools/jfs.cpio", out, sizeof(out));
	TAP_EQ_STR(out, "/b/tools/jfs.cpio", "an uncompressed base the cpio");
	TAP_EQ_STR(bm_initrd_zip_suffix("/b/base.cpio.gz"), ".gz", "gzip's suffix");
	TAP_EQ_STR(bm_initrd_zip_suffix("/b/basexz"), "", "no dot: no suffix");
	TAP_EQ_STR(bm_initrd_zip_suffix(".xz"), "", "a suffix alone is a name");
}

/* A manifest file on disk: paths from its own folder. */
static void test_load(void)
{
	char dir[] = "/tmp/bm-manifest-XXXXXX", path[128], err[256] = "";
	FILE *f;

	if (!mkdtemp(dir))
		tap_bail("mkdtemp failed");
	snprintf(path, sizeof(path), "%s/base.manifest", dir);
	TAP_EQ_INT(bm_manifest_load(&m, path, err, sizeof(err)), -ENOENT, "no file: -ENOENT");
	f = fopen(path, "w");
	if (!f || fputs(good, f) < 0 || fclose(f))
		tap_bail("cannot write the manifest");
	TAP_EQ_INT(bm_manifest_load(&m, path, err, sizeof(err)), 0, "loads");
	tap_ok(!strncmp(m.arch[1].path, dir, strlen(dir)) &&
	       !strcmp(m.arch[1].path + strlen(dir), "/tools/jfs.cpio"),
	       "archive paths beside the manifest (%s)", m.arch[1].path);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	tap_plan(0);
	test_name();
	test_parse();
	test_bad();
	test_find();
	test_mkfs();
	test_tool_file();
	test_load();
	return tap_done();
}
