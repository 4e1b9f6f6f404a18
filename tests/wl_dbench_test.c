// SPDX-License-Identifier: MIT
/* runner/workloads/dbench/wl_dbench.c and dbench_ops.c: options, labels, the computations
 * with known inputs, single operations, and a short run in a temp dir. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsrun.h"
#include "tap.h"
#include "testutil.h"
#include "wl.h"
#include "wl_dbench.h"

static double val(const struct bm_result *r, const char *name, const char *unit)
{
	unsigned i;

	for (i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->m[i].name, name))
			return strcmp(r->m[i].unit, unit) ? -1 : r->m[i].value;
	return -1;
}

static void *opts(const char *args, int want_ok)
{
	char err[256] = "";
	void *o = NULL;
	int ret = fsrun_job_opts(&wl_dbench_ops, args, &o, err, sizeof(err));

	tap_ok(want_ok ? ret == 0 : ret < 0, "dbench %s: %s %s", args,
	       want_ok ? "accepted" : "rejected", err);
	return o;
}

static void test_options(void)
{
	struct bm_result r;
	void *o;

	tap_ok(wl_find("dbench") == &wl_dbench_ops, "dbench is registered");
	o = opts("", 1);
	if (o) {
		struct db_opts *d = o;

		TAP_EQ_INT(d->time, 600, "default time 600 s (dbench -t)");
		TAP_EQ_INT(wl_dbench_ops.desc->ntests(o), 4, "clients 4,8,16,32: four tests");
		memset(&r, 0, sizeof(r));
		TAP_EQ_INT(wl_dbench_ops.desc->describe(o, 2, &r), 0, "describe");
		TAP_EQ_STR(r.wl, "dbench", "wl");
		TAP_EQ_STR(r.test, "dbench16", "label");
		TAP_EQ_STR(r.params, "clients=16 time=600 warmup=120 loadfile=client.txt.xz", "params");
		TAP_EQ_INT(wl_dbench_ops.desc->describe(o, 4, &r), -EINVAL, "no fifth test");
		free(o);
	}
	o = opts("clients=2 time=5 warmup=0 loadfile=generated sync=1 syncdirs=1", 1);
	if (o) {
		memset(&r, 0, sizeof(r));
		wl_dbench_ops.desc->describe(o, 0, &r);
		TAP_EQ_STR(r.params, "clients=2 time=5 warmup=0 loadfile=generated sync=1 syncdirs=1",
			   "params with the sync options");
		free(o);
	}
	free(opts("clients=0", 0));
	free(opts("clients=1025", 0));
	free(opts("clients=2,,4", 0));
	free(opts("clients=x", 0));
	free(opts("time=0", 0));
	free(opts("warmup=-2", 0));
}

static void test_pure(void)
{
	struct db_sum s;
	struct bm_result r;
	char p[256];

	tap_ok(db_tput(250000000, 2.0) == 125.0, "250e6 bytes in 2 s = 125 MB/s (10^6)");
	tap_ok(db_tput(1, 0) == 0, "no time: 0");
	TAP_EQ_INT(db_warmup(600, -1), 120, "warmup t/5");
	TAP_EQ_INT(db_warmup(7, -1), 1, "warmup t/5 in whole seconds");
	TAP_EQ_INT(db_warmup(7, 3), 3, "warmup given");
	db_path(p, sizeof(p), "/mnt/t", "/clients/client1/a/client1.doc", 12);
	TAP_EQ_STR(p, "/mnt/t/clients/client12/a/client12.doc", "every client1 -> client12");
	db_path(p, sizeof(p), "/d", "/x", 0);
	TAP_EQ_STR(p, "/d/x", "no client1: prefix only");

	memset(&s, 0, sizeof(s));
	s.secs = 4.0;
	s.bytes = 8000000;
	s.st[DB_NTCREATEX] = (struct db_opstat){ .n = 4, .sum_ns = 10000000, .max_ns = 7000000 };
	s.st[DB_READX] = (struct db_opstat){ .n = 2, .sum_ns = 1000000, .max_ns = 600000 };
	s.st[DB_FLUSH] = (struct db_opstat){ .n = 1, .sum_ns = 9000000, .max_ns = 9000000 };
	s.mism = 3;
	memset(&r, 0, sizeof(r));
	db_add_metrics(&r, &s);
	TAP_EQ_INT(r.nmetrics, 23, "23 metrics");
	tap_ok(val(&r, "tput", "MB/s") == 2.0, "tput 8e6 B / 4 s = 2 MB/s");
	tap_ok(val(&r, "ops", "count") == 7, "ops 4 + 2 + 1");
	tap_ok(val(&r, "lat_max", "ms") == 9.0, "lat_max: the Flush's 9 ms");
	tap_ok(val(&r, "time", "s") == 4.0 && val(&r, "mism", "count") == 3, "time, mism");
	tap_ok(val(&r, "n_create", "count") == 4 && val(&r, "avg_create", "ms") == 2.5 &&
	       val(&r, "max_create", "ms") == 7.0, "NTCreateX: 4, avg 2.5 ms, max 7 ms");
	tap_ok(val(&r, "n_read", "count") == 2 && val(&r, "avg_read", "ms") == 0.5 &&
	       val(&r, "max_read", "ms") == 0.6, "ReadX: 2, avg 0.5 ms, max 0.6 ms");
	tap_ok(val(&r, "n_write", "count") == 0 && val(&r, "avg_write", "ms") == 0,
	       "no WriteX: zeros");
}

/* One client running single ops against a temp dir. */
static void test_ops(const char *dir)
{
	static const char text[] =
		"Mkdir \"\\clients\" NT_STATUS_OK\n"
		"NTCreateX \"\\clients\\client1\" 0x1 0x2 5 NT_STATUS_OK\n"
		"NTCreateX \"\\clients\\client1\\F.DOC\" 0x4044 0x5 7 NT_STATUS_OK\n"
		"WriteX 7 0 65536 65536 NT_STATUS_OK\n"
		"ReadX 7 4096 4096 4096 NT_STATUS_OK\n"
		"LockX 7 10 1 NT_STATUS_OK\n"
		"UnlockX 7 10 1 NT_STATUS_OK\n"
		"SET_FILE_INFORMATION 7 1004 NT_STATUS_OK\n"
		"Close 7 NT_STATUS_OK\n"
		"QUERY_PATH_INFORMATION \"\\clients\\client1\\f.doc\" 1004 NT_STATUS_OK\n"
		"FIND_FIRST \"\\clients\\client1\\*.*\" 260 1366 3 NT_STATUS_OK\n"
		"Rename \"\\clients\\client1\\F.DOC\" \"\\clients\\client1\\G.DOC\" NT_STATUS_OK\n"
		"Unlink \"\\clients\\client1\\F.DOC\" 0x6 NT_STATUS_OBJECT_NAME_NOT_FOUND\n"
		"Close 5 NT_STATUS_OK\n"
		"Unlink \"\\clients\\client1\\F.DOC\" 0x6 NT_STATUS_OK\n"
		"Close 99 NT_STATUS_OK\n";
	struct db_load l;
	struct db_client c;
	char err[256], path[512];
	struct stat st;
	uint64_t b, total = 0;
	size_t i;
	int ret = 0;

	if (db_load_parse(&l, text, sizeof(text) - 1, "ops", err, sizeof(err))) {
		tap_ok(0, "ops loadfile: %s", err);
		return;
	}
	TAP_EQ_INT(db_client_init(&c, 3, dir, &l, 0, 0), 0, "client 3");
	for (i = 0; i < 13 && !ret; i++) {
		ret = db_exec(&c, &l.op[i], &b);
		total += b;
	}
	TAP_EQ_INT(ret, 0, "13 ops ran");
	TAP_EQ_INT(total, 65536 + 4096, "bytes: WriteX + ReadX sizes");
	snprintf(path, sizeof(path), "%s/clients/client3/G.DOC", dir);
	tap_ok(stat(path, &st) == 0 && st.st_size == 65536, "client1 -> client3, 64 KiB written, renamed");
	tap_ok(st.st_mtime < st.st_ctime, "SET_FILE_INFORMATION moved mtime back");
	TAP_EQ_INT(c.mism, 0, "no status mismatch");
	TAP_EQ_INT(db_exec(&c, &l.op[13], &b), 0, "Close of the folder handle");
	TAP_EQ_INT(db_exec(&c, &l.op[14], &b), -EIO, "Unlink of a missing file expected OK: error");
	tap_ok(strstr(c.err, "loadfile line 15: Unlink") != NULL, "error names the line: %s", c.err);
	TAP_EQ_INT(db_exec(&c, &l.op[15], &b), -EIO, "Close of an unknown handle: error");
	tap_ok(strstr(c.err, "handle 99 was not found") != NULL, "%s", c.err);
	db_client_free(&c);
	snprintf(path, sizeof(path), "%s/clients/client3", dir);
	db_deltree(path);
	snprintf(path, sizeof(path), "%s/clients/client3/G.DOC", dir);
	tap_ok(stat(path, &st) < 0 && errno == ENOENT, "deltree removed the files");
	snprintf(path, sizeof(path), "%s/clients/client3", dir);
	tap_ok(rmdir(path) == 0, "and left the folder");
	snprintf(path, sizeof(path), "%s/clients", dir);
	rmdir(path);
	db_load_free(&l);
}

