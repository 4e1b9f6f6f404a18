// SPDX-License-Identifier: MIT
/*
 * The KCIDB tests of one boot (kcidb.h; docs/results.md, "KCIDB"):
 *   bootmark.<fs>.<workload>.<test>.<metric>  one per measured value, with "number"
 *   bootmark.<fs>.<workload>.<test>           an E record naming the test, or a
 *                                             planned test that never ran (MISS)
 *   bootmark.<fs>, bootmark.run.<class>       an E record naming only a filesystem,
 *                                             or neither
 *   bootmark                                  the boot itself: its class, raised
 *                                             to the worst of its tests' statuses
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kcidb_int.h"
#include "profile.h"
#include "progress.h"
#include "util.h"
#include "wldesc.h"

/* v05_00.py: log_excerpt's maxLength */
#define EXCERPT_MAX 16384

struct boot_ctx {
	struct bm_json *j;
	const struct bm_kcidb *k;
	const struct bm_kcidb_boot *b;
	char key[160];          /* the boot's part of every test id */
	char start[40];
	char env[300];
	const char *worst;      /* of the tests written so far (DONE aside) */
};

static void part(char *buf, size_t len, const char *s)
{
	bm_kcidb_path_part(buf, len, s);
}

/* id, origin, build_id, path, status and what every test of the boot has. */
static void test_begin(struct boot_ctx *c, const char *idtail, const char *path,
		       const char *status)
{
	char id[BM_KCIDB_ID_MAX + 400], tail[BM_KCIDB_ID_MAX + 200];

	snprintf(tail, sizeof(tail), "%s%s%s", c->key, idtail[0] ? ":" : "", idtail);
	bm_json_obj_begin(c->j);
	bm_kcidb_id(c->k, id, sizeof(id), tail);
	bm_json_kstr(c->j, "id", id);
	bm_json_kstr(c->j, "origin", c->k->origin);
	bm_kcidb_id(c->k, id, sizeof(id), c->k->builds[c->b->build].id);
	bm_json_kstr(c->j, "build_id", id);
	bm_json_kstr(c->j, "path", path);
	bm_json_kstr(c->j, "status", status);
	if (c->start[0])
		bm_json_kstr(c->j, "start_time", c->start);
	if (c->env[0]) {
		bm_json_key(c->j, "environment");
		bm_json_obj_begin(c->j);
		bm_json_kstr(c->j, "comment", c->env);
		bm_json_obj_end(c->j);
	}
	if (strcmp(status, "DONE"))
		c->worst = bm_kcidb_worse(c->worst, status);
}

/* misc: where the test sits in bootmark's own records. */
static void misc_begin(struct boot_ctx *c, int rep)
{
	bm_json_key(c->j, "misc");
	bm_json_obj_begin(c->j);
	bm_json_kstr(c->j, "label", c->b->label);
	bm_json_kstr(c->j, "run", c->b->r.run);
	if (rep > 0)
		bm_json_kint(c->j, "rep", rep);
}

static void excerpt(struct boot_ctx *c, const char *text)
{
	char buf[EXCERPT_MAX];

	snprintf(buf, sizeof(buf), "%s", text);
	bm_json_kstr(c->j, "log_excerpt", buf);
}

/* The R records: one test per metric.  A boot whose records compare leaves
 * out (it died after them) gives ERROR: the values are real, the run is not. */
