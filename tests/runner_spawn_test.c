// SPDX-License-Identifier: MIT
/* runner/engine/spawn.c: PATH search, exit status, captured output, mount options. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

#include "spawn.h"
#include "tap.h"

static void test_spawn(void)
{
	char *ok_argv[] = { "true", NULL };
	char *fail_argv[] = { "ls", "/nonexistent-bootmark-path", NULL };
	char *echo_argv[] = { "echo", "hello", "world", NULL };
	char *missing_argv[] = { "mkfs.nosuchfs", "/dev/null", NULL };
	char out[64], path[256];

	TAP_EQ_INT(spawn_find("ls", path, sizeof(path)), 0, "ls found in PATH");
	tap_ok(path[0] == '/', "absolute path %s", path);
	TAP_EQ_INT(spawn_run(ok_argv, out, sizeof(out)), 0, "true exits 0");
	TAP_EQ_INT(spawn_run(echo_argv, out, sizeof(out)), 0, "echo exits 0");
	TAP_EQ_STR(out, "hello world\n", "stdout captured");
	tap_ok(spawn_run(fail_argv, out, sizeof(out)) > 0 && strstr(out, "nonexistent"),
	       "failure status and stderr captured: %s", out);
	TAP_EQ_INT(spawn_run(missing_argv, out, sizeof(out)), -ENOENT, "missing program");
	TAP_EQ_INT(spawn_run(echo_argv, out, 6), 0, "small buffer");
	TAP_EQ_STR(out, "hello", "output truncated, terminated");
}

static void test_mountopt(void)
{
	unsigned long flags;
	char data[64];

	TAP_EQ_INT(mountopt_parse("noatime,data=writeback", &flags, data, sizeof(data)), 0,
		   "ext3 options");
	TAP_EQ_INT(flags, MS_NOATIME, "noatime is a flag");
	TAP_EQ_STR(data, "data=writeback", "data option stays data");
	mountopt_parse("noatime,logbufs=8,logbsize=256k", &flags, data, sizeof(data));
	TAP_EQ_STR(data, "logbufs=8,logbsize=256k", "xfs data options");
	mountopt_parse("nodiratime,relatime,strictatime,sync,dirsync,nosuid,nodev,noexec",
		       &flags, data, sizeof(data));
	TAP_EQ_INT(flags, MS_NODIRATIME | MS_RELATIME | MS_STRICTATIME | MS_SYNCHRONOUS |
		   MS_DIRSYNC | MS_NOSUID | MS_NODEV | MS_NOEXEC, "all flags");
	TAP_EQ_STR(data, "", "no data");
	mountopt_parse("ro,rw", &flags, data, sizeof(data));
	TAP_EQ_INT(flags, 0, "rw clears ro");
	TAP_EQ_INT(mountopt_parse("a=1,b=2,c=3", &flags, data, 6), -E2BIG, "data too long");
}

int main(void)
{
	tap_plan(0);
	test_spawn();
	test_mountopt();
	return tap_done();
}
