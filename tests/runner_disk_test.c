// SPDX-License-Identifier: MIT
/* runner/disk/disk.c against a fake /sys/block tree, mountinfo, swaps and disk images
 * in a temp dir. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "disk.h"
#include "diskmark.h"
#include "diskprobe.h"
#include "tap.h"

static char root[] = "/tmp/bm-disk-XXXXXX";
static char sysblock[256], mi[256], swaps[256];

static int rm_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	return remove(path);
}

static void put_bytes(const char *rel, const void *data, size_t n)
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
	if (!f || fwrite(data, 1, n, f) != n)
		tap_bail("cannot build the fake sysfs tree");
	fclose(f);
}

static void put(const char *rel, const char *text)
{
	put_bytes(rel, text, strlen(text));
}

static void tree(void)
{
	/* SCSI VPD page 0x80: header, then the serial. */
	static const unsigned char vpd80[] = { 0, 0x80, 0, 8, 'S', 'C', 'S', 'I', 'S', 'N', '1', ' ' };

	put("block/vda/serial", "BMSCRATCH0\n");
	put("block/vda/size", "2097152\n");
	put("block/vda/dev", "253:0\n");
	put("block/vda/ro", "0\n");
	put("block/vda/removable", "0\n");
	put("block/vdb/serial", "OTHERDISK\n");
	put("block/vdb/dev", "253:16\n");
	put("block/vdb/size", "131072\n");
	put("block/sda/device/wwid", "t10.ATA     QEMU HARDDISK    QM00001 SATASERIAL7\n");
	put("block/sda/dev", "8:0\n");
	put("block/sda/size", "8\n");
	put("block/sda/ro", "1\n");
	put("block/sdb/device/serial", "  TWIN  \n");
	put("block/sdb/dev", "8:16\n");
	put("block/sdb/removable", "1\n");
	put("block/sdc/serial", "TWIN\n");
	put("block/sdc/dev", "8:32\n");
	put("block/sdd/device/wwid", "naa.5000c500a1b2c3d4\n");
	put("block/sdd/device/vendor", "QEMU    \n");
	put("block/sdd/device/model", "QEMU HARDDISK   \n");
	put("block/sdd/dev", "8:48\n");
	put("block/sdd/size", "4096\n");
	put_bytes("block/sde/device/vpd_pg80", vpd80, sizeof(vpd80));
	put("block/sde/device/vendor", "QEMU\n");
	put("block/sde/device/model", "QEMU HARDDISK\n");
	put("block/sde/dev", "8:64\n");
	put("block/sde/size", "131072\n");
	put("block/nvme0n1/wwid", "eui.0025388b71b0e1a2\n");
	put("block/nvme0n1/device/serial", "NVME0SN\n");
	put("block/nvme0n1/dev", "259:0\n");
	put("block/nvme0n1/device/model", "Samsung SSD 970 EVO\n");
	put("block/vdc/serial", "HELD\n");
	put("block/vdc/dev", "253:32\n");
	put("block/vdc/holders/dm-0", "");
	put("block/vdd/serial", "MOUNTED\n");
	put("block/vdd/dev", "253:48\n");
	put("block/vdd/vdd2/partition", "2\n");
	put("block/vdd/vdd2/dev", "253:50\n");
	put("block/vde/serial", "PARTHELD\n");
	put("block/vde/dev", "253:64\n");
	put("block/vde/vde1/partition", "1\n");
	put("block/vde/vde1/dev", "253:65\n");
	put("block/vde/vde1/holders/md0", "");
	put("block/vdf/serial", "SWAPPART\n");
	put("block/vdf/dev", "253:80\n");
	put("block/vdf/vdf3/partition", "3\n");
	put("block/vdf/vdf3/dev", "253:83\n");
	put("block/vdg/serial", "SWAPDISK\n");
	put("block/vdg/dev", "253:96\n");
	put("block/dm-0/dev", "254:0\n");
	put("block/dm-0/size", "4096\n");
	put("block/dm-0/slaves/vdc", "");
	/* Never candidates, whatever their serial says. */
	put("block/loop0/serial", "BMSCRATCH0\n");
	put("block/loop0/dev", "7:0\n");
	put("block/ram0/dev", "1:0\n");
	put("mountinfo", "22 1 0:21 / /proc rw - proc proc rw\n"
			 "40 1 253:50 / /mnt rw - ext4 /dev/vdd2 rw\n");
	put("swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
		     "/dev/vdf3                               partition\t1048572\t\t0\t\t-2\n"
		     "/dev/vdg                                partition\t1048572\t\t0\t\t-3\n"
		     "/swapfile                               file\t\t1048572\t\t0\t\t-4\n");
}

