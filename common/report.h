/* SPDX-License-Identifier: MIT */
/*
 * Human reports: the tables the original tools printed, built from decoded
 * result records.  Both the host (`bootmark run`, `parse`) and the runner's
 * host mode format through here, so a table always comes from the records.
 *
 * One formatter per workload, runner/workloads/<wl>/report_<wl>.c, ending in
 * "const struct bm_report_ops report_<wl>_ops = { ... };"; the workload's
 * description (wldesc.h) points at it.  A workload without a formatter is
 * printed by the generic seed-004 shaped one (REAL UTIME STIME READ
 * WRITTEN DETAILS, common/report_generic.c).
 */
#ifndef BM_REPORT_H
#define BM_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "proto.h"

struct bm_rmetric {
	char name[32];
	double value;
	char unit[16];
};

struct bm_rres {             /* one R record */
	uint64_t seq;
	char wl[16];
	char test[32];
	char fs[32];
	char params[160];
	char mkfs[256];
	char mount[256];
	int rep;
	int partial;
	unsigned nm;
	struct bm_rmetric m[BM_KV_MAX];
};

/* Fills h from a decoded R record; 0 or -EINVAL (not an R record, bad metric). */
int bm_rres_from_record(struct bm_rres *h, const struct bm_record *rec);
const struct bm_rmetric *bm_rres_metric(const struct bm_rres *h, const char *name);
/* The metric's value, or dflt when absent. */
double bm_rres_value(const struct bm_rres *h, const char *name, double dflt);
/* h->params without the word "k=...": the key of the sweep a result
 * belongs to (lmdd without bs, aim7 without tasks). */
void bm_rres_params_without(const struct bm_rres *h, const char *k, char *buf, size_t len);
/* The value of key k in h->params ("size=32M bs=1M"), copied into buf; NULL if absent. */
const char *bm_rres_param(const struct bm_rres *h, const char *k, char *buf, size_t len);

struct bm_rrow {
	const char *label;          /* row name: "EXT4 6.1.0-53" (fs and kernel) */
	const struct bm_rres *r;
};

/*
 * Rows grouped by a key (keys[i]; NULL: row i is in no group), the groups in
 * the order of their first rows, each group's rows in run order: order[]
 * holds the row indices group after group, group g being order[start[g] ..
 * start[g + 1]).  A sort, n log n: the formatters found each row's group by
 * scanning the rows before it, and a log of thousands of labels (a hostile
 * one, up to BM_RESULTS_MAX rows) took minutes to print (issue 43).
 * 0 or -ENOMEM.
 */
struct bm_rgroups {
	size_t *order;
	size_t *start;
	size_t ngroups;
};
int bm_rgroups_make(struct bm_rgroups *g, const char *const *keys, size_t n);
void bm_rgroups_free(struct bm_rgroups *g);

struct bm_report_ops {
	const char *wl;
	/* rows: every result of this workload, in run order */
	void (*print)(FILE *f, const struct bm_rrow *rows, size_t n);
};


/* Splits a metric value "1.234:s" into value and unit; 0 or -EINVAL. */
int bm_parse_metric(const char *text, double *value, char *unit, size_t unitlen);
/* The seed-004 table (common/report_generic.c): one block per test label,
 *
 *     : dd32w :
 *                         REAL UTIME STIME     READ  WRITTEN DETAILS
 *     EXT4 6.1.0-53     : 1.23     4    55       32    32800 5 extents
 *
 * rows grouped by filesystem within a block, " #<rep>" appended to every
 * label of a block where some repeat is above 1.  UTIME/STIME in 1/100 s
 * ticks as in the seed, READ/WRITTEN in KiB, other metrics as DETAILS.
 * dd's formatter, and the one for any workload without its own. */
void bm_report_generic(FILE *f, const struct bm_rrow *rows, size_t n);
/* Row label: "EXT4 6.1.0-53" (fs upper-cased, then kernel if not empty). */
void bm_report_label(char *buf, size_t len, const char *fs, const char *kernel);
/* "6.1.0-53-amd64" -> "6.1.0-53": drops the "-amd64" flavour. */
void bm_kernel_short(const char *rel, char *buf, size_t len);

#endif
