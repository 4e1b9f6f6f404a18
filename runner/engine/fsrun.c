// SPDX-License-Identifier: MIT
/* The suite loop (fsrun.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "diskmark.h"
#include "disksig.h"
#include "fsrun.h"
#include "log.h"
#include "measure.h"
#include "spawn.h"
#include "stats.h"

struct test_ref {
	unsigned job, fs;       /* fs: unused for a raw job */
	int idx, rep;
	int raw;                /* on the test disk itself: no mkfs, no mount */
	struct emit_ctx ec;
	char mkfs_line[300];
	int mounted;            /* the test filesystem is mounted */
};

int fsrun_job_opts(const struct wl_ops *w, const char *args, void **out,
		   char *err, size_t errlen)
{
	return bm_wl_job_opts(w->desc, args, out, err, errlen);
}

static int setup_jobs(struct fsrun *r, char *err, size_t errlen)
{
	char msg[200];
	unsigned i;
	int ret;

	for (i = 0; i < r->suite.njobs; i++) {
		const struct bm_job *j = &r->suite.job[i];

		r->wl[i] = wl_find(j->wl);
		if (!r->wl[i]) {
			snprintf(err, errlen, "suites/%s:%d: unknown workload \"%s\"",
				 r->suite.name, j->line, j->wl);
			return -EINVAL;
		}
		ret = fsrun_job_opts(r->wl[i], j->args, &r->opts[i], msg, sizeof(msg));
		if (ret) {
			snprintf(err, errlen, "suites/%s:%d: %s: %s", r->suite.name,
				 j->line, j->wl, msg);
			return ret;
		}
	}
	return 0;
}

static int setup_profiles(struct fsrun *r, char *err, size_t errlen)
{
	char list[sizeof(r->cfg->fs)], dir[256], *save = NULL, *tok;
	int ret;

	snprintf(dir, sizeof(dir), "%s/fs", r->cfg->etc_dir);
	snprintf(list, sizeof(list), "%s", r->cfg->fs);
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, BM_WL_RAW_FS)) {
			snprintf(err, errlen, "fs: \"%s\" names the raw disk's records, not a profile",
				 tok);
			return -EINVAL;
		}
		if (r->nprof == FSRUN_FS_MAX) {
			snprintf(err, errlen, "fs: more than %d filesystems", FSRUN_FS_MAX);
			return -E2BIG;
		}
		ret = bm_fsprof_load(&r->prof[r->nprof], dir, tok, err, errlen);
		if (ret)
			return ret;
		r->nprof++;
	}
	return 0;
}

int fsrun_setup(struct fsrun *r, const struct runner_cfg *cfg, struct emitter *em,
		const struct bm_moddb *mi, const struct disk_info *disk)
{
	char err[300], dir[256];
	int ret;

	memset(r, 0, sizeof(*r));
	r->cfg = cfg;
	r->em = em;
	r->mi = mi;
	r->disk = disk;
	r->hz = sysconf(_SC_CLK_TCK);
	snprintf(dir, sizeof(dir), "%s/suites", cfg->etc_dir);
	ret = bm_suite_load(&r->suite, dir, cfg->suite, err, sizeof(err));
	if (!ret)
		ret = setup_profiles(r, err, sizeof(err));
	if (!ret)
		ret = setup_jobs(r, err, sizeof(err));
	if (ret)
		emit_error(em, "config", NULL, "%s", err);
	else
		emit_set_planned(em, fsrun_planned(r), fsrun_planned_raw(r));
	return ret;
}

static int job_raw(const struct fsrun *r, unsigned j)
{
	return bm_wl_job_raw(r->wl[j]->desc, r->opts[j]);
}

unsigned fsrun_planned(const struct fsrun *r)
{
	unsigned j, n = 0;

	for (j = 0; j < r->suite.njobs; j++)
		n += bm_wl_job_planned(r->wl[j]->desc, r->opts[j], r->nprof, r->suite.repeat);
	return n;
}

