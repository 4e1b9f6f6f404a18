// SPDX-License-Identifier: MIT
/*
 * bootmark bench-boot: time from starting QEMU to the HELLO record, against
 * the same kernel on the same QEMU flags booting a trivial init that writes
 * one line to the same UART (docs/bench.md).  The trivial init boots on both
 * boot methods (PVH and bzImage) and the fastest is the floor; against a
 * floor on the same method only -initrd differs, so the ratio is the cost of
 * the bootmark image: its size, unpacking, the runner's start-up, module
 * loading and the wait for the test disk.  On arm64 (--arch) the kernel
 * boots its Image, the one method, and the trivial init's line goes to the
 * kernel's console: the records' virtio console needs a module it cannot
 * load (tests/bench/trivial_init.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_cmd.h"
#include "cli.h"
#include "cpio.h"
#include "initrd.h"
#include "profile.h"
#include "proto.h"
#include "outdir.h"
#include "setup.h"
#include "stats.h"
#include "util.h"

#define POLL_US       5000
#define RUN_TIMEOUT_S 180

static const char *const accel_choices[] = { "auto", "kvm", "tcg", NULL };
static const char *const comp_choices[] = { "zstd", "xz", "lz4", "gzip", "none", NULL };

static const struct bm_opt bench_tab[] = {
	{ .name = "arch", .type = BM_OPT_STR, .off = offsetof(struct bench_opts, arch),
	  .len = sizeof(((struct bench_opts *)0)->arch), .def = "auto", .choices = bm_arch_choices,
	  .help = "the guest's architecture; auto: the host's (another's image: make arm64)" },
	{ .name = "runs", .type = BM_OPT_INT, .off = offsetof(struct bench_opts, runs),
	  .def = "4", .min = 1, .max = MAX_RUNS,
	  .help = "boots of each image, alternating; the order reverses every run, so an "
		  "even count puts each image as often first as last" },
	{ .name = "compress", .type = BM_OPT_LIST, .off = offsetof(struct bench_opts, compress),
	  .len = sizeof(((struct bench_opts *)0)->compress), .def = NULL, .choices = comp_choices,
	  .help = "instead: boot the same initrd contents compressed with each of these "
		  "(comma list) and name the fastest" },
	{ .name = "accel", .type = BM_OPT_STR, .off = offsetof(struct bench_opts, accel),
	  .len = sizeof(((struct bench_opts *)0)->accel), .def = "auto",
	  .choices = accel_choices, .help = "auto probes KVM with a test boot, falls back to TCG" },
	{ .name = "boot-method", .type = BM_OPT_STR, .off = offsetof(struct bench_opts, boot_method),
	  .len = sizeof(((struct bench_opts *)0)->boot_method), .def = "auto",
	  .choices = bm_boot_method_choices,
	  .help = "how the bootmark image boots (run's --boot-method); the other method the "
		  "kernel can do is booted too, for the comparison (amd64's; arm64: auto)" },
	{ .name = "cpu", .type = BM_OPT_STR, .off = offsetof(struct bench_opts, cpu),
	  .len = sizeof(((struct bench_opts *)0)->cpu), .def = "auto", .help = BM_CPU_HELP },
	{ .name = "disk-bus", .type = BM_OPT_STR, .off = offsetof(struct bench_opts, disk_bus),
	  .len = sizeof(((struct bench_opts *)0)->disk_bus), .def = "virtio",
	  .choices = bm_disk_bus_choices, .help = BM_DISK_BUS_HELP },
	{ .name = "settle-ms", .type = BM_OPT_INT, .off = offsetof(struct bench_opts, settle_ms),
	  .def = "1000", .min = 0, .max = 60000,
	  .help = "pause before each boot: a boot started right after another QEMU exits "
		  "is slower here, every other one (docs/bench.md)" },
	{ .name = "mem", .type = BM_OPT_INT, .off = offsetof(struct bench_opts, mem),
	  .def = "1024", .min = 256, .max = 1048576, .help = "guest memory, MiB" },
	{ .name = "smp", .type = BM_OPT_INT, .off = offsetof(struct bench_opts, smp),
	  .def = "2", .min = 1, .max = 256, .help = "guest CPUs" },
	{ .name = "out", .type = BM_OPT_STR, .off = offsetof(struct bench_opts, out),
	  .len = sizeof(((struct bench_opts *)0)->out), .def = NULL,
	  .help = "keep images and logs here (default: a temporary directory, removed)" },
	BM_OPT_END,
};


static void bench_usage(FILE *f)
{
	static const struct bm_usage forms[] = {
		{ .cmd = "bootmark bench-boot", .lead = "--kernel SPEC", .tab = bench_tab },
		{ .cmd = NULL },
	};

	bm_cli_usage(f, forms);
	fprintf(f, "\nTimes QEMU start to the HELLO record (suite smoke, fs ext4) against the same\n"
		   "kernel booting a trivial init (bm-trivial-init) on the same QEMU flags, both\n"
		   "on each boot method the kernel can do (PVH, bzImage): the ratio to the\n"
		   "fastest trivial boot (target <= %.2fx), PVH against bzImage, and a breakdown\n"
		   "of every boot from the guest's clock, reading on to the first mkfs.  arm64\n"
		   "boots its Image (one method); its trivial init writes to ttyAMA0.  With\n"
		   "--compress, boots the bootmark initrd's contents compressed each way instead\n"
		   "(on the chosen method) and names the fastest.  Lines starting BB1| repeat the\n"
		   "figures for scripts (docs/cli.md).\n"
		   "Exit: 0 all boots reached their marker (whatever the ratio), 1 some did not,\n"
		   "100 bad input, 111 system error.\n\n"
		   "options (--name VALUE or --name=VALUE):\n", TARGET_RATIO);
	bm_cli_help(f, bench_tab);
}

/* Each compressor at most once: the images are named by it (and MAX_IMAGES). */
static int check_compress(const char *list)
{
	int i, k, n = bm_list_count(list), item;

	for (i = 0; i < n; i++) {
		item = bm_list_item(list, i, comp_choices);
		for (k = 0; k < i; k++)
			if (bm_list_item(list, k, comp_choices) == item) {
				bm_msg("bad --compress: %s listed twice", comp_choices[item]);
				return -EINVAL;
			}
	}
	return 0;
}

