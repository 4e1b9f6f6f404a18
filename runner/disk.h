/* SPDX-License-Identifier: MIT */
/*
 * Finding the test disk by serial number, and the checks made before the
 * runner writes to it.  sysfs and /proc paths are parameters so tests can
 * point them at a fixture tree.
 */
#ifndef BM_RUNNER_DISK_H
#define BM_RUNNER_DISK_H

#include <stddef.h>
#include <stdint.h>

struct disk_info {
	char name[32];       /* vda */
	char dev[48];        /* /dev/vda */
	char serial[64];
	uint64_t size;       /* bytes */
	unsigned major, minor;
};

/* Scans sysblock (/sys/block) for exactly one disk whose serial, device/serial
 * or device/wwid matches.  -ENODEV none, -EEXIST several (err lists them). */
int disk_find(const char *sysblock, const char *serial, struct disk_info *d,
	      char *err, size_t errlen);
/* disk_find, retried every 100 ms for up to wait_s seconds. */
int disk_wait(const char *sysblock, const char *serial, int wait_s,
	      struct disk_info *d, char *err, size_t errlen);
/* Refuses read-only, removable, held or mounted disks, and one that
 * O_EXCL cannot open.  mountinfo: /proc/self/mountinfo. */
int disk_check_safe(const char *sysblock, const char *mountinfo,
		    const struct disk_info *d, int try_open, char *err, size_t errlen);

#endif
