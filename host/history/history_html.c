// SPDX-License-Identifier: MIT
/*
 * bootmark history report: one self-contained page (no script, no external
 * asset) that opens with the list of changes, then one chart per headline
 * series across kernels: every boot's value a point, each kernel's mean a
 * line, each change a dashed mark with its id and numbers, the levels on
 * both sides drawn.  Each chart says what it holds in data-* attributes,
 * which tests/history_report.sh checks against the rendered DOM.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "svg.h"

#define W 960
#define H 340
#define ML 78
#define MR 16
#define MT 34
#define MB 110

static const char style[] =
	"body{font-family:sans-serif;margin:2em;max-width:1100px;color:#222}"
	"h1{font-size:1.4em}h2{margin-top:1.6em;border-bottom:1px solid #ccc}"
	"h3{font-size:1em;margin:1.4em 0 .3em}"
	"li.regression b{color:#b00}li.improvement b{color:#070}"
	"svg.chart{display:block;background:#fff;border:1px solid #ddd}"
	".axis{stroke:#888;stroke-width:1}.grid{stroke:#eee;stroke-width:1}"
	".boot{fill:#4a7bd0;fill-opacity:.55}.mean{fill:none;stroke:#222;stroke-width:1.5}"
	".kmean{fill:#222}.cp{stroke:#c00;stroke-width:1.5;stroke-dasharray:5,4}"
	".level{stroke:#c00;stroke-width:1;stroke-opacity:.6}"
	"text{font-size:11px;fill:#333}.cptext{fill:#c00;font-weight:bold}"
	"p.note{color:#666;font-size:.9em}";

static void esc(FILE *f, const char *s)
{
	bm_svg_esc(f, s);
}

static void change_item(FILE *f, const struct bm_hist_data *d, const struct bm_hist_change *c)
{
	const struct bm_hist_series *s = &d->series[c->series];
	char t[512], a[40], b[40], p[40], q[40];

	bm_hist_series_title(t, sizeof(t), d, s);
	bm_cmp_num(a, sizeof(a), c->l.s.mean);
	bm_cmp_num(b, sizeof(b), c->r.s.mean);
	bm_cmp_pval(p, sizeof(p), c->p);
	bm_cmp_pval(q, sizeof(q), c->q);
	fprintf(f, "<li class=\"%s\" id=\"c-%s\"><b>[%s] ",
		c->verdict < 0 ? "regression" : c->verdict > 0 ? "improvement" : "changed", c->id, c->id);
	esc(f, t);
	fprintf(f, "</b>: ");
	esc(f, bm_hist_kernel_at(d, c->before)->name);
	fprintf(f, " &rarr; ");
	esc(f, bm_hist_kernel_at(d, c->after)->name);
	fprintf(f, ": %s &rarr; %s ", a, b);
	esc(f, d->metrics[s->metric].unit);
	fprintf(f, " (%+.2f%%, %s), p=%s, q=%s; n %zu before, %zu after", c->change,
		bm_hist_verdict_word(c->verdict), p, q, c->l.s.n, c->r.s.n);
	if (c->bisect_end[0]) {
		fprintf(f, "; bisected: ");
		esc(f, c->bisect_end);
		if (c->bisect_first[0]) {
			fprintf(f, ", first bad ");
			esc(f, c->bisect_first);
		}
	}
	fprintf(f, "</li>\n");
}

struct chart {
	double lo, hi, ticks[16];
	int nticks, nk;
	int *kpos;                 /* series kernel index -> position */
};

static double px(const struct chart *c, double i)
{
	return ML + (i + 0.5) * (W - ML - MR) / c->nk;
}

static double py(const struct chart *c, double v)
{
	double lo = c->ticks[0], hi = c->ticks[c->nticks - 1];

	return MT + (H - MT - MB) * (1 - (hi > lo ? (v - lo) / (hi - lo) : 0.5));
}

/* The series kernel index of position pos (the series has it). */
static int kidx(const struct chart *c, int pos)
{
	int i;

	for (i = 0; i < c->nk && c->kpos[i] != pos; i++)
		;
	return i;
}

