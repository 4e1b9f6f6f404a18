// SPDX-License-Identifier: MIT
/* One boot: initrd, scratch disk, accelerator, QEMU under the watchdog, verdict. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qemu_boot.h"
#include "initrd.h"
#include "profile.h"
#include "sha256.h"
#include "outdir.h"
#include "util.h"

#define PANIC_GRACE_S 10

const char *const bm_boot_files[] = {
	"console.log", "results.log", "qemu.log", "kvm-probe.log", "kvm-probe.qemu.log",
	"disk.img", "initrd.img", "meta.json", "results.json", NULL,
};

/*
 * A fresh sparse image every boot: no state leaks from the last kernel.
 * Its first 4 KiB are written zeros, not a hole.  Under cache=none QEMU
 * learns the O_DIRECT alignment by reading offset 0 at growing sizes
 * (block/file-posix.c, raw_probe_alignment); a hole reads at any size on
 * ext4, so QEMU took 4096 and padded every write of a 1 KiB-block guest
 * filesystem (ext4 on a disk under 512 MiB) with a read-modify-write, and
 * QEMU 7.2 fails a merged virtio-blk request whose 1024 vectors that
 * padding pushes past IOV_MAX (EINVAL, an I/O error in the guest; fixed in
 * QEMU 8.1 by "block: Collapse padded I/O vecs exceeding IOV_MAX").
 */
int bm_boot_make_disk(const char *path, unsigned long long size)
{
	static const char zero[4096];
	size_t head = size < sizeof(zero) ? (size_t)size : sizeof(zero);
	ssize_t n;
	int fd, rc = 0;

	fd = bm_out_open(path, O_RDWR | O_CLOEXEC, 0644);
	if (fd < 0)
		return fd;
	if (ftruncate(fd, (off_t)size))
		rc = -errno;
	else if ((n = pwrite(fd, zero, head, 0)) < 0)
		rc = -errno;
	else if ((size_t)n != head)
		rc = -EIO;
	if (close(fd) && !rc)
		rc = -errno;
	return rc;
}

/* --extra-initrd: the kernel unpacks concatenated archives in order, so
 * the extra part adds files (fio, a suite) or replaces earlier ones. */
static int append_extra(const char *initrd, const char *extra)
{
	static const char zero[4];
	int fd = open(initrd, O_WRONLY | O_APPEND | O_CLOEXEC), rc = 0;
	off_t end;

	if (fd < 0)
		return -errno;
	end = lseek(fd, 0, SEEK_END);
	if (end < 0)
		rc = -errno;
	else if (end % 4 && write(fd, zero, (size_t)(4 - end % 4)) != 4 - end % 4)
		rc = -EIO;     /* a member must start 4-aligned */
	if (!rc)
		rc = bm_append_file(fd, extra);
	if (close(fd) && !rc)
		rc = -errno;
	if (rc)
		bm_msg("cannot append %s to %s: %s", extra, initrd, strerror(-rc));
	return rc;
}

int bm_boot_prepare(const struct bm_run_cfg *c, struct bm_kspec *spec, struct bm_boot *b)
{
	struct bm_initrd_req req = {
		.tools_dir = c->tools, .image = c->image, .tools = c->tools_archives,
		.modules = c->modules, .out = b->initrd, .workdir = b->dir, .cacheable = spec->kind == BM_KSPEC_DEB,
		.configs = c->configs, .suite = c->suite, .fs = c->fs,
		.config_out = b->config_archive, .config_len = sizeof(b->config_archive),
		.boot_extra = c->arch ? c->arch->results_modules : NULL,
	};
	const struct bm_qemu_arch *arch = bm_qemu_arch_or_host(c->arch);
	size_t len;
	int rc;

	rc = bm_kernel_resolve(spec, 1, &b->k);
	if (rc) {
		if (rc == -ENOENT)
			bm_msg("kernel %s is not available", spec->text);
		return rc;
	}
	rc = bm_boot_method(arch, c->boot_method ? c->boot_method : "auto", &b->k, &b->method);
	if (rc)
		return rc;
	req.k = &b->k;
	if (bm_path(b->initrd, sizeof(b->initrd), "%s/initrd.img", b->dir) ||
	    bm_path(b->disk, sizeof(b->disk), "%s/disk.img", b->dir))
		return -ENAMETOOLONG;
	rc = bm_initrd_build(&req, b->initrd_desc, sizeof(b->initrd_desc));
	if (rc)
		return rc;
	if (c->extra_initrd && *c->extra_initrd) {
		rc = append_extra(b->initrd, c->extra_initrd);
		if (rc)
			return rc;
		len = strlen(b->initrd_desc);
		snprintf(b->initrd_desc + len, sizeof(b->initrd_desc) - len, " + %s",
			 c->extra_initrd);
	}
	snprintf(b->disk_bus, sizeof(b->disk_bus), "%s",
		 c->disk_bus && c->disk_bus[0] ? c->disk_bus : "virtio");
	snprintf(b->decoy, sizeof(b->decoy), "%s", c->decoy ? c->decoy : "");
	rc = bm_boot_make_disk(b->disk, c->disk_size);
	if (rc) {
		bm_msg("cannot create %s: %s", b->disk, strerror(-rc));
		return rc;
	}
	rc = bm_disk_cache_mode(b->disk, c->disk_cache, b->disk_cache, sizeof(b->disk_cache));
	if (rc)
		return rc;
	rc = bm_sha256_file(b->k.vmlinuz, b->sha_vmlinuz);
	if (!rc)
		rc = bm_sha256_file(b->initrd, b->sha_initrd);
	if (!rc && b->config_archive[0])
		rc = bm_sha256_file(b->config_archive, b->sha_config);
	if (!rc)
		rc = bm_run_id(b->run);
	if (rc)
		return rc;
	/* loglevel=4 keeps warnings and panics on the console, drops chatter;
	 * cryptomgr.notests skips the crypto API's self-tests of every
	 * algorithm registered at boot, over half of the kernel's start-up
	 * under TCG and no part of a storage test (docs/bench.md) */
	/* NVMe: one polled queue besides the interrupt-driven ones, so that
	 * polled I/O (io_uring IOPOLL) has a queue to run on; ordinary I/O
	 * never uses it.  The spec's own words come after and win. */
	return bm_path(b->append, sizeof(b->append),
		       "console=%s panic=-1 loglevel=4 " BM_BOOT_KARGS " bootmark.run=%s "
		       "bootmark.suite=%s bootmark.fs=%s bootmark.disk_serial=%s "
		       "bootmark.results=%s bootmark.finish=poweroff%s%s%s",
		       arch->console, b->run, c->suite, c->fs, BM_DISK_SERIAL, arch->results,
		       strcmp(b->disk_bus, "nvme") ? "" : " " BM_NVME_KARGS,
		       spec->args[0] ? " " : "", spec->args);
}