/*
 * --arch, resolved as run's is (host/cli/setup.c): KVM runs only the host's
 * guests, and PVH and bzImage are x86's ways in (bm_boot_method).
 */
static int check_arch(struct bench *B)
{
	B->arch = bm_setup_arch(B->o.arch, B->o.accel);
	if (!B->arch)
		return -EINVAL;
	if (strcmp(B->arch->name, "amd64") && strcmp(B->o.boot_method, "auto")) {
		bm_msg("--boot-method %s is amd64's: an %s kernel boots its Image", B->o.boot_method,
		       B->arch->name);
		return -EINVAL;
	}
	return 0;
}

static int parse_args(struct bench *B, int argc, char **argv)
{
	static const char *const extra[] = { "kernel", NULL };
	const char *name, *val;
	char err[512];
	int i, rc;

	if (bm_opts_defaults(bench_tab, &B->o))
		return -EINVAL;
	for (i = 1; i < argc; i++) {
		rc = bm_cli_step(bench_tab, &B->o, extra, argc, argv, &i, &name, &val);
		if (rc)
			return rc;
		if (!name) {
			bm_msg("unexpected argument '%s' (see bootmark bench-boot --help)", val);
			return -EINVAL;
		}
		if (strcmp(name, "kernel"))
			continue;
		if (B->nkernel++) {
			bm_msg("bench-boot takes one --kernel");
			return -EINVAL;
		}
		if (bm_kspec_parse(&B->spec, val, err, sizeof(err))) {
			bm_msg("%s", err);
			return -EINVAL;
		}
	}
	if (!B->nkernel) {
		bm_msg("missing --kernel (see bootmark bench-boot --help)");
		return -EINVAL;
	}
	if (bm_qemu_cpu_check(B->o.cpu)) {
		bm_msg("--cpu '%s': not a QEMU CPU (a model, then ,feature=on|off words)", B->o.cpu);
		return -EINVAL;
	}
	return check_arch(B) ? -EINVAL : check_compress(B->o.compress);
}

