// SPDX-License-Identifier: MIT
/* The bisection loop over a measure callback (host/bisect/bisect_run.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect_run.h"

int bm_bisect_init(struct bm_bisect *b, int n, int repeat, int min_repeat, int repeat_max,
		   const struct bm_rule *rule, int boot_mode, const char *const *names)
{
	int i;

	memset(b, 0, sizeof(*b));
	b->n = n;
	b->repeat = repeat;
	b->repeat_max = repeat_max < repeat ? repeat : repeat_max;
	b->min_repeat = min_repeat < 1 ? 1 : min_repeat > b->repeat_max ? b->repeat_max : min_repeat;
	b->rule = *rule;
	b->boot_mode = boot_mode;
	b->names = names;
	b->c = calloc((size_t)n, sizeof(*b->c));
	b->v = calloc((size_t)n, sizeof(*b->v));
	if (!b->c || !b->v)
		goto out_free;
	for (i = 0; i < n; i++) {
		b->c[i].v = calloc((size_t)b->repeat_max, sizeof(double));
		if (!b->c[i].v)
			goto out_free;
		b->c[i].llr = NAN;
	}
	bm_search_init(&b->s, b->v, n);
	return 0;
out_free:
	bm_bisect_free(b);
	return -ENOMEM;
}

void bm_bisect_free(struct bm_bisect *b)
{
	int i;

	for (i = 0; b->c && i < b->n; i++)
		free(b->c[i].v);
	free(b->c);
	free(b->v);
	b->c = NULL;
	b->v = NULL;
}

/* One boot of candidate i; 1 when a sample was added, 0 when the boot
 * failed or lacked the metric (why set), -errno to abort. */
static int sample(struct bm_bisect *b, bm_measure_fn fn, void *arg, int i)
{
	struct bm_cand *c = &b->c[i];
	double v = NAN;
	int rc;

	rc = fn(arg, i, &v, c->why, sizeof(c->why));
	if (rc < 0)
		return rc;
	b->boots++;
	c->boots++;
	if (rc != BM_MEAS_OK)
		return 0;
	if (b->boot_mode)
		return 1;
	if (isnan(v)) {
		snprintf(c->why, sizeof(c->why), "the metric is not a number");
		return 0;
	}
	c->v[c->nv++] = v;
	return 1;
}

static void log_cand(const struct bm_bisect *b, FILE *log, int i, const char *what)
{
	const struct bm_cand *c = &b->c[i];
	double sum = 0;
	size_t k;

	if (!log)
		return;
	fprintf(log, "%s candidate %d/%d (%s):", what, i + 1, b->n, b->names ? b->names[i] : "?");
	for (k = 0; k < c->nv; k++) {
		fprintf(log, " %.6g", c->v[k]);
		sum += c->v[k];
	}
	if (c->nv)
		fprintf(log, " mean %.6g", sum / (double)c->nv);
	if (!isnan(c->llr) && !isinf(c->llr))
		fprintf(log, " llr %+.1f", c->llr);
	fprintf(log, " -> %s%s%s (%d boot%s)\n", bm_verdict_name(c->verdict),
		c->why[0] ? ": " : "", c->why, c->boots, c->boots == 1 ? "" : "s");
}

static void ends_check(struct bm_bisect *b)
{
	const struct bm_cand *g = &b->c[0], *bad = &b->c[b->n - 1];

	if (b->direction)
		b->rule.dir = b->direction(b->direction_arg);
	bm_ends_check(g->v, g->nv, bad->v, bad->nv, &b->rule, &b->ends);
}

/* Both ends, interleaved; more samples while the difference is at the
 * threshold but not yet significant. */
