/* SPDX-License-Identifier: MIT */
/* The runner's state as PID 1, and the boot thread that works beside main's setup (bootwork.c). */
#ifndef BM_RUNNER_BOOTWORK_H
#define BM_RUNNER_BOOTWORK_H

#include <pthread.h>

#include "coldplug.h"
#include "config.h"
#include "disk.h"
#include "emit.h"
#include "hello.h"
#include "modload.h"
#include "wdog.h"

/* the boot thread's stack */
#define BOOT_STACK (1 << 20)

struct boot {
	struct runner_cfg cfg;
	char cfg_err[300];
	int cfg_bad;
	char *cmdline;            /* set by main before boot_cmdline_ready; then read only */
	struct emitter em;
	struct bm_moddb mi;
	int have_mi;
	int index_later;   /* the boot index served the boot modules: mi after HELLO */
	struct mod_preload pre;
	struct disk_info disk;
	int have_disk;
	int refused;       /* the disk may not be written (E class "refused") */
	struct wdog wd;
	struct hello_times times;  /* the boot's milestones, for HELLO */
	struct hello_facts facts;  /* the machine, for HELLO */
	/* the boot modules and the disk (find_disk_work), beside the setup;
	 * the thread waits for the command line, then for the configuration
	 * (stage) */
	pthread_t disk_th;
	int disk_th_on;
	pthread_mutex_t cfg_mu;   /* guards stage, disk_stage and ends_done */
	pthread_cond_t cfg_cv;
	int stage;                /* BOOT_CMDLINE, then BOOT_CONFIG: what main has read */
	int disk_stage;           /* DISK_WAIT, then DISK_FOUND or DISK_NONE: the thread's */
	void *check_buf;          /* the disk check's two MiB, made by main (boot_check_buf_make) */
	/* the disk's ends (disk_check_foreign), read by main once DISK_FOUND */
	int ends_done, ends_ret, ends_claim;
	int disk_claim;    /* enum disk_claim: what the checks found the chosen disk to be */
	int between_done;  /* the look between its ends was made (a wipe token named it) */
	char ends_err[600];
	int mod_ret, disk_ret;
	char mod_err[300], disk_err[600];
	/* coldplug while the disk is awaited (the boot thread only) */
	struct coldplug cold;
	int cold_state;           /* 0 not begun, 1 running, -1 off (no index) */
};

/* main's stages the thread waits for (struct boot's stage), and the
 * thread's main waits for (disk_stage) */
enum { BOOT_CMDLINE = 1, BOOT_CONFIG = 2 };
/* ordered: the thread's closing DISK_NONE does not undo a DISK_FOUND */
enum { DISK_WAIT = 0, DISK_NONE, DISK_FOUND };

/* Starts the boot thread, first thing: it plans the image's boot modules,
 * loads them once the command line is read, then waits for the
 * configuration. */
void boot_start(struct boot *b);
/* b->cmdline is read (or could not be: NULL): the thread may load. */
void boot_cmdline_ready(struct boot *b);
/* The configuration is read (b->cfg, cfg_bad): the thread goes on to the
 * boot modules' check and the disk (without a thread, this runs it). */
void boot_config_ready(struct boot *b);
/* While the thread works: main maps the disk check's two MiB. */
void boot_check_buf_make(struct boot *b);
/* Waits for the thread: then b's mod_ret, disk_ret, disk and times are set.
 * Meanwhile, once the thread has found the disk, main reads the disk's
 * first and last MiB while the thread checks that nothing uses it. */
void boot_join(struct boot *b);
/* After the hello, before anything is written to the disk: a disk blank at
 * both ends is looked at between them (diskprobe.h), and a blank or wiped
 * one gets bootmark's ownership mark.  0, or -errno with b->disk_err and
 * b->refused (it holds data). */
int boot_disk_take(struct boot *b);
/* After the hello: unmaps the disk check's buffer. */
void boot_check_buf_free(struct boot *b);
/* The whole module index into b->mi (have_mi); 0, or -errno with the
 * reason in err.  After the hello when the boot index served (index_later). */
int boot_load_index(struct boot *b, char *err, size_t errlen);

#endif