static void results(struct boot_ctx *c)
{
	const struct bm_results *r = &c->b->r;
	int usable = bm_status_usable(r->status);
	char path[400], fs[40], wl[24], test[40], met[80], id[200];
	size_t i;
	unsigned m;

	for (i = 0; i < r->nres; i++) {
		const struct bm_rres *h = &r->res[i];

		part(fs, sizeof(fs), h->fs);
		part(wl, sizeof(wl), h->wl);
		part(test, sizeof(test), h->test);
		for (m = 0; m < h->nm; m++) {
			const struct bm_rmetric *x = &h->m[m];
			int finite = isfinite(x->value);

			part(met, sizeof(met), x->name);
			snprintf(path, sizeof(path), "bootmark.%s.%s.%s.%s", fs, wl, test, met);
			snprintf(id, sizeof(id), "%s:%s:%d:%s", h->fs, h->test, h->rep, x->name);
			test_begin(c, id, path, usable && finite && !h->partial ? "DONE" : "ERROR");
			if (finite) {
				bm_json_key(c->j, "number");
				bm_json_obj_begin(c->j);
				bm_json_knum(c->j, "value", x->value);
				if (x->unit[0])
					bm_json_kstr(c->j, "unit", x->unit);
				bm_json_obj_end(c->j);
			}
			if (!usable)
				bm_json_kstr(c->j, "comment", "measured on a boot that did not run to "
					     "its end (see the test bootmark): bootmark compare "
					     "leaves it out");
			else if (h->partial)
				bm_json_kstr(c->j, "comment", "partial: the test stopped early");
			else if (!finite)
				bm_json_kstr(c->j, "comment", "not a finite number");
			misc_begin(c, h->rep);
			bm_json_kstr(c->j, "params", h->params);
			bm_json_kstr(c->j, "mkfs", h->mkfs);
			bm_json_kstr(c->j, "mount", h->mount);
			bm_json_key(c->j, "partial");
			bm_json_bool(c->j, h->partial);
			bm_json_obj_end(c->j);
			bm_json_obj_end(c->j);
		}
	}
}

/* The workload of a test label: from an R record of it in any boot of the
 * document, else from the plan of the suite (pl may be NULL), else "". */
static const char *wl_of(const struct boot_ctx *c, const struct bm_plan *pl, const char *test)
{
	size_t i, n;

	for (i = 0; i < c->k->nboots; i++)
		for (n = 0; n < c->k->boots[i].r.nres; n++)
			if (!strcmp(c->k->boots[i].r.res[n].test, test))
				return c->k->boots[i].r.res[n].wl;
	return pl ? bm_plan_wl(pl, test) : "";
}

static void test_path(char *buf, size_t len, const char *fs, const char *wl, const char *test)
{
	char f[40], w[24], t[40];

	part(f, sizeof(f), fs);
	part(w, sizeof(w), wl[0] ? wl : "unknown");
	part(t, sizeof(t), test);
	snprintf(buf, len, "bootmark.%s.%s.%s", f, w, t);
}

/* One test per E record; later E records of the same test (mkfs, then
 * unmount) only add their words to the first one's excerpt. */
static void errors(struct boot_ctx *c, const struct bm_plan *pl)
{
	const struct bm_results *r = &c->b->r;
	char path[400], id[200], text[EXCERPT_MAX], cls[40];
	size_t i, e;

	for (i = 0; i < r->nerr; i++) {
		const struct bm_herr *x = &r->err[i];
		size_t n = 0;
		int dup = 0;

		for (e = 0; e < i; e++)
			dup |= !strcmp(r->err[e].fs, x->fs) && !strcmp(r->err[e].test, x->test) &&
			       r->err[e].rep == x->rep;
		if (dup)
			continue;
		if (x->test[0]) {
			test_path(path, sizeof(path), x->fs, wl_of(c, pl, x->test), x->test);
		} else if (x->fs[0]) {
			part(cls, sizeof(cls), x->fs);
			snprintf(path, sizeof(path), "bootmark.%s", cls);
		} else {
			part(cls, sizeof(cls), x->cls);
			snprintf(path, sizeof(path), "bootmark.run.%s", cls);
		}
		snprintf(id, sizeof(id), "E:%s:%s:%d:%s", x->fs, x->test, x->rep, x->cls);
		test_begin(c, id, path, bm_kcidb_error_status(x->cls));
		text[0] = '\0';
		for (e = i; e < r->nerr; e++)
			if (!strcmp(r->err[e].fs, x->fs) && !strcmp(r->err[e].test, x->test) &&
			    r->err[e].rep == x->rep && n < sizeof(text))
				n += (size_t)snprintf(text + n, sizeof(text) - n, "%sclass=%s %s",
						      n ? "\n" : "", r->err[e].cls, r->err[e].msg);
		excerpt(c, text);
		misc_begin(c, x->rep);
		bm_json_kstr(c->j, "class", x->cls);
		bm_json_obj_end(c->j);
		bm_json_obj_end(c->j);
	}
}

