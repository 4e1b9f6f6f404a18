/* SPDX-License-Identifier: MIT */
/* Unit tests for common/opts.c: values, config text, command line, help. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "tap.h"

struct cfg {
	char suite[16];
	char fs[32];
	char finish[10];
	char note[8];
	long long repeat, offset;
	uint64_t disk_size, bs;
	int aio;
};

static const char *const fs_choices[] = { "ext2", "ext3", "ext4", "xfs", NULL };
static const char *const finish_choices[] = { "poweroff", "reboot", "halt", NULL };

#define F(f) offsetof(struct cfg, f)
static const struct bm_opt tab[] = {
	{ .name = "suite", .type = BM_OPT_STR, .off = F(suite), .len = 16, .def = "smoke",
	  .help = "suite to run" },
	{ .name = "fs", .type = BM_OPT_LIST, .off = F(fs), .len = 32, .def = "ext4,xfs",
	  .choices = fs_choices, .help = "filesystems to test" },
	{ .name = "finish", .type = BM_OPT_STR, .off = F(finish), .len = 10, .def = "poweroff",
	  .choices = finish_choices, .help = "what to do at the end" },
	{ .name = "note", .type = BM_OPT_STR, .off = F(note), .len = 8, .help = "free text" },
	{ .name = "repeat", .type = BM_OPT_INT, .off = F(repeat), .def = "1", .min = 1, .max = 100,
	  .help = "repetitions" },
	{ .name = "offset", .type = BM_OPT_INT, .off = F(offset), .def = "0", .min = -10, .max = 10,
	  .help = "a signed number" },
	{ .name = "disk_size", .type = BM_OPT_SIZE, .off = F(disk_size), .def = "1G", .min = 1,
	  .help = "scratch disk size" },
	{ .name = "bs", .type = BM_OPT_SIZE, .off = F(bs), .def = "4k", .min = 512, .max = 1 << 20,
	  .help = "block size" },
	{ .name = "aio", .type = BM_OPT_BOOL, .off = F(aio), .def = "yes", .help = "use libaio" },
	BM_OPT_END,
};

static struct cfg c;
static char err[256];

static int set(const char *name, const char *val)
{
	err[0] = '\0';
	return bm_opt_set(tab, &c, name, val, err, sizeof(err));
}

static void test_defaults(void)
{
	memset(&c, 0x5a, sizeof(c));
	TAP_EQ_INT(bm_opts_defaults(tab, &c), 0, "defaults apply");
	TAP_EQ_STR(c.suite, "smoke", "default string");
	TAP_EQ_STR(c.fs, "ext4,xfs", "default list");
	TAP_EQ_STR(c.note, "", "NULL default is empty");
	TAP_EQ_INT(c.repeat, 1, "default int");
	TAP_EQ_INT(c.disk_size, 1ull << 30, "default size 1G");
	TAP_EQ_INT(c.bs, 4096, "default size 4k");
	TAP_EQ_INT(c.aio, 1, "default bool");
}

static void test_parse_size(void)
{
	static const struct { const char *s; int rc; uint64_t v; } cases[] = {
		{ "512", 0, 512 }, { "4k", 0, 4096 }, { "4K", 0, 4096 }, { "32M", 0, 32 << 20 },
		{ "2g", 0, 2ull << 30 }, { "1T", 0, 1ull << 40 }, { "0", 0, 0 },
		{ "18446744073709551615", 0, UINT64_MAX }, { "16777215T", 0, 16777215ull << 40 },
		{ "18446744073709551616", -ERANGE, 0 }, { "99999999999999999999", -ERANGE, 0 },
		{ "16777216T", -ERANGE, 0 }, { "17179869184G", -ERANGE, 0 },
		{ "-1G", -EINVAL, 0 }, { "12x", -EINVAL, 0 }, { "", -EINVAL, 0 },
		{ "1.5G", -EINVAL, 0 }, { " 1", -EINVAL, 0 }, { "+1", -EINVAL, 0 },
		{ "1kb", -EINVAL, 0 }, { "k", -EINVAL, 0 }, { "0x10", -EINVAL, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 7;
		int rc = bm_parse_size(cases[i].s, &v);

		tap_ok(rc == cases[i].rc && (rc || v == cases[i].v), "size '%s' -> %d", cases[i].s,
		       cases[i].rc);
	}
}

static void test_set_values(void)
{
	bm_opts_defaults(tab, &c);
	TAP_EQ_INT(set("disk_size", "99999999999999999999"), -ERANGE, "huge size refused");
	tap_ok(strstr(err, "disk_size") && strstr(err, "too large"), "message: %s", err);
	TAP_EQ_INT(set("disk_size", "-1G"), -EINVAL, "negative size refused");
	tap_ok(strstr(err, "negative") != NULL, "message: %s", err);
	TAP_EQ_INT(set("disk_size", "0"), -ERANGE, "size 0 below min 1 refused");
	TAP_EQ_INT(set("disk_size", "12x"), -EINVAL, "size with a bad suffix refused");
	TAP_EQ_INT(set("disk_size", ""), -EINVAL, "empty size refused");
	TAP_EQ_INT(c.disk_size, 1ull << 30, "failed sets leave the value alone");
	TAP_EQ_INT(set("bs", "2M"), -ERANGE, "size above max refused");
	TAP_EQ_INT(set("bs", "1M"), 0, "size at max accepted");
	TAP_EQ_INT(set("repeat", "0"), -ERANGE, "int below min refused");
	TAP_EQ_INT(set("repeat", "101"), -ERANGE, "int above max refused");
	TAP_EQ_INT(set("repeat", "99999999999999999999"), -ERANGE, "int overflow refused");
	TAP_EQ_INT(set("repeat", "3x"), -EINVAL, "int with junk refused");
	TAP_EQ_INT(set("repeat", "+3"), -EINVAL, "int with '+' refused");
	TAP_EQ_INT(set("repeat", ""), -EINVAL, "empty int refused");
	TAP_EQ_INT(set("repeat", "100"), 0, "int at max accepted");
	TAP_EQ_INT(set("offset", "-10"), 0, "negative int in range accepted");
	TAP_EQ_INT(c.offset, -10, "negative int stored");
	TAP_EQ_INT(set("offset", "-11"), -ERANGE, "negative int below min refused");
	TAP_EQ_INT(set("aio", "No"), 0, "bool No");
	TAP_EQ_INT(c.aio, 0, "bool stored 0");
	TAP_EQ_INT(set("aio", "ON"), 0, "bool ON");
	TAP_EQ_INT(c.aio, 1, "bool stored 1");
	TAP_EQ_INT(set("aio", "maybe"), -EINVAL, "bool maybe refused");
	TAP_EQ_INT(set("nope", "1"), -ENOENT, "unknown key refused");
	TAP_EQ_STR(err, "unknown option 'nope'", "unknown key message");
}

static void test_set_strings(void)
{
	bm_opts_defaults(tab, &c);
	TAP_EQ_INT(set("fs", " ext4 , xfs "), 0, "list with blanks accepted");
	TAP_EQ_STR(c.fs, "ext4,xfs", "list normalised");
	TAP_EQ_INT(set("fs", "ext4,btrfs"), -EINVAL, "list item outside choices refused");
	tap_ok(strstr(err, "'btrfs' is not one of ext2, ext3, ext4, xfs") != NULL, "message: %s", err);
	TAP_EQ_INT(set("fs", "ext4,,xfs"), -EINVAL, "empty list item refused");
	TAP_EQ_STR(c.fs, "ext4,xfs", "refused list leaves the value");
	TAP_EQ_INT(set("fs", "ext2,ext3,ext4,xfs,ext2,ext3,ext4"), -EINVAL, "list too long refused");
	TAP_EQ_INT(set("fs", ""), 0, "empty list accepted");
	TAP_EQ_STR(c.fs, "", "empty list stored");
	TAP_EQ_INT(set("note", "1234567"), 0, "string at its limit accepted");
	TAP_EQ_INT(set("note", "12345678"), -EINVAL, "string too long refused");
	tap_ok(strstr(err, "value too long") != NULL, "message: %s", err);
	TAP_EQ_INT(set("finish", "reboot"), 0, "string choice accepted");
	TAP_EQ_INT(set("finish", "explode"), -EINVAL, "string outside choices refused");
	TAP_EQ_STR(c.finish, "reboot", "refused choice leaves the value");
}

static int text(const char *t)
{
	err[0] = '\0';
	bm_opts_defaults(tab, &c);
	return bm_opts_parse_text(tab, &c, t, "test.conf", err, sizeof(err));
}

static void test_text(void)
{
	TAP_EQ_INT(text("\xef\xbb\xbf# bootmark\r\nsuite=full\r\n\r\n  fs =  xfs  # only xfs\r\n"
			"\tnote = a#b\r\nrepeat\t=\t7\r\ndisk_size = 2G"), 0, "config with BOM, CRLF, comments");
	TAP_EQ_STR(c.suite, "full", "key right after the BOM");
	TAP_EQ_STR(c.fs, "xfs", "trailing comment and blanks dropped");
	TAP_EQ_STR(c.note, "a#b", "'#' inside a value kept");
	TAP_EQ_INT(c.repeat, 7, "tabs around '='");
	TAP_EQ_INT(c.disk_size, 2ull << 30, "last line without newline");
	TAP_EQ_INT(text("suite = full\nrepeat 3\n"), -EINVAL, "missing '=' refused");
	tap_ok(!strncmp(err, "test.conf:2: ", 13), "message names origin:line: %s", err);
	TAP_EQ_INT(text("# x\n\nbogus = 1\n"), -ENOENT, "unknown key in a file refused");
	TAP_EQ_STR(err, "test.conf:3: unknown option 'bogus'", "unknown key message");
	TAP_EQ_INT(text("disk_size = 99999999999999999999\n"), -ERANGE, "huge size in a file");
	tap_ok(strstr(err, "test.conf:1:") && strstr(err, "disk_size"), "message: %s", err);
	TAP_EQ_INT(text("disk_size =\n"), -EINVAL, "empty size in a file refused");
	TAP_EQ_INT(text(" = 3\n"), -EINVAL, "missing key refused");
	TAP_EQ_INT(text("fs = ext4,zfs\n"), -EINVAL, "bad list item in a file refused");
	TAP_EQ_INT(text(""), 0, "empty text is fine");
	TAP_EQ_INT(text("\xef\xbb\xbf"), 0, "a lone BOM is fine");
}

static int cmdline(const char *t)
{
	err[0] = '\0';
	bm_opts_defaults(tab, &c);
	return bm_opts_parse_cmdline(tab, &c, t, "bootmark.", err, sizeof(err));
}

static void test_cmdline(void)
{
	TAP_EQ_INT(cmdline("console=ttyS0,115200 panic=-1 bootmark.suite=full suite=zzz "
			   "bootmark_repeat=9 xbootmark.repeat=8 bootmark.fs=xfs\n"), 0,
		   "command line parsed");
	TAP_EQ_STR(c.suite, "full", "prefixed word taken");
	TAP_EQ_STR(c.fs, "xfs", "last prefixed word taken");
	TAP_EQ_INT(c.repeat, 1, "words without the exact prefix ignored");
	TAP_EQ_INT(cmdline("quiet bootmark.note=\"a b\" bootmark.repeat=2"), 0, "quoted value");
	TAP_EQ_STR(c.note, "a b", "quotes dropped, space kept");
	TAP_EQ_INT(c.repeat, 2, "word after a quoted one");
	TAP_EQ_INT(cmdline("bootmark.nope=1"), -ENOENT, "unknown prefixed key refused");
	tap_ok(strstr(err, "unknown option 'nope'") != NULL, "message: %s", err);
	TAP_EQ_INT(cmdline("bootmark.aio"), -EINVAL, "prefixed word without '=' refused");
	TAP_EQ_INT(cmdline("bootmark.repeat=0"), -ERANGE, "bad value on the command line");
	tap_ok(strstr(err, "repeat") != NULL, "message: %s", err);
	TAP_EQ_INT(cmdline(""), 0, "empty command line");
	TAP_EQ_INT(cmdline("   \t "), 0, "blank command line");
}

/* Every option appears once, with its columns lined up under the header. */
static void test_help(void)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int lines = 0, col = -1, aligned = 1;

	bm_opts_help(tab, "bootmark.", f);
	fclose(f);
	for (const struct bm_opt *o = tab; o->name; o++) {
		char want[64];

		snprintf(want, sizeof(want), "  bootmark.%s ", o->name);
		tap_ok(strstr(buf, want) && strstr(buf, o->help), "help lists %s", o->name);
	}
	tap_ok(strstr(buf, "1..100") && strstr(buf, "512..1M") && strstr(buf, "ext2|ext3|ext4|xfs"),
	       "help shows ranges and choices");
	tap_ok(strstr(buf, " 1G ") && strstr(buf, " poweroff "), "help shows defaults");
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save), lines++) {
		int at = (int)(strstr(line + 2, "  ") - line);

		while (line[at] == ' ')
			at++;
		col = col < 0 ? at : col;
		aligned &= at == col;
	}
	TAP_EQ_INT(lines, 10, "a header and one line per option");
	tap_ok(aligned, "the type column is aligned");
	free(buf);
}

