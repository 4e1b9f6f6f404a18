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
	rc = bm_modules_list(root, REL, wanted, n, stage, f, err, errlen);
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

		rc = bm_modules_list(tmp, "../x", w, 1, tmp, f, err, sizeof(err));
		fclose(f);
		TAP_EQ_INT(rc, -EINVAL, "a release with '/' is refused");
		free(list);
	}
}

/* The Debian 6.1 kernel of bootmark's cache, fetched when missing. */
static void test_real_tree(void)
{
	static const char *const need[] = {
		"/jbd2.ko", "/mbcache.ko", "/crc16.ko", "/libcrc32c.ko", "/crc32c_generic.ko",
		"/ext4.ko", "/xfs.ko", "/virtio_blk.ko",
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
	rc = bm_modules_list(kern.modroot, kern.release, wanted, 3, stage, f, err, sizeof(err));
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
	       "libcrc32c, crc32c_generic (%s)", rc ? err : "ok");
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
	nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return tap_done();
}
