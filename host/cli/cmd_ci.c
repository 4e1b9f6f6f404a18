// SPDX-License-Identifier: MIT
/*
 * bootmark ci: the whole CI job in one command (host/ci/ci.h, docs/ci.md).
 * Everything is checked before OUT is created; the boots are "bootmark run"
 * itself, started from this executable, so a job boots exactly as a person
 * would, with the same checks, signals and files.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ci.h"
#include "cli.h"
#include "outdir.h"
#include "qemu.h"
#include "util.h"

#define OFF(f) offsetof(struct bm_ci_opts, f)
#define STR(n, f, d, h) { .name = n, .type = BM_OPT_STR, .off = OFF(f), \
			  .len = sizeof(((struct bm_ci_opts *)0)->f), .def = d, .help = h }
#define INT(n, f, d, lo, hi, h) { .name = n, .type = BM_OPT_INT, .off = OFF(f), .def = d, \
				  .min = lo, .max = hi, .help = h }

static const struct bm_opt ci_tab[] = {
	STR("kernel", kernel, NULL, "the candidate: a kernel spec (or --src)"),
	STR("src", src, NULL, "the candidate: a kernel tree to build (bootmark kernel build)"),
	STR("baseline", baseline, NULL, "the baseline: a kernel spec"),
	STR("baseline-rev", baseline_rev, NULL, "the baseline: a git revision of --src, built "
	    "the same way (cached by commit)"),
	STR("baseline-results", baseline_results, NULL, "the baseline: the OUT of an earlier "
	    "bootmark ci (its candidate's boots) or a run folder of one kernel"),
	STR("suite", suite, "smoke", "suite each boot runs: <configs>/suites/NAME"),
	STR("fs", fs, "ext4", "filesystem profiles, comma list"),
	STR("out", out, NULL, "the job's folder: run/, compare.txt, compare.json, report.html, "
	    "junit.xml, tap.txt, ci.json (required)"),
	STR("repeat", repeat, "auto", "boots per kernel, interleaved: 2-1000 or auto"),
	INT("repeat-min", repeat_min, "3", 2, 1000, "--repeat auto: completed boots per kernel at least"),
	INT("repeat-max", repeat_max, "10", 2, 1000, "--repeat auto: boots per kernel at most"),
	STR("cov", cov, "3.0", "--repeat auto: stable when every headline CoV is below this, %"),
	INT("max-boots", max_boots, "0", 0, 1000, "confirm: while the gate is undecided (boots in "
	    "real time), boot both kernels again, a round at a time, up to this many boots a "
	    "kernel; 0 = no confirmation (docs/ci.md)"),
	{ .name = "fail-on", .type = BM_OPT_STR, .off = OFF(fail_on), .len = 16,
	  .def = "regression", .choices = bm_gate_modes,
	  .help = "the gate: exit 30 on a headline regression (or any headline change; none: "
		  "only boots that did not complete fail the job)" },
	BM_CMP_RULE_OPTS(struct bm_ci_opts, rules),
	STR("base", base, "defconfig", "kernel build: defconfig, allnoconfig, tinyconfig or a "
	    "config FILE"),
	STR("fragment", fragment, NULL, "kernel build: config fragment (default "
	    "<configs>/kernel.config)"),
	INT("jobs", jobs, "0", 0, 1024, "kernel build: make -j; 0 = online CPUs"),
	STR("build-out", build_out, NULL, "kernel build of --src: make O= (default "
	    "<cache>/builds/<tree name>)"),
	BM_BOOT_OPTS(struct bm_ci_opts, b),
	BM_OPT_END,
};

/* The run's options that ci passes on as they were given. */
static const struct bm_opt boot_tab[] = {
	BM_BOOT_OPTS(struct bm_ci_opts, b),
	BM_OPT_END,
};