/* Finds with the given selectors; returns disk_find's code, the name in name. */
static int find(const char *serial, const char *wwn, const char *model, uint64_t size,
		char *name, char *err, size_t errlen)
{
	const struct disk_sel sel = { serial, wwn, model, size };
	struct disk_info d;
	int ret;

	err[0] = name[0] = '\0';
	ret = disk_find(sysblock, &sel, &d, err, errlen);
	if (!ret)
		strcpy(name, d.name);
	return ret;
}

static void want(const char *serial, const char *wwn, const char *model, uint64_t size,
		 const char *disk, const char *what)
{
	char name[32], err[1024];
	int ret = find(serial, wwn, model, size, name, err, sizeof(err));

	tap_ok(!ret && !strcmp(name, disk), "%s: %s (%d %s)", what, name, ret, err);
}

static void refuse(const char *serial, const char *wwn, const char *model, uint64_t size,
		   int code, const char *needle, const char *needle2, const char *what)
{
	char name[32], err[1024];
	int ret = find(serial, wwn, model, size, name, err, sizeof(err));

	tap_ok(ret == code && strstr(err, needle) && (!needle2 || strstr(err, needle2)),
	       "%s: %d %s", what, ret, err);
}

static void test_find(void)
{
	const struct disk_sel sel = { "BMSCRATCH0", "", "", 0 };
	struct disk_info d;
	char err[512] = "";

	TAP_EQ_INT(disk_find(sysblock, &sel, &d, err, sizeof(err)), 0, "serial file");
	TAP_EQ_STR(d.dev, "/dev/vda", "dev path (loop0 with the same serial is no candidate)");
	TAP_EQ_INT(d.size, 2097152ull * 512, "size from sectors");
	TAP_EQ_INT(d.major * 1000 + d.minor, 253000, "major:minor");
	TAP_EQ_STR(d.serial, "BMSCRATCH0", "serial kept");
	want("SATASERIAL7", "", "", 0, "sda", "serial as a word of a t10 wwid");
	want("SCSISN1", "", "", 0, "sde", "serial from VPD page 0x80");
	want("NVME0SN", "", "", 0, "nvme0n1", "serial from device/serial");
	refuse("BMSCRATCH", "", "", 0, -ENODEV, "no disk matches serial=BMSCRATCH", NULL,
	       "serial must match whole");
	refuse("QM00001 SATA", "", "", 0, -ENODEV, "no disk matches", NULL,
	       "wwid words, not substrings");
	refuse("NOPE", "", "", 0, -ENODEV, "no disk matches serial=NOPE",
	       "vda serial=BMSCRATCH0 size=1073741824", "none: the disks seen are listed");
	refuse("TWIN", "", "", 0, -EEXIST, "2 disks match serial=TWIN", "sdc", "two by serial");

	want("", "naa.5000c500a1b2c3d4", "", 0, "sdd", "wwn as sysfs has it");
	want("", "0x5000C500A1B2C3D4", "", 0, "sdd", "wwn with 0x, upper case");
	want("", "5000c500a1b2c3d4", "", 0, "sdd", "wwn bare");
	want("", "0025388B71B0E1A2", "", 0, "nvme0n1", "wwn from /sys/block/X/wwid (eui.)");
	refuse("", "5000c500a1b2c3d5", "", 0, -ENODEV, "no disk matches wwn=", "wwn=naa.5000c500a1b2c3d4",
	       "wrong wwn, the real one listed");
	refuse("", "t10.ATA", "", 0, -ENODEV, "no disk matches", NULL, "a t10 id is no wwn");

	refuse("", "", "QEMU HARDDISK", 0, -EEXIST, "2 disks match model='QEMU HARDDISK'",
	       "sde", "ambiguous model");
	want("", "", "QEMU QEMU HARDDISK", 2097152, "sdd", "vendor model, and size");
	want("SCSISN1", "", "qemu harddisk", 0, "sde", "model, any case, with serial");
	refuse("SCSISN1", "", "OTHER MODEL", 0, -ENODEV, "no disk matches serial=SCSISN1 model=",
	       NULL, "every selector must match");
	want("", "", "samsung ssd 970 evo", 0, "nvme0n1", "model without a vendor");
	refuse("", "", "SSD 970 EVO", 0, -ENODEV, "no disk matches model='SSD 970 EVO'", NULL,
	       "a model is matched whole");
	want("", "", "QEMU HARDDISK", 4096ull * 512, "sdd", "model and size");
	refuse("", "", "", 131072ull * 512, -EEXIST, "2 disks match size=67108864", "vdb",
	       "ambiguous size");
	refuse("BMSCRATCH0", "", "", 12345, -ENODEV, "size=12345", "size=1073741824",
	       "right serial, wrong size");
	TAP_EQ_INT(disk_wait(sysblock, &(struct disk_sel){ "NOPE", "", "", 0 }, 0, NULL, &d, err,
			     sizeof(err)), -ENODEV, "no wait");
}

