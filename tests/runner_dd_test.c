// SPDX-License-Identifier: MIT
/* runner/workloads/dd/wl_dd.c on the host: options, labels, and real I/O in a temp dir. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsrun.h"
#include "tap.h"
#include "testutil.h"
#include "wl.h"
#include "wl_dd.h"

static void *opts(const char *args, int want_ok)
{
	char err[256] = "";
	void *o = NULL;
	int ret = fsrun_job_opts(&wl_dd_ops, args, &o, err, sizeof(err));

	tap_ok(want_ok ? ret == 0 : ret < 0, "dd %s: %s %s", args,
	       want_ok ? "accepted" : "rejected", err);
	return o;
}

static void test_options(void)
{
	struct bm_result r;
	void *o;

	tap_ok(wl_find("dd") == &wl_dd_ops, "dd is registered");
	tap_ok(wl_find("nosuch") == NULL, "unknown workload is not");
	o = opts("", 1);
	if (o) {
		struct dd_opts *d = o;

		TAP_EQ_INT(d->size, 32 << 20, "default size 32M");
		TAP_EQ_INT(d->bs, 1 << 20, "default bs 1M");
		TAP_EQ_INT(wl_dd_ops.desc->ntests(o), 3, "three tests by default");
		memset(&r, 0, sizeof(r));
		wl_dd_ops.desc->describe(o, 2, &r);
		TAP_EQ_STR(r.test, "dd32rw", "default label");
		free(o);
	}
	o = opts("size=512M bs=1M", 1);
	if (o) {
		static const char *const want[] = { "dd512w", "dd512r", "dd512rw" };
		int i;

		for (i = 0; i < 3; i++) {
			memset(&r, 0, sizeof(r));
			TAP_EQ_INT(wl_dd_ops.desc->describe(o, i, &r), 0, "describe");
			TAP_EQ_STR(r.test, want[i], "seed label");
		}
		TAP_EQ_STR(r.params, "size=512M bs=1M", "params");
		TAP_EQ_STR(r.wl, "dd", "wl");
		TAP_EQ_INT(wl_dd_ops.desc->describe(o, 3, &r), -EINVAL, "no fourth test");
		free(o);
	}
	o = opts("size=2G tests=r", 1);
	if (o) {
		memset(&r, 0, sizeof(r));
		TAP_EQ_INT(wl_dd_ops.desc->ntests(o), 1, "tests=r is one test");
		wl_dd_ops.desc->describe(o, 0, &r);
		TAP_EQ_STR(r.test, "dd2048r", "2G is dd2048");
		TAP_EQ_STR(r.params, "size=2048M bs=1M", "params size in MiB like the label");
		free(o);
	}
	free(opts("size=512K", 0));
	free(opts("bs=128M", 0));
	free(opts("bs=256", 0));
	free(opts("tests=w,x", 0));
	free(opts("colour=red", 0));
	free(opts("size", 0));
}

static int beats;

static void count_beat(struct wl_ctx *ctx, const char *what)
{
	beats++;
}

static void run_one(struct wl_ctx *ctx, void *o, int idx, const char *label, off_t size)
{
	struct bm_result r;
	const struct bm_metric *m;
	char path[512];
	struct stat st;
	int ret;

	memset(&r, 0, sizeof(r));
	wl_dd_ops.desc->describe(o, idx, &r);
	TAP_EQ_STR(r.test, label, "label");
	ret = wl_dd_ops.prepare(ctx, o, idx);
	TAP_EQ_INT(ret, 0, "prepare");
	ret = wl_dd_ops.run(ctx, o, idx, &r);
	TAP_EQ_INT(ret, 0, "run");
	wl_dd_ops.inspect(ctx, o, idx, &r);
	TAP_EQ_INT(r.partial, 0, "not partial");
	m = tu_metric(&r, "bytes");
	tap_ok(m && m->value == (double)size, "%s moved %lld bytes", label, (long long)size);
	m = tu_metric(&r, "bw");
	tap_ok(m && m->value > 0 && !strcmp(m->unit, "MiB/s"), "%s bw %.1f MiB/s", label,
	       m ? m->value : -1);
	m = tu_metric(&r, "extents");
	if (m)
		tap_ok(m->value >= 1 && !strcmp(m->unit, "count"), "%s extents %.0f", label,
		       m->value);
	else
		tap_skip("no FIEMAP on this filesystem", "%s extents", label);
	snprintf(path, sizeof(path), "%s/dd.dat", ctx->mnt);
	tap_ok(stat(path, &st) == 0 && st.st_size == size, "%s file is %lld bytes", label,
	       (long long)size);
}

/* Host mode: read and rewrite take over the file of the test before. */
static void test_continues(const char *dir)
{
	struct wl_ctx ctx = { .mnt = dir, .dev = "none", .fs = "host", .rep = 1,
			      .continued = 1 };
	struct stat st;
	char path[512];
	void *o;

	o = opts("size=1M", 1);
	if (o) {
		TAP_EQ_INT(wl_dd_ops.continues(o, 0), 0, "w continues nothing");
		TAP_EQ_INT(wl_dd_ops.continues(o, 1), 1, "r continues w");
		TAP_EQ_INT(wl_dd_ops.continues(o, 2), 1, "rw continues r");
		/* continued, prepare() writes nothing: no file appears */
		snprintf(path, sizeof(path), "%s/dd.dat", dir);
		unlink(path);
		TAP_EQ_INT(wl_dd_ops.prepare(&ctx, o, 1), 0, "continued r: prepare");
		tap_ok(stat(path, &st) && errno == ENOENT, "continued r: prepare wrote no file");
		free(o);
	}
	o = opts("size=1M tests=r,w", 1);
	if (o) {
		TAP_EQ_INT(wl_dd_ops.continues(o, 0), 0, "a first r continues nothing");
		TAP_EQ_INT(wl_dd_ops.continues(o, 1), 0, "w never continues (O_TRUNC, a new file)");
		free(o);
	}
}

