// SPDX-License-Identifier: MIT
/*
 * KVM or TCG.  An openable /dev/kvm is not proof that KVM works: on some
 * nested hosts the guest hangs right after "Probing EDD", before the
 * kernel banner.  So auto boots the real kernel under KVM with no initrd
 * and an init that does not exist, and requires the banner within a few
 * seconds.  Nothing is cached: the probe costs seconds, a wrong answer
 * costs a whole run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "qemu.h"
#include "outdir.h"
#include "profile.h"
#include "util.h"

#define PROBE_SECONDS 8
#define PROBE_APPEND "console=ttyS0 earlyprintk=serial,ttyS0 rdinit=/bootmark-kvm-probe panic=-1"

static int banner_in(const char *path)
{
	char buf[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n > 0 && memmem(buf, (size_t)n, "Linux version", 13) != NULL;
}

/* 1: banner seen; 0: not seen (why says what happened); -errno: no start. */
static int probe(const char *vmlinuz, const char *workdir, char *why, size_t whylen)
{
	struct bm_qemu_cfg c = {
		.vmlinuz = vmlinuz, .append = PROBE_APPEND, .machine = "q35",
		.kvm = 1, .mem_mib = 256, .smp = 1, .icount = -1,
		.console_fd = -1, .results_fd = -1, .disk_fd = -1, .disk_ro_fd = -1,
		.decoy_fd = -1, .decoy_ro_fd = -1,
	};
	struct bm_argv a = { 0 };
	char log[4096], qlog[4096];
	int rc, fd, status = 0, i, seen = 0, exited = 0;
	pid_t pid;

	if (bm_path(log, sizeof(log), "%s/kvm-probe.log", workdir) ||
	    bm_path(qlog, sizeof(qlog), "%s/kvm-probe.qemu.log", workdir))
		return -ENAMETOOLONG;
	c.console_log = log;
	rc = bm_qemu_open_fds(&c);
	if (rc)
		goto out_free_argv;
	rc = bm_qemu_argv(&c, &a);
	if (rc)
		goto out_close_fds;
	fd = bm_out_open(qlog, O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0) {
		rc = fd;
		goto out_close_fds;
	}
	rc = bm_proc_start(a.v, fd, &pid);
	close(fd);
	bm_qemu_close_fds(&c);
	if (rc)
		goto out_free_argv;
	for (i = 0; i < PROBE_SECONDS * 10 && !seen && !exited && !bm_stop_signal(); i++) {
		usleep(100 * 1000);
		seen = banner_in(log);
		exited = waitpid(pid, &status, WNOHANG) == pid;
	}
	if (!exited)
		bm_proc_stop(pid);
	if (!seen)
		seen = banner_in(log);
	if (!seen && exited && WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		/* not KVM's fault: there is no QEMU to run */
		snprintf(why, whylen, "cannot run %s (not found)", bm_qemu_arch_host()->bin);
		rc = -ENOENT;
		goto out_free_argv;
	}
	if (!seen && exited) {
		char said[200];

		bm_last_line(qlog, said, sizeof(said));
		bm_path(why, whylen, "QEMU with -accel kvm exited early: %s (%s)",
			said[0] ? said : "no message", qlog);
	}
	else if (!seen)
		snprintf(why, whylen, "no kernel banner within %d s under KVM", PROBE_SECONDS);
	rc = seen;
	goto out_free_argv;
out_close_fds:
	bm_qemu_close_fds(&c);
out_free_argv:
	bm_argv_free(&a);
	return rc;
}

/*
 * A KVM that failed its probe stays failed until the host reboots, in all
 * likelihood: the verdict "broken" (never "works") is kept for this host
 * boot (its boot_id) and an hour, so a run of twenty boots does not pay
 * twenty probes of 8 s.  Using TCG on a stale "broken" costs speed, never
 * a result; --accel kvm, or removing <cache>/kvm-probe, asks again.
 */
#define KVM_CACHE_S 3600

static int cache_path(char *buf, size_t len)
{
	return bm_cache_root(buf, len) ? -ENAMETOOLONG :
	       bm_path(buf + strlen(buf), len - strlen(buf), "/kvm-probe");
}

static void boot_id(char *buf, size_t len)
{
	char *text = NULL;

	buf[0] = '\0';
	if (!bm_read_file("/proc/sys/kernel/random/boot_id", &text, NULL, 128))
		snprintf(buf, len, "%.36s", text);
	free(text);
}

