// SPDX-License-Identifier: MIT
/*
 * aio's description (wldesc.h): its options, the tests a job expands into
 * and their labels, its metrics and headline.  The engine is wl_aio.c and
 * aio_*.c.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "opts.h"
#include "wl_aio.h"
#include "wldesc.h"

int aio_fsizes_parse(const char *list, uint32_t *out, int max)
{
	char buf[64], *save = NULL, *tok;
	uint64_t v;
	int n = 0;

	if (strlen(list) >= sizeof(buf) || !*list || list[strlen(list) - 1] == ',' ||
	    strstr(list, ",,") || *list == ',')
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == max || bm_parse_size(tok, &v) || !v || v % AIO_BS || v > AIO_FSIZE_MAX)
			return -EINVAL;
		out[n++] = (uint32_t)v;
	}
	return n ? n : -EINVAL;
}

int aio_order_of(const struct aio_opts *o)
{
	return strcmp(o->order, "random") ? AIO_SEQ : AIO_RANDOM;
}

const char *const aio_engine_names[] = { "libaio", "io_uring", NULL };

static const char *const aio_cache_names[] = { "cold", "warm", NULL };

static const char *const aio_order_names[] = { "seq", "random", NULL };

static const struct bm_opt aio_opts_tab[] = {
	{ .name = "files", .type = BM_OPT_INT, .off = offsetof(struct aio_opts, files),
	  .def = "1000", .min = 1, .max = AIO_FILES_MAX, .help = "files, each read once" },
	{ .name = "fsize", .type = BM_OPT_LIST, .off = offsetof(struct aio_opts, fsize),
	  .len = sizeof(((struct aio_opts *)0)->fsize), .def = "40k,128k",
	  .help = "file sizes, multiples of 4k, one set of tests each" },
	{ .name = "qd", .type = BM_OPT_INT, .off = offsetof(struct aio_opts, qd),
	  .def = "16", .min = 1, .max = AIO_QD_MAX, .help = "4 KiB reads in flight per file" },
	{ .name = "threads", .type = BM_OPT_INT, .off = offsetof(struct aio_opts, threads),
	  .def = "4", .min = 1, .max = AIO_THREADS_MAX, .help = "reading threads" },
	{ .name = "engine", .type = BM_OPT_LIST, .off = offsetof(struct aio_opts, engine),
	  .len = sizeof(((struct aio_opts *)0)->engine), .def = "libaio,io_uring",
	  .choices = aio_engine_names, .help = "interfaces, a test each" },
	{ .name = "direct", .type = BM_OPT_BOOL, .off = offsetof(struct aio_opts, direct),
	  .def = "1", .help = "O_DIRECT (buffered, with an E record, if refused)" },
	{ .name = "cache", .type = BM_OPT_LIST, .off = offsetof(struct aio_opts, cache),
	  .len = sizeof(((struct aio_opts *)0)->cache), .def = "cold",
	  .choices = aio_cache_names, .help = "cold (dropped) and/or warm (read once first)" },
	{ .name = "order", .type = BM_OPT_STR, .off = offsetof(struct aio_opts, order),
	  .len = sizeof(((struct aio_opts *)0)->order), .def = "seq",
	  .choices = aio_order_names,
	  .help = "blocks of a file in file order, or shuffled (fio's randread)" },
	BM_OPT_END
};

int aio_test_of(const struct aio_opts *o, int idx, struct aio_test *t)
{
	uint32_t sz[AIO_FSIZES_MAX];
	int ns = aio_fsizes_parse(o->fsize, sz, AIO_FSIZES_MAX), ne, nc, per;

	if (ns < 0 || idx < 0)
		return -EINVAL;
	ne = bm_list_count(o->engine);
	nc = bm_list_count(o->cache);
	per = ns * nc;
	if (!per || idx >= ne * per)
		return -EINVAL;
	t->engine = bm_list_item(o->engine, idx / per, aio_engine_names);
	t->fsize = sz[idx % per / nc];
	t->cache = bm_list_item(o->cache, idx % nc, aio_cache_names);
	t->random = aio_order_of(o) == AIO_RANDOM;
	return t->engine < 0 || t->cache < 0 ? -EINVAL : 0;
}

static int aio_check(const void *opts, char *err, size_t errlen)
{
	const struct aio_opts *o = opts;
	uint32_t sz[AIO_FSIZES_MAX];

	if (aio_fsizes_parse(o->fsize, sz, AIO_FSIZES_MAX) < 0) {
		snprintf(err, errlen, "option 'fsize': \"%s\" is not a comma list of at most %d "
			 "sizes, each a multiple of 4k up to 64M", o->fsize, AIO_FSIZES_MAX);
		return -EINVAL;
	}
	return 0;
}

static int aio_ntests(const void *opts)
{
	struct aio_test t;
	int n = 0;

	while (aio_test_of(opts, n, &t) == 0)
		n++;
	return n;
}

static void fmt_k(char *buf, size_t len, uint32_t v)
{
	if (v % (1u << 20) == 0)
		snprintf(buf, len, "%uM", v >> 20);
	else
		snprintf(buf, len, "%uk", v >> 10);
}

void aio_label(char *buf, size_t len, const struct aio_test *t)
{
	char sz[16];

	fmt_k(sz, sizeof(sz), t->fsize);
	/* the label's word is the engine's (aio_libaio.c, aio_uring.c .name) */
	snprintf(buf, len, "aio-%s-%s%s%s", t->engine == AIO_URING ? "uring" : "libaio", sz,
		 t->cache == AIO_WARM ? "-warm" : "", t->random ? "-rand" : "");
}

