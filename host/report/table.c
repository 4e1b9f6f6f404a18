// SPDX-License-Identifier: MIT
/* Rows from the boots' results, printed by common/report.c (table.h). */
#include <stdio.h>
#include <stdlib.h>

#include "table.h"
#include "wldesc.h"

#define ROW_LABEL_MAX 128

void bm_table_print(FILE *f, const struct bm_table_boot *boots, size_t n)
{
	struct bm_rrow *rows;
	char (*labels)[ROW_LABEL_MAX];
	size_t total = 0, i, j, k = 0;

	for (i = 0; i < n; i++)
		total += boots[i].r->nres;
	if (!total)
		return;
	rows = calloc(total, sizeof(*rows));
	labels = calloc(total, sizeof(*labels));
	if (!rows || !labels)
		goto out_free;
	/* Boot order, then run order: the formatters keep it within a block. */
	for (i = 0; i < n; i++)
		for (j = 0; j < boots[i].r->nres; j++, k++) {
			const struct bm_rres *h = &boots[i].r->res[j];

			bm_report_label(labels[k], sizeof(labels[k]), h->fs, boots[i].kernel);
			rows[k].label = labels[k];
			rows[k].r = h;
		}
	bm_report_print(f, rows, total);
out_free:
	free(rows);
	free(labels);
}
