// SPDX-License-Identifier: MIT
/* bootmark parse LOG: a serial log from anywhere (QEMU, PXE) -> status + table. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot.h"
#include "cli.h"
#include "profile.h"
#include "table.h"
#include "util.h"

struct parse_opts {
	char out[PATH_MAX];
	char run[BM_RUN_LEN + 1];
	int fail_on_warning;
};

static const struct bm_opt parse_tab[] = {
	{ .name = "out", .type = BM_OPT_STR, .off = offsetof(struct parse_opts, out),
	  .len = PATH_MAX, .help = "write DIR/results.json" },
	{ .name = "run", .type = BM_OPT_STR, .off = offsetof(struct parse_opts, run),
	  .len = BM_RUN_LEN + 1, .help = "run id to take (default: the first HELLO's)" },
	{ .name = "fail-on-warning", .type = BM_OPT_BOOL,
	  .off = offsetof(struct parse_opts, fail_on_warning), .def = "0",
	  .help = "class a complete run with kernel warnings on the console kernel-warning" },
	BM_OPT_END,
};

static void parse_usage(FILE *f)
{
	fprintf(f, "usage: bootmark parse LOG [--out DIR] [--run ID]\n\n"
		   "Reads the records of one run from LOG (a results UART log or a console log\n"
		   "with the records interleaved), prints the status and the table.\n"
		   "Exit: the class of the run (0 completed, 10..21, see docs/exit-codes.md),\n"
		   "100 bad input, 111 system error.\n\n"
		   "options:\n");
	bm_cli_help(f, parse_tab);
}

static int report(const char *log, const struct parse_opts *o)
{
	struct bm_results r;
	struct bm_console con;
	struct bm_table_boot tb;
	char *text, kshort[128], path[PATH_MAX];
	size_t len, off, n;
	int rc;

	rc = bm_results_load(&r, log, o->run);
	if (rc) {
		bm_msg("cannot parse %s: %s", log, strerror(-rc));
		return BM_EXIT_SYSTEM;
	}
	rc = bm_read_file(log, &text, &len, (size_t)1 << 30);
	if (rc) {
		bm_msg("cannot read %s: %s", log, strerror(-rc));
		bm_results_free(&r);
		return BM_EXIT_SYSTEM;
	}
	/* a log of several boots: the console facts of this run's boot only */
	bm_console_segment(text, len, r.run, &off, &n);
	bm_console_scan(text + off, n, &con);
	con.fail_on_warning = o->fail_on_warning;
	free(text);
	snprintf(r.source, sizeof(r.source), "%s", strrchr(log, '/') ? strrchr(log, '/') + 1 : log);
	bm_classify(&r, &con, BM_WATCH_NONE, NULL);
	bm_kernel_short(bm_hello_get(&r, "kernel") ? bm_hello_get(&r, "kernel") : "?",
			kshort, sizeof(kshort));
	printf("run %s: %s%s%s\n", r.run[0] ? r.run : "-", bm_status_name(r.status),
	       r.status_why[0] ? ": " : "", r.status_why);
	if (r.nres) {
		tb.kernel = kshort;
		tb.r = &r;
		printf("\n");
		bm_table_print(stdout, &tb, 1);
	}
	rc = bm_status_exit(r.status);
	if (o->out[0]) {
		int wr = bm_mkdir_p(o->out, 0755);

		if (!wr)
			wr = bm_path(path, sizeof(path), "%s/results.json", o->out);
		if (!wr)
			wr = bm_write_results_json(path, &r);
		if (wr) {
			bm_msg("cannot write %s/results.json: %s", o->out, strerror(-wr));
			rc = BM_EXIT_SYSTEM;
		}
	}
	bm_results_free(&r);
	return rc;
}

int bm_cmd_parse(int argc, char **argv)
{
	struct parse_opts o;
	const char *name, *val, *log = NULL;
	int i, rc;

	if (bm_opts_defaults(parse_tab, &o))
		return BM_EXIT_SYSTEM;
	for (i = 1; i < argc; i++) {
		rc = bm_cli_step(parse_tab, &o, NULL, argc, argv, &i, &name, &val);
		if (rc == 1) {
			parse_usage(stdout);
			return BM_EXIT_OK;
		}
		if (rc)
			return BM_EXIT_USAGE;
		if (name)
			continue;
		if (log) {
			bm_msg("parse takes one LOG (see bootmark parse --help)");
			return BM_EXIT_USAGE;
		}
		log = val;
	}
	if (!log) {
		bm_msg("missing LOG (see bootmark parse --help)");
		return BM_EXIT_USAGE;
	}
	if (!bm_is_file(log)) {
		bm_msg("cannot read %s: no such file", log);
		return BM_EXIT_USAGE;
	}
	return report(log, &o);
}
