// SPDX-License-Identifier: MIT
/*
 * bootmark-runner: PID 1 of the bootmark image.
 *
 * Mounts the kernel filesystems, reads its configuration (the image's
 * bootmark.conf, then bootmark.* words on the kernel command line), loads
 * the boot modules, finds the test disk by serial, runs the suite and
 * powers off.  With --host it runs one workload on a directory of the host
 * instead (hostmode.c).  Every failure becomes an E record followed by a clean
 * power-off: PID 1 must never exit, or the kernel panics and the host
 * sees a crash instead of a reason.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bootwork.h"
#include "fsrun.h"
#include "hostmode.h"
#include "log.h"
#include "profile.h"
#include "version.h"

static void usage(FILE *f)
{
	const struct wl_ops *const *w;

	fprintf(f, "usage: bootmark-runner            (as PID 1 in the bootmark image)\n"
		   "       bootmark-runner --host DIR --workload NAME [--table] [key=value ...]\n"
		   "       bootmark-runner --examples\n"
		   "       bootmark-runner --traced\n"
		   "       bootmark-runner --help\n"
		   "       bootmark-runner --version\n\n"
		   "Options come from " RUNNER_CONF_PATH " (\"key = value\") and are\n"
		   "overridden by " RUNNER_CMDLINE_PREFIX "<key>=<value> words on the kernel "
		   "command line:\n\n");
	bm_opts_help(runner_opts, RUNNER_CMDLINE_PREFIX, f);
	fprintf(f, "\nHost mode (--host) runs every test of one workload on DIR, an existing\n"
		   "directory of this machine, without mkfs: each test in a fresh DIR/bootmark.<pid>.<n>,\n"
		   "removed afterwards.  Records (HELLO host=1, R, E, Z) go to stdout, then the\n"
		   "table when stdout is a terminal or with --table.  As root the page cache is\n"
		   "dropped before each measured run; otherwise only the test files' pages are\n"
		   "evicted (posix_fadvise DONTNEED) and the records say cache=fadvise.\n"
		   "Exit: 0 every test ran, 1 a test failed, 100 bad arguments or DIR, 111 system error.\n"
		   "--examples prints a job of a second or two of every workload that runs on a\n"
		   "bare host, \"NAME key=value ...\" a line (tests/hostmode.sh runs them).\n"
		   "--traced prints the original each workload's system calls are compared with\n"
		   "and the differences accepted, \"NAME ORIGINAL; DIFF ...\" a line (tests/trace_*.sh).\n"
		   "\nWorkloads and their options (key=value, as on a suite line):\n");
	for (w = wl_registry; *w; w++) {
		const struct bm_wl_desc *d = (*w)->desc;
		int neg;
		const struct bm_wl_metric *h = d->headline ?
			bm_wl_metric_def(d->name, d->headline, &neg) : NULL;

		/* the headline: what repeat auto, the gate and the summary judge */
		if (h)
			fprintf(f, "\n%s (headline %s, %s, %s is better):\n", d->name, h->name,
				h->unit, h->better == BM_BETTER_LOWER ? "lower" : "higher");
		else
			fprintf(f, "\n%s:\n", d->name);
		bm_opts_help(d->opts, "", f);
	}
}

static void examples(FILE *f)
{
	const struct wl_ops *const *w;

	for (w = wl_registry; *w; w++)
		if ((*w)->desc->example)
			fprintf(f, "%s %s\n", (*w)->desc->name, (*w)->desc->example);
}

static void traced(FILE *f)
{
	const struct wl_ops *const *w;

	for (w = wl_registry; *w; w++)
		if ((*w)->desc->traced)
			fprintf(f, "%s %s\n", (*w)->desc->name, (*w)->desc->traced);
}

static void early_mounts(void)
{
	mkdir("/proc", 0555);
	mkdir("/sys", 0555);
	mkdir("/dev", 0755);
	mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	mount("sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	/* EBUSY when the kernel mounted it already (CONFIG_DEVTMPFS_MOUNT). */
	mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755");
}

/*
 * The kernel hands init fds 0-2 on /dev/console only if the initramfs had
 * a /dev/console node when it started; otherwise we start "in the dark".
 * Now that devtmpfs is mounted the node exists, so open it ourselves.
 */
static void reopen_console(void)
{
	int fd = open("/dev/console", O_RDWR | O_NOCTTY);

	if (fd < 0)
		return;
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2)
		close(fd);
}

