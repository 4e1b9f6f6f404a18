/* SPDX-License-Identifier: MIT */
/* The PXE tree's files and the queue advance (host/backend/pxe/pxe.c). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "profile.h"
#include "pxe.h"
#include "tap.h"
#include "util.h"

#define MAC "52-54-00-12-34-56"

static char dir[] = "/tmp/bm-pxe-test.XXXXXX";
static char buf[65536];
static struct bm_pxe_queue q;

static void macs(void)
{
	char out[18];

	TAP_EQ_INT(bm_pxe_mac_norm("52:54:00:12:34:56", out, sizeof(out)), 0, "colons");
	TAP_EQ_STR(out, MAC, "normalised to dashes");
	TAP_EQ_INT(bm_pxe_mac_norm("AA-BB-CC-dd-ee-0F", out, sizeof(out)), 0, "dashes, mixed case");
	TAP_EQ_STR(out, "aa-bb-cc-dd-ee-0f", "lower case");
	TAP_EQ_INT(bm_pxe_mac_norm("52:54-00:12:34:56", out, sizeof(out)), -EINVAL, "mixed separators");
	TAP_EQ_INT(bm_pxe_mac_norm("52:54:00:12:34", out, sizeof(out)), -EINVAL, "five pairs");
	TAP_EQ_INT(bm_pxe_mac_norm("52:54:00:12:34:567", out, sizeof(out)), -EINVAL, "too long");
	TAP_EQ_INT(bm_pxe_mac_norm("52:54:00:12:34:5g", out, sizeof(out)), -EINVAL, "not hex");
	TAP_EQ_INT(bm_pxe_mac_norm("525400123456", out, sizeof(out)), -EINVAL, "no separators");
	TAP_EQ_INT(bm_pxe_mac_norm("52.54.00.12.34.56", out, sizeof(out)), -EINVAL, "dots");
	TAP_EQ_INT(bm_pxe_mac_norm(NULL, out, sizeof(out)), -EINVAL, "NULL");
	TAP_EQ_INT(bm_pxe_mac_norm("52:54:00:12:34:56", out, 17), -EINVAL, "short buffer");
}

static const struct bm_pxe_args args = {
	.console = "ttyS1,57600n8", .suite = "smoke", .fs = "ext4,xfs", .results = "/dev/console",
	.disk_serial = "S3Z9NB0K", .disk_wwn = "naa.5000c500a1b2c3d4", .disk_model = "",
	.disk_size = "64G", .disk_wipe = "", .append = "bootmark.modules=ahci", .watchdog = 300,
};

static void cmdlines(void)
{
	char id1[9], id2[9], id3[9];

	TAP_EQ_INT(bm_pxe_cmdline(&args, "0badcafe", "reboot", "quiet", buf, sizeof(buf)), 0,
		   "command line");
	TAP_EQ_STR(buf, "console=ttyS1,57600n8 panic=10 loglevel=4 bootmark.run=0badcafe "
		   "bootmark.suite=smoke bootmark.fs=ext4,xfs bootmark.disk_serial=S3Z9NB0K "
		   "bootmark.disk_wwn=naa.5000c500a1b2c3d4 bootmark.disk_size=64G "
		   "bootmark.results=/dev/console bootmark.finish=reboot bootmark.watchdog=300 "
		   "bootmark.modules=ahci quiet", "every word, the spec's arguments last");
	TAP_EQ_INT(bm_pxe_cmdline(&args, "0badcafe", "reboot", "", buf, 60), -ENAMETOOLONG,
		   "a line that does not fit");
	tap_ok(bm_pxe_word_ok("ttyS0,115200n8") && !bm_pxe_word_ok("A B") &&
	       !bm_pxe_word_ok("a\"b") && !bm_pxe_word_ok("a\nb"), "one word: no space, quote, newline");

	TAP_EQ_INT(bm_pxe_run_id("seed", MAC, 0, id1), 0, "seeded run id");
	bm_pxe_run_id("seed", MAC, 0, id2);
	bm_pxe_run_id("seed", MAC, 1, id3);
	TAP_EQ_STR(id1, id2, "same seed, box and index: same id");
	tap_ok(strcmp(id1, id3) != 0, "next index: another id (%s, %s)", id1, id3);
	bm_pxe_run_id("seed", "default", 0, id3);
	tap_ok(strcmp(id1, id3) != 0, "default entries and the box's differ");
	TAP_EQ_INT(bm_pxe_run_id("", MAC, 0, id2), 0, "random run id");
	tap_ok(strlen(id2) == 8 && strspn(id2, "0123456789abcdef") == 8, "8 hex digits: %s", id2);
}

static void fill(struct bm_pxe_queue *qq, int n)
{
	static const char *const lbl[] = { "6.1.0-53-amd64", "6.12.117+deb12-amd64", "6.1.0-53-amd64_2" };
	int i;

	memset(qq, 0, sizeof(*qq));
	snprintf(qq->mac, sizeof(qq->mac), "%s", MAC);
	qq->n = n;
	for (i = 0; i < n; i++) {
		snprintf(qq->e[i].label, sizeof(qq->e[i].label), "%s", lbl[i % 3]);
		snprintf(qq->e[i].run, sizeof(qq->e[i].run), "%08x", 0xa0 + i);
		bm_pxe_cmdline(&args, qq->e[i].run, i + 1 < n ? "reboot" : "poweroff", "",
			       qq->e[i].cmdline, sizeof(qq->e[i].cmdline));
		qq->e[i].state = i ? BM_PXE_PENDING : BM_PXE_CURRENT;
	}
}

static void texts(void)
{
	struct bm_pxe_queue r;
	char err[512];

	fill(&q, 3);
	TAP_EQ_INT(bm_pxe_cfg_text(q.e, 3, 0, buf, sizeof(buf)), 0, "pxelinux config");
	tap_ok(!strncmp(buf, "# bootmark-pxe 1:", 17), "versioned first line");
	tap_ok(strstr(buf, "\nSERIAL 1 57600\nDEFAULT 6.1.0-53-amd64\n") != NULL,
	       "SERIAL from console=, then DEFAULT the first label");
	tap_ok(strstr(buf, "LABEL 6.12.117+deb12-amd64\n  KERNEL bootmark/6.12.117+deb12-amd64/vmlinuz\n"
		       "  INITRD bootmark/6.12.117+deb12-amd64/initrd.img\n  APPEND console=ttyS1,57600n8 ")
	       != NULL, "a LABEL per kernel with its files and command line");
	tap_ok(strstr(buf, "LABEL 6.1.0-53-amd64_2\n") != NULL, "the third label");
	TAP_EQ_INT(bm_pxe_cfg_text(NULL, 0, 0, buf, sizeof(buf)), 0, "local boot config");
	tap_ok(strstr(buf, "DEFAULT local\nLABEL local\n  LOCALBOOT 0\n") != NULL, "LOCALBOOT 0");
	TAP_EQ_INT(bm_pxe_cfg_text(q.e, 3, 0, buf, 100), -ENAMETOOLONG, "small buffer");

	TAP_EQ_INT(bm_pxe_ipxe_text(&q.e[1], "", 0, buf, sizeof(buf)), 0, "iPXE script");
	tap_ok(!strncmp(buf, "#!ipxe\n# bootmark-pxe 1:", 24), "#!ipxe, then the version");
	tap_ok(strstr(buf, "\nkernel bootmark/6.12.117+deb12-amd64/vmlinuz console=ttyS1,57600n8 ") &&
	       strstr(buf, "bootmark.run=000000a1 ") &&
	       strstr(buf, "\ninitrd bootmark/6.12.117+deb12-amd64/initrd.img\nboot\n"),
	       "kernel with the command line, initrd, boot; relative paths");
	tap_ok(!strstr(buf, "chain"), "no chain in a box's own script");
	TAP_EQ_INT(bm_pxe_ipxe_text(&q.e[0], "http://10.0.0.1/tftp", 1, buf, sizeof(buf)), 0,
		   "iPXE script with a base URL and the per-box chain");
	tap_ok(strstr(buf, "\nchain http://10.0.0.1/tftp/bootmark-${mac:hexhyp}.ipxe && exit 0 ||\n") &&
	       strstr(buf, "\nkernel http://10.0.0.1/tftp/bootmark/6.1.0-53-amd64/vmlinuz "),
	       "a '/' joins base and path");
	TAP_EQ_INT(bm_pxe_ipxe_text(NULL, "", 0, buf, sizeof(buf)), 0, "queue done script");
	tap_ok(strstr(buf, "\nexit 0\n") && !strstr(buf, "kernel"), "exit, no kernel");

	TAP_EQ_INT(bm_pxe_queue_text(&q, buf, sizeof(buf)), 0, "queue text");
	tap_ok(!strncmp(buf, BM_PXE_QUEUE_MAGIC "\n", strlen(BM_PXE_QUEUE_MAGIC) + 1), "versioned first line");
	tap_ok(strstr(buf, "\ncurrent 6.1.0-53-amd64 000000a0 console=") &&
	       strstr(buf, "\npending 6.1.0-53-amd64_2 000000a2 console="), "state label run command-line");
	TAP_EQ_INT(bm_pxe_queue_parse(&r, buf, "q", err, sizeof(err)), 0, "parses back");
	tap_ok(r.n == 3 && !strcmp(r.mac, MAC) && !memcmp(&r.e[2], &q.e[2], sizeof(r.e[2])),
	       "round trip");
	TAP_EQ_INT(bm_pxe_queue_parse(&r, "bootmark-pxe-queue 2\nmac " MAC "\n", "q", err, sizeof(err)),
		   -EINVAL, "another version is refused");
	tap_ok(strstr(err, "q: not a queue file of this version") != NULL, "message: %s", err);
	snprintf(buf, sizeof(buf), "%s\nmac %s\ncurrent a 000000a0 x=1\ncurrent b 000000a1 x=1\n",
		 BM_PXE_QUEUE_MAGIC, MAC);
	TAP_EQ_INT(bm_pxe_queue_parse(&r, buf, "q", err, sizeof(err)), -EINVAL, "two current entries");
	snprintf(buf, sizeof(buf), "%s\nmac %s\ncurrent a 0BADCAFE x=1\n", BM_PXE_QUEUE_MAGIC, MAC);
	TAP_EQ_INT(bm_pxe_queue_parse(&r, buf, "q", err, sizeof(err)), -EINVAL, "upper-case run id");
	tap_ok(strstr(err, "q: bad line 3") != NULL, "names the line: %s", err);
	snprintf(buf, sizeof(buf), "%s\nmac %s\nbooting a 000000a0 x=1\n", BM_PXE_QUEUE_MAGIC, MAC);
	TAP_EQ_INT(bm_pxe_queue_parse(&r, buf, "q", err, sizeof(err)), -EINVAL, "unknown state");
	snprintf(buf, sizeof(buf), "%s\nmac %s\ndone ../x 000000a0 x=1\n", BM_PXE_QUEUE_MAGIC, MAC);
	TAP_EQ_INT(bm_pxe_queue_parse(&r, buf, "q", err, sizeof(err)), -EINVAL, "a label with a path");
}

/* U-Boot's script: mkimage -A arm64 -O linux -T script -C none -n bootmark -d F
 * of "echo hi\n" with SOURCE_DATE_EPOCH=1600000000 (u-boot-tools 2023.01). */
