/* initramfs/modclosure.c: closures over a small fake modules tree written here,
 * and over a real Debian tree: bootmark's cached 6.1 kernel (tests/testkernel.h). */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpio.h"
#include "list.h"
#include "modclosure.h"
#include "tap.h"
#include "testkernel.h"
#include "util.h"

#define REL "9.9.9-test"
static char tmp[] = "/tmp/bm-modclosure-test.XXXXXX";

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static void put(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/root/lib/modules/" REL "/%s", tmp, rel);
	for (char *s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		printf("Bail out! cannot write %s\n", path);
		exit(1);
	}
}

/* a-fs needs b_lib and c (c also through b_lib); c has a softdep on an alias
 * that two modules provide and on one nothing provides; ext9 is builtin. */
static void make_tree(void)
{
	static const char *const files[] = {
		"kernel/fs/a-fs/a-fs.ko.xz", "kernel/lib/b_lib.ko.xz", "kernel/lib/c.ko.xz",
		"kernel/crypto/hash_generic.ko.xz", "kernel/crypto/hash-fast.ko.xz",
		"kernel/drivers/unrelated.ko.xz", "kernel/drivers/gone.ko.xz",
	};

	put("modules.dep",
	    "kernel/fs/a-fs/a-fs.ko.xz: kernel/lib/b_lib.ko.xz kernel/lib/c.ko.xz\n"
	    "kernel/lib/b_lib.ko.xz: kernel/lib/c.ko.xz\n"
	    "kernel/lib/c.ko.xz:\n"
	    "kernel/crypto/hash_generic.ko.xz:\n"
	    "kernel/crypto/hash-fast.ko.xz:\n"
	    "kernel/drivers/unrelated.ko.xz:\n"
	    "kernel/drivers/gone.ko.xz:\n"
	    "kernel/drivers/lost.ko.xz:\n");
	put("modules.softdep",
	    "# comment\n"
	    "softdep c pre: crypto-hash post: no-such-thing\n"
	    "softdep unrelated pre: c\n");
	put("modules.alias",
	    "# Aliases extracted from modules themselves.\n"
	    "alias crypto-hash hash_generic\n"
	    "alias crypto-hash hash_fast\n"
	    "alias fs-a a-fs\n"
	    "alias pci:v00001234d* unrelated\n");
	put("modules.builtin", "kernel/fs/ext9/ext9.ko\nkernel/lib/crc-x.ko\n");
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		put(files[i], "module bytes\n");
}

/* Runs the closure; the list lands in *out (caller frees). */
static int closure(const char *names, char **out, char *err, size_t errlen)
{
	const char *wanted[8];
	char buf[256], root[512], stage[512];
	unsigned n = 0;
	size_t len;
	FILE *f;
	int rc;

	snprintf(buf, sizeof(buf), "%s", names);
	for (char *t = strtok(buf, ","); t && n < 8; t = strtok(NULL, ","))
		wanted[n++] = t;
	snprintf(root, sizeof(root), "%s/root", tmp);
	snprintf(stage, sizeof(stage), "%s/stage", tmp);
	f = open_memstream(out, &len);
	rc = bm_modules_list(root, REL, wanted, n, NULL, 0, stage, f, err, errlen);
	fclose(f);
	return rc;
}

static int has_file(const char *list, const char *rel)
{
	char line[512];

	snprintf(line, sizeof(line), "file /lib/modules/" REL "/%s ", rel);
	return strstr(list, line) != NULL;
}

static int count_files(const char *list)
{
	int n = 0;

	for (const char *p = list; (p = strstr(p, "file ")); p++)
		n += p == list || p[-1] == '\n';
	return n;
}

static char *staged(const char *name)
{
	static char text[4096];
	char path[512];
	FILE *f;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/stage/%s", tmp, name);
	f = fopen(path, "r");
	if (f) {
		n = fread(text, 1, sizeof(text) - 1, f);
		fclose(f);
	}
	text[n] = '\0';
	return text;
}

