// SPDX-License-Identifier: MIT
/*
 * bootmark bisect-step: one step of "git bisect run" in a kernel tree.
 * Builds the tree (or takes --kernel / --kernel-file), boots it, measures,
 * and answers with git's exit codes: 0 good, 1 bad, 125 skip (does not
 * build, does not boot, no verdict), 128 bad configuration and 129 an
 * infrastructure failure, both of which abort the bisection.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bisect_boot.h"
#include "bisect_run.h"
#include "bootdirs.h"
#include "cli.h"
#include "kbuild.h"
#include "setup.h"
#include "qemu.h"
#include "util.h"

#define STEP_GOOD  0
#define STEP_BAD   1
#define STEP_SKIP  125
#define STEP_CONF  128
#define STEP_INFRA 129

struct step_opts {
	char metric[128], fs[32], suite[32], out[PATH_MAX];
	char good_value[32], bad_value[32], good_dir[PATH_MAX], bad_dir[PATH_MAX];
	char kernel[PATH_MAX], kernel_file[PATH_MAX], src[PATH_MAX], build_out[PATH_MAX];
	char base[PATH_MAX], fragment[PATH_MAX], valpha[16];
	long long min_repeat, repeat_max, jobs;
	int boot;
	struct bm_boot_opts b;
};

#define STR(n, f, d, h) { .name = n, .type = BM_OPT_STR, .off = offsetof(struct step_opts, f), \
			  .len = sizeof(((struct step_opts *)0)->f), .def = d, .help = h }
#define INT(n, f, d, lo, hi, h) { .name = n, .type = BM_OPT_INT, \
			  .off = offsetof(struct step_opts, f), .def = d, .min = lo, .max = hi, .help = h }

static const struct bm_opt step_tab[] = {
	STR("metric", metric, NULL, "WORKLOAD.VARIANT.METRIC to judge by, e.g. dd.dd64r.real"),
	STR("good-value", good_value, NULL, "the metric's value on a good kernel"),
	STR("bad-value", bad_value, NULL, "the metric's value on a bad kernel"),
	STR("good", good_dir, NULL, "results of a good kernel (a bootmark run --out DIR or boot)"),
	STR("bad", bad_dir, NULL, "results of a bad kernel"),
	{ .name = "boot", .type = BM_OPT_BOOL, .off = offsetof(struct step_opts, boot), .def = "0",
	  .help = "judge by whether the appliance completes, not by a metric" },
	STR("kernel", kernel, NULL, "boot this kernel spec instead of building the tree"),
	STR("kernel-file", kernel_file, NULL, "boot the spec written in this file (missing: skip)"),
	STR("src", src, ".", "kernel tree to build (bootmark kernel build)"),
	STR("build-out", build_out, NULL, "build directory (default <cache>/builds/<tree name>)"),
	STR("base", base, "defconfig", "base config of the build (see bootmark kernel build)"),
	STR("fragment", fragment, NULL, "config fragment (default: <configs>/kernel.config)"),
	INT("jobs", jobs, "0", 0, 1024, "make -j; 0 = the number of online CPUs"),
	STR("fs", fs, "ext4", "the filesystem profile the metric is measured on"),
	STR("suite", suite, "bisect", "suite each boot runs: <configs>/suites/NAME"),
	INT("min-repeat", min_repeat, "2", 1, 100, "boots before the first verdict"),
	INT("repeat-max", repeat_max, "6", 1, 200, "boots at most; still unknown then: skip"),
	STR("verdict-alpha", valpha, "0.05", "error rate of the sequential verdict"),
	STR("out", out, NULL, "each step's boots go to OUT/<UTC time>-<id>/ (default OUT: <cache>/steps)"),
	BM_BOOT_OPTS(struct step_opts, b),
	BM_OPT_END,
};

static void step_usage(FILE *f)
{
	static const struct bm_usage forms[] = {
		{ .cmd = "git bisect run bootmark bisect-step",
		  .lead = "(--metric W.V.M (--good-value X --bad-value Y "
		  "| --good DIR --bad DIR) | --boot)", .tab = step_tab },
		{ .cmd = NULL },
	};

	bm_cli_usage(f, forms);
	fprintf(f, "\nBuilds the kernel tree in --src (default: the current directory) with the\n"
		   "config fragment, or boots --kernel SPEC / the spec in --kernel-file, runs the\n"
		   "suite and judges the metric against the good and bad references.\n"
		   "Exit (git bisect run): 0 good, 1 bad, 125 skip (build failure, boot failure,\n"
		   "no verdict within --repeat-max boots), 128 bad configuration, 129 system or\n"
		   "infrastructure failure; 128 and 129 stop git bisect.\n\n"
		   "options:\n");
	bm_cli_help(f, step_tab);
}

struct step {
	struct step_opts o;
	struct bm_bmetric m;
	struct bm_setup s;
	struct bm_kspec spec;
	struct bm_ends ends;       /* --good/--bad DIR */
	double good, bad, alpha;   /* --good-value/--bad-value */
	int dirs;                  /* references are folders */
};

