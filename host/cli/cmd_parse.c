// SPDX-License-Identifier: MIT
/* bootmark parse LOG: a serial log from anywhere (QEMU, PXE) -> status + table. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot.h"
#include "bootdirs.h"
#include "cli.h"
#include "profile.h"
#include "table.h"
#include "outdir.h"
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
	static const struct bm_usage forms[] = {
		{ .cmd = "bootmark parse", .lead = "LOG|BOOTDIR", .tab = parse_tab },
		{ .cmd = NULL },
	};

	bm_cli_usage(f, forms);
	fprintf(f, "\nReads the records of one run from LOG (a results UART log or a console log\n"
		   "with the records interleaved), or from a boot folder of run or capture (its\n"
		   "results.log, else console.log), prints the status and the table.\n"
		   "Exit: the class of the run (0 completed, 10..22, see docs/exit-codes.md),\n"
		   "100 bad input, 111 system error.\n\n"
		   "options:\n");
	bm_cli_help(f, parse_tab);
}

struct runs {
	struct bm_record *rec;
	char seen[8][BM_RUN_LEN + 1], *buf;
	size_t o, blen;
	int n;
};

static int runs_cb(void *arg, const char *line, size_t len, uint64_t off)
{
	struct runs *w = arg;
	size_t pos = 0;
	int i, rc;

	while (w->n < 8 && (rc = bm_scan(line, len, &pos, w->rec)) != 0) {
		if (rc < 0)
			continue;
		for (i = 0; i < w->n && strcmp(w->seen[i], w->rec->run); i++)
			;
		if (i < w->n)
			continue;
		snprintf(w->seen[w->n++], sizeof(w->seen[0]), "%s", w->rec->run);
		w->o += (size_t)snprintf(w->buf + w->o, w->blen > w->o ? w->blen - w->o : 0, "%s%s",
					 w->o ? ", " : "", w->rec->run);
	}
	return w->n == 8;
}

/* The run ids that have records in log, comma-separated into buf. */
static void runs_in(const char *log, char *buf, size_t blen)
{
	struct runs w = { .buf = buf, .blen = blen };
	uint64_t size;

	buf[0] = '\0';
	w.rec = malloc(sizeof(*w.rec));
	if (w.rec)
		bm_log_lines(log, runs_cb, &w, &size);
	free(w.rec);
}

/* --run names a run the log holds: else bad input, with the runs it does hold. */
static int run_present(const char *log, const struct bm_results *r, const struct parse_opts *o)
{
	char runs[128];

	if (!o->run[0] || r->max_seq)
		return 0;
	runs_in(log, runs, sizeof(runs));
	bm_msg("%s holds no record of run %s (%s%s)", log, o->run, runs[0] ? "runs there: " : "no run at all",
	       runs);
	return -ENOENT;
}

/* Reads and classifies the run from log, or from boot folder dir (then with
 * what its meta.json says the host saw).  The log is read in pieces, never
 * whole (docs/reliability.md, "Hostile logs"). */
static int load(const char *log, const char *dir, const struct parse_opts *o,
		struct bm_results *r)
{
	struct bm_console con;
	uint64_t off, n;
	int rc;

	rc = dir ? bm_boot_read_strict(dir, o->run, o->fail_on_warning, r) :
		   bm_results_load(r, log, o->run);
	if (rc) {
		bm_msg("cannot parse %s: %s", log, strerror(-rc));
		return BM_EXIT_SYSTEM;
	}
	if (bm_is_file(log) && run_present(log, r, o)) {
		bm_results_free(r);
		return BM_EXIT_USAGE;
	}
	if (!dir) {
		/* a log of several boots: the console facts of this run's boot only */
		rc = bm_console_segment_file(log, r->run, &off, &n);
		if (!rc)
			rc = bm_console_read(log, off, n, &con);
		if (rc) {
			bm_msg("cannot read %s: %s", log, strerror(-rc));
			bm_results_free(r);
			return BM_EXIT_SYSTEM;
		}
		con.fail_on_warning = o->fail_on_warning;
		bm_classify(r, &con, BM_WATCH_NONE, NULL);
	}
	snprintf(r->source, sizeof(r->source), "%s", strrchr(log, '/') ? strrchr(log, '/') + 1 : log);
	return 0;
}

static int report(const char *log, const char *dir, const struct parse_opts *o)
{
	struct bm_results r;
	struct bm_table_boot tb;
	char kshort[128], path[PATH_MAX];
	int rc;

	rc = load(log, dir, o, &r);
	if (rc)
		return rc;
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
		int wr = bm_out_plan_dir(o->out) ? -EPERM : bm_mkdir_p(o->out, 0755);

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

/* A boot folder (OUT/<label>): its logs, with the facts its meta.json keeps. */
static int parse_dir(const char *dir, const struct parse_opts *o)
{
	char log[PATH_MAX];

	if (!bm_is_boot_dir(dir)) {
		bm_msg("%s is a directory, but no boot folder (no results.log or console.log "
		       "in it): give a log file or a boot folder", dir);
		return BM_EXIT_USAGE;
	}
	if (bm_path(log, sizeof(log), "%s/results.log", dir))
		return BM_EXIT_USAGE;
	if (!bm_is_file(log))
		bm_path(log, sizeof(log), "%s/console.log", dir);
	return report(log, dir, o);
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
	if (o.run[0] && !bm_run_id_ok(o.run)) {
		bm_msg("bad --run '%s': a run id is 8 lowercase hex digits (bootmark.run=)", o.run);
		return BM_EXIT_USAGE;
	}
	if (bm_is_dir(log))
		return parse_dir(log, &o);
	if (!bm_is_file(log)) {
		bm_msg("cannot read %s: %s", log, access(log, F_OK) ? "no such file" :
		       "not a regular file");
		return BM_EXIT_USAGE;
	}
	return report(log, NULL, &o);
}
