// SPDX-License-Identifier: MIT
/* common/profile.c: fs profiles, suites, mkfs argv, and the shipped configs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "tap.h"

static void test_profile(void)
{
	struct bm_fsprof p;
	char err[256] = "";
	int ret;

	ret = bm_fsprof_parse(&p, "ext3",
			      "# c\ntype = ext3\nmkfs = mkfs.ext3 -F -q -E lazy_itable_init=0\n"
			      "mount_opts = noatime,data=writeback\nmodules = ext4\n",
			      err, sizeof(err));
	TAP_EQ_INT(ret, 0, "good profile parses");
	TAP_EQ_STR(p.type, "ext3", "type");
	TAP_EQ_STR(p.mkfs, "mkfs.ext3 -F -q -E lazy_itable_init=0", "mkfs keeps spaces");
	TAP_EQ_STR(p.mount_opts, "noatime,data=writeback", "mount_opts");
	TAP_EQ_STR(p.modules, "ext4", "modules");

	ret = bm_fsprof_parse(&p, "x", "mkfs = mkfs.xfs\n", err, sizeof(err));
	tap_ok(ret < 0 && strstr(err, "type"), "missing type rejected: %s", err);
	ret = bm_fsprof_parse(&p, "x", "type = xfs\n", err, sizeof(err));
	tap_ok(ret < 0 && strstr(err, "mkfs"), "missing mkfs rejected: %s", err);
	ret = bm_fsprof_parse(&p, "x", "type = xfs\nmkfs = a\ncolour = red\n", err, sizeof(err));
	tap_ok(ret < 0 && strstr(err, "colour"), "unknown key rejected: %s", err);
}

static void test_argv(void)
{
	struct bm_fsprof p = { .mkfs = "mkfs.ext4  -F -q\t-E x=0" };
	char buf[256], *argv[BM_ARGV_MAX];
	int n;

	n = bm_fsprof_mkfs_argv(&p, "/dev/vda", buf, sizeof(buf), argv, BM_ARGV_MAX);
	TAP_EQ_INT(n, 6, "argv count includes the device");
	TAP_EQ_STR(argv[0], "mkfs.ext4", "argv[0]");
	TAP_EQ_STR(argv[4], "x=0", "tab separated word");
	TAP_EQ_STR(argv[5], "/dev/vda", "device last");
	tap_ok(argv[6] == NULL, "NULL terminated");
	TAP_EQ_INT(bm_fsprof_mkfs_argv(&p, "/dev/vda", buf, sizeof(buf), argv, 4), -E2BIG,
		   "too many words");
	TAP_EQ_INT(bm_fsprof_mkfs_argv(&p, "/dev/vda", buf, 8, argv, BM_ARGV_MAX), -E2BIG,
		   "buffer too small");
	strcpy(p.mkfs, "   ");
	TAP_EQ_INT(bm_fsprof_mkfs_argv(&p, "/dev/vda", buf, sizeof(buf), argv, BM_ARGV_MAX),
		   -EINVAL, "empty mkfs");
}

static void test_suite(void)
{
	struct bm_suite s;
	char err[256] = "";
	int ret;

	ret = bm_suite_parse(&s, "t", "# x\nsuite disk_size=2G repeat=3\n\n"
				      "dd size=32M bs=1M   # note\n  dd size=64M\nfoo\n",
			     err, sizeof(err));
	TAP_EQ_INT(ret, 0, "good suite parses");
	TAP_EQ_INT(s.disk_size, 2ull << 30, "disk_size");
	TAP_EQ_INT(s.repeat, 3, "repeat");
	TAP_EQ_INT(s.njobs, 3, "three jobs (unknown names are the runner's business)");
	TAP_EQ_STR(s.job[0].args, "size=32M bs=1M", "args without comment");
	TAP_EQ_INT(s.job[1].line, 5, "line number kept");
	TAP_EQ_STR(s.job[2].wl, "foo", "unchecked workload name kept");

	ret = bm_suite_parse(&s, "t", "dd\n", err, sizeof(err));
	TAP_EQ_INT(s.repeat, 1, "repeat defaults to 1");
	ret = bm_suite_parse(&s, "t", "suite repeat=0\ndd\n", err, sizeof(err));
	tap_ok(ret < 0 && strstr(err, "repeat") && strstr(err, ":1"), "repeat=0: %s", err);
	/* seen with the fuzz seed suite_size_zero: a size option without a maximum
	 * printed its range as "67108864..0 bytes" */
	ret = bm_suite_parse(&s, "t", "suite disk_size=0\ndd\n", err, sizeof(err));
	tap_ok(ret == -ERANGE && strstr(err, "minimum of 67108864"), "disk_size=0: %s", err);
	ret = bm_suite_parse(&s, "t", "suite disk_size=-1G\ndd\n", err, sizeof(err));
	tap_ok(ret < 0 && strstr(err, "negative"), "disk_size=-1G: %s", err);
	ret = bm_suite_parse(&s, "t", "suite disk_size=lots\ndd\n", err, sizeof(err));
	tap_ok(ret < 0 && strstr(err, "disk_size"), "bad size: %s", err);
	ret = bm_suite_parse(&s, "t", "suite repeat\ndd\n", err, sizeof(err));
	tap_ok(ret < 0, "suite word without = rejected: %s", err);
	ret = bm_suite_parse(&s, "t", "dd\nDD-x size=1M\n", err, sizeof(err));
	tap_ok(ret < 0 && strstr(err, ":2"), "bad workload name names line 2: %s", err);
	ret = bm_suite_parse(&s, "t", "# only comments\n", err, sizeof(err));
	tap_ok(ret < 0 && strstr(err, "no jobs"), "empty suite rejected: %s", err);
}

static void test_shipped(void)
{
	static const char *const fs[] = { "ext2", "ext3", "ext4", "xfs", "jfs", "reiserfs" };
	static const char *const suites[] = { "smoke", "seeds" };
	struct bm_fsprof p;
	struct bm_suite s;
	char err[256] = "";
	size_t i;

	for (i = 0; i < sizeof(fs) / sizeof(fs[0]); i++) {
		int ret = bm_fsprof_load(&p, "configs/fs", fs[i], err, sizeof(err));

		tap_ok(ret == 0 && strstr(p.mount_opts, "noatime"),
		       "configs/fs/%s loads, noatime (%s)", fs[i], err);
	}
	for (i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
		TAP_EQ_INT(bm_suite_load(&s, "configs/suites", suites[i], err, sizeof(err)), 0,
			   suites[i]);
	TAP_EQ_INT(bm_suite_load(&s, "configs/suites", "../bootmark.conf", err, sizeof(err)),
		   -EINVAL, "path in a suite name refused");
	TAP_EQ_INT(bm_fsprof_load(&p, "configs/fs", "nosuch", err, sizeof(err)), -ENOENT,
		   "missing profile");
}

int main(void)
{
	tap_plan(0);
	test_profile();
	test_argv();
	test_suite();
	test_shipped();
	return tap_done();
}
