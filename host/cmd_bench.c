// SPDX-License-Identifier: MIT
/*
 * bootmark bench-boot: time from starting QEMU to the HELLO record, against
 * the same kernel on the same QEMU flags booting a trivial init that writes
 * one line to the same UART (docs/bench.md).  Only -initrd differs, so the
 * ratio is the cost of the bootmark image: its size, unpacking, the
 * runner's start-up, module loading and the wait for the test disk.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "boot.h"
#include "cli.h"
#include "cpio.h"
#include "initrd.h"
#include "profile.h"
#include "proto.h"
#include "util.h"

#define MAX_RUNS      50
#define POLL_US       5000
#define RUN_TIMEOUT_S 180
#define TARGET_RATIO  1.15
#define TRIVIAL_LINE  "bootmark-trivial-init"
#define SCAN_MAX      65536  /* the HELLO is the first record: it is in here */

struct bench_opts {
	char out[PATH_MAX];
	char accel[8];
	long long runs, mem, smp;
};

static const char *const accel_choices[] = { "auto", "kvm", "tcg", NULL };

static const struct bm_opt bench_tab[] = {
	{ .name = "runs", .type = BM_OPT_INT, .off = offsetof(struct bench_opts, runs),
	  .def = "3", .min = 1, .max = MAX_RUNS, .help = "boots of each image, alternating" },
	{ .name = "accel", .type = BM_OPT_STR, .off = offsetof(struct bench_opts, accel),
	  .len = sizeof(((struct bench_opts *)0)->accel), .def = "auto",
	  .choices = accel_choices, .help = "auto probes KVM with a test boot, falls back to TCG" },
	{ .name = "mem", .type = BM_OPT_INT, .off = offsetof(struct bench_opts, mem),
	  .def = "1024", .min = 256, .max = 1048576, .help = "guest memory, MiB" },
	{ .name = "smp", .type = BM_OPT_INT, .off = offsetof(struct bench_opts, smp),
	  .def = "2", .min = 1, .max = 256, .help = "guest CPUs" },
	{ .name = "out", .type = BM_OPT_STR, .off = offsetof(struct bench_opts, out),
	  .len = sizeof(((struct bench_opts *)0)->out), .def = NULL,
	  .help = "keep images and logs here (default: a temporary directory, removed)" },
	BM_OPT_END,
};

struct bench {
	struct bench_opts o;
	struct bm_kspec spec;
	int nkernel;
	char exe[PATH_MAX], image[PATH_MAX], configs[PATH_MAX], init[PATH_MAX];
	char modules[1024], out[PATH_MAX], trivial[PATH_MAX];
	char con[PATH_MAX], res[PATH_MAX], qlog[PATH_MAX];
	struct bm_suite suite;
	struct bm_run_cfg c;
	struct bm_boot b;
	struct bm_argv real, triv;
	struct bm_record rec;
	char buf[SCAN_MAX];
	double t[2][MAX_RUNS];  /* [0] bootmark image, [1] trivial init */
};

static void bench_usage(FILE *f)
{
	fprintf(f, "usage: bootmark bench-boot --kernel SPEC [--runs N] [--accel auto|kvm|tcg]\n"
		   "                           [--mem MiB] [--smp N] [--out DIR]\n\n"
		   "Times QEMU start to the HELLO record (suite smoke, fs ext4) against the same\n"
		   "kernel booting a trivial init (bm-trivial-init) on the same QEMU flags.\n"
		   "Exit: 0 all boots reached their marker (whatever the ratio), 1 some did not,\n"
		   "100 bad input, 111 system error.\n\n"
		   "options (--name VALUE or --name=VALUE):\n");
	bm_cli_help(f, bench_tab);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
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
	return 0;
}

/* Tools next to the binary, configs in ../configs, as "run" finds them. */
static int find_tools(struct bench *B)
{
	char tool[PATH_MAX];
	const char *missing = NULL;

	if (bm_exe_dir(B->exe, sizeof(B->exe)) ||
	    bm_path(B->image, sizeof(B->image), "%s/base.cpio.xz", B->exe) ||
	    bm_path(B->init, sizeof(B->init), "%s/bm-trivial-init", B->exe) ||
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
		bm_msg("cannot find %s (run make all build/bm-trivial-init first)", missing);
		return -ENOENT;
	}
	if (!bm_is_dir(B->configs)) {
		bm_msg("configs directory %s does not exist", B->configs);
		return -ENOENT;
	}
	return 0;
}