static void ci_usage(FILE *f)
{
	static const struct bm_usage forms[] = {
		{ .cmd = "bootmark ci",
		  .lead = "(--kernel SPEC | --src TREE) "
			  "(--baseline SPEC | --baseline-rev REV | --baseline-results DIR) --out DIR",
		  .tab = ci_tab },
		{ .cmd = NULL },
	};

	bm_cli_usage(f, forms);
	fprintf(f, "\n"
		   "Builds or takes the candidate kernel, gets the baseline, boots both interleaved\n"
		   "(bootmark run --repeat auto; only the candidate with --baseline-results), and\n"
		   "writes OUT/run/ (the boots), compare.txt, compare.json, report.html, junit.xml,\n"
		   "tap.txt and ci.json.  The gate is compare --fail-on (docs/ci.md).\n"
		   "With --max-boots N the first run boots each kernel --repeat-min (or --repeat)\n"
		   "times, then a round more while the gate is undecided, at most N a kernel.\n"
		   "Exit: 0 the gate passed; 30 a headline regression (or change); 31 undecided:\n"
		   "boots in real time cannot yet tell (boot more); 10..22 the class\n"
		   "of the first boot that did not complete; 1 a kernel did not build; 100 bad\n"
		   "input; 111 system error; stopped by a signal: ended by it once the files are\n"
		   "written (docs/exit-codes.md).\n\n"
		   "options:\n");
	bm_cli_help(f, ci_tab);
}

static int one_of(const char *what, int n)
{
	if (n == 1)
		return 0;
	bm_msg(n ? "give one %s, not several (see bootmark ci --help)" :
		   "missing the %s (see bootmark ci --help)", what);
	return -EINVAL;
}

static int check_spec(const char *opt, const char *spec)
{
	struct bm_kspec k;
	char err[512];

	if (!spec[0] || !bm_kspec_parse(&k, spec, err, sizeof(err)))
		return 0;
	bm_msg("--%s: %s", opt, err);
	return -EINVAL;
}

/* --max-boots: the first run's boots a kernel, and the looks the gate's
 * alpha is split over (one after the first run and one after each round). */
static int check_confirm(struct bm_ci *ci)
{
	const struct bm_ci_opts *o = &ci->o;

	if (!o->max_boots)
		return 0;
	ci->first_boots = (int)(strcmp(o->repeat, "auto") ? atoll(o->repeat) : o->repeat_min);
	if (o->max_boots < ci->first_boots) {
		bm_msg("--max-boots %lld is below the first run's %d boots a kernel (--repeat or "
		       "--repeat-min)", o->max_boots, ci->first_boots);
		return -EINVAL;
	}
	ci->looks = (int)o->max_boots - ci->first_boots + 1;
	ci->alpha0 = ci->rules.alpha;
	return 0;
}

/*
 * The alpha of a look, Haybittle and Peto's split: the looks before the last
 * share a tenth of --alpha (a decision there needs strong evidence), the last
 * has the other nine tenths; by the union bound the whole budget's chance of
 * a false decision, either way, is at most --alpha.  One look: --alpha.
 */
static double look_alpha(const struct bm_ci *ci, int last)
{
	if (ci->looks <= 1)
		return ci->alpha0;
	return last ? 0.9 * ci->alpha0 : 0.1 * ci->alpha0 / (ci->looks - 1);
}

static int check_repeat(const struct bm_ci_opts *o)
{
	char *end;
	long long n;

	if (!strcmp(o->repeat, "auto"))
		return o->repeat_min <= o->repeat_max ? 0 :
		       (bm_msg("--repeat-min %lld is above --repeat-max %lld", o->repeat_min,
			       o->repeat_max), -EINVAL);
	errno = 0;
	n = strtoll(o->repeat, &end, 10);
	if (errno || end == o->repeat || *end || n < 2 || n > 1000) {
		bm_msg("bad --repeat '%s': want 2-1000 or auto (a comparison needs two boots "
		       "of each kernel or more)", o->repeat);
		return -EINVAL;
	}
	return 0;
}

