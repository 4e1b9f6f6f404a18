/* SPDX-License-Identifier: MIT */
/*
 * The runner's configuration: one option table feeds
 * /etc/bootmark/bootmark.conf ("key = value"), the kernel command line
 * ("bootmark.key=value", which overrides the file) and --help.
 */
#ifndef BM_RUNNER_CONFIG_H
#define BM_RUNNER_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include "opts.h"

#define RUNNER_CONF_PATH  "/etc/bootmark/bootmark.conf"
#define RUNNER_CMDLINE_PREFIX "bootmark."

struct runner_cfg {
	char run[16];          /* 8 lowercase hex; "" = generate one */
	char suite[32];
	char fs[128];          /* comma list of profile names */
	char disk_serial[64];  /* disk selectors: every one that is set must match */
	char disk_wwn[64];
	char disk_model[64];
	uint64_t disk_size;    /* exact size in bytes, 0 = any */
	char disk_wipe[64];    /* serial of a disk whose foreign signatures may be overwritten */
	char results[64];      /* device the records go to */
	char finish[16];       /* poweroff | reboot | halt */
	long long heartbeat;   /* seconds between B records */
	long long disk_wait;   /* seconds to wait for the test disk */
	char modules[256];     /* boot modules, comma list */
	char image_modules[256]; /* carried by the image, loaded only if named in modules */
	char modules_dir[128]; /* "" = /lib/modules/$(uname -r) */
	int coldplug;          /* load the drivers of storage controllers found (coldplug.h) */
	char etc_dir[128];     /* where suites/ and fs/ live */
	char mnt[64];          /* mount point of the test filesystem */
	long long loglevel;    /* runner diagnostics on stderr: 0 quiet .. 2 debug */
	long long watchdog;    /* seconds; 0 = do not arm the hardware watchdog */
	char watchdog_dev[64];
	int lava;              /* also one M record per metric (LAVA monitors) */
	char fault[16];        /* tests only: none | panic | hang | kmsg, after HELLO */
	long long aslr;        /* kernel.randomize_va_space for the run */
	char strace[64];       /* diagnostics: strace's path, every run() counted (sctrace.h) */
};

extern const struct bm_opt runner_opts[];

/* Defaults, then the config file text (may be NULL), then the command line
 * (may be NULL).  Stops at the first error: 0 or -errno, message in err. */
int runner_cfg_load(struct runner_cfg *c, const char *conf_text,
		    const char *conf_origin, const char *cmdline,
		    char *err, size_t errlen);
/* Checks values that the table cannot: run id shape, fs list shape. */
int runner_cfg_check(const struct runner_cfg *c, char *err, size_t errlen);
/* "key=value\n" for every option in table order; returns length or -E2BIG. */
int runner_cfg_dump(const struct runner_cfg *c, char *buf, size_t len);
/* CRC-32 of runner_cfg_dump(): the HELLO record's config= key. */
uint32_t runner_cfg_hash(const struct runner_cfg *c);

#endif
