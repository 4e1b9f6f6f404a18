/* SPDX-License-Identifier: MIT */
/*
 * What the streaming workloads (dd, lmdd, tiobench) share: the buffer they
 * write from and the loop that moves a file through it.
 */
#ifndef BM_RUNNER_SEQIO_H
#define BM_RUNNER_SEQIO_H

#include <stdint.h>

struct wl_ctx;

/* bs bytes, page aligned (what O_DIRECT needs; lmdd's valloc()), never zero:
 * a filesystem or device may treat zero blocks specially, so the pattern
 * keeps such layers from skipping the work.  NULL when out of memory; free(). */
unsigned char *seqio_buffer(uint64_t bs);

/*
 * Moves want bytes through fd in bs-byte blocks, write(2) or read(2); a
 * short transfer is continued to its block's end before the next block,
 * as dd does.  *done counts on from its value at entry.  Every beat_bytes
 * the context's heartbeat is called with what.  -ENOSPC when a write moves
 * nothing, -ENODATA when the file ends first, else 0 or -errno.
 */
int seqio_move(struct wl_ctx *ctx, int fd, unsigned char *buf, uint64_t bs, uint64_t want,
	       int writing, const char *what, uint64_t beat_bytes, uint64_t *done);

#endif
