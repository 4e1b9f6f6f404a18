/* SPDX-License-Identifier: MIT */
/*
 * tests/history_gen: what its parts share (history_gen.c the generator and
 * boot folders, history_acc.c the accuracy tables, history_acc_conf.c the
 * confirmation table of history changes --confirm).
 */
#ifndef BM_TESTS_HISTORY_GEN_H
#define BM_TESTS_HISTORY_GEN_H

#include <stddef.h>
#include <stdint.h>

/* splitmix64 and Box-Muller: one seed, one history */
extern uint64_t rng_state;
uint64_t rnd(void);
double unif(void);
double normal(void);
int unif_int(int lo, int hi);

/* docs/performance.md, "repeat": the ten real-time CoVs (%) and their median */
extern const double measured_cov[10];
double median_cov(void);

enum kind { K_STEP, K_NONE, K_OUTLIER, K_VARIANCE, K_PULSE };

struct cell {
	const char *what;
	enum kind kind;
	int nk, boots;
	double cov, step;          /* %, % */
	int width;                 /* K_PULSE: kernels the step lasts before it is undone */
};

struct series {
	double *x;
	size_t *off;
	int nk;
	int chg[2], nchg;          /* the first kernel after each change */
	int outlier_at;            /* kernel holding the outlier; -1 none */
};

struct score {
	long tp0, tp1, fp0, fp1, steps, at_outlier, oracle;
};

/* A series of cell c into s (x, off allocated by the caller). */
void make_series(const struct cell *c, struct series *s);
/* Detections at[0..n) against the series' changes, into sc. */
void score(const struct series *s, const int *at, int n, struct score *sc);
void fmt_ratio(char *buf, size_t len, long a, long b);
/* The Markdown tables of docs/history.md, "Accuracy". */
int accuracy(int nseries);
void confirm_table(int nseries);

#endif