void bm_boot_qemu_cfg(const struct bm_run_cfg *c, const struct bm_boot *b, const char *con,
		      const char *res, struct bm_qemu_cfg *q)
{
	*q = (struct bm_qemu_cfg){
		.vmlinuz = b->method.image, .initrd = b->initrd, .append = b->append,
		.console_log = con, .results_log = res, .disk = b->disk, .disk_bus = b->disk_bus,
		.decoy = b->decoy[0] ? b->decoy : NULL,
		.disk_cache = b->disk_cache, .arch = c->arch, .machine = c->machine, .cpu = c->cpu,
		.kvm = b->kvm,
		.mem_mib = c->mem, .smp = c->smp, .icount = c->icount,
		.console_fd = -1, .results_fd = -1, .disk_fd = -1, .disk_ro_fd = -1,
		.decoy_fd = -1, .decoy_ro_fd = -1,
	};
}

static void load_sample(void *arg, pid_t qemu)
{
	bm_load_sample(arg, qemu);
}

static int launch(const struct bm_run_cfg *c, struct bm_boot *b)
{
	char con[PATH_MAX], res[PATH_MAX], qlog[PATH_MAX];
	struct bm_qemu_cfg q;
	struct bm_watch_cfg w = {
		.console_log = con, .results_log = res, .qemu_log = qlog,
		.silence_s = c->silence, .timeout_s = c->timeout, .panic_grace_s = PANIC_GRACE_S,
		.progress = c->progress ? bm_progress_tick : NULL, .progress_arg = c->progress,
		.sample = load_sample, .sample_arg = &b->load, .sample_s = 5,
	};
	int rc;

	if (bm_path(con, sizeof(con), "%s/console.log", b->dir) ||
	    bm_path(res, sizeof(res), "%s/results.log", b->dir) ||
	    bm_path(qlog, sizeof(qlog), "%s/qemu.log", b->dir))
		return -ENAMETOOLONG;
	bm_boot_qemu_cfg(c, b, con, res, &q);
	q.qmp = 1;  /* the watchdog hears QEMU pause the guest on a full disk */
	/* QEMU writes only through descriptors bootmark opened (outdir.h) */
	rc = bm_qemu_open_fds(&q);
	if (rc) {
		bm_msg("cannot create the logs in %s: %s", b->dir, strerror(-rc));
		return rc;
	}
	w.fds = &q;
	rc = bm_qemu_argv(&q, &b->argv);
	if (rc) {
		bm_qemu_close_fds(&q);
		close(q.qmp_own);
		return rc;
	}
	bm_msg("booting %s (run %s, %s, %s)", b->label, b->run, b->kvm ? "kvm" : "tcg",
	       b->method.name);
	bm_utc_now(b->start, sizeof(b->start));
	bm_load_start(&b->load);
	rc = bm_qemu_watch(b->argv.v, &w, &b->w);
	bm_load_end(&b->load);
	bm_qemu_close_fds(&q);  /* if QEMU never started */
	if (c->progress)
		bm_progress_end(c->progress);
	bm_utc_now(b->end, sizeof(b->end));
	if (rc) {
		bm_msg("cannot start %s: %s", bm_qemu_arch_or_host(c->arch)->bin,
		       strerror(-rc));
		b->w.verdict = BM_WATCH_NOSTART;
	}
	return rc;
}

