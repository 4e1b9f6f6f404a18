// SPDX-License-Identifier: MIT
/* runner/wl_bonnie*.c on the host: options, the arithmetic, and every test
 * run for real in a temp dir with tiny sizes; the CSV line of the results. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fsrun.h"
#include "report_bonnie.h"
#include "tap.h"
#include "testutil.h"
#include "wl.h"
#include "wl_bonnie.h"

static void *opts(const char *args, int want_ok)
{
	char err[256] = "";
	void *o = NULL;
	int ret = fsrun_job_opts(&wl_bonnie_ops, args, &o, err, sizeof(err));

	tap_ok(want_ok ? ret == 0 : ret < 0, "bonnie %s: %s %s", args,
	       want_ok ? "accepted" : "rejected", err);
	return o;
}

static void test_options(void)
{
	static const char *const labels[] = {
		"bon-putc", "bon-block-w", "bon-rewrite", "bon-getc", "bon-block-r", "bon-seeks",
		"bon-seq-create", "bon-seq-stat", "bon-seq-del", "bon-rnd-create",
		"bon-rnd-stat", "bon-rnd-del",
	};
	struct bonnie_opts *o;
	struct bm_result r;
	int i;

	tap_ok(wl_find("bonnie") == &wl_bonnie_ops, "bonnie is registered");
	o = opts("", 1);
	if (o) {
		TAP_EQ_INT(o->size, 32 << 20, "default size 32M");
		TAP_EQ_INT(o->chunk, 8192, "default chunk 8192");
		TAP_EQ_INT(o->charsize, 3 << 20, "default charsize 3M, as 2.00a's code");
		TAP_EQ_INT(bon_nseeks(o), 8192, "8192 seeks (seeks=0: 2.00a's DefaultSeeks)");
		TAP_EQ_INT(bon_nseekers(o), 5, "5 seekers (2.00a's DefaultSeekProcCount)");
		TAP_EQ_INT(o->num, 16, "num 16");
		TAP_EQ_INT(wl_bonnie_ops.desc->ntests(o), 12, "twelve tests");
		for (i = 0; i < 12; i++) {
			memset(&r, 0, sizeof(r));
			wl_bonnie_ops.desc->describe(o, i, &r);
			TAP_EQ_STR(r.test, labels[i], "label in bonnie++ order");
		}
		TAP_EQ_STR(r.params, "size=32M chunk=8k charsize=3M seeks=8192 seekers=5 num=16 "
			   "dirs=1 seed=0", "params");
		TAP_EQ_INT(wl_bonnie_ops.desc->describe(o, 12, &r), -EINVAL, "no 13th test");
		free(o);
	}
	o = opts("files=0", 1);
	TAP_EQ_INT(o ? wl_bonnie_ops.desc->ntests(o) : -1, 6, "files=0: the I/O tests");
	free(o);
	o = opts("charsize=0 tests=putc,getc,seeks", 1);
	TAP_EQ_INT(o ? wl_bonnie_ops.desc->ntests(o) : -1, 1, "charsize=0 drops per-char tests");
	free(o);
	o = opts("direct=1 tests=putc,block-w", 1);
	if (o) {
		TAP_EQ_INT(wl_bonnie_ops.desc->ntests(o), 1, "direct=1 drops putc");
		wl_bonnie_ops.desc->describe(o, 0, &r);
		tap_ok(strstr(r.params, " direct=1") != NULL, "params say direct=1");
		free(o);
	}
	o = opts("size=256M max_size=4k min_size=1k dirs=4 tests=rnd-stat", 1);
	if (o) {
		wl_bonnie_ops.desc->describe(o, 0, &r);
		TAP_EQ_STR(r.test, "bon-rnd-stat", "tests= picks one");
		TAP_EQ_STR(r.params, "size=256M chunk=8k charsize=3M seeks=8192 seekers=5 "
			   "num=16 dirs=4 seed=0 max_size=4k min_size=1k", "params with sizes");
		free(o);
	}
	free(opts("size=1536k", 0));
	free(opts("chunk=3000", 0));
	free(opts("charsize=12k", 0));
	free(opts("max_size=1k min_size=2k", 0));
	free(opts("seekers=65", 0));
	free(opts("version=1.03", 0));
	free(opts("cache=warm", 0));
	free(opts("tests=putc,nosuch", 0));
	free(opts("seek_sleep=61", 0));
	free(opts("seek_sleep=-2", 0));
}

/* The sleep before the seek tickets: the version's unless seek_sleep says
 * otherwise, and then the records say so. */