/* 1 and the old reason when this host boot's KVM failed within the hour. */
static int cached_broken(char *reason, size_t len)
{
	char path[4096], id[40], *text = NULL, fid[40];
	long long t;
	int n = 0, off = 0;

	boot_id(id, sizeof(id));
	if (!id[0] || cache_path(path, sizeof(path)) ||
	    bm_read_file(path, &text, NULL, 4096))
		return 0;
	/* "bootmark-kvm-probe v1 <boot_id> <unix time> broken <reason>" */
	n = sscanf(text, "bootmark-kvm-probe v1 %39s %lld broken %n", fid, &t, &off) >= 2 &&
	    off > 0 && !strcmp(fid, id) && (long long)time(NULL) - t < KVM_CACHE_S &&
	    (long long)time(NULL) >= t;
	if (n)
		snprintf(reason, len, "%.*s", (int)strcspn(text + off, "\n"), text + off);
	free(text);
	return n;
}

static void cache_broken(const char *reason)
{
	char path[4096], id[40], line[512];
	int n;

	boot_id(id, sizeof(id));
	if (!id[0] || cache_path(path, sizeof(path)))
		return;
	n = snprintf(line, sizeof(line), "bootmark-kvm-probe v1 %s %lld broken %.400s\n", id,
		     (long long)time(NULL), reason);
	if (n > 0 && (size_t)n < sizeof(line))
		bm_write_file_atomic(path, line, (size_t)n);  /* a hint: a failure costs a probe */
}

int bm_kvm_choose(const struct bm_qemu_arch *arch, const char *accel, const char *vmlinuz,
		  const char *workdir, int *use_kvm, char *why, size_t whylen)
{
	const struct bm_qemu_arch *host = bm_qemu_arch_host();
	char reason[256];
	int fd, rc, absent = 0;

	*use_kvm = 0;
	if (!strcmp(accel, "tcg")) {
		snprintf(why, whylen, "tcg requested");
		return 0;
	}
	/* KVM runs guests of the host's own architecture only */
	if (arch && arch != host) {
		snprintf(why, whylen, "%s: an %s guest on an %s host: TCG", accel, arch->name,
			 host->name);
		if (strcmp(accel, "kvm"))
			return 0;
		bm_msg("--accel kvm: an %s guest cannot run under KVM on an %s host", arch->name,
		       host->name);
		return -ENODEV;
	}
	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		absent = errno == ENOENT;
		snprintf(reason, sizeof(reason), "cannot open /dev/kvm: %s", strerror(errno));
	} else {
		close(fd);
		/* --accel kvm probes too (a working KVM prints the banner within a
		 * second): a KVM that hangs the guest is the host's failure, found
		 * before the boot, not a "hang" of the kernel under test */
		if (!strcmp(accel, "auto") && cached_broken(reason, sizeof(reason))) {
			snprintf(why, whylen, "auto: KVM failed its probe earlier in this host boot "
				 "(%.180s); TCG", reason);
			return 0;
		}
		rc = probe(vmlinuz, workdir, reason, sizeof(reason));
		if (rc == 0)
			cache_broken(reason);
		if (rc == -ENOENT) {
			bm_msg("%s", reason);
			snprintf(why, whylen, "%s", reason);
			return rc;
		}
		if (rc < 0)
			snprintf(reason, sizeof(reason), "probe could not start QEMU: %s", strerror(-rc));
		if (rc == 1) {
			*use_kvm = 1;
			snprintf(why, whylen, "%s: KVM probe boot printed the kernel banner", accel);
			return 0;
		}
	}
	if (!strcmp(accel, "kvm")) {
		bm_msg("--accel kvm: %s", reason);
		snprintf(why, whylen, "%s", reason);
		return -ENODEV;
	}
	/* a host without KVM at all is not a KVM that failed: say which */
	if (absent) {
		static int said;        /* once a process: every boot's meta.json has it */

		if (!said++)
			bm_msg("no KVM here (%s); using TCG", reason);
		snprintf(why, whylen, "auto: no KVM here (%s); TCG", reason);
		return 0;
	}
	bm_msg("KVM does not work here (%s); falling back to TCG", reason);
	snprintf(why, whylen, "auto: KVM does not work here (%s); TCG", reason);
	return 0;
}