unsigned fsrun_planned_raw(const struct fsrun *r)
{
	unsigned j, n = 0;

	for (j = 0; j < r->suite.njobs; j++)
		if (job_raw(r, j))
			n += bm_wl_job_planned(r->wl[j]->desc, r->opts[j], 1, r->suite.repeat);
	return n;
}

void fsrun_free(struct fsrun *r)
{
	unsigned i;

	for (i = 0; i < BM_SUITE_JOBS; i++)
		free(r->opts[i]);
	memset(r->opts, 0, sizeof(r->opts));
}

static int fs_type_available(const char *type)
{
	char *buf, *p;
	size_t n = strlen(type);
	int hit = 0;

	if (bm_read_file("/proc/filesystems", &buf, NULL, 1 << 16))
		return 1; /* cannot tell; let mount(2) decide */
	/* Lines are "nodev\tproc" or "\text4". */
	for (p = buf; (p = strstr(p, type)); p += n)
		if (p > buf && p[-1] == '\t' && (p[n] == '\n' || !p[n]))
			hit = 1;
	free(buf);
	return hit;
}

/* Modules of the profile, once, before its first mkfs. */
static int ensure_fs(struct fsrun *r, unsigned f)
{
	struct bm_fsprof *p = &r->prof[f];
	struct mod_plan plan;
	char err[300] = "";
	int ret = 0;

	if (r->prof_state[f])
		return r->prof_state[f] > 0 ? 0 : -ENODEV;
	if (p->modules[0] && r->mi) {
		mod_plan_init(&plan);
		ret = mod_plan_add_list(r->mi, &plan, p->modules, err, sizeof(err));
		if (!ret)
			ret = mod_plan_load(r->mi, &plan, NULL, err, sizeof(err));
		mod_plan_free(&plan);
	}
	if (!ret && !fs_type_available(p->type)) {
		snprintf(err, sizeof(err), "filesystem type %s is not available in this kernel",
			 p->type);
		ret = -ENODEV;
	}
	if (ret) {
		struct emit_ctx ec = { .fs = p->name, .test = "", .rep = 0 };

		emit_error(r->em, "module", &ec, "fs %s: %s", p->name, err);
	}
	r->prof_state[f] = ret ? -1 : 1;
	return ret;
}

static void one_line(char *s)
{
	for (; *s; s++)
		if (*s == '\n' || *s == '\r' || *s == '\t')
			*s = ' ';
}

/*
 * Before anything writes to the disk (a mkfs, a raw test): it must still
 * carry bootmark's ownership mark, written when the disk was taken
 * (boot_disk_take).  Gone or another's, the disk is no longer provably
 * bootmark's: an E record of class refused, and the suite stops (-EPERM).
 */
static int mark_held(struct fsrun *r, struct test_ref *t)
{
	char why[300];

	if (!disk_mark_check(r->disk->dev, r->disk, why, sizeof(why)))
		return 0;
	emit_error(r->em, "refused", &t->ec, "%s (serial %s): %s; refusing to write to it",
		   r->disk->dev, r->disk->serial, why);
	return -EPERM;
}

/*
 * After a mkfs: mkfs.xfs discards the whole device (BLKDISCARD of its size,
 * whatever -d size= says; xfsprogs 6.1), which on a disk that zeroes
 * discarded blocks takes the mark with it.  The region is bootmark's own:
 * the mark is written again.  -EIO after an E record when it cannot be.
 */
static int mark_again(struct fsrun *r, struct test_ref *t, const char *mkfs)
{
	char why[300];

	if (!disk_mark_check(r->disk->dev, r->disk, why, sizeof(why)))
		return 0;
	if (disk_mark_write(r->disk->dev, r->disk, why, sizeof(why))) {
		emit_error(r->em, "setup", &t->ec, "after %s: %s", mkfs, why);
		return -EIO;
	}
	rlog(RLOG_INFO, "%s left %s without bootmark's ownership mark (mkfs.xfs discards the "
	     "whole device): written again", mkfs, r->disk->dev);
	return 0;
}

/* The profile's mkfs argv, labelled as bootmark's and kept off the disk's
 * last MiB (its mark): n, or -errno after an E record. */