/* issue 46: every line within BM_HELP_COLS, however long a default, range
 * or meaning; nothing of them lost; a command line's bool reads "switch". */
static const char *const many[] = {
	"putc", "block-w", "rewrite", "getc", "block-r", "seeks", "seq-create", "seq-stat",
	"seq-del", "rnd-create", "rnd-stat", "rnd-del", NULL,
};
static const struct bm_opt wide_tab[] = {
	{ .name = "tests", .type = BM_OPT_LIST, .off = 0, .len = 0, .choices = many,
	  .def = "putc,block-w,rewrite,getc,block-r,seeks,seq-create,seq-stat,seq-del,"
		 "rnd-create,rnd-stat,rnd-del",
	  .help = "the tests to run, a subset of the default; a meaning long enough to need "
		  "two or three lines of the table however wide the columns before it are" },
	{ .name = "keep", .type = BM_OPT_BOOL, .def = "0", .help = "keep it" },
	BM_OPT_END
};

static void test_help_width(void)
{
	char *buf = NULL, *line, *save = NULL, *flat;
	size_t len = 0, i, j;
	FILE *f = open_memstream(&buf, &len);
	int widest = 0;

	bm_opts_help(wide_tab, "--", f);
	fclose(f);
	tap_ok(strstr(buf, "default: putc,block-w,") && strstr(buf, "values: putc|block-w|"),
	       "a default and a range wider than their columns follow the meaning");
	tap_ok(strstr(buf, "  --keep   switch  off ") != NULL, "a command line's bool is a switch, off");
	flat = strdup(buf);
	for (i = j = 0; flat && buf[i]; i++)      /* the text without the wrapping */
		if (buf[i] != ' ' && buf[i] != '\n')
			flat[j++] = buf[i];
	if (flat)
		flat[j] = '\0';
	tap_ok(flat && strstr(flat, "putc,block-w,rewrite,getc,block-r,seeks,seq-create,seq-stat,"
				   "seq-del,rnd-create,rnd-stat,rnd-del") &&
	       strstr(flat, "howeverwidethecolumnsbeforeitare"), "nothing is lost in the wrapping");
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		widest = (int)strlen(line) > widest ? (int)strlen(line) : widest;
	tap_ok(widest <= BM_HELP_COLS, "every line within %d columns (widest %d)", BM_HELP_COLS,
	       widest);
	free(flat);
	free(buf);
}