static const unsigned char mkimage_hi[80] = {
	0x27, 0x05, 0x19, 0x56, 0x4c, 0x03, 0xb3, 0x1c, 0x5f, 0x5e, 0x10, 0x00,
	0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0xd9, 0x34, 0x01, 0x62, 0x05, 0x16, 0x06, 0x00, 0x62, 0x6f, 0x6f, 0x74,
	0x6d, 0x61, 0x72, 0x6b, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00,
	0x65, 0x63, 0x68, 0x6f, 0x20, 0x68, 0x69, 0x0a
};

static void uboot(void)
{
	unsigned char img[256];
	struct bm_pxe_queue r;
	char err[512];
	size_t n = 0;

	TAP_EQ_INT(bm_pxe_uimage_script("echo hi\n", 1600000000u, img, sizeof(img), &n), 0,
		   "a uImage script");
	tap_ok(n == sizeof(mkimage_hi) && !memcmp(img, mkimage_hi, n),
	       "byte for byte what mkimage -T script makes (%zu bytes)", n);
	TAP_EQ_INT(bm_pxe_uimage_script("echo hi\n", 0, img, 79, &n), -ENAMETOOLONG, "small buffer");
	TAP_EQ_INT(bm_pxe_uboot_cmd(buf, sizeof(buf)), 0, "the boot script");
	tap_ok(!strncmp(buf, "# bootmark-pxe 1:", 17) && strstr(buf, "\npxe get\npxe boot\n"),
	       "versioned, pxe get, pxe boot");

	tap_ok(bm_pxe_fdt_ok("bcm2711-rpi-4-b.dtb") && !bm_pxe_fdt_ok("a/b.dtb") &&
	       !bm_pxe_fdt_ok(".dtb") && !bm_pxe_fdt_ok("x.dts") && !bm_pxe_fdt_ok("a b.dtb"),
	       "an FDT is a file name ending in .dtb");
	fill(&q, 2);
	snprintf(q.fdt, sizeof(q.fdt), "board.dtb");
	snprintf(q.e[1].fdt, sizeof(q.e[1].fdt), "board.dtb");
	TAP_EQ_INT(bm_pxe_cfg_text(&q.e[1], 1, 0, buf, sizeof(buf)), 0, "config with an FDT");
	tap_ok(strstr(buf, "/initrd.img\n  FDT bootmark/6.12.117+deb12-amd64/board.dtb\n  APPEND ")
	       != NULL, "FDT after INITRD, in the kernel's folder");
	TAP_EQ_INT(bm_pxe_queue_text(&q, buf, sizeof(buf)), 0, "queue text with an FDT");
	tap_ok(strstr(buf, "\nfdt board.dtb\n") != NULL, "an fdt line");
	TAP_EQ_INT(bm_pxe_queue_parse(&r, buf, "q", err, sizeof(err)), 0, "parses back");
	tap_ok(!strcmp(r.fdt, "board.dtb") && !strcmp(r.e[0].fdt, "board.dtb") &&
	       !strcmp(r.e[1].fdt, "board.dtb"), "every entry gets the fdt");
	fill(&q, 1);
	TAP_EQ_INT(bm_pxe_queue_text(&q, buf, sizeof(buf)), 0, "queue text without");
	tap_ok(!strstr(buf, "\nfdt "), "no fdt line (amd64 queues keep their bytes)");
	snprintf(buf, sizeof(buf), "%s\nmac %s\nfdt ../x.dtb\ncurrent a 000000a0 x=1\n",
		 BM_PXE_QUEUE_MAGIC, MAC);
	TAP_EQ_INT(bm_pxe_queue_parse(&r, buf, "q", err, sizeof(err)), -EINVAL, "an fdt with a path");
}

