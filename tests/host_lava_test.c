// SPDX-License-Identifier: MIT
/* host/backend/lava/lava.c: option checks, kernel words, the job text (the schema: tests/lava.sh). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lava.h"
#include "tap.h"

static void base(struct bm_lava_opts *o)
{
	memset(o, 0, sizeof(*o));
	snprintf(o->kernel_url, sizeof(o->kernel_url), "http://lab/vmlinuz");
	snprintf(o->initrd_url, sizeof(o->initrd_url), "http://lab/initrd.img");
	snprintf(o->device_type, sizeof(o->device_type), "x86");
	snprintf(o->suite, sizeof(o->suite), "smoke");
	snprintf(o->fs, sizeof(o->fs), "ext4,xfs");
	snprintf(o->disk_serial, sizeof(o->disk_serial), "WD-1");
	snprintf(o->console, sizeof(o->console), "ttyS0,115200n8");
	snprintf(o->boot_method, sizeof(o->boot_method), "ipxe");
	snprintf(o->arch, sizeof(o->arch), "amd64");
	snprintf(o->commands, sizeof(o->commands), "ramdisk");
	snprintf(o->priority, sizeof(o->priority), "medium");
	snprintf(o->visibility, sizeof(o->visibility), "public");
}

/* Fills a field to its last byte, so the kernel words reach their limit. */
static void fill(char *field, size_t len, char c)
{
	memset(field, c, len - 1);
	field[len - 1] = '\0';
}

#define FILL(o, f, c) fill((o).f, sizeof((o).f), (c))

static void check_bad(void)
{
	static const struct {
		const char *what;
		size_t off, len;
		const char *val, *msg;
	} cases[] = {
#define F(f) offsetof(struct bm_lava_opts, f), sizeof(((struct bm_lava_opts *)0)->f)
		{ "no kernel URL", F(kernel_url), "", "--kernel-url is required" },
		{ "no scheme", F(initrd_url), "lab/initrd", "--initrd-url lab/initrd: not a URL" },
		{ "space in URL", F(initrd_url), "http://lab/a b", "--initrd-url: a URL holds" },
		/* issue 46: a word of letters ran past its end (strchr finds the NUL) */
		{ "a word, no scheme", F(kernel_url), "notaurl", "--kernel-url notaurl: not a URL LAVA" },
		{ "ftp", F(kernel_url), "ftp://x/k", "--kernel-url ftp://x/k: not a URL LAVA" },
		{ "no path", F(kernel_url), "http://x", "--kernel-url http://x: no host and path" },
		{ "file, not absolute", F(kernel_url), "file://k", "--kernel-url file://k: no absolute" },
		{ "quote in URL", F(kernel_url), "http://x/a'b", "--kernel-url: a URL holds" },
		{ "quote in append", F(append), "a'b", "--append: printable words without quotes" },
		{ "no device type", F(device_type), "", "--device-type is required" },
		{ "device type with /", F(device_type), "x/86", "--device-type x/86:" },
		{ "two suites", F(suite), "smoke,seeds", "--suite smoke,seeds:" },
		{ "empty fs item", F(fs), "ext4,,xfs", "--fs ext4,,xfs:" },
		{ "trailing comma", F(fs), "ext4,", "--fs ext4,:" },
		{ "no disk", F(disk_serial), "", "no disk named" },
		{ "quote in serial", F(disk_serial), "a\"b", "--disk-serial a\"b:" },
		{ "console not a tty", F(console), "serial0", "--console serial0:" },
		{ "console with space", F(console), "ttyS0 x", "--console ttyS0 x:" },
		{ "priority 101", F(priority), "101", "--priority 101:" },
		{ "priority -1", F(priority), "-1", "--priority -1:" },
		{ "visibility", F(visibility), "group:", "--visibility group::" },
		{ "visibility other", F(visibility), "everyone", "--visibility everyone:" },
		{ "empty tag", F(tags), "a,", "--tags a,:" },
		{ "commands with space", F(commands), "ram disk", "--commands ram disk:" },
		{ "append console", F(append), "quiet console=tty0", "--append: console=tty0:" },
		{ "append lava", F(append), "bootmark.lava=0", "--append: bootmark.lava=0:" },
		{ "append newline", F(append), "a\nb", "--append: printable" },
		{ "disk size", F(disk_size), "12Q", "--disk-size 12Q:" },
		{ "zero disk size", F(disk_size), "0", "--disk-size 0:" },
		{ "u-boot on amd64", F(boot_method), "u-boot", "--boot-method u-boot boots arm64" },
		{ "an unknown arch", F(arch), "sparc", "--arch sparc: amd64 or arm64" },
		{ "dtb without u-boot", F(dtb_url), "http://lab/b.dtb", "--dtb-url goes with" },
#undef F
	};
	struct bm_lava_opts o;
	char err[512];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		base(&o);
		snprintf((char *)&o + cases[i].off, cases[i].len, "%s", cases[i].val);
		err[0] = '\0';
		TAP_EQ_INT(bm_lava_check(&o, err, sizeof(err)), -EINVAL, cases[i].what);
		tap_ok(!strncmp(err, cases[i].msg, strlen(cases[i].msg)), "%s: message \"%s\"",
		       cases[i].what, err);
	}
	base(&o);
	o.timeout = 24;
	TAP_EQ_INT(bm_lava_check(&o, err, sizeof(err)), -EINVAL, "a 24 minute job refused");
	base(&o);
	FILL(o, append, 'a');
	FILL(o, fs, 'b');
	FILL(o, disk_model, 'c');
	FILL(o, disk_wwn, 'd');
	FILL(o, disk_serial, 'e');
	FILL(o, suite, 'f');
	FILL(o, console, 'g');
	memcpy(o.console, "tty", 3);
	TAP_EQ_INT(bm_lava_check(&o, err, sizeof(err)), -EINVAL, "an overlong command line refused");
	tap_ok(strstr(err, "exceed 1024 bytes") != NULL, "and said so: %s", err);
	o.append[0] = '\0';
	TAP_EQ_INT(bm_lava_check(&o, err, sizeof(err)), 0, "every field at its limit but --append");
}

