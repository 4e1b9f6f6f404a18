// SPDX-License-Identifier: MIT
/* common/moddb.c + runner/modules/modplan.c: index parsing and load order on a fake module tree. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "modclosure.h"
#include "modload.h"
#include "tap.h"
#include "util.h"
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

	for (i = 0; i < 8; i++) {
		snprintf(path, sizeof(path), "%s/%s%s", dir, i < 4 ? "" : "boot/", files[i % 4]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/boot", dir);
	rmdir(path);
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

/* mod_plan_run with a fake load that checks, as each module starts, that
 * what it needs is done, and keeps the order and the peak of loads at once. */
struct fake {
	pthread_mutex_t mu;
	const struct mod_plan *p;
	unsigned char *state;     /* per module: 0, 1 loading, 2 done */
	int *loads, inflight, peak, bad;
	char seq[512];
	const char *fail;         /* this module's load fails with -ENOEXEC */
};

static int fake_load(void *ctx, const struct bm_moddb *db, const struct bm_mod *m)
{
	struct fake *f = ctx;
	const struct bm_mod *d;
	size_t idx = (size_t)(m - db->mods), i;
	unsigned k;

	pthread_mutex_lock(&f->mu);
	for (k = 0; k < m->ndeps; k++) {
		d = bm_moddb_lookup(db, m->deps[k]);
		f->bad += d && f->state[d - db->mods] != 2;
	}
	for (i = 0; i < f->p->n && f->p->step[i].mod != idx; i++)
		;
	/* a softdep's step: after every earlier one */
	for (k = 0; i < f->p->n && f->p->step[i].after_all && k < i; k++)
		f->bad += f->state[f->p->step[k].mod] != 2;
	f->loads[idx]++;
	f->state[idx] = 1;
	if (++f->inflight > f->peak)
		f->peak = f->inflight;
	snprintf(f->seq + strlen(f->seq), sizeof(f->seq) - strlen(f->seq), "%s%s",
		 f->seq[0] ? " " : "", m->name);
	pthread_mutex_unlock(&f->mu);
	usleep(20000);  /* long enough for the other threads to start theirs */
	pthread_mutex_lock(&f->mu);
	f->state[idx] = 2;
	f->inflight--;
	pthread_mutex_unlock(&f->mu);
	return f->fail && !strcmp(m->name, f->fail) ? -ENOEXEC : 0;
}

/* Runs list's plan on nthreads; ret, and the fake's record in f. */
static int fake_run(const struct bm_moddb *mi, const char *list, unsigned nthreads,
		    const char *fail, struct fake *f, char *err, size_t errlen)
{
	struct mod_plan p;
	int ret;

	memset(f, 0, sizeof(*f));
	f->state = calloc(mi->nmods + 1, 1);
	f->loads = calloc(mi->nmods + 1, sizeof(*f->loads));
	if (!f->state || !f->loads)
		tap_bail("out of memory");
	pthread_mutex_init(&f->mu, NULL);
	f->fail = fail;
	f->p = &p;
	mod_plan_init(&p);
	ret = mod_plan_add_list(mi, &p, list, err, errlen);
	if (!ret)
		ret = mod_plan_run(mi, &p, nthreads, fake_load, f, err, errlen);
	mod_plan_free(&p);
	pthread_mutex_destroy(&f->mu);
	free(f->state);  /* the counts stay for the checks */
	f->state = NULL;
	return ret;
}

static int loaded_once(const struct fake *f, size_t nmods, const struct bm_moddb *mi,
		       const char *names)
{
	size_t i;
	int n = 0;

	for (i = 0; i < nmods; i++) {
		if (f->loads[i] > 1)
			return 0;
		n += f->loads[i];
		if (f->loads[i] && !strstr(names, mi->mods[i].name))
			return 0;
	}
	return n;
}

