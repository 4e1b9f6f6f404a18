// SPDX-License-Identifier: MIT
/*
 * rawio's description (wldesc.h): its options, the tests a job expands into
 * and their labels, its metrics and headline, and that every job of it runs
 * on the test disk itself (raw).  The engine is wl_rawio.c and rawio_*.c.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "wl_rawio.h"
#include "wldesc.h"

const char *const rawio_engine_names[] = {
	"psync", "libaio", "io_uring", "sqpoll", "fixedbufs", "hipri", "uring_cmd",
	"uring_cmd_hipri", NULL
};

const char *const rawio_engine_words[] = {
	"psync", "libaio", "uring", "sqpoll", "fixed", "hipri", "nvme", "nvmehi", NULL
};

static const char *const rawio_rw_names[] = { "randread", "randwrite", NULL };

int rawio_engine_polled(int engine)
{
	return engine == RIO_HIPRI || engine == RIO_NVMEHI;
}

int rawio_engine_nvme(int engine)
{
	return engine == RIO_NVME || engine == RIO_NVMEHI;
}

static const struct bm_opt rawio_opts_tab[] = {
	{ .name = "engine", .type = BM_OPT_LIST, .off = offsetof(struct rawio_opts, engine),
	  .len = sizeof(((struct rawio_opts *)0)->engine), .def = "psync,libaio,io_uring",
	  .choices = rawio_engine_names,
	  .help = "interfaces, a set of tests each (fio's engines: docs/workloads.md)" },
	{ .name = "rw", .type = BM_OPT_LIST, .off = offsetof(struct rawio_opts, rw),
	  .len = sizeof(((struct rawio_opts *)0)->rw), .def = "randread",
	  .choices = rawio_rw_names, .help = "random reads and/or writes, a set of tests each" },
	{ .name = "bs", .type = BM_OPT_SIZE, .off = offsetof(struct rawio_opts, bs),
	  .def = "4k", .min = 512, .max = RIO_BS_MAX,
	  .help = "block size, a multiple of 512 and of the disk's logical block" },
	{ .name = "qd", .type = BM_OPT_STR, .off = offsetof(struct rawio_opts, qd),
	  .len = sizeof(((struct rawio_opts *)0)->qd), .def = "1,32",
	  .help = "queue depths (powers of two up to 512), a test each" },
	{ .name = "batch", .type = BM_OPT_STR, .off = offsetof(struct rawio_opts, batch),
	  .len = sizeof(((struct rawio_opts *)0)->batch), .def = "1",
	  .help = "S or SxC: submit S, wait for and reap C at a time (S=C for S), a test each" },
	{ .name = "ios", .type = BM_OPT_INT, .off = offsetof(struct rawio_opts, ios),
	  .def = "20000", .min = 1, .max = 1ll << 40, .help = "I/Os per test" },
	{ .name = "size", .type = BM_OPT_SIZE, .off = offsetof(struct rawio_opts, size),
	  .def = "0", .min = 0, .max = 0,
	  .help = "region from offset 0 (0: the whole disk); host mode: the file's size" },
	BM_OPT_END
};

int rawio_depths_parse(const char *list, unsigned *qd, int max)
{
	int n = bm_parse_uint_list(list, qd, max, 1, RIO_QD_MAX), i;

	for (i = 0; i < n; i++)
		if (qd[i] & (qd[i] - 1))
			return -EINVAL;
	return n;
}

int rawio_batches_parse(const char *list, unsigned *sub, unsigned *comp, int max)
{
	char buf[64], *save = NULL, *tok, *x, *end;
	unsigned long s, c;
	int n = 0;

	if (!*list || strlen(list) >= sizeof(buf) || *list == ',' ||
	    list[strlen(list) - 1] == ',' || strstr(list, ",,"))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == max || *tok < '0' || *tok > '9')
			return -EINVAL;
		s = strtoul(tok, &end, 10);
		x = end;
		c = s;
		if (*x == 'x') {
			if (x[1] < '0' || x[1] > '9')
				return -EINVAL;
			c = strtoul(x + 1, &end, 10);
		}
		if (*end || !s || !c || s > RIO_QD_MAX || c > RIO_QD_MAX)
			return -EINVAL;
		sub[n] = (unsigned)s;
		comp[n++] = (unsigned)c;
	}
	return n;
}

/* Calls fn for every test in order until it returns non-zero; the count. */
static int each_test(const struct rawio_opts *o, int (*fn)(const struct rawio_test *, void *),
		     void *arg)
{
	unsigned qd[RIO_LIST_MAX], sub[RIO_LIST_MAX], comp[RIO_LIST_MAX];
	int nq = rawio_depths_parse(o->qd, qd, RIO_LIST_MAX);
	int nb = rawio_batches_parse(o->batch, sub, comp, RIO_LIST_MAX);
	int ne = bm_list_count(o->engine), nw = bm_list_count(o->rw), e, w, q, b, n = 0;
	struct rawio_test t;

	if (nq < 0 || nb < 0)
		return 0;
	for (e = 0; e < ne; e++) {
		t.engine = bm_list_item(o->engine, e, rawio_engine_names);
		for (w = 0; w < nw && t.engine >= 0; w++) {
			t.write = bm_list_item(o->rw, w, rawio_rw_names) == 1;
			if (t.engine == RIO_PSYNC) {
				t.qd = t.submit = t.complete = 1;
				n++;
				if (fn(&t, arg))
					return n;
				continue;
			}
			for (q = 0; q < nq; q++)
				for (b = 0; b < nb; b++) {
					if (sub[b] > qd[q] || comp[b] > qd[q])
						continue;
					t.qd = qd[q];
					t.submit = sub[b];
					t.complete = comp[b];
					n++;
					if (fn(&t, arg))
						return n;
				}
		}
	}
	return n;
}

