// SPDX-License-Identifier: MIT
/*
 * The option tables of --help, within BM_HELP_COLS columns (issue 46: the
 * runner's was 403 wide, bonnie's default and range being its twelve test
 * names).  A row is
 *
 *   name  type  default  range  meaning, wrapped under itself
 *
 * The default and range columns are capped; a value wider than its column
 * reads "(below)" there and follows the meaning as "default: ..." or
 * "values: ...", wrapped the same way.  When the capped columns still leave
 * the meaning under 36 columns, every meaning goes on the lines below its
 * row instead, indented by 8.
 */
#include <stdio.h>
#include <string.h>

#include "opts.h"

#define HELP_DEF_MAX 12         /* widest default kept in its column */
#define HELP_RANGE_MAX 20       /* widest range kept in its column */
#define HELP_MEANING_MIN 36     /* narrower than this: meanings go below */
#define HELP_BELOW 8            /* their indent then */

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

/* Length of the next piece of text: up to the next space, or, when that
 * is wider than room, up to the last ',' or '|' that fits (a list of
 * values is one long word); the whole word when none does. */
static size_t piece_len(const char *t, size_t room)
{
	size_t word = strcspn(t, " "), i, cut = 0;

	if (word <= room)
		return word;
	for (i = 0; i < room; i++)
		if (t[i] == ',' || t[i] == '|')
			cut = i + 1;
	return cut ? cut : word;
}

void bm_help_wrap(FILE *f, const char *text, int col, int indent)
{
	const char *t = text + strspn(text, " ");
	int at = col, empty = 1, glue = 0;

	while (*t) {
		int sep = empty || glue ? 0 : 1;
		size_t room = (size_t)max_int(BM_HELP_COLS - at - sep, 0);
		size_t n = piece_len(t, room);

		if (!empty && n > room) {
			fprintf(f, "\n%*s", indent, "");
			at = indent;
			empty = 1;
			glue = 0;
			continue;
		}
		at += fprintf(f, "%s%.*s", sep ? " " : "", (int)n, t);
		empty = 0;
		t += n;
		glue = *t && *t != ' ';         /* a word cut at ',' or '|' */
		t += strspn(t, " ");
	}
	fputc('\n', f);
}

struct help_cols {
	int name, def, range;   /* widths */
	int head;               /* the meaning's column; 0: below the row */
};

static struct help_cols help_widths(const struct bm_opt *tab, const char *prefix)
{
	struct help_cols w = { 4, 7, 7, 0 };
	char range[256];

	for (const struct bm_opt *o = tab; o->name; o++) {
		int d = o->def && *o->def ? (int)strlen(o->def) : 1;

		bm_opt_range(o, range, sizeof(range));
		w.name = max_int(w.name, (int)(strlen(prefix) + strlen(o->name)));
		if (d <= HELP_DEF_MAX)
			w.def = max_int(w.def, d);
		if ((int)strlen(range) <= HELP_RANGE_MAX)
			w.range = max_int(w.range, (int)strlen(range));
	}
	w.head = 2 + w.name + 2 + 6 + 2 + w.def + 2 + w.range + 2;
	if (BM_HELP_COLS - w.head < HELP_MEANING_MIN)
		w.head = 0;
	return w;
}

/* The meaning and whatever did not fit its column, from column col. */
static void help_tail(FILE *f, const struct bm_opt *o, const char *def, const char *range,
		      int indent)
{
	char extra[1024];

	bm_help_wrap(f, o->help ? o->help : "", indent, indent);
	if (def) {
		snprintf(extra, sizeof(extra), "default: %s", def);
		fprintf(f, "%*s", indent, "");
		bm_help_wrap(f, extra, indent, indent + 2);
	}
	if (range) {
		snprintf(extra, sizeof(extra), "values: %s", range);
		fprintf(f, "%*s", indent, "");
		bm_help_wrap(f, extra, indent, indent + 2);
	}
}

void bm_opts_help(const struct bm_opt *tab, const char *prefix, FILE *f)
{
	struct help_cols w;
	char range[256];
	int n, sw, col;

	prefix = prefix ? prefix : "";
	/* on a command line ("--") a bool is a switch, on by being there and
	 * refusing a value (host/cli/cli.c): "0|1" would invite --tap=1 */
	sw = !strcmp(prefix, "--");
	w = help_widths(tab, prefix);
	n = (int)strlen(prefix);
	col = w.head ? w.head : HELP_BELOW;
	fprintf(f, "  %-*s  %-6s  %-*s  %-*s  %s\n", w.name, "name", "type", w.def, "default",
		w.range, "range", "meaning");
	for (const struct bm_opt *o = tab; o->name; o++) {
		const char *def = o->def && *o->def ? o->def : "-";
		const char *type = bm_opt_type_name(o->type);
		int def_out, range_out;

		bm_opt_range(o, range, sizeof(range));
		if (sw && o->type == BM_OPT_BOOL) {
			type = "switch";
			def = *def == '1' ? "on" : "off";
			snprintf(range, sizeof(range), "-");
		}
		def_out = (int)strlen(def) > w.def;
		range_out = (int)strlen(range) > w.range;
		fprintf(f, "  %s%-*s  %-6s  %-*s  %-*s", prefix, w.name - n, o->name,
			type, w.def, def_out ? "(below)" : def, w.range,
			range_out ? "(below)" : range);
		if (w.head)
			fputs("  ", f);
		else
			fprintf(f, "\n%*s", HELP_BELOW, "");
		help_tail(f, o, def_out ? def : NULL, range_out ? range : NULL, col);
	}
}
