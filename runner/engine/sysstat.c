// SPDX-License-Identifier: MIT
/* Measurement window from /proc (sysstat.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "profile.h"
#include "sysstat.h"

int sysstat_parse_stat(const char *text, uint64_t *user_nice, uint64_t *sys)
{
	unsigned long long user, nice, system;
	const char *line = text;

	while (line) {
		/* "cpu " with the space: "cpu0" lines are per-CPU. */
		if (!strncmp(line, "cpu ", 4)) {
			if (sscanf(line + 4, "%llu %llu %llu", &user, &nice, &system) != 3)
				return -EINVAL;
			*user_nice = user + nice;
			*sys = system;
			return 0;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return -EINVAL;
}

int sysstat_parse_diskstats(const char *text, const char *dev,
			    uint64_t *rd_sectors, uint64_t *wr_sectors)
{
	unsigned long long rd, wr;
	const char *line = text;
	char name[64];
	int n;

	while (line && *line) {
		n = sscanf(line, "%*u %*u %63s %*u %*u %llu %*u %*u %*u %llu",
			   name, &rd, &wr);
		if (n >= 1 && !strcmp(name, dev)) {
			if (n != 3)
				return -EINVAL;
			*rd_sectors = rd;
			*wr_sectors = wr;
			return 0;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return -ENOENT;
}

static void read_clock(struct sysstat_snap *s)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	s->wall = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int read_proc(struct sysstat_snap *s, const char *procdir, const char *dev)
{
	char path[256], *buf;
	int ret;

	s->ok = 1;
	snprintf(path, sizeof(path), "%s/stat", procdir);
	ret = bm_read_file(path, &buf, NULL, 1 << 20);
	if (!ret) {
		ret = sysstat_parse_stat(buf, &s->user_ticks, &s->sys_ticks);
		free(buf);
	}
	if (ret)
		s->ok = 0;
	snprintf(path, sizeof(path), "%s/diskstats", procdir);
	ret = bm_read_file(path, &buf, NULL, 1 << 20);
	if (!ret) {
		ret = sysstat_parse_diskstats(buf, dev, &s->rd_sectors, &s->wr_sectors);
		free(buf);
	}
	if (ret)
		s->ok = 0;
	return s->ok ? 0 : -EIO;
}

int sysstat_begin(struct sysstat_snap *s, const char *procdir, const char *dev)
{
	int ret;

	memset(s, 0, sizeof(*s));
	ret = read_proc(s, procdir, dev);
	read_clock(s);
	return ret;
}

int sysstat_end(struct sysstat_snap *s, const char *procdir, const char *dev)
{
	memset(s, 0, sizeof(*s));
	read_clock(s);
	return read_proc(s, procdir, dev);
}

static double delta(uint64_t a, uint64_t b)
{
	return b >= a ? (double)(b - a) : 0.0;
}

void sysstat_add_metrics(const struct sysstat_snap *a, const struct sysstat_snap *b,
			 long hz, struct bm_result *r)
{
	double h = hz > 0 ? (double)hz : 100.0;

	bm_result_add(r, "real", b->wall - a->wall, "s");
	bm_result_add(r, "utime", delta(a->user_ticks, b->user_ticks) / h, "s");
	bm_result_add(r, "stime", delta(a->sys_ticks, b->sys_ticks) / h, "s");
	/* diskstats sectors are 512 bytes whatever the device's sector size. */
	bm_result_add(r, "read", delta(a->rd_sectors, b->rd_sectors) / 2.0, "KiB");
	bm_result_add(r, "written", delta(a->wr_sectors, b->wr_sectors) / 2.0, "KiB");
}
