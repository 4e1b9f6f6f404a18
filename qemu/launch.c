// SPDX-License-Identifier: MIT
/* The QEMU command line, built as an argv (no shell anywhere). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qemu.h"
#include "outdir.h"
#include "util.h"

void bm_argv_add(struct bm_argv *a, const char *s)
{
	char **nv;

	if (a->err)
		return;
	if (a->n + 2 > a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 32;

		nv = realloc(a->v, cap * sizeof(*nv));
		if (!nv) {
			a->err = -ENOMEM;
			return;
		}
		a->v = nv;
		a->cap = cap;
	}
	a->v[a->n] = strdup(s);
	if (!a->v[a->n]) {
		a->err = -ENOMEM;
		return;
	}
	a->v[++a->n] = NULL;
}

void bm_argv_addf(struct bm_argv *a, const char *fmt, ...)
{
	char *s;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		a->err = -ENOMEM;
		return;
	}
	bm_argv_add(a, s);
	free(s);
}

void bm_argv_free(struct bm_argv *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	memset(a, 0, sizeof(*a));
}

/* QEMU option values escape ',' by doubling it. */
static void opt_escape(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	for (; *s && o + 2 < len; s++) {
		buf[o++] = *s;
		if (*s == ',')
			buf[o++] = ',';
	}
	buf[o] = '\0';
}

/* -add-fd fd=N,set=S for an open descriptor; the set S is 1 + the fd. */
static void add_fd(struct bm_argv *a, int fd, int set)
{
	bm_argv_add(a, "-add-fd");
	bm_argv_addf(a, "fd=%d,set=%d", fd, set);
}

static void add_chardev(struct bm_argv *a, const char *id, const char *path, int fd)
{
	char esc[2 * 4096 + 1];

	if (fd >= 0) {
		add_fd(a, fd, fd + 1);
		snprintf(esc, sizeof(esc), "/dev/fdset/%d", fd + 1);
	} else {
		opt_escape(path, esc, sizeof(esc));
	}
	bm_argv_add(a, "-chardev");
	bm_argv_addf(a, "file,id=%s,path=%s", id, esc);
}

static void add_serial(struct bm_argv *a, const char *id, const char *path, int fd)
{
	add_chardev(a, id, path, fd);
	bm_argv_add(a, "-serial");
	bm_argv_addf(a, "chardev:%s", id);
}

static int direct_cache(const char *mode)
{
	return mode && (!strcmp(mode, "none") || !strcmp(mode, "directsync"));
}

/* The guest's drivers for each: docs/cli.md --disk-bus, docs/bare-metal.md. */
#define BUSES(X) \
	X("virtio", NULL, "virtio-blk-pci", BM_UNIT_PCI) \
	X("virtio-scsi", "virtio-scsi-pci", "scsi-hd", BM_UNIT_SCSI) \
	X("nvme", NULL, "nvme", BM_UNIT_PCI) \
	X("sata", "ahci", "ide-hd", BM_UNIT_PORT) \
	X("sas", "mptsas1068", "scsi-hd", BM_UNIT_SAS) \
	X("megasas", "megasas-gen2", "scsi-hd", BM_UNIT_SCSI)
#define BUS_ENTRY(n, hba, disk, unit) { n, hba, disk, unit },
#define BUS_NAME(n, hba, disk, unit) n,

const struct bm_disk_bus bm_disk_buses[] = { BUSES(BUS_ENTRY) { NULL, NULL, NULL, BM_UNIT_PCI } };
const char *const bm_disk_bus_choices[] = { BUSES(BUS_NAME) NULL };

const struct bm_disk_bus *bm_disk_bus_find(const char *name)
{
	const struct bm_disk_bus *b;

	if (!name || !name[0])
		name = "virtio";
	for (b = bm_disk_buses; b->name; b++)
		if (!strcmp(b->name, name))
			return b;
	return NULL;
}

/* A pair of descriptors of one image, read-write and read-only (QEMU
 * probes the image read-only first): 0 or -errno, both -1 on failure. */
static int open_pair(const char *path, int flags, int *rw, int *ro)
{
	*rw = open(path, O_RDWR | O_NOFOLLOW | flags);
	*ro = *rw < 0 ? -1 : open(path, O_RDONLY | O_NOFOLLOW | flags);
	if (*ro >= 0)
		return 0;
	if (*rw >= 0)
		close(*rw);
	*rw = -1;
	return -errno;
}

