/* SPDX-License-Identifier: MIT */
/*
 * FIEMAP (and FIBMAP) definitions.  musl-gcc does not see the kernel's uapi headers, so
 * when <linux/fiemap.h> is missing the ABI structures are spelled out here
 * (they are part of the stable kernel ABI, include/uapi/linux/fiemap.h).
 */
#ifndef BM_FIEMAP_COMPAT_H
#define BM_FIEMAP_COMPAT_H

#include <stdint.h>
#include <sys/ioctl.h>

#if __has_include(<linux/fiemap.h>)
#include <linux/fiemap.h>
#else
struct fiemap_extent {
	uint64_t fe_logical;
	uint64_t fe_physical;
	uint64_t fe_length;
	uint64_t fe_reserved64[2];
	uint32_t fe_flags;
	uint32_t fe_reserved[3];
};

struct fiemap {
	uint64_t fm_start;
	uint64_t fm_length;
	uint32_t fm_flags;
	uint32_t fm_mapped_extents;
	uint32_t fm_extent_count;
	uint32_t fm_reserved;
	struct fiemap_extent fm_extents[];
};

#define FIEMAP_MAX_OFFSET   (~0ULL)
#define FIEMAP_FLAG_SYNC    0x00000001
#define FIEMAP_EXTENT_LAST  0x00000001
#endif

#ifndef FS_IOC_FIEMAP
#define FS_IOC_FIEMAP _IOWR('f', 11, struct fiemap)
#endif

/* filefrag's fallback where a filesystem has no FIEMAP (include/uapi/linux/fs.h) */
#ifndef FIBMAP
#define FIBMAP _IO(0x00, 1)
#endif
#ifndef FIGETBSZ
#define FIGETBSZ _IO(0x00, 2)
#endif

#endif
