/* SPDX-License-Identifier: MIT */
/*
 * Booting a kernel in QEMU: the argv, the KVM probe and the watchdog.
 *
 * Serial lines: ttyS0 (console) -> console.log, ttyS1 (results) ->
 * results.log.  The test disk is a raw sparse file with serial BMSCRATCH0,
 * the only disk the runner may touch, on the bus --disk-bus names
 * (virtio-blk by default); a decoy disk (serial BMDECOY0) may sit on the
 * same bus, as a lab box's other disks do.
 */
#ifndef BM_QEMU_H
#define BM_QEMU_H

#include <stddef.h>
#include <sys/types.h>

#include "watch.h"

#define BM_QBOOT_ROM  "/usr/share/qemu/qboot.rom"
#define BM_DISK_SERIAL "BMSCRATCH0"
#define BM_DECOY_SERIAL "BMDECOY0"

/*
 * A disk bus as QEMU emulates it: the host bus adapter's device (NULL: the
 * disk is a PCI device itself) and the disk's device, placed on the
 * adapter's bus at unit 0 (the decoy at unit 1).  The controllers are the
 * ones lab boxes have: NVMe, AHCI (SATA), an LSI SAS1068 HBA, a MegaRAID
 * SAS 2108 RAID HBA, and virtio's two.
 */
enum bm_bus_unit {
	BM_UNIT_PCI,            /* the disk is a PCI device of its own: no address */
	BM_UNIT_PORT,           /* one disk a port: bus=hba0.<unit> (AHCI) */
	BM_UNIT_SCSI,           /* SCSI targets: bus=hba0.0,scsi-id=<unit> */
	BM_UNIT_SAS,            /* the same with a SAS address of its own (wwn=) */
};

/*
 * The SAS address of a disk on the SAS HBA: QEMU's mptsas reports the
 * disk's wwn as the address of what is attached to a phy, and Linux's
 * mptsas skips a phy whose attached address is 0 (mptsas_setup_wide_ports):
 * a disk without one is never found.  NAA 3, locally assigned, "BM", the
 * unit in the last digit: unique per disk, as wide-port merging requires.
 */
#define BM_SAS_WWN "0x3000424d0000000"

struct bm_disk_bus {
	const char *name;       /* --disk-bus */
	const char *hba;        /* -device model of the adapter, or NULL */
	const char *disk;       /* -device model of the disk */
	enum bm_bus_unit unit;  /* how a disk is addressed on the adapter */
};

extern const struct bm_disk_bus bm_disk_buses[];
/* NULL-terminated names of bm_disk_buses, for an option's choices. */
extern const char *const bm_disk_bus_choices[];
/* The bus of that name (NULL or "" is virtio), or NULL when unknown. */
const struct bm_disk_bus *bm_disk_bus_find(const char *name);

struct bm_argv {
	char **v;       /* NULL-terminated once anything was added */
	size_t n, cap;
	int err;        /* -ENOMEM, sticky */
};