/* Each caller's suffix set must keep its old spelling: dd "4K", tiobench
 * "4k", bonnie stops at G. */
static void test_fmt_size(void)
{
	static const struct { uint64_t v; const char *sfx, *want; } cases[] = {
		{ 0, "kMGT", "0" }, { 512, "kMGT", "512" }, { 4096, "kMGT", "4k" },
		{ 4096, "KMGT", "4K" }, { 32 << 20, "KMGT", "32M" }, { 1536, "kMGT", "1536" },
		{ 3ull << 30, "kMGT", "3G" }, { 1ull << 40, "kMGT", "1T" },
		{ 1ull << 40, "kMG", "1024G" }, { 1ull << 50, "KMGT", "1024T" },
		{ UINT64_MAX, "kMGT", "18446744073709551615" }, { 8192, "", "8192" },
	};
	char buf[32], small[3];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = bm_fmt_size(buf, sizeof(buf), cases[i].v, cases[i].sfx);

		tap_ok(!strcmp(buf, cases[i].want) && n == (int)strlen(cases[i].want),
		       "fmt %s -> '%s' (got '%s')", cases[i].sfx, cases[i].want, buf);
	}
	tap_ok(bm_fmt_size(small, sizeof(small), 32 << 20, "KMGT") == 3 && !strcmp(small, "32"),
	       "fmt truncates and returns the full length");
}

