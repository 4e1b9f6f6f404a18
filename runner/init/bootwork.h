/* SPDX-License-Identifier: MIT */
/* The runner's state as PID 1, and the boot thread that works beside main's setup (bootwork.c). */
#ifndef BM_RUNNER_BOOTWORK_H
#define BM_RUNNER_BOOTWORK_H

#include <pthread.h>

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
	char *cmdline;            /* read by main before the thread starts; then read only */
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
	 * the thread waits for the configuration (cfg_ready) after the preload */
	pthread_t disk_th;
	int disk_th_on;
	pthread_mutex_t cfg_mu;   /* also guards check_buf and check_taken */
	pthread_cond_t cfg_cv;
	int cfg_ready;
	void *check_buf;          /* the disk check's two MiB, made by main (boot_check_buf_make) */
	int check_taken;          /* the thread has taken check_buf, or gone on without */
	int mod_ret, disk_ret;
	char mod_err[300], disk_err[600];
};

/* Starts the boot thread after the first mounts: it loads the image's boot
 * modules, then waits for the configuration. */
void boot_start(struct boot *b);
/* The configuration is read (b->cfg, cfg_bad): the thread goes on to the
 * boot modules' check and the disk (without a thread, this runs it). */
void boot_config_ready(struct boot *b);
/* While the thread works: main maps the disk check's two MiB for it. */
void boot_check_buf_make(struct boot *b);
/* Waits for the thread: then b's mod_ret, disk_ret, disk and times are set. */
void boot_join(struct boot *b);
/* After the hello: unmaps the disk check's buffer. */
void boot_check_buf_free(struct boot *b);
/* The whole module index into b->mi (have_mi); 0, or -errno with the
 * reason in err.  After the hello when the boot index served (index_later). */
int boot_load_index(struct boot *b, char *err, size_t errlen);

#endif