/*
 * Tools next to the binary, configs in ../configs, as "run" finds them; the
 * image and the trivial init of another architecture than the host's in
 * <bootmark dir>/<arch>/ (make arm64), as run's --arch takes its image.
 */
static int find_tools(struct bench *B)
{
	int host = B->arch == bm_qemu_arch_host();
	char tool[PATH_MAX], dir[PATH_MAX];
	const char *missing = NULL;

	if (bm_exe_dir(B->exe, sizeof(B->exe)) ||
	    (host ? bm_path(dir, sizeof(dir), "%s", B->exe)
		  : bm_path(dir, sizeof(dir), "%s/%s", B->exe, B->arch->name)) ||
	    bm_path(B->image, sizeof(B->image), "%s/base.cpio.xz", dir) ||
	    bm_path(B->init, sizeof(B->init), "%s/bm-trivial-init", dir) ||
	    bm_path(B->configs, sizeof(B->configs), "%s/../configs", B->exe) ||
	    bm_path(tool, sizeof(tool), "%s/bm-mkinitramfs", B->exe))
		return -ENOENT;
	if (!bm_is_file(tool))
		missing = tool;
	else if (!bm_is_file(B->image))
		missing = B->image;
	else if (!bm_is_file(B->init))
		missing = B->init;
	if (missing) {
		bm_msg("cannot find %s (run make %s first)", missing,
		       host ? "all build/bm-trivial-init" : B->arch->name);
		return -ENOENT;
	}
	if (!bm_is_dir(B->configs)) {
		bm_msg("configs directory %s does not exist", B->configs);
		return -ENOENT;
	}
	return 0;
}

/*
 * What "run --suite smoke --fs ext4" would pack and boot with, its modules
 * in run's order (host/cli/setup.c): the boot modules and the arch's
 * records port, then image_modules and the profile's as optional: an arm64
 * kernel has no x86 watchdog driver.
 */
static int load_configs(struct bench *B)
{
	char dir[PATH_MAX], err[512], image[1024];
	struct bm_fsprof prof;

	bm_path(dir, sizeof(dir), "%s/suites", B->configs);
	if (bm_suite_load(&B->suite, dir, "smoke", err, sizeof(err))) {
		bm_msg("cannot load suite smoke: %s", err);
		return -ENOENT;
	}
	bm_path(dir, sizeof(dir), "%s/fs", B->configs);
	if (bm_fsprof_load(&prof, dir, "ext4", err, sizeof(err))) {
		bm_msg("cannot load filesystem profile ext4: %s", err);
		return -ENOENT;
	}
	if (bm_conf_boot_modules(B->configs, B->modules, sizeof(B->modules)) ||
	    bm_conf_image_modules(B->configs, image, sizeof(image)) ||
	    bm_list_merge(B->modules, sizeof(B->modules), B->arch->results_modules) ||
	    bm_setup_merge_optional(B->modules, sizeof(B->modules), image) ||
	    bm_setup_merge_optional(B->modules, sizeof(B->modules), prof.modules)) {
		bm_msg("cannot read the module list of %s/bootmark.conf", B->configs);
		return -ENOENT;
	}
	B->c = (struct bm_run_cfg){
		.out = B->out, .suite = "smoke", .fs = "ext4", .tools = B->exe,
		.image = B->image, .accel = B->o.accel, .disk_cache = "auto",
		.arch = B->arch, .machine = B->arch->machine,
		.cpu = B->o.cpu, .disk_bus = B->o.disk_bus,
		.boot_method = B->o.boot_method,
		.modules = B->modules, .disk_size = B->suite.disk_size,
		.mem = (int)B->o.mem, .smp = (int)B->o.smp, .icount = -1,
	};
	return 0;
}

