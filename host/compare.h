/* SPDX-License-Identifier: MIT */
/*
 * "bootmark compare": R records of many boots grouped by (workload, test,
 * fs, metric) and kernel, summarized and tested against the first kernel
 * (the baseline).  host/compare.c builds the rows, host/compare_out.c
 * prints them; the rules are in docs/results.md ("Comparing kernels").
 */
#ifndef BM_COMPARE_H
#define BM_COMPARE_H

#include <stdio.h>

#include "bootdirs.h"
#include "cmpstats.h"
#include "results.h"

enum bm_cmp_fmt { BM_CMP_TEXT, BM_CMP_MARKDOWN, BM_CMP_CSV, BM_CMP_JSON };

struct bm_compare_opts {
	enum bm_cmp_fmt fmt;
	double alpha;   /* Welch p below this is significant (default 0.01) */
	int color;      /* text only: red regressions, green improvements */
};

/* Which way is better for a metric (rule in docs/results.md). */
enum bm_cmp_dir { BM_DIR_NONE, BM_DIR_HIGHER, BM_DIR_LOWER };

enum bm_cmp_dir bm_cmp_direction(const char *metric, const char *unit);

struct bm_cmp_boot {        /* one boot directory */
	char label[256];        /* directory name */
	char kernel[128];       /* HELLO kernel, else label without ".bN" */
	int kidx;               /* index in bm_cmp.kernels */
	int nth;                /* 1-based among the boots of its kernel */
	struct bm_results r;
};

struct bm_cmp_row {         /* one kernel's sample of one (wl, test, fs, metric) */
	const char *wl, *test, *fs, *metric, *unit;
	int kidx;
	int block;              /* rows of one (wl, test, metric) share a block */
	enum bm_cmp_dir dir;
	int hmean;              /* center is the harmonic mean (a rate) */
	struct bm_summary s;
	double center;
	double change;          /* % vs the baseline's center; NAN for it */
	double p_welch, p_mwu;  /* NAN when not computed */
	int sig;                /* p_welch < alpha */
	int verdict;            /* +1 improvement, -1 regression, 0 neither */
};

struct bm_cmp {
	struct bm_cmp_boot *boots;
	size_t nboots;
	char (*kernels)[128];   /* in order of first appearance; [0] = baseline */
	int *kboots;            /* boots per kernel */
	size_t nkernels;
	struct bm_cmp_row *rows;
	size_t nrows;
	double alpha;
	struct bm_seen seen;    /* boot folders read, by real path */
};

/* Loads the boots of dir (a run directory or one boot); 0, -EINVAL (bad
 * input, reported) or -errno. */
int bm_cmp_add_dir(struct bm_cmp *c, const char *dir);
/* Groups and tests; call once after the last bm_cmp_add_dir.  0 or -ENOMEM. */
int bm_cmp_build(struct bm_cmp *c, double alpha);
void bm_cmp_free(struct bm_cmp *c);
/* A boot whose results are left out (it did not run to END: bm_status_ran). */
int bm_cmp_boot_missing(const struct bm_cmp_boot *b);
/* What the tables say of a boot that did not complete. */
const char *bm_cmp_boot_note(const struct bm_cmp_boot *b);

void bm_cmp_print(FILE *f, const struct bm_cmp *c, const struct bm_compare_opts *o);
/* A value as the compare tables show it ("-" for NAN); returns buf. */
const char *bm_cmp_num(char *buf, size_t len, double v);

/* The whole command on dirs; 0, -EINVAL (bad input, reported), -errno. */
int bm_compare(FILE *f, char *const *dirs, int nd, const struct bm_compare_opts *o);

#endif