static void axes(FILE *f, const struct bm_hist_data *d, const struct chart *c, const char *unit)
{
	int i, every = c->nk > 40 ? (c->nk + 39) / 40 : 1;
	char t[64];

	for (i = 0; i < c->nticks; i++) {
		double y = py(c, c->ticks[i]);

		bm_svg_fmt_tick(t, sizeof(t), c->ticks[i], c->nticks > 1 ? c->ticks[1] - c->ticks[0] : 1);
		fprintf(f, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", ML, W - MR, y, y,
			ML - 6, y + 4, t);
	}
	fprintf(f, "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>"
		"<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>\n", ML, ML, MT, H - MB,
		ML, W - MR, H - MB, H - MB);
	fprintf(f, "<text x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)\" text-anchor=\"middle\">",
		(MT + H - MB) / 2, (MT + H - MB) / 2);
	esc(f, unit);
	fprintf(f, "</text>\n");
	for (i = 0; i < c->nk; i += every) {
		double x = px(c, i);

		fprintf(f, "<text class=\"klabel\" x=\"%.1f\" y=\"%d\" text-anchor=\"end\" "
			"transform=\"rotate(-45 %.1f %d)\">", x, H - MB + 14, x, H - MB + 14);
		esc(f, bm_hist_kernel_at(d, c->kpos[i])->name);
		fprintf(f, "</text>\n");
	}
}

static void marks(FILE *f, const struct bm_hist_data *d, const struct bm_hist_changes *ch,
		  size_t si, const struct chart *c, int *nmarks)
{
	size_t i;

	for (i = 0; i < ch->n; i++) {
		const struct bm_hist_change *x = &ch->c[i];
		double xc, y1, y2;

		if (x->series != (int)si)
			continue;
		xc = (px(c, kidx(c, x->before)) + px(c, kidx(c, x->after))) / 2;
		y1 = py(c, x->l.s.mean);
		y2 = py(c, x->r.s.mean);
		fprintf(f, "<g class=\"change\" data-id=\"%s\"><title>[%s] %+.2f%% (%s), p=%.3g, q=%.3g"
			"</title>\n", x->id, x->id, x->change, bm_hist_verdict_word(x->verdict), x->p, x->q);
		fprintf(f, "<line class=\"cp\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>\n", xc, xc,
			MT, H - MB);
		fprintf(f, "<line class=\"level\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
			"<line class=\"level\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>\n",
			px(c, kidx(c, x->l.from)), xc, y1, y1, xc, px(c, kidx(c, x->r.to)), y2, y2);
		fprintf(f, "<text class=\"cptext\" x=\"%.1f\" y=\"%d\" text-anchor=\"%s\">[%s] %+.1f%% "
			"%s</text></g>\n", xc + 3, MT - 8 + 12 * (*nmarks % 2),
			xc > W / 2 ? "end" : "start", x->id, x->change, bm_hist_verdict_word(x->verdict));
		(*nmarks)++;
	}
}

