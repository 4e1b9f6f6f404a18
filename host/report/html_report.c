// SPDX-License-Identifier: MIT
/*
 * "bootmark report": compare's summary, then SVG plots of the
 * workloads people read as curves (x from the test label, which encodes
 * the swept parameter: tio-seqrd-t4, dbench8, aim7-fserver-t16, lmdd-r-64k).
 * The plotted value and its error bar are the row's center (hmean for
 * rates) and stddev, exactly as compare computed them; then the rows as
 * tables.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html_report.h"
#include "report.h"
#include "svg.h"
#include "wldesc.h"

/* One chart; what is plotted, and how, is the workload's description's
 * (wldesc.h: plots). */
struct plot {
	const struct bm_wl_plot *spec;
	char group[32], fs[32], unit[32];
	struct bm_svg_chart ch;
};

struct plots {
	struct plot *p;
	size_t n;
};

/*
 * "seqrd-t4" -> group "seqrd", x 4; "r-64k" -> "r", 64; "1024k" or "1m"
 * in KiB; "8" -> "", 8.  0 or -EINVAL for a label that is not a sweep.
 */
static int parse_x(const char *rest, char *group, size_t glen, double *x)
{
	const char *dash = strrchr(rest, '-'), *t = dash ? dash + 1 : rest;
	char *end;

	snprintf(group, glen, "%.*s", dash ? (int)(dash - rest) : 0, rest);
	if (*t == 't')
		t++;
	*x = strtod(t, &end);
	if (end == t || !(*x > 0))
		return -EINVAL;
	if (!strcmp(end, "m") || !strcmp(end, "M"))
		*x *= 1024;
	else if (*end && strcmp(end, "k") && strcmp(end, "K"))
		return -EINVAL;
	return 0;
}

static struct plot *find_plot(struct plots *ps, const struct bm_wl_plot *s, const char *group,
			      const struct bm_cmp_row *r, const struct bm_cmp *c)
{
	struct plot *p;
	size_t i;
	char k[128];

	for (i = 0; i < ps->n; i++) {
		p = &ps->p[i];
		if (p->spec == s && !strcmp(p->group, group) && !strcmp(p->fs, r->fs) &&
		    !strcmp(p->unit, r->unit))
			return p;
	}
	p = realloc(ps->p, (ps->n + 1) * sizeof(*p));
	if (!p)
		return NULL;
	ps->p = p;
	p = &ps->p[ps->n++];
	memset(p, 0, sizeof(*p));
	p->spec = s;
	snprintf(p->group, sizeof(p->group), "%s", group);
	snprintf(p->fs, sizeof(p->fs), "%s", r->fs);
	snprintf(p->unit, sizeof(p->unit), "%s", r->unit);
	snprintf(p->ch.title, sizeof(p->ch.title), "%s%s%s: %s (%s), %s", s->name, *group ? " " : "",
		 group, r->metric, r->unit, r->fs);
	snprintf(p->ch.xlabel, sizeof(p->ch.xlabel), "%s", s->xlabel);
	snprintf(p->ch.ylabel, sizeof(p->ch.ylabel), "%s (%s)%s", r->metric, r->unit,
		 r->hmean ? ", hmean \xc2\xb1 sd" : ", mean \xc2\xb1 sd");
	p->ch.bars = s->bars;
	p->ch.logx = s->logx;
	p->ch.ns = c->nkernels < BM_SVG_MAXS ? (int)c->nkernels : BM_SVG_MAXS;
	for (i = 0; i < (size_t)p->ch.ns; i++) {
		bm_kernel_short(c->kernels[i], k, sizeof(k));
		snprintf(p->ch.s[i].name, sizeof(p->ch.s[i].name), "%s", k);
	}
	return p;
}

static int cat_index(struct bm_svg_chart *ch, const char *name)
{
	int i;

	for (i = 0; i < ch->ncat; i++)
		if (!strcmp(ch->cat[i], name))
			return i;
	if (ch->ncat == BM_SVG_MAXPT)
		return -1;
	snprintf(ch->cat[ch->ncat], sizeof(ch->cat[0]), "%s", name);
	return ch->ncat++;
}

