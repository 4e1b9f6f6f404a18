// SPDX-License-Identifier: MIT
/* bootmark export --format json|csv|kcidb DIR...: tidy rows from run directories,
 * or one KCIDB document (host/report/kcidb.c). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot.h"
#include "bootdirs.h"
#include "cli.h"
#include "export.h"
#include "kcidb.h"
#include "outdir.h"
#include "util.h"

struct export_opts {
	char format[8];
	char origin[BM_KCIDB_ORIGIN_MAX];
	char out[PATH_MAX];
};

static const char *const formats[] = { "json", "csv", "kcidb", NULL };

static const struct bm_opt export_tab[] = {
	{ .name = "format", .type = BM_OPT_STR, .off = offsetof(struct export_opts, format),
	  .len = 8, .def = "json", .choices = formats,
	  .help = "json: one array of row objects; csv: header line, then rows; kcidb: one "
		  "KCIDB v5 document (checkouts, builds, tests; docs/results.md)" },
	{ .name = "origin", .type = BM_OPT_STR, .off = offsetof(struct export_opts, origin),
	  .len = BM_KCIDB_ORIGIN_MAX, .def = NULL,
	  .help = "kcidb: the CI system's name in KCIDB, [a-z0-9_]+ (default bootmark)" },
	{ .name = "out", .type = BM_OPT_STR, .off = offsetof(struct export_opts, out),
	  .len = PATH_MAX, .help = "write to this file instead of stdout" },
	BM_OPT_END,
};

static void export_usage(FILE *f)
{
	static const struct bm_usage forms[] = {
		{ .cmd = "bootmark export", .tab = export_tab, .tail = "DIR..." },
		{ .cmd = NULL },
	};

	bm_cli_usage(f, forms);
	fprintf(f, "\nDIR is a run directory (bootmark run --out) or one boot's directory in it.\n"
		   "One row per measured value: kernel, fs, workload, variant, metric, value,\n"
		   "unit, repeat, partial, status, run, label, schema.  Rows are re-read from each\n"
		   "boot's results.log (console.log when that holds no record).  kcidb: one\n"
		   "JSON document for KernelCI's database: a checkout and a build per kernel, a\n"
		   "test per measured value, error and planned test that never ran, and per boot.\n"
		   "Exit: 0 ok, 100 bad input (no such directory, no boot in it), 111 system error.\n\n"
		   "options:\n");
	bm_cli_help(f, export_tab);
}

/* Every row carries the boot's class: a protocol-error boot's intact rows
 * are exported, and say that its stream was damaged.  With kc, the boot goes
 * into the KCIDB document instead. */
static int export_boot(struct bm_export *e, struct bm_kcidb *kc, const char *dir,
		       struct bm_seen *seen)
{
	struct bm_results r;
	const char *label = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
	int rc;

	rc = bm_seen_check(seen, dir);
	if (rc) {
		if (rc > 0)
			bm_msg("%s: given twice (or inside another folder given), exported once", dir);
		return rc < 0 ? rc : 0;
	}
	rc = bm_boot_read(dir, "", &r);
	if (rc) {
		/* a system error, as in compare, report and history add */
		bm_msg("cannot read the logs in %s: %s", dir, strerror(-rc));
		return rc == -ENOMEM ? rc : -EIO;
	}
	if (kc) {
		rc = bm_kcidb_add(kc, dir, label, &r);
		if (rc)
			bm_msg("cannot add %s to the KCIDB document: %s", dir, strerror(-rc));
	} else {
		bm_export_boot(e, label, &r);
	}
	bm_results_free(&r);
	return rc;
}

struct export_ctx {
	struct bm_export *e;
	struct bm_kcidb *kc;
	struct bm_seen *seen;
	int rc;  /* export_boot's error (already reported) */
};

static int export_one(const char *dir, void *arg)
{
	struct export_ctx *x = arg;

	return x->rc = export_boot(x->e, x->kc, dir, x->seen);
}

/* A boot dir itself, or the boot dirs in a run dir. */
static int export_dir(struct bm_export *e, struct bm_kcidb *kc, const char *dir,
		      struct bm_seen *seen)
{
	struct export_ctx x = { e, kc, seen, 0 };
	int rc = bm_boot_dirs(dir, export_one, &x);

	if (x.rc)
		return x.rc;
	if (rc < 0) {
		bm_msg("cannot read directory %s: %s", dir, strerror(-rc));
		return -EINVAL;
	}
	if (!rc) {
		bm_no_boot_msg(dir);
		return -EINVAL;
	}
	return 0;
}

