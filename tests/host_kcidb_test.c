/* SPDX-License-Identifier: MIT */
/*
 * The KCIDB document (host/report/kcidb.c, host/report/kcidb_tests.c) of boots that did
 * not all complete: statuses of boots, E records and planned tests that
 * never ran, their paths, and how boots of one kernel share a build.
 * tests/e2e.sh checks a document of real boots against the schema
 * (tests/kcidb_check.py); this test checks the mapping where real boots
 * seldom go (a hang, a failed mkfs, a read error).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json.h"
#include "kcidb.h"
#include "proto.h"
#include "results.h"
#include "tap.h"
#include "util.h"

#define RUN_A "0a0a0a0a"
#define RUN_B "0b0b0b0b"

static char tmp[] = "/tmp/bm-kcidb-XXXXXX";

static void rec(FILE *f, const char *run, unsigned seq, char type, const char *const *kv)
{
	struct bm_line l;

	bm_line_start(&l, run, seq, type);
	for (; kv[0]; kv += 2)
		bm_line_add(&l, kv[0], kv[1]);
	if (bm_line_finish(&l) < 0)
		tap_bail("cannot encode a record");
	fputs(l.buf, f);
}

static void hello(FILE *f, const char *run)
{
	const char *kv[] = { "v", "1", "kernel", "6.1.0-53-amd64", "machine", "x86_64",
			     "suite", "bisect", "fs", "ext4,xfs", "cpu", "QEMU TCG CPU", "ncpu",
			     "2", NULL };

	rec(f, run, 1, 'H', kv);
}

static void result(FILE *f, const char *run, unsigned seq, const char *fs, const char *test)
{
	const char *kv[] = { "wl", "dd", "test", test, "fs", fs, "rep", "1", "params",
			     "size=64M bs=1M", "mkfs", "mkfs.ext4 -F /dev/vda", "mount", "noatime",
			     "partial", "0", "m_real", "1.5:s", "m_bw", "42.5:MB/s", NULL };

	rec(f, run, seq, 'R', kv);
}

/* A boot folder: its results.log from the records, and a meta.json. */
static void boot_dir(const char *name, const char *meta, void (*records)(FILE *))
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	if (mkdir(path, 0755))
		tap_bail("mkdir");
	snprintf(path, sizeof(path), "%s/%s/results.log", tmp, name);
	f = fopen(path, "w");
	if (!f)
		tap_bail("cannot write results.log");
	records(f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/%s/meta.json", tmp, name);
	if (bm_write_file_atomic(path, meta, strlen(meta)))
		tap_bail("cannot write meta.json");
}

/* Boot A hangs: dd64w measured on ext4, dd64r failed with EIO, then silence. */
static void records_hang(FILE *f)
{
	const char *eio[] = { "class", "bench", "msg", "read: Input/output error", "fs", "ext4",
			      "test", "dd64r", "rep", "1", NULL };

	hello(f, RUN_A);
	result(f, RUN_A, 2, "ext4", "dd64w");
	rec(f, RUN_A, 3, 'E', eio);
}

/* Boot B ends: every ext4 test measured, mkfs.xfs failed for all of xfs. */
static void records_setup(FILE *f)
{
	const char *mkfs[] = { "class", "setup", "msg", "mkfs.xfs exited 1", "fs", "xfs", NULL };
	const char *end[] = { "n", "6", "results", "3", "errors", "1", "tests", "6", NULL };

	hello(f, RUN_B);
	result(f, RUN_B, 2, "ext4", "dd64w");
	result(f, RUN_B, 3, "ext4", "dd64r");
	result(f, RUN_B, 4, "ext4", "dd64rw");
	rec(f, RUN_B, 5, 'E', mkfs);
	rec(f, RUN_B, 6, 'Z', end);
}

static const char META_A[] =
	"{\"kernel_release\": \"6.1.0-53-amd64\", \"kernel_package\": "
	"\"linux-image-6.1.0-53-amd64\", \"kernel_package_version\": \"6.1.187-1\", "
	"\"kernel_package_archive\": \"bookworm-security\", \"planned_tests\": 6, "
	"\"start\": \"2026-12-01T22:32:07Z\", \"seconds\": 12.5, \"accel\": \"tcg\"}";
