// SPDX-License-Identifier: MIT
/*
 * bootmark history add|series|changes|boots|report|bisect: the results
 * store and what is read from it (host/history/history.h, docs/history.md).
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "export.h"
#include "history.h"
#include "json.h"
#include "kernel.h"
#include "outdir.h"
#include "schema.h"
#include "util.h"

struct hist_opts {
	char db[PATH_MAX], release[BM_REL_MAX], box[256];
	char metric[128], fs[32], host[128], suite[32], method[32], pool[64], order[8], format[8];
	struct bm_cmp_rule_text rules;
	char out[PATH_MAX], git[PATH_MAX];
	int dry_run, confirm;
	long long max_boots;       /* BM_OPT_INT: a long long */
};

static const char *const formats[] = { "text", "csv", "json", NULL };
static const char *const orders[] = { "release", "date", NULL };

#define STR(n, f, d, h) { .name = n, .type = BM_OPT_STR, .off = offsetof(struct hist_opts, f), \
			  .len = sizeof(((struct hist_opts *)0)->f), .def = d, .help = h }
#define CHOICE(n, f, d, c, h) { .name = n, .type = BM_OPT_STR, \
			  .off = offsetof(struct hist_opts, f), .len = sizeof(((struct hist_opts *)0)->f), \
			  .def = d, .choices = c, .help = h }
#define DB STR("db", db, NULL, "the history file (default $XDG_DATA_HOME/bootmark/history.db)")
#define FILTERS \
	STR("fs", fs, NULL, "only this filesystem profile"), \
	STR("host", host, NULL, "only boots made on this host (meta.json's host, or add --as-host)"), \
	STR("suite", suite, NULL, "only boots of this suite"), \
	STR("method", method, NULL, "only boots of this method: qemu-tcg, qemu-tcg-icount, " \
	    "qemu-kvm, console (captured), log; an arm64 guest's end in -arm64"), \
	STR("pool", pool, NULL, "comma list of host, suite, profile, method: series pooled across " \
	    "these (default none: different boxes are different series)"), \
	CHOICE("order", order, "release", orders, "kernels in release order (version sort) " \
	       "or in the order of their first boot (date)")

static const struct bm_opt add_tab[] = {
	DB,
	STR("release", release, NULL, "file the boots under this kernel name instead of the "
	    "release they booted (a lab's own version names)"),
	STR("as-host", box, NULL, "the host the boots are filed under (default: meta.json's host, "
	    "for captured runs the console source)"),
	BM_OPT_END,
};

static const struct bm_opt series_tab[] = {
	DB,
	STR("metric", metric, NULL, "WORKLOAD.TEST.METRIC as export names it (required)"),
	FILTERS,
	CHOICE("format", format, "text", formats, "text, csv or json"),
	BM_OPT_END,
};

static const struct bm_opt changes_tab[] = {
	DB,
	STR("metric", metric, NULL, "only this WORKLOAD.TEST.METRIC (default: every headline metric)"),
	FILTERS,
	BM_CMP_HIST_RULE_OPTS(struct hist_opts, rules),
	CHOICE("format", format, "text", formats, "text, csv or json"),
	{ .name = "confirm", .type = BM_OPT_BOOL, .off = offsetof(struct hist_opts, confirm),
	  .def = "0", .help = "boot again the kernels around each change point not yet sure, add "
	  "the boots, search again, until none is or --max-boots is spent; what bootmark cannot "
	  "boot here is printed (docs/history.md, \"Confirming\")" },
	{ .name = "max-boots", .type = BM_OPT_INT, .off = offsetof(struct hist_opts, max_boots),
	  .def = "4", .min = 1, .max = 1000, .help = "--confirm: boots a kernel on average, each "
	  "host, suite, profile and method" },
	STR("out", out, NULL, "--confirm: the folder of the boots (default confirm-<UTC time>)"),
	{ .name = "dry-run", .type = BM_OPT_BOOL, .off = offsetof(struct hist_opts, dry_run),
	  .def = "0", .help = "--confirm: print the first round's boots, boot nothing" },
	BM_OPT_END,
};

static const struct bm_opt report_tab[] = {
	DB,
	STR("out", out, NULL, "the HTML file to write (required; -o)"),
	STR("metric", metric, NULL, "only this WORKLOAD.TEST.METRIC (default: every headline metric)"),
	FILTERS,
	BM_CMP_HIST_RULE_OPTS(struct hist_opts, rules),
	BM_OPT_END,
};