struct find_arg {
	int want, at;
	struct rawio_test *t;
};

static int find_one(const struct rawio_test *t, void *arg)
{
	struct find_arg *f = arg;

	if (f->at++ != f->want)
		return 0;
	*f->t = *t;
	return 1;
}

static int count_one(const struct rawio_test *t, void *arg)
{
	return 0;
}

int rawio_test_of(const struct rawio_opts *o, int idx, struct rawio_test *t)
{
	struct find_arg f = { .want = idx, .at = 0, .t = t };

	if (idx < 0)
		return -EINVAL;
	return each_test(o, find_one, &f) == idx + 1 && f.at == idx + 1 ? 0 : -EINVAL;
}

static int rawio_ntests(const void *opts)
{
	return each_test(opts, count_one, NULL);
}

static int rawio_check(const void *opts, char *err, size_t errlen)
{
	const struct rawio_opts *o = opts;
	unsigned a[RIO_LIST_MAX], b[RIO_LIST_MAX];

	if (rawio_depths_parse(o->qd, a, RIO_LIST_MAX) < 0) {
		snprintf(err, errlen, "option 'qd': \"%s\" is not a comma list of at most %d powers "
			 "of two up to %d (fio rounds io_uring's depth up to one)", o->qd,
			 RIO_LIST_MAX, RIO_QD_MAX);
		return -EINVAL;
	}
	if (rawio_batches_parse(o->batch, a, b, RIO_LIST_MAX) < 0) {
		snprintf(err, errlen, "option 'batch': \"%s\" is not a comma list of at most %d "
			 "items S or SxC, each from 1 to %d", o->batch, RIO_LIST_MAX, RIO_QD_MAX);
		return -EINVAL;
	}
	if (o->bs % 512) {
		snprintf(err, errlen, "option 'bs': not a multiple of 512");
		return -EINVAL;
	}
	if (o->size && o->size < o->bs) {
		snprintf(err, errlen, "option 'size': smaller than bs");
		return -EINVAL;
	}
	return 0;
}

