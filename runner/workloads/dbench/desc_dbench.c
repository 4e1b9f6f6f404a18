// SPDX-License-Identifier: MIT
/*
 * dbench's description (wldesc.h): its options, the tests a job expands into
 * and their labels, its metrics, headline and plots.  The engine is wl_dbench.c.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "wl_dbench.h"
#include "wldesc.h"

/* "4,8,16": the client counts, as tiobench parses its thread counts. */
static int db_clients_parse(const char *list, unsigned *out, int max)
{
	return bm_parse_uint_list(list, out, max, 1, DB_CLIENTS_MAX);
}

static const char *const db_versions[] = { "4", "2", "1", NULL };

static const struct bm_opt db_opts_tab[] = {
	{ .name = "clients", .type = BM_OPT_LIST, .off = offsetof(struct db_opts, clients),
	  .len = sizeof(((struct db_opts *)0)->clients), .def = "4,8,16,32",
	  .help = "client counts, one test each (1..1024; dbench's NPROCS)" },
	{ .name = "time", .type = BM_OPT_INT, .off = offsetof(struct db_opts, time),
	  .def = "600", .min = 1, .max = 86400, .help = "timed window in s (dbench -t)" },
	{ .name = "warmup", .type = BM_OPT_INT, .off = offsetof(struct db_opts, warmup),
	  .def = "-1", .min = -1, .max = 86400, .help = "warm-up in s; -1: time/5 as dbench" },
	{ .name = "loadfile", .type = BM_OPT_STR, .off = offsetof(struct db_opts, loadfile),
	  .len = sizeof(((struct db_opts *)0)->loadfile), .def = DB_DEFAULT_LOADFILE,
	  .help = "NBENCH loadfile (.xz read through xzcat); \"generated\": bootmark's own" },
	{ .name = "sync", .type = BM_OPT_BOOL, .off = offsetof(struct db_opts, sync),
	  .def = "0", .help = "O_SYNC on every open (dbench -s)" },
	{ .name = "syncdirs", .type = BM_OPT_BOOL, .off = offsetof(struct db_opts, syncdirs),
	  .def = "0", .help = "fdatasync the folder after unlink/rmdir/rename (dbench -S)" },
	{ .name = "version", .type = BM_OPT_STR, .off = offsetof(struct db_opts, version),
	  .len = sizeof(((struct db_opts *)0)->version), .def = "4", .choices = db_versions,
	  .help = "4: dbench 4.0 (warm-up, timed window); 2, 1: dbench 2.x, 1.x (one pass "
	  "per client, no time limit; 1.x's throughput formula)" },
	{ .name = "lines", .type = BM_OPT_INT, .off = offsetof(struct db_opts, lines),
	  .def = "0", .min = 0, .max = 100000000,
	  .help = "replay only the loadfile's first lines (one pass = those lines); 0: all" },
	BM_OPT_END
};

long long db_warmup(long long t, long long warmup)
{
	return warmup < 0 ? t / 5 : warmup;
}

int db_version(const struct db_opts *o)
{
	return atoi(o->version);
}

static int db_check(const void *opts, char *err, size_t errlen)
{
	const struct db_opts *o = opts;
	unsigned list[DB_LISTS_MAX];

	if (db_clients_parse(o->clients, list, DB_LISTS_MAX) < 0) {
		snprintf(err, errlen, "option 'clients': \"%s\" is not a comma list of at most %d "
			 "client counts, each 1..%d", o->clients, DB_LISTS_MAX, DB_CLIENTS_MAX);
		return -EINVAL;
	}
	return 0;
}

int db_clients(const struct db_opts *o, int idx)
{
	unsigned list[DB_LISTS_MAX];
	int n = db_clients_parse(o->clients, list, DB_LISTS_MAX);

	if (n < 0 || idx < 0 || idx >= n)
		return -EINVAL;
	return (int)list[idx];
}

