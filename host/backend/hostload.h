/* SPDX-License-Identifier: MIT */
/*
 * The host's load over one boot (host/backend/hostload.c): load average, CPU busy,
 * steal and iowait shares from /proc/stat, the share of CPU time not spent
 * by the boot's own QEMU, and the other QEMU processes seen.  meta.json keeps
 * it as load_* keys (docs/results.md); bm_load_disturbed() is the rule by
 * which compare, report and bisect call a boot's timings disturbed.
 */
#ifndef BM_HOSTLOAD_H
#define BM_HOSTLOAD_H

#include <sys/types.h>

#define BM_LOAD_OTHERS_PCT 10.0  /* CPU share of everything but our QEMU */
#define BM_LOAD_STEAL_PCT  5.0   /* CPU stolen by the hypervisor */

struct bm_load {
	double load1_start, load1_end, load1_max;
	double busy_pct;          /* host CPU busy over the boot, % of all CPUs; -1 unknown */
	double others_pct;        /* ... less our QEMU's own CPU time */
	double steal_pct, iowait_pct;
	int qemu_max;             /* other QEMU processes seen at once, at most */
	char others[200];         /* their pids */
	int samples;
	long ncpu;
	pid_t qemu_pid;
	unsigned long long qemu_jiffies;
	unsigned long long ours0;  /* our and our reaped children's CPU at the start, ticks */
	int have_cpu;
	unsigned long long cpu0[8];
};

void bm_load_start(struct bm_load *l);
/* One sample while QEMU (pid qemu, 0 before it runs) is up. */
void bm_load_sample(struct bm_load *l, pid_t qemu);
void bm_load_end(struct bm_load *l);
/* Another QEMU was seen, or others used more than BM_LOAD_OTHERS_PCT of the
 * CPU, or steal was above BM_LOAD_STEAL_PCT. */
int bm_load_disturbed(const struct bm_load *l);

#endif