/* Adds row r to its plot, if its workload and metric are plotted. */
static int add_row(struct plots *ps, const struct bm_cmp *c, const struct bm_cmp_row *r)
{
	const struct bm_wl_desc *d = bm_wl_desc_find(r->wl);
	const struct bm_wl_plot *s;
	struct bm_svg_series *se;
	struct plot *p;
	char group[32];
	double x = 0;

	for (s = d ? d->plots : NULL; s && s->metric; s++) {
		size_t pl = strlen(s->prefix);

		if (strcmp(r->metric, s->metric) ||
		    strncmp(r->test, s->prefix, pl) || !isfinite(r->center))
			continue;
		group[0] = '\0';
		if (!s->bars && parse_x(r->test + pl, group, sizeof(group), &x))
			continue;
		p = find_plot(ps, s, group, r, c);
		if (!p)
			return -ENOMEM;
		if (s->bars) {
			int ci = cat_index(&p->ch, *s->prefix ? r->test + pl : r->test);

			if (ci < 0)
				continue;
			x = ci;
		}
		if (r->kidx >= p->ch.ns)
			continue;
		se = &p->ch.s[r->kidx];
		if (se->n == BM_SVG_MAXPT)
			continue;
		se->pt[se->n].x = x;
		se->pt[se->n].y = r->center;
		se->pt[se->n].err = r->s.stddev;
		se->n++;
	}
	return 0;
}

static const char style[] =
	"body{font:14px/1.4 sans-serif;margin:1.5em;color:#222;max-width:1100px}"
	"h1{font-size:1.5em}h2{font-size:1.25em;border-bottom:1px solid #ccc}"
	"h3{font-size:1em;margin:1.2em 0 .3em}"
	"table{border-collapse:collapse;font-variant-numeric:tabular-nums}"
	"td,th{padding:2px 8px;border-bottom:1px solid #eee;text-align:right}"
	"td:first-child,th:first-child{text-align:left}"
	"tr.regression td{color:#b2182b;font-weight:bold}"
	"tr.improvement td{color:#1a7f37;font-weight:bold}"
	"li.regression>b{color:#b2182b}li.improvement>b{color:#1a7f37}"
	"figure{display:inline-block;margin:.5em}"
	"svg.chart{font:11px sans-serif;background:#fff;border:1px solid #ddd}"
	"svg.chart .title{font-size:13px;font-weight:bold}"
	"svg.chart .grid{stroke:#e4e4e4}svg.chart .axis{stroke:#444}"
	"svg.chart .err{fill:none;stroke-width:1.5}"
	"svg.chart text{fill:#222;stroke:none}";

static void missing(FILE *f, const struct bm_cmp *c)
{
	size_t i;
	int n = 0;
	char k[128];

	fputs("<h2>Missing boots</h2>\n<ul>\n", f);
	for (i = 0; i < c->nboots; i++) {
		const struct bm_cmp_boot *b = &c->boots[i];

		if (b->r.status == BM_ST_COMPLETED)
			continue;
		bm_kernel_short(b->kernel, k, sizeof(k));
		fputs("<li>", f);
		bm_svg_esc(f, k);
		fprintf(f, ": boot %d of %d (", b->nth, c->kboots[b->kidx]);
		bm_svg_esc(f, b->label);
		fprintf(f, "): %s (", bm_status_name(b->r.status));
		bm_svg_esc(f, b->r.status_why);
		fprintf(f, ") \xe2\x80\x94 %s</li>\n",
			bm_cmp_boot_note(b));
		n++;
	}
	fputs(n ? "</ul>\n" : "<li>none</li>\n</ul>\n", f);
}

/* compare's summary: the same entries, the same words. */
static void summary(FILE *f, const struct bm_cmp *c)
{
	static const char *const cls[] = { "regression", "improvement", "other" };
	char t[256], d[256];
	size_t i, j;
	int k, n;

	fputs("<h2>Summary</h2>\n", f);
	for (k = BM_KIND_REGRESSION; k <= BM_KIND_OTHER; k++) {
		fprintf(f, "<h3>%s</h3>\n<ul class=\"summary %s\">\n", bm_cmp_kind_title[k], cls[k]);
		for (i = 0, n = 0; i < c->nentries; i++) {
			const struct bm_cmp_entry *e = &c->entries[i];

			if ((int)e->kind != k)
				continue;
			bm_cmp_entry_title(t, sizeof(t), c, e);
			fprintf(f, "<li class=\"%s\"><b>", cls[k]);
			bm_svg_esc(f, t);
			fputs("</b>", f);
			if (e->head) {
				fputs(": ", f);
				bm_svg_esc(f, bm_cmp_delta(d, sizeof(d), e->head));
				if (k == BM_KIND_OTHER)
					fprintf(f, " %s", bm_cmp_verdict_word(e->head));
			}
			if (e->nsec)
				fputs("\n<ul>\n", f);
			for (j = 0; j < e->nsec; j++) {
				fputs("<li>", f);
				bm_svg_esc(f, e->sec[j]->metric);
				fputs(": ", f);
				bm_svg_esc(f, bm_cmp_delta(d, sizeof(d), e->sec[j]));
				fprintf(f, " %s</li>\n", bm_cmp_verdict_word(e->sec[j]));
			}
			fputs(e->nsec ? "</ul></li>\n" : "</li>\n", f);
			n++;
		}
		fputs(n ? "</ul>\n" : "<li>none</li>\n</ul>\n", f);
	}
}