static int mkfs_argv(struct fsrun *r, struct test_ref *t, char *buf, size_t len,
		     char *size, size_t sizelen, char **argv)
{
	const struct bm_fsprof *p = &r->prof[t->fs];
	int n = bm_fsprof_mkfs_argv(p, r->disk->dev, buf, len, argv, BM_ARGV_MAX);

	/* The label names what bootmark made; with its mark beside it, the
	 * next boot's check (diskcheck.c) takes the disk as its own. */
	if (n > 0)
		n = bm_mkfs_argv_label(p->type, argv, n, BM_ARGV_MAX, DISKSIG_OURS);
	if (n > 0)
		n = bm_mkfs_argv_size(p->type, argv, n, BM_ARGV_MAX,
				      diskmark_usable(r->disk->size), size, sizelen);
	if (n == -EOPNOTSUPP)
		emit_error(r->em, "config", &t->ec, "fs/%s: bootmark cannot keep mkfs of type %s off "
			   "the disk's last MiB, its ownership mark (no size option known)",
			   p->name, p->type);
	else if (n == -EINVAL)
		emit_error(r->em, "config", &t->ec, "fs/%s: mkfs line unusable: it sets the label "
			   "without a value or the filesystem's size, which bootmark sets", p->name);
	else if (n < 0)
		emit_error(r->em, "config", &t->ec, "fs/%s: mkfs line unusable: %s", p->name,
			   strerror(-n));
	return n;
}

/* 0; -EIO after an E record; -EPERM when the disk is no longer provably
 * bootmark's (stop everything). */
static int do_mkfs(struct fsrun *r, struct test_ref *t)
{
	char buf[300], size[48], out[200], *argv[BM_ARGV_MAX];
	int n, i, ret;
	size_t used = 0;

	n = mkfs_argv(r, t, buf, sizeof(buf), size, sizeof(size), argv);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++)
		used += (size_t)snprintf(t->mkfs_line + used, sizeof(t->mkfs_line) - used,
					 "%s%s", i ? " " : "", argv[i]);
	if (mark_held(r, t))
		return -EPERM;
	emit_phase(r->em, "mkfs", &t->ec);
	ret = spawn_run(argv, out, sizeof(out));
	if (ret == 0)
		return mark_again(r, t, argv[0]);
	one_line(out);
	if (ret < 0)
		emit_error(r->em, "setup", &t->ec, "cannot run %s: %s", argv[0], strerror(-ret));
	else
		emit_error(r->em, "setup", &t->ec, "%s failed (status %d): %s", argv[0], ret, out);
	return -EIO;
}

/* mkdir -p: the image may have no /mnt. */
static void make_dirs(const char *path)
{
	char buf[128], *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(buf, 0755);
		*p = '/';
	}
	mkdir(buf, 0755);
}

static int do_mount(struct fsrun *r, struct test_ref *t)
{
	const struct bm_fsprof *p = &r->prof[t->fs];
	unsigned long flags;
	char data[256];
	int ret;

	emit_phase(r->em, "mount", &t->ec);
	ret = mountopt_parse(p->mount_opts, &flags, data, sizeof(data));
	if (ret) {
		emit_error(r->em, "config", &t->ec, "fs/%s: bad mount_opts", p->name);
		return ret;
	}
	make_dirs(r->cfg->mnt);
	if (mount(r->disk->dev, r->cfg->mnt, p->type, flags, data[0] ? data : NULL)) {
		ret = -errno;
		emit_error(r->em, "setup", &t->ec, "cannot mount %s (%s, %s) on %s: %s",
			   r->disk->dev, p->type, p->mount_opts, r->cfg->mnt, strerror(errno));
		return ret;
	}
	t->mounted = 1;
	return 0;
}