int bm_qemu_open_fds(struct bm_qemu_cfg *c)
{
	int dflag = direct_cache(c->disk_cache) ? O_DIRECT : 0, rc;

	c->console_fd = c->results_fd = c->disk_fd = c->disk_ro_fd = -1;
	c->decoy_fd = c->decoy_ro_fd = c->qmp_fd = c->qmp_own = -1;
	/* no O_CLOEXEC: QEMU inherits them */
	rc = c->console_fd = bm_out_open(c->console_log, O_WRONLY, 0644);
	if (rc >= 0 && c->results_log)
		rc = c->results_fd = bm_out_open(c->results_log, O_WRONLY, 0644);
	/* the image bootmark just created: opened, not created, here */
	if (rc >= 0 && c->disk)
		rc = open_pair(c->disk, dflag, &c->disk_fd, &c->disk_ro_fd);
	/* the user's own image, checked by bm_decoy_check before anything existed */
	if (rc >= 0 && c->decoy)
		rc = open_pair(c->decoy, 0, &c->decoy_fd, &c->decoy_ro_fd);
	if (rc >= 0 && c->qmp)
		rc = bm_qmp_pair(&c->qmp_fd, &c->qmp_own);
	if (rc >= 0)
		return 0;
	bm_qemu_close_fds(c);  /* the failed one holds -errno: not closed */
	return rc;
}

void bm_qemu_close_fds(struct bm_qemu_cfg *c)
{
	int *fd[] = { &c->console_fd, &c->results_fd, &c->disk_fd, &c->disk_ro_fd,
		      &c->decoy_fd, &c->decoy_ro_fd, &c->qmp_fd };
	size_t i;

	for (i = 0; i < sizeof(fd) / sizeof(fd[0]); i++) {
		if (*fd[i] >= 0)
			close(*fd[i]);
		*fd[i] = -1;
	}
}

const char *bm_qemu_cpu(const struct bm_qemu_arch *arch, const char *want, int kvm)
{
	if (want && want[0] && strcmp(want, "auto"))
		return want;
	return kvm ? "host" : bm_qemu_arch_or_host(arch)->tcg_cpu;
}

/* One argv word to QEMU, never a shell: the check keeps out what QEMU
 * would read as another option (a leading '-') or as nothing useful. */
int bm_qemu_cpu_check(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 63 || s[0] == '-' || s[0] == ',')
		return -EINVAL;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-+=,") == n
		? 0 : -EINVAL;
}

/* -drive of one image (by its descriptors when open), id d<unit>. */
static void add_drive(struct bm_argv *a, const char *path, int fd, int ro_fd, int unit,
		      const char *cache)
{
	char esc[2 * 4096 + 1];

	if (fd >= 0) {
		add_fd(a, fd, fd + 1);
		add_fd(a, ro_fd, fd + 1);
		snprintf(esc, sizeof(esc), "/dev/fdset/%d", fd + 1);
	} else {
		opt_escape(path, esc, sizeof(esc));
	}
	bm_argv_add(a, "-drive");
	bm_argv_addf(a, "file=%s,if=none,id=d%d,format=raw,cache=%s", esc, unit, cache);
}

/* -device of the disk on drive d<unit>, at that unit of the bus's adapter. */
static void add_disk_dev(struct bm_argv *a, const struct bm_disk_bus *b, int unit,
			 const char *serial)
{
	bm_argv_add(a, "-device");
	if (b->unit == BM_UNIT_PORT)
		bm_argv_addf(a, "%s,drive=d%d,bus=hba0.%d,serial=%s", b->disk, unit, unit, serial);
	else if (b->unit == BM_UNIT_SCSI)
		bm_argv_addf(a, "%s,drive=d%d,bus=hba0.0,scsi-id=%d,serial=%s", b->disk, unit, unit,
			     serial);
	else if (b->unit == BM_UNIT_SAS)
		bm_argv_addf(a, "%s,drive=d%d,bus=hba0.0,scsi-id=%d,serial=%s,wwn=" BM_SAS_WWN "%d",
			     b->disk, unit, unit, serial, unit);
	else
		bm_argv_addf(a, "%s,drive=d%d,serial=%s", b->disk, unit, serial);
}