static int make_out(struct bench *B)
{
	const char *tmp = getenv("TMPDIR");
	int rc;

	if (B->o.out[0]) {
		snprintf(B->out, sizeof(B->out), "%s", B->o.out);
		rc = bm_mkdir_p(B->out, 0755);
	} else {
		rc = bm_path(B->out, sizeof(B->out), "%s/bootmark-bench-XXXXXX",
			     tmp && tmp[0] ? tmp : "/tmp");
		if (!rc && !mkdtemp(B->out))
			rc = -errno;
	}
	if (rc)
		bm_msg("cannot create %s: %s", B->out, strerror(-rc));
	return rc;
}

/* dev/, dev/console (the kernel opens it for init's stdio) and init. */
static int write_trivial(const char *init, const char *path)
{
	struct bm_cpio c;
	char err[512] = "";
	FILE *f;
	int rc;

	bm_cpio_init(&c);
	rc = bm_cpio_add_dir(&c, "/dev", 0755, 0, 0);
	if (!rc)
		rc = bm_cpio_add_nod(&c, "/dev/console", 0600, 0, 0, 'c', 5, 1);
	if (!rc)
		rc = bm_cpio_add_file(&c, "/init", init, 0755, 0, 0);
	if (rc)
		goto out_free;
	rc = bm_out_open(path, O_WRONLY | O_CLOEXEC, 0644);
	f = rc < 0 ? NULL : fdopen(rc, "w");
	if (!f) {
		if (rc >= 0)
			close(rc);
		rc = rc < 0 ? rc : -errno;
		goto out_free;
	}
	rc = bm_cpio_write(&c, f, 0, err, sizeof(err));
	if (fclose(f) && !rc)
		rc = -errno;
out_free:
	bm_cpio_free(&c);
	if (rc)
		bm_msg("cannot write %s: %s", path, err[0] ? err : strerror(-rc));
	return rc;
}

/* An image booted with the argv of q but initrd, on method (q's -kernel). */
static int add_image(struct bench *B, const char *name, const char *initrd, int trivial,
		     const char *method, struct bm_qemu_cfg *q)
{
	struct image *im = &B->img[B->nimg++];

	snprintf(im->name, sizeof(im->name), "%s", name);
	snprintf(im->method, sizeof(im->method), "%s", method);
	snprintf(im->initrd, sizeof(im->initrd), "%s", initrd);
	im->trivial = trivial;
	/* a virtio console needs its module: the trivial init writes to the kernel's */
	im->on_console = trivial && B->arch->results_virtio;
	im->to_mkfs = !trivial && !B->o.compress[0];
	q->initrd = im->initrd;
	return bm_qemu_argv(q, &im->argv);
}

/* The initrd's two parts uncompressed: base.cpio and the module cpio. */
static int raw_parts(struct bench *B, char *base, char *mods, size_t len)
{
	struct bm_initrd_req req = {
		.k = &B->b.k, .tools_dir = B->exe, .modules = B->modules, .workdir = B->out,
		.boot_extra = B->arch->results_modules,  /* as bm_boot_prepare's initrd */
	};
	char *unxz[] = { "xz", "-dc", B->image, NULL };
	int rc;

	if (bm_path(base, len, "%s/base.cpio", B->out) ||
	    bm_path(mods, len, "%s/modules.cpio", B->out))
		return -ENAMETOOLONG;
	rc = bm_run_to_file(unxz, base);
	if (!rc && B->b.k.modroot[0] && B->modules[0])
		rc = bm_initrd_modules_cpio(&req, mods);
	else if (!rc)
		mods[0] = '\0';
	return rc;
}