/* Every option, the suite, the profiles and the specs' syntax, before OUT. */
static int plan(struct bm_ci *ci, int argc, char **argv)
{
	struct bm_ci_opts *o = &ci->o;
	char job[PATH_MAX];
	struct bm_setup s;
	int rc, i;

	if (bm_opts_defaults(ci_tab, o))
		return -ENOMEM;
	for (i = 1; i < argc; i++) {
		const char *name, *val;

		rc = bm_cli_step(ci_tab, o, NULL, argc, argv, &i, &name, &val);
		if (rc)
			return rc;
		if (!name) {
			bm_msg("unexpected argument '%s' (see bootmark ci --help)", val);
			return -EINVAL;
		}
	}
	if (one_of("candidate (--kernel SPEC or --src TREE)", !!o->kernel[0] + !!o->src[0]) ||
	    one_of("baseline (--baseline, --baseline-rev or --baseline-results)",
		   !!o->baseline[0] + !!o->baseline_rev[0] + !!o->baseline_results[0]))
		return -EINVAL;
	if (!o->out[0]) {
		bm_msg("missing --out (see bootmark ci --help)");
		return -EINVAL;
	}
	if (o->src[0] && !bm_is_dir(o->src)) {
		bm_msg("--src %s is not a directory (a kernel tree)", o->src);
		return -EINVAL;
	}
	if (o->baseline_rev[0] && !o->src[0]) {
		bm_msg("--baseline-rev names a revision of the tree: give the tree as --src");
		return -EINVAL;
	}
	ci->base_kind = o->baseline[0] ? BM_CI_BASE_SPEC :
			o->baseline_rev[0] ? BM_CI_BASE_REV : BM_CI_BASE_RESULTS;
	if (check_spec("kernel", o->kernel) || check_spec("baseline", o->baseline) ||
	    check_repeat(o) || bm_gate_parse(o->fail_on, &ci->gate) ||
	    bm_cmp_parse_rules(&o->rules, &ci->rules, 0) || check_confirm(ci))
		return -EINVAL;
	/* arm64's fragment for an arm64 guest (configs/kernel-arm64.config) */
	if (!o->fragment[0] && (bm_exe_dir(job, sizeof(job)) ||
				bm_path(o->fragment, sizeof(o->fragment), "%s/../configs/%s", job,
					strcmp(o->b.arch, "arm64") ? "kernel.config" :
					"kernel-arm64.config"))) {
		bm_msg("cannot find configs/kernel.config: give --fragment");
		return -EINVAL;
	}
	rc = bm_setup_load(&s, &o->b, o->suite, o->fs);
	if (rc)
		return rc;
	if (bm_out_plan_dir(o->out) || bm_setup_check_disk(&s, o->out))
		return -EINVAL;
	if (bm_path(job, sizeof(job), "%s/ci.json", o->out) || bm_is_file(job)) {
		bm_msg("%s already holds a job (%s): choose another --out", o->out, job);
		return -EINVAL;
	}
	if ((rc = (int)readlink("/proc/self/exe", ci->exe, sizeof(ci->exe) - 1)) < 0)
		return -errno;
	ci->exe[rc] = '\0';
	if (ci->base_kind == BM_CI_BASE_REV && (rc = bm_ci_resolve_rev(ci)))
		return rc;
	if (ci->base_kind == BM_CI_BASE_RESULTS)
		return bm_ci_find_earlier(ci);
	return 0;
}

