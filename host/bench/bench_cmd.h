/* SPDX-License-Identifier: MIT */
/* bootmark bench-boot's state, shared by cmd_bench.c (boots) and bench_out.c (tables). */
#ifndef BM_BENCH_CMD_H
#define BM_BENCH_CMD_H

#include <limits.h>
#include <sys/types.h>

#include "bench_boot.h"
#include "qemu_boot.h"
#include "profile.h"
#include "proto.h"

#define MAX_RUNS      50
#define MAX_IMAGES    5
#define MAX_REPEATS   2      /* more boots of a run whose boot died before its marker */
#define TARGET_RATIO  1.10
#define SCAN_MAX      65536  /* HELLO and the first test's P records are in here */

/* One image bench-boot boots: the real one, the trivial one, or a recompression. */
struct image {
	char name[16];
	char method[8];   /* pvh or bzimage; image (arm64) */
	char initrd[PATH_MAX];
	int trivial;      /* its marker is the trivial init's line, not HELLO */
	int to_mkfs;      /* reads on to the first P mount (the first mkfs) */
	int on_console;   /* its marker is in the console log (arm64's trivial init) */
	int nodisk;       /* this boot's HELLO named no test disk: the image is broken */
	struct bm_argv argv;
	double t[MAX_RUNS];
	struct bm_bb bb[MAX_RUNS];
};

struct bench_opts {
	char out[PATH_MAX];
	char arch[8];
	char accel[8];
	char boot_method[8];
	char cpu[64];
	char disk_bus[16];
	char compress[64];
	long long runs, mem, smp, settle_ms;
};

struct bench {
	struct bench_opts o;
	struct bm_kspec spec;
	int nkernel;
	const struct bm_qemu_arch *arch;  /* --arch, resolved */
	char exe[PATH_MAX], image[PATH_MAX], configs[PATH_MAX], init[PATH_MAX];
	char modules[1024], out[PATH_MAX];
	char con[PATH_MAX], res[PATH_MAX], qlog[PATH_MAX];
	char other_image[PATH_MAX];  /* -kernel of the other method's images */
	struct bm_suite suite;
	struct bm_run_cfg c;
	struct bm_boot b;
	struct image img[MAX_IMAGES];
	int nimg;
	int bad_input;  /* prepare() failed on the options, not the system */
	int repeated;   /* boots repeated after one died before its marker */
	struct bm_record rec;
	char buf[SCAN_MAX];
};

/* The ratio against the fastest floor, its verdict, the methods against
 * each other and the breakdown (img[0] bootmark, img[1] trivial, both on
 * the chosen method; img[2], img[3] the same on the other one). */
void bm_bench_summary(const struct bench *B);
/* --compress: medians per image, the breakdown and the fastest. */
void bm_bench_compress_summary(const struct bench *B);
/* A file's size, -1 when it cannot be stat'ed. */
off_t bm_bench_size(const char *path);

#endif