/* a local build: no package, its image's hash */
static const char META_B[] =
	"{\"kernel_release\": \"6.1.0-53-amd64\", \"kernel_package\": null, "
	"\"vmlinuz_sha256\": \"d66b8bc4b8330f4e98257602449feeeed696b860bf147a40477e7f4cfc48e704\", "
	"\"planned_tests\": 6, \"start\": \"2026-12-01T22:40:00Z\"}";

/* The status written for the test at path (the first after its "path"). */
static void status_of(const char *doc, const char *path, const char *want)
{
	char key[256];
	const char *p, *s;
	char got[16] = "(none)";

	snprintf(key, sizeof(key), "\"path\": \"%s\",", path);
	p = strstr(doc, key);
	s = p ? strstr(p, "\"status\": \"") : NULL;
	if (s)
		snprintf(got, sizeof(got), "%.*s", (int)strcspn(s + 11, "\""), s + 11);
	TAP_EQ_STR(got, want, path);
}

static unsigned count(const char *doc, const char *s)
{
	unsigned n = 0;

	for (doc = strstr(doc, s); doc; doc = strstr(doc + 1, s))
		n++;
	return n;
}

static void load(struct bm_kcidb *k, const char *name, enum bm_status st)
{
	struct bm_results r;
	char dir[256], log[300];

	snprintf(dir, sizeof(dir), "%s/%s", tmp, name);
	snprintf(log, sizeof(log), "%s/results.log", dir);
	if (bm_results_load(&r, log, ""))
		tap_bail("cannot load a results.log");
	bm_classify(&r, NULL, BM_WATCH_NONE, NULL);
	r.status = st;
	if (bm_kcidb_add(k, dir, name, &r))
		tap_bail("bm_kcidb_add");
	bm_results_free(&r);
}

static void document(void)
{
	static struct bm_kcidb k;
	char *doc = NULL, *a, *b;
	size_t len = 0;
	FILE *f;

	boot_dir("a", META_A, records_hang);
	boot_dir("b", META_B, records_setup);
	bm_kcidb_init(&k, "bootmark", "configs");
	load(&k, "a", BM_ST_HANG);
	load(&k, "b", BM_ST_SETUP_FAILURE);
	f = open_memstream(&doc, &len);
	if (!f)
		tap_bail("open_memstream");
	TAP_EQ_INT(bm_kcidb_write(&k, f), 0, "the document is written");
	fclose(f);
	tap_ok(!bm_json_valid(doc, len), "the document is one JSON value");
	TAP_EQ_INT(k.nbuilds, 2, "a Debian package and a local build: two builds");
	TAP_EQ_INT(count(doc, "\"checkout_id\": "), 2, "one build per checkout");
	tap_ok(strstr(doc, "\"id\": \"bootmark:deb:linux-image-6.1.0-53-amd64=6.1.187-1\"") != NULL,
	       "the Debian kernel's id carries its package's version");
	tap_ok(strstr(doc, "\"id\": \"bootmark:local:6.1.0-53-amd64:d66b8bc4b8330f4e\"") != NULL,
	       "the local build's id carries its release and image hash");
	tap_ok(strstr(doc, "from bookworm-security") != NULL, "the checkout names the archive");

	/* the tests of boot A come first, then B's: split the text between them */
	a = doc;
	b = strstr(doc, "\"id\": \"bootmark:" RUN_B);
	if (!b)
		tap_bail("no test of boot B");
	b[-1] = '\0';
	status_of(a, "bootmark.ext4.dd.dd64w.real", "ERROR");
	tap_ok(strstr(a, "\"value\": 1.5") && strstr(a, "\"unit\": \"MB/s\""),
	       "a value measured on a hung boot keeps its number and unit");
	status_of(a, "bootmark.ext4.dd.dd64r", "FAIL");
	tap_ok(strstr(a, "class=bench read: Input/output error") != NULL,
	       "the E record's message is the excerpt");
	status_of(a, "bootmark.ext4.dd.dd64rw", "MISS");
	status_of(a, "bootmark.xfs.dd.dd64w", "MISS");
	status_of(a, "bootmark.xfs.dd.dd64rw", "MISS");
	TAP_EQ_INT(count(a, "\"status\": \"MISS\""), 4, "the 4 planned tests that never ran: MISS");
	status_of(a, "bootmark", "FAIL");
	tap_ok(strstr(a, "\"duration\": 12.5") != NULL, "the boot's test lasts meta's seconds");

	status_of(b + 1, "bootmark.ext4.dd.dd64rw.bw", "DONE");
	status_of(b + 1, "bootmark.xfs", "ERROR");
	TAP_EQ_INT(count(b + 1, "\"status\": \"MISS\""), 0,
		   "an E record for all of xfs accounts for its tests");
	status_of(b + 1, "bootmark", "ERROR");
	TAP_EQ_INT(count(b + 1, "\"status\": \"DONE\""), 6, "3 tests x 2 metrics DONE");
	free(doc);
	bm_kcidb_free(&k);
}

