// SPDX-License-Identifier: MIT
/* Command-line options from the same bm_opt tables as config files. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util.h"

static const struct bm_opt *find(const struct bm_opt *tab, const char *name, size_t n)
{
	for (; tab && tab->name; tab++)
		if (strlen(tab->name) == n && !strncmp(tab->name, name, n))
			return tab;
	return NULL;
}

static int in_list(const char *const *list, const char *name, size_t n)
{
	for (; list && *list; list++)
		if (strlen(*list) == n && !strncmp(*list, name, n))
			return 1;
	return 0;
}

/* The option a word names ("--out" or "--out=x"), or NULL; *n its length. */
static const char *opt_word(const char *w, size_t *n)
{
	const char *eq;

	if (strncmp(w, "--", 2) || !w[2])
		return NULL;
	w += 2;
	eq = strchr(w, '=');
	*n = eq ? (size_t)(eq - w) : strlen(w);
	return w;
}

/*
 * The word of argv before i that gave option o already, or NULL.  argv is
 * read as bm_cli_step reads it (a value word is skipped); every option word
 * before i was accepted by it, so this sees what the caller saw.  A repeat
 * keeps the last value, as getopt's users do, and says so: "--out a ...
 * --out b" in a pasted command line was silent before (issue 46).
 */
static const char *given_before(const struct bm_opt *tab, char **argv, int i,
				const struct bm_opt *o)
{
	const struct bm_opt *p;
	const char *w;
	size_t n;

	for (int j = 1; j < i; j++) {
		w = opt_word(argv[j], &n);
		if (!w)
			continue;
		p = find(tab, w, n);
		if (p == o)
			return argv[j];
		/* a value word follows an option given without '=' */
		if (!w[n] && (!p || p->type != BM_OPT_BOOL))
			j++;
	}
	return NULL;
}

int bm_cli_step(const struct bm_opt *tab, void *obj, const char *const *extra,
		int argc, char **argv, int *i, const char **name, const char **val)
{
	const char *arg = argv[*i], *eq;
	const struct bm_opt *o;
	char err[256], key[64];
	size_t n;
	int rc;

	*name = NULL;
	*val = arg;
	if (!strcmp(arg, "--help") || !strcmp(arg, "-h"))
		return 1;
	if (strncmp(arg, "--", 2) || !arg[2])
		return 0;
	arg += 2;
	eq = strchr(arg, '=');
	n = eq ? (size_t)(eq - arg) : strlen(arg);
	o = find(tab, arg, n);
	if (!o && !in_list(extra, arg, n)) {
		bm_msg("unknown option --%.*s (see --help)", (int)n, arg);
		return -EINVAL;
	}
	if (eq && o && o->type == BM_OPT_BOOL) {
		/* a switch is on by being there (docs/cli.md): --tap=no would read
		 * as a yes to someone and a no to someone else */
		bm_msg("option --%.*s takes no value (given '%s')", (int)n, arg, eq + 1);
		return -EINVAL;
	}
	if (eq) {
		*val = eq + 1;
	} else if (o && o->type == BM_OPT_BOOL) {
		*val = "1";
	} else if (*i + 1 < argc) {
		*val = argv[++*i];
	} else {
		bm_msg("option --%.*s needs a value", (int)n, arg);
		return -EINVAL;
	}
	if (!o) {
		/* returned to the caller; *name points into argv, so no '=' */
		if (eq) {
			static char extra_name[64];

			snprintf(extra_name, sizeof(extra_name), "%.*s", (int)n, arg);
			*name = extra_name;
		} else {
			*name = arg;
		}
		return 0;
	}
	/* the last one wins, as scripts that add to a line of defaults expect,
	 * but never silently */
	if (given_before(tab, argv, *i - (!eq && o->type != BM_OPT_BOOL), o))
		bm_msg("option --%s given twice: the last one (%s) is used", o->name, *val);
	snprintf(key, sizeof(key), "%.*s", (int)n, arg);
	rc = bm_opt_set(tab, obj, key, *val, err, sizeof(err));
	if (rc) {
		bm_msg("%s", err);
		return -EINVAL;
	}
	*name = o->name;
	return 0;
}

void bm_cli_help(FILE *f, const struct bm_opt *tab)
{
	bm_opts_help(tab, "--", f);
}

int bm_cli_dirs(const struct bm_opt *tab, void *obj, const char *const *alias,
		const char *cmd, void (*usage)(FILE *), int argc, char **argv,
		char ***dirs, int *nd)
{
	const char *name, *val;
	int i, rc;

	*nd = 0;
	*dirs = calloc((size_t)argc + 1, sizeof(**dirs));
	if (!*dirs)
		return BM_EXIT_SYSTEM;
	for (i = 1; i < argc; i++) {
		if (alias && !strcmp(argv[i], alias[0]))
			argv[i] = (char *)alias[1];
		rc = bm_cli_step(tab, obj, NULL, argc, argv, &i, &name, &val);
		if (rc == 1) {
			usage(stdout);
			rc = BM_EXIT_OK;
			goto out_free_dirs;
		}
		if (rc) {
			rc = BM_EXIT_USAGE;
			goto out_free_dirs;
		}
		if (!name)
			(*dirs)[(*nd)++] = (char *)val;
	}
	if (*nd)
		return -1;
	bm_msg("missing DIR (see bootmark %s --help)", cmd);
	rc = BM_EXIT_USAGE;
out_free_dirs:
	free(*dirs);
	*dirs = NULL;
	return rc;
}

