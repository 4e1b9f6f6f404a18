// SPDX-License-Identifier: MIT
/*
 * bootmark run: boot each kernel in turn, run the suite, print the table.
 * Everything that can be checked without touching the disk (options,
 * suite, profiles, tools, kernel specs) is checked before OUT is created.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu_boot.h"
#include "cli.h"
#include "initrd.h"
#include "history.h"
#include "hostlock.h"
#include "junit.h"
#include "outclaim.h"
#include "outdir.h"
#include "profile.h"
#include "qemu.h"
#include "progress.h"
#include "repeat.h"
#include "setup.h"
#include "table.h"
#include "util.h"

#define MAX_KERNELS 16

struct run_opts {
	char suite[32];
	char fs[256];
	char out[PATH_MAX];
	char junit[PATH_MAX];
	char history[PATH_MAX];
	char repeat_s[16], cov[16];
	long long repeat, repeat_min, repeat_max;
	int tap, overwrite, exclusive;
	struct bm_boot_opts b;
};

#define STR(n, f, d, h) { .name = n, .type = BM_OPT_STR, .off = offsetof(struct run_opts, f), \
			  .len = sizeof(((struct run_opts *)0)->f), .def = d, .help = h }
#define INT(n, f, d, lo, hi, h) { .name = n, .type = BM_OPT_INT, \
			  .off = offsetof(struct run_opts, f), .def = d, .min = lo, .max = hi, .help = h }

static const struct bm_opt run_tab[] = {
	STR("suite", suite, NULL, "suite name: <configs>/suites/NAME (required)"),
	STR("fs", fs, NULL, "filesystem profiles, comma list: <configs>/fs/NAME (required)"),
	STR("out", out, NULL, "output directory, one subdirectory per boot (required)"),
	STR("repeat", repeat_s, "1", "boots per kernel (1-1000, interleaved across kernels) or auto"),
	INT("repeat-min", repeat_min, "3", 1, 1000, "--repeat auto: completed boots per kernel at least"),
	INT("repeat-max", repeat_max, "10", 1, 1000, "--repeat auto: boots per kernel at most"),
	STR("cov", cov, "3.0", "--repeat auto: stable when every headline CoV is below this, %"),
	BM_BOOT_OPTS(struct run_opts, b),
	STR("junit", junit, NULL, "also write the verdicts as JUnit XML to FILE"),
	STR("history", history, NULL, "add each boot to this history as it finishes (bootmark history)"),
	{ .name = "tap", .type = BM_OPT_BOOL, .off = offsetof(struct run_opts, tap),
	  .def = "0", .help = "print the verdicts as TAP 13 after the table" },
	{ .name = "overwrite", .type = BM_OPT_BOOL, .off = offsetof(struct run_opts, overwrite),
	  .def = "0", .help = "let the boots replace results already in --out (default: refuse)" },
	{ .name = "exclusive", .type = BM_OPT_BOOL, .off = offsetof(struct run_opts, exclusive),
	  .def = "0", .help = "wait until no other run measures on this host, and keep the host "
	  "(a host-wide lock; not needed with --icount)" },
	BM_OPT_END,
};

static void run_usage(FILE *f)
{
	static const struct bm_usage forms[] = {
		{ .cmd = "bootmark run",
		  .lead = "--kernel SPEC [--kernel SPEC ...] --suite NAME --fs FS[,FS...] "
		  "--out DIR", .tab = run_tab },
		{ .cmd = NULL },
	};

	bm_cli_usage(f, forms);
	fprintf(f, "\n--kernel SPEC, given once per kernel (at most %d; the first is the baseline\n"
		   "of compare), is RELEASE, deb:RELEASE or local:BZIMAGE[:MODULES_ROOT], with\n"
		   "the kernel's own command-line words after it (\"deb:6.1.0-53-amd64 quiet\";\n"
		   "docs/cli.md, \"Kernel specs\")\n\n", MAX_KERNELS);
	fprintf(f, "Exit: 0 all boots completed, else the class of the first boot that did not\n"
		   "(10..22, see docs/exit-codes.md), 100 bad input, 111 system error; stopped by\n"
		   "SIGINT, SIGTERM or SIGHUP: results written, then ended by that signal.\n\n"
		   "options (--name VALUE or --name=VALUE):\n");
	bm_cli_help(f, run_tab);
}

struct plan {
	struct run_opts o;
	struct bm_kspec spec[MAX_KERNELS];
	char label[MAX_KERNELS][BM_REL_MAX + 8];
	int nk;
	int autorep;                  /* --repeat auto; o.repeat is then --repeat-max */
	double cov;
	int *round;                   /* round of each boot in boots[] */
	int lock_mode, lock_fd;       /* the host's measuring lock (hostlock.h) */
	int out_fd;                   /* our claim on --out (outclaim.h) */
	struct bm_setup s;
	struct bm_progress prog;
};

