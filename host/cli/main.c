// SPDX-License-Identifier: MIT
/* bootmark: the host CLI.  Dispatches to one command per file (cmd_*.c). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "util.h"
#include "version.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "run", bm_cmd_run, "boot kernels in QEMU, run a suite, print the table" },
	{ "kernel", bm_cmd_kernel, "fetch, list, update or build kernels (kernel fetch SPEC | build SRC)" },
	{ "parse", bm_cmd_parse, "status and table from a serial log captured anywhere" },
	{ "export", bm_cmd_export, "tidy JSON, CSV or KCIDB rows from run directories" },
	{ "compare", bm_cmd_compare, "kernels side by side: statistics and significance marks" },
	{ "report", bm_cmd_report, "compare's tables and plots as one HTML file (-o FILE)" },
	{ "ci", bm_cmd_ci, "a CI job: build, boot against a baseline, compare, gate (exit 30)" },
	{ "bisect", bm_cmd_bisect, "the first bad kernel of an ordered list (metric or boot)" },
	{ "bisect-step", bm_cmd_bisect_step, "one step of git bisect run: exit 0 good, 1 bad, 125 skip" },
	{ "pxe", bm_cmd_pxe, "a TFTP tree (pxelinux, iPXE) booting kernels on lab boxes, with queues" },
	{ "capture", bm_cmd_capture, "a box's console (UART, TCP, log file) -> results folders" },
	{ "lava", bm_cmd_lava, "a LAVA job: one test case per metric, on a lab's boxes" },
	{ "history", bm_cmd_history, "every boot kept: series over kernels, change points, trend page" },
	{ "bench-boot", bm_cmd_bench, "time to HELLO against a trivial init (make bench)" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: bootmark COMMAND [ARGS]   (bootmark COMMAND --help for more)\n"
		   "       bootmark --version\n\n");
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\nExit codes: 0 ok; run, parse and capture: the class of the first boot that\n"
		   "did not complete (10..22, e.g. 13 panic, 19 protocol-error, 22 interrupted);\n"
		   "compare --fail-on and ci: 30 the gate tripped (a headline regression);\n"
		   "100 bad input; 111 system or infrastructure error; a run stopped by SIGINT,\n"
		   "SIGTERM or SIGHUP ends by that signal once its results are written\n"
		   "(docs/exit-codes.md).\n");
}

int main(int argc, char **argv)
{
	size_t i;

	/* Line-buffered stdout: progress and the table interleave sanely
	 * with stderr messages when both go to one log. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2) {
		usage(stderr);
		return BM_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return BM_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf(BM_VERSION_LINE("bootmark"), BM_PROTO_VERSION);
		return BM_EXIT_OK;
	}
	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	bm_msg("unknown command '%s'", argv[1]);
	usage(stderr);
	return BM_EXIT_USAGE;
}