static char *job_text(const struct bm_lava_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		tap_bail("open_memstream failed");
	if (bm_lava_write(f, o))
		tap_bail("bm_lava_write failed");
	fclose(f);
	return buf;
}

static void check_job(void)
{
	struct bm_lava_opts o;
	char err[512] = "", args[1100], *a, *b;

	base(&o);
	TAP_EQ_INT(bm_lava_check(&o, err, sizeof(err)), 0, "base options pass");
	TAP_EQ_INT(bm_lava_minutes(&o), 30, "smoke: 30 minutes");
	snprintf(o.suite, sizeof(o.suite), "seeds");
	TAP_EQ_INT(bm_lava_minutes(&o), 720, "seeds: 720 minutes");
	o.timeout = 90;
	TAP_EQ_INT(bm_lava_minutes(&o), 90, "--timeout wins");
	snprintf(o.disk_serial, sizeof(o.disk_serial), "%s", "");
	snprintf(o.disk_wwn, sizeof(o.disk_wwn), "naa.5000c500a1b2c3d4");
	snprintf(o.append, sizeof(o.append), "bootmark.heartbeat=30");
	tap_ok(bm_lava_kernel_args(&o, args, sizeof(args)) > 0 &&
	       !strcmp(args, "loglevel=4 bootmark.lava=1 bootmark.results=/dev/console "
		       "bootmark.suite=seeds bootmark.fs=ext4,xfs bootmark.disk_serial= "
		       "bootmark.disk_wwn=naa.5000c500a1b2c3d4 bootmark.finish=poweroff "
		       "bootmark.heartbeat=30 console=ttyS0,115200n8"),
	       "kernel words, console last: %s", args);
	TAP_EQ_INT(bm_lava_kernel_args(&o, args, 20), -ENAMETOOLONG, "short buffer refused");

	snprintf(o.job_name, sizeof(o.job_name), "it's 'quoted'");
	snprintf(o.priority, sizeof(o.priority), "07");
	snprintf(o.visibility, sizeof(o.visibility), "group:a,b");
	snprintf(o.tags, sizeof(o.tags), "x,y'z");
	a = job_text(&o);
	b = job_text(&o);
	TAP_EQ_STR(a, b, "the same options, the same bytes");
	tap_ok(strstr(a, "job_name: 'it''s ''quoted'''\n") != NULL, "YAML quote doubled");
	tap_ok(strstr(a, "priority: 7\n") != NULL, "numeric priority as a plain int");
	tap_ok(strstr(a, "visibility:\n  group:\n  - 'a'\n  - 'b'\n") != NULL, "group list");
	tap_ok(strstr(a, "tags:\n- 'x'\n- 'y''z'\n") != NULL, "tags list");
	tap_ok(strstr(a, "  job:\n    minutes: 90\n") && strstr(a, "  connection:\n    minutes: 70\n"),
	       "job and connection timeouts");
	tap_ok(strstr(a, "      pattern: '" BM_LAVA_PATTERN "'\n") != NULL, "the M pattern");
	tap_ok(strstr(a, "  console_device: 'ttyS0'\n") != NULL, "console_device is the tty");
	tap_ok(strstr(a, "      install_overlay: false\n") != NULL, "the initrd is left alone");
	free(a);
	free(b);
	o.console[0] = '\0';
	a = job_text(&o);
	tap_ok(!strstr(a, "console=") && !strstr(a, "console_device"),
	       "--console \"\": no console word, no console_device");
	free(a);
}