static void statuses(void)
{
	static const struct {
		enum bm_status st;
		const char *want;
	} t[] = {
		{ BM_ST_COMPLETED, "PASS" },        { BM_ST_NO_CONSOLE, "ERROR" },
		{ BM_ST_NO_RUNNER, "ERROR" },       { BM_ST_INITRAMFS_ERROR, "ERROR" },
		{ BM_ST_PANIC, "FAIL" },            { BM_ST_KERNEL_WARNING, "FAIL" },
		{ BM_ST_HANG, "FAIL" },             { BM_ST_UNEXPECTED_REBOOT, "FAIL" },
		{ BM_ST_SETUP_FAILURE, "ERROR" },   { BM_ST_BENCH_ERROR, "ERROR" },
		{ BM_ST_PROTOCOL_ERROR, "ERROR" },  { BM_ST_DISK_REFUSED, "MISS" },
		{ BM_ST_TIMEOUT, "ERROR" },         { BM_ST_INFRA_ERROR, "MISS" },
		{ BM_ST_INTERRUPTED, "MISS" },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		TAP_EQ_STR(bm_kcidb_class_status(t[i].st), t[i].want, bm_status_name(t[i].st));
	TAP_EQ_STR(bm_kcidb_error_status("bench"), "FAIL", "E bench");
	TAP_EQ_STR(bm_kcidb_error_status("refused"), "MISS", "E refused");
	TAP_EQ_STR(bm_kcidb_error_status("setup"), "ERROR", "E setup");
	TAP_EQ_STR(bm_kcidb_error_status("module"), "ERROR", "E module");
	TAP_EQ_STR(bm_kcidb_worse("PASS", "MISS"), "MISS", "MISS over PASS");
	TAP_EQ_STR(bm_kcidb_worse("FAIL", "ERROR"), "FAIL", "FAIL over ERROR");
	TAP_EQ_STR(bm_kcidb_worse(NULL, "DONE"), "DONE", "anything over none");
	TAP_EQ_STR(bm_kcidb_worse("SKIP", NULL), "SKIP", "none over nothing");
}

static void names(void)
{
	char buf[32];

	tap_ok(bm_kcidb_origin_ok("bootmark") && bm_kcidb_origin_ok("lab_17"), "good origins");
	tap_ok(!bm_kcidb_origin_ok("") && !bm_kcidb_origin_ok("Lab") &&
	       !bm_kcidb_origin_ok("a-b") && !bm_kcidb_origin_ok("a:b"), "bad origins refused");
	bm_kcidb_path_part(buf, sizeof(buf), "dd32w.v2 x/y");
	TAP_EQ_STR(buf, "dd32w_v2_x_y", "a path part keeps [a-zA-Z0-9_-] only");
	bm_kcidb_path_part(buf, sizeof(buf), "");
	TAP_EQ_STR(buf, "_", "a path part is never empty");
}

static void rm_tree(void)
{
	const char *const files[] = { "a/results.log", "a/meta.json", "b/results.log",
				      "b/meta.json" };
	char path[256];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", tmp, files[i]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/a", tmp);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/b", tmp);
	rmdir(path);
	rmdir(tmp);
}

int main(void)
{
	tap_plan(0);
	if (!mkdtemp(tmp))
		tap_bail("mkdtemp");
	statuses();
	names();
	document();
	rm_tree();
	return tap_done();
}
