// SPDX-License-Identifier: MIT
/* common/moddb.c + runner/modules/modplan.c: index parsing and load order on a fake module tree. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "modload.h"
#include "tap.h"
#include "testkernel.h"

static char dir[] = "/tmp/bm-modload-XXXXXX";

static void put(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		tap_bail("cannot write the fake module tree");
	fputs(text, f);
	fclose(f);
}

static void cleanup(void)
{
	const char *files[] = { "modules.dep", "modules.softdep", "modules.alias",
				"modules.builtin" };
	char path[256];
	size_t i;

	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}

/* "a b c" of the plan's module names, '*' marking optional steps. */
static void order(const struct bm_moddb *mi, const struct mod_plan *p, char *out, size_t len)
{
	size_t i, used = 0;

	out[0] = '\0';
	for (i = 0; i < p->n; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%s%s", i ? " " : "",
					 mi->mods[p->step[i].mod].name,
					 p->step[i].optional ? "*" : "");
}

static void plan(const struct bm_moddb *mi, const char *list, int want_ret,
		 const char *want)
{
	struct mod_plan p;
	char got[512], err[256] = "";
	int ret;

	mod_plan_init(&p);
	ret = mod_plan_add_list(mi, &p, list, err, sizeof(err));
	order(mi, &p, got, sizeof(got));
	tap_ok(ret == want_ret && (want_ret || !strcmp(got, want)),
	       "plan %s -> [%s] (ret %d%s%s)", list, got, ret, err[0] ? ", " : "", err);
	mod_plan_free(&p);
}

static void fake_tree(void)
{
	put("modules.dep",
	    "kernel/fs/ext4/ext4.ko.xz: kernel/lib/crc16.ko.xz kernel/fs/mbcache.ko.xz kernel/fs/jbd2/jbd2.ko.xz\n"
	    "kernel/fs/jbd2/jbd2.ko.xz:\n"
	    "kernel/fs/mbcache.ko.xz:\n"
	    "kernel/lib/crc16.ko.xz:\n"
	    "kernel/fs/xfs/xfs.ko.xz: kernel/lib/libcrc32c.ko.xz\n"
	    "kernel/lib/libcrc32c.ko.xz:\n"
	    "kernel/arch/x86/crypto/crc32c-intel.ko.xz:\n"
	    "kernel/crypto/crc32c_generic.ko.xz:\n"
	    "kernel/drivers/block/virtio_blk.ko.xz: kernel/drivers/virtio/virtio_ring.ko.xz kernel/drivers/virtio/virtio.ko.xz\n"
	    "kernel/drivers/virtio/virtio_ring.ko.xz: kernel/drivers/virtio/virtio.ko.xz\n"
	    "kernel/drivers/virtio/virtio.ko.xz:\n"
	    "kernel/fs/broken.ko: kernel/fs/missing.ko\n");
	put("modules.softdep",
	    "# Soft dependencies extracted from modules themselves.\n"
	    "softdep ext4 pre: crypto-crc32c\n"
	    "softdep jbd2 pre: crypto-crc32c\n"
	    "softdep cifs gcm\n"
	    "softdep libcrc32c pre: crc32c\n"
	    "softdep virtio_blk post: nosuchthing\n");
	put("modules.alias",
	    "# Aliases extracted from modules themselves.\n"
	    "alias crypto-crc32c-intel crc32c_intel\n"
	    "alias crypto-crc32c crc32c_intel\n"
	    "alias crypto-crc32c crc32c_generic\n"
	    "alias fs-xfs xfs\n"
	    "alias ext3 ext4\n"
	    "alias virtio:d00000002v* virtio_blk\n");
	put("modules.builtin", "kernel/drivers/virtio/virtio_pci.ko\nkernel/lib/crc-t10dif.ko\n");
}

static void test_fake(void)
{
	struct bm_moddb mi;
	char err[256] = "";

	fake_tree();
	TAP_EQ_INT(bm_moddb_load(&mi, dir, err, sizeof(err)), 0, "fake index loads");
	TAP_EQ_INT(mi.nmods, 12, "12 modules");
	tap_ok(bm_moddb_lookup(&mi, "crc32c-intel") != NULL, "dash and underscore are the same");
	tap_ok(bm_moddb_builtin_lookup(&mi, "crc_t10dif"), "builtin by normalised name");
	plan(&mi, "ext4", 0, "crc32c_intel* crc32c_generic* jbd2 mbcache crc16 ext4");
	plan(&mi, "fs-xfs", 0, "crc32c_intel* crc32c_generic* libcrc32c xfs");
	plan(&mi, "virtio_pci,virtio_blk", 0, "virtio virtio_ring virtio_blk");
	plan(&mi, "virtio:d00000002v00001AF4", 0, "virtio virtio_ring virtio_blk");
	plan(&mi, "ext3,ext4", 0, "crc32c_intel* crc32c_generic* jbd2 mbcache crc16 ext4");
	plan(&mi, "virtio_pci", 0, "");
	plan(&mi, "nosuchmodule", -ENOENT, NULL);
	plan(&mi, "broken", -ENOENT, NULL);
	bm_moddb_free(&mi);

	put("modules.dep", "");
	TAP_EQ_INT(bm_moddb_load(&mi, dir, err, sizeof(err)), 0, "empty index loads");
	bm_moddb_free(&mi);
	unlink(strcat(strcpy(err, dir), "/modules.dep"));
	tap_ok(bm_moddb_load(&mi, dir, err, sizeof(err)) == -ENOENT && strstr(err, "modules.dep"),
	       "missing modules.dep named: %s", err);
	bm_moddb_free(&mi);
}

/* The Debian trees of bootmark's kernel cache (fetched when missing): the
 * real files parse and plan. */
static void test_real(const char *release, const char *ext)
{
	char path[PATH_MAX + 64], err[256] = "", want[256], why[600];
	struct bm_kernel kern;
	struct bm_moddb mi;
	struct mod_plan p;
	int ret;

	if (tk_kernel(release, &kern, why, sizeof(why))) {
		tap_skip(why, "real tree %s", release);
		return;
	}
	snprintf(path, sizeof(path), "%s/lib/modules/%s", kern.modroot, release);
	ret = bm_moddb_load(&mi, path, err, sizeof(err));
	TAP_EQ_INT(ret, 0, release);
	if (ret) {
		bm_moddb_free(&mi);
		return;
	}
	mod_plan_init(&p);
	ret = mod_plan_add_list(&mi, &p, "virtio_pci,virtio_blk,ext4,xfs", err, sizeof(err));
	order(&mi, &p, want, sizeof(want));
	tap_ok(!ret && strstr(want, "jbd2 mbcache crc16 ext4") && strstr(want, "libcrc32c xfs"),
	       "%s plan: %s %s", release, want, err);
	tap_ok(p.n && strstr(mi.mods[p.step[p.n - 1].mod].path, ext) != NULL,
	       "%s modules end in %s", release, ext);
	mod_plan_free(&p);
	bm_moddb_free(&mi);
}

int main(void)
{
	tap_plan(0);
	if (!mkdtemp(dir))
		tap_bail("mkdtemp failed");
	test_fake();
	cleanup();
	test_real("6.1.0-53-amd64", ".ko");
	test_real("6.12.117+deb12-amd64", ".ko.xz");
	return tap_done();
}