static int chart(FILE *f, const struct bm_hist_data *d, const struct bm_hist_changes *ch, size_t si)
{
	const struct bm_hist_series *s = &d->series[si];
	struct chart c = { .lo = INFINITY, .hi = -INFINITY };
	char title[512];
	size_t i, j;
	int nmarks = 0, k;

	c.kpos = malloc((s->npt + 1) * sizeof(int));
	if (!c.kpos)
		return -ENOMEM;
	for (i = 0; i < s->npt; i++) {
		if (!i || s->pt[i].kpos != s->pt[i - 1].kpos)
			c.kpos[c.nk++] = s->pt[i].kpos;
		c.lo = fmin(c.lo, s->pt[i].v);
		c.hi = fmax(c.hi, s->pt[i].v);
	}
	if (c.lo == c.hi) {
		c.lo -= fabs(c.lo) * 0.05 + 1e-12;
		c.hi += fabs(c.hi) * 0.05 + 1e-12;
	}
	c.nticks = bm_svg_ticks(c.lo, c.hi, 5, c.ticks, 16);
	if (c.nticks < 2) {
		c.ticks[0] = c.lo;
		c.ticks[1] = c.hi;
		c.nticks = 2;
	}
	bm_hist_series_title(title, sizeof(title), d, s);
	fprintf(f, "<section class=\"trend\"><h3>");
	esc(f, title);
	fprintf(f, "</h3>\n");
	for (i = 0, k = 0; i < ch->n; i++)
		k += ch->c[i].series == (int)si;
	fprintf(f, "<svg class=\"chart trend\" data-series=\"1\" data-points=\"%zu\" "
		"data-kernels=\"%d\" data-changes=\"%d\" xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n", s->npt, c.nk, k, W, H, W, H);
	axes(f, d, &c, d->metrics[s->metric].unit);
	fprintf(f, "<g class=\"boots\">\n");
	for (i = 0; i < s->npt; i++) {
		fprintf(f, "<circle class=\"boot\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\"><title>",
			px(&c, kidx(&c, s->pt[i].kpos)), py(&c, s->pt[i].v));
		esc(f, bm_hist_kernel_at(d, s->pt[i].kpos)->name);
		fprintf(f, " %s: %.6g</title></circle>\n", d->boots[s->pt[i].boot].label, s->pt[i].v);
	}
	fprintf(f, "</g>\n<g class=\"series\"><polyline class=\"mean\" points=\"");
	for (i = 0; i < s->npt; i = j) {
		double sum = 0;

		for (j = i; j < s->npt && s->pt[j].kpos == s->pt[i].kpos; j++)
			sum += s->pt[j].v;
		fprintf(f, "%s%.1f,%.1f", i ? " " : "", px(&c, kidx(&c, s->pt[i].kpos)),
			py(&c, sum / (double)(j - i)));
	}
	fprintf(f, "\"/></g>\n");
	marks(f, d, ch, si, &c, &nmarks);
	fprintf(f, "</svg>\n");
	if (s->nexcl) {
		fprintf(f, "<p class=\"note\">left out: %d boot%s that did not complete (", s->nexcl,
			s->nexcl == 1 ? "" : "s");
		esc(f, s->excl);
		fprintf(f, ")</p>\n");
	}
	fprintf(f, "</section>\n");
	free(c.kpos);
	return 0;
}

int bm_hist_html(FILE *f, const struct bm_hist_data *d, const struct bm_hist_changes *c,
		 const char *db)
{
	size_t i;
	int rc = 0;

	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		"<title>bootmark history</title><style>%s</style></head><body>\n", style);
	fprintf(f, "<h1>bootmark history: ");
	esc(f, db);
	fprintf(f, "</h1>\n<p>%zu boots, %zu kernels, %zu series searched, %zu segments tested; a "
		"change is Benjamini-Hochberg q &le; %g over those tests and |change| &ge; %g%% of the "
		"mean before (compare's rules).</p>\n", d->nboots, d->nkernels, c->nseries, c->ntested,
		c->rules.alpha, c->rules.min_change);
	fprintf(f, "<h2>Changes</h2>\n");
	if (c->n) {
		fprintf(f, "<p>%zu change%s: %d regression%s, %d improvement%s.</p>\n<ol class=\"changes\">\n",
			c->n, c->n == 1 ? "" : "s", c->regressions, c->regressions == 1 ? "" : "s",
			c->improvements, c->improvements == 1 ? "" : "s");
		for (i = 0; i < c->n; i++)
			change_item(f, d, &c->c[i]);
		fprintf(f, "</ol>\n");
	} else {
		fprintf(f, "<p class=\"none\">No change.</p>\n");
	}
	fprintf(f, "<h2>Trends</h2>\n");
	for (i = 0; i < d->nseries && !rc; i++)
		rc = chart(f, d, c, i);
	fprintf(f, "</body></html>\n");
	return rc ? rc : ferror(f) ? -EIO : 0;
}