static void test_fake_tree(void)
{
	char *list = NULL, err[1024] = "";
	int rc = closure("a_fs", &list, err, sizeof(err));

	tap_ok(rc == 0, "closure of a_fs (%s)", rc ? err : "ok");
	tap_ok(rc == 0 && has_file(list, "kernel/fs/a-fs/a-fs.ko.xz") &&
	       has_file(list, "kernel/lib/b_lib.ko.xz") && has_file(list, "kernel/lib/c.ko.xz"),
	       "modules.dep followed: a-fs, b_lib, c");
	tap_ok(rc == 0 && has_file(list, "kernel/crypto/hash_generic.ko.xz") &&
	       has_file(list, "kernel/crypto/hash-fast.ko.xz"),
	       "softdep through an alias brings every module the alias names");
	tap_ok(rc == 0 && !has_file(list, "kernel/drivers/unrelated.ko.xz") &&
	       count_files(list) == 5 + 4, "nothing else: 5 modules and 4 index files");
	tap_ok(rc == 0 && strstr(list, "dir /lib 0755 0 0\n") &&
	       strstr(list, "dir /lib/modules/" REL "/kernel/fs/a-fs 0755 0 0\n") &&
	       strstr(list, "file /lib/modules/" REL "/modules.dep ") &&
	       strstr(list, "/stage/modules.dep 0644 0 0\n"),
	       "parent directories and staged index files are listed");
	tap_ok(!strcmp(staged("modules.dep"),
		       "kernel/fs/a-fs/a-fs.ko.xz: kernel/lib/b_lib.ko.xz kernel/lib/c.ko.xz\n"
		       "kernel/lib/b_lib.ko.xz: kernel/lib/c.ko.xz\n"
		       "kernel/lib/c.ko.xz:\n"
		       "kernel/crypto/hash_generic.ko.xz:\n"
		       "kernel/crypto/hash-fast.ko.xz:\n"),
	       "staged modules.dep keeps the closure in the original order");
	tap_ok(strstr(staged("modules.softdep"), "\nsoftdep c pre: crypto-hash\n") &&
	       !strstr(staged("modules.softdep"), "unrelated") &&
	       !strstr(staged("modules.softdep"), "no-such-thing"),
	       "staged modules.softdep drops names and modules not packed");
	tap_ok(strstr(staged("modules.alias"), "alias fs-a a-fs\n") &&
	       !strstr(staged("modules.alias"), "unrelated"), "staged modules.alias trimmed");
	TAP_EQ_STR(staged("modules.builtin"), "kernel/fs/ext9/ext9.ko\nkernel/lib/crc-x.ko\n",
		   "staged modules.builtin is whole");
	if (rc == 0) {
		struct bm_cpio c;
		FILE *f = fmemopen(list, strlen(list), "r");

		bm_cpio_init(&c);
		rc = bm_list_parse(&c, f, "modules.list", err, sizeof(err));
		tap_ok(rc == 0, "the printed list parses as an initramfs list (%s)", rc ? err : "ok");
		fclose(f);
		bm_cpio_free(&c);
	}
	free(list);
}

