// SPDX-License-Identifier: MIT
/* bench-boot's breakdown of one boot (bench_boot.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_boot.h"

#define TRIVIAL_LINE "bootmark-trivial-init"

const char *const bm_bb_name[BM_BB_N] = {
	"wall", "firmware", "kernel", "unpack", "runner", "setup", "modules", "disk", "hello",
	"mkfs", "clock-rate", "klog-skew", "klog-drift", "klog-cost",
};

const char *const bm_bb_label[BM_BB_N] = {
	"QEMU start to HELLO / trivial line (wall)",
	"  firmware+loader (wall - guest t at it)",
	"  kernel to /init (trivial: to its line)",
	"    of which initramfs unpack",
	"  runner start (/init to main)",
	"  runner setup (mounts, console, config)",
	"  module loading left after the setup",
	"  disk wait",
	"  hello (disk checks, facts)",
	"first mkfs (P mkfs to P mount)",
	"guest clock / host clock, HELLO to P mount",
	"printk clock - CLOCK_BOOTTIME (runner start)",
	"  its change by HELLO",
	"runner's /dev/kmsg scan",
};

void bm_bb_init(struct bm_bb *p)
{
	int i;

	for (i = 0; i < BM_BB_N; i++)
		p->v[i] = NAN;
}

/* A key's value as a number, NAN when absent or not a number. */
static double key_num(const struct bm_record *r, const char *key)
{
	const char *v = bm_rec_get(r, key);
	char *end;
	double d;

	if (!v || !*v)
		return NAN;
	d = strtod(v, &end);
	return *end ? NAN : d;
}

/* A time since boot: a number >= 0, else NAN. */
static double key_s(const struct bm_record *r, const char *key)
{
	double d = key_num(r, key);

	return d >= 0 ? d : NAN;
}

/* b - a when both are known and in order, else NAN. */
static double span(double a, double b)
{
	return b >= a ? b - a : NAN;
}

void bm_bb_from_hello(struct bm_bb *p, const struct bm_record *hello, double wall)
{
	double runner = key_s(hello, "t_runner"), modules = key_s(hello, "t_modules");
	double setup = key_s(hello, "t_setup");
	double disk = key_s(hello, "t_disk"), th = key_s(hello, "t_hello");
	double skew = key_num(hello, "klog_skew");
	/* printk's clock runs ahead of CLOCK_BOOTTIME by a constant (klog_drift
	 * shows how constant): "Run /init" on the runner's clock */
	double init = key_s(hello, "t_init") - (isnan(skew) ? 0 : skew);

	p->v[BM_BB_WALL] = wall;
	p->v[BM_BB_FW] = wall - th;
	p->v[BM_BB_KERNEL] = init;
	p->v[BM_BB_UNPACK] = span(key_s(hello, "t_unpack0"), key_s(hello, "t_unpack1"));
	p->v[BM_BB_RUNNER] = span(init, runner);
	/* an older runner without t_setup: setup counts as module loading */
	p->v[BM_BB_SETUP] = span(runner, setup);
	p->v[BM_BB_MODULES] = span(isnan(setup) ? runner : setup, modules);
	p->v[BM_BB_DISK] = span(modules, disk);
	p->v[BM_BB_HELLO] = span(disk, th);
	p->v[BM_BB_SKEW] = skew;  /* of either sign */
	p->v[BM_BB_DRIFT] = key_num(hello, "klog_drift");
	p->v[BM_BB_KCOST] = key_s(hello, "klog_cost");
}

int bm_bb_from_trivial(struct bm_bb *p, const char *buf, size_t len, double wall)
{
	const char *m = memmem(buf, len, TRIVIAL_LINE, strlen(TRIVIAL_LINE));
	const char *nl, *t;
	char num[32], *end;
	double d;

	if (!m || !(nl = memchr(m, '\n', len - (size_t)(m - buf))))
		return 0;
	p->v[BM_BB_WALL] = wall;
	t = m + strlen(TRIVIAL_LINE);
	if (nl - t < 4 || strncmp(t, " t=", 3) || nl - t - 3 >= (long)sizeof(num))
		return -EBADMSG;
	memcpy(num, t + 3, (size_t)(nl - t - 3));
	num[nl - t - 3] = '\0';
	d = strtod(num, &end);
	if (end == num || (*end && *end != '\r') || d < 0)
		return -EBADMSG;
	p->v[BM_BB_KERNEL] = d;
	p->v[BM_BB_FW] = wall - d;
	return 1;
}

void bm_bb_clock_rate(struct bm_bb *p, double t, double wall)
{
	double th = p->v[BM_BB_WALL] - p->v[BM_BB_FW];

	/* NAN compares false: an unknown HELLO leaves the rate unknown */
	if (wall - p->v[BM_BB_WALL] >= 0.2 && t >= th)
		p->v[BM_BB_RATE] = (t - th) / (wall - p->v[BM_BB_WALL]);
}

int bm_bb_feed_phase(struct bm_bb *p, const struct bm_record *rec, double *mkfs_t)
{
	const char *ph = bm_rec_get(rec, "phase");
	double t = key_s(rec, "t");

	if (!isnan(p->v[BM_BB_MKFS]))
		return 1;
	if (rec->type != BM_REC_PHASE || !ph || isnan(t))
		return 0;
	if (!strcmp(ph, "mkfs") && isnan(*mkfs_t))
		*mkfs_t = t;
	else if (!strcmp(ph, "mount") && !isnan(*mkfs_t))
		p->v[BM_BB_MKFS] = t >= *mkfs_t ? t - *mkfs_t : 0;
	return !isnan(p->v[BM_BB_MKFS]);
}