/* Whether (fs, test, rep) has an R or E record, or an E for all of fs. */
static int accounted(const struct bm_results *r, const char *fs, const char *test, int rep)
{
	size_t i;

	for (i = 0; i < r->nres; i++)
		if (r->res[i].rep == rep && !strcmp(r->res[i].fs, fs) && !strcmp(r->res[i].test, test))
			return 1;
	for (i = 0; i < r->nerr; i++) {
		const struct bm_herr *e = &r->err[i];

		if (!e->fs[0] && !e->test[0])
			return 1;
		if (!strcmp(e->fs, fs) && (!e->test[0] || (e->rep == rep && !strcmp(e->test, test))))
			return 1;
	}
	return 0;
}

/* The value of "key=" among the words of a command line. */
static void cmdline_word(const char *line, const char *key, char *out, size_t len)
{
	const char *p = line;
	size_t n = strlen(key);

	out[0] = '\0';
	while (p && *p) {
		p += strspn(p, " ");
		if (!strncmp(p, key, n)) {
			snprintf(out, len, "%.*s", (int)strcspn(p + n, " "), p + n);
			return;
		}
		p = strchr(p, ' ');
	}
}

/* The suite and filesystems of the boot: its hello's, else its command line's. */
static void suite_fs(const struct boot_ctx *c, char *suite, size_t slen, char *fs, size_t flen)
{
	const char *s = bm_hello_get(&c->b->r, "suite"), *f = bm_hello_get(&c->b->r, "fs");
	char append[2048];

	bm_kcidb_meta(c->b, "append", append, sizeof(append));
	if (s)
		snprintf(suite, slen, "%s", s);
	else
		cmdline_word(append, "bootmark.suite=", suite, slen);
	if (f)
		snprintf(fs, flen, "%s", f);
	else
		cmdline_word(append, "bootmark.fs=", fs, flen);
}

/* The tests the boot planned: END's tests=, else meta.json's planned_tests. */
static long long planned(const struct boot_ctx *c)
{
	char v[32];

	if (c->b->r.have_end && c->b->r.end_tests >= 0)
		return c->b->r.end_tests;
	bm_kcidb_meta(c->b, "planned_tests", v, sizeof(v));
	return v[0] ? strtoll(v, NULL, 10) : 0;
}

static void miss(struct boot_ctx *c, const char *path, const char *id, const char *text, int rep)
{
	test_begin(c, id, path, "MISS");
	excerpt(c, text);
	misc_begin(c, rep);
	bm_json_obj_end(c->j);
	bm_json_obj_end(c->j);
}

/* Planned tests with neither an R nor an E record: one MISS each, named by
 * the suite's plan when it is the guest's (same count), else one MISS that
 * counts them.  pl is the plan or NULL. */