static void test_names(void)
{
	char *list = NULL, err[1024] = "";
	int rc;

	rc = closure("a-fs", &list, err, sizeof(err));
	tap_ok(rc == 0 && has_file(list, "kernel/fs/a-fs/a-fs.ko.xz") && count_files(list) == 9,
	       "'-' and '_' name the same module");
	free(list);
	rc = closure("hash-generic", &list, err, sizeof(err));
	tap_ok(rc == 0 && has_file(list, "kernel/crypto/hash_generic.ko.xz") && count_files(list) == 5,
	       "hash-generic finds hash_generic.ko.xz alone");
	free(list);
	rc = closure("fs-a", &list, err, sizeof(err));
	tap_ok(rc == 0 && has_file(list, "kernel/fs/a-fs/a-fs.ko.xz"), "a wanted alias resolves");
	free(list);
	rc = closure("ext9,crc_x", &list, err, sizeof(err));
	tap_ok(rc == 0 && count_files(list) == 4, "builtin modules need no file (%s)", rc ? err : "ok");
	free(list);
	err[0] = '\0';
	rc = closure("c,nosuch", &list, err, sizeof(err));
	tap_ok(rc == -ENOENT && strstr(err, "nosuch"), "a missing module is an error naming it (%s)", err);
	free(list);
	rc = closure("c,nosuch?", &list, err, sizeof(err));
	tap_ok(rc == 0 && has_file(list, "kernel/lib/c.ko.xz"), "a missing optional module is skipped");
	free(list);
	err[0] = '\0';
	rc = closure("lost", &list, err, sizeof(err));
	tap_ok(rc == -ENOENT && strstr(err, "lost.ko.xz"), "a module file missing on disk is an error (%s)", err);
	free(list);
	list = NULL;
	{
		const char *w[] = { "c" };
		FILE *f = open_memstream(&list, &(size_t){ 0 });

		rc = bm_modules_list(tmp, "../x", w, 1, NULL, 0, tmp, f, err, sizeof(err));
		fclose(f);
		TAP_EQ_INT(rc, -EINVAL, "a release with '/' is refused");
		free(list);
	}
}

/* The Debian 6.1 kernel of bootmark's cache, fetched when missing. */
static void test_real_tree(void)
{
	static const char *const need[] = {
		"/jbd2.ko.xz", "/mbcache.ko.xz", "/crc16.ko.xz", "/libcrc32c.ko.xz",
		"/crc32c_generic.ko.xz", "/ext4.ko.xz", "/xfs.ko.xz", "/virtio_blk.ko.xz",
	};
	const char *wanted[] = { "ext4", "xfs", "virtio_blk" };
	char *list = NULL, err[1024] = "", stage[512], why[600];
	struct bm_kernel kern;
	size_t len;
	int rc, all = 1;
	FILE *f;

	if (tk_kernel("6.1.0-53-amd64", &kern, why, sizeof(why))) {
		tap_skip(why, "real closure of ext4,xfs,virtio_blk");
		return;
	}
	snprintf(stage, sizeof(stage), "%s/real", tmp);
	f = open_memstream(&list, &len);
	rc = bm_modules_list(kern.modroot, kern.release, wanted, 3, NULL, 0, stage, f, err, sizeof(err));
	fclose(f);
	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
		char line[64];

		snprintf(line, sizeof(line), "%s ", need[i]);
		if (rc || !strstr(list, line)) {
			tap_diag("missing %s", need[i]);
			all = 0;
		}
	}
	tap_ok(rc == 0 && all, "real closure of ext4,xfs,virtio_blk has jbd2, mbcache, crc16, "
	       "libcrc32c, crc32c_generic, xz-compressed: 6.1 ships .ko (%s)", rc ? err : "ok");
	free(list);
}

/* Runs a closure with plain[] over the tree under tmp/root into stage_name. */
static int closure_plain(const char *const *wanted, unsigned n, const char *const *plain,
			 unsigned np, const char *root, const char *rel, const char *stage_name,
			 char **out, char *err, size_t errlen)
{
	char stage[512];
	size_t len;
	FILE *f;
	int rc;

	snprintf(stage, sizeof(stage), "%s/%s", tmp, stage_name);
	f = open_memstream(out, &len);
	rc = bm_modules_list(root, rel, wanted, n, plain, np, stage, f, err, errlen);
	fclose(f);
	return rc;
}

/* xz-compresses tmp/root/.../rel.ko into rel.ko.xz; 0, or -1 without xz. */
static int xz_module(const char *rel)
{
	char src[512], dst[520];
	char *argv[] = { "xz", "-c", "--", src, NULL };

	snprintf(src, sizeof(src), "%s/root/lib/modules/" REL "/%s", tmp, rel);
	snprintf(dst, sizeof(dst), "%s.xz", src);
	if (bm_run_to_file(argv, dst))
		return -1;
	return unlink(src);
}

