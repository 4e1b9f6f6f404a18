// SPDX-License-Identifier: MIT
/*
 * The descriptor registry, generated from workloads.def, and the one parser
 * of a job's options (wldesc.h).  Linked into the host and the runner: it
 * sees only common/ and this folder, never an engine.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wldesc.h"

#define WL(name) extern const struct bm_wl_desc wl_##name##_desc;
#include "workloads.def"
#undef WL

const struct bm_wl_desc *const bm_wl_descs[] = {
#define WL(name) &wl_##name##_desc,
#include "workloads.def"
#undef WL
	NULL
};

const struct bm_wl_desc *bm_wl_desc_find(const char *name)
{
	const struct bm_wl_desc *const *d;

	for (d = bm_wl_descs; *d; d++)
		if (!strcmp((*d)->name, name))
			return *d;
	return NULL;
}

const struct bm_wl_metric bm_wl_window_metrics[] = {
	{ "real", "s", BM_BETTER_LOWER },
	{ "utime", "s", BM_BETTER_LOWER },
	{ "stime", "s", BM_BETTER_LOWER },
	{ "read", "KiB", BM_BETTER_NONE },
	{ "written", "KiB", BM_BETTER_NONE },
	{ "putime", "s", BM_BETTER_LOWER },
	{ "pstime", "s", BM_BETTER_LOWER },
	{ NULL, NULL, BM_BETTER_NONE },
};

static const struct bm_wl_metric *metric_in(const struct bm_wl_metric *m, const char *name)
{
	for (; m && m->name; m++)
		if (!strcmp(m->name, name))
			return m;
	return NULL;
}

const struct bm_wl_metric *bm_wl_metric_lookup(const struct bm_wl_desc *const *descs,
					       const char *wl, const char *metric)
{
	const struct bm_wl_metric *m = NULL;

	for (; wl && *descs && !m; descs++)
		if (!strcmp((*descs)->name, wl))
			m = metric_in((*descs)->metrics, metric);
	return m ? m : metric_in(bm_wl_window_metrics, metric);
}

enum bm_better bm_wl_metric_better(const char *wl, const char *metric)
{
	const struct bm_wl_metric *m = bm_wl_metric_lookup(bm_wl_descs, wl, metric);

	return m ? m->better : BM_BETTER_NONE;
}

const struct bm_wl_metric *bm_wl_metric_def(const char *wl, const char *metric,
					    int *negative)
{
	const struct bm_wl_desc *d = bm_wl_desc_find(wl);
	const struct bm_wl_metric *m = d ? metric_in(d->metrics, metric) : NULL;
	const char *const *n;

	*negative = 0;
	for (n = m && d->negative ? d->negative : NULL; n && *n; n++)
		*negative |= !strcmp(*n, metric);
	return m ? m : metric_in(bm_wl_window_metrics, metric);
}

int bm_wl_job_raw(const struct bm_wl_desc *d, const void *o)
{
	return d->raw && d->raw(o);
}

unsigned bm_wl_job_planned(const struct bm_wl_desc *d, const void *o, unsigned nfs,
			   int repeat)
{
	unsigned n = (unsigned)d->ntests(o) * (unsigned)(repeat > 0 ? repeat : 1);

	return bm_wl_job_raw(d, o) ? n : n * nfs;
}

int bm_wl_job_opts(const struct bm_wl_desc *d, const char *args, void **out,
		   char *err, size_t errlen)
{
	char buf[256], *save = NULL, *tok, *eq;
	void *o = calloc(1, d->opts_size ? d->opts_size : 1);
	int ret;

	if (!o)
		return -ENOMEM;
	ret = bm_opts_defaults(d->opts, o);
	snprintf(buf, sizeof(buf), "%s", args);
	for (tok = strtok_r(buf, " \t", &save); tok && !ret;
	     tok = strtok_r(NULL, " \t", &save)) {
		eq = strchr(tok, '=');
		if (!eq) {
			snprintf(err, errlen, "\"%s\" is not option=value", tok);
			ret = -EINVAL;
			break;
		}
		*eq = '\0';
		ret = bm_opt_set(d->opts, o, tok, eq + 1, err, errlen);
	}
	if (!ret && d->check)
		ret = d->check(o, err, errlen);
	if (!ret && d->ntests(o) < 1) {
		snprintf(err, errlen, "the options select no test");
		ret = -EINVAL;
	}
	if (ret) {
		free(o);
		return ret;
	}
	*out = o;
	return 0;
}

/* Here, not in common/report.c: common/ never calls up into the descriptions. */
const struct bm_report_ops *bm_report_find(const char *wl)
{
	const struct bm_wl_desc *d = bm_wl_desc_find(wl);

	return d ? d->report : NULL;
}

void bm_report_print(FILE *f, const struct bm_rrow *rows, size_t n)
{
	const struct bm_report_ops *ops;
	struct bm_rrow *group;
	const char *wl;
	size_t i, j, k, ng, groups = 0;

	group = malloc((n ? n : 1) * sizeof(*group));
	if (!group)
		return;
	for (i = 0; i < n; i++) {
		wl = rows[i].r->wl;
		for (j = 0; j < i && strcmp(rows[j].r->wl, wl); j++)
			;
		if (j < i)
			continue;  /* this workload was printed with its first row */
		for (k = i, ng = 0; k < n; k++)
			if (!strcmp(rows[k].r->wl, wl))
				group[ng++] = rows[k];
		if (groups++)
			fputc('\n', f);
		ops = bm_report_find(wl);
		if (ops && ops->print)
			ops->print(f, group, ng);
		else
			bm_report_generic(f, group, ng);
	}
	free(group);
}