static void test_io(const char *dir)
{
	struct wl_ctx ctx = { .mnt = dir, .dev = "none", .fs = "host", .rep = 1,
			      .beat = count_beat };
	char path[512];
	void *o;

	o = opts("size=4M bs=64K", 1);
	if (!o)
		return;
	run_one(&ctx, o, 0, "dd4w", 4 << 20);
	run_one(&ctx, o, 1, "dd4r", 4 << 20);
	run_one(&ctx, o, 2, "dd4rw", 4 << 20);
	free(o);
	/* A size that is not a multiple of bs still moves exactly size bytes. */
	o = opts("size=1048577 bs=3000 tests=w", 1);
	if (o) {
		run_one(&ctx, o, 0, "dd1w", 1048577);
		free(o);
	}
	o = opts("size=130M bs=8M tests=w", 1);
	if (o) {
		beats = 0;
		run_one(&ctx, o, 0, "dd130w", 130 << 20);
		TAP_EQ_INT(beats, 2, "a beat every 64 MiB");
		free(o);
	}
	/* Reading a file shorter than size is a failure with a partial result. */
	o = opts("size=2M tests=r", 1);
	if (o) {
		struct bm_result r;
		int fd;

		snprintf(path, sizeof(path), "%s/dd.dat", dir);
		fd = open(path, O_WRONLY | O_TRUNC);
		if (fd >= 0)
			close(fd);
		memset(&r, 0, sizeof(r));
		tap_ok(wl_dd_ops.run(&ctx, o, 0, &r) < 0 && r.partial, "short file: error, partial");
		free(o);
	}
	snprintf(path, sizeof(path), "%s/dd.dat", dir);
	unlink(path);
}

int main(void)
{
	char dir[] = "build/tmp-dd-XXXXXX";

	tap_plan(0);
	test_options();
	/* Under build/, not /tmp: tmpfs has no FIEMAP. */
	mkdir("build", 0755);
	tu_mkdtemp(dir);
	test_io(dir);
	test_continues(dir);
	rmdir(dir);
	return tap_done();
}
