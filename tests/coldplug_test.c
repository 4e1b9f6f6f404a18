// SPDX-License-Identifier: MIT
/*
 * runner/modules/coldplug.c on a fake sysfs and module tree: a PCI AHCI
 * controller whose driver's "probe" brings a SCSI disk, which sd_mod then
 * takes; a bound controller, a network card and a controller the image has
 * no driver for are left alone (the last is named).  Also the module
 * options of the kernel command line (modparam.c) and the disk's bus and
 * controller from its device path (runner/disk/diskbus.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "coldplug.h"
#include "disk.h"
#include "modload.h"
#include "tap.h"
#include "testutil.h"
#include "util.h"

static char root[] = "/tmp/bm-coldplug-XXXXXX";
static char loads[512];          /* what the fake loader loaded, in order */

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX], dir[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	if (bm_mkdir_p(dir, 0755))
		tap_bail("cannot make a fixture folder");
	f = fopen(path, "w");
	if (!f)
		tap_bail("cannot write a fixture file");
	fputs(text, f);
	fclose(f);
}

/* rel (a folder made if missing) -> a link named name to target */
static void link_in(const char *rel, const char *name, const char *target)
{
	char dir[PATH_MAX], path[PATH_MAX + 64];

	snprintf(dir, sizeof(dir), "%s/%s", root, rel);
	if (bm_mkdir_p(dir, 0755))
		tap_bail("cannot make a fixture folder");
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (symlink(target, path))
		tap_bail("cannot make a fixture link");
}

/* A PCI device folder under devices/ and its link on the bus. */
static void pci_dev(const char *addr, const char *alias, const char *cls, const char *vendor,
		    const char *device, const char *driver)
{
	char rel[256], target[PATH_MAX];

	snprintf(rel, sizeof(rel), "sys/devices/pci0000:00/%s/modalias", addr);
	put(rel, alias);
	snprintf(rel, sizeof(rel), "sys/devices/pci0000:00/%s/class", addr);
	put(rel, cls);
	snprintf(rel, sizeof(rel), "sys/devices/pci0000:00/%s/vendor", addr);
	put(rel, vendor);
	snprintf(rel, sizeof(rel), "sys/devices/pci0000:00/%s/device", addr);
	put(rel, device);
	snprintf(target, sizeof(target), "%s/sys/devices/pci0000:00/%s", root, addr);
	link_in("sys/bus/pci/devices", addr, target);
	if (driver) {
		snprintf(rel, sizeof(rel), "sys/devices/pci0000:00/%s", addr);
		snprintf(target, sizeof(target), "%s/sys/bus/pci/drivers/%s", root, driver);
		link_in(rel, "driver", target);
	}
}

/* The fake finit_module: notes the load, marks the module live, and does
 * what its probe would: ahci's finds a disk on the SCSI bus, sd_mod binds it. */
static int fake_load(void *ctx, const struct bm_moddb *db, const struct bm_mod *m)
{
	char rel[256], target[PATH_MAX];
	size_t n = strlen(loads);

	(void)ctx;
	(void)db;
	snprintf(loads + n, sizeof(loads) - n, "%s%s", n ? " " : "", m->name);
	snprintf(rel, sizeof(rel), "sys/module/%s/initstate", m->name);
	put(rel, "live\n");
	if (!strcmp(m->name, "ahci")) {
		snprintf(target, sizeof(target), "%s/sys/bus/pci/drivers/ahci", root);
		link_in("sys/devices/pci0000:00/0000:00:1f.2", "driver", target);
		put("sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/modalias",
		    "scsi:t-0x00\n");
		snprintf(target, sizeof(target),
			 "%s/sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0", root);
		link_in("sys/bus/scsi/devices", "0:0:0:0", target);
	}
	if (!strcmp(m->name, "sd_mod")) {
		snprintf(target, sizeof(target), "%s/sys/bus/scsi/drivers/sd", root);
		link_in("sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0",
			"driver", target);
	}
	return 0;
}

