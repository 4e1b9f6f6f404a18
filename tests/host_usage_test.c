/* SPDX-License-Identifier: MIT */
/* Unit tests for bm_cli_usage (host/cli/cli.c): synopses from option tables. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tap.h"

struct o {
	char out[64], fmt[8], alpha[8], name[16];
	long long runs;
	int tap, failed;
};

static const char *const fmts[] = { "text", "json", NULL };

#define S(n, f, d) { .name = n, .type = BM_OPT_STR, .off = offsetof(struct o, f), \
		     .len = sizeof(((struct o *)0)->f), .def = d }
static const struct bm_opt tab[] = {
	S("out", out, NULL),
	{ .name = "format", .type = BM_OPT_STR, .off = offsetof(struct o, fmt), .len = 8,
	  .def = "text", .choices = fmts },
	S("alpha", alpha, "0.01"),
	S("job-name", name, NULL),
	{ .name = "runs", .type = BM_OPT_INT, .off = offsetof(struct o, runs), .def = "3",
	  .min = 1, .max = 9 },
	{ .name = "tap", .type = BM_OPT_BOOL, .off = offsetof(struct o, tap), .def = "0" },
	{ .name = "failed", .type = BM_OPT_BOOL, .off = offsetof(struct o, failed), .def = "0" },
	BM_OPT_END,
};

/* What bm_cli_usage prints for forms, malloc'd. */
static char *usage(const struct bm_usage *forms)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	bm_cli_usage(f, forms);
	fclose(f);
	return buf;
}

static void expect(const struct bm_usage *forms, const char *want, const char *what)
{
	char *got = usage(forms);

	tap_ok(got && !strcmp(got, want), "%s", what);
	if (got && strcmp(got, want))
		tap_diag("got:\n%s# want:\n%s", got, want);
	free(got);
}

int main(void)
{
	tap_plan(0);

	/* metavariables: cli.c's table (out: DIR; export's: FILE), choices, N, the
	 * default as an example value, the name in capitals; a switch alone */
	expect((const struct bm_usage[]){
		{ .cmd = "bootmark x", .lead = "LOG", .tab = tab },
		{ .cmd = NULL } },
	       "usage: bootmark x LOG [--out DIR] [--format text|json] [--alpha 0.01]\n"
	       "                  [--job-name NAME] [--runs N] [--tap] [--failed]\n",
	       "every option in brackets, in table order, wrapped under the first argument");
	expect((const struct bm_usage[]){
		{ .cmd = "bootmark export", .tab = tab, .omit = "alpha job-name runs tap failed",
		  .tail = "DIR..." },
		{ .cmd = NULL } },
	       "usage: bootmark export [--out FILE] [--format text|json] DIR...\n",
	       "a command's own metavariable; omitted options; the tail after the options");

	/* what the lead names is not repeated, and --out does not hide --outer */
	expect((const struct bm_usage[]){
		{ .cmd = "bootmark y", .lead = "--out DIR (--tap | --runs N)", .tab = tab,
		  .omit = "format alpha job-name" },
		{ .cmd = "bootmark y", .lead = "--out DIR --failed" },
		{ .cmd = NULL } },
	       "usage: bootmark y --out DIR (--tap | --runs N) [--failed]\n"
	       "       bootmark y --out DIR --failed\n",
	       "options the lead names are left out; a second form under the first");

	/* an option and its value are one unit, and so are a bar and what follows:
	 * "--c" and "|" would fit on the first line, their units do not */
	expect((const struct bm_usage[]){
		{ .cmd = "bootmark z", .lead = "--aaaaaaaaaaaa AAAAAAAAAAAA --bbbbbbbbbbbb "
		  "BBBBBBBBBBBB --c CCCCCC" },
		{ .cmd = NULL } },
	       "usage: bootmark z --aaaaaaaaaaaa AAAAAAAAAAAA --bbbbbbbbbbbb BBBBBBBBBBBB\n"
	       "                  --c CCCCCC\n",
	       "the lead wraps between units, not inside --opt VALUE");
	expect((const struct bm_usage[]){
		{ .cmd = "bootmark z", .lead = "--aaaaaaaaaaaa AAAAAAAAAAAA --bbbbbbbbbbbb "
		  "BBBBBBBBBB (--x X | --yyyyy Y)" },
		{ .cmd = NULL } },
	       "usage: bootmark z --aaaaaaaaaaaa AAAAAAAAAAAA --bbbbbbbbbbbb BBBBBBBBBB (--x X\n"
	       "                  | --yyyyy Y)\n",
	       "a bar starts the next line with what follows it");

	/* a long command: continuation lines indented by 4, not under it */
	expect((const struct bm_usage[]){
		{ .cmd = "git bisect run bootmark bisect-step", .lead = "--boot", .tab = tab,
		  .omit = "format alpha failed" },
		{ .cmd = NULL } },
	       "usage: git bisect run bootmark bisect-step --boot [--out DIR] [--job-name NAME]\n"
	       "           [--runs N] [--tap]\n",
	       "a long command's continuation lines");
	return tap_done();
}