static void test_no_disks(void)
{
	const struct disk_sel sel = { "X", "", "", 0 };
	char path[300], err[512];
	struct disk_info d;

	put("empty/ram0/dev", "1:0\n");
	snprintf(path, sizeof(path), "%s/empty", root);
	tap_ok(disk_find(path, &sel, &d, err, sizeof(err)) == -ENXIO &&
	       strstr(err, "no disk at all"), "only ram devices: %s", err);
	snprintf(path, sizeof(path), "%s/nosuch", root);
	tap_ok(disk_find(path, &sel, &d, err, sizeof(err)) == -ENOENT &&
	       strstr(err, "cannot open"), "no sysblock: %s", err);
}

static void check(const char *serial, int want_ret, const char *needle)
{
	const struct disk_sel sel = { serial, "", "", 0 };
	struct disk_info d;
	char err[512] = "";
	int ret;

	if (disk_find(sysblock, &sel, &d, err, sizeof(err))) {
		tap_ok(0, "find %s: %s", serial, err);
		return;
	}
	ret = disk_check_safe(sysblock, mi, swaps, &d, 0, err, sizeof(err));
	tap_ok(ret == want_ret && (!needle || strstr(err, needle)), "%s: %d %s", serial, ret, err);
}

/* dm-0 has the size of sdd: by size both match, and dm-0 itself is refused. */
static void check_dm(void)
{
	struct disk_info d;
	char err[512] = "";
	int ret;

	refuse("", "", "", 4096ull * 512, -EEXIST, "2 disks match size=2097152", "dm-0",
	       "a dm device is a candidate");
	memset(&d, 0, sizeof(d));
	strcpy(d.name, "dm-0");
	strcpy(d.dev, "/dev/dm-0");
	ret = disk_check_safe(sysblock, mi, swaps, &d, 0, err, sizeof(err));
	tap_ok(ret == -EBUSY && strstr(err, "built on other disks (vdc"), "dm-0: %d %s", ret, err);
}

/* An image file standing in for the disk's device node. */
static void image(const char *rel, size_t size, size_t off, const void *bytes, size_t n)
{
	char *buf = calloc(1, size);

	if (!buf)
		tap_bail("out of memory");
	memcpy(buf + off, bytes, n);
	put_bytes(rel, buf, size);
	free(buf);
}

static void *foreign_buf;  /* the caller's buffer for the next foreign(), or NULL */

