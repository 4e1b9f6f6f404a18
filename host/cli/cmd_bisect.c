// SPDX-License-Identifier: MIT
/*
 * bootmark bisect --candidates FILE --metric W.V.M: the first candidate of
 * an ordered list whose metric moved from the first's towards the last's
 * (or, with --boot, the first that does not complete).  Rules and error
 * rates: docs/bisect.md; the loop: host/bisect/bisect_run.c.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include "bisect_boot.h"
#include "bisect_run.h"
#include "bootdirs.h"
#include "cli.h"
#include "history.h"
#include "json.h"
#include "setup.h"
#include "outclaim.h"
#include "outdir.h"
#include "qemu.h"
#include "util.h"
#include "schema.h"

#define MAX_CANDIDATES 1000

struct bisect_opts {
	char candidates[PATH_MAX], metric[128], fs[32], suite[32], out[PATH_MAX], history[PATH_MAX];
	char threshold[16], alpha[16], valpha[16];
	long long repeat, min_repeat, repeat_max;
	int boot;
	struct bm_boot_opts b;
};

#define STR(n, f, d, h) { .name = n, .type = BM_OPT_STR, .off = offsetof(struct bisect_opts, f), \
			  .len = sizeof(((struct bisect_opts *)0)->f), .def = d, .help = h }
#define INT(n, f, d, lo, hi, h) { .name = n, .type = BM_OPT_INT, \
			  .off = offsetof(struct bisect_opts, f), .def = d, .min = lo, .max = hi, .help = h }

static const struct bm_opt bisect_tab[] = {
	STR("candidates", candidates, NULL, "kernel specs, one per line, first good, last bad (required)"),
	STR("metric", metric, NULL, "WORKLOAD.VARIANT.METRIC to judge by, e.g. dd.dd64r.real"),
	{ .name = "boot", .type = BM_OPT_BOOL, .off = offsetof(struct bisect_opts, boot), .def = "0",
	  .help = "judge by whether the appliance completes, not by a metric" },
	STR("fs", fs, "ext4", "the filesystem profile the metric is measured on"),
	STR("suite", suite, "bisect", "suite each boot runs: <configs>/suites/NAME"),
	STR("threshold", threshold, "5%", "the ends must differ by at least this much"),
	STR("alpha", alpha, "0.01", "Welch p the ends' difference must be below"),
	STR("verdict-alpha", valpha, "0.05", "error rate of each candidate's sequential verdict"),
	INT("repeat", repeat, "3", 1, 100, "boots of each end"),
	INT("min-repeat", min_repeat, "2", 1, 100, "boots of a candidate before its first verdict"),
	INT("repeat-max", repeat_max, "0", 0, 200, "boots of a candidate or end at most; 0 = 2 x --repeat"),
	STR("out", out, NULL, "output directory (default: bisect-<UTC time>)"),
	STR("history", history, NULL, "add each boot to this history as it finishes (bootmark history)"),
	BM_BOOT_OPTS(struct bisect_opts, b),
	BM_OPT_END,
};

static void bisect_usage(FILE *f)
{
	static const struct bm_usage forms[] = {
		{ .cmd = "bootmark bisect",
		  .lead = "--candidates FILE (--metric W.V.M | --boot)", .tab = bisect_tab },
		{ .cmd = NULL },
	};

	bm_cli_usage(f, forms);
	fprintf(f, "\nFILE: one kernel spec per line in order, the first known good, the last known\n"
		   "bad: RELEASE, deb:RELEASE or local:BZIMAGE[:MODULES], each optionally followed\n"
		   "by kernel command-line arguments; '#' starts a comment line.\n"
		   "Exit: 0 first bad candidate found, 1 no exact answer (the ends do not differ,\n"
		   "an end cannot be measured, skipped candidates hide the boundary), 100 bad\n"
		   "input, 111 system or infrastructure error.  Rules: docs/bisect.md.\n\n"
		   "options:\n");
	bm_cli_help(f, bisect_tab);
}

/* "5%", "5" (percent) or "0.05" (a fraction) -> 0.05. */
static int parse_frac(const char *s, const char *what, int percent_default, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !(v >= 0) || (*end && strcmp(end, "%"))) {
		bm_msg("bad --%s '%s': want a number or a percentage", what, s);
		return -EINVAL;
	}
	*out = *end == '%' || (percent_default && v >= 1) ? v / 100 : v;
	if (!(*out < 1)) {
		bm_msg("bad --%s '%s': must be below 100%%", what, s);
		return -EINVAL;
	}
	return 0;
}