/* --boot-method qemu: a tmpfs deploy whose kernel image_arg carries the
 * command line, since LAVA's qemu method passes no extra_kernel_args. */
static void check_qemu(void)
{
	struct bm_lava_opts o;
	char err[512] = "", args[1100], want[1300], *a;

	base(&o);
	snprintf(o.boot_method, sizeof(o.boot_method), "qemu");
	TAP_EQ_INT(bm_lava_check(&o, err, sizeof(err)), 0, "qemu: base options pass");
	a = job_text(&o);
	tap_ok(strstr(a, "- deploy:\n    to: tmpfs\n") && !strstr(a, "tftp"), "qemu: deploy to tmpfs");
	bm_lava_kernel_args(&o, args, sizeof(args));
	snprintf(want, sizeof(want), "        image_arg: '-kernel {kernel} -append \"%s\"'\n"
		 "        url: 'http://lab/vmlinuz'\n      initrd:\n        image_arg: '-initrd {initrd}'\n"
		 "        url: 'http://lab/initrd.img'\n", args);
	tap_ok(strstr(a, want) != NULL, "qemu: the kernel's image_arg holds the command line");
	tap_ok(strstr(a, "- boot:\n    method: 'qemu'\n    media: 'tmpfs'\n") &&
	       !strstr(a, "commands:"), "qemu: boot method qemu from tmpfs, no commands");
	tap_ok(strstr(a, "context:\n  arch: 'amd64'\n") != NULL, "qemu: the job's arch");
	free(a);
	o.console[0] = '\0';
	tap_ok(bm_lava_check(&o, err, sizeof(err)) == -EINVAL && strstr(err, "--console"),
	       "qemu: --console \"\" refused: %s", err);
}

/* arm64: U-Boot's booti on a board (kernel type image, a dtb when given) and
 * an arm64 QEMU device (LAVA's template picks qemu-system-aarch64 by arch). */
static void check_arm64(void)
{
	struct bm_lava_opts o;
	char err[512] = "", *a;

	base(&o);
	snprintf(o.arch, sizeof(o.arch), "arm64");
	snprintf(o.boot_method, sizeof(o.boot_method), "u-boot");
	snprintf(o.console, sizeof(o.console), "ttyAMA0,115200");
	snprintf(o.dtb_url, sizeof(o.dtb_url), "http://lab/bcm2711-rpi-4-b.dtb");
	TAP_EQ_INT(bm_lava_check(&o, err, sizeof(err)), 0, "u-boot: arm64 options pass");
	a = job_text(&o);
	tap_ok(strstr(a, "    kernel:\n      url: 'http://lab/vmlinuz'\n      type: 'image'\n") &&
	       strstr(a, "    dtb:\n      url: 'http://lab/bcm2711-rpi-4-b.dtb'\n"),
	       "u-boot: an Image for booti, the dtb deployed");
	tap_ok(strstr(a, "- boot:\n    method: 'u-boot'\n    commands: 'ramdisk'\n") &&
	       !strstr(a, "arch:"), "u-boot: boot method u-boot, ramdisk commands, no qemu arch");
	tap_ok(strstr(a, " console=ttyAMA0,115200'\n  console_device: 'ttyAMA0'\n") != NULL,
	       "u-boot: the records on ttyAMA0");
	free(a);
	snprintf(o.boot_method, sizeof(o.boot_method), "ipxe");
	o.dtb_url[0] = '\0';
	tap_ok(bm_lava_check(&o, err, sizeof(err)) == -EINVAL && strstr(err, "boots amd64"),
	       "arm64 with ipxe refused: %s", err);
	snprintf(o.boot_method, sizeof(o.boot_method), "qemu");
	TAP_EQ_INT(bm_lava_check(&o, err, sizeof(err)), 0, "qemu arm64: pass");
	a = job_text(&o);
	tap_ok(strstr(a, "context:\n  arch: 'arm64'\n  machine: 'virt,gic-version=3'\n"
		       "  cpu: 'neoverse-n1'\n") != NULL, "qemu arm64: arch, machine, cpu");
	free(a);
}

int main(void)
{
	tap_plan(0);
	check_bad();
	check_job();
	check_qemu();
	check_arm64();
	return tap_done();
}
