/* SPDX-License-Identifier: MIT */
/* common/report.c: R records to struct bm_rres, lookups, grouping and dispatch. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "tap.h"
#include "wl_dd.h"
#include "wldesc.h"

/* Encodes and decodes one record, as a reader of the serial log sees it. */
static int record(struct bm_record *rec, char type, const char *const *kv)
{
	struct bm_line l;
	size_t pos = 0;
	int n;

	bm_line_start(&l, "0badc0de", 7, type);
	for (; kv[0]; kv += 2)
		bm_line_add(&l, kv[0], kv[1]);
	n = bm_line_finish(&l);
	if (n < 0)
		return n;
	return bm_scan(l.buf, (size_t)n, &pos, rec) == 1 ? 0 : -EBADMSG;
}

static struct bm_record rec;

static void from_record(void)
{
	static const char *const kv[] = {
		"wl", "dd", "test", "dd32w", "fs", "ext4", "rep", "2",
		"params", "size=32M bs=1M rbs=4k", "mkfs", "mkfs.ext4 -q /dev/vda",
		"mount", "noatime", "partial", "1", "cache", "dropped",
		"m_real", "1.25:s", "m_bad", "12", "m_extents", "5:count",
		"m_bw", "nan:MiB/s", NULL,
	};
	static const char *const hello[] = { "v", "1", NULL };
	struct bm_rres h;
	const struct bm_rmetric *m;
	char buf[32];

	TAP_EQ_INT(record(&rec, BM_REC_RESULT, kv), 0, "R record encodes and decodes");
	TAP_EQ_INT(bm_rres_from_record(&h, &rec), 0, "rres from R record");
	TAP_EQ_INT(h.seq, 7, "seq");
	TAP_EQ_STR(h.wl, "dd", "wl");
	TAP_EQ_STR(h.test, "dd32w", "test");
	TAP_EQ_STR(h.fs, "ext4", "fs");
	TAP_EQ_STR(h.params, "size=32M bs=1M rbs=4k", "params unescaped");
	TAP_EQ_STR(h.mkfs, "mkfs.ext4 -q /dev/vda", "mkfs");
	TAP_EQ_STR(h.mount, "noatime", "mount");
	TAP_EQ_INT(h.rep, 2, "rep");
	TAP_EQ_INT(h.partial, 1, "partial");
	TAP_EQ_INT(h.nm, 3, "three metrics: the one without a unit dropped");
	m = bm_rres_metric(&h, "real");
	tap_ok(m && m->value == 1.25 && !strcmp(m->unit, "s"), "m_real=1.25:s");
	m = bm_rres_metric(&h, "extents");
	tap_ok(m && m->value == 5 && !strcmp(m->unit, "count"), "m_extents=5:count");
	tap_ok(bm_rres_metric(&h, "bad") == NULL, "malformed metric absent");
	tap_ok(bm_rres_metric(&h, "cache") == NULL, "plain keys are not metrics");
	tap_ok(bm_rres_value(&h, "real", -1) == 1.25, "value of a metric");
	tap_ok(bm_rres_value(&h, "nosuch", -1) == -1, "default for an absent metric");
	tap_ok(bm_rres_param(&h, "bs", buf, sizeof(buf)) && !strcmp(buf, "1M"), "param bs=1M");
	tap_ok(bm_rres_param(&h, "size", buf, sizeof(buf)) && !strcmp(buf, "32M"),
	       "param size=32M");
	tap_ok(bm_rres_param(&h, "rbs", buf, sizeof(buf)) && !strcmp(buf, "4k"), "param rbs");
	tap_ok(bm_rres_param(&h, "s", buf, sizeof(buf)) == NULL, "no partial key match");
	tap_ok(bm_rres_param(&h, "threads", buf, sizeof(buf)) == NULL, "absent param");
	TAP_EQ_INT(record(&rec, BM_REC_HELLO, hello), 0, "HELLO record");
	TAP_EQ_INT(bm_rres_from_record(&h, &rec), -EINVAL, "HELLO is not a result");
}

