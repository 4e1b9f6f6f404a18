// SPDX-License-Identifier: MIT
/* runner/workloads/fio/wl_fio.c and fio_terse.c: options, labels, the argv, fio 3.33's
 * terse lines as captured on this machine, bad lines, a missing fio, and a
 * real fio run when the host has /usr/bin/fio. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsrun.h"
#include "tap.h"
#include "testutil.h"
#include "profile.h"
#include "wl.h"
#include "wl_fio.h"

/* captured with fio 3.33: --rw=randread --bs=4k --ioengine=libaio
 * --iodepth=16 --direct=1 --size=64M (job "x"), and --rw=write --bs=1M
 * --size=16M --end_fsync=1 --fallocate=none (job "w") */
#define RANDREAD "tests/data/fio_terse_randread.txt"
#define WRITE    "tests/data/fio_terse_write.txt"

static void *opts(const char *args, int want_ok)
{
	char err[256] = "";
	void *o = NULL;
	int ret = fsrun_job_opts(&wl_fio_ops, args, &o, err, sizeof(err));

	tap_ok(want_ok ? ret == 0 : ret < 0, "fio %s: %s %s", args,
	       want_ok ? "accepted" : "rejected", err);
	return o;
}

static int near(double a, double b)
{
	return a > b - 1e-6 && a < b + 1e-6;
}

static void test_captured(void)
{
	struct fio_terse t;
	char *text = NULL;

	if (bm_read_file(RANDREAD, &text, NULL, 1 << 16)) {
		tap_ok(0, "read %s", RANDREAD);
		return;
	}
	TAP_EQ_INT(fio_terse_parse(text, 0, &t), 0, "randread line parses");
	TAP_EQ_STR(t.version, "fio-3.33", "fio version");
	tap_ok(t.kib == 65536 && near(t.bw_kib, 129517) && near(t.iops, 32379) &&
	       near(t.runtime_ms, 506), "read group: 65536 KiB, 129517 KiB/s, 32379 IOPS, 506 ms");
	tap_ok(near(t.usr_pct, 11.485149) && near(t.sys_pct, 27.722772) && t.error == 0,
	       "CPU: usr 11.485149 %%, sys 27.722772 %%, no error");
	TAP_EQ_INT(fio_terse_parse(text, 1, &t), 0, "randread line, write group");
	tap_ok(t.kib == 0 && t.runtime_ms == 0, "write group of a read job is empty");
	free(text);
	if (bm_read_file(WRITE, &text, NULL, 1 << 16)) {
		tap_ok(0, "read %s", WRITE);
		return;
	}
	TAP_EQ_INT(fio_terse_parse(text, 1, &t), 0, "write line parses");
	tap_ok(t.kib == 16384 && near(t.bw_kib, 606814) && near(t.runtime_ms, 27),
	       "write group: 16384 KiB, 606814 KiB/s, 27 ms");
	tap_ok(near(t.usr_pct, 0) && near(t.sys_pct, 23.076923), "CPU: usr 0 %%, sys 23.076923 %%");
	free(text);
}

static void test_bad_lines(void)
{
	char *text = NULL, *mod;
	struct fio_terse t;
	size_t n;

	if (bm_read_file(RANDREAD, &text, &n, 1 << 16)) {
		tap_ok(0, "read %s", RANDREAD);
		return;
	}
	mod = malloc(n + 64);
	snprintf(mod, n + 64, "fio: warning: something\n%s", text);
	TAP_EQ_INT(fio_terse_parse(mod, 0, &t), 0, "a warning line before the terse line");
	TAP_EQ_INT((long long)t.kib, 65536, "... and the figures of the terse line");
	snprintf(mod, n + 64, "%.*s\n", 200, text);
	TAP_EQ_INT(fio_terse_parse(mod, 0, &t), -EPROTO, "a cut line is another layout");
	snprintf(mod, n + 64, "%s", text);
	memcpy(strstr(mod, ";129517;"), ";12x517;", 8);
	TAP_EQ_INT(fio_terse_parse(mod, 0, &t), -EINVAL, "a bandwidth that is not a number");
	TAP_EQ_INT(fio_terse_parse("fio: pid=12, err=2/file:x.c:1, func=open\n", 0, &t), -EINVAL,
		   "no terse line (fio's error text)");
	TAP_EQ_INT(fio_terse_parse("", 0, &t), -EINVAL, "empty output");
	free(mod);
	free(text);
}