/* Only the words that let an error record reach the host: run and results. */
static void salvage_cmdline(struct runner_cfg *c, const char *cmdline)
{
	static const char *const keys[] = { "run", "results", "finish" };
	char buf[4096], *save = NULL, *tok, *eq, err[64];
	size_t i;

	snprintf(buf, sizeof(buf), "%s", cmdline ? cmdline : "");
	for (tok = strtok_r(buf, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
		if (strncmp(tok, RUNNER_CMDLINE_PREFIX, strlen(RUNNER_CMDLINE_PREFIX)))
			continue;
		tok += strlen(RUNNER_CMDLINE_PREFIX);
		eq = strchr(tok, '=');
		if (!eq)
			continue;
		*eq = '\0';
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (!strcmp(tok, keys[i]))
				bm_opt_set(runner_opts, c, tok, eq + 1, err, sizeof(err));
	}
	if (runner_cfg_check(c, err, sizeof(err)) && strlen(c->run) != BM_RUN_LEN)
		c->run[0] = '\0';
}

/* The kernel command line, once: the boot thread reads it too (bootwork.c),
 * after boot_cmdline_ready. */
static void read_cmdline(struct boot *b)
{
	size_t n;

	if (bm_read_file("/proc/cmdline", &b->cmdline, &n, 4096) == 0) {
		while (n && b->cmdline[n - 1] == '\n')
			b->cmdline[--n] = '\0';
	}
}

static void read_config(struct boot *b)
{
	char *conf = NULL;
	int ret;

	ret = bm_read_file(RUNNER_CONF_PATH, &conf, NULL, 64 << 10);
	if (ret && ret != -ENOENT) {
		snprintf(b->cfg_err, sizeof(b->cfg_err), "cannot read %s: %s",
			 RUNNER_CONF_PATH, bm_strerror(-ret));
		b->cfg_bad = 1;
	}
	if (runner_cfg_load(&b->cfg, conf, RUNNER_CONF_PATH, b->cmdline,
			    b->cfg_err, sizeof(b->cfg_err)) && !b->cfg_bad) {
		b->cfg_bad = 1;
		salvage_cmdline(&b->cfg, b->cmdline);
	}
	free(conf);
	runner_loglevel = (int)b->cfg.loglevel;
}

/* The host normally names the run; otherwise take 8 hex digits from a fresh UUID. */
static void ensure_run_id(struct runner_cfg *c)
{
	char *uuid;

	if (c->run[0])
		return;
	if (!bm_read_file("/proc/sys/kernel/random/uuid", &uuid, NULL, 64) &&
	    strlen(uuid) >= BM_RUN_LEN) {
		snprintf(c->run, sizeof(c->run), "%.8s", uuid);
		free(uuid);
		return;
	}
	free(uuid);
	snprintf(c->run, sizeof(c->run), "%08x", (unsigned)getpid() ^ 0x5eedu);
}

/*
 * The records' port may be a device a boot module makes: arm64's virt has
 * one UART for the kernel, so the records go to a virtio console, hvc0,
 * which works once the boot thread has loaded virtio_console (until then
 * the node may be missing, or there with nothing behind it).  Waits for it
 * as for the disk, up to disk_wait seconds.
 */
static int open_results_wait(struct boot *b)
{
	struct timespec step = { 0, 10 * 1000 * 1000 };
	long tries = (long)b->cfg.disk_wait * 100;
	int ret = emit_open(&b->em, b->cfg.results, b->cfg.run);

	/* ENOENT: no node yet; ENODEV, ENXIO: hvc's node, no console behind it yet */
	while ((ret == -ENOENT || ret == -ENODEV || ret == -ENXIO) &&
	       !strncmp(b->cfg.results, "/dev/", 5) && tries-- > 0) {
		nanosleep(&step, NULL);
		ret = emit_open(&b->em, b->cfg.results, b->cfg.run);
	}
	return ret;
}

static void open_results(struct boot *b)
{
	int ret = open_results_wait(b);

	if (!ret)
		return;
	rlog(RLOG_ERR, "cannot open %s: %s; writing records to /dev/console",
	     b->cfg.results, strerror(-ret));
	if (emit_open(&b->em, "/dev/console", b->cfg.run))
		emit_init_fd(&b->em, 1, b->cfg.run);
}

/*
 * kernel.randomize_va_space (the aslr option).  Off by default: with it, each
 * run of mkfs or mount maps its libraries at new addresses, and QEMU's TCG
 * keys its translated code by address, so it translated mke2fs afresh for
 * every test: 0.11 against 0.05 s a mkfs, 5-6 s of the smoke suite
 * (docs/performance.md).  The storage stack under test does not see it.
 */
static void set_aslr(const struct runner_cfg *c)
{
	static const char path[] = "/proc/sys/kernel/randomize_va_space";
	char v[4];
	int fd, len = snprintf(v, sizeof(v), "%lld\n", c->aslr);

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, v, (size_t)len) != len)
		rlog(RLOG_ERR, "cannot write %s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
}

