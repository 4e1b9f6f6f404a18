// SPDX-License-Identifier: MIT
/* bootmark report DIR... -o FILE: compare's tables and plots as one HTML page. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "wldesc.h"
#include "html_report.h"
#include "outdir.h"
#include "util.h"

struct report_opts {
	char out[1024];
	struct bm_cmp_rule_text rules;
};

static const struct bm_opt report_tab[] = {
	{ .name = "out", .type = BM_OPT_STR, .off = offsetof(struct report_opts, out),
	  .len = 1024, .def = "report.html", .help = "the HTML file to write (also -o FILE)" },
	BM_CMP_RULE_OPTS(struct report_opts, rules),
	BM_OPT_END,
};

static void report_usage(FILE *f)
{
	static const struct bm_usage forms[] = {
		{ .cmd = "bootmark report", .tab = report_tab, .tail = "DIR..." },
		{ .cmd = NULL },
	};

	const struct bm_wl_desc *const *d;
	const char *sep = "";
	char plots[256] = "";
	size_t n = 0;

	/* the workloads that draw plots, from the registry: a new one shows here */
	for (d = bm_wl_descs; *d; d++)
		if ((*d)->plots && (*d)->plots[0].metric && n < sizeof(plots)) {
			n += (size_t)snprintf(plots + n, sizeof(plots) - n, "%s%s", sep, (*d)->name);
			sep = ", ";
		}
	bm_cli_usage(f, forms);
	fprintf(f, "\nWrites one self-contained HTML page (inline CSS and SVG, no scripts): the\n"
		   "summary and tables of bootmark compare (the same rules and options) and\n"
		   "plots, one series per kernel, center +- stddev of the repeats, of\n  ");
	bm_help_wrap(f, plots, 2, 2);
	fprintf(f, "Exit: 0 ok, 100 bad input, 111 system error.\n\n"
		   "options:\n");
	bm_cli_help(f, report_tab);
}

/* Written next to the target and renamed: no half page on failure. */
static int write_report(const char *out, const struct bm_cmp *c)
{
	char tmp[1100];
	FILE *f;
	int rc = 0;

	if (bm_out_plan_file(out, -1))
		return -EINVAL;
	rc = bm_out_tmp(out, tmp, sizeof(tmp));
	f = rc < 0 ? NULL : fdopen(rc, "w");
	if (!f) {
		if (rc >= 0)
			close(rc);
		rc = rc < 0 ? rc : -errno;
		bm_msg("cannot create a file next to %s: %s", out, strerror(-rc));
		return rc;
	}
	rc = 0;
	bm_html_report(f, c);
	if (ferror(f) | fclose(f)) {
		rc = errno ? -errno : -EIO;
		bm_msg("cannot write %s: %s", tmp, strerror(-rc));
		goto out_unlink;
	}
	if (rename(tmp, out)) {
		rc = -errno;
		bm_msg("cannot rename %s to %s: %s", tmp, out, strerror(errno));
		goto out_unlink;
	}
	return 0;
out_unlink:
	unlink(tmp);
	return rc;
}

static int report(char **dirs, int nd, const struct report_opts *o)
{
	struct bm_cmp_rules rules;
	struct bm_cmp c;
	int i, rc = 0;

	if (bm_cmp_parse_rules(&o->rules, &rules, 0))
		return -EINVAL;
	memset(&c, 0, sizeof(c));
	for (i = 0; i < nd && !rc; i++)
		rc = bm_cmp_add_dir(&c, dirs[i]);
	if (!rc)
		rc = bm_cmp_build(&c, &rules);
	if (!rc)
		rc = write_report(o->out, &c);
	bm_cmp_free(&c);
	return rc;
}

int bm_cmd_report(int argc, char **argv)
{
	static const char *const alias[] = { "-o", "--out" };
	struct report_opts o;
	char **dirs;
	int nd = 0, rc;

	if (bm_opts_defaults(report_tab, &o))
		return BM_EXIT_SYSTEM;
	rc = bm_cli_dirs(report_tab, &o, alias, "report", report_usage, argc, argv, &dirs, &nd);
	if (rc >= 0)
		return rc;
	rc = report(dirs, nd, &o);
	rc = rc == -EINVAL ? BM_EXIT_USAGE : rc ? BM_EXIT_SYSTEM : BM_EXIT_OK;
	free(dirs);
	return rc;
}
