// SPDX-License-Identifier: MIT
/* runner/disk.c against a fake /sys/block tree and mountinfo in a temp dir. */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "disk.h"
#include "tap.h"

static char root[] = "/tmp/bm-disk-XXXXXX";

static int rm_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	return remove(path);
}

static void put(const char *rel, const char *text)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	if (!f)
		tap_bail("cannot build the fake sysfs tree");
	fputs(text, f);
	fclose(f);
}

static void tree(void)
{
	put("block/vda/serial", "BMSCRATCH0\n");
	put("block/vda/size", "2097152\n");
	put("block/vda/dev", "253:0\n");
	put("block/vda/ro", "0\n");
	put("block/vda/removable", "0\n");
	put("block/vdb/serial", "OTHERDISK\n");
	put("block/vdb/dev", "253:16\n");
	put("block/sda/device/wwid", "t10.ATA     QEMU HARDDISK    QM00001 SATASERIAL7\n");
	put("block/sda/dev", "8:0\n");
	put("block/sda/size", "8\n");
	put("block/sda/ro", "1\n");
	put("block/sdb/device/serial", "  TWIN  \n");
	put("block/sdb/dev", "8:16\n");
	put("block/sdb/removable", "1\n");
	put("block/sdc/serial", "TWIN\n");
	put("block/sdc/dev", "8:32\n");
	put("block/vdc/serial", "HELD\n");
	put("block/vdc/dev", "253:32\n");
	put("block/vdc/holders/dm-0", "");
	put("block/vdd/serial", "MOUNTED\n");
	put("block/vdd/dev", "253:48\n");
	put("mountinfo", "22 1 0:21 / /proc rw - proc proc rw\n"
			 "40 1 253:48 / /mnt rw - ext4 /dev/vdd rw\n");
}

static void test_find(const char *sysblock)
{
	struct disk_info d;
	char err[256] = "";

	TAP_EQ_INT(disk_find(sysblock, "BMSCRATCH0", &d, err, sizeof(err)), 0, "serial file");
	TAP_EQ_STR(d.dev, "/dev/vda", "dev path");
	TAP_EQ_INT(d.size, 2097152ull * 512, "size from sectors");
	TAP_EQ_INT(d.major * 1000 + d.minor, 253000, "major:minor");
	TAP_EQ_INT(disk_find(sysblock, "SATASERIAL7", &d, err, sizeof(err)), 0, "wwid contains");
	TAP_EQ_STR(d.name, "sda", "wwid disk");
	tap_ok(disk_find(sysblock, "NOPE", &d, err, sizeof(err)) == -ENODEV &&
	       strstr(err, "no disk with serial NOPE"), "none: %s", err);
	tap_ok(disk_find(sysblock, "TWIN", &d, err, sizeof(err)) == -EEXIST &&
	       strstr(err, "sdb") && strstr(err, "sdc"), "two, both named: %s", err);
	tap_ok(disk_find(sysblock, "BMSCRATCH", &d, err, sizeof(err)) == -ENODEV,
	       "serial file must match whole");
	TAP_EQ_INT(disk_wait(sysblock, "NOPE", 0, &d, err, sizeof(err)), -ENODEV, "no wait");
}

static void check(const char *sysblock, const char *mi, const char *serial, int want,
		  const char *needle)
{
	struct disk_info d;
	char err[256] = "";
	int ret;

	if (disk_find(sysblock, serial, &d, err, sizeof(err))) {
		tap_ok(0, "find %s: %s", serial, err);
		return;
	}
	ret = disk_check_safe(sysblock, mi, &d, 0, err, sizeof(err));
	tap_ok(ret == want && (!needle || strstr(err, needle)), "%s: %d %s", serial, ret, err);
}

int main(void)
{
	char sysblock[256], mi[256];

	tap_plan(0);
	if (!mkdtemp(root))
		tap_bail("mkdtemp failed");
	tree();
	snprintf(sysblock, sizeof(sysblock), "%s/block", root);
	snprintf(mi, sizeof(mi), "%s/mountinfo", root);
	test_find(sysblock);
	check(sysblock, mi, "BMSCRATCH0", 0, NULL);
	check(sysblock, mi, "SATASERIAL7", -EROFS, "read-only");
	check(sysblock, mi, "OTHERDISK", 0, NULL);
	check(sysblock, mi, "HELD", -EBUSY, "holders");
	check(sysblock, mi, "MOUNTED", -EBUSY, "mounted");
	put("block/sdc/serial", "GONE\n");
	check(sysblock, mi, "TWIN", -EPERM, "removable");
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return tap_done();
}