/* A watchdog that cannot be armed does not stop the run; its E record shows
 * that the box ran without the protection it was configured with. */
static void arm_watchdog(struct boot *b)
{
	char err[300];

	if (!b->cfg.watchdog)
		return;
	if (wdog_arm(&b->wd, b->cfg.watchdog_dev, (int)b->cfg.watchdog, err, sizeof(err))) {
		emit_error(&b->em, "watchdog", NULL, "%s", err);
		return;
	}
	rlog(RLOG_INFO, "watchdog %s armed, %d s", b->cfg.watchdog_dev, b->wd.timeout);
}

/*
 * bootmark.fault=kmsg: kernel messages in bursts as fast as the kernel takes
 * them, for the whole run, so they interleave with the records on a shared
 * console (tests/faults.sh counts that none is torn or lost).  A burst is
 * 256 lines (16 KiB), then 50 ms: a flood the console cannot carry overflows
 * printk's ring (128 KiB in Debian's kernels) and loses the kernel's lines
 * and ours alike, which no runner can prevent (the host then reports the
 * missing seq); unbroken, it did so in CI when the host descheduled the
 * printing vCPU.  A thread, not a child: the workloads reap children.  It
 * ends with the machine.
 */
static void *kmsg_flood(void *arg)
{
	char line[96];
	unsigned long n;
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC), len;

	(void)arg;
	if (fd < 0) {
		rlog(RLOG_ERR, "cannot open /dev/kmsg: %s", strerror(errno));
		return NULL;
	}
	for (n = 0;; n++) {
		len = snprintf(line, sizeof(line),
			       "<4>bootmark flood %08lu the quick brown fox jumps\n", n);
		if (write(fd, line, (size_t)len) < 0 && errno != EINTR && errno != EAGAIN) {
			rlog(RLOG_ERR, "/dev/kmsg: %s", strerror(errno));
			break;
		}
		if (n % 256 == 255)
			usleep(50 * 1000);
	}
	close(fd);
	return NULL;
}

/*
 * bootmark.fault= (tests of the host and of the watchdog): a kernel crash,
 * or a runner that stops everything, feeding the watchdog included, as a
 * frozen box would.  Neither returns.  Or a flood of kernel messages
 * while the suite goes on (kmsg).
 */
static void inject_fault(struct boot *b)
{
	pthread_t th;
	int fd;

	if (!strcmp(b->cfg.fault, "none"))
		return;
	rlog(RLOG_ERR, "fault injection: %s", b->cfg.fault);
	if (!strcmp(b->cfg.fault, "kmsg")) {
		/* The suite goes on: the flood is the fault. */
		if (pthread_create(&th, NULL, kmsg_flood, NULL))
			rlog(RLOG_ERR, "no kmsg flood thread");
		else
			pthread_detach(th);
		return;
	}
	if (!strcmp(b->cfg.fault, "panic")) {
		fd = open("/proc/sysrq-trigger", O_WRONLY);
		if (fd >= 0 && write(fd, "c", 1) < 0)
			rlog(RLOG_ERR, "sysrq-trigger: %s", strerror(errno));
	}
	/* hang, or a panic that did not happen */
	emit_beat_stop(&b->em);
	wdog_release(&b->wd, 0);  /* no magic close: it stays armed and fires */
	for (;;)
		pause();
}

static void say_hello(struct boot *b)
{
	struct bm_kv kv[HELLO_KV_MAX];
	unsigned n;

	n = hello_collect(kv, &b->facts, &b->cfg, b->cmdline, b->have_disk ? &b->disk : NULL,
			  &b->times);

	emit_hello(&b->em, kv, n);
}

/* The disk may not be written (b->refused: it holds data, E class "refused"),
 * or the disk subsystem failed (class "disk"): b->disk_err says why. */
static void disk_failed(struct boot *b)
{
	if (!b->refused) {
		emit_error(&b->em, "disk", NULL, "%s", b->disk_err);
		return;
	}
	/* The record holds 255 bytes of it; the console gets the whole list. */
	if (strlen(b->disk_err) > 250)
		rlog(RLOG_ERR, "%s", b->disk_err);
	emit_error(&b->em, "refused", NULL, "%s", b->disk_err);
	/* Whatever finish= says: a reboot would loop a PXE box into the same
	 * refusal. */
	snprintf(b->cfg.finish, sizeof(b->cfg.finish), "poweroff");
}

