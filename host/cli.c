// SPDX-License-Identifier: MIT
/* Command-line options from the same bm_opt tables as config files. */
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