/* One image per --compress item: both parts compressed with it, concatenated. */
static int compress_images(struct bench *B, struct bm_qemu_cfg *q)
{
	char base[PATH_MAX], mods[PATH_MAX], cb[PATH_MAX], cm[PATH_MAX], img[PATH_MAX];
	int i, rc, n = bm_list_count(B->o.compress);

	for (i = 0; i < n; i++) {
		const char *name = comp_choices[bm_list_item(B->o.compress, i, comp_choices)];

		if (bm_initrd_can_unpack(&B->b.k, name) != 1) {
			bm_msg("bad --compress: kernel %s cannot unpack a %s initrd "
			       "(no CONFIG_RD_ option for it in its config)", B->b.k.release, name);
			B->bad_input = 1;
			return -EINVAL;
		}
	}
	rc = raw_parts(B, base, mods, sizeof(base));
	for (i = 0; !rc && i < n && B->nimg < MAX_IMAGES; i++) {
		const char *name = comp_choices[bm_list_item(B->o.compress, i, comp_choices)];

		if (bm_path(cb, sizeof(cb), "%s/base.%s", B->out, name) ||
		    bm_path(cm, sizeof(cm), "%s/modules.%s", B->out, name) ||
		    bm_path(img, sizeof(img), "%s/initrd-%s.img", B->out, name))
			return -ENAMETOOLONG;
		rc = bm_initrd_compress(name, base, cb);
		if (!rc && mods[0])
			rc = bm_initrd_compress(name, mods, cm);
		if (!rc)
			rc = bm_initrd_concat(img, name, cb, mods[0] ? cm : "");
		if (!rc)
			rc = add_image(B, name, img, 0, B->b.method.name, q);
	}
	if (rc && rc != -ENOMEM)
		bm_msg("cannot build the recompressed initrds in %s: %s", B->out, strerror(-rc));
	return rc;
}

/* The bootmark and trivial images on the method the chosen one is not, when
 * the kernel can boot that way: the floor is the faster of the two. */
static int other_method(struct bench *B, const char *trivial, struct bm_qemu_cfg *q)
{
	int pvh = !strcmp(B->b.method.name, "pvh");
	struct bm_method m;
	int rc;

	if (strcmp(B->arch->name, "amd64")) {
		printf("bench-boot: %s boots the kernel's Image, its one boot method: no PVH / "
		       "bzImage comparison (x86's)\n", B->arch->name);
		return 0;
	}
	if (pvh) {
		snprintf(m.name, sizeof(m.name), "bzimage");
		snprintf(m.image, sizeof(m.image), "%s", B->b.k.vmlinuz);
	} else if (bm_boot_method(B->arch, "auto", &B->b.k, &m) || strcmp(m.name, "pvh")) {
		printf("bench-boot: no PVH boot for kernel %s (%s): the floor is the bzImage's\n",
		       B->b.k.release, m.why);
		return 0;
	}
	snprintf(B->other_image, sizeof(B->other_image), "%s", m.image);
	q->vmlinuz = B->other_image;
	rc = add_image(B, pvh ? "bootmark-bz" : "bootmark-pvh", B->b.initrd, 0, m.name, q);
	if (!rc)
		rc = add_image(B, pvh ? "trivial-bz" : "trivial-pvh", trivial, 1, m.name, q);
	return rc;
}