static int add_kernel(struct plan *p, const char *spec)
{
	char err[512];

	if (p->nk == MAX_KERNELS) {
		bm_msg("at most %d --kernel options", MAX_KERNELS);
		return -EINVAL;
	}
	if (bm_kspec_parse(&p->spec[p->nk], spec, err, sizeof(err))) {
		bm_msg("%s", err);
		return -EINVAL;
	}
	p->nk++;
	return 0;
}

static int parse_args(struct plan *p, int argc, char **argv)
{
	static const char *const extra[] = { "kernel", NULL };
	const char *name, *val;
	int i, rc;

	if (bm_opts_defaults(run_tab, &p->o))
		return -EINVAL;
	for (i = 1; i < argc; i++) {
		rc = bm_cli_step(run_tab, &p->o, extra, argc, argv, &i, &name, &val);
		if (rc)
			return rc;
		if (!name) {
			bm_msg("unexpected argument '%s' (see bootmark run --help)", val);
			return -EINVAL;
		}
		if (!strcmp(name, "kernel") && add_kernel(p, val))
			return -EINVAL;
	}
	return 0;
}

static int need(const char *what, const char *v)
{
	if (v[0])
		return 0;
	bm_msg("missing --%s (see bootmark run --help)", what);
	return -EINVAL;
}

/*
 * Refuses to mix new boots into directories holding older results, and to
 * write where another user could have redirected a file (outdir.h): every
 * name a boot writes is checked before anything is created.
 */
static int check_out(struct plan *p)
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	int i, r, over = p->o.overwrite;

	if (bm_out_plan_dir(p->o.out) || bm_setup_check_disk(&p->s, p->o.out) ||
	    (p->o.junit[0] && bm_out_plan_file(p->o.junit, -1)) ||
	    (bm_path(path, sizeof(path), "%s/repeat.json", p->o.out) ||
	     bm_out_plan_file(path, over)))
		return -EINVAL;
	for (r = 1; r <= p->o.repeat; r++) {
		for (i = 0; i < p->nk; i++) {
			if (p->o.repeat > 1)
				bm_path(dir, sizeof(dir), "%s/%s.b%d", p->o.out, p->label[i], r);
			else
				bm_path(dir, sizeof(dir), "%s/%s", p->o.out, p->label[i]);
			if (bm_out_plan_entries(dir, bm_boot_files, over))
				return -EINVAL;
			bm_path(path, sizeof(path), "%s/results.log", dir);
			if (bm_is_file(path) && !over) {
				bm_msg("%s already holds results (%s); choose another --out, "
				       "or --overwrite", p->o.out, path);
				return -EEXIST;
			}
		}
	}
	return 0;
}

/* Every kernel fetched and its modules checked: a profile naming a module
 * the kernel lacks is bad input, found before OUT exists. */
static int check_kernels(struct plan *p)
{
	struct bm_kernel k;
	int i, rc;

	for (i = 0; i < p->nk; i++) {
		rc = bm_setup_kernel(&p->s, &p->spec[i], &k);
		if (rc)
			return rc == -EINVAL ? rc : -ENOENT;
	}
	return 0;
}

/* --repeat N or auto with its --repeat-min, --repeat-max and --cov. */
static int check_repeat(struct plan *p)
{
	char *end;

	if (!strcmp(p->o.repeat_s, "auto")) {
		p->autorep = 1;
		errno = 0;
		p->cov = strtod(p->o.cov, &end);
		if (errno || end == p->o.cov || *end || !(p->cov > 0 && p->cov <= 1000)) {
			bm_msg("bad --cov '%s': want a percentage above 0", p->o.cov);
			return -EINVAL;
		}
		if (p->o.repeat_min > p->o.repeat_max) {
			bm_msg("--repeat-min %lld is above --repeat-max %lld",
			       p->o.repeat_min, p->o.repeat_max);
			return -EINVAL;
		}
		p->o.repeat = p->o.repeat_max;
		return 0;
	}
	errno = 0;
	p->o.repeat = strtoll(p->o.repeat_s, &end, 10);
	if (errno || end == p->o.repeat_s || *end || p->o.repeat < 1 || p->o.repeat > 1000) {
		bm_msg("bad --repeat '%s': want 1-1000 or auto", p->o.repeat_s);
		return -EINVAL;
	}
	return 0;
}