static void test_seek_sleep(void)
{
	static const struct { const char *args; unsigned sleep; const char *tail; } t[] = {
		{ "", 3, "seed=0" },
		{ "version=1.02c", 5, "version=1.02c" },
		{ "version=bray", 5, "version=bray" },
		{ "seek_sleep=3", 3, "seed=0" },
		{ "seek_sleep=0", 0, "seed=0 seek_sleep=0" },
		{ "version=bray seek_sleep=1", 1, "version=bray seek_sleep=1" },
	};
	struct bonnie_opts *o;
	struct bm_result r;
	size_t i, n, k;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		o = opts(t[i].args, 1);
		if (!o)
			continue;
		TAP_EQ_INT(bon_seek_sleep(o), t[i].sleep, "seek sleep");
		memset(&r, 0, sizeof(r));
		wl_bonnie_ops.desc->describe(o, 0, &r);
		n = strlen(r.params);
		k = strlen(t[i].tail);
		tap_ok(n >= k && !strcmp(r.params + n - k, t[i].tail), "'%s': params end '%s': %s",
		       t[i].args, t[i].tail, r.params);
		free(o);
	}
}

static void test_arithmetic(void)
{
	uint64_t a = bon_rng_init(7, BON_SEEKS, 0), b = bon_rng_init(7, BON_SEEKS, 0);
	uint64_t c = bon_rng_init(7, BON_SEQ_CREATE, 0);
	int32_t t[1000];
	long i, upd = 0, same = 0;

	TAP_EQ_INT(bon_cpu_pct(0.5, 1.0), 50, "%CPU 0.5 s in 1 s is 50");
	TAP_EQ_INT(bon_cpu_pct(0.999, 1.0), 99, "%CPU truncates 99.9 to 99");
	TAP_EQ_INT(bon_cpu_pct(1.0, 0.3), 333, "%CPU may pass 100 (threads)");
	TAP_EQ_INT(bon_cpu_pct(0.0999, 1.0), 9, "%CPU 9.99 is 9");
	TAP_EQ_INT(bon_cpu_pct(1.0, 0), 0, "%CPU with no elapsed time is 0");
	for (i = 0; i < 1000; i++)
		same += bon_rng_next(&a) == bon_rng_next(&b);
	TAP_EQ_INT(same, 1000, "one seed, one stream");
	a = bon_rng_init(7, BON_SEEKS, 0);
	tap_ok(bon_rng_next(&a) != bon_rng_next(&c), "another test, another stream");
	a = bon_rng_init(7, BON_SEEKS, 0);
	same = bon_make_tickets(t, 1000, &a);
	for (i = 0; i < 1000; i++)
		upd += t[i] < 0;
	TAP_EQ_INT(same, upd, "rewrites = the negated tickets");
	tap_ok(upd > 60 && upd < 140, "about a tenth rewrite (%ld of 1000)", upd);
	for (i = 0, same = 1; i < 1000; i++)
		same &= t[i] < 0 ? (-t[i]) % 10 == 0 : t[i] % 10 != 0 || t[i] == 0;
	tap_ok(same, "negative exactly when %% 10 == 0, as 2.00a's seek_test()");
}

