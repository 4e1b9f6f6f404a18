// SPDX-License-Identifier: MIT
/* The runner's option table and the checks the table cannot express. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "proto.h"

#define OPT_STR(n, f, d, h) { .name = n, .type = BM_OPT_STR, \
	.off = offsetof(struct runner_cfg, f), \
	.len = sizeof(((struct runner_cfg *)0)->f), .def = d, .help = h }
#define OPT_INT(n, f, d, lo, hi, h) { .name = n, .type = BM_OPT_INT, \
	.off = offsetof(struct runner_cfg, f), .def = d, .min = lo, .max = hi, \
	.help = h }

static const char *const finish_choices[] = { "poweroff", "reboot", "halt", NULL };
static const char *const fault_choices[] = { "none", "panic", "hang", "kmsg", NULL };

const struct bm_opt runner_opts[] = {
	OPT_STR("run", run, "", "run id, 8 lowercase hex digits (default: random)"),
	OPT_STR("suite", suite, "smoke", "suite name, a file in <etc>/suites/"),
	OPT_STR("fs", fs, "ext4", "comma list of filesystem profiles (<etc>/fs/)"),
	OPT_STR("disk_serial", disk_serial, "BMSCRATCH0",
		"serial of the disk the runner may overwrite (\"\" = any serial)"),
	OPT_STR("disk_wwn", disk_wwn, "",
		"WWN the disk must also have (device/wwid or wwid; case and a naa./eui./0x "
		"prefix are ignored)"),
	OPT_STR("disk_model", disk_model, "",
		"model the disk must also have, \"model\" or \"vendor model\" (device/model, "
		"device/vendor; on the command line only a model without spaces)"),
	{ .name = "disk_size", .type = BM_OPT_SIZE, .off = offsetof(struct runner_cfg, disk_size),
	  .def = "0", .help = "exact size the disk must also have (bytes, or 64G), 0 = any" },
	OPT_STR("disk_wipe", disk_wipe, "",
		"serial of the chosen disk: overwrite it even if it holds a partition table "
		"or filesystem bootmark did not make"),
	OPT_STR("results", results, "/dev/console", "device the records are written to"),
	{ .name = "finish", .type = BM_OPT_STR, .off = offsetof(struct runner_cfg, finish),
	  .len = sizeof(((struct runner_cfg *)0)->finish), .def = "poweroff",
	  .choices = finish_choices, .help = "what to do at the end: poweroff, reboot, halt" },
	OPT_INT("heartbeat", heartbeat, "10", 1, 3600, "seconds between heartbeat records"),
	OPT_INT("disk_wait", disk_wait, "10", 0, 600,
		"seconds to wait for the test disk to appear"),
	OPT_STR("modules", modules, "virtio_pci,virtio_blk",
		"modules loaded at boot, comma list (names or aliases)"),
	OPT_STR("image_modules", image_modules, "",
		"modules the host puts in the image besides the boot modules (lab disk controllers, "
		"watchdog drivers); name them in modules= to load them"),
	{ .name = "coldplug", .type = BM_OPT_BOOL, .off = offsetof(struct runner_cfg, coldplug),
	  .def = "1", .help = "when the disk is not there once the boot modules are in: load the "
	  "image's drivers of the storage controllers, virtio and SCSI devices found without "
	  "one, as udev would, until it is (0: only modules= is loaded)" },
	OPT_STR("modules_dir", modules_dir, "",
		"module tree (default /lib/modules/<uname -r>)"),
	OPT_STR("etc", etc_dir, "/etc/bootmark", "directory holding suites/ and fs/"),
	OPT_STR("mnt", mnt, "/mnt/test", "mount point of the test filesystem"),
	OPT_INT("loglevel", loglevel, "1", 0, 2,
		"runner messages on the console: 0 errors, 1 progress, 2 debug"),
	OPT_INT("watchdog", watchdog, "0", 0, 3600,
		"arm the hardware watchdog with this timeout in seconds during the run, 0 = off"),
	OPT_INT("aslr", aslr, "0", 0, 2,
		"kernel.randomize_va_space for the run: 0 maps a program at the same addresses "
		"every time it runs (QEMU's TCG then reuses its translation of mkfs: half a "
		"mkfs's time), 2 the kernel's default; the tests' I/O is the same either way"),
	OPT_STR("watchdog_dev", watchdog_dev, "/dev/watchdog", "the watchdog device"),
	{ .name = "lava", .type = BM_OPT_BOOL, .off = offsetof(struct runner_cfg, lava),
	  .def = "0", .help = "also write one M record per metric, for LAVA's monitors" },
	{ .name = "fault", .type = BM_OPT_STR, .off = offsetof(struct runner_cfg, fault),
	  .len = sizeof(((struct runner_cfg *)0)->fault), .def = "none", .choices = fault_choices,
	  .help = "tests only: after HELLO, crash the kernel (panic), freeze the runner and "
		  "its watchdog feeding (hang), or flood /dev/kmsg for the rest of the run while "
		  "the suite goes on (kmsg)" },
	OPT_STR("strace", strace, "",
		"diagnostics (benchmark image): strace's path; each test's run() is then counted by "
		"strace -f -c, its summary on the console (docs/bench.md): timings of such a boot "
		"are no figures"),
	BM_OPT_END
};

int runner_cfg_load(struct runner_cfg *c, const char *conf_text,
		    const char *conf_origin, const char *cmdline,
		    char *err, size_t errlen)
{
	int ret;

	memset(c, 0, sizeof(*c));
	ret = bm_opts_defaults(runner_opts, c);
	if (ret) {
		snprintf(err, errlen, "bad built-in default: %s", strerror(-ret));
		return ret;
	}
	if (conf_text) {
		ret = bm_opts_parse_text(runner_opts, c, conf_text, conf_origin,
					 err, errlen);
		if (ret)
			return ret;
	}
	if (cmdline) {
		ret = bm_opts_parse_cmdline(runner_opts, c, cmdline,
					    RUNNER_CMDLINE_PREFIX, err, errlen);
		if (ret)
			return ret;
	}
	return runner_cfg_check(c, err, errlen);
}

/* Module names may have capitals (iTCO_wdt); suites and profiles may not. */
static int is_name_char(int ch, int upper)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
	       ch == '_' || ch == '-' || (upper && ch >= 'A' && ch <= 'Z');
}