static int plan_run(struct plan *p, int argc, char **argv)
{
	int rc;

	rc = parse_args(p, argc, argv);
	if (rc)
		return rc;
	if (!p->nk) {
		bm_msg("missing --kernel (see bootmark run --help)");
		return -EINVAL;
	}
	if (need("suite", p->o.suite) || need("fs", p->o.fs) || need("out", p->o.out))
		return -EINVAL;
	if (check_repeat(p))
		return -EINVAL;
	rc = bm_setup_load(&p->s, &p->o.b, p->o.suite, p->o.fs);
	if (rc)
		return rc;
	if (bm_setup_labels(p->spec, p->nk, p->label[0], sizeof(p->label[0])) || check_out(p))
		return -EINVAL;
	rc = check_kernels(p);
	if (!rc && p->o.history[0] && (rc = bm_hist_check_path(p->o.history)))
		rc = rc == -EINVAL ? rc : -ENOENT;
	return rc;
}

static void boot_one(struct plan *p, const struct bm_run_cfg *c, struct bm_boot *b,
		     int i, int r, int n, int *infra)
{
	struct bm_qemu_req req = {
		.r = { .backend = "qemu", .out = b->dir }, .c = c, .spec = &p->spec[i], .b = b,
	};

	if (p->o.repeat > 1)
		/* the release is cut, never the round: ".b" and ten digits always fit */
		snprintf(b->label, sizeof(b->label), "%.*s.b%d", (int)sizeof(b->label) - 13,
			 p->label[i], r);
	else
		snprintf(b->label, sizeof(b->label), "%s", p->label[i]);
	bm_path(b->dir, sizeof(b->dir), "%s/%s", p->o.out, b->label);
	b->spec = p->spec[i].text;
	/* with --repeat auto the total is the cap: an upper bound */
	bm_progress_init(&p->prog, &p->s.tests, b->label, n + 1, (int)(p->nk * p->o.repeat), stdout);
	if (bm_backend_boot(&req.r))
		(*infra)++;
	bm_msg("%s: %s%s%s", b->label, bm_status_name(b->res.status),
	       b->res.status_why[0] ? ": " : "", b->res.status_why);
	if (p->o.history[0] && bm_is_dir(b->dir) && bm_hist_add_path(p->o.history, b->dir))
		(*infra)++;
}

/*
 * Rounds of one boot per kernel.  A fixed --repeat boots every kernel in
 * every round; auto boots, after each round, only the kernels rep says
 * are not yet stable (host/analysis/autorep.c).
 */
static int boot_all(struct plan *p, struct bm_boot *boots, struct bm_rep *rep, int *infra)
{
	struct bm_run_cfg c;
	int need[MAX_KERNELS], booted[MAX_KERNELS];
	int r, i, n = 0, more = 1;

	bm_setup_run_cfg(&p->s, &p->o.b, p->o.out, p->o.suite, p->o.fs, &c);
	c.progress = &p->prog;
	c.overwrite = p->o.overwrite;
	c.exclusive = p->lock_mode == BM_LOCK_EXCLUSIVE;
	for (i = 0; i < p->nk; i++)
		need[i] = 1;
	for (r = 1; r <= p->o.repeat && more && !bm_stop_signal(); r++) {
		for (i = 0; i < p->nk; i++) {
			booted[i] = need[i];
			if (!need[i] || bm_stop_signal())
				continue;
			p->round[n] = r;
			boot_one(p, &c, &boots[n], i, r, n, infra);
			if (rep && bm_rep_add_boot(rep, i, &boots[n].res))
				(*infra)++;
			n++;
		}
		if (rep && !bm_stop_signal())
			more = bm_rep_round(rep, r, booted, need, stdout);
	}
	return n;
}

/*
 * The boots a signal kept from running, as verdicts of their own (class
 * interrupted): a CI report must show that the plan was cut, not a shorter
 * plan.  With --repeat auto the rest is not known: one entry per kernel.
 */
static int not_run(struct plan *p, int n, struct bm_results **out)
{
	int planned = p->autorep ? n + p->nk : (int)(p->nk * p->o.repeat), i, k = 0;
	struct bm_results *v;

	*out = NULL;
	if (!bm_stop_signal() || planned <= n)
		return 0;
	v = calloc((size_t)(planned - n), sizeof(*v));
	if (!v)
		return 0;
	for (i = n; i < planned; i++, k++) {
		bm_results_empty(&v[k], "");
		v[k].status = BM_ST_INTERRUPTED;
		snprintf(v[k].status_why, sizeof(v[k].status_why),
			 "not booted: the run was stopped by %s", bm_stop_name(bm_stop_signal()));
	}
	*out = v;
	return k;
}