static int name_ok(const char *s, int rnd, long idx, long dir)
{
	char hex[16], pre[8];
	size_t n;

	if (dir >= 0) {
		snprintf(pre, sizeof(pre), "%05ld/", dir);
		if (strncmp(s, pre, 6))
			return 0;
		s += 6;
	}
	n = strlen(s);
	snprintf(hex, sizeof(hex), "%010lx", (unsigned long)idx);
	if (n < 10 || n > 22)
		return 0;
	if (strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") != n)
		return 0;
	return rnd ? !strcmp(s + n - 10, hex) : !strncmp(s, hex, 10);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_names(void)
{
	uint64_t rng = bon_rng_init(0, BON_SEQ_CREATE, 0);
	char **nm = bon_names_make(1024, 1, 0, &rng), *sorted[1024];
	long i, ok = 0, dup = 0, lens[23] = { 0 };

	for (i = 0; nm && i < 1024; i++) {
		ok += name_ok(nm[i], 0, i, -1);
		lens[strlen(nm[i])]++;
	}
	TAP_EQ_INT(ok, 1024, "sequential names: %010x index + 0..12 alphanumerics");
	tap_ok(lens[10] > 30 && lens[22] > 30, "names of 10 and of 22 characters occur");
	bon_names_free(nm);
	rng = bon_rng_init(0, BON_RND_CREATE, 0);
	nm = bon_names_make(1024, 4, 1, &rng);
	for (i = 0, ok = 0; nm && i < 1024; i++)
		ok += name_ok(nm[i], 1, i, i / 257);
	TAP_EQ_INT(ok, 1024, "random names: alphanumerics + %010x, in %05d/ by 2.00a's count");
	if (nm) {
		bon_names_shuffle(nm, 1024, &rng);
		memcpy(sorted, nm, sizeof(sorted));
		qsort(sorted, 1024, sizeof(sorted[0]), cmp_str);
		for (i = 1; i < 1024; i++)
			dup += !strcmp(sorted[i - 1], sorted[i]);
		for (i = 0, ok = 0; i < 1024; i++)
			ok += name_ok(nm[i], 1, i, i / 257);
		TAP_EQ_INT(dup, 0, "shuffle keeps every name once");
		tap_ok(ok < 100, "shuffle moves names (%ld stayed)", ok);
	}
	bon_names_free(nm);
}

/* prepare + run as the runner does them; the result is kept for the CSV. */
static int run_one(struct wl_ctx *ctx, void *o, int idx, struct bm_result *r)
{
	int ret;

	memset(r, 0, sizeof(*r));
	wl_bonnie_ops.desc->describe(o, idx, r);
	ret = wl_bonnie_ops.prepare(ctx, o, idx);
	tap_ok(ret == 0, "%s prepare: %s", r->test, strerror(-ret));
	ret = wl_bonnie_ops.run(ctx, o, idx, r);
	tap_ok(ret == 0 && !r->partial, "%s run: %s", r->test, strerror(-ret));
	TAP_EQ_INT((int)tu_mval(r, "cpu"), bon_cpu_pct(tu_mval(r, "cpu_s"), tu_mval(r, "elapsed")),
		   "cpu = int(cpu_s / elapsed * 100)");
	tap_ok(tu_mval(r, "lat") > 0 && tu_mval(r, "lat") <= tu_mval(r, "elapsed") * 1e6,
	       "%s lat %.0f us within elapsed", r->test, tu_mval(r, "lat"));
	return ret;
}

static void to_rres(struct bm_rres *h, const struct bm_result *r)
{
	unsigned i;

	memset(h, 0, sizeof(*h));
	/* same sizes on both sides */
	memcpy(h->wl, r->wl, sizeof(h->wl));
	memcpy(h->test, r->test, sizeof(h->test));
	memcpy(h->params, r->params, sizeof(h->params));
	snprintf(h->fs, sizeof(h->fs), "host");
	h->rep = 1;
	for (i = 0; i < r->nmetrics; i++) {
		snprintf(h->m[i].name, sizeof(h->m[i].name), "%.31s", r->m[i].name);
		snprintf(h->m[i].unit, sizeof(h->m[i].unit), "%.15s", r->m[i].unit);
		h->m[i].value = r->m[i].value;
	}
	h->nm = r->nmetrics;
}

static struct bm_result res[12];

static void check_io(struct wl_ctx *ctx, struct bonnie_opts *o)
{
	uint64_t rng = bon_rng_init(o->seed, BON_SEEKS, 0);
	int32_t *t = malloc((size_t)o->seeks * sizeof(*t));
	long rewrites = t ? bon_make_tickets(t, o->seeks, &rng) : -1;
	char path[512];
	struct stat st;
	int i, fds;

	fds = tu_entries("/proc/self/fd");
	bon_path(ctx, path, sizeof(path));
	for (i = 0; i < 5; i++)
		run_one(ctx, o, i, &res[i]);
	tap_ok(stat(path, &st) == 0 && st.st_size == (off_t)o->size, "the file is size bytes");
	run_one(ctx, o, 5, &res[5]);
	/* ~CFileOp() of each seeker thread: the seek test leaves no file */
	tap_ok(stat(path, &st) < 0 && errno == ENOENT, "2.00a's seekers unlink the file");
	/* the timed part ran in a child; the parent closed its copy of the fd */
	TAP_EQ_INT(tu_entries("/proc/self/fd"), fds, "no descriptor left open by the I/O tests");
	tap_ok(tu_mval(&res[0], "cpu_s") > 0 && tu_mval(&res[3], "cpu_s") > 0,
	       "putc and getc report the child's CPU");
	TAP_EQ_INT((long)tu_mval(&res[0], "bytes"), (long)o->charsize, "putc wrote charsize bytes");
	TAP_EQ_INT((long)tu_mval(&res[1], "bytes"), (long)o->size, "block-w wrote size bytes");
	TAP_EQ_INT((long)tu_mval(&res[2], "bytes"), (long)o->size, "rewrite went over size bytes");
	TAP_EQ_INT((long)tu_mval(&res[3], "bytes"), (long)o->charsize, "getc read charsize bytes");
	TAP_EQ_INT((long)tu_mval(&res[4], "bytes"), (long)o->size, "block-r read size bytes");
	TAP_EQ_INT((long)tu_mval(&res[5], "ops"), (long)o->seeks, "every seek ticket done");
	TAP_EQ_INT((long)tu_mval(&res[5], "rewrites"), rewrites, "rewrites = tickets % 10 == 0");
	tap_ok(tu_metric(&res[5], "cpu_proc") != NULL, "2.00a's seeks add cpu_proc");
	tap_ok(!strcmp(tu_metric(&res[1], "rate")->unit, "KiB/s") &&
	       !strcmp(tu_metric(&res[5], "rate")->unit, "ops/s"), "units KiB/s and ops/s");
	tap_ok(tu_mval(&res[1], "rate") * tu_mval(&res[1], "elapsed") * 1024 > o->size * 0.999 &&
	       tu_mval(&res[1], "rate") * tu_mval(&res[1], "elapsed") * 1024 < o->size * 1.001,
	       "rate = KiB / elapsed");
	free(t);
}

static void check_files(struct wl_ctx *ctx, struct bonnie_opts *o, int first)
{
	char path[512];
	long n = o->num * 1024;
	int i;

	bon_path(ctx, path, sizeof(path));
	for (i = 0; i < 6; i++) {
		struct bm_result *r = &res[first + i];

		run_one(ctx, o, first + i, r);
		tap_ok((long)tu_mval(r, "files") == n, "%s: num * 1024 = %ld files", r->test, n);
		tap_ok(!strcmp(tu_metric(r, "rate")->unit, "files/s"), "files/s");
		if (i == 0 || i == 3) {
			int got = o->dirs > 1 ? 0 : tu_entries(path);
			long d;

			for (d = 0; o->dirs > 1 && d < o->dirs; d++) {
				char sub[600];

				snprintf(sub, sizeof(sub), "%s/%05ld", path, d);
				got += tu_entries(sub);
			}
			TAP_EQ_INT(got, n, "created files are on disk");
		}
		if (i == 2 || i == 5)
			tap_ok(access(path, F_OK) && errno == ENOENT, "delete removed the directory");
		if (o->max_size && (i == 0 || i == 1))
			tap_ok(tu_mval(r, "bytes") >= (double)n * o->min_size &&
			       tu_mval(r, "bytes") <= (double)n * o->max_size, "bytes in [min, max]");
	}
}

static void check_csv(void)
{
	const struct bm_rres *t[12];
	struct bm_rres *h = calloc(12, sizeof(*h));
	char line[1024], *f[64], *p;
	int i, n = 0;

	if (!h)
		return;
	for (i = 0; i < 12; i++) {
		to_rres(&h[i], &res[i]);
		t[report_bonnie_index(h[i].test)] = &h[i];
	}
	TAP_EQ_INT(report_bonnie_csv(line, sizeof(line), "host,a", t), 0, "CSV line");
	for (p = line; p && n < 64; n++) {
		f[n] = p;
		p = strchr(p, ',');
		if (p)
			*p++ = '\0';
	}
	TAP_EQ_INT(n, 50, "50 fields");
	TAP_EQ_STR(f[0], "1.98", "format_version");
	TAP_EQ_STR(f[2], "host_a", "name, comma replaced");
	TAP_EQ_STR(f[5], "1M", "file_size");
	TAP_EQ_STR(f[6], "", "io_chunk_size empty, as 2.00a");
	TAP_EQ_STR(f[7], "300", "seeks");
	TAP_EQ_STR(f[8], "3", "seek_proc_count");
	TAP_EQ_STR(f[21], "1", "num_files");
	TAP_EQ_STR(f[22], "", "max_size empty when 0");
	for (i = 0; i < 12; i++) {
		int at = i < 6 ? 9 + 2 * i : 26 + 2 * (i - 6);

		/* tiny tests finish under 0.5 s: bonnie++'s +++++ */
		if (tu_mval(&res[i], "elapsed") < 0.5)
			tap_ok(!strcmp(f[at], "+++++") && !strcmp(f[at + 1], "+++"),
			       "%s: +++++ under 0.5 s", res[i].test);
		else
			TAP_EQ_INT(atoi(f[at + 1]), (int)tu_mval(&res[i], "cpu"), "%CPU field");
		tap_ok(strstr(f[38 + i], "us") || strstr(f[38 + i], "ms"),
		       "%s latency %s", res[i].test, f[38 + i]);
	}
	free(h);
}

/* cache=chained: only rewrite, stat and delete keep what their prepare()
 * left; cache=cold drops before every test. */
static void test_keep_cache(void)
{
	static const int kept[12] = { 0, 0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1 };
	struct bonnie_opts *o;
	int i, n = 0, cold = 0;

	o = opts("size=1M", 1);
	if (o) {
		for (i = 0; i < 12; i++)
			n += !!wl_bonnie_ops.keep_cache(NULL, o, i) == kept[i];
		TAP_EQ_INT(n, 12, "chained: rewrite, seq-stat, seq-del, rnd-stat, rnd-del keep the cache");
		free(o);
	}
	o = opts("size=1M cache=cold", 1);
	if (o) {
		for (i = 0; i < 12; i++)
			cold += wl_bonnie_ops.keep_cache(NULL, o, i);
		TAP_EQ_INT(cold, 0, "cold: every test from a dropped cache");
		free(o);
	}
}

/* Host mode keeps the directory for a test whose predecessor in the job is
 * bonnie++'s own predecessor, with cache=chained only; a continued test
 * keeps the cache its predecessor left. */
static void test_continues(void)
{
	const struct wl_ctx cont_ctx = { .continued = 1 };
	static const int cont[12] = { 0, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1 };
	struct bonnie_opts *o;
	int i, n = 0, cold = 0;

	o = opts("size=1M", 1);
	if (o) {
		for (i = 0; i < 12; i++)
			n += !!wl_bonnie_ops.continues(o, i) == cont[i];
		TAP_EQ_INT(n, 12, "chained: rewrite..seeks and the file tests after seq-create continue");
		TAP_EQ_INT(wl_bonnie_ops.keep_cache(&cont_ctx, o, 3), 1, "a continued getc keeps the cache");
		free(o);
	}
	o = opts("size=1M tests=seq-create,seq-del,rnd-create", 1);
	if (o) {
		TAP_EQ_INT(wl_bonnie_ops.continues(o, 1), 0, "seq-del does not continue seq-create (no stat)");
		TAP_EQ_INT(wl_bonnie_ops.continues(o, 2), 1, "rnd-create continues seq-del");
		free(o);
	}
	o = opts("size=1M cache=cold", 1);
	if (o) {
		for (i = 0; i < 12; i++)
			cold += wl_bonnie_ops.continues(o, i);
		TAP_EQ_INT(cold, 0, "cold: no test continues another");
		free(o);
	}
}

static void test_versions(void)
{
	static const char *const bray[] = {
		"bon-putc", "bon-rewrite", "bon-block-w", "bon-getc", "bon-block-r", "bon-seeks",
	};
	struct bonnie_opts *o;
	struct bm_result r;
	int i;

	o = opts("version=bray", 1);
	if (o) {
		TAP_EQ_INT(wl_bonnie_ops.desc->ntests(o), 6, "Bonnie: the six I/O tests, no file tests");
		for (i = 0; i < 6; i++) {
			memset(&r, 0, sizeof(r));
			wl_bonnie_ops.desc->describe(o, i, &r);
			TAP_EQ_STR(r.test, bray[i], "Bonnie's order: rewrite before block write");
		}
		TAP_EQ_STR(r.params, "size=32M chunk=8k charsize=3M seeks=4000 seekers=3 num=16 "
			   "dirs=1 seed=0 version=bray", "Bonnie: 4000 seeks, 3 processes");
		free(o);
	}
	o = opts("version=1.02c cache=cold", 1);
	if (o) {
		TAP_EQ_INT(wl_bonnie_ops.desc->ntests(o), 12, "1.02c: twelve tests");
		wl_bonnie_ops.desc->describe(o, 5, &r);
		TAP_EQ_STR(r.params, "size=32M chunk=8k charsize=3M seeks=8192 seekers=3 num=16 "
			   "dirs=1 seed=0 version=1.02c cache=cold", "1.02c: 8192 seeks, 3 processes");
		free(o);
	}
}

/* Bray's Bonnie for real: stdio over the whole file, forked seekers whose
 * first seek and every tenth after rewrite. */
static void test_bray(const char *dir)
{
	struct wl_ctx ctx = { .mnt = dir, .dev = "none", .fs = "host", .rep = 1 };
	struct bonnie_opts *o = opts("version=bray size=1M chunk=16k seeks=400 seed=2 "
				     "seek_sleep=0", 1);
	struct timespec a, b;
	struct bm_result r[6];
	int i;

	if (!o)
		return;
	for (i = 0; i < 5; i++)
		run_one(&ctx, o, i, &r[i]);
	clock_gettime(CLOCK_MONOTONIC, &a);
	run_one(&ctx, o, 5, &r[5]);
	clock_gettime(CLOCK_MONOTONIC, &b);
	/* Bonnie's own sleep is 5 s: seek_sleep=0 leaves it out */
	tap_ok(b.tv_sec - a.tv_sec < 5, "seek_sleep=0: no sleep before the tickets (%lds)",
	       (long)(b.tv_sec - a.tv_sec));
	TAP_EQ_INT((long)tu_mval(&r[0], "bytes"), 1 << 20, "Bonnie's putc writes the whole file");
	TAP_EQ_INT((long)tu_mval(&r[3], "bytes"), 1 << 20, "and its getc reads it all");
	TAP_EQ_INT((long)tu_mval(&r[5], "ops"), 400, "400 seeks done");
	tap_ok(tu_mval(&r[5], "rewrites") >= 40 && tu_mval(&r[5], "rewrites") <= 43,
	       "rewrites on each process's count %% 10 == 0: %g of 400 over 3",
	       tu_mval(&r[5], "rewrites"));
	tap_ok(tu_metric(&r[5], "cpu_proc") == NULL, "forked seekers report their own CPU");
	bon_cleanup(&ctx);
	free(o);
}

static void test_io(const char *dir)
{
	struct wl_ctx ctx = { .mnt = dir, .dev = "none", .fs = "host", .rep = 1 };
	struct bonnie_opts *o;

	o = opts("size=1M chunk=8k charsize=64k seeks=300 seekers=3 num=1 seed=5", 1);
	if (!o)
		return;
	check_io(&ctx, o);
	check_files(&ctx, o, 6);
	check_csv();
	free(o);
	o = opts("size=1M num=1 max_size=3k min_size=1k dirs=3 seed=9 tests=seq-create,"
		 "seq-stat,seq-del,rnd-create,rnd-stat,rnd-del", 1);
	if (o)
		check_files(&ctx, o, 0);
	free(o);
	bon_cleanup(&ctx);
}

int main(void)
{
	char dir[] = "build/tmp-bonnie-XXXXXX";

	tap_plan(0);
	test_options();
	test_arithmetic();
	test_versions();
	test_seek_sleep();
	test_keep_cache();
	test_continues();
	test_names();
	mkdir("build", 0755);
	tu_mkdtemp(dir);
	test_io(dir);
	test_bray(dir);
	rmdir(dir);
	return tap_done();
}