static void fake_modules(void)
{
	put("mods/modules.dep",
	    "kernel/drivers/ata/ahci.ko: kernel/drivers/ata/libahci.ko kernel/drivers/ata/libata.ko\n"
	    "kernel/drivers/ata/libahci.ko: kernel/drivers/ata/libata.ko\n"
	    "kernel/drivers/ata/libata.ko:\n"
	    "kernel/drivers/scsi/sd_mod.ko:\n"
	    "kernel/drivers/nvme/host/nvme.ko:\n"
	    "kernel/drivers/net/e1000e.ko:\n");
	put("mods/modules.alias",
	    "alias pci:v*d*sv*sd*bc01sc06i01* ahci\n"
	    "alias pci:v*d*sv*sd*bc01sc08i02* nvme\n"
	    "alias pci:v00008086d000010D3sv*sd*bc*sc*i* e1000e\n"
	    "alias scsi:t-0x00* sd_mod\n"
	    "alias scsi:t-0x0e* sd_mod\n");
	put("mods/modules.softdep", "");
	put("mods/modules.builtin", "");
}

static void test_coldplug(void)
{
	char sys[PATH_MAX], mods[PATH_MAX], err[300] = "", buf[512] = "", drv[128];
	struct bm_moddb db;
	struct coldplug cp;

	fake_modules();
	/* AHCI with no driver; NVMe held by a driver already; a network card
	 * (not storage, even with a module for it); an LSI controller the
	 * image has nothing for */
	pci_dev("0000:00:1f.2", "pci:v00008086d00002922sv00001AF4sd00001100bc01sc06i01\n",
		"0x010601\n", "0x8086\n", "0x2922\n", NULL);
	pci_dev("0000:00:03.0", "pci:v00001B36d00000010sv00001AF4sd00001100bc01sc08i02\n",
		"0x010802\n", "0x1b36\n", "0x0010\n", "nvme");
	pci_dev("0000:00:02.0", "pci:v00008086d000010D3sv00008086sd00000000bc02sc00i00\n",
		"0x020000\n", "0x8086\n", "0x10d3\n", NULL);
	pci_dev("0000:00:04.0", "pci:v00001000d00000054sv00001000sd00000000bc01sc00i00\n",
		"0x010000\n", "0x1000\n", "0x0054\n", NULL);
	snprintf(sys, sizeof(sys), "%s/sys", root);
	snprintf(mods, sizeof(mods), "%s/mods", root);
	if (bm_moddb_load(&db, mods, err, sizeof(err)))
		tap_bail("the fake module index does not load");
	coldplug_init(&cp, &db, sys);
	cp.load = fake_load;
	TAP_EQ_INT(coldplug_pass(&cp, err, sizeof(err)), 3, "pass 1 loads 3 modules");
	TAP_EQ_STR(loads, "libata libahci ahci", "AHCI's driver, what it needs first; nothing "
		   "for a bound controller or a network card");
	TAP_EQ_INT(coldplug_pass(&cp, err, sizeof(err)), 1, "pass 2: the disk ahci found");
	TAP_EQ_STR(loads, "libata libahci ahci sd_mod", "sd_mod for the SCSI disk");
	TAP_EQ_INT(coldplug_pass(&cp, err, sizeof(err)), 0, "pass 3: nothing new");
	TAP_EQ_STR(cp.loaded, "libata,libahci,ahci,sd_mod", "every module loaded, once");
	coldplug_drivers(&cp, drv, sizeof(drv));
	TAP_EQ_STR(drv, "ahci,sd_mod", "the drivers: what the devices asked for, not libata");
	TAP_EQ_INT(cp.norphans, 1, "one controller without a driver in the image");
	coldplug_describe_orphans(&cp, buf, sizeof(buf));
	TAP_EQ_STR(buf, "; no driver in the image for PCI storage controller 1000:0054 "
		   "(class 0x010000) at 0000:00:04.0", "it is named for the operator");
	/* a module some other load made live is not loaded again */
	loads[0] = '\0';
	put("sys/module/nvme/initstate", "live\n");
	snprintf(buf, sizeof(buf), "%s/sys/devices/pci0000:00/0000:00:03.0/driver", root);
	unlink(buf);    /* the NVMe controller now without a driver */
	TAP_EQ_INT(coldplug_pass(&cp, err, sizeof(err)), 0, "a live module is not loaded again");
	TAP_EQ_STR(loads, "", "no finit_module for it");
	bm_moddb_free(&db);
}

static void params(const char *cmdline, const char *module, const char *want)
{
	struct modparams mp;
	char name[300];

	modparam_parse(&mp, cmdline);
	snprintf(name, sizeof(name), "%s's options in '%.200s'", module, cmdline);
	TAP_EQ_STR(modparam_args(&mp, module), want, name);
}