/* The label of the i-th planned boot (boot order: rounds of kernels). */
static void planned_label(struct plan *p, int i, char *buf, size_t len)
{
	int k = i % p->nk, r = i / p->nk + 1;

	if (p->o.repeat > 1 && !p->autorep)
		snprintf(buf, len, "%s.b%d", p->label[k], r);
	else
		snprintf(buf, len, "%s%s", p->label[k], p->autorep ? " (further boots)" : "");
}

static void print_table(struct plan *p, struct bm_boot *boots, int n)
{
	struct bm_table_boot *tb = calloc((size_t)n, sizeof(*tb));
	char (*names)[BM_REL_MAX + 16] = calloc((size_t)n, sizeof(*names));
	int i, any = 0;

	for (i = 0; i < n; i++)
		any |= boots[i].res.nres > 0;
	if (!tb || !names || !any)
		goto out_free;
	for (i = 0; i < n; i++) {
		char shortrel[BM_REL_MAX];

		char label[sizeof(boots[i].label)], *dot;

		/* the label, not the release: "6.1.0-53-amd64_2" is the same
		 * release booted with other arguments */
		snprintf(label, sizeof(label), "%s", boots[i].label);
		dot = strrchr(label, '.');
		if (p->o.repeat > 1 && dot && dot[1] == 'b')
			*dot = '\0';
		bm_kernel_short(label, shortrel, sizeof(shortrel));
		if (p->o.repeat > 1)
			snprintf(names[i], sizeof(names[i]), "%s b%d", shortrel, p->round[i]);
		else
			snprintf(names[i], sizeof(names[i]), "%s", shortrel);
		tb[i].kernel = names[i];
		tb[i].r = &boots[i].res;
	}
	printf("\n");
	bm_table_print(stdout, tb, (size_t)n);
out_free:
	free(tb);
	free(names);
}

/* JUnit to --junit FILE, TAP on stdout; a write failure is a system error.
 * skipped[0..nskip) are the boots a signal kept from running. */
static int write_ci(struct plan *p, struct bm_boot *boots, int n,
		    const struct bm_results *skipped, int nskip)
{
	struct bm_ci_boot *cb = calloc((size_t)(n + nskip) + 1, sizeof(*cb));
	char (*labels)[BM_REL_MAX + 40] = calloc((size_t)nskip + 1, sizeof(*labels));
	int i, rc = 0;
	FILE *f;

	if (!cb || !labels) {
		free(cb);
		free(labels);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		cb[i].kernel = boots[i].label;
		cb[i].r = &boots[i].res;
		if (boots[i].res.status != BM_ST_COMPLETED)
			cb[i].console = bm_console_tail(boots[i].dir);
	}
	for (i = 0; i < nskip; i++) {
		planned_label(p, n + i, labels[i], sizeof(labels[i]));
		cb[n + i].kernel = labels[i];
		cb[n + i].r = &skipped[i];
	}
	n += nskip;
	if (p->o.junit[0]) {
		char *buf = NULL;
		size_t len = 0;

		/* whole, then renamed into place: never through a planted name */
		f = open_memstream(&buf, &len);
		if (!f || bm_junit_write(f, cb, (size_t)n))
			rc = -EIO;
		if (f && fclose(f) && !rc)
			rc = -errno;
		if (!rc)
			rc = bm_write_file_atomic(p->o.junit, buf, len);
		free(buf);
		if (rc)
			bm_msg("cannot write %s: %s", p->o.junit, strerror(-rc));
	}
	if (p->o.tap) {
		printf("\n");
		bm_tap_write(stdout, cb, (size_t)n);
	}
	for (i = 0; i < n; i++)
		free((char *)cb[i].console);
	free(cb);
	free(labels);
	return rc;
}

static int start_rep(struct plan *p, struct bm_rep *rep)
{
	const char *labels[MAX_KERNELS];
	struct bm_ar_limits lim = {
		.min = (int)p->o.repeat_min, .max = (int)p->o.repeat_max, .cov_pct = p->cov,
	};
	int i;

	for (i = 0; i < p->nk; i++)
		labels[i] = p->label[i];
	return bm_rep_init(rep, labels, p->nk, &lim);
}

/* OUT/repeat.json; a write failure is a system error. */
static int finish_rep(struct plan *p, struct bm_rep *rep)
{
	char path[PATH_MAX];
	int rc;

	bm_path(path, sizeof(path), "%s/repeat.json", p->o.out);
	rc = bm_rep_write_json(rep, path);
	if (rc)
		bm_msg("cannot write %s: %s", path, strerror(-rc));
	bm_rep_free(rep);
	return rc;
}

