/* SPDX-License-Identifier: MIT */
/* Subcommands of the host CLI and their shared option parsing. */
#ifndef BM_CLI_H
#define BM_CLI_H

#include <stdio.h>

#include "opts.h"

int bm_cmd_run(int argc, char **argv);
int bm_cmd_parse(int argc, char **argv);
int bm_cmd_export(int argc, char **argv);
int bm_cmd_kernel(int argc, char **argv);
int bm_cmd_bench(int argc, char **argv);
int bm_cmd_compare(int argc, char **argv);
int bm_cmd_report(int argc, char **argv);
int bm_cmd_bisect(int argc, char **argv);
int bm_cmd_bisect_step(int argc, char **argv);
int bm_cmd_lava(int argc, char **argv);
int bm_cmd_capture(int argc, char **argv);
int bm_cmd_pxe(int argc, char **argv);
int bm_cmd_ci(int argc, char **argv);
int bm_cmd_history(int argc, char **argv);

/*
 * One step of "--name=value", "--name value" or "--flag" parsing, from
 * argv[*i].  Options in tab are set through bm_opt_set (BOOL options take
 * no value); names in extra[] (repeatable ones such as --kernel) are
 * returned in *name and *val for the caller.  A word not starting with "--"
 * is returned with *name = NULL.  Returns 0 on success, 1 for --help or
 * -h, -EINVAL after printing a message.
 */
int bm_cli_step(const struct bm_opt *tab, void *obj, const char *const *extra,
		int argc, char **argv, int *i, const char **name, const char **val);
/*
 * "bootmark CMD [options] DIR...": runs bm_cli_step over argv and collects
 * the words that are not options into *dirs (calloc'd; free it).  A word
 * equal to alias[0] (e.g. "-o") is taken as alias[1] ("--out"); alias may
 * be NULL.  Returns -1 to go on, or the exit code the command returns:
 * 0 after --help, 100 for a bad option or no DIR, 111 without memory.
 */
int bm_cli_dirs(const struct bm_opt *tab, void *obj, const char *const *alias,
		const char *cmd, void (*usage)(FILE *), int argc, char **argv,
		char ***dirs, int *nd);
/* Prints "options:" and one line per table entry with --name. */
void bm_cli_help(FILE *f, const struct bm_opt *tab);

/*
 * One form of a command's synopsis: "CMD LEAD [--opt META]... TAIL".  LEAD
 * holds the positional and required parts as the user types them; every
 * option of tab that LEAD and TAIL do not name (as --name) and OMIT (names
 * separated by spaces: options of another form) does not list follows, in
 * table order and in brackets: a switch alone, else with its metavariable
 * (host/cli/cli.c's table) or its choices.  Any member but cmd may be NULL.
 */
struct bm_usage {
	const char *cmd;            /* "bootmark run", "bootmark kernel build" */
	const char *lead;
	const struct bm_opt *tab;
	const char *omit;
	const char *tail;           /* after the options: "DIR..." */
};
/* Prints the forms up to the one with cmd NULL, the first after "usage: ",
 * each wrapped at 80 columns under its first argument. */
void bm_cli_usage(FILE *f, const struct bm_usage *forms);

#endif
