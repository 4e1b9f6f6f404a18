// SPDX-License-Identifier: MIT
/*
 * The files of a "bootmark ci" job (ci.h).  compare, report, the gate, JUnit
 * and TAP are made from one comparison built here, in-process, so the files
 * of one job can never disagree.  An earlier job's boots are copied into
 * OUT/baseline/ under the label "baseline": the same release built from two
 * commits has one label, and compare would pool the two as repeats of one
 * kernel; the copy also keeps the job's folder whole as an artifact.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootdirs.h"
#include "ci.h"
#include "html_report.h"
#include "json.h"
#include "junit.h"
#include "kcidb.h"
#include "kernel.h"
#include "schema.h"
#include "util.h"

/* "L" or "L.b<N>": a boot of the kernel labelled L. */
static int of_label(const char *dir, const char *label)
{
	const char *b = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
	size_t n = strlen(label);

	if (!label[0])
		return 1;
	if (strncmp(b, label, n))
		return 0;
	return !b[n] || (b[n] == '.' && b[n + 1] == 'b' && b[n + 2] &&
			 strspn(b + n + 2, "0123456789") == strlen(b + n + 2));
}

struct dirlist {
	char (*v)[PATH_MAX];
	size_t n;
	const char *label;
};

static int collect(const char *dir, void *arg)
{
	struct dirlist *l = arg;
	void *p;

	if (!of_label(dir, l->label))
		return 0;
	if (!(p = realloc(l->v, (l->n + 1) * sizeof(*l->v))))
		return -ENOMEM;
	l->v = p;
	snprintf(l->v[l->n++], PATH_MAX, "%s", dir);
	return 0;
}

static int list_boots(const char *dir, const char *label, struct dirlist *l)
{
	int rc;

	l->label = label;
	rc = bm_is_dir(dir) ? bm_boot_dirs(dir, collect, l) : 0;
	return rc < 0 ? rc : 0;
}

int bm_ci_find_earlier(struct bm_ci *ci)
{
	const char *dir = ci->o.baseline_results;
	char json[PATH_MAX], *text = NULL;
	struct dirlist l = { 0 };
	struct bm_cmp c;
	size_t len = 0;
	int rc = -EINVAL;
	FILE *f;

	if (bm_path(json, sizeof(json), "%s/ci.json", dir))
		return -EINVAL;
	if ((f = fopen(json, "re"))) {   /* an earlier bootmark ci: its candidate */
		text = calloc(1, 1 << 20);
		len = text ? fread(text, 1, (1 << 20) - 1, f) : 0;
		fclose(f);
		if (!text || bm_json_get(text, len, "candidate_label", ci->earlier_label,
					 sizeof(ci->earlier_label))) {
			bm_msg("%s has no candidate_label: not a bootmark ci folder", json);
			goto out_free;
		}
		bm_path(ci->earlier_run, sizeof(ci->earlier_run), "%s/run", dir);
	} else {                         /* a run folder of one kernel */
		snprintf(ci->earlier_run, sizeof(ci->earlier_run), "%s", dir);
		memset(&c, 0, sizeof(c));
		if (!bm_cmp_add_dir(&c, dir) && c.nkernels != 1)
			bm_msg("--baseline-results %s holds boots of %zu kernels (%s, %s...): give the "
			       "OUT of an earlier bootmark ci, or a run folder of one kernel", dir,
			       c.nkernels, c.kernels[0], c.kernels[1]);
		rc = c.nkernels == 1 ? 0 : -EINVAL;
		bm_cmp_free(&c);
		if (rc)
			goto out_free;
	}
	rc = list_boots(ci->earlier_run, ci->earlier_label, &l);
	if (!rc && !l.n) {
		bm_msg("--baseline-results %s: no boot of %s in %s", dir,
		       ci->earlier_label[0] ? ci->earlier_label : "any kernel", ci->earlier_run);
		rc = -EINVAL;
	}
	ci->nbase_boots = (int)l.n;
out_free:
	free(l.v);
	free(text);
	return rc;
}