static void test_run(void)
{
	struct bm_moddb mi;
	struct fake f;
	char err[256] = "";
	int ret;

	fake_tree();
	if (bm_moddb_load(&mi, dir, err, sizeof(err)))
		tap_bail("the fake index does not load");
	ret = fake_run(&mi, "ext4,virtio_blk", 4, NULL, &f, err, sizeof(err));
	tap_ok(!ret && !f.bad && loaded_once(&f, mi.nmods, &mi, "crc32c_intel crc32c_generic "
		"jbd2 mbcache crc16 ext4 virtio virtio_ring virtio_blk") == 9,
	       "4 threads: all 9 once, each after what it needs (%s; %d out of order)", f.seq,
	       f.bad);
	tap_ok(f.peak >= 2, "4 threads: loads at once: %d", f.peak);
	free(f.loads);
	ret = fake_run(&mi, "ext4,virtio_blk", 1, NULL, &f, err, sizeof(err));
	tap_ok(!ret && f.peak == 1 && !strcmp(f.seq, "crc32c_intel crc32c_generic jbd2 mbcache "
		"crc16 ext4 virtio virtio_ring virtio_blk"), "1 thread: the plan's order: %s", f.seq);
	free(f.loads);
	ret = fake_run(&mi, "ext4,virtio_blk", 4, "jbd2", &f, err, sizeof(err));
	tap_ok(ret == -ENOEXEC && strstr(err, "cannot load module jbd2") &&
	       !strstr(f.seq, "ext4") && !f.bad,
	       "a required module fails: its error, nothing that needs it loads (%s; %s)", err,
	       f.seq);
	free(f.loads);
	err[0] = '\0';
	ret = fake_run(&mi, "ext4", 2, "crc32c_intel", &f, err, sizeof(err));
	tap_ok(!ret && strstr(f.seq, "ext4") && !err[0],
	       "an optional module fails: logged, the rest loads (%s)", f.seq);
	free(f.loads);
	bm_moddb_free(&mi);
}

/* The boot modules of a real tree on 4 threads: in order, and at once where
 * modules.dep allows (6.1: virtio, virtio_ring and the virtio_pci_*_dev
 * libraries need nothing; 6.12 has only virtio_blk outside the kernel). */
static void run_real(const struct bm_moddb *mi, const char *release)
{
	struct fake f;
	char err[256] = "";
	int ret;

	ret = fake_run(mi, "virtio_pci,virtio_blk", 4, NULL, &f, err, sizeof(err));
	free(f.loads);
	tap_ok(!ret && !f.bad && (strncmp(release, "6.1.", 4) || f.peak >= 2),
	       "%s boot modules on 4 threads: %s (%d out of order, %d at once) %s", release,
	       f.seq, f.bad, f.peak, err);
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
	run_real(&mi, release);
	bm_moddb_free(&mi);
}

/* The preload's fake finit: records the order, checks the boot index names
 * every module in full, fails for preload_fail; sets the loaded flag (ctx). */
static char preload_seq[512];
static const char *preload_fail;
static int preload_bad_path;

static int preload_load(void *ctx, const struct bm_moddb *db, const struct bm_mod *m)
{
	unsigned char *loaded = ctx;
	static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

	pthread_mutex_lock(&mu);
	preload_bad_path += m->path[0] != '/';
	snprintf(preload_seq + strlen(preload_seq), sizeof(preload_seq) - strlen(preload_seq),
		 "%s%s", preload_seq[0] ? " " : "", m->name);
	pthread_mutex_unlock(&mu);
	if (preload_fail && !strcmp(m->name, preload_fail))
		return -ENOEXEC;
	loaded[m - db->mods] = 1;
	return 0;
}

static int preload(struct mod_preload *pl, const char *from, const char *fail)
{
	preload_seq[0] = '\0';
	preload_fail = fail;
	preload_bad_path = 0;
	return mod_preload_run(pl, from, preload_load);
}

/* mod_preload_*: a boot index loads whole; the configuration's list is
 * covered only by what it loaded; no index, a failure, a command line that
 * names modules: the normal path. */