static void test_run(const char *dir)
{
	struct wl_ctx ctx = { .mnt = dir, .dev = "none", .fs = "host", .rep = 1 };
	struct bm_result r;
	char path[512];
	struct stat st;
	void *o = opts("clients=2 time=2 loadfile=generated", 1);

	if (!o)
		return;
	memset(&r, 0, sizeof(r));
	wl_dbench_ops.desc->describe(o, 0, &r);
	TAP_EQ_STR(r.test, "dbench2", "label");
	TAP_EQ_INT(wl_dbench_ops.prepare(&ctx, o, 0), 0, "prepare");
	TAP_EQ_INT(wl_dbench_ops.run(&ctx, o, 0, &r), 0, "run 2 clients for 2 s");
	TAP_EQ_INT(r.partial, 0, "not partial");
	tap_ok(val(&r, "time", "s") > 1.9 && val(&r, "time", "s") < 2.5, "window %.3f s (2 ticks)",
	       val(&r, "time", "s"));
	tap_ok(val(&r, "tput", "MB/s") > 0.1, "tput %.1f MB/s", val(&r, "tput", "MB/s"));
	tap_ok(val(&r, "ops", "count") > 100, "ops %.0f", val(&r, "ops", "count"));
	tap_ok(val(&r, "n_read", "count") > 0 && val(&r, "n_create", "count") > 0 &&
	       val(&r, "n_write", "count") > 0, "ReadX %.0f NTCreateX %.0f WriteX %.0f",
	       val(&r, "n_read", "count"), val(&r, "n_create", "count"),
	       val(&r, "n_write", "count"));
	tap_ok(val(&r, "avg_create", "ms") > 0 &&
	       val(&r, "avg_create", "ms") <= val(&r, "max_create", "ms") &&
	       val(&r, "max_create", "ms") <= val(&r, "lat_max", "ms"),
	       "0 < avg_create %.4f <= max_create %.3f <= lat_max %.3f", val(&r, "avg_create", "ms"),
	       val(&r, "max_create", "ms"), val(&r, "lat_max", "ms"));
	TAP_EQ_INT(val(&r, "mism", "count"), 0, "the generated mix's statuses all hold");
	snprintf(path, sizeof(path), "%s/clients/client1/~dmtmp/DIR0", dir);
	tap_ok(stat(path, &st) == 0 && S_ISDIR(st.st_mode), "client 1 worked in clients/client1");
	free(o);
}

