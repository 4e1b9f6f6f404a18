// SPDX-License-Identifier: MIT
/* The streaming workloads' buffer and transfer loop (seqio.h). */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "seqio.h"
#include "wl.h"

unsigned char *seqio_buffer(uint64_t bs)
{
	unsigned char *b;
	uint64_t i;

	if (posix_memalign((void **)&b, 4096, bs))
		return NULL;
	for (i = 0; i < bs; i++)
		b[i] = (unsigned char)(0x5a ^ (i * 131));
	/* and no two sectors alike at their start */
	for (i = 0; i < bs; i += 512)
		b[i] = 0xa5;
	return b;
}

int seqio_move(struct wl_ctx *ctx, int fd, unsigned char *buf, uint64_t bs, uint64_t want,
	       int writing, const char *what, uint64_t beat_bytes, uint64_t *done)
{
	uint64_t next_beat = *done + beat_bytes, off, len;
	ssize_t n;

	while (*done < want) {
		off = *done % bs;
		len = bs - off;
		if (len > want - *done)
			len = want - *done;
		n = writing ? write(fd, buf + off, len) : read(fd, buf + off, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return writing ? -ENOSPC : -ENODATA;
		*done += (uint64_t)n;
		if (*done >= next_beat && ctx->beat) {
			ctx->beat(ctx, what);
			next_beat += beat_bytes;
		}
	}
	return 0;
}
