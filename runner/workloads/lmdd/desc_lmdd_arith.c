// SPDX-License-Identifier: MIT
/* lmdd arithmetic (lmdd.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lmdd.h"
#include "opts.h"

#define KiB 1024ull
#define MiB (1024ull * 1024ull)
#define LMDD_BS_MIN 512ull
#define LMDD_BS_LIMIT (64 * MiB)

double lmdd_mb(uint64_t bytes)
{
	return (double)bytes / LMDD_MB;
}

double lmdd_rate(double mb, double secs)
{
	return secs > 0 ? mb / secs : 0;
}

int lmdd_line(char *buf, size_t len, double mb, double secs)
{
	return snprintf(buf, len, "%.4f MB in %.4f secs, %.4f MB/sec", mb, secs,
			lmdd_rate(mb, secs));
}

void lmdd_bs_name(char *buf, size_t len, uint64_t bs)
{
	if (bs > MiB && bs % MiB == 0)
		snprintf(buf, len, "%llum", (unsigned long long)(bs / MiB));
	else if (bs && bs % KiB == 0)
		snprintf(buf, len, "%lluk", (unsigned long long)(bs / KiB));
	else
		snprintf(buf, len, "%llu", (unsigned long long)bs);
}

int lmdd_parse_bs(const char *list, uint64_t *bs, int max, const char **bad)
{
	char item[32];
	const char *p = list;
	size_t n;
	int count = 0;

	for (;;) {
		n = strcspn(p, ",");
		if (bad)
			*bad = p;
		if (n == 0 || n >= sizeof(item))
			return -EINVAL;
		memcpy(item, p, n);
		item[n] = '\0';
		if (count == max)
			return -E2BIG;
		if (bm_parse_size(item, &bs[count]) || bs[count] < LMDD_BS_MIN ||
		    bs[count] > LMDD_BS_LIMIT)
			return -EINVAL;
		count++;
		if (!p[n])
			break;
		p += n + 1;
	}
	if (bad)
		*bad = NULL;
	return count;
}
