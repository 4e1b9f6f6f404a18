/* SPDX-License-Identifier: MIT */
/*
 * Tidy rows, one per measured value.  Export re-reads results.log (the
 * single source of truth; results.json is a convenience copy), so rows are
 * built from the same bm_stream code the run used.
 */
#ifndef BM_EXPORT_H
#define BM_EXPORT_H

#include <stdio.h>

#include "results.h"

enum bm_export_fmt {
	BM_EXPORT_JSON,  /* one array of objects */
	BM_EXPORT_CSV,   /* RFC 4180, header line first */
};

struct bm_export {
	FILE *f;
	enum bm_export_fmt fmt;
	unsigned long rows;
	int started;
};

void bm_export_begin(struct bm_export *e, FILE *f, enum bm_export_fmt fmt);
/* Rows of one boot; label is its directory name. */
void bm_export_boot(struct bm_export *e, const char *label, const struct bm_results *r);
void bm_export_end(struct bm_export *e);
/* Writes s as one CSV field. */
void bm_csv_field(FILE *f, const char *s);

#endif