static void missing(struct boot_ctx *c, const struct bm_plan *pl, const char *suite,
		    const char *fslist)
{
	struct bm_results r = c->b->r;
	char fs[256], *tok, *save = NULL, path[400], id[200], text[5000];
	long long want = planned(c), left;
	unsigned t, rep, reps, per, nfs = 1;
	const char *p;

	if (want <= 0)
		return;
	for (p = fslist; *p; p++)
		nfs += *p == ',';
	if (pl && fslist[0] && pl->ntests && pl->ntests <= BM_PLAN_MAX && pl->total == want) {
		for (t = 0, per = 0; t < pl->ntests; t++)
			per += pl->raw[t] ? 1 : nfs;
		reps = pl->total / per;
		/* each filesystem of the list, then the raw disk's tests */
		snprintf(fs, sizeof(fs), "%.240s,%s", fslist, BM_WL_RAW_FS);
		for (tok = strtok_r(fs, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			for (rep = 1; rep <= reps; rep++)
				for (t = 0; t < pl->ntests; t++) {
					if (pl->raw[t] != !strcmp(tok, BM_WL_RAW_FS) ||
					    accounted(&c->b->r, tok, pl->test[t], (int)rep))
						continue;
					test_path(path, sizeof(path), tok, pl->wl[t], pl->test[t]);
					snprintf(id, sizeof(id), "%s:%s:%u", tok, pl->test[t], rep);
					snprintf(text, sizeof(text), "planned, never ran: the boot "
						 "ended %s", bm_status_name(r.status));
					miss(c, path, id, text, (int)rep);
				}
		return;
	}
	/* without the suite's plan the tests cannot be named, only counted */
	r.end_tests = want;
	left = r.nres || r.nerr ? bm_results_unaccounted(&r, NULL, 0) : want;
	if (left <= 0)
		return;
	snprintf(text, sizeof(text), "%lld of the %lld planned tests never ran (the boot ended "
		 "%s); suite %s is not in %s/suites as the guest ran it, so they are not named",
		 left, want, bm_status_name(r.status), suite[0] ? suite : "(unknown)",
		 c->k->configs[0] ? c->k->configs : "(no configs)");
	miss(c, "bootmark.not_run", "not_run", text, 0);
}

/* The test of the boot itself. */
static void boot_test(struct boot_ctx *c)
{
	const struct bm_results *r = &c->b->r;
	const char *st = bm_kcidb_worse(bm_kcidb_class_status(r->status), c->worst);
	char secs[32];

	test_begin(c, "", "bootmark", st);
	bm_kcidb_meta(c->b, "seconds", secs, sizeof(secs));
	if (secs[0])
		bm_json_knum(c->j, "duration", strtod(secs, NULL));
	bm_json_kstr(c->j, "comment", bm_status_name(r->status));
	if (r->status_why[0])
		excerpt(c, r->status_why);
	misc_begin(c, 0);
	bm_json_kstr(c->j, "status", bm_status_name(r->status));
	bm_json_kint(c->j, "kernel_warnings", r->kernel_warnings);
	bm_json_obj_end(c->j);
	bm_json_obj_end(c->j);
}

static void boot_env(struct boot_ctx *c)
{
	const char *cpu = bm_hello_get(&c->b->r, "cpu"), *ncpu = bm_hello_get(&c->b->r, "ncpu");
	const char *bus = bm_hello_get(&c->b->r, "disk_bus");
	const char *drv = bm_hello_get(&c->b->r, "disk_driver");
	char accel[16];

	bm_kcidb_meta(c->b, "accel", accel, sizeof(accel));
	/* "QEMU (tcg): QEMU TCG CPU version 2.5+, CPUs: 2, disk: nvme (nvme)";
	 * a lab box: its CPU and disk */
	snprintf(c->env, sizeof(c->env), "%s%s%s%s%s%s%s%s%s%s%s%s", accel[0] ? "QEMU (" : "",
		 accel, accel[0] ? ")" : "", accel[0] && cpu ? ": " : "", cpu ? cpu : "",
		 ncpu ? ", CPUs: " : "", ncpu ? ncpu : "", bus ? ", disk: " : "", bus ? bus : "",
		 bus && drv ? " (" : "", bus && drv ? drv : "", bus && drv ? ")" : "");
}

int bm_kcidb_boot_tests(struct bm_json *j, const struct bm_kcidb *k,
			const struct bm_kcidb_boot *b)
{
	struct boot_ctx c = { .j = j, .k = k, .b = b };
	struct bm_suite *su = calloc(1, sizeof(*su));
	struct bm_plan *pl = calloc(1, sizeof(*pl));
	char suite[64], fs[256], dir[4200], err[256];
	unsigned nfs = 1;
	const char *p;
	int have_plan = 0;

	if (!su || !pl) {
		free(su);
		free(pl);
		return -ENOMEM;
	}
	bm_kcidb_meta(b, "start", c.start, sizeof(c.start));
	snprintf(c.key, sizeof(c.key), "%.100s%s%s", b->r.run[0] ? b->r.run : b->label,
		 c.start[0] ? "@" : "", c.start);
	boot_env(&c);
	suite_fs(&c, suite, sizeof(suite), fs, sizeof(fs));
	for (p = fs; *p; p++)
		nfs += *p == ',';
	snprintf(dir, sizeof(dir), "%s/suites", k->configs);
	if (k->configs[0] && suite[0] && bm_safe_name(suite) &&
	    !bm_suite_load(su, dir, suite, err, sizeof(err)) &&
	    !bm_plan_make(pl, su, nfs, err, sizeof(err)))
		have_plan = 1;
	results(&c);
	errors(&c, have_plan ? pl : NULL);
	missing(&c, have_plan ? pl : NULL, suite, fs);
	boot_test(&c);
	free(su);
	free(pl);
	return 0;
}
