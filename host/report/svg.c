// SPDX-License-Identifier: MIT
/* The SVG chart builder of "bootmark report" (host/report/svg.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "junit.h"
#include "svg.h"

#define W      680
#define H      340
#define ML     72     /* left margin: y tick labels and the y label */
#define MR     180    /* right margin: legend */
#define MT     34
#define MB     52

/* Distinct on white and for the common colour-vision deficiencies first. */
static const char *const palette[BM_SVG_MAXS] = {
	"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9",
	"#000000", "#b2182b", "#5e3c99", "#7f7f00", "#008080", "#999999",
};

void bm_svg_esc(FILE *f, const char *s)
{
	bm_xml_escape(f, s, strlen(s));
}

int bm_svg_ticks(double lo, double hi, int want, double *ticks, int max)
{
	static const double mult[] = { 1, 2, 5, 10 };
	double span, mag, step = 0, first;
	int i, n;

	if (!isfinite(lo) || !isfinite(hi) || want < 1 || max < 2)
		return 0;
	if (hi < lo) {
		double t = lo;

		lo = hi;
		hi = t;
	}
	if (hi == lo) {  /* one value: a unit-sized range around it */
		double d = lo ? fabs(lo) / 2 : 1;

		lo -= lo > 0 && lo - d < 0 ? lo : d;
		hi += d;
	}
	span = hi - lo;
	mag = pow(10, floor(log10(span / want)));
	for (i = 0; i < 4; i++) {
		step = mult[i] * mag;
		if (span / step <= want + 1e-9)
			break;
	}
	first = floor(lo / step + 1e-9) * step;
	for (n = 0; n < max; n++) {
		ticks[n] = first + n * step;
		if (fabs(ticks[n]) < step * 1e-9)
			ticks[n] = 0;  /* no "-0" from rounding */
		if (ticks[n] >= hi - step * 1e-9)
			return n + 1;
	}
	return 0;
}

void bm_svg_fmt_tick(char *buf, size_t len, double v, double step)
{
	int dec = step >= 1 || step <= 0 ? 0 : (int)ceil(-log10(step) - 1e-9);

	if (fabs(v) >= 1e7 || (v != 0 && fabs(v) < 1e-4))
		snprintf(buf, len, "%g", v);
	else
		snprintf(buf, len, "%.*f", dec > 6 ? 6 : dec, v);
}

struct frame {
	double x0, x1, y0, y1;   /* data range of the axes */
	double yt[16];
	int nyt;
	int logx;
};

static double px(const struct frame *fr, double x)
{
	double a = fr->logx ? log2(x) : x, lo = fr->logx ? log2(fr->x0) : fr->x0;
	double hi = fr->logx ? log2(fr->x1) : fr->x1;

	return ML + (hi > lo ? (a - lo) / (hi - lo) : 0.5) * (W - ML - MR);
}

static double py(const struct frame *fr, double y)
{
	return H - MB - (y - fr->y0) / (fr->y1 - fr->y0) * (H - MT - MB);
}

/* Data ranges; y always includes 0 so bars and rates are not exaggerated. */
static int ranges(const struct bm_svg_chart *c, struct frame *fr)
{
	double ylo = 0, yhi = 0;
	int i, j, any = 0;

	fr->x0 = INFINITY;
	fr->x1 = -INFINITY;
	for (i = 0; i < c->ns; i++) {
		for (j = 0; j < c->s[i].n; j++) {
			const struct bm_svg_point *p = &c->s[i].pt[j];
			double e = isfinite(p->err) ? p->err : 0;

			if (!isfinite(p->y) || (c->logx && !(p->x > 0)))
				continue;
			fr->x0 = fmin(fr->x0, p->x);
			fr->x1 = fmax(fr->x1, p->x);
			ylo = fmin(ylo, p->y - e);
			yhi = fmax(yhi, p->y + e);
			any = 1;
		}
	}
	if (c->bars) {
		fr->x0 = -0.5;
		fr->x1 = c->ncat - 0.5;
	}
	fr->logx = c->logx && !c->bars;
	fr->nyt = bm_svg_ticks(ylo, yhi, 5, fr->yt, 16);
	if (!any || fr->nyt < 2)
		return 0;
	fr->y0 = fr->yt[0];
	fr->y1 = fr->yt[fr->nyt - 1];
	return 1;
}

static void text(FILE *f, double x, double y, const char *anchor, const char *extra,
		 const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s>", x, y, anchor, extra);
	bm_svg_esc(f, s);
	fputs("</text>\n", f);
}

static void y_axis(FILE *f, const struct bm_svg_chart *c, const struct frame *fr)
{
	char lab[48];
	int i;

	for (i = 0; i < fr->nyt; i++) {
		double y = py(fr, fr->yt[i]);

		fprintf(f, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n",
			ML, y, W - MR, y);
		bm_svg_fmt_tick(lab, sizeof(lab), fr->yt[i], fr->yt[1] - fr->yt[0]);
		text(f, ML - 6, y + 4, "end", "", lab);
	}
	fprintf(f, "<text x=\"14\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 14 %d)\">",
		(H - MB + MT) / 2, (H - MB + MT) / 2);
	bm_svg_esc(f, c->ylabel);
	fputs("</text>\n", f);
}

static void x_tick(FILE *f, double x, const char *lab)
{
	fprintf(f, "<line class=\"axis\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n",
		x, H - MB, x, H - MB + 4);
	text(f, x, H - MB + 17, "middle", "", lab);
}

