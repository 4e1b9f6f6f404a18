/* SPDX-License-Identifier: MIT */
/*
 * "bootmark history": every boot kept in one SQLite file (host/history/history_db.c:
 * the schema and its versions; history_add.c: a boot folder in), read back
 * as series of one metric across kernels in release order (history_load.c,
 * history_ver.c), searched for change points (history_cp.c: one series;
 * history_chg.c: every headline series, Benjamini-Hochberg over all of
 * them) and shown as text, CSV, JSON (history_out.c) or one HTML page
 * (history_html.c); a change bisected (history_bisect.c).  docs/history.md.
 */
#ifndef BM_HISTORY_H
#define BM_HISTORY_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#include "compare.h"

/* A history file: an SQLite database with this application_id ("bmkh")
 * and PRAGMA user_version = its schema version. */
#define BM_HIST_APP_ID 0x626d6b68
#define BM_HIST_SCHEMA 2
/* history changes: a regression was found (docs/exit-codes.md) */
#define BM_EXIT_REGRESSION 24

struct sqlite3;

struct bm_hist {
	struct sqlite3 *db;
	char path[PATH_MAX];
	int version;               /* the schema version after opening */
};

/* $XDG_DATA_HOME/bootmark/history.db, else ~/.local/share/bootmark/history.db. */
int bm_hist_default_path(char *buf, size_t len);

enum { BM_HIST_CREATE = 1 };
/*
 * Opens path (BM_HIST_CREATE: creates it, and its folder, when missing),
 * refusing, before anything is written, a file that is not a bootmark
 * history or whose schema is newer than BM_HIST_SCHEMA; an older schema is
 * migrated forward.  WAL, a busy timeout.  0, -EINVAL refused (reported:
 * exit 100), -ENOENT missing without BM_HIST_CREATE (reported), -EIO
 * (reported: exit 111).
 */
int bm_hist_open(struct bm_hist *h, const char *path, int flags);
void bm_hist_close(struct bm_hist *h);
/* Brings the schema to version to (1..BM_HIST_SCHEMA) in one transaction;
 * for bm_hist_open and the tests.  0 or -EIO (reported). */
int bm_hist_migrate(struct bm_hist *h, int to);
/* Like bm_hist_open with BM_HIST_CREATE, for the path only (init of a new
 * file at schema version `version`, 0 = current): the tests' older files. */
int bm_hist_create_at(struct bm_hist *h, const char *path, int version);
/* One SQL statement without results; 0 or -EIO (reported, naming what). */
int bm_hist_exec(struct bm_hist *h, const char *sql, const char *what);

/* --- adding boots (history_add.c) --------------------------------------- */

struct bm_hist_add_opts {
	const char *release;       /* file the boots under this kernel name ("" = their own) */
	const char *host;          /* the box's name ("" = meta.json's host) */
	int quiet;                 /* no line per boot */
};

struct bm_hist_add_stats {
	int added, known;          /* new boots, boots already in the history */
	long long values;          /* metric values stored */
};

/* Every boot folder of dir (a run folder or one boot).  0, -EINVAL (not a
 * folder, no boot in it: reported), -EIO (the database: reported). */
int bm_hist_add_dir(struct bm_hist *h, const char *dir, const struct bm_hist_add_opts *o,
		    struct bm_hist_add_stats *st);
/* For run, capture and bisect --history DB: 0 when path is, or can be made,
 * a history (bm_hist_open's refusals otherwise, reported). */
int bm_hist_check_path(const char *path);
/* Opens path, adds the boot folder dir, closes; messages on failure. */
int bm_hist_add_path(const char *path, const char *dir);

/* --- kernels in release order (history_ver.c) --------------------------- */

/*
 * Version order of kernel releases and Debian package versions: numbers
 * compare as numbers, "-rc3" (and "~" anything) comes before the release
 * it leads to, "+deb12u1" after what it extends, a ".0" facing a non-number
 * is no part ("6.13.0-rc3" = "6.13-rc3").  <0, 0, >0 as strcmp.
 */
int bm_kver_cmp(const char *a, const char *b);

/* --- the history in memory (history_load.c) ----------------------------- */