/*
 * Metavariables of the synopses (bm_cli_usage).  The option tables say what a
 * value is (type, range, choices) but not how a synopsis names it; an option
 * not here gets N for a number, SIZE, its choices, its default as an example
 * value, or its name in capitals.  cmd NULL: every command.
 */
static const struct {
	const char *cmd, *name, *meta;
} metas[] = {
	{ NULL, "suite", "NAME" },
	{ NULL, "fs", "FS[,FS...]" },
	{ "bisect", "fs", "FS" },
	{ "bisect-step", "fs", "FS" },
	{ NULL, "out", "DIR" },
	{ "export", "out", "FILE" },
	{ "report", "out", "FILE" },
	{ "lava", "out", "FILE" },
	{ "pxe", "out", "TFTPDIR" },
	{ "run", "repeat", "N|auto" },
	{ NULL, "cov", "PCT" },
	{ NULL, "configs", "DIR" },
	{ NULL, "image", "FILE" },
	{ NULL, "cpu", "MODEL" },
	{ NULL, "extra-initrd", "FILE" },
	{ NULL, "decoy-disk", "FILE" },
	{ NULL, "junit", "FILE" },
	{ NULL, "run", "ID" },
	{ NULL, "mem", "MiB" },
	{ NULL, "silence-timeout", "S" },
	{ NULL, "timeout", "S" },
	{ "lava", "timeout", "MIN" },
	{ NULL, "candidates", "FILE" },
	{ NULL, "metric", "W.V.M" },
	{ NULL, "good-value", "X" },
	{ NULL, "bad-value", "Y" },
	{ NULL, "good", "DIR" },
	{ NULL, "bad", "DIR" },
	{ NULL, "kernel", "SPEC" },
	{ NULL, "kernel-file", "FILE" },
	{ NULL, "src", "DIR" },
	{ NULL, "build-out", "DIR" },
	{ NULL, "base", "defconfig|allnoconfig|tinyconfig|FILE" },
	{ NULL, "fragment", "FILE" },
	{ NULL, "mac", "MAC" },
	{ NULL, "console", "CONSOLE" },
	{ NULL, "results", "DEV" },
	{ NULL, "disk-serial", "SERIAL" },
	{ NULL, "disk-wwn", "WWN" },
	{ NULL, "disk-model", "MODEL" },
	{ NULL, "disk-size", "SIZE" },
	{ NULL, "disk-wipe", "SERIAL" },
	{ NULL, "append", "WORDS" },
	{ NULL, "watchdog", "S" },
	{ NULL, "ipxe-base", "URL" },
	{ NULL, "run-seed", "WORD" },
	{ NULL, "pxelinux", "FILE" },
	{ NULL, "syslinux-modules", "DIR" },
	{ NULL, "advance", "RUN" },
	{ NULL, "serial", "DEV[,BAUD]" },
	{ NULL, "tcp", "HOST:PORT" },
	{ NULL, "file", "LOG" },
	{ NULL, "idle", "S" },
	{ NULL, "silence", "S" },
	{ "capture", "pxe", "TFTPDIR" },
	{ NULL, "kernel-url", "URL" },
	{ NULL, "initrd-url", "URL" },
	{ NULL, "dtb-url", "URL" },
	{ NULL, "device-type", "TYPE" },
	{ NULL, "job-name", "NAME" },
	{ NULL, "commands", "NAME" },
	{ NULL, "tags", "TAG[,TAG...]" },
	{ NULL, "priority", "high|medium|low|0..100" },
	{ NULL, "visibility", "public|personal|group:NAME[,NAME...]" },
	{ NULL, "compress", "LIST" },
	{ NULL, "history", "FILE" },
	{ NULL, "db", "FILE" },
	{ NULL, "release", "NAME" },
	{ NULL, "as-host", "NAME" },
	{ NULL, "host", "NAME" },
	{ NULL, "method", "METHOD" },
	{ NULL, "pool", "LIST" },
	{ NULL, "git", "TREE" },
	{ "history series", "fs", "FS" },
	{ "history changes", "fs", "FS" },
	{ "history report", "fs", "FS" },
	{ "history report", "out", "FILE" },
	{ "history bisect", "fs", "FS" },
};

#define USAGE_WIDTH 80