static void metric_text(void)
{
	double v;
	char unit[16];

	TAP_EQ_INT(bm_parse_metric("1.234:s", &v, unit, sizeof(unit)), 0, "metric parses");
	tap_ok(v == 1.234 && !strcmp(unit, "s"), "value and unit");
	TAP_EQ_INT(bm_parse_metric("1.5", &v, unit, sizeof(unit)), -EINVAL, "no unit");
	TAP_EQ_INT(bm_parse_metric("x:s", &v, unit, sizeof(unit)), -EINVAL, "not a number");
}

static void labels(void)
{
	char buf[64];

	bm_report_label(buf, sizeof(buf), "ext4", "6.1.0-53");
	TAP_EQ_STR(buf, "EXT4 6.1.0-53", "label: fs upper-cased, kernel");
	bm_report_label(buf, sizeof(buf), "xfs", "");
	TAP_EQ_STR(buf, "XFS", "label without kernel");
	bm_report_label(buf, sizeof(buf), "", NULL);
	TAP_EQ_STR(buf, "?", "label without fs");
	bm_kernel_short("6.12.117+deb12-amd64", buf, sizeof(buf));
	TAP_EQ_STR(buf, "6.12.117+deb12", "kernel short");
}

static void set(struct bm_rres *r, const char *wl, const char *test, const char *fs)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->wl, sizeof(r->wl), "%s", wl);
	snprintf(r->test, sizeof(r->test), "%s", test);
	snprintf(r->fs, sizeof(r->fs), "%s", fs);
	r->rep = 1;
	snprintf(r->m[0].name, sizeof(r->m[0].name), "real");
	r->m[0].value = 1.5;
	snprintf(r->m[0].unit, sizeof(r->m[0].unit), "s");
	r->nm = 1;
}

static char *print(void (*fn)(FILE *, const struct bm_rrow *, size_t),
		   const struct bm_rrow *rows, size_t n)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		tap_bail("open_memstream");
	fn(f, rows, n);
	fclose(f);
	return out;
}

/* Rows of two workloads interleaved come out as one group each, in order
 * of first appearance; an unregistered workload gets the generic table. */
static void grouping(void)
{
	struct bm_rres r[4];
	struct bm_rrow rows[4] = {
		{ "EXT4 k", &r[0] }, { "EXT4 k", &r[1] }, { "XFS k", &r[2] }, { "EXT4 k", &r[3] },
	};
	char *all, *dd, *zz, *a, *b, *c, *d;

	set(&r[0], "zzwl", "zz1", "ext4");
	set(&r[1], "dd", "dd32w", "ext4");
	set(&r[2], "zzwl", "zz1", "xfs");
	set(&r[3], "dd", "dd32r", "ext4");
	tap_ok(bm_report_find("dd") == &report_dd_ops, "dd has its formatter");
	tap_ok(bm_report_find("zzwl") == NULL, "zzwl has none");
	all = print(bm_report_print, rows, 4);
	a = strstr(all, ": zz1 :");
	b = strstr(all, ": dd32w :");
	c = strstr(all, ": dd32r :");
	d = strstr(all, "XFS k");
	tap_ok(a && b && c && d, "every block printed");
	tap_ok(a && b && c && d && a < d && d < b && b < c,
	       "zzwl first (first row), its xfs row in its block, then dd in run order");
	/* the same as each group printed alone, a blank line between groups */
	{
		struct bm_rrow zrows[2] = { rows[0], rows[2] }, drows[2] = { rows[1], rows[3] };
		char *want = NULL;

		zz = print(bm_report_generic, zrows, 2);
		dd = print(report_dd_ops.print, drows, 2);
		if (asprintf(&want, "%s\n%s", zz, dd) < 0)
			tap_bail("asprintf");
		TAP_EQ_STR(all, want, "groups dispatched and separated by a blank line");
		free(want);
		free(zz);
		free(dd);
	}
	free(all);
	all = print(bm_report_print, rows, 0);
	TAP_EQ_STR(all, "", "no rows, no output");
	free(all);
}

int main(void)
{
	tap_plan(0);
	from_record();
	metric_text();
	labels();
	grouping();
	return tap_done();
}