struct bm_hist_kernel {
	char *name;                /* the point of a series: release [+ args], or --release */
	char *key;                 /* what it is ordered by: Debian version or the name */
	char *first;               /* the first boot's start (UTC) */
	char *spec;                /* the latest boot's spec ("" unknown) */
	char *pkgver;              /* Debian package version ("" unknown) */
	int pos;                   /* 0.. in the chosen order */
};

struct bm_hist_boot {
	long long id;
	int kidx;                  /* in kernels[] */
	char *label, *run, *host, *suite, *method, *start, *cls, *why;
	int completed;             /* class completed: its values may form series */
};

struct bm_hist_metric {        /* workload, test, metric, unit */
	long long id;
	char *wl, *test, *name, *unit;
	int headline;              /* the workload's headline metric (headline.h) */
};

struct bm_hist_profile {       /* filesystem profile with its mkfs argv and mount options */
	long long id;
	char *fs, *mkfs, *mount;
};

struct bm_hist_pt {            /* one value of a series */
	int kpos;                  /* the kernel's position in the order */
	int boot;                  /* in boots[] */
	double v;
};

struct bm_hist_series {
	int metric, profile;       /* in metrics[], profiles[] */
	const char *host, *suite, *method;   /* NULL: pooled (--pool) */
	struct bm_hist_pt *pt;     /* by kernel position, then boot start */
	size_t npt;
	int nexcl;                 /* boots of its group left out: did not complete */
	char excl[160];            /* "1 protocol-error, 2 panic" */
};

enum bm_hist_order { BM_HIST_BY_RELEASE, BM_HIST_BY_DATE };

/* Which series: empty strings match all. */
struct bm_hist_filter {
	char metric[128];          /* WORKLOAD.TEST.METRIC */
	char fs[32], host[128], suite[32], method[32];
	int pool_host, pool_suite, pool_profile, pool_method;
	int headline_only;         /* changes and report: the headline metrics */
	int no_values;             /* the boots and kernels only */
	enum bm_hist_order order;
};

struct bm_hist_data {
	struct bm_hist_kernel *kernels;
	size_t nkernels;
	int *order;                /* kernel indexes by position */
	struct bm_hist_boot *boots;
	size_t nboots;
	struct bm_hist_metric *metrics;
	size_t nmetrics;
	struct bm_hist_profile *profiles;
	size_t nprofiles;
	struct bm_hist_series *series;
	size_t nseries;
};

/* Loads the series f selects.  0, -EINVAL (bad filter: reported), -EIO. */
int bm_hist_load(struct bm_hist *h, const struct bm_hist_filter *f, struct bm_hist_data *d);
void bm_hist_data_free(struct bm_hist_data *d);
/* "6.1.0-53-amd64" of series s at position pos. */
const struct bm_hist_kernel *bm_hist_kernel_at(const struct bm_hist_data *d, int pos);
/* "dd.dd64r.real" */
const char *bm_hist_metric_name(char *buf, size_t len, const struct bm_hist_metric *m);
/* A filter's --pool LIST ("host,suite,profile,method"); 0 or -EINVAL reported. */
int bm_hist_parse_pool(struct bm_hist_filter *f, const char *list);

/* --- change points of one series (history_cp.c) ------------------------- */

struct bm_cp_series {          /* values kernel after kernel */
	const double *x;
	const size_t *off;         /* kernel k: x[off[k]] .. x[off[k + 1] - 1] */
	size_t nk;
};

/* One segment [a, b) of kernels, split at k; or, where no split passes, the
 * run of kernels [k, k2) against the rest of the segment (a pulse: a change
 * at each end).  A run that passes is followed by its twin, the entry of its
 * far end (k = the run's k2), which is no test of its own: it shares the
 * run's p, q and verdict. */
struct bm_cp_test {
	size_t a, k, b;
	size_t k2;                 /* a run's end; 0: a split at k */
	double p;                  /* p corrected for the choice of k (and k2) */
	double p_raw, t;
	size_t npos;               /* positions (runs) the split was chosen from */
	int parent;                /* the test whose split made the segment; -1 none */
	int twin;                  /* the run this entry is the far end of; -1 none */
	int split;                 /* p <= alpha: the segment was split and searched on */
};

struct bm_cp_result {
	struct bm_cp_test *t;
	size_t nt;
};

