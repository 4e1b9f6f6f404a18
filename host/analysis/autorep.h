/* SPDX-License-Identifier: MIT */
/*
 * "bootmark run --repeat auto": whether a kernel needs another boot.
 * A pure function of the samples so far, like Phoronix's adaptive runs
 * (StandardDeviationThreshold): boot again while a headline metric's
 * coefficient of variation is at or above the limit, up to a cap.
 */
#ifndef BM_AUTOREP_H
#define BM_AUTOREP_H

#include <stddef.h>

struct bm_ar_series {        /* one headline metric: one value per completed boot */
	const char *key;         /* "ext4 tio-rndrd-t4 rate", for the message */
	const double *v;
	size_t n;
};

struct bm_ar_kernel {
	int boots;               /* boots tried, failed ones included (the cap) */
	int completed;           /* boots that completed (the minimum) */
	const struct bm_ar_series *s;
	size_t ns;
};

struct bm_ar_limits {
	int min, max;            /* completed boots at least; boots at most */
	double cov_pct;          /* stable when every CoV < cov_pct percent */
};

struct bm_ar_verdict {
	int more;                /* 1: boot this kernel again */
	double worst_pct;        /* highest CoV in percent; NAN if none defined */
	int worst;               /* its index in s[], -1 if none */
};

/*
 * Fills v[0..nk) and returns how many kernels need another boot.  A kernel
 * at max boots never does; below min completed boots it always does; else
 * it does while some series has fewer than 2 values, an undefined CoV, or
 * a CoV >= cov_pct, or when it has no series at all.
 */
int bm_autorep_decide(const struct bm_ar_kernel *k, size_t nk,
		      const struct bm_ar_limits *l, struct bm_ar_verdict *v);

#endif