static void test_raw(void);

static void test_options(void)
{
	char buf[2048], *argv[FIO_ARGV_MAX];
	struct bm_result r;
	void *o;
	int n;

	o = opts("rw=randread bs=4k size=64M ioengine=libaio iodepth=16 direct=1", 1);
	TAP_EQ_INT(wl_fio_ops.desc->ntests(o), 1, "one test");
	memset(&r, 0, sizeof(r));
	wl_fio_ops.desc->describe(o, 0, &r);
	TAP_EQ_STR(r.test, "fio-randread-4k-libaio-dio", "label");
	TAP_EQ_STR(r.params, "rw=randread bs=4k size=64M ioengine=libaio iodepth=16 direct=1 "
		   "number_ios=0 end_fsync=0 batch=0", "params");
	n = fio_argv(o, "/mnt/test/fio.dat", buf, sizeof(buf), argv);
	TAP_EQ_INT(n, 13, "argv: 13 words");
	if (n == 13) {
		TAP_EQ_STR(argv[0], "/usr/bin/fio", "argv[0]");
		TAP_EQ_STR(argv[2], "--filename=/mnt/test/fio.dat", "filename");
		TAP_EQ_STR(argv[4], "--bs=4k", "bs");
		TAP_EQ_STR(argv[5], "--size=64M", "size");
		TAP_EQ_STR(argv[10], "--fadvise_hint=0", "no readahead hint");
		TAP_EQ_STR(argv[12], "--terse-version=3", "terse version 3");
		tap_ok(argv[13] == NULL, "argv ends with NULL");
	}
	TAP_EQ_INT(fio_argv(o, "/mnt/test/fio.dat", buf, 64, argv), -ENAMETOOLONG, "short buffer");
	free(o);
	o = opts("rw=write bs=1M size=1G end_fsync=1 number_ios=100", 1);
	n = fio_argv(o, "f", buf, sizeof(buf), argv);
	TAP_EQ_INT(n, 15, "argv with number_ios and end_fsync");
	if (n == 15)
		tap_ok(!strcmp(argv[9], "--number_ios=100") && !strcmp(argv[10], "--end_fsync=1") &&
		       !strcmp(argv[11], "--fallocate=none"), "number_ios, end_fsync, fallocate=none");
	TAP_EQ_INT(fio_is_write(o), 1, "write is a write");
	free(o);
	o = opts("rw=read gtod_reduce=1", 1);
	n = fio_argv(o, "f", buf, sizeof(buf), argv);
	tap_ok(n == 14 && !strcmp(argv[9], "--gtod_reduce=1"), "gtod_reduce=1 in the argv");
	memset(&r, 0, sizeof(r));
	wl_fio_ops.desc->describe(o, 0, &r);
	tap_ok(strstr(r.params, " gtod_reduce=1") != NULL, "gtod_reduce=1 in the params");
	free(o);
	o = opts("rw=randread ioengine=libaio iodepth=16 batch=16", 1);
	n = fio_argv(o, "f", buf, sizeof(buf), argv);
	tap_ok(n == 15 && !strcmp(argv[9], "--iodepth_batch_submit=16") &&
	       !strcmp(argv[10], "--iodepth_batch_complete_max=16"), "batch=16: fio batches as aio");
	free(o);
	free(opts("rw=trim", 0));
	free(opts("ioengine=mmap", 0));
	free(opts("iodepth=0", 0));
	free(opts("size=1M bs=2M", 0));
	free(opts("ioengine=libaio sqthread_poll=1", 0));
	free(opts("ioengine=io_uring_cmd", 0));           /* only on target=ng */
	free(opts("ioengine=io_uring target=ng", 0));
	free(opts("target=disk batch=4", 0));
	free(opts("batch=4 iodepth_batch_submit=4", 0));
	test_raw();
}

/* A raw job: the test disk or its /dev/ngXnY, labelled as rawio's twin, the
 * io_uring options and batches on fio's command line. */