/* Every regular file of boot folder src but the disk and the initrd. */
static int copy_boot(const char *src, const char *dst)
{
	DIR *d = opendir(src);
	struct dirent *e;
	int rc = 0;

	if (!d)
		return -errno;
	if ((rc = bm_mkdir_p(dst, 0755)))
		goto out_close;
	while (!rc && (e = readdir(d))) {
		char from[PATH_MAX], to[PATH_MAX], *buf;
		struct stat st;
		int fd;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, "disk.img") ||
		    !strcmp(e->d_name, "initrd.img") || fstatat(dirfd(d), e->d_name, &st,
								AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
			continue;
		if (bm_path(from, sizeof(from), "%s/%s", src, e->d_name) ||
		    bm_path(to, sizeof(to), "%s/%s", dst, e->d_name))
			return -ENAMETOOLONG;
		if ((fd = openat(dirfd(d), e->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
			rc = -errno;
			break;
		}
		buf = malloc((size_t)st.st_size + 1);
		if (!buf)
			rc = -ENOMEM;
		else if (read(fd, buf, (size_t)st.st_size) != st.st_size)
			rc = -EIO;
		else
			rc = bm_write_file_atomic(to, buf, (size_t)st.st_size);
		free(buf);
		close(fd);
	}
out_close:
	closedir(d);
	return rc;
}

int bm_ci_copy_earlier(struct bm_ci *ci)
{
	char top[PATH_MAX], dst[PATH_MAX];
	struct dirlist l = { 0 };
	size_t i;
	int rc;

	if (bm_path(top, sizeof(top), "%s/baseline", ci->o.out))
		return -EINVAL;
	bm_rm_rf(top);   /* the copy of an interrupted job */
	rc = list_boots(ci->earlier_run, ci->earlier_label, &l);
	for (i = 0; !rc && i < l.n; i++) {
		bm_path(dst, sizeof(dst), "%s/baseline.b%zu", top, i + 1);
		rc = copy_boot(l.v[i], dst);
		if (rc)
			bm_msg("cannot copy %s to %s: %s", l.v[i], dst, strerror(-rc));
	}
	if (!rc)
		printf("ci: baseline: %zu boot(s) of %s from %s, copied to %s\n", l.n,
		       ci->earlier_label[0] ? ci->earlier_label : "its kernel", ci->earlier_run, top);
	free(l.v);
	return rc;
}

/* The labels bootmark run gives the kernels (bm_setup_labels): baseline first. */
static int labels(struct bm_ci *ci)
{
	char lab[2][sizeof(ci->cand_label)], err[512];
	struct bm_kspec k[2];
	int n = 0;

	if (ci->base_kind != BM_CI_BASE_RESULTS &&
	    bm_kspec_parse(&k[n++], ci->base_spec, err, sizeof(err)))
		return -EINVAL;
	if (bm_kspec_parse(&k[n], ci->cand_spec, err, sizeof(err)) ||
	    bm_setup_labels(k, n + 1, lab[0], sizeof(lab[0])))
		return -EINVAL;
	snprintf(ci->cand_label, sizeof(ci->cand_label), "%s", lab[n]);
	snprintf(ci->base_label, sizeof(ci->base_label), "%s", n ? lab[0] : "baseline");
	return 0;
}

/* 0, or -errno when the writer itself failed (the stream's errors are seen
 * by write_out()) */
typedef int (*writer)(FILE *f, const void *arg);

/* A file of OUT, written whole and renamed into place. */
static int write_out(const struct bm_ci *ci, const char *name, writer w, const void *arg)
{
	char path[PATH_MAX], *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc = 0;

	if (bm_path(path, sizeof(path), "%s/%s", ci->o.out, name))
		return -ENAMETOOLONG;
	if (!(f = open_memstream(&buf, &len)))
		return -ENOMEM;
	rc = w(f, arg);
	if (!rc && ferror(f))
		rc = -EIO;
	if (fclose(f) && !rc)
		rc = -ENOMEM;
	if (!rc)
		rc = bm_write_file_atomic(path, buf, len);
	if (rc)
		bm_msg("cannot write %s: %s", path, strerror(-rc));
	free(buf);
	return rc;
}

struct outs {
	const struct bm_ci *ci;
	const struct bm_cmp *c;
	const struct bm_gate *g;
	struct bm_ci_boot *boots;   /* the job's own boots (OUT/run) */
	size_t nboots;
	const struct dirlist *all;  /* their folders */
};

static int w_text(FILE *f, const void *arg)
{
	const struct outs *o = arg;
	struct bm_compare_opts co = { .fmt = BM_CMP_TEXT, .rules = o->c->rules };

	bm_cmp_print(f, o->c, &co);
	fputc('\n', f);
	bm_gate_print(f, o->c, o->g);
	return 0;
}

static int w_json(FILE *f, const void *arg)
{
	const struct outs *o = arg;
	struct bm_compare_opts co = { .fmt = BM_CMP_JSON, .rules = o->c->rules };

	bm_cmp_print(f, o->c, &co);
	return 0;
}

static int w_html(FILE *f, const void *arg)
{
	bm_html_report(f, ((const struct outs *)arg)->c);
	return 0;
}

/* The gate as one more test case: a CI page lists it with the boots'. */
static void gate_case(FILE *f, const struct outs *o)
{
	char t[256], d[256];
	size_t i;

	fprintf(f, "  <testsuite name=\"gate\" tests=\"1\" failures=\"%d\" errors=\"0\" "
		   "skipped=\"0\" time=\"0.000\">\n    <testcase classname=\"gate\" "
		   "name=\"compare --fail-on %s\" time=\"0.000\">\n", !!o->g->code,
		bm_gate_modes[o->g->mode]);
	if (o->g->code) {
		fputs("      <failure type=\"gate\" message=\"", f);
		bm_xml_escape(f, o->g->why, strlen(o->g->why));
		fputs("\">", f);
		for (i = 0; i < o->c->nentries; i++)
			if (bm_gate_trips(&o->c->entries[i], o->g->mode)) {
				bm_cmp_entry_title(t, sizeof(t), o->c, &o->c->entries[i]);
				bm_cmp_delta(d, sizeof(d), o->c->entries[i].head);
				fprintf(f, "%s: ", t);
				bm_xml_escape(f, d, strlen(d));
				fputc('\n', f);
			}
		fputs("</failure>\n", f);
	}
	fputs("    </testcase>\n  </testsuite>\n", f);
}

static int w_junit(FILE *f, const void *arg)
{
	const struct outs *o = arg;
	char *buf = NULL, *body, *end;
	unsigned tests = 0, fails = 0;
	double time = 0;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m || bm_junit_write(m, o->boots, o->nboots) || fclose(m) || !buf) {
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n", f);
		body = end = NULL;
	} else {
		/* bm_junit_write's second line carries the totals: one suite more */
		body = strchr(buf, '\n');
		sscanf(body ? body + 1 : "", "<testsuites name=\"bootmark\" tests=\"%u\" failures=\"%u\" "
		       "errors=\"0\" time=\"%lf\">", &tests, &fails, &time);
		body = body ? strchr(body + 1, '\n') : NULL;
		end = strstr(buf, "</testsuites>");
		fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"bootmark "
			   "ci\" tests=\"%u\" failures=\"%u\" errors=\"0\" time=\"%.3f\">\n",
			tests + 1, fails + !!o->g->code, time);
	}
	if (body && end && end > body)
		fwrite(body + 1, 1, (size_t)(end - body - 1), f);
	gate_case(f, o);
	fputs("</testsuites>\n", f);
	free(buf);
	return 0;
}

