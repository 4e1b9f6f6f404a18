/* SPDX-License-Identifier: MIT */
/*
 * host/report/svg.c: round tick values, escaping of every text, and the element
 * counts of a drawn chart (one series group per non-empty series, one
 * rect per bar, error bars only where there is a spread).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svg.h"
#include "tap.h"

static int count(const char *s, const char *what)
{
	int n = 0;

	for (; (s = strstr(s, what)); s += strlen(what))
		n++;
	return n;
}

static char *draw(const struct bm_svg_chart *c, int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		tap_bail("open_memstream");
	*ret = bm_svg_chart(f, c);
	fclose(f);
	return buf;
}

static void ticks(void)
{
	double t[16];
	char lab[32];
	int n;

	n = bm_svg_ticks(0, 262, 5, t, 16);
	TAP_EQ_INT(n, 4, "0..262: 4 ticks");
	tap_ok(n == 4 && t[0] == 0 && t[1] == 100 && t[3] == 300, "0..262: 0 100 200 300");
	n = bm_svg_ticks(0, 0.2, 5, t, 16);
	tap_ok(n == 5 && fabs(t[1] - 0.05) < 1e-12 && fabs(t[4] - 0.2) < 1e-12,
	       "0..0.2: steps of 0.05, never 0.04 (n=%d)", n);
	n = bm_svg_ticks(-3, 7, 5, t, 16);
	tap_ok(n == 7 && t[0] == -4 && t[6] == 8, "-3..7: -4 to 8 by 2 (n=%d)", n);
	n = bm_svg_ticks(5, 5, 5, t, 16);
	tap_ok(n >= 2 && t[0] <= 5 && t[n - 1] >= 5, "one value: a range around it");
	tap_ok(bm_svg_ticks(0, NAN, 5, t, 16) == 0, "NAN range: no ticks");
	tap_ok(bm_svg_ticks(0, 1e6, 5, t, 2) == 0, "too small a buffer: 0");
	bm_svg_fmt_tick(lab, sizeof(lab), 0.15, 0.05);
	TAP_EQ_STR(lab, "0.15", "tick label 0.15");
	bm_svg_fmt_tick(lab, sizeof(lab), 200, 100);
	TAP_EQ_STR(lab, "200", "tick label 200");
}

static void escaping(void)
{
	static struct bm_svg_chart c;
	char *out;
	int n;

	memset(&c, 0, sizeof(c));
	snprintf(c.title, sizeof(c.title), "a<b & \"c\"");
	snprintf(c.xlabel, sizeof(c.xlabel), "x'<");
	snprintf(c.ylabel, sizeof(c.ylabel), "y>");
	c.ns = 1;
	snprintf(c.s[0].name, sizeof(c.s[0].name), "<script>k</script>");
	c.s[0].pt[0] = (struct bm_svg_point){ 1, 2, NAN };
	c.s[0].pt[1] = (struct bm_svg_point){ 2, 3, NAN };
	c.s[0].n = 2;
	out = draw(&c, &n);
	tap_ok(strstr(out, "a&lt;b &amp; &quot;c&quot;") != NULL, "title escaped");
	tap_ok(strstr(out, "&lt;script&gt;k&lt;/script&gt;") && !strstr(out, "<script"),
	       "series name escaped");
	tap_ok(strstr(out, "x&apos;&lt;") && strstr(out, "y&gt;"), "axis labels escaped");
	tap_ok(count(out, "class=\"err\"") == 0, "no spread: no error bars");
	free(out);
}

static void line_chart(void)
{
	static struct bm_svg_chart c;
	char *out;
	int n, k, i;

	memset(&c, 0, sizeof(c));
	snprintf(c.title, sizeof(c.title), "tiobench seqrd");
	c.logx = 1;
	c.ns = 3;  /* the middle kernel has no points: not drawn, not counted */
	for (k = 0; k < 3; k += 2) {
		snprintf(c.s[k].name, sizeof(c.s[k].name), "k%d", k);
		for (i = 0; i < 4; i++)
			c.s[k].pt[i] = (struct bm_svg_point){ 1 << (2 * i), 100.0 * (i + 1) + k, 5 };
		c.s[k].n = 4;
	}
	out = draw(&c, &n);
	TAP_EQ_INT(n, 2, "line chart: 2 series");
	tap_ok(strstr(out, "<svg class=\"chart\" data-series=\"2\"") != NULL, "data-series=2");
	TAP_EQ_INT(count(out, "<g class=\"series\""), 2, "2 series groups");
	TAP_EQ_INT(count(out, "<polyline"), 2, "one polyline per series");
	TAP_EQ_INT(count(out, "<circle"), 8, "one marker per point");
	TAP_EQ_INT(count(out, "class=\"err\""), 8, "one error bar per point");
	TAP_EQ_INT(count(out, "class=\"key\""), 2, "legend: 2 keys");
	tap_ok(strstr(out, ">64</text>") && strstr(out, ">16</text>"), "log2 x ticks 16, 64");
	free(out);

	c.bars = 1;
	c.logx = 0;
	c.ncat = 4;
	for (i = 0; i < 4; i++) {
		snprintf(c.cat[i], sizeof(c.cat[i]), "t%d", i);
		c.s[0].pt[i].x = c.s[2].pt[i].x = i;
	}
	out = draw(&c, &n);
	TAP_EQ_INT(n, 2, "bar chart: 2 series");
	TAP_EQ_INT(count(out, "<rect x="), 8, "one bar per category and series");
	tap_ok(strstr(out, ">t3</text>") != NULL, "category labels");
	free(out);

	memset(&c, 0, sizeof(c));
	c.ns = 2;
	out = draw(&c, &n);
	tap_ok(n == 0 && strstr(out, "data-series=\"0\""), "empty chart: data-series=0");
	free(out);
}

int main(void)
{
	tap_plan(0);
	ticks();
	escaping();
	line_chart();
	return tap_done();
}