/*
 * E-divisive (Matteson & James 2014) splits with Welch's t-test (as Apache
 * Otava/Hunter does), binary segmentation, each split's p corrected for the
 * choice among the segment's positions (Hunter-Worsley upper bound): every
 * segment tested is one entry of r, searched on when its p <= alpha.  A
 * segment no split passes is tested once more for a run of kernels that
 * differs from both sides (circular binary segmentation, Olshen et al.
 * 2004; p corrected by Bonferroni over the runs), a second entry, and on a
 * pass split in three.  Deterministic.  0 or -ENOMEM.
 */
int bm_cp_search(const struct bm_cp_series *s, double alpha, struct bm_cp_result *r);
void bm_cp_result_free(struct bm_cp_result *r);
/* P(max |Z| >= z) over the positions' two-sample statistics (left sizes
 * m[0] < m[1] < ..., of n values), bounded by the up-crossings. */
double bm_cp_pmax(double z, const size_t *m, size_t npos, size_t n);
/* The corrected p of a split of kernels [a, b) at k (the merge's re-test). */
double bm_cp_test_at(const struct bm_cp_series *s, size_t a, size_t k, size_t b);
/* The E-divisive position: the m[] (left size) maximizing Q-hat over x[0..n). */
size_t bm_cp_edivisive(const double *x, size_t n, const size_t *m, size_t npos);

/* --- changes over every series (history_chg.c) -------------------------- */

struct bm_hist_side {
	int from, to;              /* the first and the last kernel position of the side */
	struct bm_summary s;
};

struct bm_hist_change {
	char id[9];                /* 8 hex: metric, profile, group, the two kernels */
	int series;                /* in data->series */
	int before, after;         /* kernel positions: the last before, the first after */
	struct bm_hist_side l, r;
	double change;             /* % of the before mean; NAN when it is 0 */
	int verdict;               /* +1 better, -1 worse, 0 no better direction */
	double p, q;
	/* a stored history bisect verdict, or "" */
	char bisect_end[16], bisect_first[256], bisect_out[PATH_MAX];
};

struct bm_hist_changes {
	struct bm_hist_change *c;
	size_t n;
	size_t nseries;            /* series searched */
	size_t ntested;            /* the BH family: every segment tested */
	int regressions, improvements;
	struct bm_cmp_rules rules;
};

/* Searches every series of d; 0 or -ENOMEM. */
int bm_hist_changes(const struct bm_hist_data *d, const struct bm_cmp_rules *rules,
		    struct bm_hist_changes *out);
/* The same, and with cf, want[series * d->nkernels + kernel position] set
 * for the kernels each series wants booted again (bm_cp_confirm_want). */
struct bm_cp_confirm;
int bm_hist_changes_want(const struct bm_hist_data *d, const struct bm_cmp_rules *rules,
			 const struct bm_cp_confirm *cf, struct bm_hist_changes *out,
			 unsigned char *want);
/* Fills the bisect_* of each change from the history's verdicts; 0 or -EIO. */
int bm_hist_changes_verdicts(struct bm_hist *h, struct bm_hist_changes *c);
void bm_hist_changes_free(struct bm_hist_changes *c);
/*
 * The decision over many series' tests (the one bm_hist_changes makes; the
 * accuracy generator calls it too): Benjamini-Hochberg q over every test of
 * every series; a test is a change when its q <= alpha, every test above it
 * (the splits that made its segment) also has q <= alpha, it still passes
 * alpha when tested again between the changes next to it (Otava's merge:
 * the weakest goes first, and the rest are tested again), and the means of
 * its two sides move by compare's minimum (bm_cmp_big_change, the unit of
 * series i in units[i]; the smallest move goes first).  d[0..n) gets
 * allocated arrays.  0 or -ENOMEM.
 */
struct bm_cp_decision {
	double *q;                 /* per test */
	int *keep;                 /* per test: a change */
};
int bm_cp_decide(const struct bm_cp_series *s, const struct bm_cp_result *r, size_t n,
		 const struct bm_cmp_rules *rules, const char *const *units,
		 struct bm_cp_decision *d);
void bm_cp_decision_free(struct bm_cp_decision *d, size_t n);

/* --- confirmation boots (history_conf.c) -------------------------------- */