/* What "run --suite smoke --fs ext4" would pack and boot with. */
static int load_configs(struct bench *B)
{
	char dir[PATH_MAX], err[512];
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
	if (bm_conf_modules(B->configs, B->modules, sizeof(B->modules)) ||
	    bm_list_merge(B->modules, sizeof(B->modules), prof.modules)) {
		bm_msg("cannot read the module list of %s/bootmark.conf", B->configs);
		return -ENOENT;
	}
	B->c = (struct bm_run_cfg){
		.out = B->out, .suite = "smoke", .fs = "ext4", .tools = B->exe,
		.image = B->image, .accel = B->o.accel, .disk_cache = "auto", .machine = "q35",
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
	f = fopen(path, "we");
	if (!f) {
		rc = -errno;
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

/* Both argvs from one bm_qemu_cfg: they differ in -initrd only. */
static int prepare(struct bench *B)
{
	struct bm_qemu_cfg q;
	int rc;

	if (bm_path(B->b.dir, sizeof(B->b.dir), "%s/real", B->out) ||
	    bm_path(B->trivial, sizeof(B->trivial), "%s/trivial.cpio", B->out) ||
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
		rc = bm_kvm_choose(B->c.accel, B->b.k.vmlinuz, B->b.dir, &B->b.kvm,
				   B->b.accel_why, sizeof(B->b.accel_why));
	if (!rc)
		rc = write_trivial(B->init, B->trivial);
	if (rc)
		return rc;
	bm_boot_qemu_cfg(&B->c, &B->b, B->con, B->res, &q);
	rc = bm_qemu_argv(&q, &B->real);
	q.initrd = B->trivial;
	if (!rc)
		rc = bm_qemu_argv(&q, &B->triv);
	return rc;
}

/* 1 when the bytes so far hold the marker of this image. */
static int marker_seen(struct bench *B, int trivial, size_t len)
{
	size_t pos = 0, end = len;
	int rc;

	if (trivial)
		return memmem(B->buf, len, TRIVIAL_LINE, strlen(TRIVIAL_LINE)) != NULL;
	while (end && B->buf[end - 1] != '\n')
		end--;  /* whole lines only: a half-written record is not yet bad */
	while ((rc = bm_scan(B->buf, end, &pos, &B->rec)) != 0)
		if (rc == 1 && B->rec.type == BM_REC_HELLO && !strcmp(B->rec.run, B->b.run))
			return 1;
	return 0;
}

/* Reads what is new in results.log; returns 1 when the marker is there. */
static int poll_log(struct bench *B, int trivial, int *fd, size_t *len)
{
	ssize_t n;

	if (*fd < 0)
		*fd = open(B->res, O_RDONLY | O_CLOEXEC);
	if (*fd < 0 || *len == sizeof(B->buf))
		return 0;
	n = pread(*fd, B->buf + *len, sizeof(B->buf) - *len, (off_t)*len);
	if (n <= 0)
		return 0;
	*len += (size_t)n;
	return marker_seen(B, trivial, *len);
}

/* One boot; returns 0 and *secs, or -ETIMEDOUT/-ECHILD (reported) or -errno. */
static int time_boot(struct bench *B, int trivial, double *secs)
{
	char *const *argv = trivial ? B->triv.v : B->real.v;
	int fd = -1, log_fd, status, rc, exited = 0, found = 0;
	size_t len = 0;
	struct stat st;
	double t0;
	pid_t pid;

	unlink(B->con);
	unlink(B->res);
	log_fd = open(B->qlog, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (log_fd < 0)
		return -errno;
	t0 = now_s();
	rc = bm_proc_start(argv, log_fd, &pid);
	close(log_fd);
	if (rc)
		return rc;
	while (!found && !exited && now_s() - t0 < RUN_TIMEOUT_S) {
		usleep(POLL_US);
		exited = waitpid(pid, &status, WNOHANG) == pid;
		/* after an exit, one last look: the trivial init powers off at once */
		if (!stat(B->res, &st) && (size_t)st.st_size > len)
			found = poll_log(B, trivial, &fd, &len);
	}
	*secs = now_s() - t0;
	if (!exited)
		bm_proc_stop(pid);
	if (fd >= 0)
		close(fd);
	if (found)
		return 0;
	if (exited) {
		char why[64];

		bm_status_str(status, why, sizeof(why));
		bm_msg("QEMU ended (%s) before the %s", why, trivial ? "trivial init's line" : "HELLO record");
		return -ECHILD;
	}
	bm_msg("no %s within %d s", trivial ? "trivial init line" : "HELLO record", RUN_TIMEOUT_S);
	return -ETIMEDOUT;
}

/* Keeps each boot's logs as <image>-<n>.{console,results,qemu}.log. */
static void keep_logs(const struct bench *B, const char *img, int n)
{
	const char *from[] = { B->con, B->res, B->qlog };
	const char *kind[] = { "console", "results", "qemu" };
	char to[PATH_MAX];
	int i;

	for (i = 0; i < 3; i++)
		if (!bm_path(to, sizeof(to), "%s/%s-%d.%s.log", B->out, img, n, kind[i]))
			rename(from[i], to);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
	double s[MAX_RUNS];

	memcpy(s, v, (size_t)n * sizeof(*s));
	qsort(s, (size_t)n, sizeof(*s), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static off_t size_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : st.st_size;
}

/* Alternating boots: drift of the host (caches, other load) hits both. */
static int run_all(struct bench *B)
{
	static const char *const img[] = { "bootmark", "trivial" };
	int i, k, failed = 0;

	printf("bench-boot: kernel %s, %s, -m %lld -smp %lld, %lld run(s) each\n",
	       B->b.k.release, B->b.kvm ? "kvm" : "tcg", B->o.mem, B->o.smp, B->o.runs);
	printf("  bootmark initrd: %lld bytes (%s)\n", (long long)size_of(B->b.initrd),
	       B->b.initrd_desc);
	printf("  trivial initrd:  %lld bytes (uncompressed newc: /init = %s)\n",
	       (long long)size_of(B->trivial), B->init);
	for (i = 0; i < B->o.runs; i++) {
		for (k = 0; k < 2; k++) {
			int rc = time_boot(B, k, &B->t[k][i]);

			keep_logs(B, img[k], i + 1);
			if (rc == -ECHILD || rc == -ETIMEDOUT) {
				bm_msg("%s run %d failed; logs in %s/%s-%d.*.log", img[k], i + 1,
				       B->out, img[k], i + 1);
				failed++;
			} else if (rc) {
				bm_msg("cannot start %s: %s", BM_QEMU_BIN, strerror(-rc));
				return rc;
			}
		}
		printf("run %d: bootmark %.3f s  trivial %.3f s\n", i + 1, B->t[0][i], B->t[1][i]);
	}
	return failed;
}

static void summary(const struct bench *B)
{
	double ma = median(B->t[0], (int)B->o.runs), mb = median(B->t[1], (int)B->o.runs);
	double ratio = mb > 0 ? ma / mb : 0;

	printf("median: bootmark %.3f s  trivial %.3f s\n", ma, mb);
	printf("ratio bootmark/trivial: %.3fx\n", ratio);
	printf("target <= %.2fx: %s\n", TARGET_RATIO, ratio <= TARGET_RATIO ? "PASS" : "FAIL");
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
		rc = BM_EXIT_SYSTEM;
		goto out_remove;
	}
	failed = run_all(B);
	if (failed < 0) {
		rc = BM_EXIT_SYSTEM;
		goto out_remove;
	}
	if (!failed)
		summary(B);
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
	int rc;

	if (!B)
		return BM_EXIT_SYSTEM;
	rc = bench_main(B, argc, argv);
	bm_argv_free(&B->real);
	bm_argv_free(&B->triv);
	free(B);
	return rc;
}
