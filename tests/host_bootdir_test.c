/* SPDX-License-Identifier: MIT */
/*
 * Issue 43, case 12: readers of a boot folder agree with parse and with
 * docs/exit-codes.md.
 *
 * - A folder whose results.log is empty or garbage and which has no
 *   console.log is a boot all the same: no-console or no-runner, as parse
 *   says of the log; compare, export and report said 111 "No such file or
 *   directory".
 * - A boot folder whose log cannot be read (a FIFO planted as results.log
 *   beside its console.log) is a system error, 111, in compare, export and
 *   history add alike (export and history add said 100 for such errors, and
 *   the old reader waited on the FIFO for ever).
 * - A suite's disk_size more than a file on --out's filesystem can hold is
 *   refused before anything exists (it failed 111 after --out was made).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "boot.h"
#include "cli.h"
#include "results.h"
#include "setup.h"
#include "tap.h"
#include "testcli.h"
#include "testutil.h"
#include "util.h"

static char tmp[] = "/tmp/bm-bootdir.XXXXXX";

static void test_logless_folders(void)
{
	static const struct {
		const char *text;
		enum bm_status st;
	} kinds[] = {
		{ "", BM_ST_NO_CONSOLE },
		{ "garbage\n\001\002 not a record\n", BM_ST_NO_RUNNER },
	};
	char root[PATH_MAX], dir[PATH_MAX], path[PATH_MAX], html[PATH_MAX], *out;
	struct bm_results r;
	FILE *f = NULL;
	size_t i;
	int rc;

	snprintf(root, sizeof(root), "%s/logless", tmp);
	snprintf(html, sizeof(html), "%s/r.html", tmp);
	for (i = 0; i < 2; i++) {
		const char *name = bm_status_name(kinds[i].st);
		const char *par[] = { "parse", dir, NULL }, *cmp[] = { "compare", root, NULL };
		const char *exp[] = { "export", root, NULL };
		const char *rep[] = { "report", root, "-o", html, NULL };

		if (bm_path(dir, sizeof(dir), "%s/k", root) || bm_mkdir_p(dir, 0755) ||
		    bm_path(path, sizeof(path), "%s/results.log", dir) || !(f = fopen(path, "w")))
			tap_bail("cannot write results.log");
		fputs(kinds[i].text, f);
		fclose(f);
		rc = bm_boot_read(dir, "", &r);
		tap_ok(rc == 0 && r.status == kinds[i].st, "results.log %s, no console.log: %s "
		       "(rc %d)", i ? "of garbage" : "empty", bm_status_name(r.status), rc);
		bm_results_free(&r);
		rc = tu_run_cmd(bm_cmd_parse, par, &out, NULL);
		tap_ok(rc == bm_status_exit(kinds[i].st) && strstr(out, name),
		       "parse of the folder: %s, exit %d", name, rc);
		free(out);
		rc = tu_run_cmd(bm_cmd_compare, cmp, &out, NULL);
		tap_ok(rc == 0 && strstr(out, name) && !strstr(out, "No such file"),
		       "compare: %s, exit %d", name, rc);
		free(out);
		rc = tu_run_cmd(bm_cmd_export, exp, &out, NULL);
		tap_ok(rc == 0 && !strstr(out, "No such file"), "export: no rows, exit %d", rc);
		free(out);
		rc = tu_run_cmd(bm_cmd_report, rep, &out, NULL);
		tap_ok(rc == 0 && bm_is_file(html), "report: a page, exit %d", rc);
		free(out);
		unlink(html);
		bm_rm_rf(root);
	}
}

/* A log that cannot be read is the host's failure: 111 for every reader. */
static void test_unreadable(void)
{
	char root[PATH_MAX], dir[PATH_MAX], path[PATH_MAX], db[PATH_MAX], *out;
	const char *cmp[] = { "compare", root, NULL }, *exp[] = { "export", root, NULL };
	const char *add[] = { "history", "add", "--db", db, root, NULL };
	FILE *f = NULL;
	int rc;

	snprintf(root, sizeof(root), "%s/fifo", tmp);
	snprintf(db, sizeof(db), "%s/h.db", tmp);
	if (bm_path(dir, sizeof(dir), "%s/k", root) || bm_mkdir_p(dir, 0755) ||
	    bm_path(path, sizeof(path), "%s/console.log", dir) || !(f = fopen(path, "w")))
		tap_bail("cannot make a boot folder");
	fputs("[    0.000000] Linux version 6.1.0-53-amd64\n", f);
	fclose(f);
	if (bm_path(path, sizeof(path), "%s/results.log", dir) || mkfifo(path, 0600))
		tap_bail("cannot make a FIFO");
	rc = tu_run_cmd(bm_cmd_compare, cmp, &out, NULL);
	tap_ok(rc == 111 && strstr(out, "cannot read the logs"), "compare: 111 (%d)", rc);
	free(out);
	rc = tu_run_cmd(bm_cmd_export, exp, &out, NULL);
	tap_ok(rc == 111 && strstr(out, "cannot read the logs"), "export: 111 (%d)", rc);
	free(out);
	rc = tu_run_cmd(bm_cmd_history, add, &out, NULL);
	tap_ok(rc == 111 && strstr(out, "cannot read the logs"), "history add: 111 (%d)", rc);
	free(out);
	bm_rm_rf(root);
	unlink(db);
	strcat(db, "-wal");
	unlink(db);
	strcpy(db + strlen(db) - 4, "-shm");
	unlink(db);
}

