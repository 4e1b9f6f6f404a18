// SPDX-License-Identifier: MIT
/*
 * The Debian mirror and security archive, read from the host's own apt sources:
 * one-line entries (sources.list, *.list: "deb [opts] URI SUITE COMPONENT...")
 * and deb822 stanzas (*.sources: Types, URIs, Suites, Enabled).  Only the
 * addresses are taken; bootmark's apt configuration (kernels/debapt.c) names
 * its own suites, so a Debian 12 host, a Debian 13 host and an Ubuntu host
 * (whose archive is not Debian's: the defaults are used) look in the same
 * archives for a deb: kernel.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kernel.h"
#include "util.h"

#define DEFAULT_DEBIAN   "http://deb.debian.org/debian"
#define DEFAULT_SECURITY "http://deb.debian.org/debian-security"

/* A suite of Debian's, by codename or class: "bookworm-updates" -> 1 (its
 * base before '-' is Debian's), "noble-security" -> 0 (Ubuntu). */
static int debian_suite(const char *suite)
{
	static const char *const names[] = {
		"buster", "bullseye", "bookworm", "trixie", "forky", "duke", "sid",
		"oldoldstable", "oldstable", "stable", "testing", "unstable", NULL,
	};
	size_t n = strcspn(suite, "-/");
	int i;

	for (i = 0; names[i]; i++)
		if (strlen(names[i]) == n && !strncmp(suite, names[i], n))
			return 1;
	return 0;
}

static int is_security(const char *suite)
{
	size_t n = strlen(suite);

	return n > 9 && !strcmp(suite + n - 9, "-security");
}

static void take(char *dst, size_t len, const char *uri, size_t ulen)
{
	if (dst[0] || !ulen || ulen >= len || !strncmp(uri, "cdrom:", 6))
		return;
	memcpy(dst, uri, ulen);
	dst[ulen] = '\0';
	while (ulen > 1 && dst[ulen - 1] == '/')
		dst[--ulen] = '\0';
}

/* One entry: the first URI of uris, each word of suites. */
static void entry(struct bm_deb_mirrors *m, const char *uris, const char *suites, const char *file)
{
	const char *s = suites;
	size_t ulen = strcspn(uris, " \t\n");

	while (*s) {
		char suite[BM_DEB_SUITE_MAX];
		size_t n;

		s += strspn(s, " \t\n");
		n = strcspn(s, " \t\n");
		if (!n)
			break;
		if (n < sizeof(suite)) {
			memcpy(suite, s, n);
			suite[n] = '\0';
			if (debian_suite(suite) && is_security(suite) && !m->security[0]) {
				take(m->security, sizeof(m->security), uris, ulen);
				snprintf(m->security_from, sizeof(m->security_from), "%s", file);
			} else if (debian_suite(suite) && !is_security(suite) && !m->debian[0]) {
				take(m->debian, sizeof(m->debian), uris, ulen);
				snprintf(m->debian_from, sizeof(m->debian_from), "%s", file);
			}
		}
		s += n;
	}
}

/* "deb [arch=amd64 signed-by=/k.gpg] http://deb.debian.org/debian bookworm main" */
static void one_line(struct bm_deb_mirrors *m, char *line, const char *file)
{
	char *p = line, *uri, *suite;

	p += strspn(p, " \t");
	if (strncmp(p, "deb", 3) || (p[3] != ' ' && p[3] != '\t'))
		return;  /* deb-src, comments, blank lines */
	p += 3 + strspn(p + 3, " \t");
	if (*p == '[') {
		p = strchr(p, ']');
		if (!p)
			return;
		p++;
		p += strspn(p, " \t");
	}
	uri = p;
	p += strcspn(p, " \t");
	if (!*p)
		return;
	*p++ = '\0';
	p += strspn(p, " \t");
	suite = p;
	suite[strcspn(suite, " \t\n")] = '\0';
	if (*uri && *suite)
		entry(m, uri, suite, file);
}

struct stanza {
	char types[128], uris[BM_APT_URI_MAX], suites[512];
	int disabled;
};