/* dir/name decompressed by xz, as text ("" when it fails) */
static const char *unxz(const char *dir, const char *name)
{
	static char text[4096];
	char path[512], *out = NULL;
	char *argv[] = { "xz", "-dc", "--", path, NULL };
	size_t n = 0;
	int status = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	text[0] = '\0';
	if (!bm_run_prog(argv, NULL, -1, &out, &n, &status) && !status && n < sizeof(text))
		memcpy(text, out, n + 1);
	free(out);
	return text;
}

/* Boot modules carried uncompressed: decompressed into the stage, named
 * without the suffix in the list and in modules.dep, dependencies too. */
static void test_plain(void)
{
	const char *wanted[] = { "vblk", "other", "raw" }, *plain[] = { "vblk" };
	const char *plain2[] = { "raw", "vblk" };
	const char *raw_first = "/lib/modules/" REL "/kernel/drivers/raw.ko:";
	const char *bad[] = { "c" };
	char *list = NULL, err[1024] = "", root[512];
	int rc;

	put("kernel/drivers/vring.ko", "vring bytes\n");
	put("kernel/drivers/vblk.ko", "vblk bytes ~Module signature appended~\n");
	put("kernel/drivers/other.ko.xz", "other bytes\n");
	put("kernel/drivers/raw.ko", "raw bytes\n");
	if (xz_module("kernel/drivers/vring.ko") || xz_module("kernel/drivers/vblk.ko")) {
		tap_skip("no xz (apt-get install xz-utils)", "boot modules uncompressed");
		return;
	}
	put("modules.dep",
	    "kernel/drivers/vblk.ko.xz: kernel/drivers/vring.ko.xz\n"
	    "kernel/drivers/vring.ko.xz:\n"
	    "kernel/drivers/other.ko.xz: kernel/drivers/vring.ko.xz\n"
	    "kernel/drivers/raw.ko: kernel/drivers/vring.ko.xz\n"
	    "kernel/lib/c.ko.xz:\n");
	snprintf(root, sizeof(root), "%s/root", tmp);
	rc = closure_plain(wanted, 3, plain, 1, root, REL, "pstage", &list, err, sizeof(err));
	tap_ok(rc == 0 && has_file(list, "kernel/drivers/vblk.ko") &&
	       has_file(list, "kernel/drivers/vring.ko") &&
	       has_file(list, "kernel/drivers/other.ko.xz") &&
	       !has_file(list, "kernel/drivers/vblk.ko.xz"),
	       "plain vblk: vblk.ko and its vring.ko listed uncompressed, other.ko.xz as is (%s)",
	       rc ? err : "ok");
	tap_ok(rc == 0 && !strcmp(staged("../pstage/vblk.ko"),
				  "vblk bytes ~Module signature appended~\n"),
	       "the staged vblk.ko is the module's bytes");
	tap_ok(rc == 0 && strstr(staged("../pstage/modules.dep"),
				 "kernel/drivers/vblk.ko: kernel/drivers/vring.ko\n") &&
	       strstr(staged("../pstage/modules.dep"),
		      "kernel/drivers/other.ko.xz: kernel/drivers/vring.ko\n"),
	       "modules.dep names the plain files, as dependencies too");
	tap_ok(rc == 0 && has_file(list, "kernel/drivers/raw.ko.xz") &&
	       !strcmp(unxz(tmp, "pstage/raw.ko.xz"), "raw bytes\n") &&
	       strstr(staged("../pstage/modules.dep"),
		      "kernel/drivers/raw.ko.xz: kernel/drivers/vring.ko\n"),
	       "an uncompressed module that is not a boot module goes in as .ko.xz");
	tap_ok(rc == 0 && !strcmp(staged("../pstage/boot/modules.dep"),
				  "/lib/modules/" REL "/kernel/drivers/vblk.ko: /lib/modules/" REL
				  "/kernel/drivers/vring.ko\n/lib/modules/" REL
				  "/kernel/drivers/vring.ko:\n") &&
	       has_file(list, "boot/modules.dep") && has_file(list, "boot/modules.builtin") &&
	       !strcmp(staged("../pstage/boot/modules.builtin"), ""),
	       "the boot index: the boot modules and what they need, paths in full (%s)",
	       rc ? err : "ok");
	free(list);
	list = NULL;
	rc = closure_plain(wanted, 3, plain2, 2, root, REL, "p2stage", &list, err, sizeof(err));
	tap_ok(rc == 0 && !strncmp(staged("../p2stage/boot/modules.dep"), raw_first,
				   strlen(raw_first)) &&
	       strstr(staged("../p2stage/boot/modules.dep"),
		      ".ko\n/lib/modules/" REL "/kernel/drivers/vblk.ko:") &&
	       strstr(staged("../p2stage/boot/modules.dep"),
		      ".ko\n/lib/modules/" REL "/kernel/drivers/vring.ko:\n"),
	       "the boot index lists what the configuration names first, in its order (%s)",
	       rc ? err : "ok");
	free(list);
	list = NULL;
	rc = closure_plain(wanted, 3, NULL, 0, root, REL, "nstage", &list, err, sizeof(err));
	tap_ok(rc == 0 && has_file(list, "modules.dep") && !strstr(list, "/boot/"),
	       "no boot modules, no boot index (%s)", rc ? err : "ok");
	free(list);
	list = NULL;
	put("kernel/lib/c.ko.xz", "not xz\n");
	rc = closure_plain(bad, 1, bad, 1, root, REL, "bstage", &list, err, sizeof(err));
	tap_ok(rc != 0 && strstr(err, "cannot decompress") && strstr(err, "c.ko.xz"),
	       "a module that does not decompress is an error naming it: %s", err);
	free(list);
}