static void table(FILE *f, const struct bm_cmp *c, size_t from, size_t to)
{
	const struct bm_cmp_row *h = &c->rows[from];
	char lab[160], k[128], v[9][32];
	size_t i;

	fputs("<h3>", f);
	bm_svg_esc(f, h->test);
	fputs(": ", f);
	bm_svg_esc(f, h->metric);
	fputs(" (", f);
	bm_svg_esc(f, h->unit[0] ? h->unit : "no unit");
	fprintf(f, "%s)</h3>\n<table>\n<tr><th></th><th>n</th><th>%s</th><th>stddev</th>"
		   "<th>CoV%%</th><th>min</th><th>max</th><th>change</th><th>p (Welch)</th>"
		   "<th>q (BH)</th><th>p (MWU)</th><th></th></tr>\n",
		h->dir == BM_DIR_HIGHER ? ", higher is better" :
		h->dir == BM_DIR_LOWER ? ", lower is better" : "", h->hmean ? "hmean" : "mean");
	for (i = from; i < to; i++) {
		const struct bm_cmp_row *r = &c->rows[i];

		bm_kernel_short(c->kernels[r->kidx], k, sizeof(k));
		bm_report_label(lab, sizeof(lab), r->fs, k);
		snprintf(v[2], 32, isnan(r->s.cov) ? "-" : "%.1f", r->s.cov * 100);
		snprintf(v[5], 32, isnan(r->change) ? "-" : "%+.2f%%", r->change);
		snprintf(v[6], 32, isnan(r->p_welch) ? "-" : "%.4g", r->p_welch);
		snprintf(v[7], 32, isnan(r->p_mwu) ? "-" : "%.4g", r->p_mwu);
		snprintf(v[8], 32, isnan(r->q) ? "-" : "%.4g", r->q);
		fprintf(f, "<tr class=\"%s\"><td>", r->verdict < 0 ? "regression" :
			r->verdict > 0 ? "improvement" : "");
		bm_svg_esc(f, lab);
		fprintf(f, "</td><td>%zu</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>"
			   "<td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
			r->s.n, bm_cmp_num(v[0], 32, r->center), bm_cmp_num(v[1], 32, r->s.stddev),
			v[2], bm_cmp_num(v[3], 32, r->s.min), bm_cmp_num(v[4], 32, r->s.max), v[5],
			v[6], v[8], v[7], r->changed ? (r->verdict < 0 ? "* regression" : r->verdict > 0 ?
						  "* improvement" : "*") : "");
	}
	fputs("</table>\n", f);
}

int bm_html_report(FILE *f, const struct bm_cmp *c)
{
	struct plots ps = { NULL, 0 };
	char rules[512];
	size_t i, j;
	int rc = 0;

	for (i = 0; i < c->nrows && !rc; i++)
		rc = add_row(&ps, c, &c->rows[i]);
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
		   "<title>bootmark report</title>\n<style>%s</style>\n</head>\n<body>\n"
		   "<h1>bootmark report</h1>\n<p>Baseline <b>", style);
	bm_svg_esc(f, c->nkernels ? c->kernels[0] : "-");
	fputs("</b>; ", f);
	bm_cmp_rules_line(rules, sizeof(rules), c);
	bm_svg_esc(f, rules);
	fputs("; * marks one.  Each test is listed by its headline metric, its other changed "
	      "metrics under it.  Plots show the center (harmonic mean for rates, else mean) "
	      "\xc2\xb1 one stddev of the repeats.</p>\n", f);
	summary(f, c);
	missing(f, c);
	bm_cmp_html_load(f, c);
	fputs("<h2>Plots</h2>\n", f);
	if (rc)
		fputs("<p>Out of memory: plots left out.</p>\n", f);
	for (i = 0; i < ps.n && !rc; i++) {
		fputs("<figure>\n", f);
		bm_svg_chart(f, &ps.p[i].ch);
		fputs("</figure>\n", f);
	}
	if (!ps.n)
		fputs("<p>No plotted workloads in these boots.</p>\n", f);
	fputs("<h2>Tables</h2>\n", f);
	for (i = 0; i < c->nrows; i = j) {
		for (j = i + 1; j < c->nrows && c->rows[j].block == c->rows[i].block; j++)
			;
		table(f, c, i, j);
	}
	fputs("</body>\n</html>\n", f);
	free(ps.p);
	return rc ? 0 : (int)ps.n;
}