/* All argvs from one bm_qemu_cfg: they differ in -initrd and -kernel only. */
static int prepare(struct bench *B)
{
	struct bm_qemu_cfg q;
	char trivial[PATH_MAX];
	int rc;

	if (bm_path(B->b.dir, sizeof(B->b.dir), "%s/real", B->out) ||
	    bm_path(trivial, sizeof(trivial), "%s/trivial.cpio", B->out) ||
	    bm_path(B->con, sizeof(B->con), "%s/console.log", B->out) ||
	    bm_path(B->res, sizeof(B->res), "%s/results.log", B->out) ||
	    bm_path(B->qlog, sizeof(B->qlog), "%s/qemu.log", B->out))
		return -ENAMETOOLONG;
	rc = bm_mkdir_p(B->b.dir, 0755);
	if (rc) {
		bm_msg("cannot create %s: %s", B->b.dir, strerror(-rc));
		return rc;
	}
	rc = bm_boot_prepare(&B->c, &B->spec, &B->b);
	if (!rc)
		rc = bm_kvm_choose(B->arch, B->c.accel, B->b.k.vmlinuz, B->b.dir, &B->b.kvm,
				   B->b.accel_why, sizeof(B->b.accel_why));
	if (rc)
		return rc;
	bm_boot_qemu_cfg(&B->c, &B->b, B->con, B->res, &q);
	if (B->o.compress[0])
		return compress_images(B, &q);
	rc = write_trivial(B->init, trivial);
	if (!rc)
		rc = add_image(B, "bootmark", B->b.initrd, 0, B->b.method.name, &q);
	if (!rc)
		rc = add_image(B, "trivial", trivial, 1, B->b.method.name, &q);
	return rc ? rc : other_method(B, trivial, &q);
}

/*
 * Looks at the whole lines of buf[*pos..len) once: the marker of the image
 * (returns 1 the first time, with the phases so far), then P records for
 * the first mkfs.  *done when nothing more is wanted from this boot.
 */
static int scan(struct bench *B, struct image *im, struct bm_bb *bb, size_t *pos, size_t len,
		double wall, double *mkfs_t, int *seen, int *done)
{
	size_t end = len;
	int rc, found = 0;

	while (end && B->buf[end - 1] != '\n')
		end--;  /* whole lines only: a half-written record is not yet bad */
	if (im->trivial) {
		rc = *seen ? 0 : bm_bb_from_trivial(bb, B->buf, end, wall);
		found = *done = *seen = rc != 0;
		return found;
	}
	while (!*done && (rc = bm_scan(B->buf, end, pos, &B->rec)) != 0) {
		if (rc != 1 || strcmp(B->rec.run, B->b.run))
			continue;
		if (!*seen && B->rec.type == BM_REC_HELLO) {
			const char *disk = bm_rec_get(&B->rec, "disk");

			bm_bb_from_hello(bb, &B->rec, wall);
			found = *seen = 1;
			/* no disk: modules or disk missing (a broken initrd), no time to keep */
			im->nodisk = !disk || !*disk;
			if (im->nodisk)
				*done = 1;
		} else if (*seen && bm_bb_feed_phase(bb, &B->rec, mkfs_t)) {
			bm_bb_clock_rate(bb, *mkfs_t + bb->v[BM_BB_MKFS], wall);
		}
		*done = *seen && (!im->to_mkfs || !isnan(bb->v[BM_BB_MKFS]));
	}
	return found;
}

/* Reads what is new in log (results or console) into B->buf; 1 when there was some. */
static int read_new(struct bench *B, const char *log, int *fd, size_t *len)
{
	struct stat st;
	ssize_t n;

	if (stat(log, &st) || (size_t)st.st_size <= *len)
		return 0;
	if (*fd < 0)
		*fd = open(log, O_RDONLY | O_CLOEXEC);
	if (*fd < 0 || *len == sizeof(B->buf))
		return 0;
	n = pread(*fd, B->buf + *len, sizeof(B->buf) - *len, (off_t)*len);
	if (n <= 0)
		return 0;
	*len += (size_t)n;
	return 1;
}

static void boot_failed(const struct image *im, int exited, int status, int seen)
{
	const char *what = seen ? "first P mount record" :
			   im->trivial ? "trivial init's line" : "HELLO record";
	char why[64];

	if (!exited) {
		bm_msg("%s image: no %s within %d s", im->name, what, RUN_TIMEOUT_S);
		return;
	}
	bm_status_str(status, why, sizeof(why));
	bm_msg("%s image: QEMU ended (%s) before the %s", im->name, why, what);
}