static void test_modparam(void)
{
	struct modparams mp;
	char big[4096];
	size_t i;

	params("console=ttyS0 nvme.poll_queues=2 bootmark.suite=s", "nvme", "poll_queues=2");
	params("nvme.poll_queues=2 nvme.io_queue_depth=64", "nvme", "poll_queues=2 io_queue_depth=64");
	params("nvme-core.multipath=N", "nvme_core", "multipath=N");
	params("nvme_core.multipath=N", "nvme-core", "multipath=N");
	params("mptbase.mpt_debug_level=0x1", "mptsas", "");
	params("x.y=\"a b\" ahci.z=1", "x", "y=\"a b\"");
	params("x.y=\"a b\" ahci.z=1", "ahci", "z=1");
	params("a=b.c ahci.flag", "ahci", "flag");
	params("a=b.c", "a", "");
	params(".x=1 ahci.=2", "ahci", "");
	params("", "ahci", "");
	for (i = 0; i + 8 < sizeof(big); i += 8)
		memcpy(big + i, "m.p=123 ", 8);
	big[i] = '\0';
	TAP_EQ_INT(modparam_parse(&mp, big), -E2BIG, "more than a module holds: -E2BIG");
	tap_ok(strlen(modparam_args(&mp, "m")) > 200, "and what fits is kept");
}

/* A disk's device path, driver links along it: its bus and controller. */
static void disk_path(const char *name, const char *devpath, const char *drv_at,
		      const char *drv, const char *drv2_at, const char *drv2,
		      const char *want_bus, const char *want_drv)
{
	char rel[PATH_MAX], target[PATH_MAX], sysblock[PATH_MAX];
	struct disk_info d;

	snprintf(rel, sizeof(rel), "sys/devices/%s/x", devpath);
	put(rel, "");
	snprintf(rel, sizeof(rel), "sys/block/%s", name);
	snprintf(target, sizeof(target), "%s/sys/devices/%s", root, devpath);
	link_in(rel, "device", target);
	snprintf(target, sizeof(target), "%s/sys/bus/x/drivers/%s", root, drv);
	snprintf(rel, sizeof(rel), "sys/devices/%s", drv_at);
	link_in(rel, "driver", target);
	if (drv2) {
		snprintf(target, sizeof(target), "%s/sys/bus/x/drivers/%s", root, drv2);
		snprintf(rel, sizeof(rel), "sys/devices/%s", drv2_at);
		link_in(rel, "driver", target);
	}
	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "%s", name);
	snprintf(sysblock, sizeof(sysblock), "%s/sys/block", root);
	TAP_EQ_INT(disk_bus_read(sysblock, &d), 0, name);
	TAP_EQ_STR(d.bus, want_bus, "its bus");
	TAP_EQ_STR(d.driver, want_drv, "its controller's driver");
}

static void test_diskbus(void)
{
	disk_path("sda", "pci0000:01/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0",
		  "pci0000:01/0000:00:1f.2", "ahci",
		  "pci0000:01/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0", "sd", "sata", "ahci");
	disk_path("nvme0n1", "pci0000:01/0000:00:03.0/nvme/nvme0", "pci0000:01/0000:00:03.0",
		  "nvme", NULL, NULL, "nvme", "nvme");
	disk_path("vda", "pci0000:01/0000:00:05.0/virtio1", "pci0000:01/0000:00:05.0/virtio1",
		  "virtio_blk", "pci0000:01/0000:00:05.0", "virtio-pci", "virtio", "virtio_blk");
	disk_path("sdb", "pci0000:01/0000:00:06.0/virtio2/host1/target1:0:0/1:0:0:0",
		  "pci0000:01/0000:00:06.0/virtio2", "virtio_scsi", "pci0000:01/0000:00:06.0",
		  "virtio-pci", "virtio-scsi", "virtio_scsi");
	disk_path("sdc", "pci0000:01/0000:00:07.0/host2/port-2:0/end_device-2:0/target2:0:0/2:0:0:0",
		  "pci0000:01/0000:00:07.0", "mptsas", NULL, NULL, "sas", "mptsas");
	disk_path("sdd", "pci0000:01/0000:00:08.0/host3/target3:2:0/3:2:0:0",
		  "pci0000:01/0000:00:08.0", "megaraid_sas", NULL, NULL, "scsi", "megaraid_sas");
}

int main(void)
{
	tap_plan(0);
	tu_mkdtemp(root);
	test_coldplug();
	test_modparam();
	test_diskbus();
	bm_rm_rf(root);
	return tap_done();
}
