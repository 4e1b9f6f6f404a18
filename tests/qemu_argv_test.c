/* SPDX-License-Identifier: MIT */
/* qemu/launch.c's argv: the clock options a timing rests on (--icount), the CPU. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "qemu.h"
#include "tap.h"

/* The argument after `opt`, or NULL when opt is not in the argv. */
static const char *after(const struct bm_argv *a, const char *opt)
{
	size_t i;

	for (i = 0; i + 1 < a->n; i++)
		if (!strcmp(a->v[i], opt))
			return a->v[i + 1];
	return NULL;
}

static void build_cpu(struct bm_argv *a, int kvm, int icount, const char *cpu)
{
	struct bm_qemu_cfg c = {
		.vmlinuz = "/k/vmlinuz", .append = "console=ttyS0", .console_log = "/o/console.log",
		.disk = "/o/disk.img", .disk_cache = "unsafe", .console_fd = -1, .results_fd = -1,
		.disk_fd = -1, .disk_ro_fd = -1, .decoy_fd = -1, .decoy_ro_fd = -1, .kvm = kvm, .mem_mib = 512, .smp = 1, .icount = icount,
		.cpu = cpu,
	};

	memset(a, 0, sizeof(*a));
	tap_ok(bm_qemu_argv(&c, a) == 0, "argv built (kvm %d, icount %d, cpu %s)", kvm, icount,
	       cpu ? cpu : "NULL");
}

static void build(struct bm_argv *a, int kvm, int icount)
{
	build_cpu(a, kvm, icount, NULL);
}

/* -cpu: TCG's default leaves out the string-move features TCG runs a byte
 * at a time; KVM passes the host's; a value given is passed as it is. */
static void test_cpu(void)
{
	static const char *const bad[] = { "", "-max", ",erms=off", "max erms", "max;ls",
					   "max\\x", "max/x", NULL };
	struct bm_argv a;
	const char *v;
	int i;

	build_cpu(&a, 0, -1, NULL);
	v = after(&a, "-cpu");
	TAP_EQ_STR(v ? v : "(none)", "max,erms=off,fsrm=off", "TCG: max without ERMS and FSRM");
	bm_argv_free(&a);
	build_cpu(&a, 0, -1, "auto");
	v = after(&a, "-cpu");
	TAP_EQ_STR(v ? v : "(none)", BM_QEMU_TCG_CPU, "TCG, --cpu auto: the same");
	bm_argv_free(&a);
	build_cpu(&a, 1, -1, "auto");
	v = after(&a, "-cpu");
	TAP_EQ_STR(v ? v : "(none)", "host", "KVM, --cpu auto: host");
	bm_argv_free(&a);
	build_cpu(&a, 0, -1, "max");
	v = after(&a, "-cpu");
	TAP_EQ_STR(v ? v : "(none)", "max", "--cpu max: as given");
	bm_argv_free(&a);
	tap_ok(!bm_qemu_cpu_check("Skylake-Client-v4,+ssse3,erms=off,x.y_z"),
	       "a model with feature words is accepted");
	tap_ok(!bm_qemu_cpu_check(BM_QEMU_TCG_CPU), "the default is accepted");
	for (i = 0; bad[i]; i++)
		tap_ok(bm_qemu_cpu_check(bad[i]) == -EINVAL, "refused: '%s'", bad[i]);
}

/* Every -device word of a, joined by '|', in order. */
static void devices(const struct bm_argv *a, char *out, size_t len)
{
	size_t i, used = 0;

	out[0] = '\0';
	for (i = 0; i + 1 < a->n; i++)
		if (!strcmp(a->v[i], "-device"))
			used += (size_t)snprintf(out + used, len - used, "%s%s", used ? "|" : "",
						 a->v[i + 1]);
}

/* --disk-bus: the adapter, then the disk at unit 0 and the decoy at unit 1,
 * each with its serial; an unknown name cannot reach here (the option's
 * choices) but falls back to virtio. */