struct bisect {
	struct bisect_opts o;
	struct bm_kspec *specs;
	const char **names;
	int n;
	struct bm_rule rule;
	struct bm_bmetric m;
	struct bm_setup s;
	struct bm_bisect b;
	char (*methods)[8];   /* per candidate: bisect.json's boot_method */
	double seconds, t0;
};

/* One spec per line; every one parsed and checked before anything boots. */
static int load_candidates(struct bisect *B)
{
	char *text, *line, *save = NULL, err[512] = "";
	size_t len;
	int rc, lineno = 0;

	rc = bm_read_file(B->o.candidates, &text, &len, 1 << 20);
	if (rc) {
		bm_msg("cannot read %s: %s", B->o.candidates, bm_strerror(-rc));
		return -EINVAL;
	}
	B->specs = calloc(MAX_CANDIDATES, sizeof(*B->specs));
	B->names = calloc(MAX_CANDIDATES, sizeof(*B->names));
	if (!B->specs || !B->names) {
		rc = -ENOMEM;
		goto out_free_text;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		line += strspn(line, " \t\r");
		line[strcspn(line, "\r")] = '\0';
		if (!*line || *line == '#')
			continue;
		if (B->n == MAX_CANDIDATES) {
			bm_msg("%s: more than %d candidates", B->o.candidates, MAX_CANDIDATES);
			rc = -EINVAL;
			goto out_free_text;
		}
		if (bm_kspec_parse(&B->specs[B->n], line, err, sizeof(err)) ||
		    bm_setup_check_kernel(&B->specs[B->n])) {
			bm_msg("%s:%d: %s", B->o.candidates, lineno, err[0] ? err : "bad kernel");
			rc = -EINVAL;
			goto out_free_text;
		}
		B->names[B->n] = B->specs[B->n].text;
		B->n++;
		err[0] = '\0';
	}
	if (B->n < 2) {
		bm_msg("%s: need at least two candidates (a good and a bad one), found %d",
		       B->o.candidates, B->n);
		rc = -EINVAL;
	}
out_free_text:
	free(text);
	return rc;
}

static int plan(struct bisect *B, int argc, char **argv)
{
	const char *name, *val;
	int i, rc;

	if (bm_opts_defaults(bisect_tab, &B->o))
		return -EINVAL;
	for (i = 1; i < argc; i++) {
		rc = bm_cli_step(bisect_tab, &B->o, NULL, argc, argv, &i, &name, &val);
		if (rc)
			return rc;
		if (!name) {
			bm_msg("unexpected argument '%s' (see bootmark bisect --help)", val);
			return -EINVAL;
		}
	}
	if (B->o.metric[0] && B->o.boot) {
		bm_msg("--metric and --boot exclude each other: a metric, or boot completion");
		return -EINVAL;
	}
	if (!B->o.candidates[0] || (!B->o.metric[0] && !B->o.boot)) {
		bm_msg("missing --%s (see bootmark bisect --help)",
		       B->o.candidates[0] ? "metric (or --boot)" : "candidates");
		return -EINVAL;
	}
	if (!B->o.repeat_max)
		B->o.repeat_max = 2 * B->o.repeat;
	if (B->o.repeat_max < B->o.repeat || B->o.repeat_max < B->o.min_repeat) {
		bm_msg("--repeat-max %lld is below --repeat or --min-repeat", B->o.repeat_max);
		return -EINVAL;
	}
	if (parse_frac(B->o.threshold, "threshold", 1, &B->rule.threshold) ||
	    parse_frac(B->o.alpha, "alpha", 0, &B->rule.alpha_ends) ||
	    parse_frac(B->o.valpha, "verdict-alpha", 0, &B->rule.alpha_verdict))
		return -EINVAL;
	if (!(B->rule.alpha_verdict > 0 && B->rule.alpha_verdict < 0.5)) {
		bm_msg("--verdict-alpha must be between 0 and 0.5");
		return -EINVAL;
	}
	if (strchr(B->o.fs, ',')) {
		bm_msg("--fs takes one filesystem profile, not a list: '%s'", B->o.fs);
		return -EINVAL;
	}
	if (bm_bmetric_parse(&B->m, B->o.boot && !B->o.metric[0] ? "boot.boot.boot" : B->o.metric,
			     B->o.fs))
		return -EINVAL;
	rc = bm_setup_load(&B->s, &B->o.b, B->o.suite, B->o.fs);
	if (rc)
		return rc;
	if (!B->o.boot && bm_bmetric_check_suite(&B->m, &B->s.suite, B->o.metric))
		return -EINVAL;
	if (B->o.history[0] && (rc = bm_hist_check_path(B->o.history)))
		return rc == -EINVAL ? rc : -ENOENT;
	return load_candidates(B);
}

