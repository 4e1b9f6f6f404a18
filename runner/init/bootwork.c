// SPDX-License-Identifier: MIT
/*
 * The boot thread (bootwork.h): the boot modules, then the test disk and its
 * safety checks, beside main's setup.  It starts first thing in main, plans
 * the image's boot modules while main mounts /proc and reads the command
 * line (boot_cmdline_ready), loads them while main reads the
 * configuration, and waits for it (boot_config_ready) before the disk.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bootwork.h"
#include "diskmark.h"
#include "diskprobe.h"
#include "log.h"
#include "profile.h"

/* The module directory: 0, or -EIO with the reason in err. */
static int modules_dir(const struct boot *b, char *dir, size_t len, char *err, size_t errlen)
{
	if (b->cfg.modules_dir[0])
		snprintf(dir, len, "%s", b->cfg.modules_dir);
	else if (modload_default_dir(dir, len)) {
		snprintf(err, errlen, "uname failed: %s", strerror(errno));
		return -EIO;
	}
	return 0;
}

/*
 * The module index (b->mi, have_mi): 0, or -errno and the reason in err.
 * A kernel without a module tree, or any index when no boot modules are
 * configured, is not an error: what is missing shows up as a failing mkfs
 * or mount, with its own error record.
 */
int boot_load_index(struct boot *b, char *err, size_t errlen)
{
	char dir[256];
	int ret = modules_dir(b, dir, sizeof(dir), err, errlen);

	if (ret)
		return ret;
	ret = bm_moddb_load(&b->mi, dir, err, errlen);
	if (ret == -ENOENT && access(dir, F_OK)) {
		/* No module tree at all: a kernel built with everything in it
		 * (bootmark kernel build). */
		rlog(RLOG_INFO, "no %s: assuming %s built in", dir,
		     b->cfg.modules[0] ? b->cfg.modules : "every module");
		bm_moddb_free(&b->mi);
		err[0] = '\0';
		return 0;
	}
	if (ret) {
		bm_moddb_free(&b->mi);
		/* A kernel with everything built in needs no module tree. */
		return b->cfg.modules[0] ? ret : 0;
	}
	b->have_mi = 1;
	return 0;
}

/* The boot modules: 0, or -errno and the reason in err. */
static int boot_modules(struct boot *b, char *err, size_t errlen)
{
	struct mod_plan plan;
	int ret;

	if (!b->cfg.modules_dir[0] && b->cfg.modules[0] &&
	    mod_preload_covers(&b->pre, b->cfg.modules)) {
		b->index_later = 1;  /* read after HELLO, for the filesystems' modules */
		return 0;
	}
	ret = boot_load_index(b, err, errlen);
	if (ret || !b->have_mi)
		return ret;
	mod_plan_init(&plan);
	ret = mod_plan_add_list(&b->mi, &plan, b->cfg.modules, err, errlen);
	if (!ret)
		ret = mod_plan_load(&b->mi, &plan, NULL, err, errlen);
	mod_plan_free(&plan);
	return ret;
}

/*
 * The disk check reads two MiB with O_DIRECT into fresh memory, and under
 * TCG faulting in its 512 pages was 5-6 ms of the way to the hello
 * (docs/performance.md).  main, idle while the modules load, maps them
 * populated (boot_check_buf_make) before it reads the disk's ends with them
 * (boot_join); without a thread the check allocates its own.  main
 * unmaps them after the hello.
 */