/* "--name=value" for each boot option that is not at its default. */
static int boot_args(const struct bm_ci_opts *o, char **argv, int *n, char (*buf)[PATH_MAX + 32])
{
	const struct bm_opt *t;
	int k = 0;

	for (t = boot_tab; t->name; t++) {
		const char *p = (const char *)o + t->off, *def = t->def ? t->def : "";
		long long v;

		if (t->type == BM_OPT_STR && strcmp(p, def))
			snprintf(buf[k], sizeof(buf[k]), "--%s=%s", t->name, p);
		else if (t->type == BM_OPT_INT && (memcpy(&v, p, sizeof(v)), v != atoll(def)))
			snprintf(buf[k], sizeof(buf[k]), "--%s=%lld", t->name, v);
		else if (t->type == BM_OPT_BOOL && *(const int *)(const void *)p)
			snprintf(buf[k], sizeof(buf[k]), "--%s", t->name);
		else
			continue;
		argv[(*n)++] = buf[k++];
	}
	return k;
}

/* bootmark run, in a process group of its own: a stop signal reaches it
 * once, through us (a second one would make it kill QEMU at once). */
static int start_run(char *const argv[], pid_t *pid)
{
	*pid = fork();
	if (*pid < 0)
		return -errno;
	if (*pid == 0) {
		setpgid(0, 0);
		execv(argv[0], argv);
		_exit(127);
	}
	setpgid(*pid, *pid);
	return 0;
}