/* "a,b,c" of [a-z0-9_-]+ items; no empty items.  A module list (modlist)
 * may be empty and may have capitals. */
static int check_list(const char *key, const char *v, int modlist,
		      char *err, size_t errlen)
{
	const char *p;
	size_t item = 0;

	if (!*v && modlist)
		return 0;
	for (p = v;; p++) {
		if (*p == ',' || !*p) {
			if (!item) {
				snprintf(err, errlen, "%s: empty item in \"%s\"", key, v);
				return -EINVAL;
			}
			if (!*p)
				return 0;
			item = 0;
		} else if (!is_name_char((unsigned char)*p, modlist)) {
			snprintf(err, errlen, "%s: bad character '%c' in \"%s\"", key, *p, v);
			return -EINVAL;
		} else {
			item++;
		}
	}
}

int runner_cfg_check(const struct runner_cfg *c, char *err, size_t errlen)
{
	size_t i, n = strlen(c->run);
	int ret;

	if (n && n != BM_RUN_LEN) {
		snprintf(err, errlen, "run: \"%s\" is not 8 hex digits", c->run);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		if (!strchr("0123456789abcdef", c->run[i])) {
			snprintf(err, errlen, "run: \"%s\" is not 8 lowercase hex digits", c->run);
			return -EINVAL;
		}
	}
	ret = check_list("fs", c->fs, 0, err, errlen);
	if (!ret)
		ret = check_list("suite", c->suite, 0, err, errlen);
	if (!ret)
		ret = check_list("modules", c->modules, 1, err, errlen);
	if (!ret)
		ret = check_list("image_modules", c->image_modules, 1, err, errlen);
	if (!ret && strchr(c->suite, ',')) {
		snprintf(err, errlen, "suite: one name expected, got \"%s\"", c->suite);
		ret = -EINVAL;
	}
	if (!ret && !c->disk_serial[0] && !c->disk_wwn[0] && !c->disk_model[0]) {
		snprintf(err, errlen, "disk_serial, disk_wwn and disk_model are all empty; "
			 "the runner writes only to a named disk");
		ret = -EINVAL;
	}
	if (!ret && c->results[0] != '/') {
		snprintf(err, errlen, "results: \"%s\" is not an absolute path", c->results);
		ret = -EINVAL;
	}
	return ret;
}

static int dump_one(const struct bm_opt *o, const struct runner_cfg *c,
		    char *buf, size_t len)
{
	const char *base = (const char *)c + o->off;

	switch (o->type) {
	case BM_OPT_INT:
		return snprintf(buf, len, "%s=%lld\n", o->name, *(const long long *)base);
	case BM_OPT_SIZE:
		return snprintf(buf, len, "%s=%" PRIu64 "\n", o->name,
				*(const uint64_t *)base);
	case BM_OPT_BOOL:
		return snprintf(buf, len, "%s=%d\n", o->name, *(const int *)base);
	default:
		return snprintf(buf, len, "%s=%s\n", o->name, base);
	}
}

int runner_cfg_dump(const struct runner_cfg *c, char *buf, size_t len)
{
	const struct bm_opt *o;
	size_t used = 0;
	int n;

	if (len)
		buf[0] = '\0';
	for (o = runner_opts; o->name; o++) {
		n = dump_one(o, c, buf + used, len - used);
		if (n < 0 || (size_t)n >= len - used)
			return -E2BIG;
		used += (size_t)n;
	}
	return (int)used;
}

uint32_t runner_cfg_hash(const struct runner_cfg *c)
{
	char buf[2048];
	int n = runner_cfg_dump(c, buf, sizeof(buf));

	return bm_crc32(0, buf, n > 0 ? (size_t)n : 0);
}