/* bm_setup_check_disk(s, out), its message in *msg. */
static int check_disk(const struct bm_setup *s, const char *out, char **msg)
{
	char path[PATH_MAX];
	int o2 = dup(2), fd, rc;

	snprintf(path, sizeof(path), "%s/msg", tmp);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || o2 < 0)
		tap_bail("cannot catch stderr");
	fflush(stderr);
	dup2(fd, 2);
	rc = bm_setup_check_disk(s, out);
	fflush(stderr);
	dup2(o2, 2);
	close(fd);
	close(o2);
	*msg = NULL;
	if (bm_read_file(path, msg, NULL, 1 << 16))
		*msg = strdup("");
	(*msg)[strcspn(*msg, "\n")] = '\0';
	unlink(path);
	return rc;
}

static void test_disk_size(void)
{
	struct bm_setup *s = calloc(1, sizeof(*s));
	char out[PATH_MAX], *msg;
	struct statfs fs;
	int rc;

	if (!s)
		tap_bail("calloc");
	snprintf(s->suite.name, sizeof(s->suite.name), "big");
	/* --out need not exist: its nearest folder's filesystem is asked */
	snprintf(out, sizeof(out), "%s/not/yet", tmp);
	s->suite.disk_size = 1ull << 30;
	rc = check_disk(s, out, &msg);
	tap_ok(rc == 0 && !msg[0], "disk_size=1G fits");
	free(msg);
	s->suite.disk_size = UINT64_MAX;
	rc = check_disk(s, out, &msg);
	tap_ok(rc == -EINVAL && strstr(msg, "disk_size=18446744073709551615"),
	       "16 EiB fits no file anywhere: %s", msg);
	free(msg);
	/* ext4 with 4 KiB blocks holds files of 16 TiB at most */
	s->suite.disk_size = 100ull << 40;
	if (statfs(tmp, &fs) || fs.f_type != 0xEF53) {
		tap_skip("the test folder is not on ext4", "disk_size=100T on ext4 is refused");
	} else {
		rc = check_disk(s, out, &msg);
		tap_ok(rc == -EINVAL && strstr(msg, "disk_size=109951162777600") &&
		       strstr(msg, "File too large"), "disk_size=100T on ext4 is refused: %s", msg);
		free(msg);
	}
	tap_ok(!bm_is_dir(out) && tu_entries(tmp) == 0, "nothing was made, nothing left");
	free(s);
}

int main(void)
{
	tap_plan(0);
	tu_mkdtemp(tmp);
	test_logless_folders();
	test_unreadable();
	test_disk_size();
	bm_rm_rf(tmp);
	return tap_done();
}