static int measure_ends(struct bm_bisect *b, bm_measure_fn fn, void *arg, FILE *log)
{
	struct bm_cand *g = &b->c[0], *bad = &b->c[b->n - 1];
	int k, rc, want = b->boot_mode ? 1 : b->repeat;

	for (k = 0; k < b->repeat_max; k++) {
		if (k >= want) {
			ends_check(b);
			if (b->ends.differ || !strstr(b->ends.why, "not significantly"))
				break;
		}
		rc = sample(b, fn, arg, 0);
		if (rc < 0)
			return rc;
		if (!rc) {
			snprintf(b->why, sizeof(b->why), "the first candidate (%s) cannot be measured: %s",
				 b->names ? b->names[0] : "?", g->why);
			b->end = BM_BISECT_ENDFAIL;
			return 1;
		}
		rc = sample(b, fn, arg, b->n - 1);
		if (rc < 0)
			return rc;
		if (b->boot_mode) {
			if (rc) {
				snprintf(b->why, sizeof(b->why), "the last candidate (%s) completed: "
					 "no boot regression to bisect", b->names ? b->names[b->n - 1] : "?");
				b->end = BM_BISECT_NODIFF;
				return 1;
			}
			b->ends.differ = 1;
			bad->verdict = BM_V_BAD;
			g->verdict = BM_V_GOOD;
			return 0;
		}
		if (!rc) {
			snprintf(b->why, sizeof(b->why), "the last candidate (%s) cannot be measured: %s "
				 "(bisect boot failures with --boot)", b->names ? b->names[b->n - 1] : "?",
				 bad->why);
			b->end = BM_BISECT_ENDFAIL;
			return 1;
		}
	}
	ends_check(b);
	g->verdict = BM_V_GOOD;
	bad->verdict = BM_V_BAD;
	if (log) {
		log_cand(b, log, 0, "good end:");
		log_cand(b, log, b->n - 1, "bad end: ");
		fprintf(log, "ends: change %+.2f%%, Welch p %.3g, pooled sd %.4g\n",
			100 * b->ends.change, b->ends.p, b->ends.sd);
	}
	if (!b->ends.differ) {
		snprintf(b->why, sizeof(b->why), "nothing to bisect: %s", b->ends.why);
		b->end = BM_BISECT_NODIFF;
		return 1;
	}
	return 0;
}

/* Samples and verdict of one candidate. */
static int judge(struct bm_bisect *b, bm_measure_fn fn, void *arg, int i)
{
	struct bm_cand *c = &b->c[i];
	int rc, want = b->boot_mode ? 1 : b->min_repeat;

	while (c->boots < b->repeat_max) {
		rc = sample(b, fn, arg, i);
		if (rc < 0)
			return rc;
		if (b->boot_mode) {
			c->verdict = rc ? BM_V_GOOD : BM_V_BAD;
			return 0;
		}
		if (!rc) {
			c->verdict = BM_V_SKIP;
			return 0;
		}
		if ((int)c->nv < want)
			continue;
		c->verdict = bm_verdict_of(&b->ends, c->v, c->nv, &b->rule, &c->llr);
		if (c->verdict != BM_V_UNKNOWN)
			return 0;
	}
	snprintf(c->why, sizeof(c->why), "unknown after %zu samples, skipped", c->nv);
	c->verdict = BM_V_SKIP;
	return 0;
}

int bm_bisect_run(struct bm_bisect *b, bm_measure_fn fn, void *arg, FILE *log)
{
	int i, rc;

	rc = measure_ends(b, fn, arg, log);
	if (rc) {
		b->done = rc > 0;
		return rc < 0 ? rc : 0;
	}
	if (b->after_step)
		b->after_step(b->after_arg);
	while ((i = bm_search_next(&b->s)) >= 0) {
		b->c[i].step = ++b->steps;
		rc = judge(b, fn, arg, i);
		if (rc < 0)
			return rc;
		bm_search_set(&b->s, i, b->c[i].verdict);
		if (log) {
			char what[32];

			snprintf(what, sizeof(what), "step %d:", b->steps);
			log_cand(b, log, i, what);
		}
		if (b->after_step)
			b->after_step(b->after_arg);
	}
	b->done = 1;
	b->first_bad = b->s.hi;
	b->range_lo = b->s.lo + 1;
	b->end = b->range_lo == b->first_bad ? BM_BISECT_FOUND : BM_BISECT_RANGE;
	if (b->end == BM_BISECT_RANGE)
		snprintf(b->why, sizeof(b->why), "candidates %d..%d could not be judged: the first "
			 "bad one is among %d..%d", b->range_lo + 1, b->first_bad, b->range_lo + 1,
			 b->first_bad + 1);
	return 0;
}