/* The output: --out (created only now, when there is something to write) or stdout. */
static FILE *open_out(const struct export_opts *o)
{
	int fd;
	FILE *f;

	if (!o->out[0])
		return stdout;
	fd = bm_out_open(o->out, O_WRONLY | O_CLOEXEC, 0644);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		bm_msg("cannot create %s: %s", o->out, strerror(fd < 0 ? -fd : errno));
		if (fd >= 0)
			close(fd);
	}
	return f;
}

/* --format kcidb: every boot read first, the document written whole. */
static int export_kcidb(const struct export_opts *o, char **dirs, int nd)
{
	static struct bm_kcidb kc;
	struct bm_seen seen = { 0 };
	FILE *f;
	int i, rc = 0;

	/* the tree's suites name the planned tests that never ran */
	bm_kcidb_init(&kc, o->origin[0] ? o->origin : BM_KCIDB_ORIGIN, NULL);
	for (i = 0; i < nd && !rc; i++)
		rc = export_dir(NULL, &kc, dirs[i], &seen);
	bm_seen_free(&seen);
	if (rc)
		goto out_free;
	f = open_out(o);
	if (!f) {
		rc = -EIO;
		goto out_free;
	}
	rc = bm_kcidb_write(&kc, f);
	if ((f != stdout && fclose(f)) || (f == stdout && fflush(f)) || rc) {
		bm_msg("cannot write %s: %s", o->out[0] ? o->out : "standard output",
		       strerror(rc ? -rc : errno));
		rc = -EIO;
	}
out_free:
	bm_kcidb_free(&kc);
	return rc;
}

int bm_cmd_export(int argc, char **argv)
{
	struct export_opts o;
	struct bm_seen seen = { 0 };
	struct bm_export e;
	char **dirs;
	int i, nd = 0, rc = 0;
	FILE *f;

	if (bm_opts_defaults(export_tab, &o))
		return BM_EXIT_SYSTEM;
	rc = bm_cli_dirs(export_tab, &o, NULL, "export", export_usage, argc, argv, &dirs, &nd);
	if (rc >= 0)
		return rc;
	rc = BM_EXIT_USAGE;
	if (o.origin[0] && strcmp(o.format, "kcidb")) {
		bm_msg("--origin names the CI system of a KCIDB document: it goes with --format kcidb");
		goto out_free_dirs;
	}
	if (o.origin[0] && !bm_kcidb_origin_ok(o.origin)) {
		bm_msg("--origin %s: KCIDB's origin is lowercase letters, digits and _ (at most %d)",
		       o.origin, BM_KCIDB_ORIGIN_MAX - 1);
		goto out_free_dirs;
	}
	for (i = 0; i < nd; i++) {
		if (!bm_is_dir(dirs[i])) {
			bm_msg("%s is not a directory", dirs[i]);
			goto out_free_dirs;
		}
		if (bm_boot_dirs(dirs[i], NULL, NULL) <= 0) {
			bm_no_boot_msg(dirs[i]);
			goto out_free_dirs;
		}
	}
	if (o.out[0] && bm_out_plan_file(o.out, -1))
		goto out_free_dirs;
	if (!strcmp(o.format, "kcidb")) {
		rc = export_kcidb(&o, dirs, nd);
		rc = rc == -EINVAL ? BM_EXIT_USAGE : rc ? BM_EXIT_SYSTEM : BM_EXIT_OK;
		goto out_free_dirs;
	}
	f = open_out(&o);
	if (!f) {
		rc = BM_EXIT_SYSTEM;
		goto out_free_dirs;
	}
	bm_export_begin(&e, f, strcmp(o.format, "csv") ? BM_EXPORT_JSON : BM_EXPORT_CSV);
	for (i = 0, rc = 0; i < nd && !rc; i++)
		rc = export_dir(&e, NULL, dirs[i], &seen);
	bm_seen_free(&seen);
	bm_export_end(&e);
	if ((f != stdout && fclose(f)) || (f == stdout && fflush(f))) {
		bm_msg("cannot write %s: %s", o.out[0] ? o.out : "standard output", strerror(errno));
		rc = -EIO;
	}
	rc = rc == -EINVAL ? BM_EXIT_USAGE : rc ? BM_EXIT_SYSTEM : BM_EXIT_OK;
out_free_dirs:
	free(dirs);
	return rc;
}
