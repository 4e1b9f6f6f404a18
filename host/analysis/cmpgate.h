/* SPDX-License-Identifier: MIT */
/*
 * The CI gate of "bootmark compare --fail-on" and "bootmark ci" (docs/ci.md,
 * docs/exit-codes.md): a comparison fails the gate when a boot did not
 * complete (its class's code wins) or when a test's headline metric is a
 * change that survived compare's rules (BH q <= alpha, --min-change,
 * --min-abs-time): in the worse direction (regression) or any (change).
 */
#ifndef BM_CMPGATE_H
#define BM_CMPGATE_H

#include <stdio.h>

#include "compare.h"

/* The gate's own exit codes: none of 0, 1, 10..22, 100, 111, 125..129, 128+N. */
#define BM_EXIT_GATE 30
/* Boots in real time left a headline metric neither a change nor shown to be
 * smaller than one: boot more (bootmark ci --max-boots), never a pass. */
#define BM_EXIT_UNDECIDED 31

enum bm_gate_mode { BM_GATE_OFF, BM_GATE_REGRESSION, BM_GATE_CHANGE };

extern const char *const bm_gate_modes[];   /* "none", "regression", "change", NULL */

struct bm_gate {
	enum bm_gate_mode mode;
	int code;                /* what the command exits with */
	size_t ntrip;            /* summary entries that trip the gate */
	size_t nheads;           /* headline rows against the baseline */
	size_t nuntested;        /* of them, rows without a Welch p */
	size_t nundecided;       /* tested, not tripping, not cleared (row_state) */
	int realtime;            /* some boot ran in real time (not --icount) */
	const struct bm_cmp_boot *boot;  /* the boot whose class decided, or NULL */
	char why[512];           /* one line: the verdict */
};

/* "none", "regression" or "change" (NULL or "" = none); 0 or -EINVAL. */
int bm_gate_parse(const char *s, enum bm_gate_mode *m);
/* 1 when the summary entry trips a gate of mode m. */
int bm_gate_trips(const struct bm_cmp_entry *e, enum bm_gate_mode m);
/*
 * A tested headline row against the baseline's row of its test: cleared (1)
 * when even the far end of its one-sided (1 - alpha) Welch confidence bound
 * in the direction the gate fails on (both for change and for a metric with
 * no better direction) is no change under the rules: below --min-change %
 * of the baseline's mean, or for a time below --min-abs-time.  0 when it is
 * not (undecided, unless its test trips the gate); *bound gets that far end
 * in % of the baseline's mean.
 */
int bm_gate_row_cleared(const struct bm_cmp *c, const struct bm_cmp_row *r, enum bm_gate_mode m,
			double *bound);
/*
 * The verdict on a built comparison.  In order: 111 when a boot is
 * infra-error, else the class code of the first boot (compare's order) that
 * did not complete; 100 when there is nothing to gate on (one kernel, or
 * no headline row with a test); BM_EXIT_GATE when an entry trips;
 * BM_EXIT_UNDECIDED when some boot ran in real time and a tested headline
 * row is not cleared (bm_gate_row_cleared); else 0.
 */
void bm_gate_decide(const struct bm_cmp *c, enum bm_gate_mode m, struct bm_gate *g);
/* "gate (--fail-on regression): ..." and one indented line per tripping entry. */
void bm_gate_print(FILE *f, const struct bm_cmp *c, const struct bm_gate *g);
struct bm_json;
/* The gate as one JSON object (ci.json's "gate"). */
void bm_gate_json(struct bm_json *j, const struct bm_cmp *c, const struct bm_gate *g);

#endif