/*
 * One boot of im: the wall time to its marker in im->t[run], the phases in
 * im->bb[run].  0, -ETIMEDOUT/-ECHILD/-EBADMSG (a HELLO without a test disk;
 * reported) or -errno.  A boot that
 * shows HELLO but not the first mkfs keeps its time; the mkfs is unknown.
 */
static int time_boot(struct bench *B, struct image *im, int run)
{
	struct bm_bb *bb = &im->bb[run];
	int fd = -1, log_fd, status = 0, rc, exited = 0, seen = 0, done = 0;
	double t0, mkfs_t = NAN;
	size_t len = 0, pos = 0;
	pid_t pid;

	bm_bb_init(bb);
	im->nodisk = 0;
	unlink(B->con);
	unlink(B->res);
	log_fd = bm_out_open(B->qlog, O_WRONLY | O_CLOEXEC, 0644);
	if (log_fd < 0)
		return log_fd;
	t0 = bm_now_s();
	rc = bm_proc_start(im->argv.v, log_fd, &pid);
	close(log_fd);
	if (rc)
		return rc;
	while (!done && !exited && bm_now_s() - t0 < RUN_TIMEOUT_S) {
		usleep(POLL_US);
		exited = waitpid(pid, &status, WNOHANG) == pid;
		/* after an exit, one last look: the trivial init powers off at once */
		if (read_new(B, im->on_console ? B->con : B->res, &fd, &len) &&
		    scan(B, im, bb, &pos, len, bm_now_s() - t0, &mkfs_t, &seen, &done))
			im->t[run] = bb->v[BM_BB_WALL];
	}
	if (!exited)
		bm_proc_stop(pid);
	if (fd >= 0)
		close(fd);
	if (im->nodisk) {
		bm_msg("%s image: HELLO names no test disk (see its E record): the image is broken",
		       im->name);
		return -EBADMSG;
	}
	if (!seen)
		im->t[run] = bm_now_s() - t0;
	if (done)
		return 0;
	boot_failed(im, exited, status, seen);
	return seen ? 0 : exited ? -ECHILD : -ETIMEDOUT;
}

/* Keeps each boot's logs as <image>-<n>.{console,results,qemu}.log. */
static void keep_logs(const struct bench *B, const char *img, int n, int failed)
{
	const char *from[] = { B->con, B->res, B->qlog };
	const char *kind[] = { "console", "results", "qemu" };
	char to[PATH_MAX], tag[32] = "";
	int i;

	if (failed)
		snprintf(tag, sizeof(tag), ".failed%d", failed);
	for (i = 0; i < 3; i++)
		if (!bm_path(to, sizeof(to), "%s/%s-%d%s.%s.log", B->out, img, n, tag, kind[i]))
			rename(from[i], to);
}

/*
 * One run of one image, repeated when the boot crashes or hangs before its
 * marker: under TCG a kernel now and then dies early whatever the initrd
 * (an int3 Oops while patching code, docs/bench.md), and one such boot must
 * not void the figure.  Every repeat is counted and its logs kept.  0, 1
 * when every attempt failed, or -errno (QEMU did not start).
 */
static int run_one(struct bench *B, struct image *im, int i)
{
	int attempt, rc = 0;

	for (attempt = 1; attempt <= 1 + MAX_REPEATS; attempt++) {
		rc = time_boot(B, im, i);
		if (rc != -ECHILD && rc != -ETIMEDOUT && rc != -EBADMSG) {
			keep_logs(B, im->name, i + 1, 0);
			break;
		}
		keep_logs(B, im->name, i + 1, attempt);
		bm_msg("%s run %d failed; logs in %s/%s-%d.failed%d.*.log%s", im->name, i + 1,
		       B->out, im->name, i + 1, attempt, attempt <= MAX_REPEATS ? "; again" : "");
		B->repeated += attempt <= MAX_REPEATS;
	}
	if (rc == -ECHILD || rc == -ETIMEDOUT || rc == -EBADMSG)
		return 1;
	if (rc)
		bm_msg("cannot start %s: %s", B->arch->bin, strerror(-rc));
	return rc;
}