/* A busy umount right after a test is usually writeback finishing: retry briefly. */
static int do_umount(struct fsrun *r, struct test_ref *t)
{
	struct timespec nap = { 0, 200 * 1000 * 1000 };
	int i;

	emit_phase(r->em, "umount", &t->ec);
	for (i = 0; i < 25; i++) {
		if (!umount(r->cfg->mnt)) {
			t->mounted = 0;
			return 0;
		}
		if (errno != EBUSY)
			break;
		sync();
		nanosleep(&nap, NULL);
	}
	emit_error(r->em, "setup", &t->ec, "cannot unmount %s: %s", r->cfg->mnt,
		   strerror(errno));
	umount2(r->cfg->mnt, MNT_DETACH);
	t->mounted = 0;
	return -EBUSY;
}

struct drop_arg {
	struct fsrun *r;
	struct test_ref *t;
};

/*
 * The seeds' rule: "the filesystem was recreated and remounted after
 * preparation".  A remount, beyond dropping the page cache, also drops the
 * filesystem's in-memory allocator and journal state left by prepare().
 * A test with nothing to prepare (a write test: wl_ops.prepares) runs on
 * the filesystem as mkfs and its mount left it, which a remount would only
 * repeat: 0.04 s a test under TCG for xfs (docs/performance.md).
 */
static int fsrun_drop(void *arg, int prepared)
{
	struct drop_arg *d = arg;
	int ret = 0;

	if (prepared && !d->t->raw) {
		sync();
		ret = do_umount(d->r, d->t);
		if (!ret)
			ret = do_mount(d->r, d->t);
	}
	if (ret)
		return ret;
	ret = measure_drop_caches();
	if (ret)
		rlog(RLOG_INFO, "cannot drop caches: %s", strerror(-ret));
	return 0;
}

/* prepare, drop caches, the measured run (measure.c); fills res. */
static int measure(struct fsrun *r, struct test_ref *t, struct bm_result *res)
{
	struct drop_arg d = { .r = r, .t = t };
	struct measure_env env = {
		.em = r->em, .disk = r->disk->name, .hz = r->hz, .drop = fsrun_drop,
		.drop_arg = &d, .rusage = 1, .strace = r->cfg->strace[0] ? r->cfg->strace : NULL,
	};
	/* a raw job gets the disk and no mount point (wl.h) */
	struct wl_ctx ctx = {
		.mnt = t->raw ? NULL : r->cfg->mnt, .dev = r->disk->dev, .fs = t->ec.fs,
		.dev_len = diskmark_usable(r->disk->size),
		.rep = t->rep, .beat = measure_beat, .priv = r->em,
	};

	return measure_test(&env, r->wl[t->job], r->opts[t->job], &ctx, t->idx, &t->ec, res);
}

/*
 * After a raw test the disk must be free again before anything else claims
 * it (mkfs, mount, the wipe below all open it exclusively), and an
 * io_uring ring lets go of its files only when the kernel has torn it down,
 * after close(): an SQPOLL ring's registered file under 6.1 in TCG stays
 * held for seconds.  Waits for an O_EXCL open, up to 30 s.  -EBUSY: the
 * disk stays held (an E record says so), stop everything.
 */
static int raw_release(struct fsrun *r, struct test_ref *t)
{
	struct timespec nap = { 0, 20 * 1000 * 1000 };
	double t0 = bm_now_s();
	int fd, i;

	for (i = 0; i < 1500; i++) {
		fd = open(r->disk->dev, O_RDONLY | O_EXCL | O_CLOEXEC);
		if (fd >= 0) {
			close(fd);
			if (i)
				rlog(RLOG_INFO, "%s held for %.2f s after %s", r->disk->dev,
				     bm_now_s() - t0, t->ec.test);
			return 0;
		}
		if (errno != EBUSY)
			break;
		nanosleep(&nap, NULL);
	}
	emit_error(r->em, "setup", &t->ec, "%s is still held after the raw test: %s",
		   r->disk->dev, strerror(errno));
	return -EBUSY;
}

/*
 * A raw test that wrote to the disk may have left bytes in the first or
 * last MiB that the next boot's disk check would refuse as data it cannot
 * name (diskcheck.c).  Whether it did is told by those two MiB themselves,
 * summed before and after (the written sectors of /proc/diskstats do not
 * count NVMe passthrough writes): when they changed, or cannot be read,
 * both are zeroed, as the wipe token does.  A failure is an E record; that
 * disk is refused next boot.
 */
