/* SPDX-License-Identifier: MIT */
/*
 * A tiny SVG chart builder for "bootmark report": line charts (x against
 * y, one polyline with point markers per series) and grouped bar charts
 * (one bar per category and series), with error bars, axes with round
 * tick values, a legend and a title.  Output is one inline <svg> element;
 * every text is XML-escaped.
 */
#ifndef BM_SVG_H
#define BM_SVG_H

#include <stdio.h>

#define BM_SVG_MAXS   12   /* series per chart */
#define BM_SVG_MAXPT  48   /* points per series, categories per bar chart */

struct bm_svg_point {
	double x, y;
	double err;         /* half-height of the error bar; NAN for none */
};

struct bm_svg_series {
	char name[128];
	struct bm_svg_point pt[BM_SVG_MAXPT];
	int n;
};

struct bm_svg_chart {
	char title[192], xlabel[64], ylabel[64];
	int bars;           /* bar chart: x of a point is its category index */
	int logx;           /* line chart: log2 x axis, ticks at the data's x */
	char cat[BM_SVG_MAXPT][48];
	int ncat;
	struct bm_svg_series s[BM_SVG_MAXS];
	int ns;             /* series slots in use (some may be empty) */
};

/* Writes s XML-escaped (junit.h's bm_xml_escape: & < > " ', bad UTF-8). */
void bm_svg_esc(FILE *f, const char *s);
/*
 * Round tick values (1, 2 or 5 times a power of ten) covering lo..hi with
 * at most want + 1 intervals; ticks[0] <= lo, ticks[n-1] >= hi.  Returns
 * n (>= 2), or 0 when lo/hi are not finite or max is too small.
 */
int bm_svg_ticks(double lo, double hi, int want, double *ticks, int max);
/* Tick label text: no trailing zeros, no exponent for usual ranges. */
void bm_svg_fmt_tick(char *buf, size_t len, double v, double step);
/*
 * Draws the chart as <svg class="chart" data-series="N">, N the number of
 * series with at least one point; each drawn series is a <g class="series">
 * holding its polyline or rects.  Returns N.
 */
int bm_svg_chart(FILE *f, const struct bm_svg_chart *c);

#endif
