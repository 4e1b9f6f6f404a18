/* SPDX-License-Identifier: MIT */
/*
 * LAVA job for "bootmark lava" (docs/lava.md): deploy the kernel and the
 * bootmark initrd to TFTP, boot them (iPXE by default; U-Boot's booti on an
 * arm64 board; or a QEMU device of either arch), and a monitors test
 * whose pattern turns each M record (bootmark.lava=1, docs/protocol.md) into
 * one LAVA test case with its measurement and units.
 */
#ifndef BM_HOST_LAVA_H
#define BM_HOST_LAVA_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#include "backend.h"

/* The format of the generated job, in its header and its metadata. */
#define BM_LAVA_JOB_FORMAT 1

/* The monitor's regular expressions (Python re, applied by pexpect). */
#define BM_LAVA_START   "@@B1 [0-9a-f]{8} 1 H v=1 "
/* tests= (the planned tests) since issue 15; a runner before it wrote none */
#define BM_LAVA_END     "@@B1 [0-9a-f]{8} [1-9][0-9]* Z n=[0-9]+ results=[0-9]+ " \
			"errors=[0-9]+( tests=[0-9]+)? #[0-9a-f]{8}"
#define BM_LAVA_PATTERN "@@B1 [0-9a-f]{8} [1-9][0-9]* M id=(?P<test_case_id>[a-z0-9_]+) " \
			"result=(?P<result>pass|fail|unknown) " \
			"measurement=(?P<measurement>-?[0-9]+(\\.[0-9]+)?) " \
			"units=(?P<units>[!-~]+) #[0-9a-f]{8}"

/* The options of "bootmark lava" (its bm_opt table is in cmd_lava.c). */
struct bm_lava_opts {
	char kernel_url[1024];
	char initrd_url[1024];
	char dtb_url[1024];       /* u-boot: the board's device tree; "" = the device type's */
	char arch[8];             /* amd64 or arm64 (cmd_lava.c resolves auto) */
	char device_type[201];
	char job_name[201];
	char suite[32];
	char fs[128];
	char configs[4096];       /* where suite and profiles are checked ("" = the tree's) */
	char disk_serial[64];
	char disk_wwn[64];
	char disk_model[64];
	char disk_size[32];
	char console[64];        /* "ttyS0,115200n8"; "" = the device type's (cmd_lava.c
				  * resolves auto: the arch's first UART) */
	char boot_method[16];
	char commands[64];       /* the device type's boot command set */
	char tags[512];          /* comma list */
	char priority[8];        /* high, medium, low or 0..100 */
	char visibility[256];    /* public, personal or group:NAME[,NAME...] */
	char append[512];        /* more kernel command line words */
	long long timeout;       /* job minutes; 0 = from the suite */
	char out[PATH_MAX];
};

/* Checks every option.  0, or -EINVAL and a message naming the option in err. */
int bm_lava_check(const struct bm_lava_opts *o, char *err, size_t errlen);
/* The job timeout in minutes: --timeout, or what the suite usually needs. */
long long bm_lava_minutes(const struct bm_lava_opts *o);
/* The kernel command line words bootmark adds (LAVA's extra_kernel_args). */
int bm_lava_kernel_args(const struct bm_lava_opts *o, char *buf, size_t len);
/* Writes the job YAML of checked options; the same options give the same bytes.
 * 0 or -errno. */
int bm_lava_write(FILE *f, const struct bm_lava_opts *o);

/*
 * The LAVA backend (backend.h): LAVA boots the box, bootmark never sees it.
 * prepare writes the job of checked options to r.out ("" = standard
 * output), whole or not at all; the job's log saved as DIR/console.log is
 * its results folder, "bootmark parse" reads it (docs/lava.md).  0 or -errno (reported); refused is set
 * when r.out is a name bootmark will not write (bad input).
 */
struct bm_lava_req {
	struct bm_backend_req r;
	const struct bm_lava_opts *o;
	int refused;
};

#endif
