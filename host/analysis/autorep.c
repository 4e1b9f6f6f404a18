// SPDX-License-Identifier: MIT
/* Adaptive repeat decision (host/analysis/autorep.h). */
#include <math.h>

#include "autorep.h"
#include "cmpstats.h"

/* CoV in percent; equal values give 0 even when their mean is 0. */
static double series_cov_pct(const struct bm_ar_series *s)
{
	struct bm_summary sum;

	if (s->n < 2)
		return NAN;
	bm_summarize(s->v, s->n, &sum);
	if (sum.stddev == 0)
		return 0;
	return sum.cov * 100.0;
}

static void decide_one(const struct bm_ar_kernel *k, const struct bm_ar_limits *l,
		       struct bm_ar_verdict *v)
{
	int undefined = 0;
	size_t i;

	v->worst_pct = NAN;
	v->worst = -1;
	for (i = 0; i < k->ns; i++) {
		double c = series_cov_pct(&k->s[i]);

		if (isnan(c)) {
			undefined = 1;
			continue;
		}
		if (v->worst < 0 || c > v->worst_pct) {
			v->worst_pct = c;
			v->worst = (int)i;
		}
	}
	if (k->boots >= l->max)
		v->more = 0;
	else if (k->completed < l->min || !k->ns || undefined)
		v->more = 1;
	else
		v->more = v->worst_pct >= l->cov_pct;
}

int bm_autorep_decide(const struct bm_ar_kernel *k, size_t nk,
		      const struct bm_ar_limits *l, struct bm_ar_verdict *v)
{
	int more = 0;
	size_t i;

	for (i = 0; i < nk; i++) {
		decide_one(&k[i], l, &v[i]);
		more += v[i].more;
	}
	return more;
}