static void test_buses(void)
{
	static const struct { const char *bus, *want; } cases[] = {
		{ "virtio", "virtio-blk-pci,drive=d0,serial=BMSCRATCH0|"
			    "virtio-blk-pci,drive=d1,serial=BMDECOY0" },
		{ "virtio-scsi", "virtio-scsi-pci,id=hba0|"
				 "scsi-hd,drive=d0,bus=hba0.0,scsi-id=0,serial=BMSCRATCH0|"
				 "scsi-hd,drive=d1,bus=hba0.0,scsi-id=1,serial=BMDECOY0" },
		{ "nvme", "nvme,drive=d0,serial=BMSCRATCH0|nvme,drive=d1,serial=BMDECOY0" },
		{ "sata", "ahci,id=hba0|ide-hd,drive=d0,bus=hba0.0,serial=BMSCRATCH0|"
			  "ide-hd,drive=d1,bus=hba0.1,serial=BMDECOY0" },
		{ "sas", "mptsas1068,id=hba0|"
			 "scsi-hd,drive=d0,bus=hba0.0,scsi-id=0,serial=BMSCRATCH0,wwn=0x3000424d00000000|"
			 "scsi-hd,drive=d1,bus=hba0.0,scsi-id=1,serial=BMDECOY0,wwn=0x3000424d00000001" },
		{ "megasas", "megasas-gen2,id=hba0|"
			     "scsi-hd,drive=d0,bus=hba0.0,scsi-id=0,serial=BMSCRATCH0|"
			     "scsi-hd,drive=d1,bus=hba0.0,scsi-id=1,serial=BMDECOY0" },
	};
	char got[512];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bm_qemu_cfg c = {
			.vmlinuz = "/k/vmlinuz", .append = "x", .console_log = "/o/console.log",
			.disk = "/o/disk.img", .disk_cache = "none", .disk_bus = cases[i].bus,
			.decoy = "/o/decoy.img", .console_fd = -1, .results_fd = -1,
			.disk_fd = -1, .disk_ro_fd = -1, .decoy_fd = -1, .decoy_ro_fd = -1,
			.mem_mib = 512, .smp = 1, .icount = -1,
		};
		struct bm_argv a = { 0 };

		tap_ok(bm_qemu_argv(&c, &a) == 0, "argv on %s", cases[i].bus);
		devices(&a, got, sizeof(got));
		TAP_EQ_STR(got, cases[i].want, cases[i].bus);
		bm_argv_free(&a);
	}
	tap_ok(bm_disk_bus_find(NULL) && !strcmp(bm_disk_bus_find(NULL)->name, "virtio"),
	       "no bus named: virtio");
	tap_ok(!bm_disk_bus_find("scsi"), "an unknown bus is not found");
	for (i = 0; bm_disk_buses[i].name; i++)
		tap_ok(bm_disk_bus_choices[i] && !strcmp(bm_disk_bus_choices[i], bm_disk_buses[i].name),
		       "choice %zu is the table's %s", i, bm_disk_buses[i].name);
	tap_ok(!bm_disk_bus_choices[i], "as many choices as buses");
}

int main(void)
{
	struct bm_argv a;
	const char *v;

	tap_plan(0);
	/* sleep=on: an idle vCPU's clock runs with the host's; sleep=off would warp
	 * it to the next timer while the disk works (docs/bisect.md) */
	build(&a, 0, 1);
	v = after(&a, "-icount");
	TAP_EQ_STR(v ? v : "(none)", "shift=1,sleep=on", "--icount 1: -icount shift=1,sleep=on");
	v = after(&a, "-accel");
	TAP_EQ_STR(v ? v : "(none)", "tcg", "--icount 1 runs under TCG");
	v = after(&a, "-drive");
	tap_ok(v && strstr(v, ",cache=unsafe"), "the disk's cache mode is passed (%s)", v ? v : "none");
	bm_argv_free(&a);

	build(&a, 0, -1);
	tap_ok(!after(&a, "-icount"), "no --icount: no -icount (real time)");
	bm_argv_free(&a);

	build(&a, 1, 1);
	tap_ok(!after(&a, "-icount"), "KVM: no -icount, which TCG alone has");
	v = after(&a, "-accel");
	TAP_EQ_STR(v ? v : "(none)", "kvm", "KVM: -accel kvm");
	bm_argv_free(&a);
	test_cpu();
	test_buses();
	return tap_done();
}