struct bm_cp_confirm {
	double near_root;          /* a series' first split that fails with p <= this */
	double near;               /* a later split or run that fails with p <= this */
	double sure;               /* a change with q above this is not yet sure */
	double place;              /* ... nor one whose place could be 2 kernels off: a fit
				    * within place noise variances of its own */
	int explore;               /* the first split is booted around whatever its p while
				    * a kernel next to it has fewer boots than this */
	int width;                 /* kernels booted again on each side of a candidate */
};
/* near_root 0.3, near 0.1, sure alpha / 10, place 12, explore 3, width 2
 * (docs/history.md, "Confirming in real time"). */
void bm_cp_confirm_default(struct bm_cp_confirm *c, double alpha);
/*
 * Marks want[k] (k a kernel of series s; want zeroed by the caller, or
 * shared by several series) for the kernels to boot once more around each
 * candidate change point of s that is not yet sure (struct bm_cp_confirm),
 * and an end kernel of fewer than 4 values that stands off from its segment
 * by compare's minimum (rules, unit).  Returns the number of candidates.
 */
int bm_cp_confirm_want(const struct bm_cp_series *s, const struct bm_cp_result *r,
		       const struct bm_cp_decision *d, const struct bm_cp_confirm *c,
		       const struct bm_cmp_rules *rules, const char *unit, unsigned char *want);

/* --- output (history_out.c, history_html.c) ----------------------------- */

enum bm_hist_fmt { BM_HIST_TEXT, BM_HIST_CSV, BM_HIST_JSON };

void bm_hist_print_series(FILE *f, const struct bm_hist_data *d, enum bm_hist_fmt fmt);
void bm_hist_print_changes(FILE *f, const struct bm_hist_data *d,
			   const struct bm_hist_changes *c, enum bm_hist_fmt fmt);
/* "dd.dd64r.real ext4, host h, suite s, qemu-tcg" */
void bm_hist_series_title(char *buf, size_t len, const struct bm_hist_data *d,
			  const struct bm_hist_series *s);
const char *bm_hist_verdict_word(int verdict);
/* The trend page; 0 or -errno. */
int bm_hist_html(FILE *f, const struct bm_hist_data *d, const struct bm_hist_changes *c,
		 const char *db);

/* --- history bisect (history_bisect.c) ---------------------------------- */

/* 1 when the history stores metric (WORKLOAD.TEST.METRIC) from any boot, 0
 * when not (same_wl then lists the metrics it has of that workload, for the
 * message), -EIO. */
int bm_hist_metric_known(struct bm_hist *h, const char *metric, char *same_wl, size_t len);

/* bootmark run's (and bisect's) options that boot as a series' method did
 * ("qemu-tcg-icount": --accel tcg --icount 1), or NULL: not a QEMU boot of
 * bootmark's. */
const char *const *bm_hist_method_args(const char *method);
/* Appends m's pairs to argv at *n, but not one whose option the user's extra
 * words give as well: bootmark run refuses an option given twice, and the
 * user's word is the one meant. */
void bm_hist_push_method(char **argv, int *n, const char *const *m, char *const *extra,
			 int nextra);

struct bm_hist_bisect_opts {
	const char *change;        /* an id (or a unique prefix) from history changes */
	const char *out;           /* bootmark bisect --out; "" = default */
	const char *git;           /* kernel tree: print the git bisect commands */
	int dry_run;               /* the list and the command only */
	char **extra;              /* options passed on to bootmark bisect */
	int nextra;
};

/* Exit code: bootmark bisect's, 0 with --git/--dry-run, 100 bad input, 111. */
int bm_hist_bisect(struct bm_hist *h, const struct bm_hist_data *d,
		   const struct bm_hist_changes *c, const struct bm_hist_bisect_opts *o);

/* --- history changes --confirm (history_confirm.c) ---------------------- */

struct bm_hist_confirm_opts {
	const struct bm_hist_filter *filter;
	const struct bm_cmp_rules *rules;
	const char *out;           /* the folder of the boots made */
	int max_boots;             /* boots a kernel on average, per host/suite/profile/method */
	int dry_run;               /* print the first round, boot nothing */
	char **extra;              /* options passed on to every bootmark run */
	int nextra;
	enum bm_hist_fmt fmt;      /* the changes printed at the end */
};

/*
 * Rounds of boots around what the search is not sure of, until nothing is
 * or the budget is spent; then the changes.  Exit code: 0 no regression,
 * BM_EXIT_REGRESSION, 100 bad input (pooled series), 111.
 */
int bm_hist_confirm(struct bm_hist *h, const struct bm_hist_confirm_opts *o);

#endif
