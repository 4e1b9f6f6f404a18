// SPDX-License-Identifier: MIT
/* The look between the disk's ends (diskprobe.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disk.h"
#include "diskprobe.h"
#include "disksig.h"

#define MIB (1ULL << 20)

/* Adds a span unless it is there already; 0, or -E2BIG when s is full. */
static int add(struct disk_span *s, int *n, int max, uint64_t off, uint32_t len, int window)
{
	int i;

	for (i = 0; i < *n; i++)
		if (s[i].off == off)
			return 0;
	if (*n >= max)
		return -E2BIG;
	s[*n].off = off;
	s[*n].len = len;
	s[*n].window = window;
	(*n)++;
	return 0;
}

static int by_offset(const void *a, const void *b)
{
	const struct disk_span *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

int disk_probe_plan(uint64_t size, struct disk_span *s, int max)
{
	uint64_t lo = MIB, hi, slice, off, w;
	int n = 0, k, i, samples;

	if (size < 2 * MIB + DISKPROBE_SAMPLE_LEN)
		return 0;
	hi = size - MIB;
	for (k = 0; k < 63 && (MIB << k) / MIB == (1ULL << k); k++) {
		w = MIB << k;
		if (w + DISKPROBE_WINDOW <= hi)
			add(s, &n, max, w, DISKPROBE_WINDOW, 1);
		if (w + MIB + DISKPROBE_WINDOW <= hi)
			add(s, &n, max, w + MIB, DISKPROBE_WINDOW, 1);
		if (w > hi)
			break;
	}
	samples = DISKPROBE_SAMPLES;
	if ((hi - lo) / DISKPROBE_SAMPLE_LEN < (uint64_t)samples)
		samples = (int)((hi - lo) / DISKPROBE_SAMPLE_LEN);
	slice = (hi - lo) / (uint64_t)samples;
	for (i = 0; i < samples; i++) {
		off = (lo + (uint64_t)i * slice + slice / 2) & ~(uint64_t)(DISKPROBE_SAMPLE_LEN - 1);
		if (off + DISKPROBE_SAMPLE_LEN > hi)
			off = (hi - DISKPROBE_SAMPLE_LEN) & ~(uint64_t)(DISKPROBE_SAMPLE_LEN - 1);
		add(s, &n, max, off, DISKPROBE_SAMPLE_LEN, 0);
	}
	qsort(s, (size_t)n, sizeof(*s), by_offset);
	return n;
}

/* "1 MiB", "3 MiB" or "offset 1234567" */
static void where(char *out, size_t len, uint64_t off)
{
	if (off % MIB)
		snprintf(out, len, "offset %llu", (unsigned long long)off);
	else
		snprintf(out, len, "%llu MiB", (unsigned long long)(off / MIB));
}

/* What a span that is not all zero holds: a signature at its start, else
 * the first non-zero byte. */
static void describe_span(const unsigned char *buf, const struct disk_span *sp, size_t nz,
			  char *what, size_t len)
{
	struct disksig sig[DISKSIG_MAX];
	char one[160], at[48];
	int n = disksig_probe(buf, sp->len, sig, DISKSIG_MAX);

	if (n > 0) {
		disksig_describe(&sig[0], one, sizeof(one));
		where(at, sizeof(at), sp->off);
		snprintf(what, len, "%s at %s, between the disk's ends", one, at);
	} else {
		snprintf(what, len, "unrecognised non-zero data at offset %llu, between the disk's ends",
			 (unsigned long long)(sp->off + nz));
	}
}

int disk_probe_deep(const char *dev, uint64_t size, char *what, size_t len, int *reads)
{
	struct disk_span plan[DISKPROBE_MAX];
	int n = disk_probe_plan(size, plan, DISKPROBE_MAX), i, ret;
	struct disk_fd f;
	unsigned char *buf;
	size_t nz;

	*reads = 0;
	what[0] = '\0';
	if (posix_memalign((void **)&buf, 4096, DISKPROBE_WINDOW)) {
		snprintf(what, len, "cannot read %s: out of memory", dev);
		return -ENOMEM;
	}
	ret = disk_fd_open(&f, dev, O_RDONLY);
	for (i = 0; !ret && i < n; i++) {
		ret = disk_fd_pread(&f, buf, plan[i].len, plan[i].off);
		if (ret)
			break;
		(*reads)++;
		nz = disksig_nonzero(buf, plan[i].len);
		if (nz < plan[i].len) {
			describe_span(buf, &plan[i], nz, what, len);
			ret = 1;
		}
	}
	if (ret < 0)
		snprintf(what, len, "cannot read %s: %s", dev, strerror(-ret));
	disk_fd_close(&f);
	free(buf);
	return ret;
}

int disk_probe_zero(const char *dev, uint64_t size, char *err, size_t errlen)
{
	struct disk_span plan[DISKPROBE_MAX];
	int n = disk_probe_plan(size, plan, DISKPROBE_MAX), i, ret;
	struct disk_fd f;
	void *zero;

	if (posix_memalign(&zero, 4096, DISKPROBE_WINDOW)) {
		snprintf(err, errlen, "cannot wipe %s: out of memory", dev);
		return -ENOMEM;
	}
	memset(zero, 0, DISKPROBE_WINDOW);
	ret = disk_fd_open(&f, dev, O_WRONLY | O_EXCL);
	if (ret) {
		snprintf(err, errlen, "cannot open %s: %s", dev, strerror(-ret));
		goto out_free;
	}
	for (i = 0; !ret && i < n; i++)
		ret = disk_fd_pwrite(&f, zero, plan[i].len, plan[i].off);
	if (!ret)
		ret = disk_fd_sync(&f);
	if (ret)
		snprintf(err, errlen, "cannot wipe %s: %s", dev, strerror(-ret));
	disk_fd_close(&f);
out_free:
	free(zero);
	return ret;
}
