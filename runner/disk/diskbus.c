// SPDX-License-Identifier: MIT
/*
 * Which bus and controller driver the test disk hangs off (disk.h,
 * disk_bus_read), for the HELLO record: the host asked QEMU for a bus, a
 * lab box has whatever it has, and the report should say what the kernel
 * under test drove.  Read from the disk's device path in sysfs, the way
 * udev's path_id names it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "disk.h"

/* The driver bound at the sysfs folder dir ("" when none). */
static void driver_of(const char *dir, char *out, size_t len)
{
	char path[PATH_MAX], link[PATH_MAX];
	ssize_t n;

	out[0] = '\0';
	if (snprintf(path, sizeof(path), "%s/driver", dir) >= (int)sizeof(path))
		return;
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return;
	link[n] = '\0';
	snprintf(out, len, "%.63s", strrchr(link, '/') ? strrchr(link, '/') + 1 : link);
}

/* A folder of the path named like prefix<digit>..., or a "/<word>/" one. */
static int has_part(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *p = path;

	while ((p = strstr(p, prefix))) {
		if (p > path && p[-1] == '/' && (p[n] == '/' || (p[n] >= '0' && p[n] <= '9')))
			return 1;
		p += n;
	}
	return 0;
}

/* The bus, from the controller's driver and the folders between it and the disk. */
static const char *bus_name(const char *path, const char *driver)
{
	if (!strcmp(driver, "virtio_blk"))
		return "virtio";
	if (!strcmp(driver, "virtio_scsi"))
		return "virtio-scsi";
	if (has_part(path, "nvme"))
		return "nvme";
	if (has_part(path, "usb"))
		return "usb";
	if (has_part(path, "mmc_host") || has_part(path, "mmc"))
		return "mmc";
	if (has_part(path, "ata"))
		return "sata";
	if (has_part(path, "end_device-") || has_part(path, "port-"))
		return "sas";
	if (has_part(path, "host"))
		return "scsi";
	return "other";
}

int disk_bus_read(const char *sysblock, struct disk_info *d)
{
	char dev[PATH_MAX], real[PATH_MAX], drv[64] = "", *slash;

	d->bus[0] = d->driver[0] = '\0';
	if (snprintf(dev, sizeof(dev), "%s/%s/device", sysblock, d->name) >= (int)sizeof(dev))
		return -ENAMETOOLONG;
	if (!realpath(dev, real))
		return -errno;
	/* up from the disk's device to the first folder a driver holds, past
	 * the SCSI disk's own upper driver (sd) */
	for (snprintf(dev, sizeof(dev), "%s", real); dev[0] && strcmp(dev, "/sys/devices");) {
		driver_of(dev, drv, sizeof(drv));
		if (drv[0] && strcmp(drv, "sd"))
			break;
		drv[0] = '\0';
		slash = strrchr(dev, '/');
		if (!slash || slash == dev)
			break;
		*slash = '\0';
	}
	snprintf(d->driver, sizeof(d->driver), "%s", drv[0] ? drv : "unknown");
	snprintf(d->bus, sizeof(d->bus), "%s", bus_name(real, drv));
	return 0;
}