static const struct bm_opt bisect_tab[] = {
	DB,
	STR("out", out, NULL, "bootmark bisect's --out (default: bisect-<change id>)"),
	STR("git", git, NULL, "a kernel tree: print the good and bad commits and the git bisect "
	    "run command instead"),
	{ .name = "dry-run", .type = BM_OPT_BOOL, .off = offsetof(struct hist_opts, dry_run),
	  .def = "0", .help = "write the candidate list and print the command, boot nothing" },
	STR("metric", metric, NULL, "the filters and rules the change was found with"),
	FILTERS,
	BM_CMP_HIST_RULE_OPTS(struct hist_opts, rules),
	BM_OPT_END,
};

static const struct bm_opt boots_tab[] = {
	DB,
	CHOICE("format", format, "text", formats, "text, csv or json"),
	BM_OPT_END,
};

static const struct bm_usage forms[] = {
	{ .cmd = "bootmark history add", .tab = add_tab, .tail = "DIR..." },
	{ .cmd = "bootmark history boots", .tab = boots_tab },
	{ .cmd = "bootmark history series", .lead = "--metric W.V.M", .tab = series_tab },
	{ .cmd = "bootmark history changes", .tab = changes_tab, .tail = "[-- RUN-OPTIONS]" },
	{ .cmd = "bootmark history report", .lead = "--out FILE", .tab = report_tab },
	{ .cmd = "bootmark history bisect", .lead = "CHANGE", .tab = bisect_tab,
	  .tail = "[-- BISECT-OPTIONS]" },
	{ .cmd = NULL },
};

static void usage(FILE *f)
{
	bm_cli_usage(f, forms);
	fprintf(f, "\nA history keeps every boot added (a run folder or one boot), its records and\n"
		   "provenance; series run in kernel release order; changes are searched in every\n"
		   "headline metric (E-divisive splits, t-tests, Benjamini-Hochberg and\n"
		   "compare's minimum change; docs/history.md).  -o is --out.\n"
		   "Exit: 0 ok (changes: no regression), %d changes: a regression was found,\n"
		   "100 bad input (a file that is not a history, a newer schema, no boot in DIR),\n"
		   "111 system error; bisect: bootmark bisect's code.\n", BM_EXIT_REGRESSION);
}

/* The one form of SUB, then its options */
static void sub_usage(FILE *f, const struct bm_opt *tab)
{
	const struct bm_usage *u;

	for (u = forms; u->cmd; u++)
		if (u->tab == tab) {
			struct bm_usage one[2] = { *u, { .cmd = NULL } };

			bm_cli_usage(f, one);
			break;
		}
	fprintf(f, "\noptions:\n");
	bm_cli_help(f, tab);
}

/* Options and the words that are not options; 1 after --help, -EINVAL. */
static int parse(const struct bm_opt *tab, struct hist_opts *o, int argc,
		 char **argv, char **words, int *nw)
{
	const char *name, *val;
	int i, rc;

	*nw = 0;
	if (bm_opts_defaults(tab, o))
		return -EINVAL;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o"))
			argv[i] = "--out";
		rc = bm_cli_step(tab, o, NULL, argc, argv, &i, &name, &val);
		if (rc == 1) {
			sub_usage(stdout, tab);
			return 1;
		}
		if (rc)
			return -EINVAL;
		if (!name)
			words[(*nw)++] = (char *)val;
	}
	if (!o->db[0] && bm_hist_default_path(o->db, sizeof(o->db)))
		return -EINVAL;
	return 0;
}

static int exit_of(int rc)
{
	return !rc ? BM_EXIT_OK : rc == -EINVAL || rc == -ENOENT ? BM_EXIT_USAGE : BM_EXIT_SYSTEM;
}

static int cmd_add(struct hist_opts *o, char **dirs, int nd)
{
	struct bm_hist_add_opts ao = { .release = o->release, .host = o->box };
	struct bm_hist_add_stats st = { 0 };
	struct bm_hist h;
	int i, rc;

	if (!nd) {
		bm_msg("missing DIR (see bootmark history add --help)");
		return BM_EXIT_USAGE;
	}
	for (i = 0; i < nd; i++)
		if (!bm_is_dir(dirs[i])) {
			bm_msg("%s is not a directory", dirs[i]);
			return BM_EXIT_USAGE;
		}
	if ((rc = bm_hist_open(&h, o->db, BM_HIST_CREATE)))
		return exit_of(rc);
	for (i = 0, rc = 0; i < nd && !rc; i++)
		rc = bm_hist_add_dir(&h, dirs[i], &ao, &st);
	bm_hist_close(&h);
	printf("%d boot%s added, %d already in %s (%lld values)\n", st.added,
	       st.added == 1 ? "" : "s", st.known, o->db, st.values);
	return exit_of(rc);
}