static void raw_wipe(struct fsrun *r, struct test_ref *t, int have0, uint64_t sum0)
{
	char err[300];
	uint64_t sum1;

	if (have0 && !disk_ends_sum(r->disk->dev, r->disk->size, &sum1) && sum1 == sum0)
		return;
	if (disk_wipe(r->disk->dev, r->disk->size, err, sizeof(err))) {
		emit_error(r->em, "setup", &t->ec, "after a raw test that wrote: %s", err);
		return;
	}
	rlog(RLOG_INFO, "%s: the raw test changed the disk's ends: zeroed", t->ec.test);
	/* the last MiB, its mark with it: written again */
	if (disk_mark_write(r->disk->dev, r->disk, err, sizeof(err)))
		emit_error(r->em, "setup", &t->ec, "after a raw test that wrote: %s", err);
}

/* One test on a fresh filesystem, or on the raw disk.  -EBUSY: the disk is
 * stuck, -EPERM: no longer provably bootmark's; stop everything. */
static int one_test(struct fsrun *r, struct test_ref *t)
{
	const struct wl_ops *w = r->wl[t->job];
	struct bm_result res;
	uint64_t wr0 = 0;       /* a raw test: the sum of the disk's ends before it */
	int ret, measured, have0 = 0, stuck;

	memset(&res, 0, sizeof(res));
	ret = w->desc->describe(r->opts[t->job], t->idx, &res);
	if (ret) {
		emit_error(r->em, "internal", NULL, "%s: no test %d", w->desc->name, t->idx);
		return 0;
	}
	t->ec.fs = t->raw ? BM_WL_RAW_FS : r->prof[t->fs].name;
	t->ec.test = res.test;
	t->ec.rep = t->rep;
	t->mounted = 0;
	spawn_reap_orphans();
	emit_beat(r->em);
	if (t->raw && mark_held(r, t))
		return -EPERM;
	if (t->raw)
		have0 = !disk_ends_sum(r->disk->dev, r->disk->size, &wr0);
	else if ((ret = do_mkfs(r, t)) == -EPERM)
		return ret;
	else if (ret || do_mount(r, t))
		return 0;
	ret = measure(r, t, &res);
	measured = res.nmetrics > 0;
	/* a failed remount (fsrun_drop) may have left nothing mounted */
	if (t->mounted && do_umount(r, t))
		return -EBUSY;
	stuck = t->raw && raw_release(r, t);
	if (t->raw && !stuck)
		raw_wipe(r, t, have0, wr0);
	if (measured)
		emit_result(r->em, &res, &t->ec, t->mkfs_line,
			    t->raw ? "" : r->prof[t->fs].mount_opts);
	return stuck ? -EBUSY : 0;
}

/* Every test and repeat of job t->job on one filesystem (or the raw disk). */
static int job_tests(struct fsrun *r, struct test_ref *t, int ntests)
{
	int ret;

	for (t->idx = 0; t->idx < ntests; t->idx++) {
		for (t->rep = 1; t->rep <= r->suite.repeat; t->rep++) {
			memset(&t->ec, 0, sizeof(t->ec));
			t->mkfs_line[0] = '\0';
			ret = one_test(r, t);
			if (ret == -EBUSY || ret == -EPERM)
				return ret;
		}
	}
	return 0;
}

int fsrun_run(struct fsrun *r)
{
	struct test_ref t;
	int ntests, ret;

	memset(&t, 0, sizeof(t));
	for (t.job = 0; t.job < r->suite.njobs; t.job++) {
		ntests = r->wl[t.job]->desc->ntests(r->opts[t.job]);
		t.raw = job_raw(r, t.job);
		if (t.raw) {
			/* once, whatever the filesystems: no profile, no modules */
			ret = job_tests(r, &t, ntests);
			if (ret)
				return ret;
			continue;
		}
		for (t.fs = 0; t.fs < r->nprof; t.fs++) {
			if (ensure_fs(r, t.fs))
				continue;
			ret = job_tests(r, &t, ntests);
			if (ret)
				return ret;
		}
	}
	return 0;
}
