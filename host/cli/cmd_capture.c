// SPDX-License-Identifier: MIT
/*
 * bootmark capture: a box's console -> OUT/<label>/ per run, as a QEMU run
 * writes them.  Options, the stop conditions, the summary and the PXE
 * queue; the work is the PXE backend's (host/backend/pxe/: follow.c, capture.c,
 * capture_out.c and capture_src.c).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "bootdirs.h"
#include "capture.h"
#include "capture_src.h"
#include "cli.h"
#include "history.h"
#include "pxe.h"
#include "outdir.h"
#include "util.h"

struct cap_opts {
	char serial[PATH_MAX], tcp[300], file[PATH_MAX], out[PATH_MAX];
	char pxe[PATH_MAX], mac[32], history[PATH_MAX];
	int follow;
	long long runs, idle, silence;
};

static const struct bm_opt cap_tab[] = {
	{ .name = "serial", .type = BM_OPT_STR, .off = offsetof(struct cap_opts, serial),
	  .len = PATH_MAX, .help = "read a UART: DEVICE[,BAUD] (default baud 115200)" },
	{ .name = "tcp", .type = BM_OPT_STR, .off = offsetof(struct cap_opts, tcp),
	  .len = 300, .help = "read a console server: HOST:PORT (reconnects)" },
	{ .name = "file", .type = BM_OPT_STR, .off = offsetof(struct cap_opts, file),
	  .len = PATH_MAX, .help = "read a console log file" },
	{ .name = "follow", .type = BM_OPT_BOOL, .off = offsetof(struct cap_opts, follow),
	  .help = "--file: keep reading as it grows (tail -F), else stop at its end" },
	{ .name = "out", .type = BM_OPT_STR, .off = offsetof(struct cap_opts, out),
	  .len = PATH_MAX, .help = "results folder, one OUT/<label>/ per run (required)" },
	{ .name = "runs", .type = BM_OPT_INT, .off = offsetof(struct cap_opts, runs),
	  .def = "0", .min = 0, .max = 100000, .help = "stop after this many runs ended; 0 = no limit" },
	{ .name = "idle", .type = BM_OPT_INT, .off = offsetof(struct cap_opts, idle),
	  .def = "0", .min = 0, .max = 604800, .help = "stop after this many s without a byte; 0 = never" },
	{ .name = "silence", .type = BM_OPT_INT, .off = offsetof(struct cap_opts, silence),
	  .def = "0", .min = 0, .max = 86400,
	  .help = "end a live run silent this many s as a hang; 0 = never" },
	{ .name = "pxe", .type = BM_OPT_STR, .off = offsetof(struct cap_opts, pxe),
	  .len = PATH_MAX, .help = "TFTPDIR of bootmark pxe: advance the box's queue when a run ends" },
	{ .name = "mac", .type = BM_OPT_STR, .off = offsetof(struct cap_opts, mac),
	  .len = 32, .help = "--pxe: the box's MAC address" },
	{ .name = "history", .type = BM_OPT_STR, .off = offsetof(struct cap_opts, history),
	  .len = PATH_MAX, .help = "add each run to this history as it ends (bootmark history)" },
	BM_OPT_END,
};

static void cap_usage(FILE *f)
{
	static const struct bm_usage forms[] = {
		{ .cmd = "bootmark capture",
		  .lead = "(--serial DEV[,BAUD] | --tcp HOST:PORT | --file LOG [--follow]) "
		  "--out DIR", .tab = cap_tab },
		{ .cmd = NULL },
	};

	bm_cli_usage(f, forms);
	fprintf(f, "\nReads a box's console, splits it into runs (a new run id, a kernel banner),\n"
		   "reports damaged records and writes OUT/<label>/ per run as bootmark run does.\n"
		   "Stops at the end of LOG (without --follow), after --runs, --idle or SIGINT/SIGTERM.\n"
		   "Exit: 0 every run completed, else the class of the first run that did not\n"
		   "(10..22, docs/exit-codes.md; 10 no-console when no run was seen), 100 bad input,\n"
		   "111 system error (the source cannot be opened, OUT cannot be written).\n\n"
		   "options:\n");
	bm_cli_help(f, cap_tab);
}

struct cap_ctx {
	struct cap_opts o;
	struct bm_src src;
	struct bm_cap cap;
	char mac[32];              /* normalised */
	int hist_failed;           /* a run could not be added to --history */
};