static int fill_filter(const struct hist_opts *o, struct bm_hist_filter *f, int headline)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->metric, sizeof(f->metric), "%s", o->metric);
	snprintf(f->fs, sizeof(f->fs), "%s", o->fs);
	snprintf(f->host, sizeof(f->host), "%s", o->host);
	snprintf(f->suite, sizeof(f->suite), "%s", o->suite);
	snprintf(f->method, sizeof(f->method), "%s", o->method);
	f->order = !strcmp(o->order, "date") ? BM_HIST_BY_DATE : BM_HIST_BY_RELEASE;
	f->headline_only = headline && !o->metric[0];
	return bm_hist_parse_pool(f, o->pool);
}

static enum bm_hist_fmt fmt_of(const struct hist_opts *o)
{
	return !strcmp(o->format, "csv") ? BM_HIST_CSV :
	       !strcmp(o->format, "json") ? BM_HIST_JSON : BM_HIST_TEXT;
}

/* Opens the history and loads what o selects. */
static int load(struct hist_opts *o, int headline, struct bm_hist *h, struct bm_hist_data *d)
{
	struct bm_hist_filter f;
	int rc;

	if (fill_filter(o, &f, headline))
		return -EINVAL;
	if ((rc = bm_hist_open(h, o->db, 0)))
		return rc;
	rc = bm_hist_load(h, &f, d);
	if (rc)
		bm_hist_close(h);
	return rc;
}

static int cmd_series(struct hist_opts *o)
{
	struct bm_hist_data d;
	struct bm_hist h;
	int rc;

	if (!o->metric[0]) {
		bm_msg("missing --metric (see bootmark history series --help)");
		return BM_EXIT_USAGE;
	}
	if ((rc = load(o, 0, &h, &d)))
		return exit_of(rc);
	if (!d.nseries) {
		/* an empty answer says why: a metric the history never stored is bad
		 * input; one it has, that the filters or the boots' classes left out,
		 * is an empty series */
		char have[320];
		int known = bm_hist_metric_known(&h, o->metric, have, sizeof(have));

		if (known == 0) {
			bm_msg("%s holds no metric %s%s%s", o->db, o->metric,
			       have[0] ? "; of that workload it has " : " (nor any of its workload)",
			       have);
			rc = BM_EXIT_USAGE;
			goto out_free;
		}
		if (known < 0) {
			rc = BM_EXIT_SYSTEM;
			goto out_free;
		}
	}
	bm_hist_print_series(stdout, &d, fmt_of(o));
	rc = BM_EXIT_OK;
out_free:
	bm_hist_data_free(&d);
	bm_hist_close(&h);
	return rc;
}

/* Loads, searches and reads the stored bisect verdicts. */
static int find_changes(struct hist_opts *o, struct bm_hist *h, struct bm_hist_data *d,
			struct bm_hist_changes *c)
{
	struct bm_cmp_rules rules;
	int rc;

	if (bm_cmp_parse_rules(&o->rules, &rules, 1))
		return -EINVAL;
	if ((rc = load(o, 1, h, d)))
		return rc;
	rc = bm_hist_changes(d, &rules, c);
	if (!rc)
		rc = bm_hist_changes_verdicts(h, c);
	if (rc) {
		bm_hist_changes_free(c);
		bm_hist_data_free(d);
		bm_hist_close(h);
	}
	return rc;
}

