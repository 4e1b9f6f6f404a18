// SPDX-License-Identifier: MIT
/*
 * fio's terse output, version 3 (fio's HOWTO, "Terse output"): one line of
 * ';'-separated fields per job.  Fields 1-5: terse version, fio version,
 * job name, group, error; 6-46 the read group, 47-87 the write group (each:
 * KiB, bandwidth KiB/s, IOPS, runtime ms, then latencies, percentiles and
 * bandwidth statistics); 88-92 CPU: usr %, sys %, context switches, major
 * and minor faults; then I/O depths, latency buckets and disk utilisation
 * (absent when fio finds no disk).  Also the argv the workload runs.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "wl_fio.h"

#define TERSE_MIN_FIELDS 121   /* up to the last latency bucket */
#define TERSE_FIELDS_MAX 160

enum { F_VERSION = 2, F_ERROR = 5, F_READ = 6, F_WRITE = 47, F_USR = 88, F_SYS = 89 };

/* "11.485149%" or "506" -> value; 0 or -EINVAL */
static int num(const char *s, double *v)
{
	char *end;

	if (!*s)
		return -EINVAL;
	*v = strtod(s, &end);
	if (end == s || (*end && strcmp(end, "%")))
		return -EINVAL;
	return 0;
}

/* Splits the line at p (up to '\n') into f[1..]: the count of fields. */
static int split(const char *p, char *buf, size_t len, char **f, int max)
{
	size_t n = strcspn(p, "\n");
	char *s;
	int k = 0;

	if (n >= len)
		return -EINVAL;
	memcpy(buf, p, n);
	buf[n] = '\0';
	for (s = buf; k + 1 < max; ) {
		f[++k] = s;
		s = strchr(s, ';');
		if (!s)
			break;
		*s++ = '\0';
	}
	return k;
}

int fio_terse_parse(const char *text, int write, struct fio_terse *t)
{
	char buf[8192];   /* one job's line is about 1.2 KB */
	char *f[TERSE_FIELDS_MAX];
	const char *p = text;
	double v[4], usr, sys, err;
	int n, g = write ? F_WRITE : F_READ, i;

	while (p && strncmp(p, "3;", 2)) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p)
		return -EINVAL;
	n = split(p, buf, sizeof(buf), f, TERSE_FIELDS_MAX);
	if (n < TERSE_MIN_FIELDS)
		return -EPROTO;
	for (i = 0; i < 4; i++)
		if (num(f[g + i], &v[i]))
			return -EINVAL;
	if (num(f[F_ERROR], &err) || num(f[F_USR], &usr) || num(f[F_SYS], &sys) ||
	    v[0] < 0 || v[3] < 0)
		return -EINVAL;
	memset(t, 0, sizeof(*t));
	snprintf(t->version, sizeof(t->version), "%s", f[F_VERSION]);
	t->error = (int)err;
	t->kib = (uint64_t)v[0];
	t->bw_kib = v[1];
	t->iops = v[2];
	t->runtime_ms = v[3];
	t->usr_pct = usr;
	t->sys_pct = sys;
	return 0;
}

int fio_is_write(const struct fio_opts *o)
{
	return strstr(o->rw, "write") != NULL;
}

/* Appends "--<fmt>" to buf as the next argument. */
static int arg(char *buf, size_t len, size_t *used, char **argv, int *argc, const char *fmt,
	       ...) __attribute__((format(printf, 6, 7)));
static int arg(char *buf, size_t len, size_t *used, char **argv, int *argc, const char *fmt,
	       ...)
{
	va_list ap;
	int n;

	if (*argc + 1 >= FIO_ARGV_MAX || *used >= len)
		return -ENAMETOOLONG;
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - *used)
		return -ENAMETOOLONG;
	argv[(*argc)++] = buf + *used;
	*used += (size_t)n + 1;
	return 0;
}

int fio_argv(const struct fio_opts *o, const char *path, char *buf, size_t len,
	     char *argv[FIO_ARGV_MAX])
{
	char bs[32], size[32];
	size_t used = 0;
	int argc = 0, r;

	bm_fmt_size(bs, sizeof(bs), o->bs, "kMGT");
	bm_fmt_size(size, sizeof(size), o->size, "kMGT");
	/* --fallocate=none, --fadvise_hint=0: do what dd and bootmark's
	 * workloads do (no preallocation, no readahead hint; docs/bench.md) */
	r = arg(buf, len, &used, argv, &argc, "%s", o->bin);
	r = r ?: arg(buf, len, &used, argv, &argc, "--name=bm");
	r = r ?: arg(buf, len, &used, argv, &argc, "--filename=%s", path);
	r = r ?: arg(buf, len, &used, argv, &argc, "--rw=%s", o->rw);
	r = r ?: arg(buf, len, &used, argv, &argc, "--bs=%s", bs);
	r = r ?: arg(buf, len, &used, argv, &argc, "--size=%s", size);
	r = r ?: arg(buf, len, &used, argv, &argc, "--ioengine=%s", o->ioengine);
	r = r ?: arg(buf, len, &used, argv, &argc, "--iodepth=%lld", o->iodepth);
	r = r ?: arg(buf, len, &used, argv, &argc, "--direct=%d", o->direct);
	if (o->number_ios)
		r = r ?: arg(buf, len, &used, argv, &argc, "--number_ios=%lld", o->number_ios);
	if (o->end_fsync)
		r = r ?: arg(buf, len, &used, argv, &argc, "--end_fsync=1");
	if (o->gtod_reduce)
		r = r ?: arg(buf, len, &used, argv, &argc, "--gtod_reduce=1");
	if (o->batch) {
		r = r ?: arg(buf, len, &used, argv, &argc, "--iodepth_batch_submit=%lld", o->batch);
		r = r ?: arg(buf, len, &used, argv, &argc, "--iodepth_batch_complete_max=%lld",
			     o->batch);
	}
	if (!strcmp(o->ioengine, "io_uring_cmd"))
		r = r ?: arg(buf, len, &used, argv, &argc, "--cmd_type=nvme");
	if (o->sqthread_poll)
		r = r ?: arg(buf, len, &used, argv, &argc, "--sqthread_poll=1");
	if (o->fixedbufs)
		r = r ?: arg(buf, len, &used, argv, &argc, "--fixedbufs=1");
	if (o->hipri)
		r = r ?: arg(buf, len, &used, argv, &argc, "--hipri=1");
	if (o->norandommap)
		r = r ?: arg(buf, len, &used, argv, &argc, "--norandommap=1");
	if (o->batch_submit)
		r = r ?: arg(buf, len, &used, argv, &argc, "--iodepth_batch_submit=%lld",
			     o->batch_submit);
	if (o->batch_complete)
		r = r ?: arg(buf, len, &used, argv, &argc, "--iodepth_batch_complete=%lld",
			     o->batch_complete);
	r = r ?: arg(buf, len, &used, argv, &argc, "--fallocate=none");
	r = r ?: arg(buf, len, &used, argv, &argc, "--fadvise_hint=0");
	r = r ?: arg(buf, len, &used, argv, &argc, "--output-format=terse");
	r = r ?: arg(buf, len, &used, argv, &argc, "--terse-version=3");
	if (r)
		return r;
	argv[argc] = NULL;
	return argc;
}