/*
 * Alternating boots: drift of the host (caches, other load) hits every image.
 * Every other run boots the images in reverse order, so a drift over the
 * series falls on every image alike.  Each boot waits --settle-ms first: on
 * this machine QEMU boots run back to back alternate slow and fast by 0.1-0.2
 * s to the hello, whatever they boot, and a second's pause between them
 * removes it (docs/bench.md, "Order").
 */
static int run_all(struct bench *B)
{
	int i, j, k, failed = 0;

	printf("bench-boot: kernel %s, %s, %s, -m %lld -smp %lld, %lld run(s) each\n",
	       B->b.k.release, B->arch->name, B->b.kvm ? "kvm" : "tcg", B->o.mem, B->o.smp,
	       B->o.runs);
	printf("  boot method %s: %s\n", B->b.method.name, B->b.method.why);
	if (B->arch->results_virtio && !B->o.compress[0])
		printf("  trivial init's line: on the kernel's console (%.*s); HELLO on %s, after "
		       "%s\n", (int)strcspn(B->arch->console, ","), B->arch->console,
		       B->arch->results, B->arch->results_modules);
	for (k = 0; k < B->nimg; k++)
		printf("  %-12s %-7s initrd: %lld bytes (%s)\n", B->img[k].name, B->img[k].method,
		       (long long)bm_bench_size(B->img[k].initrd),
		       !B->img[k].trivial && !B->o.compress[0] ? B->b.initrd_desc : B->img[k].initrd);
	for (i = 0; i < B->o.runs; i++) {
		printf("run %d:", i + 1);
		for (j = 0; j < B->nimg; j++) {
			struct image *im;

			k = i % 2 ? B->nimg - 1 - j : j;
			im = &B->img[k];
			if (B->o.settle_ms) {
				struct timespec ts = { B->o.settle_ms / 1000,
						       B->o.settle_ms % 1000 * 1000000 };

				nanosleep(&ts, NULL);
			}
			int rc = run_one(B, im, i);

			if (rc < 0)
				return rc;
			failed += rc;
			printf("  %s %.3f s", im->name, im->t[i]);
		}
		printf("\n");
		fflush(stdout);
	}
	return failed;
}


static int bench_main(struct bench *B, int argc, char **argv)
{
	int rc, failed;

	rc = parse_args(B, argc, argv);
	if (rc == 1) {
		bench_usage(stdout);
		return BM_EXIT_OK;
	}
	if (rc)
		return BM_EXIT_USAGE;
	if (find_tools(B) || load_configs(B) || make_out(B))
		return BM_EXIT_SYSTEM;
	rc = prepare(B);
	if (rc) {
		if (rc == -ENOMEM || rc == -ENAMETOOLONG)
			bm_msg("cannot build the QEMU command line: %s", strerror(-rc));
		rc = B->bad_input ? BM_EXIT_USAGE : BM_EXIT_SYSTEM;
		goto out_remove;
	}
	failed = run_all(B);
	if (failed < 0) {
		rc = BM_EXIT_SYSTEM;
		goto out_remove;
	}
	if (!failed && B->o.compress[0])
		bm_bench_compress_summary(B);
	else if (!failed)
		bm_bench_summary(B);
	rc = failed ? BM_EXIT_NOTDONE : BM_EXIT_OK;
	unlink(B->b.disk);
	if (failed || B->o.out[0])
		return rc;
out_remove:
	if (!B->o.out[0])
		bm_rm_rf(B->out);
	return rc;
}

int bm_cmd_bench(int argc, char **argv)
{
	struct bench *B = calloc(1, sizeof(*B));
	int rc, k;

	if (!B)
		return BM_EXIT_SYSTEM;
	rc = bench_main(B, argc, argv);
	for (k = 0; k < B->nimg; k++)
		bm_argv_free(&B->img[k].argv);
	free(B);
	return rc;
}