/* Debian 6.12 ships .ko.xz: its virtio_blk, carried uncompressed, is the signed module. */
static void test_plain_real(void)
{
	const char *wanted[] = { "virtio_blk", "ext4" }, *plain[] = { "virtio_blk" };
	const char *plain2[] = { "virtio_pci", "virtio_blk" };
	char *list = NULL, err[1024] = "", why[600], line[600];
	struct bm_kernel kern;
	int rc;

	if (tk_kernel("6.12.117+deb12-amd64", &kern, why, sizeof(why))) {
		tap_skip(why, "6.12 virtio_blk uncompressed");
		return;
	}
	rc = closure_plain(wanted, 2, plain, 1, kern.modroot, kern.release, "rstage", &list,
			   err, sizeof(err));
	snprintf(line, sizeof(line), "file /lib/modules/%s/kernel/drivers/block/virtio_blk.ko ",
		 kern.release);
	tap_ok(rc == 0 && strstr(list, line) && strstr(list, "ext4.ko.xz ") &&
	       strstr(staged("../rstage/virtio_blk.ko"), "\177ELF") &&
	       strstr(staged("../rstage/modules.dep"), "kernel/drivers/block/virtio_blk.ko:\n"),
	       "6.12: virtio_blk.ko uncompressed (an ELF file), ext4.ko.xz as shipped (%s)",
	       rc ? err : "ok");
	free(list);
	list = NULL;
	rc = closure_plain(wanted, 2, plain2, 2, kern.modroot, kern.release, "r2stage", &list,
			   err, sizeof(err));
	snprintf(line, sizeof(line), "/lib/modules/%s/kernel/drivers/block/virtio_blk.ko:\n",
		 kern.release);
	tap_ok(rc == 0 && !strcmp(staged("../r2stage/boot/modules.dep"), line) &&
	       !strcmp(staged("../r2stage/boot/modules.builtin"),
		       "kernel/drivers/virtio/virtio_pci.ko\n") &&
	       !strstr(staged("../r2stage/boot/modules.alias"), "ext4"),
	       "6.12 boot index: virtio_blk, and virtio_pci the one builtin line it looks up (%s)",
	       rc ? err : "ok");
	free(list);
}

int main(void)
{
	tap_plan(0);
	if (!mkdtemp(tmp)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	make_tree();
	test_fake_tree();
	test_names();
	test_real_tree();
	test_plain();
	test_plain_real();
	nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return tap_done();
}