static int aio_describe(const void *opts, int idx, struct bm_result *r)
{
	const struct aio_opts *o = opts;
	struct aio_test t;
	char sz[16];

	if (aio_test_of(o, idx, &t))
		return -EINVAL;
	fmt_k(sz, sizeof(sz), t.fsize);
	snprintf(r->wl, sizeof(r->wl), "aio");
	aio_label(r->test, sizeof(r->test), &t);
	/* order=seq, the default, adds nothing: earlier records stay comparable */
	snprintf(r->params, sizeof(r->params),
		 "engine=%s files=%lld fsize=%s qd=%lld threads=%lld direct=%d cache=%s%s",
		 aio_engine_names[t.engine], o->files, sz, o->qd, o->threads, o->direct,
		 aio_cache_names[t.cache], t.random ? " order=random" : "");
	return 0;
}

static const struct bm_wl_metric aio_metrics[] = {
	{ "files_s", "files/s", BM_BETTER_HIGHER },
	{ "rate", "MiB/s", BM_BETTER_HIGHER },
	{ "time", "s", BM_BETTER_LOWER },
	{ "cpu", "%", BM_BETTER_LOWER },
	{ "lat_avg", "ms", BM_BETTER_LOWER },
	{ "lat_max", "ms", BM_BETTER_LOWER },
	{ "lat_p99", "ms", BM_BETTER_LOWER },
	{ "files", "count", BM_BETTER_NONE },
	{ "iocbs", "count", BM_BETTER_NONE },
	{ "submits", "count", BM_BETTER_NONE },
	{ "direct", "count", BM_BETTER_NONE },
	{ NULL, NULL, BM_BETTER_NONE },
};

const struct bm_wl_desc wl_aio_desc = {
	.name = "aio",
	.opts = aio_opts_tab,
	.opts_size = sizeof(struct aio_opts),
	.check = aio_check,
	.ntests = aio_ntests,
	.describe = aio_describe,
	.metrics = aio_metrics,
	.headline = "files_s",
	.report = &report_aio_ops,
	.example = "files=20 fsize=40k qd=8 threads=1 direct=0",
	/* files=1 threads=1 engine=libaio against fio --ioengine=libaio: the refill
	 * is one io_submit of what a reap freed, fio submits a refill as it frees;
	 * fio's parent stat()s the file as it sets the job up */
	.traced = "fio 3.33 (ioengine=libaio); batch-refill setup-stat",
};