static void test_raw(void)
{
	const struct bm_wl_desc *d = wl_fio_ops.desc;
	char buf[1024], *argv[FIO_ARGV_MAX];
	struct bm_result r;
	void *o;
	int n, i, seen = 0;

	o = opts("target=ng rw=randread ioengine=io_uring_cmd hipri=1 iodepth=16 "
		 "iodepth_batch_submit=4 iodepth_batch_complete=2 norandommap=1 size=256M "
		 "number_ios=2000", 1);
	if (!o)
		return;
	tap_ok(d->raw && d->raw(o), "target=ng is a raw job");
	TAP_EQ_INT(bm_wl_job_planned(d, o, 2, 3), 3, "once per repeat, whatever the filesystems");
	memset(&r, 0, sizeof(r));
	d->describe(o, 0, &r);
	TAP_EQ_STR(r.test, "fio-nvmehi-r4k-q16-b4x2", "rawio's label with fio- in front");
	TAP_EQ_STR(r.params, "target=ng rw=randread bs=4k size=256M ioengine=io_uring_cmd+hipri "
		   "iodepth=16 iodepth_batch=4x2 number_ios=2000 direct=0 norandommap=1", "params");
	n = fio_argv(o, "/dev/ng0n1", buf, sizeof(buf), argv);
	for (i = 0; i < n; i++)
		seen |= (!strcmp(argv[i], "--filename=/dev/ng0n1")) |
			(!strcmp(argv[i], "--cmd_type=nvme") << 1) | (!strcmp(argv[i], "--hipri=1") << 2) |
			(!strcmp(argv[i], "--norandommap=1") << 3) |
			(!strcmp(argv[i], "--iodepth_batch_submit=4") << 4) |
			(!strcmp(argv[i], "--iodepth_batch_complete=2") << 5) |
			(!strcmp(argv[i], "--ioengine=io_uring_cmd") << 6);
	TAP_EQ_INT(seen, 127, "the passthrough job's words on fio's command line");
	free(o);
	o = opts("target=disk rw=randwrite ioengine=io_uring sqthread_poll=1 iodepth=32", 1);
	memset(&r, 0, sizeof(r));
	d->describe(o, 0, &r);
	TAP_EQ_STR(r.test, "fio-sqpoll-w4k-q32", "sqthread_poll is rawio's sqpoll");
	free(o);
	o = opts("", 1);
	tap_ok(!d->raw(o), "target=file (the default) runs on each filesystem");
	free(o);
}

/* prepare without fio: -ENOENT before anything is written; with the host's
 * fio, a real run of 1 MiB of random 4k reads. */
static void test_host(void)
{
	char dir[] = "/tmp/bm-fio-test.XXXXXX", path[512];
	struct wl_ctx ctx = { .fs = "tmp", .rep = 1 };
	struct bm_result r;
	void *o;

	tu_mkdtemp(dir);
	ctx.mnt = dir;
	snprintf(path, sizeof(path), "%s/fio.dat", dir);
	o = opts("fio=/nonexistent/fio size=1M", 1);
	TAP_EQ_INT(wl_fio_ops.prepare(&ctx, o, 0), -ENOENT, "no fio: prepare fails");
	tap_ok(access(path, F_OK) != 0, "no fio: nothing written");
	free(o);
	if (access(FIO_BIN_DEFAULT, X_OK)) {
		tap_skip("no " FIO_BIN_DEFAULT, "real fio run");
		rmdir(dir);
		return;
	}
	o = opts("rw=randread bs=4k size=1M", 1);
	memset(&r, 0, sizeof(r));
	TAP_EQ_INT(wl_fio_ops.prepare(&ctx, o, 0), 0, "prepare writes the file");
	TAP_EQ_INT(wl_fio_ops.run(&ctx, o, 0, &r), 0, "fio runs");
	tap_ok(tu_val(&r, "bytes", "B") == 1048576, "fio read 1 MiB");
	tap_ok(tu_val(&r, "bw", "MiB/s") > 0 && tu_val(&r, "iops", "ops/s") > 0, "bw, iops > 0");
	tap_ok(tu_val(&r, "cpu_s", "s") >= 0 && tu_metric(&r, "usr") && tu_metric(&r, "sys"),
	       "fio's CPU figures");
	free(o);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	tap_plan(0);
	test_captured();
	test_bad_lines();
	test_options();
	test_host();
	return tap_done();
}
