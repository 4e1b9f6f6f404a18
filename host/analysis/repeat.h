/* SPDX-License-Identifier: MIT */
/*
 * Samples and rounds of "bootmark run --repeat auto": the headline values
 * of each kernel's completed boots (one value per boot: the mean of the
 * boot's records for that key), the per-round verdicts, OUT/repeat.json.
 * The decision itself is host/analysis/autorep.c.
 */
#ifndef BM_REPEAT_H
#define BM_REPEAT_H

#include <stdio.h>

#include "autorep.h"
#include "results.h"

struct bm_rep_series {
	char key[128];            /* "ext4 tio-rndrd-t4 rate" */
	double *v;                /* one value per completed boot, cap values */
	size_t n;
	unsigned cnt;             /* records averaged into v[n-1] */
	int boot;                 /* the boot v[n-1] belongs to */
};

struct bm_rep_kernel {
	const char *label;
	int boots, completed;
	struct bm_rep_series *s;
	size_t ns;
	struct bm_ar_series *view;  /* s[] as bm_autorep_decide takes it */
};

struct bm_rep_round {            /* one kernel's verdict after one round */
	int round, kernel, boots, completed, more;
	double worst_pct;
	char worst[128];
};

struct bm_rep {
	struct bm_ar_limits lim;
	int nk;
	struct bm_rep_kernel *k;
	struct bm_rep_round *log;
	size_t nlog;
};

/* 0 or -ENOMEM; labels are borrowed. */
int bm_rep_init(struct bm_rep *r, const char *const *labels, int nk,
		const struct bm_ar_limits *lim);
void bm_rep_free(struct bm_rep *r);
/* Counts one boot of kernel ki; a completed one adds its headline values. */
int bm_rep_add_boot(struct bm_rep *r, int ki, const struct bm_results *res);
/*
 * Decides after round `round`, prints one line per kernel booted in it
 * (booted[ki] != 0) to f, sets need[ki]; returns how many need more.
 */
int bm_rep_round(struct bm_rep *r, int round, const int *booted, int *need, FILE *f);
/* OUT/repeat.json: limits, every round's verdicts, the final CoVs. 0 or -errno. */
int bm_rep_write_json(const struct bm_rep *r, const char *path);

#endif
