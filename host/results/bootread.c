// SPDX-License-Identifier: MIT
/*
 * Reading a boot folder back (boot.h, bm_boot_read).  The logs hold what
 * the guest said; meta.json holds what only the host saw: the watchdog's
 * verdict, QEMU's exit, a signal, the planned tests.  Both are needed for
 * the class run decided, so compare, report, export and bisect never judge
 * a hung or interrupted boot as merely "incomplete".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "boot.h"
#include "json.h"
#include "profile.h"
#include "util.h"

struct meta_facts {
	struct bm_boot_facts f;
	char why[160], said[200];
	int fail_on_warning;
};

/* The console facts of path; none when it is missing or cannot be read
 * (the records decide then). */
static int console_facts(const char *path, struct bm_console *con)
{
	bm_console_read(path, 0, UINT64_MAX, con);
	return 0;
}

int bm_boot_load(const char *dir, const char *run, struct bm_results *r, struct bm_console *con)
{
	char res[PATH_MAX], cons[PATH_MAX];
	int rc, rcc;

	memset(con, 0, sizeof(*con));
	if (bm_path(res, sizeof(res), "%s/results.log", dir) ||
	    bm_path(cons, sizeof(cons), "%s/console.log", dir))
		return -ENAMETOOLONG;
	rc = bm_results_load(r, res, run);
	if ((rc && rc != -ENOENT) || (!rc && r->max_seq)) {
		snprintf(r->source, sizeof(r->source), "results.log");
		return rc ? rc : console_facts(cons, con);
	}
	/* One shared UART (PXE boxes): the records are on the console. */
	if (!rc)
		bm_results_free(r);
	rcc = bm_results_load(r, cons, run);
	snprintf(r->source, sizeof(r->source), "console.log");
	if (rcc == -ENOENT && !rc) {
		/* no console.log: results.log, though it holds no record, is the
		 * only log there is, and says what parse says of it (issue 43) */
		rc = bm_results_load(r, res, run);
		snprintf(r->source, sizeof(r->source), "results.log");
		return rc ? rc : console_facts(res, con);
	}
	return rcc ? rcc : console_facts(cons, con);
}

static long long num(const char *text, size_t len, const char *key, long long dflt)
{
	char v[32], *end;
	long long n;

	if (bm_json_get(text, len, key, v, sizeof(v)))
		return dflt;
	n = strtoll(v, &end, 10);
	return end != v && !*end ? n : dflt;
}

/* 0 and m filled from dir/meta.json; -ENOENT when there is none, -EBADMSG
 * when there is one bootmark did not write (no watchdog member: garbage, or
 * another tool's file), which the verdict then names. */
static int read_meta(const char *dir, struct meta_facts *m)
{
	char path[PATH_MAX], w[32], *text = NULL;
	long long ex, sig;
	size_t len = 0;
	int wi;

	memset(m, 0, sizeof(*m));
	m->f.qemu_status = -1;
	if (bm_path(path, sizeof(path), "%s/meta.json", dir) ||
	    bm_read_file(path, &text, &len, (size_t)1 << 24))
		return -ENOENT;
	if (bm_json_get(text, len, "watchdog", w, sizeof(w)) || (wi = bm_watch_parse(w)) < 0) {
		free(text);
		return -EBADMSG;
	}
	m->f.w = (enum bm_watch)wi;
	if (!bm_json_get(text, len, "watchdog_why", m->why, sizeof(m->why)) && m->why[0])
		m->f.why = m->why;
	if (!bm_json_get(text, len, "qemu_said", m->said, sizeof(m->said)) && m->said[0])
		m->f.why = m->said;
	ex = num(text, len, "qemu_exit", -1);
	sig = num(text, len, "qemu_signal", -1);
	if (ex >= 0 && ex < 256)
		m->f.qemu_status = (int)(ex << 8);      /* as waitpid reports an exit */
	else if (sig > 0 && sig < 128)
		m->f.qemu_status = (int)sig;            /* ... and a death by a signal */
	m->f.planned = num(text, len, "planned_tests", 0);
	m->fail_on_warning = num(text, len, "fail_on_warning", 0) == 1;
	free(text);
	return 0;
}

