/* SPDX-License-Identifier: MIT */
/*
 * "bootmark compare": R records of many boots grouped by (workload, test,
 * fs, metric) and kernel, summarized and tested against the first kernel
 * (the baseline).  host/analysis/compare.c builds the rows, host/report/compare_out.c
 * prints them; the rules are in docs/results.md ("Comparing kernels").
 */
#ifndef BM_COMPARE_H
#define BM_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "boot.h"
#include "bootdirs.h"
#include "cmpstats.h"
#include "opts.h"
#include "results.h"

enum bm_cmp_fmt { BM_CMP_TEXT, BM_CMP_MARKDOWN, BM_CMP_CSV, BM_CMP_JSON, BM_CMP_MMTESTS };

/*
 * When a row is a change (docs/results.md, "Comparing kernels"): its
 * Benjamini-Hochberg q-value over every row tested against the baseline is
 * <= alpha, |change| >= min_change %, and for a metric in s or min the
 * centers differ by >= min_abs_time s.
 */
struct bm_cmp_rules {
	double alpha;           /* false discovery rate (0.01) */
	double min_change;      /* % (5) */
	double min_abs_time;    /* s (0.01) */
	/* history only ("auto", its default): the floor of each series is its
	 * resolution, the smallest step between two of its values (history_chg.c) */
	int min_abs_auto;
};

/* The rules as option text (compare and report share the entries). */
struct bm_cmp_rule_text {
	char alpha[32], min_change[32], min_abs_time[32];
};

#define BM_CMP_RULE_OPT(n, T, m, f, d, h) \
	{ .name = n, .type = BM_OPT_STR, .off = offsetof(T, m.f), \
	  .len = sizeof(((T *)0)->m.f), .def = d, .help = h }
#define BM_CMP_RULE_OPTS(T, m) \
	BM_CMP_RULE_OPTS_ABS(T, m, "10ms", \
			     "and, for metrics in seconds (elapsed and CPU times), a difference of " \
			     "at least this (s, ms or us; a bare number is s)")
/* history's: the floor follows each series' resolution unless a time is given */
#define BM_CMP_HIST_RULE_OPTS(T, m) \
	BM_CMP_RULE_OPTS_ABS(T, m, "auto", \
			     "and, for metrics in seconds, a difference of at least this (s, ms " \
			     "or us), or with auto of the series' resolution: the smallest step " \
			     "between two of its values (a clock's tick, the printed precision)")
#define BM_CMP_RULE_OPTS_ABS(T, m, absdef, abshelp) \
	BM_CMP_RULE_OPT("alpha", T, m, alpha, "0.01", \
			"false discovery rate: a change needs its Benjamini-Hochberg q-value " \
			"(Welch p adjusted over every comparison with the baseline) <= this, " \
			"0 < alpha < 1"), \
	BM_CMP_RULE_OPT("min-change", T, m, min_change, "5", \
			"and a change of the center of at least this many % of the baseline's"), \
	BM_CMP_RULE_OPT("min-abs-time", T, m, min_abs_time, absdef, abshelp)

/* 0, or -EINVAL with a message naming the bad option; "auto" for
 * --min-abs-time only where auto_ok (history). */
int bm_cmp_parse_rules(const struct bm_cmp_rule_text *t, struct bm_cmp_rules *r, int auto_ok);
/* Seconds per unit of a metric that is a test's duration (s 1, min 60),
 * 0 for any other unit: min_abs_time applies to those. */
double bm_cmp_time_scale(const char *unit);
/* 1 when a move of a center from base to center is a change's size under r:
 * |change| >= min_change % of |base| and, for times in s or min, >= min_abs_time
 * (host/analysis/cmpverdict.c; history changes applies it too). */
int bm_cmp_big_change(double base, double center, const char *unit,
		      const struct bm_cmp_rules *r);

struct bm_compare_opts {
	enum bm_cmp_fmt fmt;
	struct bm_cmp_rules rules;
	int color;      /* text only: red regressions, green improvements */
};

/* Which way is better for a metric (rule in docs/results.md). */
enum bm_cmp_dir { BM_DIR_NONE, BM_DIR_HIGHER, BM_DIR_LOWER };

enum bm_cmp_dir bm_cmp_direction(const char *wl, const char *metric, const char *unit);

struct bm_cmp_boot {        /* one boot directory */
	char label[256];        /* directory name */
	char kernel[128];       /* HELLO kernel, else label without ".bN" */
	int kidx;               /* index in bm_cmp.kernels */
	int nth;                /* 1-based among the boots of its kernel */
	struct bm_load_info load; /* the host's load over it (meta.json), known or not */
	struct bm_results r;
};

struct bm_cmp_row {         /* one kernel's sample of one (wl, test, fs, metric) */
	const char *wl, *test, *fs, *metric, *unit;
	int kidx;
	int block;              /* rows of one (wl, test, metric) share a block */
	enum bm_cmp_dir dir;
	int hmean;              /* center is the harmonic mean (a rate) */
	struct bm_summary s;
	double center;
	double base_center;     /* the baseline's center; NAN for it and without one */
	struct bm_summary base_s; /* the baseline row's summary; n 0 for it and without one */
	double change;          /* % vs the baseline's center; NAN for it */
	double p_welch, p_mwu;  /* NAN when not computed */
	double q;               /* BH q-value of p_welch; NAN outside the family */
	int sig;                /* q <= alpha */
	int big;                /* passes min_change and min_abs_time */
	int changed;            /* sig && big: a change (marked *) */
	int verdict;            /* changed: +1 improvement, -1 regression, 0 neither */
	int headline;           /* the metric is its workload's headline (headline.h) */
	int group;              /* rows of one (wl, test, fs, kernel) share it */
};