static void x_axis(FILE *f, const struct bm_svg_chart *c, const struct frame *fr)
{
	double t[16];
	char lab[48];
	int i, j, n;

	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
		ML, H - MB, W - MR, H - MB);
	if (c->bars) {
		for (i = 0; i < c->ncat; i++)
			x_tick(f, px(fr, i), c->cat[i]);
	} else if (fr->logx) {  /* powers of two from the data's range */
		for (n = 0; n < 16 && ldexp(1, (int)floor(log2(fr->x0)) + n) <= fr->x1 * 1.0001; n++)
			;
		j = n > 9 ? 2 : 1;
		for (i = 0; i < n; i += j) {
			double v = ldexp(1, (int)floor(log2(fr->x0)) + i);

			if (v < fr->x0 * 0.9999)
				continue;
			bm_svg_fmt_tick(lab, sizeof(lab), v, v < 1 ? v : 1);
			x_tick(f, px(fr, v), lab);
		}
	} else {
		n = bm_svg_ticks(fr->x0, fr->x1, 6, t, 16);
		for (i = 0; i < n; i++) {
			if (t[i] < fr->x0 - 1e-9 * (fr->x1 - fr->x0) || t[i] > fr->x1 * 1.000001)
				continue;
			bm_svg_fmt_tick(lab, sizeof(lab), t[i], t[1] - t[0]);
			x_tick(f, px(fr, t[i]), lab);
		}
	}
	text(f, (ML + W - MR) / 2.0, H - 12, "middle", "", c->xlabel);
}

/* Dark over a bar, which would hide its lower half in the series colour. */
static void err_bar(FILE *f, const struct frame *fr, double x, const struct bm_svg_point *p,
		    int dark)
{
	if (!isfinite(p->err) || p->err <= 0)
		return;
	fprintf(f, "<path class=\"err\"%s d=\"M%.1f %.1fV%.1fM%.1f %.1fh8M%.1f %.1fh8\"/>\n",
		dark ? " stroke=\"#222\"" : "", x, py(fr, p->y - p->err), py(fr, p->y + p->err),
		x - 4, py(fr, p->y - p->err), x - 4, py(fr, p->y + p->err));
}

static int by_x(const void *a, const void *b)
{
	const struct bm_svg_point *p = a, *q = b;

	return (p->x > q->x) - (p->x < q->x);
}

/* rank: position of series k among the drawn ones (bar offset). */
static void series(FILE *f, const struct bm_svg_chart *c, const struct frame *fr, int k,
		   int rank, int shown)
{
	struct bm_svg_point pt[BM_SVG_MAXPT];
	const struct bm_svg_series *s = &c->s[k];
	double bw = (W - ML - MR) / (double)(c->ncat ? c->ncat : 1) * 0.8 / (shown ? shown : 1);
	int i;

	memcpy(pt, s->pt, sizeof(pt[0]) * (size_t)s->n);
	qsort(pt, (size_t)s->n, sizeof(pt[0]), by_x);
	fprintf(f, "<g class=\"series\" stroke=\"%s\" fill=\"%s\"><title>", palette[k], palette[k]);
	bm_svg_esc(f, s->name);
	fputs("</title>\n", f);
	if (!c->bars) {
		fputs("<polyline fill=\"none\" stroke-width=\"2\" points=\"", f);
		for (i = 0; i < s->n; i++)
			if (isfinite(pt[i].y))
				fprintf(f, "%s%.1f,%.1f", i ? " " : "", px(fr, pt[i].x), py(fr, pt[i].y));
		fputs("\"/>\n", f);
	}
	for (i = 0; i < s->n; i++) {
		double x = px(fr, pt[i].x), y0 = py(fr, fmax(fr->y0, 0));

		if (!isfinite(pt[i].y))
			continue;
		if (c->bars) {
			x += -bw * shown / 2 + bw * rank + bw / 2;
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
				x - bw / 2, fmin(py(fr, pt[i].y), y0), bw, fabs(y0 - py(fr, pt[i].y)));
		} else {
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\"/>\n", x, py(fr, pt[i].y));
		}
		err_bar(f, fr, x, &pt[i], c->bars);
	}
	fputs("</g>\n", f);
}

static void legend(FILE *f, const struct bm_svg_chart *c)
{
	int i, y = MT - 10;

	for (i = 0; i < c->ns; i++) {
		if (!c->s[i].n)
			continue;
		y += 18;
		fprintf(f, "<rect class=\"key\" x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" "
			   "fill=\"%s\"/>\n", W - MR + 12, y - 10, palette[i]);
		text(f, W - MR + 30, y, "start", "", c->s[i].name);
	}
}

int bm_svg_chart(FILE *f, const struct bm_svg_chart *c)
{
	struct frame fr;
	int i, rank = 0, shown = 0;

	for (i = 0; i < c->ns; i++)
		shown += c->s[i].n > 0;
	if (!ranges(c, &fr))
		shown = 0;
	fprintf(f, "<svg class=\"chart\" data-series=\"%d\" xmlns=\"http://www.w3.org/2000/svg\" "
		   "viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\">\n",
		shown, W, H, W, H);
	text(f, W / 2.0, 20, "middle", " class=\"title\"", c->title);
	if (shown) {
		y_axis(f, c, &fr);
		x_axis(f, c, &fr);
		for (i = 0; i < c->ns; i++)
			if (c->s[i].n)
				series(f, c, &fr, i, rank++, shown);
		legend(f, c);
	}
	fputs("</svg>\n", f);
	return shown;
}