static void test_preload(void)
{
	struct mod_preload pl;
	char path[300];
	int ret;

	fake_tree();
	snprintf(path, sizeof(path), "%s/boot", dir);
	ret = preload(&pl, dir, NULL);
	tap_ok(ret == -ENOENT && !pl.ran && !mod_preload_covers(&pl, "virtio_blk"),
	       "no boot index: nothing loaded, the normal path (%d)", ret);
	mod_preload_free(&pl);
	if (mkdir(path, 0755))
		tap_bail("cannot make the boot index");
	put("boot/modules.dep",
	    "/lib/modules/x/kernel/drivers/block/virtio_blk.ko: "
	    "/lib/modules/x/kernel/drivers/virtio/virtio_ring.ko "
	    "/lib/modules/x/kernel/drivers/virtio/virtio.ko\n"
	    "/lib/modules/x/kernel/drivers/virtio/virtio_ring.ko: "
	    "/lib/modules/x/kernel/drivers/virtio/virtio.ko\n"
	    "/lib/modules/x/kernel/drivers/virtio/virtio.ko:\n");
	put("boot/modules.builtin", "kernel/drivers/virtio/virtio_pci.ko\n");
	ret = preload(&pl, dir, NULL);
	tap_ok(!ret && pl.ran && !strcmp(preload_seq, "virtio virtio_ring virtio_blk") &&
	       !preload_bad_path,
	       "the boot index loads whole, dependencies first, paths in full: %s", preload_seq);
	tap_ok(mod_preload_covers(&pl, "virtio_pci,virtio_blk") &&
	       mod_preload_covers(&pl, "virtio_blk"),
	       "the configuration's modules are covered (virtio_pci builtin)");
	tap_ok(!mod_preload_covers(&pl, "virtio_blk,ext4") && !mod_preload_covers(&pl, "nvme"),
	       "a module outside the boot index is not: the whole index plans it");
	mod_preload_free(&pl);
	ret = preload(&pl, dir, "virtio_ring");
	tap_ok(ret == -ENOEXEC && !pl.ran && !mod_preload_covers(&pl, "virtio_blk") &&
	       !strstr(preload_seq, "virtio_blk"),
	       "a module that fails: not covered, the normal path reports it (%s)", preload_seq);
	mod_preload_free(&pl);
	/* the boot thread's two halves: plan before the command line is known */
	preload_seq[0] = '\0';
	preload_fail = NULL;
	ret = mod_preload_plan(&pl, dir);
	tap_ok(!ret && pl.planned && !pl.ran && !preload_seq[0] && pl.plan.n == 3 &&
	       !mod_preload_covers(&pl, "virtio_blk"),
	       "planned, nothing loaded yet, nothing covered (%d, %zu steps)", ret, pl.plan.n);
	ret = mod_preload_load(&pl, preload_load);
	tap_ok(!ret && pl.ran && !strcmp(preload_seq, "virtio virtio_ring virtio_blk") &&
	       mod_preload_covers(&pl, "virtio_blk"),
	       "then loaded as one call would: %s", preload_seq);
	mod_preload_free(&pl);
	memset(&pl, 0, sizeof(pl));
	tap_ok(mod_preload_load(&pl, preload_load) == -ENOENT && !pl.ran,
	       "no plan: nothing to load");
	mod_preload_free(&pl);
	tap_ok(mod_preload_wanted("console=ttyS0 bootmark.suite=smoke", "bootmark.") &&
	       mod_preload_wanted("xbootmark.modules=nvme bootmark.modules_x=1", "bootmark.") &&
	       !mod_preload_wanted("quiet bootmark.modules=nvme", "bootmark.") &&
	       !mod_preload_wanted("bootmark.modules_dir=/x\n", "bootmark.") &&
	       mod_preload_wanted("", "bootmark."),
	       "a bootmark.modules= or modules_dir= word keeps the preload off");
}

/* The image builder's boot index of a real tree, read by the preload: the
 * configuration's modules are covered (the builder and the runner agree). */
static void test_preload_real(const char *release)
{
	const char *plain[] = { "virtio_pci", "virtio_blk" };
	char stage[300], err[512] = "", why[600], *list = NULL;
	struct bm_kernel kern;
	struct mod_preload pl;
	size_t len;
	FILE *f;
	int ret;

	if (tk_kernel(release, &kern, why, sizeof(why))) {
		tap_skip(why, "boot index of %s", release);
		return;
	}
	snprintf(stage, sizeof(stage), "%s/stage", dir);
	f = open_memstream(&list, &len);
	ret = bm_modules_list(kern.modroot, release, plain, 2, plain, 2, stage, f, err,
			      sizeof(err));
	fclose(f);
	free(list);
	if (!ret)
		ret = preload(&pl, stage, NULL);
	tap_ok(!ret && pl.ran && mod_preload_covers(&pl, "virtio_pci,virtio_blk") &&
	       !preload_bad_path && strstr(preload_seq, "virtio_blk") &&
	       (strncmp(release, "6.1.", 4) || strstr(preload_seq, "virtio_pci")),
	       "%s: the builder's boot index covers virtio_pci,virtio_blk: %s %s", release,
	       preload_seq, err);
	if (!ret)
		mod_preload_free(&pl);
	bm_rm_rf(stage);
}

int main(void)
{
	tap_plan(0);
	if (!mkdtemp(dir))
		tap_bail("mkdtemp failed");
	test_fake();
	test_run();
	test_preload();
	test_preload_real("6.1.0-53-amd64");
	test_preload_real("6.12.117+deb12-amd64");
	cleanup();
	test_real("6.1.0-53-amd64", ".ko");
	test_real("6.12.117+deb12-amd64", ".ko.xz");
	return tap_done();
}