static void run(struct boot *b)
{
	struct fsrun fr;

	if (!b->cfg_bad)
		set_aslr(&b->cfg);
	hello_kmsg_scan(&b->times);
	hello_facts_read(&b->facts);  /* while the thread may still be loading */
	if (!b->cfg_bad)
		boot_check_buf_make(b);
	boot_join(b);
	coldplug_drivers(&b->cold, b->facts.coldplug, sizeof(b->facts.coldplug));
	say_hello(b);
	boot_check_buf_free(b);
	if (b->cfg_bad) {
		emit_error(&b->em, "config", NULL, "%s", b->cfg_err);
		return;
	}
	if (b->mod_ret) {
		emit_error(&b->em, "module", NULL, "%s", b->mod_err);
		return;
	}
	if (b->disk_ret) {
		disk_failed(b);
		return;
	}
	if (b->index_later && boot_load_index(b, b->mod_err, sizeof(b->mod_err))) {
		emit_error(&b->em, "module", NULL, "%s", b->mod_err);
		return;
	}
	rlog(RLOG_INFO, "test disk %s (%s), %llu bytes", b->disk.dev, b->disk.serial,
	     (unsigned long long)b->disk.size);
	arm_watchdog(b);
	/* nothing is written to the disk before this */
	if (boot_disk_take(b)) {
		disk_failed(b);
		return;
	}
	inject_fault(b);
	/* a disk that lost its mark is refused as at the start: power off */
	if (fsrun_setup(&fr, &b->cfg, &b->em, b->have_mi ? &b->mi : NULL, &b->disk) == 0 &&
	    fsrun_run(&fr) == -EPERM)
		snprintf(b->cfg.finish, sizeof(b->cfg.finish), "poweroff");
	fsrun_free(&fr);
}

/* PID 1 does not return: end the machine the configured way, or wait forever. */
static void __attribute__((noreturn)) finish(const struct runner_cfg *c)
{
	int how = RB_POWER_OFF;

	if (!strcmp(c->finish, "reboot"))
		how = RB_AUTOBOOT;
	else if (!strcmp(c->finish, "halt"))
		how = RB_HALT_SYSTEM;
	umount2(c->mnt[0] ? c->mnt : "/mnt/test", MNT_DETACH);
	sync();
	reboot(how);
	rlog(RLOG_ERR, "reboot(2) failed: %s; halting here", strerror(errno));
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	static struct boot b;
	double t_start = emit_now();  /* HELLO's t_runner: the breakdown of the boot */

	hello_times_init(&b.times);
	b.times.runner = t_start;
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--version")) {
		printf(BM_VERSION_LINE("bootmark-runner"), BM_PROTO_VERSION);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--host"))
		return hostmode_main(argc, argv);
	if (argc == 2 && !strcmp(argv[1], "--examples")) {
		examples(stdout);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--traced")) {
		traced(stdout);
		return 0;
	}
	/* As PID 1 the kernel may pass words of its command line as arguments:
	 * only a runner started by hand judges them. */
	if (getpid() != 1 && argc > 1) {
		fprintf(stderr, "bootmark-runner: unknown option '%s' (--host DIR --workload NAME "
				"runs a workload on a directory; --help lists the options)\n", argv[1]);
		return 100;
	}
	if (getpid() != 1) {
		fprintf(stderr, "bootmark-runner: not PID 1; it runs as /init of the bootmark "
				"image (--help lists its options)\n");
		return 100;
	}
	boot_start(&b);  /* plans the boot modules while /proc mounts, then loads them */
	early_mounts();
	read_cmdline(&b);
	boot_cmdline_ready(&b);
	reopen_console();
	/* Line-buffered, so every message reaches the serial console whole and at
	 * once, even if the machine is powered off right after it. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	setvbuf(stderr, NULL, _IOLBF, 0);
	read_config(&b);
	boot_config_ready(&b);
	hello_kmsg_probe();  /* printk clock against ours, near the kernel's milestones */
	ensure_run_id(&b.cfg);
	open_results(&b);
	emit_set_lava(&b.em, b.cfg.lava);
	if (emit_beat_start(&b.em, b.cfg.heartbeat))
		rlog(RLOG_ERR, "no heartbeat thread; records will still be written");
	run(&b);
	emit_end(&b.em);
	/* halt means stay down; otherwise a hung reboot is still recovered */
	wdog_release(&b.wd, !strcmp(b.cfg.finish, "halt"));
	emit_close(&b.em);
	finish(&b.cfg);
}