static int db_ntests(const void *opts)
{
	unsigned list[DB_LISTS_MAX];
	int n = db_clients_parse(((const struct db_opts *)opts)->clients, list, DB_LISTS_MAX);

	return n < 0 ? 0 : n;
}

static int db_describe(const void *opts, int idx, struct bm_result *r)
{
	const struct db_opts *o = opts;
	const char *lf = strrchr(o->loadfile, '/');
	int n = db_clients(o, idx);

	if (n < 0)
		return n;
	snprintf(r->wl, sizeof(r->wl), "dbench");
	snprintf(r->test, sizeof(r->test), "dbench%d", n);
	if (db_version(o) == 4)
		snprintf(r->params, sizeof(r->params),
			 "clients=%d time=%lld warmup=%lld loadfile=%.64s%s%s", n, o->time,
			 db_warmup(o->time, o->warmup), lf ? lf + 1 : o->loadfile,
			 o->sync ? " sync=1" : "", o->syncdirs ? " syncdirs=1" : "");
	else   /* one pass: time and warmup do not apply */
		snprintf(r->params, sizeof(r->params), "clients=%d version=%s loadfile=%.64s%s%s",
			 n, o->version, lf ? lf + 1 : o->loadfile, o->sync ? " sync=1" : "",
			 o->syncdirs ? " syncdirs=1" : "");
	if (o->lines)
		snprintf(r->params + strlen(r->params), sizeof(r->params) - strlen(r->params),
			 " lines=%lld", o->lines);
	return 0;
}

static const struct bm_wl_metric dbench_metrics[] = {
	{ "tput", "MB/s", BM_BETTER_HIGHER },
	{ "ops", "count", BM_BETTER_NONE },
	{ "lat_max", "ms", BM_BETTER_LOWER },
	{ "time", "s", BM_BETTER_LOWER },
	{ "mism", "count", BM_BETTER_NONE },
	{ "pass_mb", "MB", BM_BETTER_NONE },
	{ "n_create", "count", BM_BETTER_NONE },
	{ "avg_create", "ms", BM_BETTER_LOWER },
	{ "max_create", "ms", BM_BETTER_LOWER },
	{ "n_close", "count", BM_BETTER_NONE },
	{ "avg_close", "ms", BM_BETTER_LOWER },
	{ "max_close", "ms", BM_BETTER_LOWER },
	{ "n_read", "count", BM_BETTER_NONE },
	{ "avg_read", "ms", BM_BETTER_LOWER },
	{ "max_read", "ms", BM_BETTER_LOWER },
	{ "n_write", "count", BM_BETTER_NONE },
	{ "avg_write", "ms", BM_BETTER_LOWER },
	{ "max_write", "ms", BM_BETTER_LOWER },
	{ "n_qpath", "count", BM_BETTER_NONE },
	{ "avg_qpath", "ms", BM_BETTER_LOWER },
	{ "max_qpath", "ms", BM_BETTER_LOWER },
	{ "n_find", "count", BM_BETTER_NONE },
	{ "avg_find", "ms", BM_BETTER_LOWER },
	{ "max_find", "ms", BM_BETTER_LOWER },
	{ NULL, NULL, BM_BETTER_NONE },
};

static const struct bm_wl_plot dbench_plots[] = {
	{ .metric = "tput", .prefix = "dbench", .name = "dbench", .xlabel = "clients", .bars = 0, .logx = 1 },
	{ .metric = NULL },
};

const struct bm_wl_desc wl_dbench_desc = {
	.name = "dbench",
	.opts = db_opts_tab,
	.opts_size = sizeof(struct db_opts),
	.check = db_check,
	.ntests = db_ntests,
	.describe = db_describe,
	.metrics = dbench_metrics,
	.headline = "tput",
	.plots = dbench_plots,
	.report = &report_dbench_ops,
	.example = "clients=1 time=2 warmup=1 loadfile=generated",
	/* version=4; its folders are read as glibc reads them (dbench_ops.c db_scan),
	 * so no difference is declared */
	.traced = "dbench 4.0;",
};
