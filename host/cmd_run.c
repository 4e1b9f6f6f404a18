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

#include "boot.h"
#include "cli.h"
#include "initrd.h"
#include "junit.h"
#include "profile.h"
#include "progress.h"
#include "repeat.h"
#include "table.h"
#include "util.h"

#define MAX_KERNELS 16

struct run_opts {
	char suite[32];
	char fs[256];
	char out[PATH_MAX];
	char accel[8];
	char configs[PATH_MAX];
	char image[PATH_MAX];
	char disk_cache[16];
	char machine[8];
	char junit[PATH_MAX];
	char repeat_s[16], cov[16];
	long long mem, smp, silence, timeout, repeat, repeat_min, repeat_max;
	int keep_disk, tap;
};

static const char *const accel_choices[] = { "auto", "kvm", "tcg", NULL };
static const char *const cache_choices[] = { "auto", "none", "writeback", "unsafe",
					     "directsync", "writethrough", NULL };
static const char *const machine_choices[] = { "q35", "pc", NULL };

#define STR(n, f, d, h) { .name = n, .type = BM_OPT_STR, .off = offsetof(struct run_opts, f), \
			  .len = sizeof(((struct run_opts *)0)->f), .def = d, .help = h }
#define INT(n, f, d, lo, hi, h) { .name = n, .type = BM_OPT_INT, \
			  .off = offsetof(struct run_opts, f), .def = d, .min = lo, .max = hi, .help = h }

static const struct bm_opt run_tab[] = {
	STR("suite", suite, NULL, "suite name: <configs>/suites/NAME (required)"),
	STR("fs", fs, NULL, "filesystem profiles, comma list: <configs>/fs/NAME (required)"),
	STR("out", out, NULL, "output directory, one subdirectory per boot (required)"),
	{ .name = "accel", .type = BM_OPT_STR, .off = offsetof(struct run_opts, accel),
	  .len = sizeof(((struct run_opts *)0)->accel), .def = "auto", .choices = accel_choices,
	  .help = "auto probes KVM with a test boot, falls back to TCG" },
	INT("mem", mem, "1024", 256, 1048576, "guest memory, MiB"),
	INT("smp", smp, "2", 1, 256, "guest CPUs"),
	INT("silence-timeout", silence, "120", 5, 86400, "stop a boot after this many s without progress"),
	INT("timeout", timeout, "1800", 10, 604800, "hard limit per boot, s"),
	STR("repeat", repeat_s, "1", "boots per kernel (1-1000, interleaved across kernels) or auto"),
	INT("repeat-min", repeat_min, "3", 1, 1000, "--repeat auto: completed boots per kernel at least"),
	INT("repeat-max", repeat_max, "10", 1, 1000, "--repeat auto: boots per kernel at most"),
	STR("cov", cov, "3.0", "--repeat auto: stable when every headline CoV is below this, %"),
	STR("configs", configs, NULL, "configs directory (default: <bootmark dir>/../configs)"),
	STR("image", image, NULL, "base image (default: <bootmark dir>/base.cpio.xz)"),
	{ .name = "disk-cache", .type = BM_OPT_STR, .off = offsetof(struct run_opts, disk_cache),
	  .len = sizeof(((struct run_opts *)0)->disk_cache), .def = "auto",
	  .choices = cache_choices,
	  .help = "QEMU cache= of the test disk; auto: none if O_DIRECT works, else writeback" },
	{ .name = "machine", .type = BM_OPT_STR, .off = offsetof(struct run_opts, machine),
	  .len = sizeof(((struct run_opts *)0)->machine), .def = "q35",
	  .choices = machine_choices, .help = "QEMU machine type" },
	{ .name = "keep-disk", .type = BM_OPT_BOOL, .off = offsetof(struct run_opts, keep_disk),
	  .def = "0", .help = "keep OUT/<label>/disk.img after the boot" },
	STR("junit", junit, NULL, "also write the verdicts as JUnit XML to FILE"),
	{ .name = "tap", .type = BM_OPT_BOOL, .off = offsetof(struct run_opts, tap),
	  .def = "0", .help = "print the verdicts as TAP 13 after the table" },
	BM_OPT_END,
};