static int foreign(const char *serial, const char *img, const char *wipe, int *claim,
		   char *err, size_t errlen)
{
	const struct disk_sel sel = { serial, "", "", 0 };
	struct disk_info d;
	char dev[300];

	if (disk_find(sysblock, &sel, &d, err, errlen))
		return -999;
	snprintf(dev, sizeof(dev), "%s/%s", root, img);
	return disk_check_foreign(sysblock, dev, &d, wipe, claim, foreign_buf, err, errlen);
}

/* Writes the mark of a disk with serial and size bytes (no WWN) onto image rel. */
static void mark(const char *rel, const char *serial, uint64_t size)
{
	struct disk_info d;
	char dev[300], err[300];

	memset(&d, 0, sizeof(d));
	snprintf(d.serial, sizeof(d.serial), "%s", serial);
	d.size = size;
	snprintf(dev, sizeof(dev), "%s/%s", root, rel);
	if (disk_mark_write(dev, &d, err, sizeof(err)))
		tap_bail(err);
}

static void test_foreign(void)
{
	unsigned char ext[200] = { 0 };
	char err[512], dev[300];
	int claim, ret;

	image("zero.img", 1 << 20, 0, "", 0);
	image("gpt.img", 3 << 20, 512, "EFI PART", 8);
	memcpy(ext + 56, "\x53\xef", 2);
	memcpy(ext + 120, "bootmark", 8);
	image("ours.img", 3 << 20, 1024, ext, sizeof(ext));
	image("oursmarked.img", 3 << 20, 1024, ext, sizeof(ext));
	mark("oursmarked.img", "BMSCRATCH0", 3 << 20);
	/* space-padded, as some tools pad labels: the prober trims the spaces */
	memcpy(ext + 120, "bootmark   ", 11);
	image("padded.img", 3 << 20, 1024, ext, sizeof(ext));
	memcpy(ext + 120, "BOOTMARK\0\0\0", 11);
	image("upper.img", 3 << 20, 1024, ext, sizeof(ext));
	mark("upper.img", "BMSCRATCH0", 3 << 20);
	memcpy(ext + 120, "home\0\0\0\0", 8);
	image("home.img", 1 << 20, 1024, ext, sizeof(ext));

	ret = foreign("BMSCRATCH0", "zero.img", "", &claim, err, sizeof(err));
	tap_ok(ret == 0 && claim == DISK_BLANK, "an all-zero start: blank, to be looked at "
	       "between its ends (%d, %d)", ret, claim);
	ret = foreign("BMSCRATCH0", "ours.img", "", &claim, err, sizeof(err));
	tap_ok(ret == -ENOTEMPTY && strstr(err, "holds an ext2 filesystem labelled 'bootmark' "
	       "without bootmark's ownership mark (a label proves nothing); set disk_wipe="),
	       "an ext2 labelled bootmark, no mark: refused: %s", err);
	ret = foreign("BMSCRATCH0", "oursmarked.img", "", &claim, err, sizeof(err));
	tap_ok(ret == 0 && claim == DISK_MARKED, "the same beside its mark: bootmark's (%d, %d)",
	       ret, claim);
	ret = foreign("BMSCRATCH0", "padded.img", "", &claim, err, sizeof(err));
	tap_ok(ret == -ENOTEMPTY && strstr(err, "without bootmark's ownership mark"),
	       "'bootmark   ', space-padded, no mark: refused: %s", err);
	ret = foreign("BMSCRATCH0", "upper.img", "", &claim, err, sizeof(err));
	tap_ok(ret == -ENOTEMPTY && strstr(err, "an ext2 filesystem labelled 'BOOTMARK' that "
	       "bootmark did not make"), "labelled BOOTMARK, even beside the mark: %s", err);
	ret = foreign("BMSCRATCH0", "home.img", "", &claim, err, sizeof(err));
	tap_ok(ret == -ENOTEMPTY && strstr(err, "an ext2 filesystem labelled 'home'") &&
	       strstr(err, "disk_wipe=BMSCRATCH0"), "a foreign filesystem: %s", err);
	ret = foreign("BMSCRATCH0", "gpt.img", "OTHERDISK", &claim, err, sizeof(err));
	tap_ok(ret == -ENOTEMPTY && strstr(err, "/dev/vda (serial BMSCRATCH0) holds a GPT partition table"),
	       "GPT, wipe token of another disk: %s", err);
	ret = foreign("BMSCRATCH0", "gpt.img", "BMSCRATCH0", &claim, err, sizeof(err));
	tap_ok(ret == 0 && claim == DISK_WIPE && strstr(err, "wiping"),
	       "GPT, wipe token matches: %s", err);
	ret = foreign("MOUNTED", "zero.img", "", &claim, err, sizeof(err));
	tap_ok(ret == -ENOTEMPTY && strstr(err, "1 partition (vdd2)"),
	       "partitions on an empty-looking disk: %s", err);
	/* The runner's main makes the buffer (stale bytes in it must not count). */
	if (posix_memalign(&foreign_buf, 4096, DISK_CHECK_BUF_LEN))
		tap_bail("out of memory");
	memset(foreign_buf, 0xaa, DISK_CHECK_BUF_LEN);
	ret = foreign("BMSCRATCH0", "zero.img", "", &claim, err, sizeof(err));
	TAP_EQ_INT(ret, 0, "the caller's buffer: the disk's bytes are read into it");
	ret = foreign("BMSCRATCH0", "home.img", "", &claim, err, sizeof(err));
	tap_ok(ret == -ENOTEMPTY && strstr(err, "labelled 'home'") &&
	       ((unsigned char *)foreign_buf)[DISK_CHECK_BUF_LEN - 1] == 0,
	       "the caller's buffer: a foreign filesystem still found, both MiB read: %s", err);
	free(foreign_buf);
	foreign_buf = NULL;

	snprintf(dev, sizeof(dev), "%s/gpt.img", root);
	TAP_EQ_INT(disk_wipe(dev, 3 << 20, err, sizeof(err)), 0, "wipe an image");
	ret = foreign("BMSCRATCH0", "gpt.img", "", &claim, err, sizeof(err));
	tap_ok(ret == 0 && claim == DISK_BLANK, "nothing foreign after the wipe: blank");
	snprintf(dev, sizeof(dev), "%s/nosuch.img", root);
	tap_ok(disk_wipe(dev, 3 << 20, err, sizeof(err)) == -ENOENT && strstr(err, "cannot open"),
	       "wipe a missing device: %s", err);
}