/* prepare() of a job, its stderr (the E record's text in unit tests). */
static int prepare_err(struct wl_ctx *ctx, void *o, char *msg, size_t len)
{
	FILE *tmp = tmpfile();
	int saved = dup(2), ret;
	size_t n;

	if (!tmp || saved < 0)
		return -EIO;
	fflush(stderr);
	dup2(fileno(tmp), 2);
	ret = wl_dbench_ops.prepare(ctx, o, 0);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(msg, 1, len - 1, tmp);
	msg[n] = '\0';
	fclose(tmp);
	return ret;
}

/* No silent substitute: a missing loadfile is an error naming it, the
 * image's default included; loadfile=generated only when asked. */
static void test_missing(const char *dir)
{
	struct wl_ctx ctx = { .mnt = dir, .dev = "none", .fs = "host", .rep = 1 };
	char msg[1024];
	void *o = opts("clients=1 time=1 loadfile=/nonexistent/client.txt", 1);

	if (o) {
		TAP_EQ_INT(prepare_err(&ctx, o, msg, sizeof(msg)), -ENOENT, "missing loadfile: ENOENT");
		tap_ok(strstr(msg, "dbench: loadfile /nonexistent/client.txt: No such file") != NULL,
		       "the error names the file: %s", msg);
		free(o);
	}
	if (!access(DB_DEFAULT_LOADFILE, R_OK))
		return;
	o = opts("clients=1 time=1", 1);
	if (!o)
		return;
	if (access(DB_HOST_LOADFILE, R_OK)) {
		TAP_EQ_INT(prepare_err(&ctx, o, msg, sizeof(msg)), -ENOENT,
			   "the default loadfile missing: an error, not the generated mix");
		tap_ok(strstr(msg, DB_DEFAULT_LOADFILE) && strstr(msg, DB_HOST_LOADFILE),
		       "it names %s and %s", DB_DEFAULT_LOADFILE, DB_HOST_LOADFILE);
	} else {
		/* a host: the file the image packs, from Debian's dbench package */
		TAP_EQ_INT(prepare_err(&ctx, o, msg, sizeof(msg)), 0,
			   "the default loadfile on a host: " DB_HOST_LOADFILE);
	}
	free(o);
}

