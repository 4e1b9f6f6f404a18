// SPDX-License-Identifier: MIT
/* bootmark compare DIR...: kernels side by side, with significance marks. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmpgate.h"
#include "compare.h"
#include "util.h"

struct compare_opts {
	char format[12];
	struct bm_cmp_rule_text rules;
	char color[8];
	char fail_on[16];
	int mix_arch;
};

static const char *const formats[] = { "text", "markdown", "csv", "json", "mmtests", NULL };
static const char *const colors[] = { "auto", "always", "never", NULL };

static const struct bm_opt compare_tab[] = {
	{ .name = "format", .type = BM_OPT_STR, .off = offsetof(struct compare_opts, format),
	  .len = 12, .def = "text", .choices = formats,
	  .help = "text (seed-style blocks), markdown, csv or json (tidy rows), mmtests (the kernels as "
		  "columns, as mmtests' compare-kernels)" },
	BM_CMP_RULE_OPTS(struct compare_opts, rules),
	{ .name = "color", .type = BM_OPT_STR, .off = offsetof(struct compare_opts, color),
	  .len = 8, .def = "auto", .choices = colors,
	  .help = "text: red regressions, green improvements (auto: on a terminal, "
		  "unless NO_COLOR is set)" },
	{ .name = "fail-on", .type = BM_OPT_STR, .off = offsetof(struct compare_opts, fail_on),
	  .len = 16, .def = "none", .choices = bm_gate_modes,
	  .help = "a CI gate: exit 30 when a headline metric is a regression (or any change) "
		  "by the rules above; a boot that did not complete exits with its class" },
	{ .name = "mix-arch", .type = BM_OPT_BOOL, .off = offsetof(struct compare_opts, mix_arch),
	  .def = "0", .help = "compare boots of different architectures (refused without it)" },
	BM_OPT_END,
};

static void compare_usage(FILE *f)
{
	static const struct bm_usage forms[] = {
		{ .cmd = "bootmark compare", .tab = compare_tab, .tail = "DIR..." },
		{ .cmd = NULL },
	};

	bm_cli_usage(f, forms);
	fprintf(f, "\nDIR is a run directory (bootmark run --out) or one boot's directory in it.\n"
		   "Results are grouped by workload, test, filesystem and metric, and by kernel\n"
		   "(several boots of one kernel are repeats); the first kernel seen is the\n"
		   "baseline.  Every row with n >= 2 on both sides is tested against the\n"
		   "baseline (Welch's t-test); a row is a change, marked *, when its\n"
		   "Benjamini-Hochberg q-value over all those tests is <= --alpha, its center\n"
		   "moved by --min-change %% or more and, for times in seconds, by --min-abs-time\n"
		   "or more.  The summary lists each test once, by its headline metric (dd real,\n"
		   "lmdd/tiobench/bonnie rate, aio files_s, aim7 jobs_min, dbench tput, ...), with\n"
		   "its other changed metrics under it.  Boots that did not complete are listed\n"
		   "and left out (docs/results.md).\n"
		   "Exit: 0 ok, 100 bad input (no such directory, no boot in it, bad option),\n"
		   "111 system error.  With --fail-on (the gate's verdict goes to stderr): 30 a\n"
		   "headline regression (or change), the class of the first boot that did not\n"
		   "complete (10..22; 111 infra-error), 100 one kernel only or no headline row\n"
		   "tested, 31 undecided: boots in real time not yet showing a headline metric\n"
		   "smaller than a change (docs/ci.md).\n\n"
		   "options:\n");
	bm_cli_help(f, compare_tab);
}

static int parse_opts(const struct compare_opts *o, struct bm_compare_opts *co,
		      enum bm_gate_mode *gate)
{
	co->fmt = !strcmp(o->format, "markdown") ? BM_CMP_MARKDOWN :
		  !strcmp(o->format, "csv") ? BM_CMP_CSV :
		  !strcmp(o->format, "json") ? BM_CMP_JSON :
		  !strcmp(o->format, "mmtests") ? BM_CMP_MMTESTS : BM_CMP_TEXT;
	if (bm_cmp_parse_rules(&o->rules, &co->rules, 0) || bm_gate_parse(o->fail_on, gate))
		return -EINVAL;
	co->color = !strcmp(o->color, "always") ||
		    (!strcmp(o->color, "auto") && isatty(STDOUT_FILENO) && !getenv("NO_COLOR"));
	return 0;
}

/* compare's output, then the gate's verdict on stderr (stdout stays the format's). */
static int compare(char *const *dirs, int nd, const struct bm_compare_opts *co,
		   enum bm_gate_mode mode, int mix, int *gate_code)
{
	struct bm_cmp c;
	struct bm_gate g;
	int i, rc = 0;

	memset(&c, 0, sizeof(c));
	for (i = 0; i < nd && !rc; i++)
		rc = bm_cmp_add_dir(&c, dirs[i]);
	if (!rc)
		rc = bm_cmp_check_arch(&c, mix);
	if (!rc)
		rc = bm_cmp_build(&c, &co->rules);
	if (!rc) {
		bm_cmp_print(stdout, &c, co);
		bm_gate_decide(&c, mode, &g);
		bm_gate_print(stderr, &c, &g);
		*gate_code = g.code;
	}
	bm_cmp_free(&c);
	return rc;
}

int bm_cmd_compare(int argc, char **argv)
{
	struct compare_opts o;
	struct bm_compare_opts co;
	enum bm_gate_mode mode;
	char **dirs;
	int nd = 0, rc, gate = 0;

	if (bm_opts_defaults(compare_tab, &o))
		return BM_EXIT_SYSTEM;
	rc = bm_cli_dirs(compare_tab, &o, NULL, "compare", compare_usage, argc, argv, &dirs, &nd);
	if (rc >= 0)
		return rc;
	rc = BM_EXIT_USAGE;
	if (parse_opts(&o, &co, &mode))
		goto out_free_dirs;
	rc = compare(dirs, nd, &co, mode, o.mix_arch, &gate);
	if (!rc && fflush(stdout)) {
		bm_msg("cannot write standard output: %s", strerror(errno));
		rc = -EIO;
	}
	rc = rc == -EINVAL ? BM_EXIT_USAGE : rc ? BM_EXIT_SYSTEM : gate;
out_free_dirs:
	free(dirs);
	return rc;
}
