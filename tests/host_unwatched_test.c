/* SPDX-License-Identifier: MIT */
/*
 * A boot folder QEMU wrote but bootmark never finished (issue 43, case 6):
 * qemu.log and no meta.json.  Its logs alone never make it completed, a
 * hang or a damaged stream; the guest's own words (a panic) still decide;
 * a folder of logs from elsewhere (no qemu.log) is judged by them alone.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "boot.h"
#include "results.h"
#include "tap.h"
#include "testrec.h"
#include "testutil.h"
#include "util.h"

#define RUN "5eed0043"

static char dir[PATH_MAX];

static void put(const char *name, const char *text)
{
	char path[PATH_MAX * 2];

	bm_path(path, sizeof(path), "%s/%s", dir, name);
	if (bm_write_file_atomic(path, text, strlen(text)))
		tap_bail("cannot write a log");
}

/* The folder's class and reason as bm_boot_read gives them. */
static enum bm_status read_back(char *why, size_t len)
{
	struct bm_results r;
	enum bm_status st;

	if (bm_boot_read(dir, "", &r))
		tap_bail("cannot read the boot folder");
	st = r.status;
	snprintf(why, len, "%s", r.status_why);
	bm_results_free(&r);
	return st;
}

int main(void)
{
	char tmp[] = "/tmp/bm-unwatched-XXXXXX", log[4096], why[256];
	enum bm_status st;

	tap_plan(0);
	tu_mkdtemp(tmp);
	snprintf(dir, sizeof(dir), "%s/6.1.0-53-amd64", tmp);
	mkdir(dir, 0755);
	/* a complete stream: HELLO, one result, END */
	snprintf(log, sizeof(log), "%s%s%s", tu_rec(RUN, 1, 'H', "v=1 kernel=6.1.0-53-amd64 fs=ext4"),
		 tu_rec(RUN, 2, 'R', "wl=dd test=dd8w fs=ext4 rep=1 m_real=1.5:s"),
		 tu_rec(RUN, 3, 'Z', "n=3 results=1 errors=0 tests=1"));
	put("results.log", log);
	put("console.log", "Probing EDD\n");
	st = read_back(why, sizeof(why));
	tap_ok(st == BM_ST_COMPLETED, "logs from elsewhere (no qemu.log) read alone: %s",
	       bm_status_name(st));

	put("qemu.log", "");
	st = read_back(why, sizeof(why));
	tap_ok(st == BM_ST_INFRA_ERROR, "QEMU's folder without meta.json: not completed (%s)",
	       bm_status_name(st));
	tap_ok(strstr(why, "no meta.json: bootmark has not seen this boot end") &&
	       strstr(why, "the logs alone read completed"), "... and says why: %s", why);

	/* cut after the HELLO (a hung guest whose bootmark was killed) */
	snprintf(log, sizeof(log), "%s", tu_rec(RUN, 1, 'H', "v=1 kernel=6.1.0-53-amd64 fs=ext4"));
	put("results.log", log);
	st = read_back(why, sizeof(why));
	tap_ok(st == BM_ST_INFRA_ERROR && strstr(why, "the logs alone read protocol-error"),
	       "cut after HELLO: neither a damaged stream nor a hang (%s: %s)",
	       bm_status_name(st), why);

	/* nothing on the console yet: not no-console either */
	put("results.log", "");
	put("console.log", "");
	st = read_back(why, sizeof(why));
	tap_ok(st == BM_ST_INFRA_ERROR, "empty logs: not no-console (%s)", bm_status_name(st));

	put("results.log", log);
	put("console.log", "[    1.0] Kernel panic - not syncing: Attempted to kill the idle task!\n");
	st = read_back(why, sizeof(why));
	tap_ok(st == BM_ST_PANIC, "a panic on the console is the guest's own word (%s)",
	       bm_status_name(st));
	bm_rm_rf(tmp);
	return tap_done();
}