static int check_opts(struct cap_ctx *x)
{
	struct cap_opts *o = &x->o;
	int nsrc = !!o->serial[0] + !!o->tcp[0] + !!o->file[0];
	char err[300];
	int rc;

	if (nsrc != 1) {
		bm_msg("give exactly one of --serial, --tcp, --file (see bootmark capture --help)");
		return -EINVAL;
	}
	if (!o->out[0]) {
		bm_msg("missing --out (see bootmark capture --help)");
		return -EINVAL;
	}
	if (o->follow && !o->file[0]) {
		bm_msg("--follow goes with --file");
		return -EINVAL;
	}
	if (!o->pxe[0] != !o->mac[0]) {
		bm_msg("--pxe and --mac go together");
		return -EINVAL;
	}
	if (o->pxe[0] && !bm_is_dir(o->pxe)) {
		bm_msg("--pxe %s is not a directory", o->pxe);
		return -EINVAL;
	}
	if (o->mac[0] && bm_pxe_mac_norm(o->mac, x->mac, sizeof(x->mac))) {
		bm_msg("bad --mac '%s': want six hex pairs such as 52:54:00:12:34:56", o->mac);
		return -EINVAL;
	}
	rc = o->serial[0] ? bm_src_parse(&x->src, BM_SRC_SERIAL, o->serial, 0, err, sizeof(err))
	     : o->tcp[0] ? bm_src_parse(&x->src, BM_SRC_TCP, o->tcp, 0, err, sizeof(err))
	     : bm_src_parse(&x->src, BM_SRC_FILE, o->file, o->follow, err, sizeof(err));
	if (rc) {
		bm_msg("%s", err);
		return -EINVAL;
	}
	if (bm_out_plan_dir(o->out))
		return -EINVAL;
	/* as bootmark run: never mix new runs into older results */
	if (bm_is_dir(o->out) && bm_boot_dirs(o->out, NULL, NULL) > 0) {
		bm_msg("%s already holds results; choose another --out", o->out);
		return -EEXIST;
	}
	return o->history[0] ? bm_hist_check_path(o->history) : 0;
}

static void on_end(void *arg, struct bm_cap *c, struct bm_cap_run *r)
{
	struct cap_ctx *x = arg;
	char err[512];
	int rc;

	if (x->o.history[0] && bm_hist_add_path(x->o.history, r->dir))
		x->hist_failed = 1;
	if (!x->o.pxe[0] || !r->run[0])
		return;
	rc = bm_pxe_advance(x->o.pxe, x->mac, r->run, r->r.status == BM_ST_COMPLETED,
			    err, sizeof(err));
	if (rc < 0)
		bm_msg("cannot advance the PXE queue of %s: %s", x->mac, err);
	else if (rc > 0)
		bm_msg("%s: run %s done, the box boots its next queue entry", x->mac, r->run);
}

static unsigned intact(const struct bm_cap_run *r)
{
	unsigned n = 0;

	for (uint64_t seq = 1; seq <= r->s.max_seq; seq++)
		n += bm_stream_get(&r->s, seq) != NULL;
	return n;
}

/* The summary on stdout; "capture v1" versions its lines. */
static int summary(const struct bm_cap *c)
{
	int first = c->nruns ? BM_EXIT_OK : bm_status_exit(BM_ST_NO_CONSOLE);

	printf("capture v1: %zu run(s) from %s, %u damaged record(s) (%u before any run), "
	       "%lu over-long line(s) dropped\n", c->nruns, c->source, c->damaged,
	       c->unattributed, c->lines.dropped);
	for (size_t i = 0; i < c->nruns; i++) {
		const struct bm_cap_run *r = c->runs[i];

		if (!first)   /* the class of the first run that did not complete */
			first = bm_status_exit(r->r.status);
		printf("run %s %s: %s%s%s; records %u, damaged %u, recovered %u\n",
		       r->label[0] ? r->label : "-", r->run[0] ? r->run : "-",
		       bm_status_name(r->r.status), r->r.status_why[0] ? ": " : "",
		       r->r.status_why, intact(r), r->damaged, r->recovered);
	}
	return first;
}

/* The box's console into OUT/<label>/ per run, through the PXE backend's boot. */
static int capture(struct cap_ctx *x)
{
	struct bm_pxe_follow fw = {
		.src = &x->src, .cap = &x->cap, .runs = x->o.runs, .idle = x->o.idle,
		.silence = x->o.silence, .on_end = on_end, .end_arg = x,
	};
	struct bm_pxe_req req = { .r = { .backend = "pxe", .out = x->o.out }, .follow = &fw };
	int rc;

	rc = bm_backend_boot(&req.r);
	rc = rc || x->hist_failed ? BM_EXIT_SYSTEM : summary(&x->cap);
	bm_cap_free(&x->cap);
	return rc;
}

int bm_cmd_capture(int argc, char **argv)
{
	struct cap_ctx *x = calloc(1, sizeof(*x));
	const char *name, *val;
	int i, rc;

	if (!x)
		return BM_EXIT_SYSTEM;
	if (bm_opts_defaults(cap_tab, &x->o)) {
		rc = BM_EXIT_SYSTEM;
		goto out_free;
	}
	for (i = 1; i < argc; i++) {
		rc = bm_cli_step(cap_tab, &x->o, NULL, argc, argv, &i, &name, &val);
		if (rc == 1) {
			cap_usage(stdout);
			rc = BM_EXIT_OK;
			goto out_free;
		}
		if (rc || !name) {
			if (!rc)
				bm_msg("unexpected argument '%s' (see bootmark capture --help)", val);
			rc = BM_EXIT_USAGE;
			goto out_free;
		}
	}
	rc = check_opts(x) ? BM_EXIT_USAGE : capture(x);
out_free:
	free(x);
	return rc;
}
