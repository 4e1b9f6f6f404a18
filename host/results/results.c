// SPDX-License-Identifier: MIT
/* Protocol stream -> results model -> status. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "text.h"

/* The contract of docs/exit-codes.md: name and exit code of every class. */
static const struct {
	const char *name;
	int exit;
} classes[] = {
	[BM_ST_COMPLETED] = { "completed", 0 },
	[BM_ST_NO_CONSOLE] = { "no-console", 10 },
	[BM_ST_NO_RUNNER] = { "no-runner", 11 },
	[BM_ST_INITRAMFS_ERROR] = { "initramfs-error", 12 },
	[BM_ST_PANIC] = { "panic", 13 },
	[BM_ST_KERNEL_WARNING] = { "kernel-warning", 14 },
	[BM_ST_HANG] = { "hang", 15 },
	[BM_ST_UNEXPECTED_REBOOT] = { "unexpected-reboot", 16 },
	[BM_ST_SETUP_FAILURE] = { "setup-failure", 17 },
	[BM_ST_BENCH_ERROR] = { "bench-error", 18 },
	[BM_ST_PROTOCOL_ERROR] = { "protocol-error", 19 },
	[BM_ST_DISK_REFUSED] = { "disk-refused", 20 },
	[BM_ST_TIMEOUT] = { "timeout", 21 },
	[BM_ST_INFRA_ERROR] = { "infra-error", 111 },
	[BM_ST_INTERRUPTED] = { "interrupted", 22 },
};

const char *bm_status_name(enum bm_status st)
{
	if ((unsigned)st >= sizeof(classes) / sizeof(classes[0]))
		return "unknown";
	return classes[st].name;
}

int bm_status_parse(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (classes[i].name && !strcmp(classes[i].name, name))
			return (int)i;
	return -1;
}

int bm_status_exit(enum bm_status st)
{
	if ((unsigned)st >= sizeof(classes) / sizeof(classes[0]))
		return 111;
	return classes[st].exit;
}

int bm_status_ran(enum bm_status st)
{
	return st == BM_ST_COMPLETED || st == BM_ST_KERNEL_WARNING ||
	       st == BM_ST_SETUP_FAILURE || st == BM_ST_BENCH_ERROR;
}

int bm_status_usable(enum bm_status st)
{
	return bm_status_ran(st) || st == BM_ST_PROTOCOL_ERROR;
}

void bm_stream_feed_text(struct bm_stream *s, const char *text, size_t len)
{
	size_t start = 0, i;

	for (i = 0; i <= len; i++) {
		size_t end = i;

		if (i < len && text[i] != '\n' && text[i] != '\r')
			continue;
		if (end > start)
			bm_stream_feed(s, text + start, end - start);
		start = i + 1;
	}
}

/* Guest text: copied made safe to print (text.h). */
static void copy_val(char *dst, size_t len, const char *v)
{
	bm_text_safe(dst, len, v ? v : "", v ? strlen(v) : 0, 0);
}

/* The capacity to grow an array holding n elements to, 0 when it has room:
 * capacities go 8, 16, 32 ..., so n appends cost O(n), not O(n^2). */
static size_t grow_to(size_t n)
{
	if (n < 8 ? n != 0 : (n & (n - 1)) != 0)
		return 0;
	return n ? 2 * n : 8;
}

/* The strings of a result, guest text, made safe to print. */
static void clean_result(struct bm_rres *h)
{
	unsigned i;

	bm_text_clean(h->wl, 0);
	bm_text_clean(h->test, 0);
	bm_text_clean(h->fs, 0);
	bm_text_clean(h->params, 0);
	bm_text_clean(h->mkfs, 0);
	bm_text_clean(h->mount, 0);
	for (i = 0; i < h->nm; i++)
		bm_text_clean(h->m[i].unit, 0);
}

static int add_result(struct bm_results *r, const struct bm_record *rec)
{
	struct bm_rres *h;
	size_t cap;
	int rc;

	if (r->nres >= BM_RESULTS_MAX) {
		r->unkept_res++;
		return 0;
	}
	if ((cap = grow_to(r->nres))) {
		h = realloc(r->res, cap * sizeof(*h));
		if (!h)
			return -ENOMEM;
		r->res = h;
	}
	h = &r->res[r->nres++];
	rc = bm_rres_from_record(h, rec);
	bm_rres_keep_measurements(h, rec);
	clean_result(h);
	return rc;
}