static const char *end_name(enum bm_bisect_end e)
{
	static const char *const names[] = { "found", "range", "no-difference", "end-failed" };

	return (unsigned)e < sizeof(names) / sizeof(names[0]) ? names[e] : "?";
}

static void json_cands(struct bm_json *j, const struct bisect *B)
{
	int i;
	size_t k;

	bm_json_key(j, "candidates");
	bm_json_arr_begin(j);
	for (i = 0; i < B->n; i++) {
		const struct bm_cand *c = &B->b.c[i];

		bm_json_obj_begin(j);
		bm_json_kint(j, "index", i + 1);
		bm_json_kstr(j, "spec", B->names[i]);
		bm_json_kint(j, "step", c->step);
		bm_json_kint(j, "boots", c->boots);
		bm_json_kstr(j, "boot_method", B->methods ? B->methods[i] : "");
		bm_json_key(j, "samples");
		bm_json_arr_begin(j);
		for (k = 0; k < c->nv; k++)
			bm_json_num(j, c->v[k]);
		bm_json_arr_end(j);
		bm_json_kstr(j, "verdict", bm_verdict_name(c->verdict));
		bm_json_knum(j, "llr", c->llr);
		bm_json_kstr(j, "why", c->why);
		bm_json_obj_end(j);
	}
	bm_json_arr_end(j);
}

/* OUT/bisect.json: everything measured and decided, version 1. */
static int write_json(const struct bisect *B)
{
	char path[PATH_MAX + 16], tmp[PATH_MAX + 24];
	struct bm_json j;
	FILE *f;
	int rc = 0;

	if (bm_path(path, sizeof(path), "%s/bisect.json", B->o.out))
		return -ENAMETOOLONG;
	rc = bm_out_tmp(path, tmp, sizeof(tmp));  /* a fresh name, never a planted one */
	f = rc < 0 ? NULL : fdopen(rc, "w");
	if (!f) {
		if (rc >= 0)
			close(rc);
		return rc < 0 ? rc : -errno;
	}
	rc = 0;
	bm_json_init(&j, f, 1);
	bm_json_obj_begin(&j);
	bm_json_kstr(&j, "schema", BM_SCHEMA_BISECT);
	bm_json_kint(&j, "version", 1);
	bm_json_kstr(&j, "metric", B->o.boot ? "" : B->o.metric);
	bm_json_kstr(&j, "unit", B->m.unit);
	bm_json_kstr(&j, "mode", B->o.boot ? "boot" : "metric");
	bm_json_kstr(&j, "fs", B->o.fs);
	bm_json_kstr(&j, "suite", B->o.suite);
	bm_json_knum(&j, "threshold", B->rule.threshold);
	bm_json_knum(&j, "alpha", B->rule.alpha_ends);
	bm_json_knum(&j, "verdict_alpha", B->rule.alpha_verdict);
	bm_json_kint(&j, "repeat", B->o.repeat);
	bm_json_kint(&j, "min_repeat", B->o.min_repeat);
	bm_json_kint(&j, "repeat_max", B->o.repeat_max);
	bm_json_key(&j, "ends");
	bm_json_obj_begin(&j);
	bm_json_knum(&j, "good_mean", B->b.ends.good_mean);
	bm_json_knum(&j, "bad_mean", B->b.ends.bad_mean);
	bm_json_knum(&j, "change", B->b.ends.change);
	bm_json_knum(&j, "p", B->b.ends.p);
	bm_json_knum(&j, "sd", B->b.ends.sd);
	bm_json_obj_end(&j);
	json_cands(&j, B);
	bm_json_key(&j, "result");
	bm_json_obj_begin(&j);
	bm_json_kstr(&j, "end", B->b.done ? end_name(B->b.end) : "running");
	bm_json_kint(&j, "first_bad", B->b.end <= BM_BISECT_RANGE ? B->b.first_bad + 1 : 0);
	bm_json_kint(&j, "range_lo", B->b.end <= BM_BISECT_RANGE ? B->b.range_lo + 1 : 0);
	bm_json_kstr(&j, "first_bad_spec", B->b.end <= BM_BISECT_RANGE ?
		     B->names[B->b.first_bad] : "");
	bm_json_kint(&j, "boots", B->b.boots);
	bm_json_kint(&j, "steps", B->b.steps);
	bm_json_knum(&j, "seconds", B->seconds);
	bm_json_kstr(&j, "why", B->b.why);
	bm_json_obj_end(&j);
	bm_json_obj_end(&j);
	fputc('\n', f);
	if (ferror(f))
		rc = -EIO;
	if (fclose(f) && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc)
		unlink(tmp);
	return rc;
}