static int cmd_confirm(struct hist_opts *o, char **extra, int nextra)
{
	struct bm_hist_confirm_opts co = { .out = o->out, .max_boots = (int)o->max_boots,
					   .dry_run = o->dry_run, .extra = extra, .nextra = nextra,
					   .fmt = fmt_of(o) };
	struct bm_hist_filter f;
	struct bm_cmp_rules rules;
	struct bm_hist h;
	char now[32];
	int rc;

	if (bm_cmp_parse_rules(&o->rules, &rules, 1) || fill_filter(o, &f, 1))
		return BM_EXIT_USAGE;
	if (!o->out[0]) {
		char *w = now;

		bm_utc_now(now, sizeof(now));
		for (const char *r = now; *r; r++)   /* 20261206T034500Z */
			if (*r != '-' && *r != ':')
				*w++ = *r;
		*w = '\0';
		snprintf(o->out, sizeof(o->out), "confirm-%s", now);
	}
	if (!o->dry_run && bm_out_plan_dir(o->out))
		return BM_EXIT_USAGE;
	if ((rc = bm_hist_open(&h, o->db, 0)))
		return exit_of(rc);
	co.filter = &f;
	co.rules = &rules;
	rc = bm_hist_confirm(&h, &co);
	bm_hist_close(&h);
	return rc;
}

static int cmd_changes(struct hist_opts *o, char **extra, int nextra)
{
	struct bm_hist_changes c;
	struct bm_hist_data d;
	struct bm_hist h;
	int rc;

	if (o->confirm)
		return cmd_confirm(o, extra, nextra);
	if (nextra || o->dry_run || o->out[0]) {
		bm_msg("--out, --dry-run and options after -- go with --confirm");
		return BM_EXIT_USAGE;
	}
	if ((rc = find_changes(o, &h, &d, &c)))
		return exit_of(rc);
	bm_hist_print_changes(stdout, &d, &c, fmt_of(o));
	rc = c.regressions ? BM_EXIT_REGRESSION : BM_EXIT_OK;
	bm_hist_changes_free(&c);
	bm_hist_data_free(&d);
	bm_hist_close(&h);
	return rc;
}

static int cmd_report(struct hist_opts *o)
{
	struct bm_hist_changes c;
	struct bm_hist_data d;
	struct bm_hist h;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	if (!o->out[0]) {
		bm_msg("missing -o FILE (see bootmark history report --help)");
		return BM_EXIT_USAGE;
	}
	if (bm_out_plan_file(o->out, -1))
		return BM_EXIT_USAGE;
	if ((rc = find_changes(o, &h, &d, &c)))
		return exit_of(rc);
	f = open_memstream(&buf, &len);
	rc = f ? bm_hist_html(f, &d, &c, o->db) : -errno;
	if (f && fclose(f) && !rc)
		rc = -errno;
	if (!rc)
		rc = bm_write_file_atomic(o->out, buf, len);
	if (rc)
		bm_msg("cannot write %s: %s", o->out, strerror(-rc));
	else
		printf("%s: %zu series, %zu change%s\n", o->out, d.nseries, c.n, c.n == 1 ? "" : "s");
	free(buf);
	bm_hist_changes_free(&c);
	bm_hist_data_free(&d);
	bm_hist_close(&h);
	return rc ? BM_EXIT_SYSTEM : BM_EXIT_OK;
}

static int cmd_boots(struct hist_opts *o)
{
	struct bm_hist_filter f = { .order = BM_HIST_BY_RELEASE, .no_values = 1 };
	struct bm_hist_data d;
	struct bm_hist h;
	size_t i;
	int rc;

	if ((rc = bm_hist_open(&h, o->db, 0)))
		return exit_of(rc);
	if ((rc = bm_hist_load(&h, &f, &d))) {
		bm_hist_close(&h);
		return exit_of(rc);
	}
	if (fmt_of(o) == BM_HIST_TEXT)
		printf("%-28s %-8s %-32s %-18s %-16s %s\n", "label", "run", "kernel", "class", "method",
		       "start");
	else if (fmt_of(o) == BM_HIST_CSV)
		printf("label,run,kernel,position,class,why,host,suite,method,start\n");
	else
		printf("{\n  \"schema\": \"%s\",\n  \"version\": 1,\n  \"boots\": [", BM_SCHEMA_HBOOTS);
	for (i = 0; i < d.nboots; i++) {
		const struct bm_hist_boot *b = &d.boots[i];
		const struct bm_hist_kernel *k = &d.kernels[b->kidx];

		if (fmt_of(o) == BM_HIST_TEXT) {
			printf("%-28s %-8s %-32s %-18s %-16s %s\n", b->label, b->run[0] ? b->run : "-",
			       k->name, b->cls, b->method, b->start[0] ? b->start : "-");
		} else {
			const char *v[] = { b->label, b->run, k->name, NULL, b->cls, b->why, b->host,
					    b->suite, b->method, b->start };
			const char *keys[] = { "label", "run", "kernel", "position", "class", "why",
					       "host", "suite", "method", "start" };
			int j;

			if (fmt_of(o) == BM_HIST_JSON)
				printf("%s\n    {", i ? "," : "");
			for (j = 0; j < 10; j++) {
				if (fmt_of(o) == BM_HIST_JSON)
					printf("%s\"%s\": ", j ? ", " : "", keys[j]);
				if (!v[j]) {
					printf("%d", k->pos);
				} else if (fmt_of(o) == BM_HIST_JSON) {
					bm_json_escape(stdout, v[j]);
				} else {
					bm_csv_field(stdout, v[j]);
				}
				if (fmt_of(o) == BM_HIST_CSV)
					putchar(j < 9 ? ',' : '\n');
			}
			if (fmt_of(o) == BM_HIST_JSON)
				putchar('}');
		}
	}
	if (fmt_of(o) == BM_HIST_JSON)
		printf("\n  ]\n}\n");
	bm_hist_data_free(&d);
	bm_hist_close(&h);
	return BM_EXIT_OK;
}