static int add_error(struct bm_results *r, const struct bm_record *rec)
{
	struct bm_herr *e;
	const char *v;
	size_t cap;

	if (r->nerr >= BM_RESULTS_MAX) {
		r->unkept_err++;
		return 0;
	}
	if ((cap = grow_to(r->nerr))) {
		e = realloc(r->err, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		r->err = e;
	}
	e = &r->err[r->nerr++];
	memset(e, 0, sizeof(*e));
	e->seq = rec->seq;
	copy_val(e->cls, sizeof(e->cls), bm_rec_get(rec, "class"));
	copy_val(e->msg, sizeof(e->msg), bm_rec_get(rec, "msg"));
	copy_val(e->fs, sizeof(e->fs), bm_rec_get(rec, "fs"));
	copy_val(e->test, sizeof(e->test), bm_rec_get(rec, "test"));
	v = bm_rec_get(rec, "rep");
	e->rep = v ? atoi(v) : 0;
	return 0;
}

static void add_hello(struct bm_results *r, const struct bm_record *rec)
{
	unsigned i;

	r->hello = *rec;
	r->have_hello = 1;
	for (i = 0; i < r->hello.nkv; i++)
		bm_text_clean(r->hello.kv[i].val, 0);
}

static int add_record(struct bm_results *r, const struct bm_record *rec)
{
	char why[sizeof(r->bad_value)];
	const char *v;

	if (bm_rec_values_check(rec, why, sizeof(why)) && !r->bad_values++)
		copy_val(r->bad_value, sizeof(r->bad_value), why);
	switch (rec->type) {
	case BM_REC_HELLO:
		if (!r->have_hello)
			add_hello(r, rec);
		return 0;
	case BM_REC_RESULT:
		return add_result(r, rec);
	case BM_REC_ERROR:
		return add_error(r, rec);
	case BM_REC_END:
		r->have_end = 1;
		v = bm_rec_get(rec, "results");
		r->end_results = v ? atoll(v) : -1;
		v = bm_rec_get(rec, "errors");
		r->end_errors = v ? atoll(v) : -1;
		v = bm_rec_get(rec, "tests");
		r->end_tests = v && *v >= '0' && *v <= '9' ? atoll(v) : -1;
		v = bm_rec_get(rec, "raw");
		r->end_raw = v && *v >= '0' && *v <= '9' ? atoll(v) : 0;
		return 0;
	default:
		return 0;
	}
}

/* The stream's reason, with what the host found wrong put first: records
 * past what a boot keeps, values that are no measurements. */
static void host_findings(struct bm_results *r)
{
	char first[200], old[sizeof(r->stream_why)];
	long long arrived = (long long)r->nres + r->unkept_res;

	if (r->end_tests >= 0 && arrived > r->end_tests && !r->bad_values++)
		snprintf(r->bad_value, sizeof(r->bad_value), "END's tests=%lld plans fewer tests "
			 "than the %lld result records that arrived", r->end_tests, arrived);
	if (r->unkept_res || r->unkept_err)
		snprintf(first, sizeof(first), "%u result and %u error records past the %d of "
			 "each a boot may hold were not kept (docs/reliability.md)", r->unkept_res,
			 r->unkept_err, BM_RESULTS_MAX);
	else if (r->bad_values)
		snprintf(first, sizeof(first), "%.170s%s", r->bad_value,
			 r->bad_values > 1 ? " (and more such values)" : "");
	else
		return;
	snprintf(old, sizeof(old), "%s", r->stream_rc ? r->stream_why : "");
	snprintf(r->stream_why, sizeof(r->stream_why), "%.199s%s%.50s", first, old[0] ? "; " : "",
		 old);
	r->stream_rc = -EPROTO;
}

int bm_results_from_stream(struct bm_results *r, const struct bm_stream *s)
{
	uint64_t seq;
	int rc;

	memset(r, 0, sizeof(*r));
	snprintf(r->run, sizeof(r->run), "%s", s->run);
	r->end_tests = -1;
	r->max_seq = s->max_seq;
	r->bad_crc = s->bad_crc;
	r->foreign = s->foreign;
	r->conflicts = s->conflicts;
	r->hellos = s->hellos;
	r->stream_rc = bm_stream_check(s, r->stream_why, sizeof(r->stream_why));
	/* the reason may quote a record's value: guest text */
	bm_text_clean(r->stream_why, 0);
	for (seq = 1; seq <= s->max_seq; seq++) {
		const struct bm_record *rec = bm_stream_get(s, seq);

		if (!rec)
			continue;
		rc = add_record(r, rec);
		if (rc)
			return rc;
	}
	host_findings(r);
	return 0;
}

static int feed_cb(void *arg, const char *line, size_t len, uint64_t off)
{
	bm_stream_feed_text(arg, line, len);
	return 0;
}

int bm_results_load(struct bm_results *r, const char *path, const char *run)
{
	struct bm_stream s;
	uint64_t size;
	int rc;

	/* in pieces: what is kept of the log costs memory, not the log */
	bm_stream_init(&s, run ? run : "");
	rc = bm_log_lines(path, feed_cb, &s, &size);
	if (!rc)
		rc = bm_results_from_stream(r, &s);
	bm_stream_free(&s);
	return rc;
}

void bm_results_empty(struct bm_results *r, const char *run)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->run, sizeof(r->run), "%s", run ? run : "");
	r->end_tests = -1;
	r->stream_rc = -ENODATA;
	snprintf(r->stream_why, sizeof(r->stream_why), "no records");
}

void bm_results_free(struct bm_results *r)
{
	free(r->res);
	free(r->err);
	r->res = NULL;
	r->err = NULL;
	r->nres = r->nerr = 0;
}

const char *bm_hello_get(const struct bm_results *r, const char *key)
{
	return r->have_hello ? bm_rec_get(&r->hello, key) : NULL;
}
