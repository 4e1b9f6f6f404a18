// SPDX-License-Identifier: MIT
/*
 * The host's load behind a comparison (compare.h).  Under TCG a kernel that
 * looks 20% slower may only have shared the host with another QEMU; the
 * boots' meta.json say so (host/backend/hostload.c), and compare and report say it
 * next to their verdicts instead of letting the reader guess.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "json.h"
#include "svg.h"

#define OTHERS_GAP_PCT 10.0  /* others' mean CPU share apart by more: different load */

struct kload {
	int boots, known, disturbed, qemu, icount;
	double others_sum;
	int others_n;
};

static void per_kernel(const struct bm_cmp *c, size_t k, struct kload *l)
{
	size_t i;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < c->nboots; i++) {
		const struct bm_load_info *b = &c->boots[i].load;

		if ((size_t)c->boots[i].kidx != k)
			continue;
		l->boots++;
		if (!b->known)
			continue;
		l->known++;
		l->icount += b->icount;
		if (b->icount)
			continue;  /* virtual time: the load does not reach the numbers */
		l->disturbed += b->disturbed;
		l->qemu += b->other_qemu > 0;
		if (b->others_pct >= 0) {
			l->others_sum += b->others_pct;
			l->others_n++;
		}
	}
}

static double others_mean(const struct kload *l)
{
	return l->others_n ? l->others_sum / l->others_n : NAN;
}

int bm_cmp_load_differs(const struct bm_cmp *c)
{
	struct kload a, b;
	size_t k;

	if (!c->nkernels)
		return 0;
	per_kernel(c, 0, &a);
	for (k = 1; k < c->nkernels; k++) {
		per_kernel(c, k, &b);
		if (a.known - a.icount <= 0 || b.known - b.icount <= 0)
			continue;
		/* shares of disturbed boots, compared without division */
		if (a.disturbed * (b.known - b.icount) != b.disturbed * (a.known - a.icount))
			return 1;
		if (fabs(others_mean(&a) - others_mean(&b)) > OTHERS_GAP_PCT)
			return 1;
	}
	return 0;
}

static int any_disturbed(const struct bm_cmp *c)
{
	size_t i;

	for (i = 0; i < c->nboots; i++)
		if (c->boots[i].load.known && !c->boots[i].load.icount && c->boots[i].load.disturbed)
			return 1;
	return 0;
}

/* "6.1.0-53-amd64: 3 boots, 2 disturbed (another QEMU in 2), others' CPU 51%" */
static void kernel_line(char *buf, size_t len, const struct bm_cmp *c, size_t k)
{
	struct kload l;
	double m;

	per_kernel(c, k, &l);
	m = others_mean(&l);
	if (!l.known) {
		snprintf(buf, len, "%s: %d boot(s), load not recorded", c->kernels[k], l.boots);
		return;
	}
	if (l.icount == l.known) {
		snprintf(buf, len, "%s: %d boot(s) under --icount (virtual time: immune)",
			 c->kernels[k], l.boots);
		return;
	}
	snprintf(buf, len, "%s: %d boot(s), %d disturbed (another QEMU in %d), others' CPU %s%.0f%%",
		 c->kernels[k], l.boots, l.disturbed, l.qemu, isnan(m) ? "?" : "",
		 isnan(m) ? 0.0 : m);
}

void bm_cmp_print_load(FILE *f, const struct bm_cmp *c, int md)
{
	char line[512];
	size_t k;
	int differs = bm_cmp_load_differs(c);

	if (!differs && !any_disturbed(c))
		return;
	fprintf(f, md ? "\n**Host load**: %s (docs/reliability.md, \"Shared hosts\").\n\n" :
			"host load: %s (docs/reliability.md, \"Shared hosts\")\n",
		differs ? "the kernels' boots ran under different load; a difference in "
			  "timings may be the host's" :
			  "some boots shared the host; their timings may be slower than the kernel's own");
	for (k = 0; k < c->nkernels; k++) {
		kernel_line(line, sizeof(line), c, k);
		fprintf(f, md ? "- %s\n" : "  %s\n", line);
	}
	if (md)
		fputc('\n', f);
}

void bm_cmp_json_load(struct bm_json *j, const struct bm_cmp *c)
{
	struct kload l;
	size_t k;

	bm_json_key(j, "load_differs");
	bm_json_bool(j, bm_cmp_load_differs(c));
	bm_json_key(j, "load");
	bm_json_arr_begin(j);
	for (k = 0; k < c->nkernels; k++) {
		per_kernel(c, k, &l);
		bm_json_obj_begin(j);
		bm_json_kstr(j, "kernel", c->kernels[k]);
		bm_json_kint(j, "boots", l.boots);
		bm_json_kint(j, "recorded", l.known);
		bm_json_kint(j, "icount", l.icount);
		bm_json_kint(j, "disturbed", l.disturbed);
		bm_json_kint(j, "other_qemu", l.qemu);
		bm_json_knum(j, "others_cpu_pct_mean", others_mean(&l));
		bm_json_obj_end(j);
	}
	bm_json_arr_end(j);
}

void bm_cmp_html_load(FILE *f, const struct bm_cmp *c)
{
	char line[512];
	size_t k;

	if (!bm_cmp_load_differs(c) && !any_disturbed(c))
		return;
	fputs("<h2>Host load</h2>\n<p>", f);
	fputs(bm_cmp_load_differs(c) ? "The kernels' boots ran under different load: a difference "
		"in timings may be the host's." : "Some boots shared the host: their timings may be "
		"slower than the kernel's own.", f);
	fputs("</p>\n<ul>\n", f);
	for (k = 0; k < c->nkernels; k++) {
		kernel_line(line, sizeof(line), c, k);
		fputs("<li>", f);
		bm_svg_esc(f, line);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}