static int parse_num(const char *s, const char *what, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(*v)) {
		bm_msg("bad --%s '%s': want a finite number", what, s);
		return -EINVAL;
	}
	return 0;
}

/* The good and bad references: two values or two folders of results. */
static int load_refs(struct step *S)
{
	struct bm_rule any = { .alpha_ends = 1, .threshold = 0, .alpha_verdict = S->alpha };
	double *g = NULL, *b = NULL;
	int ng, nb, rc = -EINVAL;

	if (S->o.boot)
		return 0;
	S->dirs = S->o.good_dir[0] || S->o.bad_dir[0];
	if (S->dirs && (S->o.good_value[0] || S->o.bad_value[0])) {
		bm_msg("give the references as --good-value/--bad-value or as --good/--bad, not both");
		return -EINVAL;
	}
	if (!S->dirs) {
		if (!S->o.good_value[0] || !S->o.bad_value[0]) {
			bm_msg("missing --good-value and --bad-value (or --good DIR --bad DIR)");
			return -EINVAL;
		}
		if (parse_num(S->o.good_value, "good-value", &S->good) ||
		    parse_num(S->o.bad_value, "bad-value", &S->bad))
			return -EINVAL;
		if (S->good == S->bad) {
			bm_msg("--good-value and --bad-value are equal: nothing to tell apart");
			return -EINVAL;
		}
		return 0;
	}
	if (!S->o.good_dir[0] || !S->o.bad_dir[0]) {
		bm_msg("--good DIR and --bad DIR go together");
		return -EINVAL;
	}
	ng = bm_bmetric_collect(&S->m, S->o.good_dir, &g);
	nb = bm_bmetric_collect(&S->m, S->o.bad_dir, &b);
	if (ng <= 0 || nb <= 0) {
		bm_msg("no completed boot with %s in %s", S->o.metric,
		       ng <= 0 ? S->o.good_dir : S->o.bad_dir);
		goto out_free;
	}
	bm_ends_check(g, (size_t)ng, b, (size_t)nb, &any, &S->ends);
	if (!S->ends.differ) {
		bm_msg("the good and bad references do not differ: %s", S->ends.why);
		goto out_free;
	}
	rc = 0;
out_free:
	free(g);
	free(b);
	return rc;
}

static int plan(struct step *S, int argc, char **argv)
{
	const char *name, *val;
	char steps[PATH_MAX];
	int i, rc;

	if (bm_opts_defaults(step_tab, &S->o))
		return -EINVAL;
	for (i = 1; i < argc; i++) {
		rc = bm_cli_step(step_tab, &S->o, NULL, argc, argv, &i, &name, &val);
		if (rc)
			return rc;
		if (!name) {
			bm_msg("unexpected argument '%s' (see bootmark bisect-step --help)", val);
			return -EINVAL;
		}
	}
	if (!S->o.metric[0] && !S->o.boot) {
		bm_msg("missing --metric (or --boot)");
		return -EINVAL;
	}
	if (S->o.metric[0] && S->o.boot) {
		bm_msg("--metric and --boot exclude each other: a metric, or boot completion");
		return -EINVAL;
	}
	/* a bad --kernel is bad configuration, found before anything is created */
	if (S->o.kernel[0]) {
		char err[PATH_MAX + 256];

		if (bm_kspec_parse(&S->spec, S->o.kernel, err, sizeof(err))) {
			bm_msg("%s", err);
			return -EINVAL;
		}
	}
	if (S->o.kernel[0] && S->o.kernel_file[0]) {
		bm_msg("--kernel and --kernel-file exclude each other");
		return -EINVAL;
	}
	if (parse_num(S->o.valpha, "verdict-alpha", &S->alpha) || !(S->alpha > 0 && S->alpha < 0.5)) {
		bm_msg("--verdict-alpha must be between 0 and 0.5");
		return -EINVAL;
	}
	if (S->o.min_repeat > S->o.repeat_max) {
		bm_msg("--min-repeat %lld is above --repeat-max %lld", S->o.min_repeat,
		       S->o.repeat_max);
		return -EINVAL;
	}
	if (bm_bmetric_parse(&S->m, S->o.boot && !S->o.metric[0] ? "boot.boot.boot" : S->o.metric,
			     S->o.fs))
		return -EINVAL;
	rc = bm_setup_load(&S->s, &S->o.b, S->o.suite, S->o.fs);
	if (rc)
		return rc;
	if (!S->o.boot && bm_bmetric_check_suite(&S->m, &S->s.suite, S->o.metric))
		return -EINVAL;
	/* --out, else the cache's steps folder: set_out makes its folder there */
	if (S->o.out[0] ? bm_setup_check_disk(&S->s, S->o.out) :
	    !bm_cache_root(steps, sizeof(steps)) && bm_setup_check_disk(&S->s, steps))
		return -EINVAL;
	return load_refs(S);
}

