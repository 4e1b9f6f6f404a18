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

static unsigned long nmodules;

static int count_ko(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	if (flag == FTW_F && strstr(path + ftw->base, ".ko"))
		nmodules++;
	return 0;
}

static void list_cached(FILE *f, const char *dir, const char *arch, char ***cached,
			size_t *ncached)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	size_t others = 0;

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
		if (strcmp(k.arch, arch)) {
			others++;
			continue;
		}
		if (stat(k.vmlinuz, &st))
			continue;
		nmodules = 0;
		if (!bm_path(mods, sizeof(mods), "%s/lib/modules/%s", k.modroot, k.release))
			nftw(mods, count_ko, 16, FTW_PHYS);
		fprintf(f, "  %-32s vmlinuz %6.1f MiB  %5lu modules  %s%s%s\n", k.release,
			(double)st.st_size / (1024 * 1024), nmodules,
			k.deb_version[0] ? k.deb_version : "(version not recorded)",
			k.deb_archive[0] ? " " : "", k.deb_archive);
		push(cached, ncached, k.release, strlen(k.release));
	}
	closedir(d);
	if (!*ncached)
		fprintf(f, "  (none)\n");
	if (others)
		fprintf(f, "  (and %zu of other architectures: kernel list --arch ARCH)\n", others);
}

/* Newest kernel first: 6.12.117+deb13 before 6.12.9+deb13 before 6.1.0-53. */
static int cmp_pkg(const void *a, const void *b)
{
	const struct bm_debpkg *x = a, *y = b;

	return strverscmp(y->release, x->release);
}

/*
 * A release's flavour: what follows its version and ABI, "amd64" of
 * 6.1.0-53-amd64 and 6.12.117+deb13-amd64, "cloud-arm64" of
 * 6.1.0-53-cloud-arm64: the plain flavour is the architecture's name.  Components up to the first one not starting with a
 * digit are the version.
 */
static const char *flavour(const char *rel)
{
	const char *p = rel;

	while ((p = strchr(p, '-'))) {
		p++;
		if (*p < '0' || *p > '9')
			return p;
	}
	return "";
}

int bm_kernel_list(FILE *f, const char *arch, int all)
{
	char dir[PATH_MAX], **cached = NULL;
	struct bm_debpkg *avail = NULL;
	size_t ncached = 0, navail = 0, others = 0, i, j;
	int rc;

	rc = bm_kernels_dir(dir, sizeof(dir));
	if (rc)
		return rc;
	list_cached(f, dir, arch, &cached, &ncached);
	fflush(f);
	rc = bm_deb_available(arch, &avail, &navail);
	if (rc) {
		bm_msg("cannot list Debian kernels: %s", strerror(-rc));
		goto out_free;
	}
	qsort(avail, navail, sizeof(*avail), cmp_pkg);
	/* amd64's header stays as it was: scripts and docs read it */
	fprintf(f, "available from Debian 12 and 13%s%s (release, package version, archive):\n",
		strcmp(arch, "amd64") ? " for " : "", strcmp(arch, "amd64") ? arch : "");
	for (i = 0; i < navail; i++) {
		/* the cloud, rt (and arm64's 16k) flavours would triple the list: --all */
		if (!all && strcmp(flavour(avail[i].release), arch)) {
			others++;
			continue;
		}
		for (j = 0; j < ncached && strcmp(cached[j], avail[i].release); j++)
			;
		if (j < ncached)
			fprintf(f, "  %-32s %-24s %-20s [cached]\n", avail[i].release,
				avail[i].version, avail[i].archive);
		else
			fprintf(f, "  %-32s %-24s %s\n", avail[i].release, avail[i].version,
				avail[i].archive);
	}
	if (!navail)
		fprintf(f, "  (none: bootmark kernel update?)\n");
	if (others)
		fprintf(f, "  (and %zu of other flavours, such as %s: kernel list --all)\n",
			others, strcmp(arch, "arm64") ? "cloud and rt" : "cloud, rt and 16k");
out_free:
	bm_strv_free(cached, ncached);
	free(avail);
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