static void summary(const struct bisect *B)
{
	int i;

	printf("\n%-5s %-5s %-6s %-8s %s\n", "CAND", "STEP", "BOOTS", "VERDICT", "SPEC");
	for (i = 0; i < B->n; i++) {
		char step[16];

		if (i == 0 || i == B->n - 1)
			snprintf(step, sizeof(step), "end");
		else if (B->b.c[i].step)
			snprintf(step, sizeof(step), "%d", B->b.c[i].step);
		else
			snprintf(step, sizeof(step), "-");
		printf("%-5d %-5s %-6d %-8s %s\n", i + 1, step, B->b.c[i].boots,
		       bm_verdict_name(B->b.c[i].verdict), B->names[i]);
	}
	printf("\n");
	switch (B->b.end) {
	case BM_BISECT_FOUND:
		printf("first bad candidate: %d (%s)\n", B->b.first_bad + 1, B->names[B->b.first_bad]);
		break;
	case BM_BISECT_RANGE:
		printf("first bad candidate: one of %d..%d: %s\n", B->b.range_lo + 1,
		       B->b.first_bad + 1, B->b.why);
		break;
	default:
		printf("no answer: %s\n", B->b.why);
	}
	printf("%d boots, %d steps, %.0f s; details in %s/bisect.json\n", B->b.boots, B->b.steps,
	       B->seconds, B->o.out);
}

static int default_out(struct bisect_opts *o)
{
	time_t now = time(NULL);
	struct tm tm;

	if (o->out[0])
		return 0;
	gmtime_r(&now, &tm);
	strftime(o->out, sizeof(o->out), "bisect-%Y%m%dT%H%M%SZ", &tm);
	return 0;
}

static int check_out(const char *out)
{
	char path[PATH_MAX + 16];

	if (bm_path(path, sizeof(path), "%s/bisect.json", out))
		return -ENAMETOOLONG;
	if (bm_out_plan_dir(out))
		return -EINVAL;
	if (bm_is_file(path) || bm_boot_dirs(out, NULL, NULL) > 0) {
		bm_msg("%s already holds results; choose another --out", out);
		return -EEXIST;
	}
	return 0;
}

/* --out is this bisection's alone (outclaim.h), checked again once held:
 * another one may have filled it since check_out.  -EINVAL: refused. */
static int take_out(const char *out, int *claim)
{
	int rc = bm_out_take(out, claim);

	if (rc)
		return rc;
	if (check_out(out)) {
		bm_out_release(*claim);
		*claim = -1;
		return -EINVAL;
	}
	return 0;
}

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void save_progress(void *arg)
{
	struct bisect *B = arg;

	B->seconds = mono() - B->t0;
	if (write_json(B))
		bm_msg("cannot write %s/bisect.json", B->o.out);
}

static int metric_dir(void *arg)
{
	return bm_bmetric_dir(arg);
}

/* --history: each boot's folder is added once the boot is measured. */
struct hist_measure {
	struct bm_bctx *x;
	const char *db;
	int failed;
};