static int w_tap(FILE *f, const void *arg)
{
	const struct outs *o = arg;
	char *buf = NULL, *rest = "", t[256], d[256];
	unsigned n = 0;
	size_t len = 0, i;
	FILE *m = open_memstream(&buf, &len);

	/* bm_tap_write opens with its plan: one test more, the gate, last */
	if (m && !bm_tap_write(m, o->boots, o->nboots) && !fclose(m) && buf &&
	    sscanf(buf, "TAP version 13\n1..%u\n", &n) == 1) {
		rest = strchr(buf, '\n');
		rest = rest ? strchr(rest + 1, '\n') : NULL;
		rest = rest ? rest + 1 : "";
	}
	fprintf(f, "TAP version 13\n1..%u\n%s", n + 1, rest);
	fprintf(f, "%s %u - gate: compare --fail-on %s: %s\n", o->g->code ? "not ok" : "ok",
		n + 1, bm_gate_modes[o->g->mode], o->g->why);
	for (i = 0; i < o->c->nentries; i++)
		if (bm_gate_trips(&o->c->entries[i], o->g->mode)) {
			bm_cmp_entry_title(t, sizeof(t), o->c, &o->c->entries[i]);
			fprintf(f, "# %s: %s\n", t, bm_cmp_delta(d, sizeof(d), o->c->entries[i].head));
		}
	free(buf);
	return 0;
}