void rawio_label(char *buf, size_t len, const struct rawio_test *t, uint64_t bs)
{
	char sz[16], b[24] = "";

	bm_fmt_size(sz, sizeof(sz), bs, "kMG");
	if (t->submit != t->complete)
		snprintf(b, sizeof(b), "-b%ux%u", t->submit, t->complete);
	else if (t->submit > 1)
		snprintf(b, sizeof(b), "-b%u", t->submit);
	snprintf(buf, len, "raw-%s-%c%s-q%u%s", rawio_engine_words[t->engine],
		 t->write ? 'w' : 'r', sz, t->qd, b);
}

static int rawio_describe(const void *opts, int idx, struct bm_result *r)
{
	const struct rawio_opts *o = opts;
	struct rawio_test t;
	char bs[16], size[24];

	if (rawio_test_of(o, idx, &t))
		return -EINVAL;
	bm_fmt_size(bs, sizeof(bs), o->bs, "kMG");
	bm_fmt_size(size, sizeof(size), o->size, "kMGT");
	snprintf(r->wl, sizeof(r->wl), "rawio");
	rawio_label(r->test, sizeof(r->test), &t, o->bs);
	snprintf(r->params, sizeof(r->params),
		 "engine=%s rw=%s bs=%s qd=%u batch=%ux%u ios=%lld size=%s",
		 rawio_engine_names[t.engine], rawio_rw_names[t.write], bs, t.qd, t.submit,
		 t.complete, o->ios, size);
	return 0;
}

static int rawio_raw(const void *opts)
{
	return 1;
}

static const struct bm_wl_metric rawio_metrics[] = {
	{ "iops", "ops/s", BM_BETTER_HIGHER },
	{ "bw", "MiB/s", BM_BETTER_HIGHER },
	{ "lat_avg", "ms", BM_BETTER_LOWER },
	{ "lat_p50", "ms", BM_BETTER_LOWER },
	{ "lat_p99", "ms", BM_BETTER_LOWER },
	{ "lat_p999", "ms", BM_BETTER_LOWER },
	{ "lat_max", "ms", BM_BETTER_LOWER },
	{ "clat_avg", "ms", BM_BETTER_LOWER },
	{ "clat_p50", "ms", BM_BETTER_LOWER },
	{ "clat_p99", "ms", BM_BETTER_LOWER },
	{ "clat_p999", "ms", BM_BETTER_LOWER },
	{ "slat_avg", "ms", BM_BETTER_LOWER },
	{ "cpu_io", "us", BM_BETTER_LOWER },
	{ "cpu_io_all", "us", BM_BETTER_LOWER },
	{ "usr", "%", BM_BETTER_NONE },
	{ "sys", "%", BM_BETTER_NONE },
	{ "time", "s", BM_BETTER_LOWER },
	{ "ios", "count", BM_BETTER_NONE },
	{ "submits", "count", BM_BETTER_NONE },
	{ "waits", "count", BM_BETTER_NONE },
	{ NULL, NULL, BM_BETTER_NONE },
};

static const struct bm_wl_plot rawio_plots[] = {
	{ .metric = "iops", .prefix = "raw-", .name = "rawio IOPS", .xlabel = "test", .bars = 1 },
	{ .metric = "cpu_io", .prefix = "raw-", .name = "rawio CPU per I/O", .xlabel = "test",
	  .bars = 1 },
	{ .metric = NULL },
};

const struct bm_wl_desc wl_rawio_desc = {
	.name = "rawio",
	.opts = rawio_opts_tab,
	.opts_size = sizeof(struct rawio_opts),
	.check = rawio_check,
	.ntests = rawio_ntests,
	.describe = rawio_describe,
	.metrics = rawio_metrics,
	.headline = "iops",
	.plots = rawio_plots,
	.report = &report_rawio_ops,
	.raw = rawio_raw,
	.example = "engine=psync,libaio,io_uring,fixedbufs rw=randread,randwrite size=4M ios=300 qd=1,8 batch=1,4",
};
