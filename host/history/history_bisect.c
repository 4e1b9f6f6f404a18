// SPDX-License-Identifier: MIT
/*
 * bootmark history bisect CHANGE: the bisection a change asks for, started
 * from what the history knows.  Between two Debian kernels the candidates
 * are the Debian kernel packages of the same flavour that apt knows between
 * them, in release order; bootmark bisect is run on them with the change's
 * metric, profile, suite and threshold, and its verdict is stored with the
 * change (history changes shows it).  With --git DIR, the good and bad
 * commits of a kernel tree and the git bisect run command instead.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "history.h"
#include "json.h"
#include "kernel.h"
#include "profile.h"
#include "util.h"

#define MAX_ARGV 128

static const struct bm_hist_change *find(const struct bm_hist_changes *c, const char *id)
{
	const struct bm_hist_change *hit = NULL;
	size_t i, n = 0, len = strlen(id);

	for (i = 0; i < c->n; i++)
		if (len && !strncmp(c->c[i].id, id, len)) {
			hit = &c->c[i];
			n++;
		}
	if (n == 1)
		return hit;
	bm_msg(n ? "change '%s' is ambiguous: %zu changes start so" :
		   "no change '%s' in the history (bootmark history changes lists them, with the "
		   "same filters)", id, n);
	return NULL;
}

/* "-amd64" of 6.1.0-53-amd64, "-cloud-amd64", "" without one. */
static const char *flavour(const char *rel)
{
	const char *p;

	for (p = rel; (p = strchr(p, '-')); p++)
		if (p[1] >= 'a' && p[1] <= 'z')
			return p;
	return "";
}

/* The release of a spec "deb:REL args" or "REL args", or "" when it is no
 * Debian kernel; args gets the rest. */
static int deb_release(const char *spec, char *rel, size_t len, char *args, size_t alen)
{
	struct bm_kspec k;
	char err[256];

	rel[0] = args[0] = '\0';
	if (!spec[0] || bm_kspec_parse(&k, spec, err, sizeof(err)) || k.kind != BM_KSPEC_DEB)
		return -EINVAL;
	snprintf(rel, len, "%s", k.release);
	snprintf(args, alen, "%s", k.args);
	return 0;
}

static int cmp_pkg(const void *a, const void *b)
{
	return bm_kver_cmp(((const struct bm_debpkg *)a)->release,
			   ((const struct bm_debpkg *)b)->release);
}

/* The candidate list: the good end, the Debian releases between, the bad end. */
static int candidates(const char *good, const char *bad, char **text)
{
	char grel[BM_REL_MAX], brel[BM_REL_MAX], gargs[BM_KARGS_MAX], bargs[BM_KARGS_MAX];
	char garch[BM_ARCH_MAX];
	struct bm_debpkg *pkgs = NULL;
	char *buf = NULL;
	size_t n = 0, i, len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc = 0, between = 0;

	if (!f)
		return -errno;
	fprintf(f, "# bootmark history bisect: first known good, last known bad\n%s\n", good);
	if (!deb_release(good, grel, sizeof(grel), gargs, sizeof(gargs)) &&
	    !deb_release(bad, brel, sizeof(brel), bargs, sizeof(bargs))) {
		/* the good end's architecture: its flavour is the one kept below */
		if (bm_release_arch(grel, garch, sizeof(garch)))
			snprintf(garch, sizeof(garch), "amd64");
		rc = bm_deb_available(garch, &pkgs, &n);
		if (rc)
			bm_msg("cannot list the Debian kernels (bootmark kernel list): %s",
			       strerror(-rc));
		else
			qsort(pkgs, n, sizeof(*pkgs), cmp_pkg);
		/* the releases apt lists, in release order, strictly between the ends */
		for (i = 0; !rc && i < n; i++) {
			const char *r = pkgs[i].release;

			if (!strcmp(flavour(r), flavour(grel)) && bm_kver_cmp(r, grel) > 0 &&
			    bm_kver_cmp(r, brel) < 0) {
				fprintf(f, "deb:%s%s%s\n", r, strcmp(gargs, bargs) || !gargs[0] ? "" : " ",
					strcmp(gargs, bargs) ? "" : gargs);
				between++;
			}
		}
		free(pkgs);
	} else {
		bm_msg("the two kernels are not both Debian kernels: no list between them "
		       "(--git DIR bisects a tree)");
	}
	fprintf(f, "%s\n", bad);
	if (fclose(f) && !rc)
		rc = -errno;
	if (rc) {
		free(buf);
		return rc;
	}
	*text = buf;
	return between;
}