static int measure_and_add(void *arg, int cand, double *value, char *why, size_t whylen)
{
	struct hist_measure *hm = arg;
	char dir[PATH_MAX];
	int rc = bm_bisect_measure(hm->x, cand, value, why, whylen);

	if (!bm_path(dir, sizeof(dir), "%s/c%02d.b%d", hm->x->out, cand + 1, hm->x->boots[cand]) &&
	    bm_is_dir(dir) && bm_hist_add_path(hm->db, dir))
		hm->failed = 1;
	return rc;
}

static int run(struct bisect *B)
{
	struct bm_run_cfg c;
	struct bm_bctx x = { .c = &c, .specs = B->specs, .m = &B->m, .out = B->o.out,
			     .boot_mode = B->o.boot };
	struct hist_measure hm = { .x = &x, .db = B->o.history };
	int rc, claim;

	B->t0 = mono();
	rc = take_out(B->o.out, &claim);
	if (rc)
		return rc == -EINVAL ? BM_EXIT_USAGE : BM_EXIT_SYSTEM;
	x.boots = calloc((size_t)B->n, sizeof(int));
	B->methods = calloc((size_t)B->n, sizeof(*B->methods));
	x.methods = B->methods;
	if (!x.boots || !B->methods ||
	    bm_bisect_init(&B->b, B->n, (int)B->o.repeat, (int)B->o.min_repeat,
			   (int)B->o.repeat_max, &B->rule, B->o.boot, B->names))
		goto out_free_boots;
	B->b.after_step = save_progress;
	B->b.after_arg = B;
	if (!B->o.boot) {
		B->b.direction = metric_dir;
		B->b.direction_arg = &B->m;
	}
	bm_setup_run_cfg(&B->s, &B->o.b, B->o.out, B->o.suite, B->o.fs, &c);
	printf("bootmark bisect: %d candidates, %s on %s, results in %s\n", B->n,
	       B->o.boot ? "boot completion" : B->o.metric, B->o.fs, B->o.out);
	rc = B->o.history[0] ? bm_bisect_run(&B->b, measure_and_add, &hm, stdout) :
			       bm_bisect_run(&B->b, bm_bisect_measure, &x, stdout);
	B->seconds = mono() - B->t0;
	if (rc) {
		/* a signal, or the host failed (QEMU, a tool, the disk): never an answer */
		bm_msg("bisection stopped: %s; what was measured is in %s/bisect.json",
		       rc == -EINTR ? "interrupted" : "the host failed (infrastructure, exit 111)",
		       B->o.out);
		rc = BM_EXIT_SYSTEM;
	} else {
		summary(B);
		rc = B->b.end == BM_BISECT_FOUND ? BM_EXIT_OK : BM_EXIT_NOTDONE;
	}
	if (write_json(B)) {
		bm_msg("cannot write %s/bisect.json", B->o.out);
		rc = BM_EXIT_SYSTEM;
	}
	if (hm.failed)
		rc = BM_EXIT_SYSTEM;
	bm_bisect_free(&B->b);
	free(B->methods);
	B->methods = NULL;
	free(x.boots);
	bm_out_release(claim);
	return rc;
out_free_boots:
	free(B->methods);
	B->methods = NULL;
	free(x.boots);
	bm_out_release(claim);
	return BM_EXIT_SYSTEM;
}

int bm_cmd_bisect(int argc, char **argv)
{
	struct bisect *B = calloc(1, sizeof(*B));
	int rc;

	if (!B)
		return BM_EXIT_SYSTEM;
	rc = plan(B, argc, argv);
	if (rc == 1) {
		bisect_usage(stdout);
		rc = BM_EXIT_OK;
		goto out_free;
	}
	if (rc) {
		rc = rc == -ENOENT ? BM_EXIT_SYSTEM : BM_EXIT_USAGE;
		goto out_free;
	}
	if (default_out(&B->o) || check_out(B->o.out) || bm_setup_check_disk(&B->s, B->o.out)) {
		rc = BM_EXIT_USAGE;
		goto out_free;
	}
	bm_stop_catch();  /* a signal: the boot is stopped, its files written, then we die by it */
	rc = run(B);
out_free:
	free(B->specs);
	free(B->names);
	free(B);
	fflush(stdout);
	bm_stop_reraise();
	return rc;
}