/* An image of size bytes with bytes at off, and more at off2 (n2 0 = none). */
static void image2(const char *rel, size_t size, size_t off, const void *bytes, size_t n,
		   size_t off2, const void *bytes2, size_t n2)
{
	char *buf = calloc(1, size);

	if (!buf)
		tap_bail("out of memory");
	memcpy(buf + off, bytes, n);
	memcpy(buf + off2, bytes2, n2);
	put_bytes(rel, buf, size);
	free(buf);
}

/* The first and last MiB: unknown data, end signatures, the wipe of both. */
static void test_unknown(void)
{
	const size_t mib = 1 << 20, size = 3 * mib, md10 = (size & ~0xfffUL) - 0x2000;
	unsigned char ext[200] = { 0 }, md[8] = { 0xfc, 0x4e, 0x2b, 0xa9, 1, 0, 0, 0 };
	char err[512], dev[300], what[300];
	int claim, ret, reads;

	memcpy(ext + 56, "\x53\xef", 2);
	memcpy(ext + 120, "bootmark", 8);
	image2("tail.img", size, 0, "", 0, size - 100, "\x01", 1);
	image2("head.img", size, 5000, "junk", 4, 0, "", 0);
	image2("middle.img", size, mib + 5, "junk", 4, 0, "", 0);
	image2("ourstail.img", size, 1024, ext, sizeof(ext), size - 100, "\x01", 1);
	mark("ourstail.img", "BMSCRATCH0", size);
	image2("md10.img", size, 0, "", 0, md10, md, sizeof(md));
	image2("oursmd10.img", size, 1024, ext, sizeof(ext), md10, md, sizeof(md));
	mark("oursmd10.img", "BMSCRATCH0", size);
	image2("small.img", mib + mib / 2, 10, "x", 1, mib + mib / 3, "y", 1);
	/* not a multiple of 512: the last MiB cannot be read O_DIRECT */
	image2("odd.img", size + 1000, 0, "", 0, size + 900, "\x02", 1);
	/* a partition at sector 63 behind a zeroed MBR */
	image2("sector63.img", size, 63 * 512 + 1024, ext, sizeof(ext), 0, "", 0);

	ret = foreign("BMSCRATCH0", "tail.img", "", &claim, err, sizeof(err));
	tap_ok(ret == -ENOTEMPTY && strstr(err, "holds unrecognised non-zero data at offset 3145628 "
	       "that bootmark did not make") && strstr(err, "disk_wipe=BMSCRATCH0"),
	       "data in the last MiB only: %s", err);
	ret = foreign("BMSCRATCH0", "odd.img", "", &claim, err, sizeof(err));
	tap_ok(ret == -ENOTEMPTY && strstr(err, "unrecognised non-zero data at offset 3146628 "),
	       "an end off the block size is read buffered: %s", err);
	ret = foreign("BMSCRATCH0", "head.img", "", &claim, err, sizeof(err));
	tap_ok(ret == -ENOTEMPTY && strstr(err, "unrecognised non-zero data at offset 5000 "),
	       "data in the first MiB: %s", err);
	ret = foreign("BMSCRATCH0", "sector63.img", "", &claim, err, sizeof(err));
	tap_ok(ret == -ENOTEMPTY && strstr(err, "an ext2 filesystem labelled 'bootmark' (at offset "
	       "32256, sector 63) that bootmark did not make"), "a filesystem at sector 63: %s", err);
	ret = foreign("BMSCRATCH0", "middle.img", "", &claim, err, sizeof(err));
	tap_ok(ret == 0 && claim == DISK_BLANK, "data between both MiBs: blank ends (%d, %d)", ret,
	       claim);
	snprintf(dev, sizeof(dev), "%s/middle.img", root);
	ret = disk_probe_deep(dev, size, what, sizeof(what), &reads);
	tap_ok(ret == 1 && strstr(what, "unrecognised non-zero data at offset 1048581, between "
	       "the disk's ends"), "... which the look between them finds (%d reads): %s", reads,
	       what);
	ret = foreign("BMSCRATCH0", "ourstail.img", "", &claim, err, sizeof(err));
	tap_ok(ret == -ENOTEMPTY && strstr(err, "unrecognised non-zero data at offset 3145628 "
	       "beside bootmark's ownership mark"), "data in the last MiB beside the mark: %s", err);
	ret = foreign("BMSCRATCH0", "md10.img", "", &claim, err, sizeof(err));
	tap_ok(ret == -ENOTEMPTY && strstr(err, "holds an md RAID member (superblock 1.0 at the end) "
	       "that bootmark did not make"), "md 1.0 at the end: %s", err);
	ret = foreign("BMSCRATCH0", "oursmd10.img", "", &claim, err, sizeof(err));
	tap_ok(ret == -ENOTEMPTY && strstr(err, "superblock 1.0 at the end") &&
	       !strstr(err, "ext2"), "md 1.0 beside the mark and an ext2 of ours: %s", err);
	ret = foreign("BMSCRATCH0", "tail.img", "BMSCRATCH0", &claim, err, sizeof(err));
	tap_ok(ret == 0 && claim == DISK_WIPE && strstr(err, "unrecognised non-zero data at offset "
	       "3145628; disk_wipe names it: wiping"), "unknown data, wipe token matches: %s", err);

	snprintf(dev, sizeof(dev), "%s/md10.img", root);
	TAP_EQ_INT(disk_wipe(dev, size, err, sizeof(err)), 0, "wipe md 1.0");
	ret = foreign("BMSCRATCH0", "md10.img", "", &claim, err, sizeof(err));
	tap_ok(ret == 0 && claim == DISK_BLANK, "nothing left after the wipe");
	snprintf(dev, sizeof(dev), "%s/middle.img", root);
	TAP_EQ_INT(disk_wipe_all(dev, size, err, sizeof(err)), 0, "wipe all of what is looked at");
	TAP_EQ_INT(disk_probe_deep(dev, size, what, sizeof(what), &reads), 0,
		   "the look between the ends then finds zeros");
	snprintf(dev, sizeof(dev), "%s/small.img", root);
	TAP_EQ_INT(foreign("BMSCRATCH0", "small.img", "", &claim, err, sizeof(err)), -ENOTEMPTY,
		   "a 1.5 MiB disk with data");
	TAP_EQ_INT(disk_wipe(dev, mib + mib / 2, err, sizeof(err)), 0, "wipe 1.5 MiB");
	TAP_EQ_INT(foreign("BMSCRATCH0", "small.img", "", &claim, err, sizeof(err)), 0,
		   "a disk between 1 and 2 MiB is wiped whole");
}

