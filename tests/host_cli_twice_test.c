// SPDX-License-Identifier: MIT
/*
 * An option given twice (issue 46): "--out a ... --out=b" kept the last one
 * silently; it still does (scripts add to a line of defaults) and says so.  Value words that look like options are values, and the
 * history's method options give way to the user's words after "--".
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "history.h"
#include "tap.h"

struct o {
	char out[32];
	char label[32];
	int quiet;
};

static const struct bm_opt tab[] = {
	{ .name = "out", .type = BM_OPT_STR, .off = offsetof(struct o, out), .len = 32 },
	{ .name = "label", .type = BM_OPT_STR, .off = offsetof(struct o, label), .len = 32 },
	{ .name = "quiet", .type = BM_OPT_BOOL, .off = offsetof(struct o, quiet) },
	BM_OPT_END,
};
static const char *const extra[] = { "kernel", NULL };

static struct o last;
static char said[512];

/* bm_cli_step over words (after a command word): 0 when all were taken,
 * else what the failing step returned; the options in last, what it said on
 * stderr in said. */
static int parse(const char *const *words)
{
	char *argv[16];
	const char *name, *val;
	struct o o;
	char path[] = "/tmp/bm-twice.XXXXXX";
	int argc = 1, rc = 0, saved = dup(2), tmp = mkstemp(path);
	ssize_t n;

	if (saved < 0 || tmp < 0)
		tap_bail("cannot redirect stderr");
	unlink(path);
	fflush(stderr);
	dup2(tmp, 2);

	argv[0] = "cmd";
	for (; words[argc - 1] && argc < 15; argc++)
		argv[argc] = (char *)words[argc - 1];
	argv[argc] = NULL;
	memset(&o, 0, sizeof(o));
	for (int i = 1; i < argc && !rc; i++)
		rc = bm_cli_step(tab, &o, extra, argc, argv, &i, &name, &val);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(tmp, said, sizeof(said) - 1, 0);
	said[n > 0 ? n : 0] = '\0';
	said[strcspn(said, "\n")] = '\0';  /* one line: it goes into a test's name */
	close(tmp);
	last = o;
	return rc;
}

static void test_twice(void)
{
	TAP_EQ_INT(parse((const char *[]){ "--out", "a", "--label", "x", NULL }), 0,
		   "two options once each");
	TAP_EQ_STR(said, "", "...and nothing said");
	TAP_EQ_INT(parse((const char *[]){ "--out", "a", "--out", "b", NULL }), 0,
		   "--out a --out b is taken");
	TAP_EQ_STR(last.out, "b", "...the last one wins");
	tap_ok(strstr(said, "option --out given twice: the last one (b) is used") != NULL,
	       "...and it is said: %s", said);
	TAP_EQ_INT(parse((const char *[]){ "--out=a", "--label", "x", "--out", "b", NULL }), 0,
		   "--out=a ... --out b");
	tap_ok(strstr(said, "given twice") != NULL, "...is said too");
	TAP_EQ_INT(parse((const char *[]){ "--quiet", "--quiet", NULL }), 0, "a switch twice");
	tap_ok(strstr(said, "option --quiet given twice") != NULL, "...is said");
	TAP_EQ_INT(parse((const char *[]){ "--label", "--out", "--out", "b", NULL }), 0,
		   "a value word '--out' is a value, not the option");
	TAP_EQ_STR(said, "", "...so no repeat is said");
	TAP_EQ_INT(parse((const char *[]){ "--kernel", "--out", "--out", "b", NULL }), 0,
		   "nor after a repeatable option");
	TAP_EQ_STR(said, "", "...nothing said");
	TAP_EQ_INT(parse((const char *[]){ "--kernel", "a", "--kernel", "b", NULL }), 0,
		   "a repeatable option repeats");
	TAP_EQ_STR(said, "", "...silently");
	TAP_EQ_INT(parse((const char *[]){ "dir", "--out", "a", "dir2", NULL }), 0,
		   "words between options are not options");
}

static void test_method(void)
{
	const char *const *m = bm_hist_method_args("qemu-tcg-icount");
	char *user[] = { "--icount=2", "--repeat", "3" }, *argv[16];
	int n = 0;

	bm_hist_push_method(argv, &n, m, user, 3);
	argv[n] = NULL;
	TAP_EQ_INT(n, 2, "the user's --icount=2 replaces the method's");
	TAP_EQ_STR(argv[0], "--accel", "the method's --accel stays");
	TAP_EQ_STR(argv[1], "tcg", "with its value");
	n = 0;
	bm_hist_push_method(argv, &n, m, NULL, 0);
	TAP_EQ_INT(n, 4, "no user words: the whole method");
	n = 0;
	bm_hist_push_method(argv, &n, NULL, user, 3);
	TAP_EQ_INT(n, 0, "no method: nothing");
}

int main(void)
{
	tap_plan(0);
	test_twice();
	test_method();
	return tap_done();
}