/* "kernel build" of "bootmark kernel build": what metas[] keys on */
static const char *usage_key(const char *cmd)
{
	const char *p, *key = cmd;

	for (p = cmd; (p = strstr(p, "bootmark ")); p += 9)
		key = p + 9;
	return key;
}

static const char *meta_of(const char *key, const struct bm_opt *o, char *buf, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < sizeof(metas) / sizeof(metas[0]); i++)
		if (metas[i].cmd && !strcmp(metas[i].cmd, key) && !strcmp(metas[i].name, o->name))
			return metas[i].meta;
	for (i = 0; i < sizeof(metas) / sizeof(metas[0]); i++)
		if (!metas[i].cmd && !strcmp(metas[i].name, o->name))
			return metas[i].meta;
	if (o->type == BM_OPT_BOOL)
		return NULL;
	if (o->choices) {
		buf[0] = '\0';
		for (i = 0; o->choices[i] && n < len; i++)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "|" : "", o->choices[i]);
		return buf;
	}
	if (o->type == BM_OPT_INT)
		return "N";
	if (o->type == BM_OPT_SIZE)
		return "SIZE";
	if (o->def && o->def[0])
		return o->def;
	for (i = 0; o->name[i] && i + 1 < len; i++)
		buf[i] = o->name[i] == '-' ? '_' : (char)toupper((unsigned char)o->name[i]);
	buf[i] = '\0';
	return buf;
}

/* Whether text names --name (not a longer --name-more). */
static int names_opt(const char *text, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = text; p && (p = strstr(p, "--")); p += 2)
		if (!strncmp(p + 2, name, n) && !(isalnum((unsigned char)p[2 + n]) || p[2 + n] == '-') &&
		    (p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '-')))
			return 1;
	return 0;
}

static int in_words(const char *words, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = words; p && (p = strstr(p, name)); p += n)
		if ((p == words || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return 1;
	return 0;
}

struct wrap {
	FILE *f;
	int col, indent, fresh;
};

/* One unit (never broken): on this line when it fits, else on the next. */
static void put_unit(struct wrap *w, const char *s, size_t n)
{
	if (!w->fresh && w->col + 1 + (int)n > USAGE_WIDTH) {
		fprintf(w->f, "\n%*s", w->indent, "");
		w->col = w->indent;
		w->fresh = 1;
	}
	if (!w->fresh) {
		fputc(' ', w->f);
		w->col++;
	}
	fprintf(w->f, "%.*s", (int)n, s);
	w->col += (int)n;
	w->fresh = 0;
}

/*
 * The words of text as units: "--opt META" stays together (not "--opt" and a
 * following "[--x]"), and so does "| word": no line starts with a value or
 * ends with a bar.
 */
static void put_text(struct wrap *w, const char *text)
{
	char unit[512];
	const char *p = text, *word;
	size_t n = 0, wl;
	int glue = 0;  /* 1: after "|", 2: after an --option that may take a value */

	while (p && *p) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		word = p;
		wl = strcspn(p, " ");
		p += wl;
		if (glue == 2 && strchr("-([|", *word))
			glue = 0;
		if (n && (!glue || n + wl + 2 > sizeof(unit))) {
			put_unit(w, unit, n);
			n = 0;
		}
		if (wl + 2 > sizeof(unit))
			wl = sizeof(unit) - 2;
		if (n)
			unit[n++] = ' ';
		memcpy(unit + n, word, wl);
		n += wl;
		while (wl && (*word == '(' || *word == '['))
			word++, wl--;
		glue = wl == 1 && *word == '|' ? 1 :
		       wl > 2 && !strncmp(word, "--", 2) && !strchr("])", word[wl - 1]) ? 2 : 0;
	}
	if (n)
		put_unit(w, unit, n);
}

void bm_cli_usage(FILE *f, const struct bm_usage *forms)
{
	const struct bm_usage *u;
	char item[512], buf[256];
	const char *m;

	for (u = forms; u->cmd; u++) {
		const char *prefix = u == forms ? "usage: " : "       ";
		struct wrap w = { .f = f, .fresh = 0 };

		fprintf(f, "%s%s", prefix, u->cmd);
		w.col = (int)(strlen(prefix) + strlen(u->cmd));
		/* under the first argument, unless that leaves too little room */
		w.indent = w.col < 32 ? w.col + 1 : (int)strlen(prefix) + 4;
		put_text(&w, u->lead);
		for (const struct bm_opt *o = u->tab; o && o->name; o++) {
			if ((u->lead && names_opt(u->lead, o->name)) ||
			    (u->tail && names_opt(u->tail, o->name)) ||
			    (u->omit && in_words(u->omit, o->name)))
				continue;
			m = meta_of(usage_key(u->cmd), o, buf, sizeof(buf));
			if (m)
				snprintf(item, sizeof(item), "[--%s %s]", o->name, m);
			else
				snprintf(item, sizeof(item), "[--%s]", o->name);
			put_unit(&w, item, strlen(item));
		}
		put_text(&w, u->tail);
		fputc('\n', f);
	}
}
