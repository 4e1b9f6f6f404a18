// SPDX-License-Identifier: MIT
/*
 * AIM7's description (wldesc.h): its options, the tests a job expands into
 * and their labels, its metrics, headline and plots.  The engine is wl_aim7.c;
 * the mixes (workfiles) are in desc_aim7_mix.c.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "opts.h"
#include "wl_aim7.h"
#include "wldesc.h"

static const struct bm_opt aim7_opts_tab[] = {
	{ .name = "mix", .type = BM_OPT_LIST, .off = offsetof(struct aim7_opts, mix),
	  .len = sizeof(((struct aim7_opts *)0)->mix), .def = "fserver",
	  .choices = aim7_mix_names, .help = "workfiles: fserver, dbase, shared" },
	{ .name = "tasks", .type = BM_OPT_LIST, .off = offsetof(struct aim7_opts, tasks),
	  .len = sizeof(((struct aim7_opts *)0)->tasks), .def = "1,2,4,8",
	  .help = "task counts, one test each per mix (1..4096)" },
	{ .name = "jobs", .type = BM_OPT_INT, .off = offsetof(struct aim7_opts, jobs),
	  .def = "100", .min = 1, .max = AIM7_JOBS_MAX,
	  .help = "LOADNUM: jobs per task before rounding (reaim -j)" },
	{ .name = "filesize", .type = BM_OPT_STR, .off = offsetof(struct aim7_opts, filesize),
	  .len = sizeof(((struct aim7_opts *)0)->filesize), .def = "",
	  .help = "workfile FILESIZE (a size); empty: the workfile's (fserver 10M, dbase and "
	  "shared 1M)" },
	{ .name = "poolsize", .type = BM_OPT_STR, .off = offsetof(struct aim7_opts, poolsize),
	  .len = sizeof(((struct aim7_opts *)0)->poolsize), .def = "",
	  .help = "workfile POOLSIZE, divided among the tasks; empty: the workfile's (fserver "
	  "20M, dbase 25M, shared 10M)" },
	{ .name = "seed", .type = BM_OPT_INT, .off = offsetof(struct aim7_opts, seed),
	  .def = "0", .min = 0, .max = 1ll << 31, .help = "added to each task's aim_srand(user) "
	  "seed; 0: AIM's own" },
	{ .name = "sleep", .type = BM_OPT_INT, .off = offsetof(struct aim7_opts, sleep),
	  .def = "10", .min = 0, .max = 3600, .help = "s from the forks to the start signal, "
	  "inside Real (multitask.c SLEEP 10)" },
	BM_OPT_END
};

/* FILESIZE and POOLSIZE: the option when set, else the workfile's. */
int aim7_sizes(const struct aim7_opts *o, const struct aim7_mix *m, uint64_t *fs,
		      uint64_t *ps)
{
	*fs = m->filesize;
	*ps = m->poolsize;
	if (o->filesize[0] && bm_parse_size(o->filesize, fs))
		return -EINVAL;
	if (o->poolsize[0] && bm_parse_size(o->poolsize, ps))
		return -EINVAL;
	return 0;
}

/* Test idx: mix idx / ntasks, task count idx % ntasks. */
const struct aim7_mix *aim7_test(const struct aim7_opts *o, int idx, unsigned *tasks)
{
	char buf[sizeof(o->mix)], *save = NULL, *tok;
	unsigned list[AIM7_LISTS_MAX];
	int nt = aim7_tasks_parse(o->tasks, list, AIM7_LISTS_MAX), i = 0;

	if (nt < 0 || idx < 0)
		return NULL;
	snprintf(buf, sizeof(buf), "%s", o->mix);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save), i++) {
		if (i != idx / nt)
			continue;
		*tasks = list[idx % nt];
		return aim7_mix_find(tok);
	}
	return NULL;
}