/*
 * bootmark creates qemu.log before QEMU starts and writes meta.json once
 * QEMU has ended: a folder with the one and not the other is a boot whose
 * end bootmark has not seen (it still runs, or it was killed or crashed and
 * QEMU died with it).
 * Whatever the logs say, the host's facts are missing (its watchdog, QEMU's
 * exit, the plan END must match), so the logs alone prove neither a
 * completed run nor a hang nor a damaged stream: infra-error.  What only
 * the guest can say (a panic, an initramfs failure, a refused disk, a
 * reboot) stays the guest's.
 */
static void unwatched(const char *dir, int meta, struct bm_results *r)
{
	char path[PATH_MAX], why[sizeof(r->status_why)];

	if (bm_path(path, sizeof(path), "%s/qemu.log", dir) || !bm_is_file(path))
		return;  /* a log from elsewhere: judged by itself */
	switch (r->status) {
	case BM_ST_PANIC:
	case BM_ST_INITRAMFS_ERROR:
	case BM_ST_DISK_REFUSED:
	case BM_ST_UNEXPECTED_REBOOT:
		return;
	default:
		break;
	}
	snprintf(why, sizeof(why), "%s: bootmark has not seen this boot end (it still "
		 "runs, or was killed or crashed while QEMU ran); the logs alone read %s",
		 meta == -EBADMSG ? "meta.json is not one bootmark wrote (no watchdog verdict)" :
		 "no meta.json", bm_status_name(r->status));
	r->status = BM_ST_INFRA_ERROR;
	snprintf(r->status_why, sizeof(r->status_why), "%s", why);
}

int bm_boot_read(const char *dir, const char *run, struct bm_results *r)
{
	return bm_boot_read_strict(dir, run, 0, r);
}

int bm_boot_read_strict(const char *dir, const char *run, int fail_on_warning,
			struct bm_results *r)
{
	struct meta_facts m;
	struct bm_console con;
	int rc, meta, have_meta;

	meta = read_meta(dir, &m);
	have_meta = !meta;
	if (meta == -EBADMSG)
		bm_msg("%s/meta.json is not one bootmark wrote (no watchdog verdict): the boot "
		       "is judged by its logs alone", dir);
	rc = bm_boot_load(dir, run ? run : "", r, &con);
	if (rc == -ENOENT && have_meta) {
		/* QEMU never wrote a log: the verdict is the host's alone */
		bm_results_empty(r, run);
		rc = 0;
	}
	if (rc)
		return rc;
	if (!have_meta) {
		con.fail_on_warning = fail_on_warning;
		bm_classify(r, &con, BM_WATCH_NONE, NULL);
		unwatched(dir, meta, r);
		return 0;
	}
	con.fail_on_warning = m.fail_on_warning || fail_on_warning;
	bm_classify_boot(r, &con, &m.f);
	return 0;
}

static double fnum(const char *text, size_t len, const char *key, double dflt)
{
	char v[64], *end;
	double d;

	if (bm_json_get(text, len, key, v, sizeof(v)))
		return dflt;
	d = strtod(v, &end);
	return end != v && !*end ? d : dflt;
}

int bm_boot_load_info(const char *dir, struct bm_load_info *li)
{
	char path[PATH_MAX], v[16], *text = NULL;
	size_t len = 0;

	memset(li, 0, sizeof(*li));
	if (bm_path(path, sizeof(path), "%s/meta.json", dir) ||
	    bm_read_file(path, &text, &len, (size_t)1 << 24))
		return -ENOENT;
	li->known = !bm_json_get(text, len, "load_disturbed", v, sizeof(v));
	li->disturbed = li->known && !strcmp(v, "true");
	li->other_qemu = (int)num(text, len, "load_other_qemu", 0);
	li->icount = num(text, len, "icount", 0) == 1;
	li->exclusive = num(text, len, "exclusive", 0) == 1;
	li->others_pct = fnum(text, len, "load_cpu_others_pct", -1);
	li->steal_pct = fnum(text, len, "load_steal_pct", -1);
	li->load1_max = fnum(text, len, "load_avg1_max", -1);
	free(text);
	return li->known ? 0 : -ENOENT;
}