static void test_uint_list(void)
{
	static const struct { const char *s; int rc; } bad[] = {  /* max 4, 1..100 */
		{ "", -EINVAL }, { ",", -EINVAL }, { "1,,2", -EINVAL }, { "1,2,", -EINVAL },
		{ ",1", -EINVAL }, { "0", -EINVAL }, { "101", -EINVAL }, { "-1", -EINVAL },
		{ "+1", -EINVAL }, { " 1", -EINVAL }, { "1 ", -EINVAL }, { "1x", -EINVAL },
		{ "1,2,3,4,5", -EINVAL }, { "99999999999999999999999", -EINVAL },
	};
	unsigned out[4] = { 0 };

	tap_ok(bm_parse_uint_list("1,8,100", out, 4, 1, 100) == 3 && out[0] == 1 &&
	       out[1] == 8 && out[2] == 100, "list 1,8,100");
	tap_ok(bm_parse_uint_list("0,7", out, 2, 0, 7) == 2 && !out[0] && out[1] == 7,
	       "bounds are inclusive");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		tap_ok(bm_parse_uint_list(bad[i].s, out, 4, 1, 100) == bad[i].rc,
		       "list '%s' refused", bad[i].s);
}

static void test_list_item(void)
{
	static const char *const names[] = { "w", "r", "rw", NULL };

	TAP_EQ_INT(bm_list_count("w,r,rw"), 3, "count three");
	TAP_EQ_INT(bm_list_count(",w,,r,"), 2, "count skips empty items");
	TAP_EQ_INT(bm_list_count(""), 0, "count empty");
	TAP_EQ_INT(bm_list_item("rw,w", 0, names), 2, "item 0 is rw");
	TAP_EQ_INT(bm_list_item("rw,w", 1, names), 0, "item 1 is w");
	TAP_EQ_INT(bm_list_item(",,r,,w", 1, names), 0, "empty items skipped");
	TAP_EQ_INT(bm_list_item("rw,w", 2, names), -EINVAL, "past the end");
	TAP_EQ_INT(bm_list_item("rw,w", -1, names), -EINVAL, "negative index");
	TAP_EQ_INT(bm_list_item("r,wr", 1, names), -EINVAL, "not a choice");
	TAP_EQ_INT(bm_list_item("rww", 0, names), -EINVAL, "no prefix match");
}

int main(void)
{
	tap_plan(0);
	test_defaults();
	test_parse_size();
	test_fmt_size();
	test_uint_list();
	test_list_item();
	test_set_values();
	test_set_strings();
	test_text();
	test_cmdline();
	test_help();
	test_help_width();
	return tap_done();
}
