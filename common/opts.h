/* SPDX-License-Identifier: MIT */
/*
 * Options as data, in the manner of fio's option table.  One table drives
 * config files ("key = value" lines), the kernel command line
 * ("bootmark.key=value") and --help, so the three can never disagree.
 */
#ifndef BM_OPTS_H
#define BM_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum bm_opt_type {
	BM_OPT_STR,   /* char[len] at off, NUL terminated, len incl. NUL */
	BM_OPT_INT,   /* long long at off, decimal, range [min,max] */
	BM_OPT_SIZE,  /* uint64_t bytes at off: 512, 4k, 32M, 2G (powers of 1024) */
	BM_OPT_BOOL,  /* int at off: 0/1, yes/no, on/off, true/false */
	BM_OPT_LIST,  /* char[len] at off: comma list, each item in choices[] */
};

struct bm_opt {
	const char *name;
	enum bm_opt_type type;
	size_t off;
	size_t len;                   /* STR and LIST: buffer size */
	const char *def;              /* default, as text; NULL = empty/0 */
	long long min, max;           /* INT and SIZE: inclusive range; max 0 = none */
	const char *const *choices;   /* LIST (and optional for STR): NULL-terminated */
	const char *help;
};

#define BM_OPT_END { .name = NULL }

/* All return 0 or -errno; err gets a message naming the option and the problem. */
int bm_opts_defaults(const struct bm_opt *tab, void *obj);
int bm_opt_set(const struct bm_opt *tab, void *obj, const char *name,
	       const char *val, char *err, size_t errlen);
/* "key = value" lines; '#' starts a comment; blank lines ignored.
 * origin (a file name) goes into error messages with the line number. */
int bm_opts_parse_text(const struct bm_opt *tab, void *obj, const char *text,
		       const char *origin, char *err, size_t errlen);
/* Whitespace-separated words; only words "prefix<key>=<value>" are taken. */
int bm_opts_parse_cmdline(const struct bm_opt *tab, void *obj,
			  const char *cmdline, const char *prefix,
			  char *err, size_t errlen);
/* The table of --help (opts_help.c): name, type, default, range, meaning,
 * every line within BM_HELP_COLS columns. */
#define BM_HELP_COLS 100
void bm_opts_help(const struct bm_opt *tab, const char *prefix, FILE *f);
/* Prints text from column col (the cursor is there), wrapped at
 * BM_HELP_COLS; continuation lines start at column indent.  Breaks at
 * spaces, and inside a word longer than a line after ',' or '|'. */
void bm_help_wrap(FILE *f, const char *text, int col, int indent);
/* Its pieces: "string", "int" ...; the allowed values ("1..64", "a|b"). */
const char *bm_opt_type_name(enum bm_opt_type t);
void bm_opt_range(const struct bm_opt *o, char *buf, size_t len);
/* Parses "32M" etc.: 0 or -EINVAL/-ERANGE. */
int bm_parse_size(const char *s, uint64_t *out);
/* The inverse: v with the largest suffix that keeps it exact ("32M", "4k",
 * "1000").  suffixes lists the letters for KiB, MiB, ... in order; callers
 * pass their own ("KMGT", "kMGT", "kMG") because record params and labels
 * already spell sizes differently and must stay byte-identical.
 * Returns what snprintf returns. */
int bm_fmt_size(char *buf, size_t len, uint64_t v, const char *suffixes);
/* "1,8,16": decimal items, each in [lo,hi], into out[max].  Returns the
 * count, or -EINVAL for an empty list or item, a sign, space or other
 * text, a value out of range, or more than max items. */
int bm_parse_uint_list(const char *s, unsigned *out, int max, unsigned lo, unsigned hi);
/* For LIST values ("w,r,rw"): empty items are skipped, as strtok would.
 * bm_list_item gives the index in choices of item idx, or -EINVAL when
 * there is no such item or it is not a choice. */
int bm_list_count(const char *list);
int bm_list_item(const char *list, int idx, const char *const *choices);

#endif