/* The first spec line of the file a commit carries. */
static int spec_from_file(struct step *S, char *err, size_t errlen)
{
	char *text, *line, *save = NULL;
	size_t len;
	int rc;

	rc = bm_read_file(S->o.kernel_file, &text, &len, 1 << 16);
	if (rc) {
		snprintf(err, errlen, "cannot read %s: %s", S->o.kernel_file, bm_strerror(-rc));
		return rc;
	}
	rc = -EINVAL;
	snprintf(err, errlen, "%s holds no kernel spec", S->o.kernel_file);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		line += strspn(line, " \t");
		line[strcspn(line, "\r")] = '\0';
		if (!*line || *line == '#')
			continue;
		rc = bm_kspec_parse(&S->spec, line, err, errlen);
		break;
	}
	free(text);
	return rc;
}

/* The kernel of this step; returns 0 or the exit code. */
static int get_kernel(struct step *S)
{
	struct bm_kbuild kb;
	char err[PATH_MAX + 256], spec[PATH_MAX + 8];
	int rc;

	if (S->o.kernel[0]) {
		if (bm_kspec_parse(&S->spec, S->o.kernel, err, sizeof(err))) {
			bm_msg("%s", err);
			return STEP_CONF;
		}
		return bm_setup_check_kernel(&S->spec) ? STEP_CONF : 0;
	}
	if (S->o.kernel_file[0]) {  /* a commit without a usable kernel is untestable */
		if (spec_from_file(S, err, sizeof(err))) {
			bm_msg("skip: %s", err);
			return STEP_SKIP;
		}
		return bm_setup_check_kernel(&S->spec) ? STEP_SKIP : 0;
	}
	memset(&kb, 0, sizeof(kb));
	snprintf(kb.src, sizeof(kb.src), "%s", S->o.src);
	snprintf(kb.out, sizeof(kb.out), "%s", S->o.build_out);
	snprintf(kb.base, sizeof(kb.base), "%s", S->o.base);
	/* the tree is built for the guest the step boots (--arch) */
	snprintf(kb.arch, sizeof(kb.arch), "%s", S->s.arch ? S->s.arch->name : "");
	kb.jobs = S->o.jobs;
	if (S->o.fragment[0])
		snprintf(kb.fragment, sizeof(kb.fragment), "%s", S->o.fragment);
	else if (bm_path(kb.fragment, sizeof(kb.fragment), "%s/%s", S->s.configs,
			 strcmp(kb.arch, "arm64") ? "kernel.config" : "kernel-arm64.config"))
		return STEP_CONF;
	rc = bm_kernel_build(&kb, spec, sizeof(spec));
	if (rc == BM_KBUILD_FAILED) {
		bm_msg("skip: the tree does not build");
		return STEP_SKIP;
	}
	if (rc)
		return rc == -EINVAL ? STEP_CONF : STEP_INFRA;
	if (bm_kspec_parse(&S->spec, spec, err, sizeof(err)) || bm_setup_check_kernel(&S->spec)) {
		bm_msg("skip: the built kernel cannot be used: %s", err);
		return STEP_SKIP;
	}
	return 0;
}

static enum bm_verdict judge(struct step *S, const double *v, size_t n, double *llr)
{
	struct bm_rule r = { .alpha_ends = 1, .threshold = 0, .alpha_verdict = S->alpha };

	if (S->dirs)
		return bm_verdict_of(&S->ends, v, n, &r, llr);
	return bm_verdict_values(S->good, S->bad, v, n, S->alpha, llr);
}

