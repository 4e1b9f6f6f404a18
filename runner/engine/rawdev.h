/* SPDX-License-Identifier: MIT */
/*
 * The test disk, or the device under a host-mode file, as a raw I/O target:
 * what the raw workloads (rawio, fio's target=disk and target=ng) ask of it
 * beyond a file descriptor.  sysfs paths are read from sysdev (normally
 * "/sys/dev/block") so tests can point it at a fixture tree.
 */
#ifndef BM_RUNNER_RAWDEV_H
#define BM_RUNNER_RAWDEV_H

#include <stddef.h>
#include <sys/types.h>

/* queue/<attr> of the block device dev (a partition's: its disk's), read from
 * sysdev/MAJ:MIN, trimmed.  0 or -errno. */
int rawdev_queue_attr(const char *sysdev, dev_t dev, const char *attr, char *out, size_t len);
/* 1 when queue/io_poll says the device completes polled I/O (NVMe with
 * poll queues: nvme.poll_queues=N), 0 when not, -errno when unknown. */
int rawdev_io_poll(const char *sysdev, dev_t dev);
/* The NVMe generic char device of namespace disk "/dev/nvmeXnY":
 * "/dev/ngXnY" (the kernel names it after the disk, Linux 5.13).
 * 0; -ENODEV when disk is not an NVMe namespace; -ENOENT when the
 * char device is not there (an older kernel). */
int rawdev_nvme_generic(const char *disk, char *out, size_t len);

#endif
