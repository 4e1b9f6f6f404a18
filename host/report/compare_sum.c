// SPDX-License-Identifier: MIT
/*
 * The summary of "bootmark compare" (the entries bm_cmp_decide made) as
 * text, Markdown and JSON; host/report/html_report.c prints the same entries.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "json.h"
#include "report.h"

const char *const bm_cmp_kind_title[] = {
	"Significant regressions", "Significant improvements",
	"Other changed metrics (the test's headline metric did not change)",
};
static const char *const kind_name[] = { "regression", "improvement", "other" };

const char *bm_cmp_verdict_word(const struct bm_cmp_row *r)
{
	return !r->changed ? "unchanged" : r->verdict < 0 ? "regression" :
	       r->verdict > 0 ? "improvement" : "changed";
}

/* "1.50 vs 1.00 s (+50.00%, p=0.0002, q=0.0005)" */
const char *bm_cmp_delta(char *buf, size_t len, const struct bm_cmp_row *r)
{
	char a[32], b[32], ch[32], p[32], q[32];

	if (isnan(r->change))
		snprintf(ch, sizeof(ch), "-");
	else
		snprintf(ch, sizeof(ch), "%+.2f%%", r->change);
	snprintf(buf, len, "%s vs %s %s (%s, p=%s, q=%s)", bm_cmp_num(a, sizeof(a), r->center),
		 bm_cmp_num(b, sizeof(b), r->base_center), r->unit, ch,
		 bm_cmp_pval(p, sizeof(p), r->p_welch), bm_cmp_pval(q, sizeof(q), r->q));
	return buf;
}

void bm_cmp_entry_title(char *buf, size_t len, const struct bm_cmp *c, const struct bm_cmp_entry *e)
{
	const struct bm_cmp_row *r = e->head ? e->head : e->sec[0];
	char k[128], lab[160];

	bm_kernel_short(c->kernels[r->kidx], k, sizeof(k));
	bm_report_label(lab, sizeof(lab), r->fs, k);
	snprintf(buf, len, "%s %s %s", r->test, e->head ? e->head->metric : "(no headline metric)",
		 lab);
}

void bm_cmp_print_summary(FILE *f, const struct bm_cmp *c, int md)
{
	const char *item = md ? "- " : "  ", *sub = md ? "  - " : "      ";
	char t[256], d[256];
	size_t i, j;
	int k, n;

	for (k = BM_KIND_REGRESSION; k <= BM_KIND_OTHER; k++) {
		n = 0;
		if (md)
			fputc('\n', f);
		fprintf(f, "%s:\n", bm_cmp_kind_title[k]);
		for (i = 0; i < c->nentries; i++) {
			const struct bm_cmp_entry *e = &c->entries[i];

			if ((int)e->kind != k)
				continue;
			bm_cmp_entry_title(t, sizeof(t), c, e);
			if (e->head)
				fprintf(f, md ? "%s**%s**: %s%s%s\n" : "%s%s: %s%s%s\n", item, t,
					bm_cmp_delta(d, sizeof(d), e->head), k == BM_KIND_OTHER ? " " : "",
					k == BM_KIND_OTHER ? bm_cmp_verdict_word(e->head) : "");
			else
				fprintf(f, md ? "%s**%s**\n" : "%s%s\n", item, t);
			for (j = 0; j < e->nsec; j++)
				fprintf(f, "%s%s: %s %s\n", sub, e->sec[j]->metric,
					bm_cmp_delta(d, sizeof(d), e->sec[j]), bm_cmp_verdict_word(e->sec[j]));
			n++;
		}
		if (!n)
			fprintf(f, "%snone\n", item);
	}
}

static void json_row(struct bm_json *j, const struct bm_cmp_row *r)
{
	bm_json_kstr(j, "metric", r->metric);
	bm_json_kstr(j, "unit", r->unit);
	bm_json_knum(j, "center", r->center);
	bm_json_knum(j, "baseline_center", r->base_center);
	bm_json_knum(j, "change_pct", r->change);
	bm_json_knum(j, "p_welch", r->p_welch);
	bm_json_knum(j, "q_bh", r->q);
	bm_json_kstr(j, "verdict", bm_cmp_verdict_word(r));
}

/* "rules" and "findings": the summary, one object per entry. */
void bm_cmp_json_summary(struct bm_json *j, const struct bm_cmp *c)
{
	char g[256];
	size_t i, s;

	bm_json_key(j, "rules");
	bm_json_obj_begin(j);
	bm_json_knum(j, "fdr_alpha", c->rules.alpha);
	bm_json_knum(j, "min_change_pct", c->rules.min_change);
	bm_json_knum(j, "min_abs_time_s", c->rules.min_abs_time);
	bm_json_kint(j, "tested", (long long)c->ntested);
	bm_json_kint(j, "untested", (long long)c->nuntested);
	bm_json_obj_end(j);
	bm_json_key(j, "findings");
	bm_json_arr_begin(j);
	for (i = 0; i < c->nentries; i++) {
		const struct bm_cmp_entry *e = &c->entries[i];
		const struct bm_cmp_row *r = e->head ? e->head : e->sec[0];

		bm_json_obj_begin(j);
		bm_json_kstr(j, "kind", kind_name[e->kind]);
		bm_json_kstr(j, "kernel", c->kernels[r->kidx]);
		bm_json_kstr(j, "workload", r->wl);
		bm_json_kstr(j, "variant", r->test);
		bm_json_kstr(j, "fs", r->fs);
		bm_json_kstr(j, "group", bm_cmp_group_name(g, sizeof(g), r));
		bm_json_key(j, "headline");
		if (e->head) {
			bm_json_obj_begin(j);
			json_row(j, e->head);
			bm_json_obj_end(j);
		} else {
			bm_json_null(j);
		}
		bm_json_key(j, "secondary");
		bm_json_arr_begin(j);
		for (s = 0; s < e->nsec; s++) {
			bm_json_obj_begin(j);
			json_row(j, e->sec[s]);
			bm_json_obj_end(j);
		}
		bm_json_arr_end(j);
		bm_json_obj_end(j);
	}
	bm_json_arr_end(j);
}