void boot_check_buf_make(struct boot *b)
{
	void *buf = mmap(NULL, DISK_CHECK_BUF_LEN, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	b->check_buf = buf == MAP_FAILED ? NULL : buf;
}

/* After the join: no one uses it any more. */
void boot_check_buf_free(struct boot *b)
{
	if (b->check_buf)
		munmap(b->check_buf, DISK_CHECK_BUF_LEN);
	b->check_buf = NULL;
}

/*
 * stage, disk_stage and ends_done only go up: one raises them, the other
 * waits for them (under cfg_mu).  level_raise keeps a higher value, so the
 * thread's last DISK_NONE leaves a DISK_FOUND as it was.
 */
static void level_raise(struct boot *b, int *level, int v)
{
	pthread_mutex_lock(&b->cfg_mu);
	if (*level < v)
		*level = v;
	pthread_cond_broadcast(&b->cfg_cv);
	pthread_mutex_unlock(&b->cfg_mu);
}

/* Waits until *level is at least v; returns it. */
static int level_wait(struct boot *b, const int *level, int v)
{
	int now;

	pthread_mutex_lock(&b->cfg_mu);
	while (*level < v)
		pthread_cond_wait(&b->cfg_cv, &b->cfg_mu);
	now = *level;
	pthread_mutex_unlock(&b->cfg_mu);
	return now;
}

/* What the disk's first and last MiB hold, into b->ends_*. */
static void check_ends(struct boot *b)
{
	b->ends_ret = disk_check_foreign("/sys/block", b->disk.dev, &b->disk, b->cfg.disk_wipe,
					 &b->ends_claim, b->check_buf, b->ends_err,
					 sizeof(b->ends_err));
}

/*
 * Once the thread has found the disk, main reads its ends (the two MiB,
 * 5-9 ms under TCG) while the thread checks that nothing uses it (sysfs,
 * mountinfo, swaps and an exclusive open: 7 ms), instead of the thread
 * doing one after the other (docs/performance.md).  Both only read.
 */
static void check_ends_beside(struct boot *b)
{
	if (!b->disk_th_on)
		return;  /* find_disk ran in main, both checks in turn */
	if (level_wait(b, &b->disk_stage, DISK_NONE) != DISK_FOUND)
		return;
	check_ends(b);
	level_raise(b, &b->ends_done, 1);
}

/*
 * A tick of the disk's wait (disk_waiter): a coldplug pass.  The first one
 * reads the whole module index, which the boot modules did not need (the
 * boot index served them): only a disk that is not there once they are in
 * costs that, never the default virtio boot.
 */
static void cold_tick(void *arg)
{
	struct boot *b = arg;
	char err[300] = "";
	int ret;

	if (b->cold_state < 0)
		return;
	if (!b->cold_state) {
		if (!b->have_mi) {
			ret = boot_load_index(b, err, sizeof(err));
			if (ret || !b->have_mi) {
				rlog(RLOG_ERR, "coldplug: no module index: %s", err[0] ? err : "none");
				b->cold_state = -1;
				return;
			}
			b->index_later = 0;  /* read now: main must not read it again */
		}
		coldplug_init(&b->cold, &b->mi, "/sys");
		b->cold_state = 1;
	}
	ret = coldplug_pass(&b->cold, err, sizeof(err));
	if (ret < 0)
		rlog(RLOG_ERR, "coldplug: %s", err);
}

/*
 * The look between the disk's ends (diskprobe.h): 0 when it found zeros; else
 * what the disk holds, as the refusal or, when disk_wipe names the disk, as
 * the wipe's message with *claim DISK_WIPE; -errno when it cannot read.
 */
static int look_between(struct boot *b, int *claim, char *err, size_t errlen)
{
	char what[300];
	double t0 = emit_now();
	int reads, ret = disk_probe_deep(b->disk.dev, b->disk.size, what, sizeof(what), &reads);

	b->between_done = 1;
	rlog(RLOG_INFO, "%s: %d reads between its ends, %.3f s: %s", b->disk.dev, reads,
	     emit_now() - t0, ret ? what : "zeros");
	if (ret < 0) {
		snprintf(err, errlen, "%s", what);
		return ret;
	}
	if (!ret)
		return 0;
	if (disk_verdict_msg(&b->disk, b->cfg.disk_wipe, what, 0, err, errlen)) {
		*claim = DISK_WIPE;
		return 0;
	}
	return -ENOTEMPTY;
}

/*
 * What the ends' verdict (b->ends_claim) means before the hello: a disk the
 * wipe token names and that looks blank at both ends is looked at between
 * them now, so that HELLO says whether it was wiped (a boot that asks for a
 * wipe may take the time); a wiped disk is zeroed wherever the checks look.
 * Any other blank disk is looked at after the hello (boot_disk_take): the
 * look's reads would add to every default boot's way to the hello.
 */
static int claim_disk(struct boot *b, char *err, size_t errlen)
{
	int ret = 0;

	b->disk_claim = b->ends_claim;
	if (b->disk_claim == DISK_BLANK && disk_wipe_named(b->cfg.disk_wipe, &b->disk))
		ret = look_between(b, &b->disk_claim, err, errlen);
	if (ret || b->disk_claim != DISK_WIPE)
		return ret;
	rlog(RLOG_INFO, "%s", err);
	ret = disk_wipe_all(b->disk.dev, b->disk.size, err, errlen);
	if (!ret)
		b->disk.wiped = 1;
	return ret;
}

/*
 * Chooses the test disk and decides whether it may be written (disk.h).
 * 0, or -errno with the reason in err; b->refused tells a refusal (a disk
 * the configuration or its contents rule out) from no disk being visible
 * at all.  The verdict is the one of the two checks run in turn: a disk in
 * use is refused for that before anything its ends hold.  Nothing is
 * written unless disk_wipe names the disk's serial; a disk that is blank
 * at both ends is looked at between them, and marked, after the hello
 * (boot_disk_take).
 */
static int find_disk(struct boot *b, int threaded, char *err, size_t errlen)
{
	const struct disk_sel sel = { b->cfg.disk_serial, b->cfg.disk_wwn, b->cfg.disk_model,
				      b->cfg.disk_size };
	const struct disk_waiter cold = { cold_tick, b };
	int ret;

	ret = disk_wait("/sys/block", &sel, (int)b->cfg.disk_wait, b->cfg.coldplug ? &cold : NULL,
			&b->disk, err, errlen);
	b->times.disk = emit_now();
	if (ret == -ENODEV || ret == -ENXIO)  /* what the operator must add to the image */
		coldplug_describe_orphans(&b->cold, err, errlen);
	if (ret)
		goto out_refused;
	disk_bus_read("/sys/block", &b->disk);
	if (threaded)
		level_raise(b, &b->disk_stage, DISK_FOUND);  /* main reads the ends now */
	ret = disk_check_safe("/sys/block", "/proc/self/mountinfo", "/proc/swaps", &b->disk, 1,
			      err, errlen);
	if (threaded)
		level_wait(b, &b->ends_done, 1);
	else if (!ret)
		check_ends(b);
	if (!ret && (b->ends_ret || b->ends_claim == DISK_WIPE)) {
		ret = b->ends_ret;   /* the refusal, or the wipe's message */
		snprintf(err, errlen, "%s", b->ends_err);
	}
	if (ret)
		goto out_refused;
	/* a look that cannot read, a wipe that fails: the disk's fault, class
	 * disk, as before the mark */
	ret = claim_disk(b, err, errlen);
	if (ret)
		return ret;
	b->have_disk = 1;
	return 0;
out_refused:
	/* none visible at all is not a refusal */
	b->refused = ret != -ENOENT && ret != -ENXIO;
	return ret;
}

/*
 * The image's boot modules, before the configuration is read (modpre.c).
 * The boot index is read and planned while main mounts /proc and reads the
 * kernel command line (11-14 ms of the way to the first finit_module under
 * TCG, docs/performance.md); nothing is loaded until the command line is
 * known, and nothing at all if it names modules itself.
 */
static void preload(struct boot *b)
{
	char dir[256];
	int planned = !modload_default_dir(dir, sizeof(dir)) &&
		      !mod_preload_plan(&b->pre, dir);

	level_wait(b, &b->stage, BOOT_CMDLINE);
	/* before the first load: "nvme.poll_queues=2" reaches nvme.ko */
	if (modparam_set_cmdline(b->cmdline))
		rlog(RLOG_ERR, "module options of the kernel command line: more than the loader "
			       "holds (%d modules, 255 bytes each): some were dropped", MODPARAM_MODULES);
	if (planned && b->cmdline && mod_preload_wanted(b->cmdline, RUNNER_CMDLINE_PREFIX))
		mod_preload_load(&b->pre, NULL);
}

/* Boot modules, then the disk: touches only b's module, disk and times
 * fields, and reads the configuration once main has it (stage).  threaded:
 * in the boot thread, main reading the disk's ends (check_ends_beside). */
static void find_disk_work(struct boot *b, int threaded)
{
	preload(b);
	level_wait(b, &b->stage, BOOT_CONFIG);
	if (b->cfg_bad)
		return;
	b->mod_ret = boot_modules(b, b->mod_err, sizeof(b->mod_err));
	b->times.modules = emit_now();
	b->disk_ret = b->mod_ret ? -ENODEV : find_disk(b, threaded, b->disk_err,
						       sizeof(b->disk_err));
}

static void *boot_thread(void *arg)
{
	struct boot *b = arg;

	find_disk_work(b, 1);
	/* no disk to read: main stops waiting for one */
	level_raise(b, &b->disk_stage, DISK_NONE);
	return NULL;
}

/*
 * Under TCG the modules' load and virtio_blk's probe are half of the
 * runner's time to the hello (docs/performance.md): they run in a thread,
 * from the start of main, while main mounts the kernel filesystems, reads
 * the configuration, opens the results port and reads the kernel log, on
 * the other CPU of a box that has one.  Nothing in the thread writes
 * records.
 */
void boot_start(struct boot *b)
{
	pthread_attr_t attr;

	b->disk_ret = -ENODEV;
	pthread_mutex_init(&b->cfg_mu, NULL);
	pthread_cond_init(&b->cfg_cv, NULL);
	if (!pthread_attr_init(&attr)) {
		pthread_attr_setstacksize(&attr, BOOT_STACK);
		b->disk_th_on = !pthread_create(&b->disk_th, &attr, boot_thread, b);
		pthread_attr_destroy(&attr);
	}
}

void boot_cmdline_ready(struct boot *b)
{
	level_raise(b, &b->stage, BOOT_CMDLINE);
}

/* The configuration is read: the thread may go on (or, without one, run here). */
void boot_config_ready(struct boot *b)
{
	b->times.setup = emit_now();
	level_raise(b, &b->stage, BOOT_CONFIG);
	if (!b->disk_th_on)
		find_disk_work(b, 0);
}

void boot_join(struct boot *b)
{
	check_ends_beside(b);
	if (b->disk_th_on)
		pthread_join(b->disk_th, NULL);
	b->disk_th_on = 0;
	mod_preload_free(&b->pre);
}

int boot_disk_take(struct boot *b)
{
	int ret = 0, claim = DISK_BLANK;

	if (b->disk_claim == DISK_MARKED) {
		rlog(RLOG_INFO, "%s carries bootmark's ownership mark", b->disk.dev);
		return 0;
	}
	if (b->disk_claim == DISK_BLANK && !b->between_done)
		ret = look_between(b, &claim, b->disk_err, sizeof(b->disk_err));
	/* the wipe token was looked at before the hello: no wipe here */
	b->refused = ret == -ENOTEMPTY;
	if (!ret)
		ret = disk_mark_write(b->disk.dev, &b->disk, b->disk_err, sizeof(b->disk_err));
	if (!ret)
		rlog(RLOG_INFO, "%s: bootmark's ownership mark written at offset %llu", b->disk.dev,
		     (unsigned long long)diskmark_offset(b->disk.size));
	return ret;
}
