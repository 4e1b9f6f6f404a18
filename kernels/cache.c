// SPDX-License-Identifier: MIT
/* Resolving specs, listing cached and available kernels, kernel configs. */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "kernel.h"
#include "util.h"

int bm_kernel_resolve(struct bm_kspec *k, int fetch, struct bm_kernel *out)
{
	int rc;

	if (k->kind == BM_KSPEC_LOCAL)
		return bm_local_resolve(k, out);
	rc = bm_deb_cached(k->release, out);
	if (rc != -ENOENT || !fetch)
		return rc;
	rc = bm_deb_fetch(k->release);
	if (rc)
		return rc;
	return bm_deb_cached(k->release, out);
}

void bm_strv_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int push(char ***v, size_t *n, const char *s, size_t len)
{
	char **nv = realloc(*v, (*n + 1) * sizeof(**v));

	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[*n] = strndup(s, len);
	if (!nv[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

/* Real releases only: "6.12-amd64" is a meta-package, not a kernel. */
static int wanted(const char *rel)
{
	size_t n = strlen(rel);
	const char *dot = strchr(rel, '.');

	return bm_release_ok(rel) && n > 6 && !strcmp(rel + n - 6, "-amd64") &&
	       dot && strchr(dot + 1, '.') && !strstr(rel, "-dbg") && !strstr(rel, "-unsigned");
}

int bm_deb_available(char ***rels, size_t *n)
{
	char *argv[] = { "apt-cache", "search", "--names-only",
			 "^linux-image-[0-9].*-amd64$", NULL };
	char *out = NULL, *line, *save = NULL;
	int status = 0, rc;

	*rels = NULL;
	*n = 0;
	rc = bm_run_prog(argv, NULL, -1, &out, NULL, &status);
	if (rc)
		return rc;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		free(out);
		return -ECHILD;
	}
	/* "linux-image-6.1.0-53-amd64 - Linux 6.1 for 64-bit PCs (signed)" */
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t len = strcspn(line, " ");

		if (strncmp(line, "linux-image-", 12) || len <= 12)
			continue;
		line[len] = '\0';
		if (!wanted(line + 12))
			continue;
		rc = push(rels, n, line + 12, len - 12);
		if (rc)
			break;
	}
	free(out);
	return rc;
}

static unsigned long nmodules;

static int count_ko(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	if (flag == FTW_F && strstr(path + ftw->base, ".ko"))
		nmodules++;
	return 0;
}

static void list_cached(FILE *f, const char *dir, char ***cached, size_t *ncached)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	fprintf(f, "cached in %s:\n", dir);
	if (!d) {
		fprintf(f, "  (none)\n");
		return;
	}
	while ((de = readdir(d))) {
		struct bm_kernel k;
		struct stat st;
		char mods[PATH_MAX];

		if (de->d_name[0] == '.' || bm_deb_cached(de->d_name, &k))
			continue;
		if (stat(k.vmlinuz, &st))
			continue;
		nmodules = 0;
		if (!bm_path(mods, sizeof(mods), "%s/lib/modules/%s", k.modroot, k.release))
			nftw(mods, count_ko, 16, FTW_PHYS);
		fprintf(f, "  %-32s vmlinuz %6.1f MiB  %5lu modules\n", k.release,
			(double)st.st_size / (1024 * 1024), nmodules);
		push(cached, ncached, k.release, strlen(k.release));
	}
	closedir(d);
	if (!*ncached)
		fprintf(f, "  (none)\n");
}

int bm_kernel_list(FILE *f)
{
	char dir[PATH_MAX], **cached = NULL, **avail = NULL;
	size_t ncached = 0, navail = 0, i, j;
	int rc;

	rc = bm_kernels_dir(dir, sizeof(dir));
	if (rc)
		return rc;
	list_cached(f, dir, &cached, &ncached);
	rc = bm_deb_available(&avail, &navail);
	if (rc) {
		bm_msg("cannot list Debian kernels (apt-cache search): %s", strerror(-rc));
		goto out_free;
	}
	fprintf(f, "available from Debian (apt-cache):\n");
	for (i = 0; i < navail; i++) {
		for (j = 0; j < ncached && strcmp(cached[j], avail[i]); j++)
			;
		if (j < ncached)
			fprintf(f, "  %-32s [cached]\n", avail[i]);
		else
			fprintf(f, "  %s\n", avail[i]);
	}
	if (!navail)
		fprintf(f, "  (none; run apt-get update?)\n");
out_free:
	bm_strv_free(cached, ncached);
	bm_strv_free(avail, navail);
	return rc;
}

int bm_kconfig_has(const char *config, const char *sym)
{
	char line[512];
	size_t n = strlen(sym);
	FILE *f;
	int found = 0;

	f = fopen(config, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, sym, n) && !strncmp(line + n, "=y", 2)) {
			found = 1;
			break;
		}
	}
	fclose(f);
	return found;
}