static int w_ci(FILE *f, const void *arg)
{
	static const char *const kinds[] = { "spec", "rev", "results" };
	const struct outs *o = arg;
	const struct bm_ci *ci = o->ci;
	struct bm_json j;

	bm_json_init(&j, f, 1);
	bm_json_obj_begin(&j);
	bm_json_kstr(&j, "schema", BM_SCHEMA_CI);
	bm_json_kstr(&j, "candidate_label", ci->cand_label);
	bm_json_kstr(&j, "candidate_spec", ci->cand_spec);
	bm_json_kstr(&j, "candidate_src", ci->o.src);
	bm_json_kstr(&j, "baseline_kind", kinds[ci->base_kind]);
	bm_json_kstr(&j, "baseline_label", ci->base_label);
	bm_json_kstr(&j, "baseline_spec", ci->base_spec);
	bm_json_kstr(&j, "baseline_commit", ci->base_commit);
	bm_json_kstr(&j, "baseline_results", ci->o.baseline_results);
	bm_json_kstr(&j, "suite", ci->o.suite);
	bm_json_kstr(&j, "fs", ci->o.fs);
	/* the guests' architecture: --arch, auto being the host's */
	bm_json_kstr(&j, "arch", ci->o.b.arch[0] && strcmp(ci->o.b.arch, "auto") ? ci->o.b.arch
										 : bm_host_arch());
	bm_json_kint(&j, "run_exit", ci->run_code);
	/* --max-boots: the budget, the looks, the alpha of the last look taken
	 * (the one compare's files used), the rounds booted */
	bm_json_kint(&j, "max_boots", ci->o.max_boots);
	bm_json_kint(&j, "looks", ci->looks);
	bm_json_knum(&j, "alpha_last_look", ci->rules.alpha);
	bm_json_kint(&j, "confirm_rounds", ci->nconfirm);
	bm_json_kint(&j, "exit", bm_ci_exit(ci, o->g));
	bm_json_key(&j, "gate");
	bm_gate_json(&j, o->c, o->g);
	bm_json_obj_end(&j);
	fputc('\n', f);
	return 0;
}

/* The job's boots as one KCIDB document (KernelCI's common database), as
 * `bootmark export --format kcidb OUT/run` writes it; planned tests that
 * never ran are named from the suites beside the binary. */
static int w_kcidb(FILE *f, const void *arg)
{
	const struct outs *o = arg;
	struct bm_kcidb *kc = calloc(1, sizeof(*kc));
	size_t i;
	int rc = 0;

	if (!kc)
		return -ENOMEM;
	bm_kcidb_init(kc, BM_KCIDB_ORIGIN, NULL);
	for (i = 0; !rc && i < o->all->n; i++) {
		const char *dir = o->all->v[i];
		struct bm_results r;

		if (bm_boot_read(dir, "", &r))
			bm_results_empty(&r, "");
		rc = bm_kcidb_add(kc, dir, strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir, &r);
		bm_results_free(&r);
	}
	if (!rc)
		rc = bm_kcidb_write(kc, f);
	bm_kcidb_free(kc);
	free(kc);
	return rc;
}

/* The job's boots as JUnit and TAP see them. */
static int job_boots(struct outs *o, const struct dirlist *l, struct bm_results *res)
{
	size_t i;

	o->boots = calloc(l->n + 1, sizeof(*o->boots));
	if (!o->boots)
		return -ENOMEM;
	for (i = 0; i < l->n; i++) {
		if (bm_boot_read(l->v[i], "", &res[i]))
			bm_results_empty(&res[i], "");
		o->boots[i].kernel = strrchr(l->v[i], '/') + 1;
		o->boots[i].r = &res[i];
		if (res[i].status != BM_ST_COMPLETED)
			o->boots[i].console = bm_console_tail(l->v[i]);
	}
	o->nboots = l->n;
	return 0;
}