static void run_usage(FILE *f)
{
	fprintf(f, "usage: bootmark run --kernel SPEC [--kernel SPEC ...] --suite NAME --fs FS[,FS...]\n"
		   "                    --out DIR [options]\n\n"
		   "SPEC: RELEASE, deb:RELEASE or local:BZIMAGE[:MODULES_ROOT]\n"
		   "Exit: 0 all boots completed, 1 some boot did not, 100 bad input, 111 system error.\n\n"
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
	char exe[PATH_MAX], image[PATH_MAX], configs[PATH_MAX], modules[1024];
	struct bm_suite suite;
	struct bm_plan tests;         /* what one boot runs: the progress estimate */
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

/* Suite and every profile must load; the modules they need are collected. */
static int check_configs(struct plan *p)
{
	char dir[PATH_MAX], err[512], fs[256], *tok, *save = NULL;
	struct bm_fsprof prof;
	unsigned nfs = 0;

	if (!bm_safe_name(p->o.suite)) {
		bm_msg("bad suite name '%s'", p->o.suite);
		return -EINVAL;
	}
	bm_path(dir, sizeof(dir), "%s/suites", p->configs);
	if (bm_suite_load(&p->suite, dir, p->o.suite, err, sizeof(err))) {
		bm_msg("unknown or bad suite '%s': %s", p->o.suite, err);
		return -EINVAL;
	}
	if (bm_conf_modules(p->configs, p->modules, sizeof(p->modules))) {
		bm_msg("cannot read %s/bootmark.conf", p->configs);
		return -EINVAL;
	}
	bm_path(dir, sizeof(dir), "%s/fs", p->configs);
	snprintf(fs, sizeof(fs), "%s", p->o.fs);
	for (tok = strtok_r(fs, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		nfs++;
		if (!bm_safe_name(tok) || bm_fsprof_load(&prof, dir, tok, err, sizeof(err))) {
			bm_msg("unknown or bad filesystem profile '%s'%s%s", tok,
			       bm_safe_name(tok) ? ": " : "", bm_safe_name(tok) ? err : "");
			return -EINVAL;
		}
		if (bm_list_merge(p->modules, sizeof(p->modules), prof.modules)) {
			bm_msg("module list too long");
			return -EINVAL;
		}
	}
	/* a suite the runner will reject still boots: the E record says why */
	if (bm_plan_make(&p->tests, &p->suite, nfs))
		memset(&p->tests, 0, sizeof(p->tests));
	return 0;
}

/* Labels are releases, made unique; local specs are resolved for it. */
static int make_labels(struct plan *p)
{
	struct bm_kernel k;
	int i, j, dup;

	for (i = 0; i < p->nk; i++) {
		if (p->spec[i].kind == BM_KSPEC_LOCAL && bm_local_resolve(&p->spec[i], &k))
			return -EINVAL;
		/* an unknown Debian release is bad input: say so before OUT exists */
		if (p->spec[i].kind == BM_KSPEC_DEB && bm_deb_cached(p->spec[i].release, &k) &&
		    bm_deb_known(p->spec[i].release) == -ENOENT) {
			bm_msg("Debian has no package linux-image-%s (see bootmark kernel list)",
			       p->spec[i].release);
			return -EINVAL;
		}
		for (dup = 1, j = 0; j < i; j++)
			dup += !strcmp(p->spec[j].release, p->spec[i].release);
		if (dup > 1)
			snprintf(p->label[i], sizeof(p->label[i]), "%s-%d", p->spec[i].release, dup);
		else
			snprintf(p->label[i], sizeof(p->label[i]), "%s", p->spec[i].release);
	}
	return 0;
}

static int set_paths(struct plan *p)
{
	if (bm_exe_dir(p->exe, sizeof(p->exe)))
		return -ENOENT;
	if (p->o.image[0])
		snprintf(p->image, sizeof(p->image), "%s", p->o.image);
	else
		bm_path(p->image, sizeof(p->image), "%s/base.cpio.xz", p->exe);
	if (p->o.configs[0])
		snprintf(p->configs, sizeof(p->configs), "%s", p->o.configs);
	else
		bm_path(p->configs, sizeof(p->configs), "%s/../configs", p->exe);
	if (bm_is_dir(p->configs)) {
		char real[PATH_MAX];

		if (realpath(p->configs, real))
			snprintf(p->configs, sizeof(p->configs), "%s", real);
	} else {
		bm_msg("configs directory %s does not exist", p->configs);
		return -EINVAL;
	}
	return 0;
}

static int check_tools(struct plan *p)
{
	char tool[PATH_MAX];

	bm_path(tool, sizeof(tool), "%s/bm-mkinitramfs", p->exe);
	if (!bm_is_file(tool) || !bm_is_file(p->image)) {
		bm_msg("cannot find %s (run make first)", bm_is_file(tool) ? p->image : tool);
		return -ENOENT;
	}
	return 0;
}

/* Refuses to mix new boots into directories holding older results. */
static int check_out(struct plan *p)
{
	char path[PATH_MAX];
	int i, r;

	for (r = 1; r <= p->o.repeat; r++) {
		for (i = 0; i < p->nk; i++) {
			if (p->o.repeat > 1)
				bm_path(path, sizeof(path), "%s/%s.b%d/results.log", p->o.out, p->label[i], r);
			else
				bm_path(path, sizeof(path), "%s/%s/results.log", p->o.out, p->label[i]);
			if (bm_is_file(path)) {
				bm_msg("%s already holds results (%s); choose another --out", p->o.out, path);
				return -EEXIST;
			}
		}
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
	rc = set_paths(p);
	if (rc)
		return rc;
	if (check_configs(p) || make_labels(p) || check_out(p))
		return -EINVAL;
	return check_tools(p);
}

static void boot_one(struct plan *p, const struct bm_run_cfg *c, struct bm_boot *b,
		     int i, int r, int n, int *infra)
{
	if (p->o.repeat > 1)
		snprintf(b->label, sizeof(b->label), "%s.b%d", p->label[i], r);
	else
		snprintf(b->label, sizeof(b->label), "%s", p->label[i]);
	bm_path(b->dir, sizeof(b->dir), "%s/%s", p->o.out, b->label);
	b->spec = p->spec[i].text;
	/* with --repeat auto the total is the cap: an upper bound */
	bm_progress_init(&p->prog, &p->tests, b->label, n + 1, (int)(p->nk * p->o.repeat), stdout);
	if (bm_boot_one(c, &p->spec[i], b))
		(*infra)++;
	bm_msg("%s: %s%s%s", b->label, bm_status_name(b->res.status),
	       b->res.status_why[0] ? ": " : "", b->res.status_why);
}

/*
 * Rounds of one boot per kernel.  A fixed --repeat boots every kernel in
 * every round; auto boots, after each round, only the kernels rep says
 * are not yet stable (host/autorep.c).
 */
static int boot_all(struct plan *p, struct bm_boot *boots, struct bm_rep *rep, int *infra)
{
	struct bm_run_cfg c = {
		.out = p->o.out, .suite = p->o.suite, .fs = p->o.fs, .tools = p->exe,
		.image = p->image, .accel = p->o.accel, .disk_cache = p->o.disk_cache,
		.machine = p->o.machine, .modules = p->modules,
		.disk_size = p->suite.disk_size, .mem = (int)p->o.mem, .smp = (int)p->o.smp,
		.silence = (int)p->o.silence, .timeout = (int)p->o.timeout,
		.keep_disk = p->o.keep_disk, .progress = &p->prog,
	};
	int need[MAX_KERNELS], booted[MAX_KERNELS];
	int r, i, n = 0, more = 1;

	for (i = 0; i < p->nk; i++)
		need[i] = 1;
	for (r = 1; r <= p->o.repeat && more; r++) {
		for (i = 0; i < p->nk; i++) {
			booted[i] = need[i];
			if (!need[i])
				continue;
			p->round[n] = r;
			boot_one(p, &c, &boots[n], i, r, n, infra);
			if (rep && bm_rep_add_boot(rep, i, &boots[n].res))
				(*infra)++;
			n++;
		}
		if (rep)
			more = bm_rep_round(rep, r, booted, need, stdout);
	}
	return n;
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

		bm_kernel_short(boots[i].k.release[0] ? boots[i].k.release : boots[i].label,
				shortrel, sizeof(shortrel));
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

/* JUnit to --junit FILE, TAP on stdout; a write failure is a system error. */
static int write_ci(struct plan *p, struct bm_boot *boots, int n)
{
	struct bm_ci_boot *cb = calloc((size_t)n + 1, sizeof(*cb));
	int i, rc = 0;
	FILE *f;

	if (!cb)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		cb[i].kernel = boots[i].label;
		cb[i].r = &boots[i].res;
		if (boots[i].res.status != BM_ST_COMPLETED)
			cb[i].console = bm_console_tail(boots[i].dir);
	}
	if (p->o.junit[0]) {
		f = fopen(p->o.junit, "w");
		if (!f || bm_junit_write(f, cb, (size_t)n))
			rc = errno ? -errno : -EIO;
		if (f && fclose(f) && !rc)
			rc = -errno;
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

int bm_cmd_run(int argc, char **argv)
{
	struct plan *p = calloc(1, sizeof(*p));
	struct bm_boot *boots = NULL;
	struct bm_rep rep;
	int rc, n, i, infra = 0, failed = 0;

	if (!p)
		return BM_EXIT_SYSTEM;
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
	rc = bm_mkdir_p(p->o.out, 0755);
	if (rc) {
		bm_msg("cannot create %s: %s", p->o.out, strerror(-rc));
		rc = BM_EXIT_SYSTEM;
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
	if (write_ci(p, boots, n))
		infra++;
	for (i = 0; i < n; i++) {
		failed += boots[i].res.status != BM_ST_COMPLETED;
		bm_results_free(&boots[i].res);
		bm_argv_free(&boots[i].argv);
	}
	printf("\n%d of %d boot(s) completed; results in %s\n", n - failed, n, p->o.out);
	rc = infra ? BM_EXIT_SYSTEM : failed ? BM_EXIT_NOTDONE : BM_EXIT_OK;
out_free_boots:
	free(boots);
	free(p->round);
out_free_plan:
	free(p);
	return rc;
}