static int aim7_check(const void *opts, char *err, size_t errlen)
{
	const struct aim7_opts *o = opts;
	unsigned list[AIM7_LISTS_MAX];
	uint64_t fs, ps;

	if (aim7_tasks_parse(o->tasks, list, AIM7_LISTS_MAX) < 0) {
		snprintf(err, errlen, "option 'tasks': \"%s\" is not a comma list of at most %d "
			 "task counts, each 1..%d", o->tasks, AIM7_LISTS_MAX, AIM7_TASKS_MAX);
		return -EINVAL;
	}
	if (!o->mix[0]) {
		snprintf(err, errlen, "option 'mix': empty, want fserver, dbase or shared");
		return -EINVAL;
	}
	if (aim7_sizes(o, aim7_mix_find("fserver"), &fs, &ps) || (o->filesize[0] && fs < 1024)) {
		snprintf(err, errlen, "options 'filesize', 'poolsize': \"%s\", \"%s\": want sizes "
			 "(512, 4k, 10M), filesize at least 1k", o->filesize, o->poolsize);
		return -EINVAL;
	}
	return 0;
}

static int aim7_ntests(const void *opts)
{
	unsigned t;
	int n = 0;

	while (aim7_test(opts, n, &t))
		n++;
	return n;
}

static int aim7_describe(const void *opts, int idx, struct bm_result *r)
{
	const struct aim7_opts *o = opts;
	const struct aim7_mix *m;
	char fs[32], ps[32];
	uint64_t f, p;
	unsigned t;

	m = aim7_test(o, idx, &t);
	if (!m || aim7_sizes(o, m, &f, &p))
		return -EINVAL;
	bm_fmt_size(fs, sizeof(fs), f, "kMGT");
	bm_fmt_size(ps, sizeof(ps), p, "kMGT");
	snprintf(r->wl, sizeof(r->wl), "aim7");
	snprintf(r->test, sizeof(r->test), "aim7-%s-t%u", m->name, t);
	snprintf(r->params, sizeof(r->params),
		 "mix=%s tasks=%u jobs=%lld filesize=%s poolsize=%s sleep=%lld%s", m->name, t,
		 o->jobs, fs, ps, o->sleep, "");
	if (o->seed)
		snprintf(r->params + strlen(r->params), sizeof(r->params) - strlen(r->params),
			 " seed=%lld", o->seed);
	return 0;
}

static const struct bm_wl_metric aim7_metrics[] = {
	{ "jobs_min", "jobs/min", BM_BETTER_HIGHER },
	{ "aim_real", "s", BM_BETTER_LOWER },
	{ "cpu", "s", BM_BETTER_LOWER },
	{ "utime_c", "s", BM_BETTER_LOWER },
	{ "stime_c", "s", BM_BETTER_LOWER },
	{ "jobs_sec_task", "jobs/s", BM_BETTER_HIGHER },
	{ "jti", "%", BM_BETTER_NONE },
	{ "jobs", "count", BM_BETTER_NONE },
	{ "tasks", "count", BM_BETTER_NONE },
	{ NULL, NULL, BM_BETTER_NONE },
};

/* AIM7's jitter index, (1 - cov) * 100 unless (int)cov > 1 (aim7_jti,
 * desc_aim7_mix.c): -99..0 when the tasks' times spread by 1..2 times
 * their mean, as the original prints it */
static const char *const aim7_negative[] = { "jti", NULL };

static const struct bm_wl_plot aim7_plots[] = {
	{ .metric = "jobs_min", .prefix = "aim7-", .name = "AIM7", .xlabel = "tasks", .bars = 0, .logx = 1 },
	{ .metric = NULL },
};

const struct bm_wl_desc wl_aim7_desc = {
	.name = "aim7",
	.opts = aim7_opts_tab,
	.opts_size = sizeof(struct aim7_opts),
	.check = aim7_check,
	.ntests = aim7_ntests,
	.describe = aim7_describe,
	.metrics = aim7_metrics,
	.negative = aim7_negative,
	.headline = "jobs_min",
	.plots = aim7_plots,
	.report = &report_aim7_ops,
	.example = "mix=fserver tasks=1 jobs=20 filesize=16k poolsize=16k",
};