/* The test disk and the decoy on the configured bus (unknown: virtio's). */
static void add_disks(struct bm_argv *a, const struct bm_qemu_cfg *c)
{
	const struct bm_disk_bus *b = bm_disk_bus_find(c->disk_bus);

	if (!b)
		b = bm_disk_bus_find("virtio");
	add_drive(a, c->disk, c->disk_fd, c->disk_ro_fd, 0,
		  c->disk_cache ? c->disk_cache : "writeback");
	/* the decoy is a user's file: cached by the host, never O_DIRECT */
	if (c->decoy)
		add_drive(a, c->decoy, c->decoy_fd, c->decoy_ro_fd, 1, "writeback");
	if (b->hba) {
		bm_argv_add(a, "-device");
		bm_argv_addf(a, "%s,id=hba0", b->hba);
	}
	add_disk_dev(a, b, 0, BM_DISK_SERIAL);
	if (c->decoy)
		add_disk_dev(a, b, 1, BM_DECOY_SERIAL);
}

/* The records' port: a second UART, or on arm64's virt (one UART for the
 * kernel) a virtio console, hvc0. */
static void add_results(struct bm_argv *a, const struct bm_qemu_cfg *c,
			const struct bm_qemu_arch *arch)
{
	if (!arch->results_virtio) {
		add_serial(a, "res", c->results_log, c->results_fd);
		return;
	}
	add_chardev(a, "res", c->results_log, c->results_fd);
	bm_argv_add(a, "-device");
	bm_argv_add(a, "virtio-serial-pci,id=vser0");
	bm_argv_add(a, "-device");
	bm_argv_add(a, "virtconsole,chardev=res,bus=vser0.0");
}

int bm_qemu_argv(const struct bm_qemu_cfg *c, struct bm_argv *a)
{
	const struct bm_qemu_arch *arch = bm_qemu_arch_or_host(c->arch);
	const char *const fixed[] = { arch->bin, "-nodefaults", "-no-user-config",
				      "-nographic", "-no-reboot", NULL };
	int i;

	for (i = 0; fixed[i]; i++)
		bm_argv_add(a, fixed[i]);
	bm_argv_add(a, "-machine");
	bm_argv_add(a, c->machine && c->machine[0] && strcmp(c->machine, "auto") ?
		       c->machine : arch->machine);
	/* qboot skips SeaBIOS's option-ROM and boot-menu work: faster boots */
	if (arch->bios && !access(arch->bios, R_OK)) {
		bm_argv_add(a, "-bios");
		bm_argv_add(a, arch->bios);
	}
	bm_argv_add(a, "-m");
	bm_argv_addf(a, "%d", c->mem_mib);
	bm_argv_add(a, "-smp");
	bm_argv_addf(a, "%d", c->smp);
	bm_argv_add(a, "-accel");
	bm_argv_add(a, c->kvm ? "kvm" : "tcg");
	bm_argv_add(a, "-cpu");
	bm_argv_add(a, bm_qemu_cpu(arch, c->cpu, c->kvm));
	/* Virtual time: the guest's clock advances 2^shift ns per instruction,
	 * so what it measures no longer depends on how busy the host is.
	 * sleep=on: while the vCPU idles (waiting for its disk) the clock runs
	 * with the host's, so an I/O wait costs what it took.  sleep=off
	 * warped the clock to the next timer instead: a wait of microseconds
	 * could cost milliseconds, or seconds under NOHZ (dd64w's CoV 74%
	 * against 0.8%, docs/bisect.md "Timing noise"). */
	if (!c->kvm && c->icount >= 0) {
		bm_argv_add(a, "-icount");
		bm_argv_addf(a, "shift=%d,sleep=on", c->icount);
	}
	bm_argv_add(a, "-kernel");
	bm_argv_add(a, c->vmlinuz);
	if (c->initrd) {
		bm_argv_add(a, "-initrd");
		bm_argv_add(a, c->initrd);
	}
	bm_argv_add(a, "-append");
	bm_argv_add(a, c->append);
	add_serial(a, "con", c->console_log, c->console_fd);
	if (c->results_log)
		add_results(a, c, arch);
	if (c->disk)
		add_disks(a, c);
	if (c->qmp && c->qmp_fd >= 0)
		bm_qmp_argv(a, c->qmp_fd);
	return a->err;
}

int bm_disk_cache_mode(const char *disk, const char *want, char *mode, size_t len)
{
	int fd;

	if (strcmp(want, "auto")) {
		snprintf(mode, len, "%s", want);
		return 0;
	}
	fd = open(disk, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		snprintf(mode, len, "none");
		return 0;
	}
	if (errno != EINVAL)
		return -errno;
	/* tmpfs and some FUSE filesystems refuse O_DIRECT */
	snprintf(mode, len, "writeback");
	return 0;
}
