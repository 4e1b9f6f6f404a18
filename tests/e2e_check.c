// SPDX-License-Identifier: MIT
/*
 * e2e_check: checks every record of one QEMU run against what the suite and
 * the filesystem profiles say it must contain.  TAP output.
 *
 *     e2e_check RESULTS_LOG CONFIGS_DIR SUITE FS[,FS...] [KERNEL_RELEASE]
 *
 * The expected tests are derived from the same workload option tables the
 * runner uses, so a test that silently disappears fails here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"
#include "profile.h"
#include "wl.h"
#include "fsrun.h"
#include "tap.h"

#define MAX_FS 8

struct want {
	const char *fs;
	char test[32];
	int rep;
	char kind;          /* 'w' write, 'r' read, 'x' rewrite, '?' other */
	double bytes;       /* payload the test moves */
	int seen;
};

static struct want wants[256];
static unsigned nwants;

static int feed_file(struct bm_stream *s, const char *path)
{
	char *buf, *line, *nl;
	size_t len;
	int ret = bm_read_file(path, &buf, &len, 64u << 20);

	if (ret)
		return ret;
	for (line = buf; line < buf + len; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(buf + len - line));
		if (!nl)
			nl = buf + len;
		bm_stream_feed(s, line, (size_t)(nl - line));
	}
	free(buf);
	return 0;
}

static double metric(const struct bm_record *r, const char *name, char *unit)
{
	char key[BM_KEY_MAX];
	const char *v, *colon;

	snprintf(key, sizeof(key), "m_%s", name);
	v = bm_rec_get(r, key);
	if (!v)
		return -1;
	colon = strchr(v, ':');
	if (unit)
		snprintf(unit, 16, "%s", colon ? colon + 1 : "");
	return strtod(v, NULL);
}

static int expect_jobs(const struct bm_suite *su, char **fs, int nfs)
{
	for (unsigned j = 0; j < su->njobs; j++) {
		const struct wl_ops *wl = wl_find(su->job[j].wl);
		char err[256];
		void *o;

		/* the runner's own parser: the same options, the same tests */
		if (!wl || fsrun_job_opts(wl, su->job[j].args, &o, err, sizeof(err)))
			return -EINVAL;
		for (int i = 0; i < wl->desc->ntests(o); i++) {
			struct bm_result r = { 0 };
			uint64_t size = 0;
			size_t tl;

			wl->desc->describe(o, i, &r);
			/* a workload's "size" option is the payload of its tests */
			for (const struct bm_opt *op = wl->desc->opts; op->name; op++)
				if (!strcmp(op->name, "size") && op->type == BM_OPT_SIZE)
					memcpy(&size, (char *)o + op->off, sizeof(size));
			tl = strlen(r.test);
			for (int f = 0; f < nfs; f++) {
				for (int rep = 1; rep <= (su->repeat ? su->repeat : 1); rep++) {
					struct want *x;

					if (nwants == sizeof(wants) / sizeof(wants[0]))
						return -E2BIG;
					x = &wants[nwants++];

					x->fs = fs[f];
					snprintf(x->test, sizeof(x->test), "%s", r.test);
					x->rep = rep;
					/* dd's tests say what they move: w, r, rw */
					x->kind = strcmp(wl->desc->name, "dd") ? '?' :
						  tl > 2 && !strcmp(r.test + tl - 2, "rw") ? 'x' :
						  r.test[tl - 1] == 'w' ? 'w' :
						  r.test[tl - 1] == 'r' ? 'r' : '?';
					x->bytes = (double)size;
				}
			}
		}
		free(o);
	}
	return 0;
}

