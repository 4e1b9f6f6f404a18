/* SPDX-License-Identifier: MIT */
/*
 * "bootmark ci" (docs/ci.md): one command for a CI job.  It gets the
 * candidate kernel (a spec, or a tree it builds), the baseline (a spec, a git
 * revision of the tree built the same way and cached by commit, or the
 * results of an earlier job), boots both interleaved (bootmark run --repeat
 * auto), and leaves in OUT the run, compare's text and JSON, the HTML
 * report, JUnit and TAP and ci.json; it exits with the gate's code.
 *
 * host/cli/cmd_ci.c: options, the plan, the run; host/ci/ci_kernel.c: the kernels;
 * host/ci/ci_out.c: the earlier job's boots and every file of OUT.
 */
#ifndef BM_CI_H
#define BM_CI_H

#include <limits.h>

#include "cmpgate.h"
#include "compare.h"
#include "kbuild.h"
#include "kernel.h"
#include "setup.h"

enum bm_ci_base { BM_CI_BASE_SPEC, BM_CI_BASE_REV, BM_CI_BASE_RESULTS };

struct bm_ci_opts {
	char kernel[PATH_MAX], src[PATH_MAX];             /* the candidate: one of them */
	char baseline[PATH_MAX], baseline_rev[128], baseline_results[PATH_MAX];
	char suite[32], fs[256], out[PATH_MAX];
	char repeat[16], cov[16];
	long long repeat_min, repeat_max, jobs;
	long long max_boots;                              /* 0: no confirmation rounds */
	char fail_on[16];
	struct bm_cmp_rule_text rules;
	char base[PATH_MAX], fragment[PATH_MAX], build_out[PATH_MAX];
	struct bm_boot_opts b;
};

struct bm_ci {
	struct bm_ci_opts o;
	enum bm_ci_base base_kind;
	enum bm_gate_mode gate;
	struct bm_cmp_rules rules;
	char exe[PATH_MAX];                 /* this bootmark, for the run */
	char cand_spec[PATH_MAX + 8], base_spec[PATH_MAX + 8];
	char cand_label[BM_REL_MAX + 8], base_label[BM_REL_MAX + 8];
	char base_commit[48];               /* --baseline-rev, resolved */
	char earlier_run[PATH_MAX];         /* --baseline-results: the boots' folder */
	char earlier_label[BM_REL_MAX + 8]; /* ...and their label ("" = all of them) */
	int run_code;                       /* bootmark run's exit code */
	int nbase_boots;                    /* copied from the earlier job */
	/* --max-boots: the first run's boots a kernel, the looks the alpha is
	 * split over, the rounds booted after it (OUT/confirm-1, -2...), and
	 * --alpha as given (rules.alpha is the look's) */
	int first_boots, looks, nconfirm;
	double alpha0;
};

/* host/ci/ci_kernel.c.  The candidate's spec from --src (built) or --kernel;
 * the baseline's from --baseline or --baseline-rev (built, cached by
 * commit).  0, -EINVAL bad input (reported), BM_KBUILD_FAILED, or -errno. */
int bm_ci_resolve_rev(struct bm_ci *ci);
int bm_ci_candidate(struct bm_ci *ci);
int bm_ci_baseline(struct bm_ci *ci);

/* host/ci/ci_out.c.  Finds the earlier job's boots (checks only; 0 or -EINVAL). */
int bm_ci_find_earlier(struct bm_ci *ci);
/* Copies them to OUT/baseline/baseline.bN (logs and meta, no disk or initrd). */
int bm_ci_copy_earlier(struct bm_ci *ci);
/* compare.txt, compare.json, report.html, junit.xml, tap.txt, ci.json; the
 * gate's verdict in *g.  0, -EINVAL (no boot to compare) or -errno. */
int bm_ci_outputs(struct bm_ci *ci, struct bm_gate *g);
/* The gate's verdict on the boots so far, no file written; *fewest gets the
 * boots of the kernel with the fewest.  0, -EINVAL or -errno. */
int bm_ci_look(struct bm_ci *ci, struct bm_gate *g, int *fewest);
/* The exit code of the job from the run's and the gate's. */
int bm_ci_exit(const struct bm_ci *ci, const struct bm_gate *g);

#endif
