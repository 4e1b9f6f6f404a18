/* SPDX-License-Identifier: MIT */
/* The HELLO record's facts about the machine, gathered from /proc and uname. */
#ifndef BM_RUNNER_HELLO_H
#define BM_RUNNER_HELLO_H

#include <sys/utsname.h>

#include "config.h"
#include "disk.h"
#include "proto.h"

#define RUNNER_VERSION "0.1"
#define HELLO_KV_MAX BM_KV_MAX

/*
 * Milestones of the boot on the guest's clock (seconds since boot), for the
 * host's breakdown of the time to HELLO (bootmark bench-boot).  The runner's
 * own are CLOCK_BOOTTIME; unpack0, unpack1 and init are printk timestamps of
 * kernel messages read back from /dev/kmsg.  < 0: unknown, the key is absent.
 */
struct hello_times {
	double runner, setup, modules, disk, hello;
	double unpack0, unpack1, init;
	double kskew;   /* printk time minus CLOCK_BOOTTIME at the first probe */
	double kdrift;  /* the last probe's skew minus the first's */
	int kskew_ok;   /* probes found: 0 none, 1 kskew, 2 or more kdrift too */
	double kcost;   /* seconds the /dev/kmsg scan took */
};

void hello_times_init(struct hello_times *t);
/*
 * One /dev/kmsg record ("prio,seq,usec,flags;text", continuation lines
 * ignored): notes the time of the kernel messages we know.  1 when it is
 * a probe of ours, with its printk time minus the CLOCK_BOOTTIME it
 * carries in *skew; else 0.
 */
int hello_kmsg_record(struct hello_times *t, const char *rec, size_t len, double *skew);
/* A probe into the kernel log, early: "bootmark: clock probe <BOOTTIME>". */
void hello_kmsg_probe(void);
/*
 * Writes a last probe and reads the log from its start up to it
 * (bounded): unpack0, unpack1, init, kskew, kdrift and kcost.
 */
void hello_kmsg_scan(struct hello_times *t);

/* The machine's facts: read while the disk is still being looked for. */
struct hello_facts {
	struct utsname u;
	char cpu[128];
	long ncpu;
	long long mem_kb;
	int aio, aslr;
	/* the drivers coldplug loaded ("ahci,nvme", without what they need), or
	 * "": set by the caller after hello_facts_read (coldplug_drivers) */
	char coldplug[128];
};

void hello_facts_read(struct hello_facts *f);
/* Fills kv (at most HELLO_KV_MAX); facts NULL: read them now; disk may be
 * NULL when none was found, times NULL when there are none (tests).  Sets
 * times->hello. */
unsigned hello_collect(struct bm_kv *kv, const struct hello_facts *facts,
		       const struct runner_cfg *cfg, const char *cmdline,
		       const struct disk_info *disk, struct hello_times *times);

/* "model name" of the first CPU in /proc/cpuinfo text, or "" */
void hello_cpu_model(const char *cpuinfo, char *out, size_t len);

#endif
