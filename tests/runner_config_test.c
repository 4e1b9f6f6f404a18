// SPDX-License-Identifier: MIT
/* runner/init/config.c: defaults, config file, command line, errors, --help. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "tap.h"

static int load(struct runner_cfg *c, const char *conf, const char *cmdline,
		char *err, size_t errlen)
{
	err[0] = '\0';
	return runner_cfg_load(c, conf, "bootmark.conf", cmdline, err, errlen);
}

static void test_defaults(void)
{
	struct runner_cfg c;
	char err[256];

	TAP_EQ_INT(load(&c, NULL, NULL, err, sizeof(err)), 0, "defaults load");
	TAP_EQ_STR(c.suite, "smoke", "default suite");
	TAP_EQ_STR(c.finish, "poweroff", "default finish");
	TAP_EQ_STR(c.modules, "virtio_pci,virtio_blk", "default boot modules");
	TAP_EQ_INT(c.heartbeat, 10, "default heartbeat");
	TAP_EQ_STR(c.run, "", "no run id by default");
}

static void test_layers(void)
{
	const char *conf = "# comment\nsuite = seeds\nfs = ext4,xfs\nheartbeat = 5\n";
	const char *cmd = "console=ttyS0,115200 panic=-1 bootmark.run=0a1b2c3d "
			  "bootmark.fs=xfs bootmark.results=/dev/ttyS1 quiet";
	struct runner_cfg c;
	char err[256];

	TAP_EQ_INT(load(&c, conf, cmd, err, sizeof(err)), 0, "file + cmdline load");
	TAP_EQ_STR(c.suite, "seeds", "file sets suite");
	TAP_EQ_STR(c.fs, "xfs", "cmdline overrides file");
	TAP_EQ_STR(c.run, "0a1b2c3d", "run id from cmdline");
	TAP_EQ_STR(c.results, "/dev/ttyS1", "results from cmdline");
	TAP_EQ_INT(c.heartbeat, 5, "heartbeat from file");
}

struct bad {
	const char *conf, *cmdline, *needle;
};

static void test_bad(void)
{
	static const struct bad cases[] = {
		{ NULL, "bootmark.heartbeat=0", "heartbeat" },
		{ NULL, "bootmark.heartbeat=ten", "heartbeat" },
		{ NULL, "bootmark.finish=explode", "finish" },
		{ NULL, "bootmark.run=XYZ", "run" },
		{ NULL, "bootmark.run=0A1B2C3D", "run" },
		{ NULL, "bootmark.fs=ext4,,xfs", "fs" },
		{ NULL, "bootmark.fs=ext4;rm", "fs" },
		{ NULL, "bootmark.nosuchkey=1", "nosuchkey" },
		{ NULL, "bootmark.disk_serial=", "disk_serial" },
		{ NULL, "bootmark.results=ttyS1", "results" },
		{ NULL, "bootmark.suite=a,b", "suite" },
		{ "disk_wait = 9999", NULL, "disk_wait" },
		{ "what is this", NULL, "bootmark.conf" },
	};
	struct runner_cfg c;
	char err[256];
	size_t i;
	int ret;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ret = load(&c, cases[i].conf, cases[i].cmdline, err, sizeof(err));
		tap_ok(ret < 0 && strstr(err, cases[i].needle) != NULL,
		       "rejects %s%s (%d: %s)", cases[i].conf ? cases[i].conf : "",
		       cases[i].cmdline ? cases[i].cmdline : "", ret, err);
	}
}

static void test_help(void)
{
	const struct bm_opt *o;
	char line[128], *text;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int all = 1;

	bm_opts_help(runner_opts, RUNNER_CMDLINE_PREFIX, f);
	fclose(f);
	for (o = runner_opts; o->name; o++) {
		snprintf(line, sizeof(line), "bootmark.%s ", o->name);
		if (!strstr(text, line)) {
			tap_diag("help lacks %s", o->name);
			all = 0;
		}
	}
	tap_ok(all, "--help lists every option with its prefix");
	free(text);
}

static void test_hash(void)
{
	struct runner_cfg a, b;
	char err[256], dump[2048];

	load(&a, NULL, NULL, err, sizeof(err));
	load(&b, NULL, NULL, err, sizeof(err));
	TAP_EQ_INT(runner_cfg_hash(&a), runner_cfg_hash(&b), "same config, same hash");
	load(&b, NULL, "bootmark.fs=xfs", err, sizeof(err));
	tap_ok(runner_cfg_hash(&a) != runner_cfg_hash(&b), "different fs, different hash");
	tap_ok(runner_cfg_dump(&a, dump, sizeof(dump)) > 0 &&
	       strstr(dump, "disk_serial=BMSCRATCH0\n"), "dump has key=value lines");
	TAP_EQ_INT(runner_cfg_dump(&a, dump, 16), -E2BIG, "dump reports a short buffer");
}

int main(void)
{
	tap_plan(0);
	test_defaults();
	test_layers();
	test_bad();
	test_help();
	test_hash();
	return tap_done();
}