static void report(const struct step *S, const char *verdict, const double *v, size_t n,
		   double llr, const char *why)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += v[i];
	printf("bootmark bisect-step: %s: %s", verdict, S->spec.text[0] ? S->spec.text : "(no kernel)");
	if (n)
		printf("; %s mean %.6g over %zu boot(s) (good %.6g, bad %.6g, llr %+.1f)",
		       S->o.metric, sum / (double)n, n, S->dirs ? S->ends.good_mean : S->good,
		       S->dirs ? S->ends.bad_mean : S->bad, llr);
	printf("%s%s\n", why[0] ? "; " : "", why);
}

/* Boots until a verdict; returns the exit code. */
static int measure(struct step *S)
{
	struct bm_run_cfg c;
	int boots = 0, rc;
	struct bm_bctx x = { .c = &c, .specs = &S->spec, .m = &S->m, .out = S->o.out,
			     .boots = &boots, .boot_mode = S->o.boot };
	double *v = calloc((size_t)S->o.repeat_max, sizeof(double)), llr = NAN;
	enum bm_verdict verdict = BM_V_UNKNOWN;
	char why[256] = "";
	size_t n = 0;

	if (!v)
		return STEP_INFRA;
	bm_setup_run_cfg(&S->s, &S->o.b, S->o.out, S->o.suite, S->o.fs, &c);
	while (boots < S->o.repeat_max && verdict == BM_V_UNKNOWN) {
		rc = bm_bisect_measure(&x, 0, &v[n], why, sizeof(why));
		if (rc < 0) {  /* a signal, or the host failed: never good, bad or skip */
			printf("bootmark bisect-step: abort: %s: %s\n",
			       S->spec.text[0] ? S->spec.text : "(no kernel)",
			       rc == -EINTR ? "interrupted" : "the host failed, not the kernel");
			free(v);
			return STEP_INFRA;
		}
		if (S->o.boot) {
			verdict = rc == BM_MEAS_OK ? BM_V_GOOD : BM_V_BAD;
			break;
		}
		if (rc != BM_MEAS_OK) {
			verdict = BM_V_SKIP;
			break;
		}
		n++;
		if ((long long)n >= S->o.min_repeat)
			verdict = judge(S, v, n, &llr);
	}
	if (verdict == BM_V_UNKNOWN) {
		snprintf(why, sizeof(why), "no verdict after %zu boots", n);
		verdict = BM_V_SKIP;
	}
	report(S, verdict == BM_V_GOOD ? "good" : verdict == BM_V_BAD ? "bad" : "skip", v, n,
	       llr, why);
	free(v);
	return verdict == BM_V_GOOD ? STEP_GOOD : verdict == BM_V_BAD ? STEP_BAD : STEP_SKIP;
}

/* Every step gets a folder of its own under --out (default <cache>/steps):
 * git bisect run calls us with the same arguments each time. */
static int set_out(struct step_opts *o)
{
	char stamp[32], run[9], parent[PATH_MAX];
	time_t now = time(NULL);
	struct tm tm;
	int rc;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	if (bm_run_id(run))
		return -EIO;
	if (o->out[0])
		snprintf(parent, sizeof(parent), "%s", o->out);
	else if (bm_cache_root(parent, sizeof(parent)) ||
		 bm_path(parent + strlen(parent), sizeof(parent) - strlen(parent), "/steps"))
		return -ENAMETOOLONG;
	rc = bm_path(o->out, sizeof(o->out), "%s/%s-%s", parent, stamp, run);
	if (!rc)
		rc = bm_mkdir_p(o->out, 0755);
	if (rc)
		bm_msg("cannot create %s: %s", o->out, strerror(-rc));
	return rc;
}

int bm_cmd_bisect_step(int argc, char **argv)
{
	struct step *S = calloc(1, sizeof(*S));
	int rc;

	if (!S)
		return STEP_INFRA;
	rc = plan(S, argc, argv);
	if (rc == 1) {
		step_usage(stdout);
		rc = STEP_GOOD;
		goto out_free;
	}
	if (rc) {
		rc = rc == -ENOENT ? STEP_INFRA : STEP_CONF;
		goto out_free;
	}
	rc = set_out(&S->o);
	if (rc) {
		rc = STEP_INFRA;
		goto out_free;
	}
	bm_stop_catch();
	rc = get_kernel(S);
	if (!rc)
		rc = measure(S);
	else if (rc == STEP_SKIP)
		report(S, "skip", NULL, 0, NAN, "");
out_free:
	free(S);
	fflush(stdout);
	bm_stop_reraise();  /* git bisect run aborts on a death by a signal */
	return rc;
}