static int wait_run(pid_t pid)
{
	int status, sent = 0;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return BM_EXIT_SYSTEM;
		if (bm_stop_signal() && bm_stop_count() > sent) {
			kill(pid, bm_stop_signal());
			sent = bm_stop_count();
		}
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

/* bootmark run into OUT/run (round 0: --repeat as given; with --max-boots
 * the first run's boots) or OUT/confirm-ROUND (one boot a kernel). */
static int boot(struct bm_ci *ci, int round)
{
	char *argv[64], dir[PATH_MAX], bargs[16][PATH_MAX + 32];
	struct bm_ci_opts *o = &ci->o;
	char rmin[24], rmax[24], rep[24];
	pid_t pid;
	int n = 0, rc;

	if (round ? bm_path(dir, sizeof(dir), "%s/confirm-%d", o->out, round) :
		    bm_path(dir, sizeof(dir), "%s/run", o->out))
		return BM_EXIT_USAGE;
	snprintf(rep, sizeof(rep), "%d", round ? 1 : ci->first_boots);
	argv[n++] = ci->exe;
	argv[n++] = "run";
	if (ci->base_kind != BM_CI_BASE_RESULTS) {
		argv[n++] = "--kernel";
		argv[n++] = ci->base_spec;
	}
	argv[n++] = "--kernel";
	argv[n++] = ci->cand_spec;
	argv[n++] = "--suite";
	argv[n++] = o->suite;
	argv[n++] = "--fs";
	argv[n++] = o->fs;
	argv[n++] = "--out";
	argv[n++] = dir;
	argv[n++] = "--repeat";
	argv[n++] = o->max_boots ? rep : o->repeat;
	if (!o->max_boots && !strcmp(o->repeat, "auto")) {
		snprintf(rmin, sizeof(rmin), "%lld", o->repeat_min);
		snprintf(rmax, sizeof(rmax), "%lld", o->repeat_max);
		argv[n++] = "--repeat-min";
		argv[n++] = rmin;
		argv[n++] = "--repeat-max";
		argv[n++] = rmax;
		argv[n++] = "--cov";
		argv[n++] = o->cov;
	}
	boot_args(o, argv, &n, bargs);
	argv[n] = NULL;
	if (ci->base_kind == BM_CI_BASE_RESULTS)
		printf("ci: bootmark run: %s, against the earlier job's boots\n", ci->cand_spec);
	else
		printf("ci: bootmark run: %s interleaved with the baseline %s\n", ci->cand_spec,
		       ci->base_spec);
	fflush(stdout);
	if ((rc = start_run(argv, &pid))) {
		bm_msg("cannot start %s run: %s", ci->exe, strerror(-rc));
		return BM_EXIT_SYSTEM;
	}
	return wait_run(pid);
}

/*
 * --max-boots: a round of boots (both kernels, one each, interleaved) while
 * the gate on all the boots so far is undecided, up to the budget.  Stops on
 * a decision, a boot that did not complete (the gate reports it) or a stop
 * signal.  0, or an exit code.
 */
static int confirm(struct bm_ci *ci)
{
	struct bm_gate g;
	int fewest, rc;

	if (!ci->o.max_boots)
		return 0;
	printf("ci: the gate decides in up to %d looks, up to %lld boots a kernel: alpha %g at "
	       "each look before the last, %g at the last\n", ci->looks, ci->o.max_boots,
	       look_alpha(ci, 0), look_alpha(ci, 1));
	while (!ci->run_code && !bm_stop_signal()) {
		ci->rules.alpha = look_alpha(ci, ci->first_boots + ci->nconfirm >= ci->o.max_boots);
		if ((rc = bm_ci_look(ci, &g, &fewest)))
			return rc == -EINVAL ? BM_EXIT_USAGE : BM_EXIT_SYSTEM;
		printf("ci: look after %d boots a kernel (alpha %g): %s\n", fewest, ci->rules.alpha,
		       g.why);
		if (g.code != BM_EXIT_UNDECIDED || fewest >= ci->o.max_boots)
			break;
		printf("ci: confirmation round %d: one more boot of each kernel\n", ci->nconfirm + 1);
		fflush(stdout);
		ci->run_code = boot(ci, ci->nconfirm + 1);
		if (ci->run_code == BM_EXIT_USAGE || ci->run_code == 127)
			return ci->run_code == 127 ? BM_EXIT_SYSTEM : BM_EXIT_USAGE;
		ci->nconfirm++;
	}
	return 0;
}

/* The job after its plan: kernels, boots, files.  Returns the exit code. */
static int job(struct bm_ci *ci)
{
	struct bm_gate g;
	int rc;

	rc = bm_mkdir_p(ci->o.out, 0755);
	if (rc) {
		bm_msg("cannot create %s: %s", ci->o.out, strerror(-rc));
		return rc == -EPERM ? BM_EXIT_USAGE : BM_EXIT_SYSTEM;
	}
	rc = bm_ci_candidate(ci);
	if (!rc && ci->base_kind != BM_CI_BASE_RESULTS)
		rc = bm_ci_baseline(ci);
	if (!rc && ci->base_kind == BM_CI_BASE_RESULTS)
		rc = bm_ci_copy_earlier(ci);
	if (rc)
		return rc == BM_KBUILD_FAILED ? BM_EXIT_NOTDONE :
		       rc == -EINVAL ? BM_EXIT_USAGE : BM_EXIT_SYSTEM;
	bm_stop_catch();
	ci->run_code = boot(ci, 0);
	/* the run wrote nothing to compare: bad input, no build, or no boot */
	if (ci->run_code == BM_EXIT_USAGE || ci->run_code == 127)
		return ci->run_code == 127 ? BM_EXIT_SYSTEM : BM_EXIT_USAGE;
	if ((rc = confirm(ci)))
		return rc;
	rc = bm_ci_outputs(ci, &g);
	if (rc)
		return rc == -EINVAL && ci->run_code ? ci->run_code :
		       rc == -EINVAL ? BM_EXIT_USAGE : BM_EXIT_SYSTEM;
	return bm_ci_exit(ci, &g);
}

int bm_cmd_ci(int argc, char **argv)
{
	struct bm_ci *ci = calloc(1, sizeof(*ci));
	int rc;

	if (!ci)
		return BM_EXIT_SYSTEM;
	rc = plan(ci, argc, argv);
	if (rc == 1) {
		ci_usage(stdout);
		rc = BM_EXIT_OK;
	} else if (rc) {
		rc = rc == -EINVAL ? BM_EXIT_USAGE : BM_EXIT_SYSTEM;
	} else {
		rc = job(ci);
	}
	free(ci);
	fflush(stdout);
	bm_stop_reraise();
	return rc;
}
