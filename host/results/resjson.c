// SPDX-License-Identifier: MIT
/* results.json (any backend's, and parse --out's) and meta.json's watchdog names. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot.h"
#include "json.h"
#include "util.h"
#include "schema.h"

static const char *const watch_names[] = {
	[BM_WATCH_NONE] = "none", [BM_WATCH_EXITED] = "exited",
	[BM_WATCH_SILENCE] = "silence-timeout", [BM_WATCH_TIMEOUT] = "hard-timeout",
	[BM_WATCH_PANIC] = "panic", [BM_WATCH_NOSTART] = "not-started",
	[BM_WATCH_INTERRUPTED] = "interrupted", [BM_WATCH_HOSTIO] = "host-io-error",
};

const char *bm_watch_name(enum bm_watch w)
{
	return (unsigned)w < sizeof(watch_names) / sizeof(watch_names[0]) ? watch_names[w] : "none";
}

int bm_watch_parse(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(watch_names) / sizeof(watch_names[0]); i++)
		if (watch_names[i] && !strcmp(watch_names[i], name))
			return (int)i;
	return -1;
}

/* Writes through a memory stream, then atomically to path. */
int bm_write_json(const char *path, void (*fn)(FILE *, const void *), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f)
		return -errno;
	fn(f, arg);
	if (fclose(f))
		return -errno;
	rc = bm_write_file_atomic(path, buf, len);
	free(buf);
	return rc;
}

static void record(struct bm_json *j, const struct bm_rres *h)
{
	unsigned i;

	bm_json_obj_begin(j);
	bm_json_kint(j, "seq", (long long)h->seq);
	bm_json_kstr(j, "wl", h->wl);
	bm_json_kstr(j, "test", h->test);
	bm_json_kstr(j, "fs", h->fs);
	bm_json_kint(j, "rep", h->rep);
	bm_json_kstr(j, "params", h->params);
	bm_json_kstr(j, "mkfs", h->mkfs);
	bm_json_kstr(j, "mount", h->mount);
	bm_json_key(j, "partial");
	bm_json_bool(j, h->partial);
	bm_json_key(j, "metrics");
	bm_json_arr_begin(j);
	for (i = 0; i < h->nm; i++) {
		bm_json_obj_begin(j);
		bm_json_kstr(j, "name", h->m[i].name);
		bm_json_knum(j, "value", h->m[i].value);
		bm_json_kstr(j, "unit", h->m[i].unit);
		bm_json_obj_end(j);
	}
	bm_json_arr_end(j);
	bm_json_obj_end(j);
}

static void error_rec(struct bm_json *j, const struct bm_herr *e)
{
	bm_json_obj_begin(j);
	bm_json_kint(j, "seq", (long long)e->seq);
	bm_json_kstr(j, "class", e->cls);
	bm_json_kstr(j, "msg", e->msg);
	bm_json_kstr(j, "fs", e->fs);
	bm_json_kstr(j, "test", e->test);
	bm_json_kint(j, "rep", e->rep);
	bm_json_obj_end(j);
}

static void protocol(struct bm_json *j, const struct bm_results *r)
{
	bm_json_key(j, "protocol");
	bm_json_obj_begin(j);
	bm_json_kint(j, "max_seq", (long long)r->max_seq);
	bm_json_kint(j, "bad_crc", r->bad_crc);
	bm_json_kint(j, "foreign", r->foreign);
	bm_json_kint(j, "conflicts", r->conflicts);
	bm_json_kint(j, "hellos", r->hellos);
	bm_json_key(j, "complete");
	bm_json_bool(j, r->stream_rc == 0);
	bm_json_kstr(j, "problem", r->stream_rc ? r->stream_why : "");
	bm_json_obj_end(j);
}

void bm_results_json(FILE *f, const struct bm_results *r)
{
	struct bm_json j;
	size_t i;

	bm_json_init(&j, f, 1);
	bm_json_obj_begin(&j);
	bm_json_kstr(&j, "schema", BM_SCHEMA_RESULTS);
	bm_json_kstr(&j, "run", r->run);
	bm_json_kstr(&j, "source", r->source);
	bm_json_kstr(&j, "status", bm_status_name(r->status));
	bm_json_kstr(&j, "status_why", r->status_why);
	bm_json_kint(&j, "kernel_warnings", r->kernel_warnings);
	bm_json_kstr(&j, "kernel_warning_first", r->kernel_warning_first);
	bm_json_key(&j, "hello");
	if (r->have_hello) {
		bm_json_obj_begin(&j);
		for (i = 0; i < r->hello.nkv; i++)
			bm_json_kstr(&j, r->hello.kv[i].key, r->hello.kv[i].val);
		bm_json_obj_end(&j);
	} else {
		bm_json_null(&j);
	}
	bm_json_key(&j, "records");
	bm_json_arr_begin(&j);
	for (i = 0; i < r->nres; i++)
		record(&j, &r->res[i]);
	bm_json_arr_end(&j);
	bm_json_key(&j, "errors");
	bm_json_arr_begin(&j);
	for (i = 0; i < r->nerr; i++)
		error_rec(&j, &r->err[i]);
	bm_json_arr_end(&j);
	bm_json_key(&j, "end");
	if (r->have_end) {
		bm_json_obj_begin(&j);
		bm_json_kint(&j, "results", r->end_results);
		bm_json_kint(&j, "errors", r->end_errors);
		bm_json_key(&j, "tests");
		if (r->end_tests >= 0)
			bm_json_int(&j, r->end_tests);
		else
			bm_json_null(&j);
		bm_json_kint(&j, "raw", r->end_raw);
		bm_json_obj_end(&j);
	} else {
		bm_json_null(&j);
	}
	protocol(&j, r);
	bm_json_obj_end(&j);
}

static void results_body(FILE *f, const void *arg)
{
	bm_results_json(f, arg);
}

int bm_write_results_json(const char *path, const struct bm_results *r)
{
	return bm_write_json(path, results_body, r);
}
