/* SPDX-License-Identifier: MIT */
/*
 * What "bisect" and "bisect-step" share around a boot: the metric they
 * judge by (WORKLOAD.VARIANT.METRIC on one filesystem), its value in one
 * boot's results, and the measure callback of host/bisect/bisect_run.h that boots
 * a candidate into OUT/c<NN>.b<K>/.
 */
#ifndef BM_BISECT_BOOT_H
#define BM_BISECT_BOOT_H

#include <stddef.h>

#include "bisect.h"
#include "profile.h"
#include "qemu_boot.h"
#include "results.h"

struct bm_bmetric {
	char wl[16], test[32], name[32], fs[32];
	char unit[16];        /* from the first value found; "" until then */
};

/* "dd.dd64r.real" + "ext4"; 0 or -EINVAL with a message. */
int bm_bmetric_parse(struct bm_bmetric *m, const char *spec, const char *fs);
/* 0 when the suite runs the metric's workload, else -EINVAL (reported). */
int bm_bmetric_check_suite(const struct bm_bmetric *m, const struct bm_suite *s,
			   const char *metric);
/* The mean of the metric over the boot's complete records (a suite may
 * repeat a test); 0, or -ENOENT when no record has it. */
int bm_bmetric_value(struct bm_bmetric *m, const struct bm_results *r, double *v);
/* The rule's direction from the metric's better direction: +1 when lower
 * is better (a bad kernel is higher), -1 when higher is better, 0 unknown. */
int bm_bmetric_dir(const struct bm_bmetric *m);
/*
 * The completed boots' values of the metric in dir (a run directory or one
 * boot), into a malloc'd *v.  Returns the count, or -errno (reported).
 */
int bm_bmetric_collect(struct bm_bmetric *m, const char *dir, double **v);

struct bm_bctx {                  /* the measure callback's argument */
	const struct bm_run_cfg *c;
	struct bm_kspec *specs;
	struct bm_bmetric *m;
	const char *out;
	int *boots;                   /* per candidate, for the labels */
	char (*methods)[8];           /* per candidate: how its last boot booted, or NULL */
	int boot_mode;
};

/* bm_measure_fn: boots candidate cand once into OUT/c<NN>.b<K>. */
int bm_bisect_measure(void *arg, int cand, double *value, char *why, size_t whylen);

#endif