/* Prints argv as a shell would take it back. */
static void print_cmd(FILE *f, char *const *argv)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789-_./=:+,%@";
	int i;

	for (i = 0; argv[i]; i++) {
		const char *a = argv[i];

		if (i)
			fputc(' ', f);
		if (a[0] && strspn(a, safe) == strlen(a)) {
			fputs(a, f);
			continue;
		}
		fputc('\'', f);
		for (; *a; a++)
			if (*a == '\'')
				fputs("'\\''", f);
			else
				fputc(*a, f);
		fputc('\'', f);
	}
	fputc('\n', f);
}

static int self(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

/* A commit of tree for kernel k: a -g<hash> in its name, else the tag of
 * its upstream version (v6.13-rc3, v6.1.158); "" when none resolves. */
static void commit_of(const char *tree, const struct bm_hist_kernel *k, char *sha, size_t len,
		      char *ref, size_t rlen)
{
	char tries[3][64], ver[48], *out = NULL;
	const char *g = strstr(k->name, "-g"), *src = k->pkgver[0] ? k->pkgver : k->name;
	int i, n = 0, status;
	size_t vl;

	sha[0] = ref[0] = '\0';
	if (g && strspn(g + 2, "0123456789abcdef") >= 7)
		snprintf(tries[n++], sizeof(tries[0]), "%.*s",
			 (int)fmin(40, (double)strspn(g + 2, "0123456789abcdef")), g + 2);
	/* the upstream version, and its -rc: 6.13.0-rc3 is tagged v6.13-rc3, 6.1.158 v6.1.158 */
	vl = strspn(src, "0123456789.");
	snprintf(ver, sizeof(ver), "%.*s", (int)vl, src);
	if (vl > 2 && strchr(ver, '.') != strrchr(ver, '.') && !strcmp(ver + strlen(ver) - 2, ".0"))
		ver[strlen(ver) - 2] = '\0';
	if (!strncmp(src + vl, "-rc", 3))
		snprintf(ver + strlen(ver), sizeof(ver) - strlen(ver), "-rc%.*s",
			 (int)strspn(src + vl + 3, "0123456789"), src + vl + 3);
	if (ver[0] && isdigit((unsigned char)ver[0]))
		snprintf(tries[n++], sizeof(tries[0]), "v%s", ver);
	for (i = 0; i < n && !sha[0]; i++) {
		char spec[96];
		char *argv[] = { "git", "-C", (char *)tree, "rev-parse", "--verify", "--quiet", spec, NULL };

		if (bm_path(spec, sizeof(spec), "%s^{commit}", tries[i]))
			continue;
		if (bm_run_prog(argv, NULL, -1, &out, NULL, &status) == 0 && WIFEXITED(status) &&
		    !WEXITSTATUS(status) && out) {
			snprintf(sha, len, "%.*s", (int)strcspn(out, "\n"), out);
			bm_path(ref, rlen, "%s", tries[i]);
		}
		free(out);
		out = NULL;
	}
}

static int git_commands(const struct bm_hist_data *d, const struct bm_hist_change *c,
			const struct bm_hist_bisect_opts *o, const char *metric, const char *fs,
			const char *suite)
{
	const struct bm_hist_kernel *good = bm_hist_kernel_at(d, c->before);
	const struct bm_hist_kernel *bad = bm_hist_kernel_at(d, c->after);
	char gsha[64], bsha[64], gref[128], bref[128], exe[PATH_MAX], gv[40], bv[40];
	char *argv[MAX_ARGV];
	int n = 0, i;

	commit_of(o->git, good, gsha, sizeof(gsha), gref, sizeof(gref));
	commit_of(o->git, bad, bsha, sizeof(bsha), bref, sizeof(bref));
	if (!gsha[0] || !bsha[0]) {
		bm_msg("no commit of %s in %s for kernel %s (tried its -g<hash> and its version's tag)",
		       !gsha[0] ? "the good end" : "the bad end", o->git,
		       !gsha[0] ? good->name : bad->name);
		return BM_EXIT_USAGE;
	}
	if (self(exe, sizeof(exe)))
		snprintf(exe, sizeof(exe), "bootmark");
	bm_fmt_double(gv, sizeof(gv), c->l.s.mean);
	bm_fmt_double(bv, sizeof(bv), c->r.s.mean);
	printf("good: %s = %s (%s)\nbad:  %s = %s (%s)\n", good->name, gsha, gref, bad->name, bsha,
	       bref);
	argv[n++] = "git";
	argv[n++] = "-C";
	argv[n++] = (char *)o->git;
	argv[n++] = "bisect";
	argv[n++] = "start";
	argv[n++] = bsha;
	argv[n++] = gsha;
	argv[n] = NULL;
	print_cmd(stdout, argv);
	n = 4;
	argv[n++] = "run";
	argv[n++] = exe;
	argv[n++] = "bisect-step";
	argv[n++] = "--metric";
	argv[n++] = (char *)metric;
	argv[n++] = "--fs";
	argv[n++] = (char *)fs;
	argv[n++] = "--suite";
	argv[n++] = (char *)suite;
	argv[n++] = "--good-value";
	argv[n++] = gv;
	argv[n++] = "--bad-value";
	argv[n++] = bv;
	for (i = 0; i < o->nextra && n < MAX_ARGV - 1; i++)
		argv[n++] = o->extra[i];
	argv[n] = NULL;
	print_cmd(stdout, argv);
	return BM_EXIT_OK;
}

/* OUT/bisect.json's result: end, first_bad_spec, why, boots. */
static void read_result(const char *out, char *end, size_t elen, char *first, size_t flen,
			char *why, size_t wlen, long long *boots)
{
	char path[PATH_MAX], obj[4096], b[32], *text = NULL;
	size_t len = 0;

	end[0] = first[0] = why[0] = '\0';
	*boots = 0;
	if (bm_path(path, sizeof(path), "%s/bisect.json", out) ||
	    bm_read_file(path, &text, &len, (size_t)1 << 24) ||
	    bm_json_get(text, len, "result", obj, sizeof(obj)) != -EMEDIUMTYPE) {
		free(text);
		return;
	}
	if (bm_json_get(obj, strlen(obj), "end", end, elen))
		end[0] = '\0';
	if (bm_json_get(obj, strlen(obj), "first_bad_spec", first, flen))
		first[0] = '\0';
	if (bm_json_get(obj, strlen(obj), "why", why, wlen))
		why[0] = '\0';
	if (!bm_json_get(obj, strlen(obj), "boots", b, sizeof(b)))
		*boots = atoll(b);
	free(text);
}

static int store(struct bm_hist *h, const struct bm_hist_data *d, const struct bm_hist_change *c,
		 const char *out)
{
	char title[512], end[32], first[512], why[512], now[32];
	long long boots;
	sqlite3_stmt *st;
	int rc;

	read_result(out, end, sizeof(end), first, sizeof(first), why, sizeof(why), &boots);
	if (!end[0]) {
		bm_msg("%s/bisect.json holds no result: nothing stored", out);
		return -EIO;
	}
	bm_hist_series_title(title, sizeof(title), d, &d->series[c->series]);
	bm_utc_now(now, sizeof(now));
	if (sqlite3_prepare_v2(h->db, "INSERT OR REPLACE INTO bisections (change, series, before, "
			       "after, result, first_bad, why, out, boots, date) VALUES (?1, ?2, ?3, ?4, "
			       "?5, ?6, ?7, ?8, ?9, ?10)", -1, &st, NULL) != SQLITE_OK) {
		bm_msg("%s: cannot store the verdict: %s", h->path, sqlite3_errmsg(h->db));
		return -EIO;
	}
	sqlite3_bind_text(st, 1, c->id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, title, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, bm_hist_kernel_at(d, c->before)->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, bm_hist_kernel_at(d, c->after)->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, end, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, first, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, why, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, out, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 9, boots);
	sqlite3_bind_text(st, 10, now, -1, SQLITE_STATIC);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO;
	if (rc)
		bm_msg("%s: cannot store the verdict: %s", h->path, sqlite3_errmsg(h->db));
	sqlite3_finalize(st);
	if (!rc)
		printf("stored with change %s: %s%s%s\n", c->id, end, first[0] ? ", first bad " : "",
		       first);
	return rc;
}

/* The series' suite where bootmark bisect will look for it: the tree's
 * configs, or a --configs DIR passed on after --.  A suite of another
 * folder is named here rather than by a bisect that fails (100) after the
 * list is written. */
static int suite_reachable(const char *suite, const struct bm_hist_bisect_opts *o)
{
	char exe[PATH_MAX], path[PATH_MAX];
	int i;

	for (i = 0; i < o->nextra; i++)
		if (!strcmp(o->extra[i], "--configs") || !strncmp(o->extra[i], "--configs=", 10))
			return 1;
	if (bm_exe_dir(exe, sizeof(exe)) ||
	    bm_path(path, sizeof(path), "%s/../configs/suites/%s", exe, suite) || bm_is_file(path))
		return 1;
	bm_msg("the series' suite %s is not in %s/../configs/suites: give the folder it came "
	       "from after --, as history bisect CHANGE -- --configs DIR%s", suite, exe,
	       o->dry_run ? " (the command below needs it)" : "");
	return 0;
}

/* bootmark bisect on the list; its exit code, or 111. */
static int run_bisect(struct bm_hist *h, const struct bm_hist_data *d,
		      const struct bm_hist_change *c, const struct bm_hist_bisect_opts *o,
		      const char *metric, const char *fs, const char *suite, double min_change,
		      const char *const *m)
{
	char out[PATH_MAX], list[PATH_MAX + 16], exe[PATH_MAX], thr[40], *text = NULL;
	char *argv[MAX_ARGV];
	int n = 0, i, rc, status;

	snprintf(out, sizeof(out), "%s", o->out[0] ? o->out : "");
	if (!out[0])
		snprintf(out, sizeof(out), "bisect-%s", c->id);
	rc = candidates(bm_hist_kernel_at(d, c->before)->spec, bm_hist_kernel_at(d, c->after)->spec,
			&text);
	if (rc < 0)
		return BM_EXIT_SYSTEM;
	printf("change %s: %d Debian kernel%s between %s and %s\n", c->id, rc, rc == 1 ? "" : "s",
	       bm_hist_kernel_at(d, c->before)->name, bm_hist_kernel_at(d, c->after)->name);
	if ((rc = bm_mkdir_p(out, 0755)) || (rc = bm_path(list, sizeof(list), "%s/candidates", out)) ||
	    (rc = bm_write_file_atomic(list, text, strlen(text)))) {
		bm_msg("cannot write %s/candidates: %s", out, strerror(-rc));
		free(text);
		return BM_EXIT_SYSTEM;
	}
	fputs(text, stdout);
	free(text);
	if (self(exe, sizeof(exe)))
		return BM_EXIT_SYSTEM;
	snprintf(thr, sizeof(thr), "%g%%", min_change);
	argv[n++] = exe;
	argv[n++] = "bisect";
	argv[n++] = "--candidates";
	argv[n++] = list;
	argv[n++] = "--metric";
	argv[n++] = (char *)metric;
	argv[n++] = "--fs";
	argv[n++] = (char *)fs;
	argv[n++] = "--suite";
	argv[n++] = (char *)suite;
	argv[n++] = "--threshold";
	argv[n++] = thr;
	argv[n++] = "--out";
	argv[n++] = out;
	/* booted as the series was: the printed command is the one that runs */
	bm_hist_push_method(argv, &n, m, o->extra, o->nextra);
	for (i = 0; i < o->nextra && n < MAX_ARGV - 1; i++)
		argv[n++] = o->extra[i];
	argv[n] = NULL;
	print_cmd(stdout, argv);
	fflush(stdout);
	if (o->dry_run)
		return BM_EXIT_OK;
	rc = bm_run_prog(argv, NULL, -1, NULL, NULL, &status);
	if (rc) {
		bm_msg("cannot run %s bisect: %s", exe, strerror(-rc));
		return BM_EXIT_SYSTEM;
	}
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if ((rc == BM_EXIT_OK || rc == BM_EXIT_NOTDONE) && store(h, d, c, out))
		return BM_EXIT_SYSTEM;
	return rc;
}

int bm_hist_bisect(struct bm_hist *h, const struct bm_hist_data *d,
		   const struct bm_hist_changes *c, const struct bm_hist_bisect_opts *o)
{
	const struct bm_hist_change *x = find(c, o->change);
	const struct bm_hist_series *s;
	char metric[256];

	if (!x)
		return BM_EXIT_USAGE;
	s = &d->series[x->series];
	if (s->profile < 0 || !s->suite) {
		bm_msg("change %s is of a pooled series: bisect one profile and suite (no --pool)", x->id);
		return BM_EXIT_USAGE;
	}
	bm_hist_metric_name(metric, sizeof(metric), &d->metrics[s->metric]);
	if (o->git && o->git[0])
		return git_commands(d, x, o, metric, d->profiles[s->profile].fs, s->suite);
	if (!bm_hist_kernel_at(d, x->before)->spec[0] || !bm_hist_kernel_at(d, x->after)->spec[0]) {
		bm_msg("the kernels of change %s were not booted by bootmark (no spec): give --git DIR",
		       x->id);
		return BM_EXIT_USAGE;
	}
	if (!suite_reachable(s->suite, o) && !o->dry_run)
		return BM_EXIT_USAGE;
	return run_bisect(h, d, x, o, metric, d->profiles[s->profile].fs, s->suite,
			  c->rules.min_change, s->method ? bm_hist_method_args(s->method) : NULL);
}
