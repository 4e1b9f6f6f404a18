// SPDX-License-Identifier: MIT
/*
 * Logs read in pieces (results.h, bm_log_lines).  A serial log comes from a
 * guest or a lab's console server: it may be any size and hold anything.
 * Reading it whole cost its size in memory, twice over while the buffer
 * grew; a piece at a time, reading costs BM_LOG_PIECE, and what the reader
 * keeps of it (common/stream.c: at most BM_STREAM_KEEP_MAX of records) is
 * all that grows.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results.h"

/*
 * Where to cut a line that fills the whole piece: no valid record may
 * straddle the cut.  A record is at most BM_LINE_MAX - 1 bytes and holds no
 * other marker (its values have no space), so the cut goes BM_LINE_MAX - 1
 * bytes before the end, or back to a marker that starts within a record's
 * length before that; the rest starts the next part.
 */
static size_t part_cut(const char *buf, size_t have)
{
	size_t p = have - (BM_LINE_MAX - 1), from = p - (BM_LINE_MAX - 1);
	const char *m = memmem(buf + from, have - from, BM_PROTO_MAGIC " ", 5);

	return m && (size_t)(m - buf) < p ? (size_t)(m - buf) : p;
}

static ssize_t read_some(int fd, char *buf, size_t len)
{
	ssize_t n;

	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

int bm_log_lines(const char *path, bm_log_line_fn fn, void *arg, uint64_t *size)
{
	size_t have = 0, start, len;
	uint64_t base = 0;
	struct stat st;
	char *buf, *nl;
	ssize_t n;
	int fd, rc = 0;

	*size = 0;
	/* O_NONBLOCK: a FIFO planted as a log is refused below, never waited on */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		rc = -EINVAL;
		goto out_close;
	}
	buf = malloc(BM_LOG_PIECE);
	if (!buf) {
		rc = -ENOMEM;
		goto out_close;
	}
	for (;;) {
		n = read_some(fd, buf + have, BM_LOG_PIECE - have);
		if (n < 0) {
			rc = (int)n;
			break;
		}
		have += (size_t)n;
		for (start = 0; !rc && (nl = memchr(buf + start, '\n', have - start)); start += len + 1) {
			len = (size_t)(nl - (buf + start));
			rc = fn(arg, buf + start, len, base + start);
		}
		if (!rc && n == 0 && start < have)
			rc = fn(arg, buf + start, have - start, base + start);  /* no '\n' at the end */
		if (rc || n == 0) {
			base += have;
			break;
		}
		if (start == 0 && have == BM_LOG_PIECE) {
			start = part_cut(buf, have);
			rc = fn(arg, buf, start, base);
		}
		memmove(buf, buf + start, have - start);
		base += start;
		have -= start;
		if (rc)
			break;
	}
	*size = base;
	free(buf);
out_close:
	close(fd);
	return rc;
}
