// SPDX-License-Identifier: MIT
/*
 * bootmark history changes --confirm: boot again the kernels the search is
 * not sure about (history_conf.c says which), add the boots, search again,
 * until nothing is unsure or the budget is spent (docs/history.md,
 * "Confirming in real time").
 *
 * Boots of one host, suite, filesystem profile and method make the series
 * of all their metrics at once, so that is what a round boots: one boot of
 * each kernel some series of the group wants, through bootmark run with the
 * group's suite, profile and method, filed under the kernel's name.  A
 * kernel bootmark cannot boot here (no spec: a lab's own build; another
 * host; captured from a console) is printed instead, with what to boot and
 * how to add it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "history.h"
#include "util.h"

#define MAX_ARGV 128

struct group {
	int series;                /* the first series of the group */
	int *boots;                /* per kernel position: distinct boots */
	unsigned char *want;       /* per kernel position */
};

static int same_group(const struct bm_hist_series *a, const struct bm_hist_series *b)
{
	return a->profile == b->profile && !strcmp(a->host, b->host) &&
	       !strcmp(a->suite, b->suite) && !strcmp(a->method, b->method);
}

/* Boots of series s at each kernel position, into n (the larger count). */
static void count_boots(const struct bm_hist_series *s, int *n)
{
	int c = 0;

	for (size_t i = 0; i < s->npt; i++) {
		int first = !i || s->pt[i].kpos != s->pt[i - 1].kpos;

		c = first ? 1 : c + (s->pt[i].boot != s->pt[i - 1].boot);
		if (c > n[s->pt[i].kpos])
			n[s->pt[i].kpos] = c;
	}
}

static void groups_free(struct group *g, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(g[i].boots);
		free(g[i].want);
	}
	free(g);
}

/* The groups of d's series with their boots and wants; -ENOMEM. */
static int groups_of(const struct bm_hist_data *d, const unsigned char *want, struct group **out,
		     size_t *nout)
{
	struct group *g = calloc(d->nseries + 1, sizeof(*g));
	size_t n = 0, i, j;

	if (!g)
		return -ENOMEM;
	for (i = 0; i < d->nseries; i++) {
		const struct bm_hist_series *s = &d->series[i];

		for (j = 0; j < n && !same_group(&d->series[g[j].series], s); j++)
			;
		if (j == n) {
			g[n].series = (int)i;
			g[n].boots = calloc(d->nkernels + 1, sizeof(int));
			g[n].want = calloc(d->nkernels + 1, 1);
			if (!g[n++].boots || !g[j].want) {   /* j: the group just made */
				groups_free(g, n);
				return -ENOMEM;
			}
		}
		count_boots(s, g[j].boots);
		for (size_t k = 0; k < d->nkernels; k++)
			g[j].want[k] |= want[i * d->nkernels + k];
	}
	*out = g;
	*nout = n;
	return 0;
}

const char *const *bm_hist_method_args(const char *method)
{
	static const struct {
		const char *method;
		const char *const args[7];
	} tab[] = {
		{ "qemu-tcg-icount", { "--accel", "tcg", "--icount", "1" } },
		{ "qemu-tcg", { "--accel", "tcg" } },
		{ "qemu-kvm", { "--accel", "kvm" } },
		{ "qemu-tcg-icount-arm64", { "--arch", "arm64", "--accel", "tcg", "--icount", "1" } },
		{ "qemu-tcg-arm64", { "--arch", "arm64", "--accel", "tcg" } },
		{ "qemu-kvm-arm64", { "--arch", "arm64", "--accel", "kvm" } },
	};

	for (size_t i = 0; method && i < sizeof(tab) / sizeof(tab[0]); i++)
		if (!strcmp(method, tab[i].method))
			return tab[i].args;
	return NULL;
}

static int extra_gives(char *const *extra, int nextra, const char *opt)
{
	size_t n = strlen(opt);

	for (int i = 0; i < nextra; i++)
		if (!strncmp(extra[i], opt, n) && (!extra[i][n] || extra[i][n] == '='))
			return 1;
	return 0;
}

void bm_hist_push_method(char **argv, int *n, const char *const *m, char *const *extra,
			 int nextra)
{
	for (int i = 0; m && m[i] && m[i + 1]; i += 2) {
		if (extra_gives(extra, nextra, m[i]))
			continue;
		argv[(*n)++] = (char *)m[i];
		argv[(*n)++] = (char *)m[i + 1];
	}
}