/* Marks that are not this disk's own: another disk's, a damaged one. */
static void test_marks(void)
{
	const size_t mib = 1 << 20, size = 4 * mib;
	unsigned char ext[200] = { 0 }, byte = 0x5a, rec[DISKMARK_LEN];
	char err[512], dev[300];
	int claim, ret, fd;
	struct disk_info other;

	memcpy(ext + 56, "\x53\xef", 2);
	memcpy(ext + 120, "bootmark", 8);
	image("serial.img", size, 1024, ext, sizeof(ext));
	mark("serial.img", "BMSCRATCH9", size);
	/* a mark made for a disk 1 MiB larger, copied to this one's last MiB */
	memset(&other, 0, sizeof(other));
	snprintf(other.serial, sizeof(other.serial), "BMSCRATCH0");
	other.size = size + mib;
	diskmark_encode(&other, rec);
	image2("size.img", size, 1024, ext, sizeof(ext), diskmark_offset(size), rec, sizeof(rec));
	image("damaged.img", size, 1024, ext, sizeof(ext));
	mark("damaged.img", "BMSCRATCH0", size);
	snprintf(dev, sizeof(dev), "%s/damaged.img", root);
	fd = open(dev, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || pwrite(fd, &byte, 1, (off_t)diskmark_offset(size) + 60) != 1)
		tap_bail("cannot damage the mark");
	close(fd);
	image("raw.img", size, 700, "raw test data", 13);
	mark("raw.img", "BMSCRATCH0", size);

	ret = foreign("BMSCRATCH0", "serial.img", "", &claim, err, sizeof(err));
	tap_ok(ret == -ENOTEMPTY && strstr(err, "bootmark's ownership mark of another disk (serial "
	       "BMSCRATCH9, 4194304 bytes)") && strstr(err, "that bootmark did not make"),
	       "another serial's mark: %s", err);
	ret = foreign("BMSCRATCH0", "size.img", "", &claim, err, sizeof(err));
	tap_ok(ret == -ENOTEMPTY && strstr(err, "mark of another disk (serial BMSCRATCH0, 5242880 "
	       "bytes)"), "another size's mark: %s", err);
	ret = foreign("BMSCRATCH0", "damaged.img", "", &claim, err, sizeof(err));
	tap_ok(ret == -ENOTEMPTY && strstr(err, "a damaged bootmark ownership mark at offset 3145728 "
	       "(wrong checksum, version or length)"), "a damaged mark: %s", err);
	ret = foreign("BMSCRATCH0", "serial.img", "BMSCRATCH0", &claim, err, sizeof(err));
	tap_ok(ret == 0 && claim == DISK_WIPE, "another's mark, the wipe token names the disk: %s",
	       err);
	ret = foreign("BMSCRATCH0", "raw.img", "", &claim, err, sizeof(err));
	tap_ok(ret == 0 && claim == DISK_MARKED, "a raw test's bytes beside the mark: bootmark's");
	snprintf(dev, sizeof(dev), "%s/raw.img", root);
	memset(&other, 0, sizeof(other));
	snprintf(other.serial, sizeof(other.serial), "BMSCRATCH0");
	other.size = size;
	TAP_EQ_INT(disk_mark_check(dev, &other, err, sizeof(err)), 0, "disk_mark_check: ours");
	snprintf(other.serial, sizeof(other.serial), "BMSCRATCH1");
	tap_ok(disk_mark_check(dev, &other, err, sizeof(err)) == -ESTALE &&
	       strstr(err, "serial BMSCRATCH0"), "disk_mark_check: another's: %s", err);
	snprintf(dev, sizeof(dev), "%s/damaged.img", root);
	tap_ok(disk_mark_check(dev, &other, err, sizeof(err)) == -EBADMSG && strstr(err, "damaged"),
	       "disk_mark_check: damaged: %s", err);
	snprintf(dev, sizeof(dev), "%s/zero.img", root);
	other.size = mib;
	tap_ok(disk_mark_check(dev, &other, err, sizeof(err)) == -ENODATA &&
	       strstr(err, "too small"), "disk_mark_check: too small a disk: %s", err);
	other.size = size;
	snprintf(dev, sizeof(dev), "%s/middle.img", root);
	tap_ok(disk_mark_check(dev, &other, err, sizeof(err)) == -ENODATA &&
	       strstr(err, "no bootmark ownership mark at offset 3145728"), "none: %s", err);
}