static void check_result(const struct bm_record *r, const char *cfgdir)
{
	const char *fs = bm_rec_get(r, "fs"), *test = bm_rec_get(r, "test");
	const char *rep = bm_rec_get(r, "rep"), *mkfs = bm_rec_get(r, "mkfs");
	const char *mnt = bm_rec_get(r, "mount"), *partial = bm_rec_get(r, "partial");
	struct want *x = NULL;
	struct bm_fsprof p;
	char err[256], unit[16], dir[256];

	tap_ok(fs && test && rep, "R seq %llu has fs, test and rep", (unsigned long long)r->seq);
	if (!fs || !test || !rep)
		return;
	for (unsigned i = 0; i < nwants; i++)
		if (!strcmp(wants[i].fs, fs) && !strcmp(wants[i].test, test) &&
		    wants[i].rep == atoi(rep))
			x = &wants[i];
	tap_ok(x && !x->seen, "%s %s rep %s is expected and seen once", fs, test, rep);
	if (!x || x->seen)
		return;
	x->seen = 1;
	tap_ok(partial && !strcmp(partial, "0"), "%s %s complete (partial=0)", fs, test);
	snprintf(dir, sizeof(dir), "%s/fs", cfgdir);
	if (!bm_fsprof_load(&p, dir, fs, err, sizeof(err))) {
		tap_ok(mkfs && !strncmp(mkfs, p.mkfs, strlen(p.mkfs)),
		       "%s %s carries the profile's mkfs argv (%s)", fs, test, mkfs ? mkfs : "none");
		tap_ok(mnt && !strcmp(mnt, p.mount_opts), "%s %s carries mount options %s",
		       fs, test, mnt ? mnt : "none");
	} else {
		tap_ok(0, "profile %s loads: %s", fs, err);
	}
	tap_ok(metric(r, "real", unit) > 0 && !strcmp(unit, "s"), "%s %s real > 0 s", fs, test);
	tap_ok(metric(r, "utime", NULL) >= 0 && metric(r, "stime", NULL) >= 0,
	       "%s %s utime and stime present", fs, test);
	/* The disk counters are of the test disk alone: a write test must
	 * write at least its payload, a cold read must read it. */
	if (x->kind == 'w' || x->kind == 'x')
		tap_ok(metric(r, "written", unit) * 1024 >= x->bytes && !strcmp(unit, "KiB"),
		       "%s %s wrote >= %.0f bytes (%.0f KiB)", fs, test, x->bytes,
		       metric(r, "written", NULL));
	if (x->kind == 'r')
		tap_ok(metric(r, "read", unit) * 1024 >= x->bytes && !strcmp(unit, "KiB"),
		       "%s %s read >= %.0f bytes from disk (%.0f KiB)", fs, test, x->bytes,
		       metric(r, "read", NULL));
	if (x->kind != '?')
		tap_ok(metric(r, "extents", NULL) >= 1, "%s %s extents >= 1", fs, test);
}

static void check_hello(const struct bm_record *h, const char *release)
{
	static const char *const keys[] = { "v", "kernel", "cmdline", "cpu", "ncpu",
		"mem_kb", "disk", "disk_serial", "disk_size", "suite", "fs", "config", NULL };

	for (int i = 0; keys[i]; i++)
		tap_ok(bm_rec_get(h, keys[i]) != NULL, "hello has %s", keys[i]);
	if (release)
		TAP_EQ_STR(bm_rec_get(h, "kernel"), release, "hello kernel is the booted one");
	TAP_EQ_STR(bm_rec_get(h, "disk_serial"), "BMSCRATCH0", "disk found by its serial");
}

int main(int argc, char **argv)
{
	struct bm_stream s;
	struct bm_suite su;
	char err[256], fsbuf[128], dir[256], *fs[MAX_FS], *save;
	unsigned results = 0;
	int nfs = 0;

	if (argc < 5) {
		fprintf(stderr, "usage: e2e_check RESULTS_LOG CONFIGS_DIR SUITE FS[,FS] [RELEASE]\n");
		return 100;
	}
	tap_plan(0);
	snprintf(fsbuf, sizeof(fsbuf), "%s", argv[4]);
	for (char *f = strtok_r(fsbuf, ",", &save); f && nfs < MAX_FS; f = strtok_r(NULL, ",", &save))
		fs[nfs++] = f;
	snprintf(dir, sizeof(dir), "%s/suites", argv[2]);
	if (bm_suite_load(&su, dir, argv[3], err, sizeof(err))) {
		tap_ok(0, "suite %s loads: %s", argv[3], err);
		return tap_done();
	}
	tap_ok(expect_jobs(&su, fs, nfs) == 0, "expected tests derived from suite %s", argv[3]);

	bm_stream_init(&s, "");
	tap_ok(feed_file(&s, argv[1]) == 0, "read %s", argv[1]);
	tap_ok(bm_stream_check(&s, err, sizeof(err)) == 0, "stream complete: %s", err);
	tap_ok(s.bad_crc == 0, "no damaged records on a dedicated port (%u)", s.bad_crc);
	tap_ok(s.hellos == 1, "exactly one hello (%u)", s.hellos);

	for (uint64_t q = 1; q <= s.max_seq; q++) {
		const struct bm_record *r = bm_stream_get(&s, q);

		if (!r)
			continue;
		if (r->type == BM_REC_HELLO)
			check_hello(r, argc > 5 ? argv[5] : NULL);
		if (r->type == BM_REC_ERROR)
			tap_ok(0, "error record: class=%s msg=%s", bm_rec_get(r, "class"),
			       bm_rec_get(r, "msg"));
		if (r->type == BM_REC_RESULT) {
			results++;
			check_result(r, argv[2]);
		}
		if (r->type == BM_REC_END) {
			const char *n = bm_rec_get(r, "results");

			tap_ok(n && (unsigned)atoi(n) == results, "end counts %s results, seen %u",
			       n ? n : "none", results);
		}
	}
	for (unsigned i = 0; i < nwants; i++)
		tap_ok(wants[i].seen, "%s %s rep %d has a result", wants[i].fs, wants[i].test,
		       wants[i].rep);
	bm_stream_free(&s);
	return tap_done();
}