/* Where the rounds are told: stdout, or stderr when stdout is CSV or JSON. */
static FILE *log_of(const struct bm_hist_confirm_opts *o)
{
	return o->fmt == BM_HIST_TEXT ? stdout : stderr;
}

static void print_argv(FILE *f, char *const *argv)
{
	for (int i = 0; argv[i]; i++)
		fprintf(f, "%s%s", i ? " " : "  ", argv[i]);
	fputc('\n', f);
}

/* Boots kernel k of group s once into dir and adds the boot: 0, 1 when it
 * gave no value (it did not complete: its class says why), -EIO when bootmark
 * run or the history failed (reported). */
static int boot_one(struct bm_hist *h, const struct bm_hist_data *d, const struct bm_hist_series *s,
		    const struct bm_hist_kernel *k, const char *dir,
		    const struct bm_hist_confirm_opts *o)
{
	const char *const *m = bm_hist_method_args(s->method);
	char exe[PATH_MAX], *argv[MAX_ARGV];
	struct bm_hist_add_opts ao = { .release = k->name, .host = NULL, .quiet = 1 };
	struct bm_hist_add_stats st = { 0 };
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int n = 0, status, rc;

	if (len < 0)
		snprintf(exe, sizeof(exe), "bootmark");
	else
		exe[len] = '\0';
	argv[n++] = exe;
	argv[n++] = "run";
	argv[n++] = "--kernel";
	argv[n++] = k->spec;
	argv[n++] = "--suite";
	argv[n++] = (char *)s->suite;
	argv[n++] = "--fs";
	argv[n++] = d->profiles[s->profile].fs;
	bm_hist_push_method(argv, &n, m, o->extra, o->nextra);
	argv[n++] = "--out";
	argv[n++] = (char *)dir;
	for (int i = 0; i < o->nextra && n < MAX_ARGV - 1; i++)
		argv[n++] = o->extra[i];
	argv[n] = NULL;
	print_argv(log_of(o), argv);
	fflush(log_of(o));
	if (o->dry_run)
		return 0;
	if ((rc = bm_run_prog(argv, NULL, fileno(log_of(o)), NULL, NULL, &status))) {
		bm_msg("cannot run %s run: %s", exe, strerror(-rc));
		return -EIO;
	}
	rc = !WIFEXITED(status) || WEXITSTATUS(status) >= BM_EXIT_USAGE ? -EIO : 0;
	if (rc)
		bm_msg("%s: bootmark run exited %d; what it left is added, no more boots", dir,
		       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	if (!bm_is_dir(dir)) {
		bm_msg("%s: no boot folder: nothing to add", dir);
		return -EIO;
	}
	if (bm_hist_add_dir(h, dir, &ao, &st))
		return -EIO;
	fprintf(log_of(o), "  %s: %d boot%s added as %s, %lld values\n", dir, st.added,
		st.added == 1 ? "" : "s", k->name, st.values);
	return rc ? rc : st.values ? 0 : 1;
}

/* What to boot where bootmark cannot: a lab box, a captured console. */
static void print_lab(FILE *f, const struct bm_hist_data *d, const struct bm_hist_series *s,
		      const struct bm_hist_kernel *k)
{
	fprintf(f, "  boot %s once more on host %s (%s), suite %s, profile %s; then\n"
	       "    bootmark history add --release '%s' --as-host '%s' DIR\n", k->name, s->host,
	       s->method, s->suite, d->profiles[s->profile].fs, k->name, s->host);
}

/*
 * One round: every group's wanted kernels within its budget, booted here or
 * printed.  *booted gets the boots made.  0 or -errno.
 */
static int round_of(struct bm_hist *h, const struct bm_hist_data *d, struct group *g, size_t ng,
		    int round, const char *local, const struct bm_hist_confirm_opts *o,
		    unsigned char *failed, int *booted)
{
	char dir[PATH_MAX];
	int rc = 0;

	for (size_t i = 0; i < ng && !rc; i++) {
		const struct bm_hist_series *s = &d->series[g[i].series];
		int total = 0, nk = 0, nw = 0;
		char title[512];

		for (size_t k = 0; k < d->nkernels; k++) {
			total += g[i].boots[k];
			nk += g[i].boots[k] > 0;
			g[i].want[k] &= g[i].boots[k] > 0 && !failed[k];
			nw += g[i].want[k];
		}
		if (!nw)
			continue;
		snprintf(title, sizeof(title), "%s, host %s, suite %s, %s", d->profiles[s->profile].fs,
			 s->host, s->suite, s->method);
		if (total + nw > o->max_boots * nk) {
			fprintf(log_of(o), "round %d: %s: %d kernel%s unsure, the budget of %d boots a kernel is "
			       "spent (%d boots of %d kernels)\n", round, title, nw, nw == 1 ? "" : "s",
			       o->max_boots, total, nk);
			continue;
		}
		fprintf(log_of(o), "round %d: %s: boot %d kernel%s again\n", round, title, nw, nw == 1 ? "" : "s");
		for (size_t p = 0; p < d->nkernels && !rc; p++) {
			const struct bm_hist_kernel *k = bm_hist_kernel_at(d, (int)p);

			if (!g[i].want[p])
				continue;
			if (!k->spec[0] || !bm_hist_method_args(s->method) || strcmp(s->host, local)) {
				print_lab(log_of(o), d, s, k);
				continue;
			}
			if ((rc = bm_path(dir, sizeof(dir), "%s/r%d-k%zu-g%zu", o->out, round, p, i)))
				break;
			rc = boot_one(h, d, s, k, dir, o);
			if (rc == 1) {       /* not again in this run of --confirm */
				failed[p] = 1;
				rc = 0;
			}
			*booted += !rc && !o->dry_run;
		}
	}
	return rc;
}

/* Loads, searches and marks what to boot again; the caller frees d and c. */
static int search(struct bm_hist *h, const struct bm_hist_confirm_opts *o, struct bm_hist_data *d,
		  struct bm_hist_changes *c, struct group **g, size_t *ng)
{
	struct bm_cp_confirm cf;
	unsigned char *want;
	int rc;

	bm_cp_confirm_default(&cf, o->rules->alpha);
	if ((rc = bm_hist_load(h, o->filter, d)))
		return rc;
	if (!(want = calloc(d->nseries * d->nkernels + 1, 1))) {
		bm_hist_data_free(d);
		return -ENOMEM;
	}
	rc = bm_hist_changes_want(d, o->rules, &cf, c, want);
	if (!rc && (rc = groups_of(d, want, g, ng)))
		bm_hist_changes_free(c);
	free(want);
	if (rc)
		bm_hist_data_free(d);
	return rc;
}

int bm_hist_confirm(struct bm_hist *h, const struct bm_hist_confirm_opts *o)
{
	struct bm_hist_changes c;
	struct bm_hist_data d;
	struct utsname u;
	struct group *g = NULL;
	unsigned char *failed = NULL;
	size_t ng = 0;
	int rc, round, booted = 0, all = 0;

	if (uname(&u))
		snprintf(u.nodename, sizeof(u.nodename), "?");
	for (round = 1;; round++) {
		if ((rc = search(h, o, &d, &c, &g, &ng)))
			return rc == -EINVAL ? BM_EXIT_USAGE : BM_EXIT_SYSTEM;
		for (size_t i = 0; i < d.nseries; i++)
			if (!d.series[i].host || !d.series[i].suite || !d.series[i].method ||
			    d.series[i].profile < 0) {
				bm_msg("--confirm boots one host, suite, profile and method at a time: "
				       "no --pool");
				rc = -EINVAL;
				goto out_free;
			}
		booted = 0;
		if (round == 1 && !(failed = calloc(d.nkernels + 1, 1))) {
			rc = -ENOMEM;
			goto out_free;
		}
		if (round == 1 && !o->dry_run && (rc = bm_mkdir_p(o->out, 0755))) {
			bm_msg("cannot create %s: %s", o->out, strerror(-rc));
			goto out_free;
		}
		if ((rc = round_of(h, &d, g, ng, round, u.nodename, o, failed, &booted)) || !booted)
			break;
		all += booted;
		groups_free(g, ng);
		bm_hist_changes_free(&c);
		bm_hist_data_free(&d);
	}
	fprintf(log_of(o), "%d boot%s added in %d round%s%s\n\n", all, all == 1 ? "" : "s", round - 1,
	       round == 2 ? "" : "s", o->dry_run ? " (--dry-run: none made)" : "");
	bm_hist_print_changes(stdout, &d, &c, o->fmt);
out_free:
	groups_free(g, ng);
	free(failed);
	if (!rc)
		rc = c.regressions ? BM_EXIT_REGRESSION : BM_EXIT_OK;
	else
		rc = rc == -EINVAL ? BM_EXIT_USAGE : BM_EXIT_SYSTEM;
	bm_hist_changes_free(&c);
	bm_hist_data_free(&d);
	return rc;
}