/*
 * One line of the summary: a test (wl, test, fs) on a kernel other than
 * the baseline, led by its headline row, with its other changed rows.
 */
enum bm_cmp_kind { BM_KIND_REGRESSION, BM_KIND_IMPROVEMENT, BM_KIND_OTHER };

struct bm_cmp_entry {
	enum bm_cmp_kind kind;  /* the headline's verdict; OTHER: only other rows changed */
	const struct bm_cmp_row *head;  /* NULL when the test has no headline row */
	const struct bm_cmp_row **sec;  /* its other changed rows, in row order */
	size_t nsec;
};

struct bm_cmp {
	struct bm_cmp_boot *boots;
	size_t nboots;
	char (*kernels)[128];   /* in order of first appearance; [0] = baseline */
	int *kboots;            /* boots per kernel */
	size_t nkernels;
	struct bm_cmp_row *rows;
	size_t nrows;
	struct bm_cmp_rules rules;
	size_t ntested;         /* the BH family: rows with a Welch p */
	size_t nuntested;       /* rows against the baseline without one (n < 2, no variance) */
	struct bm_cmp_entry *entries;   /* regressions, then improvements, then others */
	size_t nentries;
	const struct bm_cmp_row **secs; /* storage of the entries' sec */
	struct bm_seen seen;    /* boot folders read, by real path */
};

/* Loads the boots of dir (a run directory or one boot); 0, -EINVAL (bad
 * input, reported) or -errno. */
int bm_cmp_add_dir(struct bm_cmp *c, const char *dir);
/* The boots' architectures (their HELLO's machine): 0 when one, or when mix
 * (--mix-arch); else -EINVAL, naming a boot of each two (reported).  A
 * kernel's figures on arm64 and on amd64 are two machines, not a change. */
int bm_cmp_check_arch(const struct bm_cmp *c, int mix);
/* Groups, tests and decides; call once after the last bm_cmp_add_dir.
 * 0 or -ENOMEM. */
int bm_cmp_build(struct bm_cmp *c, const struct bm_cmp_rules *rules);
/* host/analysis/cmpverdict.c, called by bm_cmp_build on the sorted rows: q-values,
 * changes, headline groups and the summary entries.  0 or -ENOMEM. */
int bm_cmp_decide(struct bm_cmp *c);
/* "dd/dd64r/ext4": the group of a row as JSON and CSV name it. */
const char *bm_cmp_group_name(char *buf, size_t len, const struct bm_cmp_row *r);
void bm_cmp_free(struct bm_cmp *c);
/* A boot whose results are left out (it did not run to END: bm_status_ran). */
int bm_cmp_boot_missing(const struct bm_cmp_boot *b);
/* What the tables say of a boot that did not complete. */
const char *bm_cmp_boot_note(const struct bm_cmp_boot *b);

void bm_cmp_print(FILE *f, const struct bm_cmp *c, const struct bm_compare_opts *o);
/* host/report/compare_mmtests.c: the rows as mmtests' compare-kernels lays them out. */
void bm_cmp_print_mmtests(FILE *f, const struct bm_cmp *c);
/* A value as the compare tables show it ("-" for NAN); returns buf. */
const char *bm_cmp_num(char *buf, size_t len, double v);
/* A p- or q-value as the tables show it ("-" for NAN); returns buf. */
const char *bm_cmp_pval(char *buf, size_t len, double p);
/* The rules in one sentence, as the summaries open. */
void bm_cmp_rules_line(char *buf, size_t len, const struct bm_cmp *c);

/* host/report/compare_sum.c: the summary.  "regression", "improvement", "changed"
 * (no better direction) or "unchanged". */
const char *bm_cmp_verdict_word(const struct bm_cmp_row *r);
/* "1.50 vs 1.00 s (+50.00%, p=0.0002, q=0.0005)": a row against the baseline. */
const char *bm_cmp_delta(char *buf, size_t len, const struct bm_cmp_row *r);
/* "dd64r real EXT4 6.12.117+deb12": test, headline metric, fs and kernel. */
void bm_cmp_entry_title(char *buf, size_t len, const struct bm_cmp *c,
			const struct bm_cmp_entry *e);
/* Headings of the three lists, by enum bm_cmp_kind. */
extern const char *const bm_cmp_kind_title[];
/* The three lists of entries, as text or Markdown (md). */
void bm_cmp_print_summary(FILE *f, const struct bm_cmp *c, int md);
struct bm_json;
/* The keys "rules" and "findings" of compare's JSON object. */
void bm_cmp_json_summary(struct bm_json *j, const struct bm_cmp *c);

/*
 * The host's load behind the boots (host/analysis/compare_load.c; docs/reliability.md,
 * "Shared hosts"): 1 when the kernels' boots ran under different load (the
 * share of disturbed boots differs, or others' mean CPU share by more than 10
 * points), with a line per kernel; printed as a section of its own when it
 * differs or any boot was disturbed.  Boots under --icount are immune.
 */
int bm_cmp_load_differs(const struct bm_cmp *c);
void bm_cmp_print_load(FILE *f, const struct bm_cmp *c, int md);
void bm_cmp_json_load(struct bm_json *j, const struct bm_cmp *c);
void bm_cmp_html_load(FILE *f, const struct bm_cmp *c);

/* The whole command on dirs; 0, -EINVAL (bad input, reported), -errno. */
int bm_compare(FILE *f, char *const *dirs, int nd, const struct bm_compare_opts *o);

#endif