void bm_argv_add(struct bm_argv *a, const char *s);
void bm_argv_addf(struct bm_argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void bm_argv_free(struct bm_argv *a);

/*
 * Files QEMU writes are handed to it open (-add-fd, path=/dev/fdset/N), so
 * QEMU, run as root, never opens a name in the output folder itself: an fd
 * of -1 means "open the path" (bench and tests only).  The disk takes two
 * descriptors of the same file, read-write and read-only (QEMU probes the
 * image read-only first), with O_DIRECT when cache=none or directsync.
 */
struct bm_qemu_cfg {
	const char *vmlinuz;
	const char *initrd;       /* NULL = none (KVM probe) */
	const char *append;
	const char *console_log;
	const char *results_log;  /* NULL = no second UART */
	const char *disk;         /* NULL = no disk */
	const char *disk_bus;     /* bm_disk_buses name; NULL = virtio */
	const char *decoy;        /* a second disk on the same bus, serial BMDECOY0; NULL none */
	int console_fd, results_fd, disk_fd, disk_ro_fd;  /* -1 = by path */
	int decoy_fd, decoy_ro_fd;                        /* the same for the decoy */
	int qmp;                  /* 1: a QMP monitor on a socket pair (bm_qmp_pair) */
	int qmp_fd, qmp_own;      /* with qmp: QEMU's end, ours (the watchdog's) */
	const char *disk_cache;   /* none, writeback, unsafe ... */
	const struct bm_qemu_arch *arch;  /* NULL: the host's */
	const char *machine;      /* q35 or pc (amd64), virt (arm64); NULL or auto: the arch's */
	const char *cpu;          /* -cpu; NULL or "auto": bm_qemu_cpu()'s default */
	int kvm;
	int mem_mib;
	int smp;
	int icount;               /* -1 off; else TCG -icount shift=N,sleep=on */
};

/*
 * The CPU a TCG guest gets: QEMU's "max" without ERMS and FSRM.  TCG runs
 * a `rep movsb` or `rep stosb` one byte per pass through its translated
 * block, so a kernel that sees ERMS (fast string moves, as real CPUs since
 * Ivy Bridge have) copies and clears byte by byte: its page-cache copies
 * took 2-3x longer than with the unrolled loops it picks without them
 * (docs/bench.md, "Work removed").  Every other feature of "max" stays.
 */
#define BM_QEMU_TCG_CPU "max,erms=off,fsrm=off"

/* A guest architecture as QEMU boots it (qemu/qarch.c). */
struct bm_qemu_arch {
	const char *name;            /* Debian's: "amd64", "arm64" */
	const char *bin;             /* qemu-system-x86_64 */
	const char *machine;         /* -machine when --machine is auto */
	const char *tcg_cpu;         /* -cpu under TCG when --cpu is auto */
	const char *console;         /* the kernel's console= */
	const char *results;         /* the records' device in the guest */
	const char *bios;            /* -bios when the file exists; NULL none */
	int results_virtio;          /* the records go to a virtio console, not a UART */
	const char *results_modules; /* the modules that device needs, comma list */
};

/* The architecture of that Debian name, or NULL; the one the host runs. */
const struct bm_qemu_arch *bm_qemu_arch_find(const char *name);
const struct bm_qemu_arch *bm_qemu_arch_host(void);
/* a, or the host's when a is NULL (a cfg built by hand names no arch) */
const struct bm_qemu_arch *bm_qemu_arch_or_host(const struct bm_qemu_arch *a);

/* want ("auto" or NULL: host under KVM, the arch's TCG CPU under TCG) */
const char *bm_qemu_cpu(const struct bm_qemu_arch *arch, const char *want, int kvm);
/* 0 when s can be a -cpu value (a model and ,feature=value words), else -EINVAL */
int bm_qemu_cpu_check(const char *s);
int bm_qemu_argv(const struct bm_qemu_cfg *c, struct bm_argv *a);
/* Opens the files of c QEMU writes (console, results, the disk's pair) with
 * bm_out_open semantics, inheritable, into c's fds; bm_qemu_close_fds closes
 * them (after QEMU started: it holds its own copies).  With c->qmp also the
 * QMP socket pair: close_fds closes QEMU's end; qmp_own is the watchdog's
 * (bm_watch_cfg.fds), which reads and closes it.  0 or -errno. */
int bm_qemu_open_fds(struct bm_qemu_cfg *c);
void bm_qemu_close_fds(struct bm_qemu_cfg *c);

/* "auto": cache=none when the disk image takes O_DIRECT (the guest's
 * I/O then reaches the host device as issued), else writeback. */
int bm_disk_cache_mode(const char *disk, const char *want, char *mode, size_t len);

struct bm_watch_cfg {
	const char *console_log;
	const char *results_log;
	const char *qemu_log;     /* QEMU's own stdout/stderr */
	int silence_s;            /* kill after this long without progress */
	int timeout_s;            /* hard limit */
	int panic_grace_s;        /* after a panic, wait this long for QEMU to exit */
	/* Called every poll with the boot's elapsed and monotonic seconds
	 * (the live progress line); NULL = none. */
	void (*progress)(void *arg, const char *results_log, double elapsed, double now);
	void *progress_arg;
	struct bm_qemu_cfg *fds;  /* descriptors to close once QEMU runs; NULL none */
	/* Called once QEMU runs and then every sample_s seconds with its pid
	 * (the host's load, hostload.h); NULL = none. */
	void (*sample)(void *arg, pid_t qemu);
	void *sample_arg;
	int sample_s;
};

struct bm_watch_result {
	enum bm_watch verdict;
	int status;               /* waitpid status of QEMU */
	double seconds;
	char why[160];
};

/*
 * Signals that end a run: SIGINT, SIGTERM, SIGHUP (an ignored one stays
 * ignored).  bm_stop_catch() installs handlers that only note the signal
 * (1 when it installed them, 0 when they already were); bm_stop_signal() is
 * the first one caught (0 none), bm_stop_count() how many; bm_stop_release()
 * restores the old actions; bm_stop_reraise() releases and raises the first
 * signal again, so the process ends by it once its results are written.
 */
int bm_stop_catch(void);
void bm_stop_release(void);
int bm_stop_signal(void);
int bm_stop_count(void);
const char *bm_stop_name(int sig);
void bm_stop_reraise(void);

/*
 * QEMU's QMP monitor, read for the one event that is the host's failure:
 * BLOCK_IO_ERROR with action "stop" (the host's filesystem under disk.img
 * is full, and QEMU pauses the guest: werror=enospc, its default).
 * bm_qmp_pair makes the socket pair (QEMU's end inheritable, ours
 * non-blocking); bm_qmp_argv adds "-chardev socket,fd=N -mon"; the watch
 * starts with bm_qmp_start (the capabilities handshake), polls with
 * bm_qmp_poll (1 and why filled when the event came) and ends with
 * bm_qmp_end (closes our end).
 */
struct bm_qmp {
	int fd, done;
	size_t n;
	char buf[8192];
};
int bm_qmp_pair(int *qemu_end, int *own);
void bm_qmp_argv(struct bm_argv *a, int fd);
void bm_qmp_start(struct bm_qmp *q, int fd);
int bm_qmp_poll(struct bm_qmp *q, char *why, size_t len);
void bm_qmp_end(struct bm_qmp *q);

/* SIGTERM, up to 5 s grace (cut short by a further stop signal), then
 * SIGKILL; returns the waitpid status. */
int bm_proc_stop(pid_t pid);
int bm_qemu_watch(char *const argv[], const struct bm_watch_cfg *c, struct bm_watch_result *r);

/*
 * Chooses the accelerator: accel is auto, kvm or tcg.  auto does not trust
 * /dev/kvm: it boots vmlinuz under KVM for a few seconds and needs the
 * "Linux version" banner.  why explains the choice (goes into meta.json).
 * A guest of another architecture than the host's (arch; NULL the host's)
 * gets TCG.  Returns 0, or -errno when kvm was forced and cannot work.
 */
int bm_kvm_choose(const struct bm_qemu_arch *arch, const char *accel, const char *vmlinuz,
		  const char *workdir, int *use_kvm, char *why, size_t whylen);

#endif
