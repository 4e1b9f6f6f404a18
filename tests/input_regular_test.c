/* SPDX-License-Identifier: MIT */
/*
 * Configuration and input files are regular files (issue 43, case 8;
 * common/profile.c bm_open_regular): a FIFO given as a suite, a profile or
 * bootmark.conf once hung `run` for ever in open(2).  Each reader the host
 * and the runner use refuses a FIFO, a device and a folder at once, with
 * words that say so; an alarm turns a hang back into a failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "initrd.h"
#include "profile.h"
#include "sha256.h"
#include "tap.h"
#include "testutil.h"
#include "util.h"

static char tmp[] = "/tmp/bm-input-XXXXXX";

static void mk(const char *rel, const char *kind)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	if (!strcmp(kind, "fifo") ? mkfifo(path, 0644) :
	    !strcmp(kind, "dir") ? mkdir(path, 0755) :
	    !strcmp(kind, "null") ? symlink("/dev/null", path) :
	    !(f = fopen(path, "w")) || fputs(kind, f) < 0 || fclose(f))
		tap_bail("cannot make a test file");
}

static void test_read(void)
{
	static const char *const kinds[] = { "fifo", "null", "dir" };  /* null: /dev/null */
	char path[PATH_MAX], hex[65], *text = NULL;
	size_t i;
	int fd, rc;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		int want = strcmp(kinds[i], "dir") ? -BM_ENOTREG : -EISDIR;

		snprintf(path, sizeof(path), "%s/%s", tmp, kinds[i]);
		fd = bm_open_regular(path);
		tap_ok(fd == want, "bm_open_regular refuses a %s at once (%d)", kinds[i], fd);
		if (fd >= 0)
			close(fd);
		rc = bm_read_file(path, &text, NULL, 1 << 20);
		tap_ok(rc == want && !text, "bm_read_file refuses a %s", kinds[i]);
		TAP_EQ_INT(bm_sha256_file(path, hex), want, "bm_sha256_file refuses it");
		TAP_EQ_INT(bm_append_file(1, path), want, "bm_append_file refuses it");
	}
	tap_ok(!strcmp(bm_strerror(BM_ENOTREG), "not a regular file (a FIFO, a device or a socket)"),
	       "in words: %s", bm_strerror(BM_ENOTREG));
	snprintf(path, sizeof(path), "%s/plain", tmp);
	rc = bm_read_file(path, &text, NULL, 1 << 20);
	tap_ok(!rc && text && !strcmp(text, "suite x=1\n"), "a regular file reads as before");
	free(text);
	rc = bm_read_file("/proc/self/stat", &text, NULL, 1 << 20);
	tap_ok(!rc && text && *text, "so does a /proc file");
	free(text);
	fd = bm_open_regular(path);
	tap_ok(fd >= 0 && !(fcntl(fd, F_GETFL) & O_NONBLOCK), "its descriptor blocks again");
	if (fd >= 0)
		close(fd);
}

/* The readers of --configs: suites, profiles and bootmark.conf. */
static void test_configs(void)
{
	char dir[PATH_MAX], err[512] = "", mods[1024];
	struct bm_fsprof p;
	struct bm_suite s;
	int rc;

	snprintf(dir, sizeof(dir), "%s/suites", tmp);
	rc = bm_suite_load(&s, dir, "fifo", err, sizeof(err));
	tap_ok(rc == -BM_ENOTREG && strstr(err, "suites/fifo: not a regular file"),
	       "a FIFO as a suite: %s", err);
	rc = bm_suite_load(&s, dir, "null", err, sizeof(err));
	tap_ok(rc == -BM_ENOTREG && strstr(err, "suites/null: not a regular file"),
	       "/dev/null as a suite: %s", err);
	rc = bm_suite_load(&s, dir, "dir", err, sizeof(err));
	tap_ok(rc == -EISDIR && strstr(err, "suites/dir: Is a directory"), "a folder as a suite: %s", err);
	snprintf(dir, sizeof(dir), "%s/fs", tmp);
	rc = bm_fsprof_load(&p, dir, "fifo", err, sizeof(err));
	tap_ok(rc == -BM_ENOTREG && strstr(err, "fs/fifo: not a regular file"),
	       "a FIFO as a filesystem profile: %s", err);
	TAP_EQ_INT(bm_conf_modules(tmp, mods, sizeof(mods)), -BM_ENOTREG,
		   "a FIFO as bootmark.conf (the host's module lists)");
}

int main(void)
{
	tap_plan(0);
	tu_mkdtemp(tmp);
	alarm(60);   /* a reader that blocks fails, it does not hang make check */
	mk("fifo", "fifo");
	mk("null", "null");
	mk("dir", "dir");
	mk("plain", "suite x=1\n");
	mk("suites", "dir");
	mk("suites/fifo", "fifo");
	mk("suites/null", "null");
	mk("suites/dir", "dir");
	mk("fs", "dir");
	mk("fs/fifo", "fifo");
	mk("bootmark.conf", "fifo");
	test_read();
	test_configs();
	{
		char cmd[PATH_MAX + 16];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
		if (system(cmd))
			tap_diag("cannot remove %s", tmp);
	}
	return tap_done();
}