static char *slurp(const char *name)
{
	char path[PATH_MAX], *text = NULL;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (bm_read_file(path, &text, &len, 1 << 20))
		return strdup("");
	return text;
}

/* 1 when name holds the string s. */
static int has(const char *name, const char *s)
{
	char *t = slurp(name);
	int r = strstr(t, s) != NULL;

	free(t);
	return r;
}

static void advance(void)
{
	char err[PATH_MAX + 256] = "", *before, *after, path[PATH_MAX];

	fill(&q, 3);
	TAP_EQ_INT(bm_pxe_write_box(dir, &q, err, sizeof(err)), 0, "box files written");
	if (err[0])
		tap_diag("%s", err);
	tap_ok(has("pxelinux.cfg/01-" MAC, "DEFAULT 6.1.0-53-amd64\n") &&
	       has("pxelinux.cfg/01-" MAC, "bootmark.run=000000a0 ") &&
	       has("pxelinux.cfg/01-" MAC, "finish=reboot") &&
	       !has("pxelinux.cfg/01-" MAC, "LABEL 6.12"), "01-<mac>: only the current entry");
	tap_ok(has("bootmark-" MAC ".ipxe", "bootmark.run=000000a0 "), "its iPXE script too");

	before = slurp("pxelinux.cfg/01-" MAC);
	TAP_EQ_INT(bm_pxe_advance(dir, "52:54:00:12:34:56", "000000a1", 1, err, sizeof(err)), 0,
		   "a foreign run id (the next entry's) changes nothing");
	TAP_EQ_INT(bm_pxe_advance(dir, "52:54:00:12:34:56", "0badcafe", 1, err, sizeof(err)), 0,
		   "an unknown run id changes nothing");
	TAP_EQ_INT(bm_pxe_advance(dir, "52:54:00:12:34:56", "000000a0", 0, err, sizeof(err)), 0,
		   "the current run, not completed: unchanged");
	after = slurp("pxelinux.cfg/01-" MAC);
	TAP_EQ_STR(after, before, "the file kept its bytes");
	free(after);
	free(before);

	TAP_EQ_INT(bm_pxe_advance(dir, "52:54:00:12:34:56", "000000a0", 1, err, sizeof(err)), 1,
		   "the current run completed: rewritten");
	tap_ok(has("pxelinux.cfg/01-" MAC, "DEFAULT 6.12.117+deb12-amd64\n") &&
	       has("pxelinux.cfg/01-" MAC, "bootmark.run=000000a1 "), "01-<mac> boots entry 2");
	tap_ok(has("bootmark-" MAC ".ipxe", "kernel bootmark/6.12.117+deb12-amd64/vmlinuz "),
	       "the iPXE script boots entry 2");
	tap_ok(has("bootmark/queue-" MAC, "\ndone 6.1.0-53-amd64 000000a0 ") &&
	       has("bootmark/queue-" MAC, "\ncurrent 6.12.117+deb12-amd64 000000a1 "),
	       "queue: 1 done, 2 current");

	before = slurp("bootmark/queue-" MAC);
	TAP_EQ_INT(bm_pxe_advance(dir, "52:54:00:12:34:56", "000000a0", 1, err, sizeof(err)), 0,
		   "the same run again: nothing (idempotent)");
	after = slurp("bootmark/queue-" MAC);
	TAP_EQ_STR(after, before, "queue unchanged");
	free(after);
	free(before);

	TAP_EQ_INT(bm_pxe_advance(dir, "52-54-00-12-34-56", "000000a1", 1, err, sizeof(err)), 1,
		   "entry 2 completed (MAC with dashes)");
	tap_ok(has("pxelinux.cfg/01-" MAC, "bootmark.run=000000a2 ") &&
	       has("pxelinux.cfg/01-" MAC, "finish=poweroff"), "entry 3, the last, powers off");
	TAP_EQ_INT(bm_pxe_advance(dir, MAC, "000000a2", 1, err, sizeof(err)), 1, "entry 3 completed");
	tap_ok(has("pxelinux.cfg/01-" MAC, "LOCALBOOT 0") && has("bootmark-" MAC ".ipxe", "\nexit 0\n"),
	       "queue done: local disk");
	tap_ok(!has("bootmark/queue-" MAC, "\ncurrent ") && !has("bootmark/queue-" MAC, "\npending "),
	       "every entry done");
	TAP_EQ_INT(bm_pxe_advance(dir, MAC, "000000a2", 1, err, sizeof(err)), 0,
		   "after the end: nothing");

	TAP_EQ_INT(bm_pxe_advance(dir, "52:54:00:12:34", "000000a2", 1, err, sizeof(err)), -EINVAL,
		   "bad MAC");
	tap_ok(strstr(err, "bad MAC address '52:54:00:12:34'") != NULL, "message: %s", err);
	TAP_EQ_INT(bm_pxe_advance(dir, MAC, "a2", 1, err, sizeof(err)), -EINVAL, "bad run id");
	TAP_EQ_INT(bm_pxe_advance(dir, "52:54:00:12:34:57", "000000a2", 1, err, sizeof(err)), -ENOENT,
		   "a box without a queue");
	tap_ok(strstr(err, "has no queue") != NULL, "message: %s", err);
	/* a queue file copied under another box's name is not that box's */
	snprintf(path, sizeof(path), "%s/bootmark/queue-52-54-00-12-34-57", dir);
	fill(&q, 1);
	bm_pxe_queue_text(&q, buf, sizeof(buf));
	bm_write_file_atomic(path, buf, strlen(buf));
	TAP_EQ_INT(bm_pxe_advance(dir, "52:54:00:12:34:57", "000000a0", 1, err, sizeof(err)), -EINVAL,
		   "a queue naming another MAC is refused");
}

int main(void)
{
	char sub[PATH_MAX];

	tap_plan(0);
	macs();
	cmdlines();
	texts();
	uboot();
	if (!mkdtemp(dir)) {
		tap_ok(0, "mkdtemp");
		return tap_done();
	}
	snprintf(sub, sizeof(sub), "%s/pxelinux.cfg", dir);
	mkdir(sub, 0755);
	snprintf(sub, sizeof(sub), "%s/bootmark", dir);
	mkdir(sub, 0755);
	advance();
	bm_rm_rf(dir);
	return tap_done();
}