/* disk_ends_sum: what a raw test changed in the two MiB the check reads. */
static void test_ends_sum(void)
{
	const size_t size = 4 << 20;
	uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	char dev[300];
	int fd;

	image("sum.img", size, 0, "", 0);
	snprintf(dev, sizeof(dev), "%s/sum.img", root);
	TAP_EQ_INT(disk_ends_sum(dev, size, &s0), 0, "the ends of a blank image summed");
	fd = open(dev, O_WRONLY | O_CLOEXEC);
	tap_ok(fd >= 0 && pwrite(fd, "x", 1, 2 << 20) == 1, "a byte written between the ends");
	disk_ends_sum(dev, size, &s1);
	tap_ok(s1 == s0, "a write between the ends leaves the sum");
	tap_ok(pwrite(fd, "x", 1, 4095) == 1, "a byte written into the first MiB");
	disk_ends_sum(dev, size, &s2);
	tap_ok(s2 != s1, "the first MiB changed: another sum");
	tap_ok(pwrite(fd, "y", 1, size - 1) == 1, "a byte written into the last MiB");
	disk_ends_sum(dev, size, &s3);
	tap_ok(s3 != s2, "the last MiB changed: another sum");
	if (fd >= 0)
		close(fd);
	TAP_EQ_INT(disk_ends_sum(dev, size + 4096, &s3), -ENODEV, "another size: not that disk");
}

int main(void)
{
	tap_plan(0);
	if (!mkdtemp(root))
		tap_bail("mkdtemp failed");
	tree();
	snprintf(sysblock, sizeof(sysblock), "%s/block", root);
	snprintf(mi, sizeof(mi), "%s/mountinfo", root);
	snprintf(swaps, sizeof(swaps), "%s/swaps", root);
	test_find();
	test_no_disks();
	check("BMSCRATCH0", 0, NULL);
	check("SATASERIAL7", -EROFS, "read-only");
	check("OTHERDISK", 0, NULL);
	check("HELD", -EBUSY, "holders (dm-0");
	check("PARTHELD", -EBUSY, "holders (md0");
	check("MOUNTED", -EBUSY, "mounted (/dev/vdd2)");
	check("SWAPPART", -EBUSY, "swap (/dev/vdf3)");
	check("SWAPDISK", -EBUSY, "swap (/dev/vdg)");
	check_dm();
	test_ends_sum();
	put("block/sdc/serial", "GONE\n");
	check("TWIN", -EPERM, "removable");
	test_foreign();
	test_unknown();
	test_marks();
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return tap_done();
}