/* The last non-empty line of QEMU's own log (what it said when it failed). */
static void qemu_said(const char *dir, char *buf, size_t len)
{
	char path[PATH_MAX];

	buf[0] = '\0';
	if (!bm_path(path, sizeof(path), "%s/qemu.log", dir))
		bm_last_line(path, buf, len);
}

static void boot_facts(const struct bm_run_cfg *c, struct bm_boot *b, struct bm_boot_facts *f)
{
	*f = (struct bm_boot_facts){
		.w = b->w.verdict, .why = b->w.why, .qemu_status = b->w.status,
		.planned = c->planned,
	};
	if (b->w.verdict == BM_WATCH_EXITED && b->w.status) {
		qemu_said(b->dir, b->qemu_said, sizeof(b->qemu_said));
		if (b->qemu_said[0])
			f->why = b->qemu_said;
	}
}

/* An infrastructure failure before or instead of QEMU: say so everywhere. */
static void boot_failed(struct bm_boot *b, const char *why)
{
	b->w.verdict = BM_WATCH_NOSTART;
	snprintf(b->w.why, sizeof(b->w.why), "%.159s", why);
	bm_results_empty(&b->res, b->run);
	b->res.status = BM_ST_INFRA_ERROR;
	bm_path(b->res.status_why, sizeof(b->res.status_why), "%s", why);
}

int bm_boot_one(const struct bm_run_cfg *c, struct bm_kspec *spec, struct bm_boot *b)
{
	struct bm_boot_facts f;
	struct bm_console con;
	char path[PATH_MAX];
	const char *why = NULL;
	int rc;

	b->planned = c->planned;
	snprintf(b->arch, sizeof(b->arch), "%s", bm_qemu_arch_or_host(c->arch)->name);
	b->fail_on_warning = c->fail_on_warning;
	b->exclusive = c->exclusive;
	b->icount = c->icount >= 0;
	rc = bm_mkdir_p(b->dir, 0755);
	/* unlinkat, never followed: a planted link goes as a name */
	if (!rc && c->overwrite)
		rc = bm_out_clear(b->dir);
	if (rc) {
		bm_msg("cannot create %s: %s", b->dir, strerror(-rc));
		boot_failed(b, strerror(-rc));
		return rc;
	}
	rc = bm_boot_prepare(c, spec, b);
	if (!rc) {
		rc = bm_kvm_choose(c->arch, c->icount >= 0 ? "tcg" : c->accel, b->k.vmlinuz, b->dir,
				   &b->kvm, b->accel_why, sizeof(b->accel_why));
		if (rc)
			why = b->accel_why;
		else
			snprintf(b->cpu, sizeof(b->cpu), "%s", bm_qemu_cpu(c->arch, c->cpu, b->kvm));
	}
	if (!rc && bm_stop_signal())
		rc = -EINTR;
	if (!rc)
		rc = launch(c, b);
	if (rc) {
		boot_failed(b, why ? why : rc == -EINTR ? "stopped by a signal before QEMU started"
					     : strerror(-rc));
		if (rc == -EINTR) {
			b->w.verdict = BM_WATCH_INTERRUPTED;
			snprintf(b->w.why, sizeof(b->w.why), "stopped by %s before QEMU started",
				 bm_stop_name(bm_stop_signal()));
			b->res.status = BM_ST_INTERRUPTED;
			snprintf(b->res.status_why, sizeof(b->res.status_why), "%s", b->w.why);
		}
		if (!c->keep_disk && b->disk[0])
			unlink(b->disk);
		if (bm_path(path, sizeof(path), "%s/results.json", b->dir) ||
		    bm_write_results_json(path, &b->res) || bm_write_meta(b))
			bm_msg("cannot write the JSON files in %s", b->dir);
		return rc == -EINTR ? 0 : rc;
	}
	if (bm_boot_load(b->dir, b->run, &b->res, &con))
		bm_results_empty(&b->res, b->run);
	con.fail_on_warning = c->fail_on_warning;
	boot_facts(c, b, &f);
	bm_classify_boot(&b->res, &con, &f);
	/* first: when the guest filled the host's disk, its room is what the
	 * JSON files need */
	if (!c->keep_disk)
		unlink(b->disk);
	if (bm_path(path, sizeof(path), "%s/results.json", b->dir) ||
	    bm_write_results_json(path, &b->res) || bm_write_meta(b)) {
		bm_msg("cannot write the JSON files in %s (%s: %s)", b->dir,
		       bm_status_name(b->res.status), b->res.status_why);
		rc = -EIO;
	}
	return rc;
}

static int qemu_boot(struct bm_backend_req *req)
{
	struct bm_qemu_req *q = container_of(req, struct bm_qemu_req, r);

	return bm_boot_one(q->c, q->spec, q->b);
}

const struct bm_backend_ops bm_backend_qemu = {
	.name = "qemu",
	.help = "bootmark run boots each kernel in QEMU under the watchdog and leaves OUT/<label>/",
	.boot = qemu_boot,
};