static int cmd_bisect(struct hist_opts *o, char **words, int nw, char **extra, int nextra)
{
	struct bm_hist_bisect_opts bo = { .out = o->out, .git = o->git, .dry_run = o->dry_run,
					  .extra = extra, .nextra = nextra };
	struct bm_hist_changes c;
	struct bm_hist_data d;
	struct bm_hist h;
	int rc;

	if (nw != 1) {
		bm_msg("give one CHANGE, the id history changes shows (see bootmark history bisect "
		       "--help)");
		return BM_EXIT_USAGE;
	}
	bo.change = words[0];
	if ((rc = find_changes(o, &h, &d, &c)))
		return exit_of(rc);
	rc = bm_hist_bisect(&h, &d, &c, &bo);
	bm_hist_changes_free(&c);
	bm_hist_data_free(&d);
	bm_hist_close(&h);
	return rc;
}

int bm_cmd_history(int argc, char **argv)
{
	static const struct {
		const char *name;
		const struct bm_opt *tab;
	} subs[] = {
		{ "add", add_tab }, { "series", series_tab }, { "changes", changes_tab },
		{ "report", report_tab }, { "bisect", bisect_tab }, { "boots", boots_tab },
	};
	struct hist_opts *o = NULL;
	char **words = NULL, **extra = NULL;
	int i, s, nw = 0, nextra = 0, rc = BM_EXIT_USAGE;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? BM_EXIT_USAGE : BM_EXIT_OK;
	}
	for (s = 0; s < (int)(sizeof(subs) / sizeof(subs[0])) && strcmp(subs[s].name, argv[1]); s++)
		;
	if (s == (int)(sizeof(subs) / sizeof(subs[0]))) {
		bm_msg("unknown history command '%s'", argv[1]);
		usage(stderr);
		return BM_EXIT_USAGE;
	}
	/* bisect, changes --confirm: what follows "--" goes to bootmark bisect or run untouched */
	for (i = 2; i < argc && strcmp(argv[i], "--"); i++)
		;
	if (i < argc && (!strcmp(subs[s].name, "bisect") || !strcmp(subs[s].name, "changes"))) {
		extra = argv + i + 1;
		nextra = argc - i - 1;
		argc = i;
	}
	o = calloc(1, sizeof(*o));
	words = calloc((size_t)argc + 1, sizeof(*words));
	if (!o || !words) {
		rc = BM_EXIT_SYSTEM;
		goto out_free;
	}
	rc = parse(subs[s].tab, o, argc - 1, argv + 1, words, &nw);
	if (rc) {
		rc = rc == 1 ? BM_EXIT_OK : BM_EXIT_USAGE;
		goto out_free;
	}
	if (nw && strcmp(subs[s].name, "add") && strcmp(subs[s].name, "bisect")) {
		bm_msg("unexpected argument '%s' (see bootmark history %s --help)", words[0],
		       subs[s].name);
		rc = BM_EXIT_USAGE;
		goto out_free;
	}
	switch (s) {
	case 0: rc = cmd_add(o, words, nw); break;
	case 1: rc = cmd_series(o); break;
	case 2: rc = cmd_changes(o, extra, nextra); break;
	case 3: rc = cmd_report(o); break;
	case 4: rc = cmd_bisect(o, words, nw, extra, nextra); break;
	default: rc = cmd_boots(o); break;
	}
out_free:
	free(o);
	free(words);
	fflush(stdout);
	return rc;
}