static int build(struct bm_ci *ci, struct bm_cmp *c, struct dirlist *all)
{
	struct dirlist base = { 0 }, cand = { 0 };
	char run[PATH_MAX], top[PATH_MAX];
	size_t i;
	int rc, k;

	bm_path(run, sizeof(run), "%s/run", ci->o.out);
	bm_path(top, sizeof(top), "%s/baseline", ci->o.out);
	rc = list_boots(ci->base_kind == BM_CI_BASE_RESULTS ? top : run,
			ci->base_kind == BM_CI_BASE_RESULTS ? "" : ci->base_label, &base);
	if (!rc)
		rc = list_boots(run, ci->cand_label, &cand);
	if (!rc)
		rc = list_boots(run, "", all);
	/* the confirmation rounds of --max-boots, in order */
	for (k = 1; !rc && k <= ci->nconfirm; k++) {
		char dir[PATH_MAX];

		bm_path(dir, sizeof(dir), "%s/confirm-%d", ci->o.out, k);
		if (ci->base_kind != BM_CI_BASE_RESULTS)
			rc = list_boots(dir, ci->base_label, &base);
		if (!rc)
			rc = list_boots(dir, ci->cand_label, &cand);
		if (!rc)
			rc = list_boots(dir, "", all);
	}
	/* the baseline's boots first: compare's baseline is the first kernel seen */
	for (i = 0; !rc && i < base.n; i++)
		rc = bm_cmp_add_dir(c, base.v[i]);
	for (i = 0; !rc && i < cand.n; i++)
		rc = bm_cmp_add_dir(c, cand.v[i]);
	if (!rc && !c->nboots) {
		bm_msg("%s holds no boot to compare", run);
		rc = -EINVAL;
	}
	if (!rc)
		rc = bm_cmp_build(c, &ci->rules);
	free(base.v);
	free(cand.v);
	return rc;
}

int bm_ci_outputs(struct bm_ci *ci, struct bm_gate *g)
{
	struct dirlist all = { 0 };
	struct bm_results *res = NULL;
	struct outs o = { .ci = ci, .g = g, .all = &all };
	struct bm_cmp c;
	size_t i;
	int rc;

	memset(&c, 0, sizeof(c));
	memset(g, 0, sizeof(*g));
	if ((rc = labels(ci)) || (rc = build(ci, &c, &all)))
		goto out_free;
	bm_gate_decide(&c, ci->gate, g);
	o.c = &c;
	res = calloc(all.n + 1, sizeof(*res));
	if (!res || (rc = job_boots(&o, &all, res))) {
		rc = -ENOMEM;
		goto out_free;
	}
	rc = write_out(ci, "compare.txt", w_text, &o);
	rc = rc ? rc : write_out(ci, "compare.json", w_json, &o);
	rc = rc ? rc : write_out(ci, "report.html", w_html, &o);
	rc = rc ? rc : write_out(ci, "junit.xml", w_junit, &o);
	rc = rc ? rc : write_out(ci, "tap.txt", w_tap, &o);
	rc = rc ? rc : write_out(ci, "kcidb.json", w_kcidb, &o);
	rc = rc ? rc : write_out(ci, "ci.json", w_ci, &o);
	printf("\nci: baseline %s (%s), candidate %s (%s)\n", ci->base_label,
	       ci->base_kind == BM_CI_BASE_RESULTS ? ci->o.baseline_results : ci->base_spec,
	       ci->cand_label, ci->cand_spec);
	bm_gate_print(stdout, &c, g);
	printf("ci: %s: run/%s, compare.txt, compare.json, report.html, junit.xml, tap.txt, "
	       "kcidb.json, ci.json; exit %d\n", ci->o.out, ci->nconfirm ? " and confirm-*/" : "",
	       bm_ci_exit(ci, g));
out_free:
	for (i = 0; res && i < o.nboots; i++) {
		bm_results_free(&res[i]);
		free((char *)o.boots[i].console);
	}
	free(o.boots);
	free(res);
	free(all.v);
	bm_cmp_free(&c);
	return rc;
}

int bm_ci_look(struct bm_ci *ci, struct bm_gate *g, int *fewest)
{
	struct dirlist all = { 0 };
	struct bm_cmp c;
	size_t k;
	int rc;

	memset(&c, 0, sizeof(c));
	memset(g, 0, sizeof(*g));
	*fewest = 0;
	if (!(rc = labels(ci)) && !(rc = build(ci, &c, &all))) {
		bm_gate_decide(&c, ci->gate, g);
		/* the candidate's: it is booted in every round (an earlier job's
		 * baseline is not) */
		*fewest = c.nkernels ? c.kboots[c.nkernels - 1] : 0;
		for (k = 0; ci->base_kind != BM_CI_BASE_RESULTS && k < c.nkernels; k++)
			*fewest = c.kboots[k] < *fewest ? c.kboots[k] : *fewest;
	}
	free(all.v);
	bm_cmp_free(&c);
	return rc;
}

int bm_ci_exit(const struct bm_ci *ci, const struct bm_gate *g)
{
	/* the boots are incomplete as a set (infra), or the job was stopped */
	if (ci->run_code == BM_EXIT_SYSTEM || ci->run_code >= 128)
		return ci->run_code;
	return g->mode == BM_GATE_OFF || !g->code ? ci->run_code : g->code;
}