static void stanza_end(struct bm_deb_mirrors *m, struct stanza *st, const char *file)
{
	char *t = st->types;
	int deb = 0;

	while (*t) {
		size_t n;

		t += strspn(t, " \t");
		n = strcspn(t, " \t");
		if (n == 3 && !strncmp(t, "deb", 3))
			deb = 1;
		t += n;
	}
	if (deb && !st->disabled && st->uris[0] && st->suites[0])
		entry(m, st->uris, st->suites, file);
	memset(st, 0, sizeof(*st));
}

/* "Key: value" into dst when key matches (case-insensitive, as apt reads it). */
static int field(const char *line, const char *key, char *dst, size_t len)
{
	size_t n = strlen(key);
	const char *v;

	if (strncasecmp(line, key, n) || line[n] != ':')
		return 0;
	v = line + n + 1;
	v += strspn(v, " \t");
	snprintf(dst, len, "%s", v);
	dst[strcspn(dst, "\n")] = '\0';
	return 1;
}

static void deb822(struct bm_deb_mirrors *m, FILE *f, const char *file)
{
	struct stanza st;
	char line[1024], enabled[16];

	memset(&st, 0, sizeof(st));
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		if (line[strspn(line, " \t\n")] == '\0') {
			stanza_end(m, &st, file);
			continue;
		}
		if (line[0] == ' ' || line[0] == '\t')
			continue;  /* a continuation (a key's further lines) */
		if (field(line, "Types", st.types, sizeof(st.types)) ||
		    field(line, "URIs", st.uris, sizeof(st.uris)) ||
		    field(line, "Suites", st.suites, sizeof(st.suites)))
			continue;
		if (field(line, "Enabled", enabled, sizeof(enabled)))
			st.disabled = !strcasecmp(enabled, "no") || !strcasecmp(enabled, "false");
	}
	stanza_end(m, &st, file);
}

void bm_deb_mirrors_from(struct bm_deb_mirrors *m, const char *const *files, size_t n)
{
	char line[1024];
	size_t i;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < n; i++) {
		size_t len = strlen(files[i]);
		FILE *f = fopen(files[i], "re");

		if (!f)
			continue;
		if (len > 8 && !strcmp(files[i] + len - 8, ".sources"))
			deb822(m, f, files[i]);
		else
			while (fgets(line, sizeof(line), f))
				one_line(m, line, files[i]);
		fclose(f);
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

#define HOST_FILES_MAX 64

/* sources.list, then sources.list.d/'s *.list and *.sources in name order, as
 * apt reads them. */
static size_t host_files(char **files)
{
	const char *dir = "/etc/apt/sources.list.d";
	char path[PATH_MAX];
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	if ((files[n] = strdup("/etc/apt/sources.list")))
		n++;
	d = opendir(dir);
	if (!d)
		return n;
	while ((de = readdir(d)) && n < HOST_FILES_MAX) {
		size_t len = strlen(de->d_name);

		if (!(len > 5 && !strcmp(de->d_name + len - 5, ".list")) &&
		    !(len > 8 && !strcmp(de->d_name + len - 8, ".sources")))
			continue;
		if (!bm_path(path, sizeof(path), "%s/%s", dir, de->d_name) && (files[n] = strdup(path)))
			n++;
	}
	closedir(d);
	if (n > 1)
		qsort(files + 1, n - 1, sizeof(files[0]), cmp_str);
	return n;
}

static void env_or_default(char *dst, size_t len, char *from, size_t fromlen,
			   const char *env, const char *def)
{
	const char *v = getenv(env);

	if (v && *v) {
		snprintf(dst, len, "%s", v);
		snprintf(from, fromlen, "$%s", env);
	} else if (!dst[0]) {
		snprintf(dst, len, "%s", def);
		snprintf(from, fromlen, "bootmark's default");
	}
}

int bm_deb_mirrors(struct bm_deb_mirrors *m)
{
	char *files[HOST_FILES_MAX];
	size_t n = host_files(files), i;

	bm_deb_mirrors_from(m, (const char *const *)files, n);
	for (i = 0; i < n; i++)
		free(files[i]);
	env_or_default(m->debian, sizeof(m->debian), m->debian_from, sizeof(m->debian_from),
		       "BOOTMARK_DEBIAN_MIRROR", DEFAULT_DEBIAN);
	env_or_default(m->security, sizeof(m->security), m->security_from,
		       sizeof(m->security_from), "BOOTMARK_DEBIAN_SECURITY", DEFAULT_SECURITY);
	return 0;
}