/*
 * --out is ours alone for the whole run (outclaim.h): made if need be, then
 * claimed, then checked again, since the first check ran before the claim
 * and another run may have filled it since.  A run refused here has written
 * nothing (the folder and its lock file are the other run's too).
 */
static int take_out(struct plan *p)
{
	int rc = bm_out_take(p->o.out, &p->out_fd);

	return rc ? rc : check_out(p) ? -EINVAL : 0;
}

/* The host's measuring lock: --exclusive waits for it, --icount needs none. */
static int take_host(struct plan *p)
{
	int rc;

	p->lock_mode = p->o.b.icount >= 0 ? BM_LOCK_NONE :
		       p->o.exclusive ? BM_LOCK_EXCLUSIVE : BM_LOCK_SHARED;
	if (p->o.exclusive && p->lock_mode == BM_LOCK_NONE)
		bm_msg("--exclusive: --icount's virtual time does not see the host's load; no lock");
	/* a run without its lock would go unseen by an --exclusive one: none runs */
	rc = bm_host_lock(p->lock_mode, &p->lock_fd);
	if (rc && rc != -EINTR && rc != -EINVAL)
		bm_msg("cannot take the host's measuring lock: %s", strerror(-rc));
	return rc;
}

int bm_cmd_run(int argc, char **argv)
{
	struct plan *p = calloc(1, sizeof(*p));
	struct bm_boot *boots = NULL;
	struct bm_results *skipped = NULL;
	struct bm_rep rep;
	int rc, n, i, nskip, infra = 0, failed = 0, first = BM_EXIT_OK;

	if (!p)
		return BM_EXIT_SYSTEM;
	p->lock_fd = p->out_fd = -1;
	rc = plan_run(p, argc, argv);
	if (rc == 1) {
		run_usage(stdout);
		rc = BM_EXIT_OK;
		goto out_free_plan;
	}
	if (rc) {
		rc = rc == -ENOENT ? BM_EXIT_SYSTEM : BM_EXIT_USAGE;
		goto out_free_plan;
	}
	/* From here on a signal ends the run with its records written. */
	bm_stop_catch();
	rc = take_host(p);
	if (rc) {
		rc = rc == -EINTR ? 128 + bm_stop_signal() : rc == -EINVAL ? BM_EXIT_USAGE :
		     BM_EXIT_SYSTEM;
		goto out_free_plan;
	}
	rc = take_out(p);
	if (rc) {
		rc = rc == -EINVAL ? BM_EXIT_USAGE : BM_EXIT_SYSTEM;
		goto out_free_plan;
	}
	boots = calloc((size_t)(p->nk * p->o.repeat), sizeof(*boots));
	p->round = calloc((size_t)(p->nk * p->o.repeat), sizeof(*p->round));
	if (!boots || !p->round || (p->autorep && start_rep(p, &rep))) {
		rc = BM_EXIT_SYSTEM;
		goto out_free_boots;
	}
	n = boot_all(p, boots, p->autorep ? &rep : NULL, &infra);
	if (p->autorep && finish_rep(p, &rep))
		infra++;
	print_table(p, boots, n);
	nskip = not_run(p, n, &skipped);
	if (write_ci(p, boots, n, skipped, nskip))
		infra++;
	for (i = 0; i < n; i++) {
		failed += boots[i].res.status != BM_ST_COMPLETED;
		if (!first)   /* the class of the first boot that did not complete */
			first = bm_status_exit(boots[i].res.status);
		infra += boots[i].res.status == BM_ST_INFRA_ERROR;
		bm_results_free(&boots[i].res);
		bm_argv_free(&boots[i].argv);
	}
	printf("\n%d of %d boot(s) completed; results in %s\n", n - failed, n, p->o.out);
	rc = infra ? BM_EXIT_SYSTEM : first;
	if (bm_stop_signal()) {
		printf("interrupted by %s%s", bm_stop_name(bm_stop_signal()), nskip ? "" : "\n");
		if (nskip)
			printf(": %d planned boot(s) not run\n", nskip);
		rc = 128 + bm_stop_signal();
	}
	free(skipped);
out_free_boots:
	free(boots);
	free(p->round);
out_free_plan:
	bm_out_release(p->out_fd);
	bm_host_unlock(p->lock_fd);
	free(p);
	fflush(stdout);
	/* everything is written: end by the signal, as the caller expects */
	bm_stop_reraise();
	return rc;
}