/* dbench 2.x and 1.x: one pass per client, no window, 1.x's formula. */
static void test_onepass(const char *dir)
{
	struct wl_ctx ctx = { .mnt = dir, .dev = "none", .fs = "host", .rep = 1 };
	static const char *const args[] = {
		"clients=2 version=2 lines=3000 loadfile=generated",
		"clients=2 version=1 lines=3000 loadfile=generated",
	};
	struct bm_result r;
	double secs, mb;
	int v;
	void *o;

	for (v = 0; v < 2; v++) {
		o = opts(args[v], 1);
		if (!o)
			continue;
		memset(&r, 0, sizeof(r));
		wl_dbench_ops.desc->describe(o, 0, &r);
		TAP_EQ_STR(r.params, v ? "clients=2 version=1 loadfile=generated lines=3000"
				       : "clients=2 version=2 loadfile=generated lines=3000",
			   "params: no time or warm-up for one pass");
		TAP_EQ_INT(wl_dbench_ops.prepare(&ctx, o, 0), 0, "prepare");
		TAP_EQ_INT(wl_dbench_ops.run(&ctx, o, 0, &r), 0, "one pass of 3000 lines each");
		secs = val(&r, "time", "s");
		mb = val(&r, "pass_mb", "MB");
		tap_ok(secs > 0 && secs < 60 && mb > 0, "pass of %.3f MB in %.3f s", mb, secs);
		if (v)   /* 1.x: the pass's MB x clients / t, whatever moved */
			tap_ok(fabs(val(&r, "tput", "MB/s") - mb * 2 / secs) < 1e-6 * mb * 2 / secs,
			       "1.x throughput = pass MB x 2 clients / t");
		else     /* 2.x: what moved / t, and it moved two passes */
			tap_ok(fabs(val(&r, "tput", "MB/s") - mb * 2 / secs) < 0.001 * mb * 2 / secs,
			       "2.x throughput = 2 passes of bytes / t: %.2f MB/s",
			       val(&r, "tput", "MB/s"));
		free(o);
	}
	tap_ok(fabs(db_tput_v1(132, 48, 10) - 633.6) < 1e-9,
	       "dbench 1.x's 132 x nprocs / t: 48 clients in 10 s = 633.6");
}

/* Debian's client.txt: its first 60038 lines carry 341.3 MB of ReadX and
 * WriteX, one pass of dbench 2.x's client_plain.txt (341.255 MB); the
 * first 21225 lines 132.65 MB, dbench 1.x's "132". */
static void test_client_txt(void)
{
	static const char path[] = "/usr/share/dbench/client.txt";
	struct db_load l;
	char err[512];
	size_t n = 0;

	if (access(path, R_OK)) {
		tap_skip("no /usr/share/dbench/client.txt (Debian's dbench)", "client.txt pass sizes");
		return;
	}
	TAP_EQ_INT(db_load_file(&l, path, err, sizeof(err)), 0, "client.txt parses");
	while (n < l.n && l.op[n].line <= 60038)
		n++;
	l.n = n;
	tap_ok(fabs(db_pass_mb(&l) - 341.3) < 0.1, "lines=60038: %.3f MB per pass", db_pass_mb(&l));
	while (l.n && l.op[l.n - 1].line > 21225)
		l.n--;
	tap_ok(fabs(db_pass_mb(&l) - 132.65) < 0.1, "lines=21225: %.3f MB per pass",
	       db_pass_mb(&l));
	l.n = n;
	db_load_free(&l);
}

int main(void)
{
	char dir[] = "/tmp/bm-dbench-XXXXXX", cmd[300];

	tap_plan(0);
	test_options();
	test_pure();
	tu_mkdtemp(dir);
	test_ops(dir);
	test_run(dir);
	test_missing(dir);
	test_onepass(dir);
	test_client_txt();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		tap_ok(0, "cannot remove %s", dir);
	return tap_done();
}
