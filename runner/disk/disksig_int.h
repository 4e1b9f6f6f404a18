/* SPDX-License-Identifier: MIT */
/* What disksig.c (tables, filesystems) and disksig_vol.c (volumes) share. */
#ifndef BM_RUNNER_DISKSIG_INT_H
#define BM_RUNNER_DISKSIG_INT_H

#include <stddef.h>
#include <stdint.h>

#include "disksig.h"

struct probe_ctx {
	const unsigned char *buf;
	size_t len;
	struct disksig *sig;
	int n, max;
};

/* Bytes at off equal magic (and lie inside the buffer). */
int sig_has(const struct probe_ctx *c, size_t off, const void *magic, size_t n);
/* Integers at off; 0 past the end of the buffer. */
uint32_t sig_le32(const struct probe_ctx *c, size_t off);
uint32_t sig_be32(const struct probe_ctx *c, size_t off);
uint64_t sig_le64(const struct probe_ctx *c, size_t off);
uint64_t sig_be64(const struct probe_ctx *c, size_t off);
/* Adds a signature; label_off/label_len 0 = no label.  NULL when full. */
struct disksig *sig_add(struct probe_ctx *c, const char *kind, const char *what, int is_fs,
			size_t label_off, size_t label_len);
/* LVM2, md 1.1/1.2, LUKS, bcache, bcachefs, ZFS L0/L1 (disksig_vol.c). */
void sig_probe_volumes(struct probe_ctx *c);

#endif
