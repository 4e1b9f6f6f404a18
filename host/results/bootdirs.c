// SPDX-License-Identifier: MIT
/* Boot directories under a run directory (bootdirs.h). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "bootdirs.h"
#include "util.h"

int bm_is_boot_dir(const char *dir)
{
	char p[PATH_MAX];

	/* meta.json alone: a boot whose QEMU never wrote a log (its verdict is
	 * the host's, and must be seen) */
	return (!bm_path(p, sizeof(p), "%s/results.log", dir) && bm_is_file(p)) ||
	       (!bm_path(p, sizeof(p), "%s/console.log", dir) && bm_is_file(p)) ||
	       (!bm_path(p, sizeof(p), "%s/meta.json", dir) && bm_is_file(p));
}

static int cmp_names(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int bm_boot_dirs(const char *dir, int (*fn)(const char *bootdir, void *arg), void *arg)
{
	struct dirent **names;
	char sub[PATH_MAX];
	int n, i, found = 0, rc = 0;

	if (bm_is_boot_dir(dir))
		return fn ? ((rc = fn(dir, arg)) < 0 ? rc : 1) : 1;
	n = scandir(dir, &names, NULL, cmp_names);
	if (n < 0)
		return -errno;
	for (i = 0; i < n; i++) {
		if (!rc && names[i]->d_name[0] != '.' &&
		    !bm_path(sub, sizeof(sub), "%s/%s", dir, names[i]->d_name) &&
		    bm_is_dir(sub) && bm_is_boot_dir(sub)) {
			found++;
			if (fn && (rc = fn(sub, arg)) > 0)
				rc = 0;
		}
		free(names[i]);
	}
	free(names);
	return rc < 0 ? rc : found;
}

int bm_seen_check(struct bm_seen *s, const char *dir)
{
	char real[PATH_MAX], **nv;
	size_t i;

	if (!realpath(dir, real))
		return -errno;
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], real))
			return 1;
	nv = realloc(s->v, (s->n + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	s->v = nv;
	s->v[s->n] = strdup(real);
	if (!s->v[s->n])
		return -ENOMEM;
	s->n++;
	return 0;
}

void bm_seen_free(struct bm_seen *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

void bm_no_boot_msg(const char *dir)
{
	char run[PATH_MAX];

	if (!bm_path(run, sizeof(run), "%s/run", dir) && bm_boot_dirs(run, NULL, NULL) > 0)
		bm_msg("%s holds no boot: it is a bootmark ci folder, its boots are in %s", dir,
		       run);
	else
		bm_msg("%s holds no boot (no results.log, console.log or meta.json)", dir);
}
