// SPDX-License-Identifier: MIT
/*
 * bootmark's own apt configuration, so that deb:RELEASE names the same kernel on
 * every host: the host's apt sees only its own release (a Debian 13 host has no
 * 6.1.0-53-amd64), bootmark's sees Debian 12's and 13's archives, their security,
 * updates and backports suites, whatever the host runs, for amd64 and arm64.
 *
 *   <cache>/apt/sources.list.d/bootmark.sources   written from the host's mirrors
 *   <cache>/apt/lists/       Packages lists only (Targets: Packages)
 *   <cache>/apt/cache/       apt's package cache
 *   <cache>/apt/updated      when apt-get update last got some lists
 *   <cache>/apt/update.log   its output
 *
 * Every apt-get and apt-cache call gets the same -o options: Dir::Etc::SourceList
 * and the parts point at bootmark's sources only, Dir::State::Lists and
 * Dir::Cache at the folders above, the dpkg status, preferences and trusted
 * parts at nothing, the architectures at bm_arches (amd64 native, so a
 * foreign one's packages are "linux-image-X:arm64" to apt).  Signatures are still checked: every entry is Signed-By the
 * host's debian-archive-keyring (Debian 12's holds the bookworm and trixie keys).
 * The lists are updated when older than BM_APT_MAX_AGE, when the sources change,
 * when a lookup misses, and on "bootmark kernel update".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kernel.h"
#include "outdir.h"
#include "util.h"

const char *const bm_deb_suites[] = {
	"bookworm", "bookworm-security", "bookworm-updates", "bookworm-backports",
	"trixie", "trixie-security", "trixie-updates", "trixie-backports", NULL,
};

#define KEYRING "/usr/share/keyrings/debian-archive-keyring.gpg"
#define NOPT 13

struct apt {
	char dir[PATH_MAX];
	char opt[NOPT][PATH_MAX + 48];
	char keyring[PATH_MAX];
};

static int updated_now;  /* apt-get update ran in this process */

static int is_security(const char *suite)
{
	size_t n = strlen(suite);

	return n > 9 && !strcmp(suite + n - 9, "-security");
}

static int suites_text(char *buf, size_t len, int security)
{
	size_t used = 0;
	int i, n;

	buf[0] = '\0';
	for (i = 0; bm_deb_suites[i]; i++) {
		if (is_security(bm_deb_suites[i]) != security)
			continue;
		n = snprintf(buf + used, len - used, "%s%s", used ? " " : "", bm_deb_suites[i]);
		if (n < 0 || (size_t)n >= len - used)
			return -ENAMETOOLONG;
		used += (size_t)n;
	}
	return 0;
}

/* Appends printf output at *used; -ENAMETOOLONG when it does not fit. */
static int append(char *buf, size_t len, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - *used)
		return -ENAMETOOLONG;
	*used += (size_t)n;
	return 0;
}

/* bm_arches joined by sep: the sources' "amd64 arm64", apt's "amd64,arm64". */
static int arches_text(char *buf, size_t len, char sep)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; bm_arches[i]; i++)
		if (append(buf, len, &used, "%s%s", i ? (sep == ' ' ? " " : ",") : "", bm_arches[i]))
			return -ENAMETOOLONG;
	return 0;
}

int bm_apt_sources_text(const struct bm_deb_mirrors *m, const char *keyring,
			char *buf, size_t len)
{
	static const char stanza[] =
		"\nTypes: deb\nURIs: %s\nSuites: %s\nComponents: main\n"
		"Architectures: %s\nTargets: Packages\nSigned-By: %s\n";
	char main_suites[256], sec_suites[256], arches[64];
	size_t used = 0;

	if (suites_text(main_suites, sizeof(main_suites), 0) ||
	    suites_text(sec_suites, sizeof(sec_suites), 1) || arches_text(arches, sizeof(arches), ' '))
		return -ENAMETOOLONG;
	if (append(buf, len, &used, "# Written by bootmark (kernels/debapt.c): the archives "
		   "deb:RELEASE is looked up in.\n# Debian mirror from %s, security archive "
		   "from %s.\n", m->debian_from, m->security_from) ||
	    append(buf, len, &used, stanza, m->debian, main_suites, arches, keyring) ||
	    append(buf, len, &used, stanza, m->security, sec_suites, arches, keyring))
		return -ENAMETOOLONG;
	return 0;
}

static int apt_paths(struct apt *a)
{
	static const char *const fmt[NOPT] = {
		"Dir::Etc::SourceList=/dev/null",
		"Dir::Etc::SourceParts=%s/sources.list.d",
		"Dir::State::Lists=%s/lists",
		"Dir::Cache=%s/cache",
		"Dir::Cache::pkgcache=pkgcache.bin",  /* a host may set them to "" */
		"Dir::Cache::srcpkgcache=srcpkgcache.bin",
		"Dir::State::status=/dev/null",
		"Dir::Etc::Preferences=/dev/null",
		"Dir::Etc::PreferencesParts=%s/empty.d",
		"Dir::Etc::Trusted=/dev/null",
		"Dir::Etc::TrustedParts=%s/empty.d",
		/* the native one: dpkg's name on an amd64 host, whatever this host is;
		 * the list as a value, which apt prefers to a host's list entries
		 * (never dpkg --add-architecture: the host's dpkg stays as it is) */
		"APT::Architecture=amd64",
		"APT::Architectures=%s",
	};
	char root[PATH_MAX], arches[64];
	int rc, i;

	rc = bm_cache_root(root, sizeof(root));
	if (rc || bm_path(a->dir, sizeof(a->dir), "%s/apt", root))
		return rc ? rc : -ENAMETOOLONG;
	if (arches_text(arches, sizeof(arches), ','))
		return -ENAMETOOLONG;
	for (i = 0; i < NOPT; i++) {
		/* the formats hold at most one %s: the folder, or the architectures */
		int n = snprintf(a->opt[i], sizeof(a->opt[i]), fmt[i],
				 strstr(fmt[i], "Architectures") ? arches : a->dir);

		if (n < 0 || (size_t)n >= sizeof(a->opt[i]))
			return -ENAMETOOLONG;
	}
	return 0;
}

/* Folders and the sources file; *changed when the sources differ from last time. */
static int apt_setup(struct apt *a, int *changed)
{
	static const char *const sub[] = { "sources.list.d", "lists/partial", "cache/archives/partial",
					   "empty.d", NULL };
	const char *keyring = getenv("BOOTMARK_DEBIAN_KEYRING");
	char path[PATH_MAX], text[8192], old[8192];
	struct bm_deb_mirrors m;
	ssize_t n = 0;
	int rc, i, fd;

	rc = apt_paths(a);
	if (rc)
		return rc;
	rc = bm_mkdir_p(a->dir, 0755);  /* bootmark's folder: trusted (outdir.h) */
	if (rc) {
		bm_msg("cannot create %s: %s", a->dir, strerror(-rc));
		return rc;
	}
	/* below it, apt's own: it gives the partial/ folders to its _apt user */
	for (i = 0; sub[i]; i++) {
		char *p;

		if (bm_path(path, sizeof(path), "%s/%s", a->dir, sub[i]))
			return -ENAMETOOLONG;
		for (p = path + strlen(a->dir) + 1;; p++) {
			char c = *p;

			if (c && c != '/')
				continue;
			*p = '\0';
			if (mkdir(path, 0755) && errno != EEXIST) {
				rc = -errno;
				bm_msg("cannot create %s: %s", path, strerror(-rc));
				return rc;
			}
			*p = c;
			if (!c)
				break;
		}
	}
	if (!keyring || !*keyring)
		keyring = KEYRING;
	snprintf(a->keyring, sizeof(a->keyring), "%s", keyring);
	if (access(keyring, R_OK)) {
		rc = -errno;
		bm_msg("cannot read %s: %s (apt-get install debian-archive-keyring)", keyring,
		       strerror(-rc));
		return rc;
	}
	bm_deb_mirrors(&m);
	rc = bm_apt_sources_text(&m, keyring, text, sizeof(text));
	if (rc || bm_path(path, sizeof(path), "%s/sources.list.d/bootmark.sources", a->dir))
		return rc ? rc : -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, old, sizeof(old) - 1);
		close(fd);
	}
	*changed = n < 0 || (size_t)n != strlen(text) || memcmp(old, text, (size_t)n);
	if (!*changed)
		return 0;
	rc = bm_write_file_atomic(path, text, strlen(text));
	if (rc)
		bm_msg("cannot write %s: %s", path, strerror(-rc));
	return rc;
}

/* prog, the -o options, args: into argv (max entries with the NULL). */
static int apt_argv(const struct apt *a, const char *prog, char *const *args, char **argv,
		    size_t max)
{
	size_t n = 0, i;

	if (max < 2 * NOPT + 2)
		return -E2BIG;
	argv[n++] = (char *)prog;
	for (i = 0; i < NOPT; i++) {
		argv[n++] = "-o";
		argv[n++] = (char *)a->opt[i];
	}
	for (i = 0; args[i]; i++) {
		if (n + 1 >= max)
			return -E2BIG;
		argv[n++] = args[i];
	}
	argv[n] = NULL;
	return 0;
}

int bm_apt_run(const char *prog, char *const *args, const char *cwd, char **out, int *status)
{
	char *argv[2 * NOPT + 300];
	struct apt a;
	int rc;

	rc = apt_paths(&a);
	if (!rc)
		rc = apt_argv(&a, prog, args, argv, sizeof(argv) / sizeof(argv[0]));
	return rc ? rc : bm_run_prog(argv, cwd, -1, out, NULL, status);
}

/* Seconds since the last update that got lists; -1 when never. */
static long lists_age(const struct apt *a)
{
	char path[PATH_MAX];
	struct stat st;

	if (bm_path(path, sizeof(path), "%s/updated", a->dir) || stat(path, &st))
		return -1;
	return (long)(time(NULL) - st.st_mtime);
}

/* apt-get update, its output into update.log. */
static int run_update(const struct apt *a, char *log, size_t loglen)
{
	char *const args[] = { "-q", "update", NULL };
	char *argv[2 * NOPT + 4];
	int fd, status = 0, rc;
	pid_t pid;

	rc = apt_argv(a, "apt-get", args, argv, sizeof(argv) / sizeof(argv[0]));
	if (rc)
		return rc;
	if (bm_path(log, loglen, "%s/update.log", a->dir))
		return -ENAMETOOLONG;
	/* made afresh (outdir.h): a link planted at the name is not followed */
	fd = bm_out_open(log, O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return fd;
	rc = bm_proc_start(argv, fd, &pid);
	close(fd);
	if (rc)
		return rc;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;  /* a suite that failed is found by its missing lists and Err: line */
}

/* 1 when the ", "-separated list holds word. */
static int has_word(const char *list, const char *word)
{
	char padded[600], w[BM_DEB_SUITE_MAX + 4];

	snprintf(padded, sizeof(padded), ", %s, ", list);
	snprintf(w, sizeof(w), ", %s, ", word);
	return strstr(padded, w) != NULL;
}

/* Adds word to a ", "-separated list unless it is there. */
static void add_word(char *buf, size_t len, const char *word)
{
	size_t used = strlen(buf);

	if (!has_word(buf, word))
		append(buf, len, &used, "%s%s", used ? ", " : "", word);
}

/* The suites of the update log's "Err:N URI SUITE TARGET" lines, in
 * bm_deb_suites' order (apt prints them as the downloads end). */
static void failed_suites(const char *log, char *buf, size_t len)
{
	char line[1024], uri[512], suite[BM_DEB_SUITE_MAX], seen[512] = "";
	FILE *f = fopen(log, "re");
	int i;

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Err:", 4) && sscanf(line, "%*s %511s %63s", uri, suite) == 2)
			add_word(seen, sizeof(seen), suite);
	fclose(f);
	for (i = 0; bm_deb_suites[i]; i++)
		if (has_word(seen, bm_deb_suites[i]))
			add_word(buf, len, bm_deb_suites[i]);
}

/* The suites (as written in the sources) that have lists, one per line. */
static int suites_with_lists(char **out)
{
	char *const args[] = { "indextargets", "--format", "$(RELEASE)", NULL };
	int status = 0, rc;

	rc = bm_apt_run("apt-get", args, NULL, out, &status);
	if (!rc && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		free(*out);
		*out = NULL;
		rc = -ECHILD;
	}
	return rc;
}

static int line_in(const char *text, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = text; (p = strstr(p, word)); p += n)
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
			return 1;
	return 0;
}

/* 1 when the update log says a signature could not be checked. */
static int signature_failed(const char *log)
{
	static const char *const marks[] = { "NO_PUBKEY", "EXPKEYSIG", "BADSIG",
					     "couldn't be verified", "is not signed", NULL };
	char line[1024];
	FILE *f = fopen(log, "re");
	int i, found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		for (i = 0; marks[i] && !found; i++)
			found = strstr(line, marks[i]) != NULL;
	fclose(f);
	return found;
}

/* Says which suites could not be fetched and which have no lists at all;
 * returns how many have lists. */
static int report_lists(const char *log, const char *keyring)
{
	char *have = NULL, missing[512] = "", failed[512], old[512] = "";
	int i, nhave = 0;

	failed_suites(log, failed, sizeof(failed));
	if (suites_with_lists(&have))
		return 0;
	for (i = 0; bm_deb_suites[i]; i++) {
		if (line_in(have, bm_deb_suites[i]))
			nhave++;
		else
			add_word(missing, sizeof(missing), bm_deb_suites[i]);
	}
	for (i = 0; bm_deb_suites[i]; i++)
		if (has_word(failed, bm_deb_suites[i]) && line_in(have, bm_deb_suites[i]))
			add_word(old, sizeof(old), bm_deb_suites[i]);
	free(have);
	if (failed[0])
		bm_msg("apt-get update could not fetch %s (see %s)%s%s%s", failed, log,
		       old[0] ? "; the older lists of " : "", old, old[0] ? " are used" : "");
	if (signature_failed(log))
		bm_msg("apt could not check the lists' signatures with %s", keyring);
	if (missing[0] && nhave)
		bm_msg("no package lists for %s: kernels only there are not found", missing);
	return nhave;
}

static int update_locked(int force);

/* One apt-get update at a time on bootmark's lists (apt itself would refuse a
 * second with "Could not get lock"); a waiter then takes the fresh lists. */
int bm_apt_update(int force)
{
	char lock[PATH_MAX];
	struct apt a;
	int rc, fd;

	rc = apt_paths(&a);
	if (!rc)
		rc = bm_mkdir_p(a.dir, 0755);
	if (!rc)
		rc = bm_path(lock, sizeof(lock), "%s/update.lock", a.dir);
	if (!rc)
		rc = bm_cache_lock(lock, "updating the package lists", &fd);
	if (rc)
		return rc;
	rc = update_locked(force);
	bm_cache_unlock(fd);
	return rc;
}

static int update_locked(int force)
{
	char log[PATH_MAX], stamp[PATH_MAX], now[32];
	struct apt a;
	int changed = 0, rc, nhave;
	long age;

	rc = apt_setup(&a, &changed);
	if (rc)
		return rc;
	age = lists_age(&a);
	/* forced: unless lists came a minute ago (a process this one waited for) */
	if (!changed && age >= 0 && age < (force ? 60 : BM_APT_MAX_AGE))
		return 0;
	bm_msg("updating bootmark's Debian package lists in %s/lists", a.dir);
	rc = run_update(&a, log, sizeof(log));
	if (rc) {
		bm_msg("cannot run apt-get update: %s", strerror(-rc));
		return rc;
	}
	updated_now = 1;
	nhave = report_lists(log, a.keyring);
	if (!nhave) {
		bm_msg("no Debian package lists: apt-get update failed (see %s)", log);
		return -ENODATA;
	}
	bm_utc_now(now, sizeof(now));
	strcat(now, "\n");
	if (bm_path(stamp, sizeof(stamp), "%s/updated", a.dir))
		return -ENAMETOOLONG;
	return bm_write_file_atomic(stamp, now, strlen(now));
}

static int suite_rank(const char *suite)
{
	int i;

	for (i = 0; bm_deb_suites[i]; i++)
		if (!strcmp(bm_deb_suites[i], suite))
			return i;
	return i;
}

/* The first word of s, in place. */
static char *first_word(char *s)
{
	s += strspn(s, " \t");
	s[strcspn(s, " \t")] = '\0';
	return s;
}

/*
 * "linux-image-6.1.0-53-amd64 |  6.1.187-1 | http://... bookworm-security/main amd64 Packages";
 * a package of a foreign architecture is named with it, "linux-image-6.1.0-53-arm64:arm64".
 */
static int madison_line(char *line, struct bm_debpkg *p)
{
	char *name, *version, *where, *bar1, *bar2, *suite, *arch;

	bar1 = strchr(line, '|');
	bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
	if (!bar2 || !strstr(bar2, " Packages"))
		return -EINVAL;  /* not a binary package line (Sources, a message) */
	*bar1 = *bar2 = '\0';
	name = first_word(line);
	version = first_word(bar1 + 1);
	where = bar2 + 1;
	where += strspn(where, " ");
	suite = strchr(where, ' ');   /* after the URI */
	if (!suite || strncmp(name, "linux-image-", 12))
		return -EINVAL;
	arch = suite + strspn(suite, " ");
	arch += strcspn(arch, " ");   /* after the suite/component */
	arch = first_word(arch);
	suite = first_word(suite);
	suite[strcspn(suite, "/")] = '\0';
	name[strcspn(name, ":")] = '\0';
	if (strlen(name + 12) >= sizeof(p->release) || strlen(version) >= sizeof(p->version) ||
	    strlen(suite) >= sizeof(p->archive) || strlen(arch) >= sizeof(p->arch) ||
	    !*version || !*suite || !*arch)
		return -EINVAL;
	strcpy(p->release, name + 12);
	strcpy(p->version, version);
	strcpy(p->archive, suite);
	strcpy(p->arch, arch);
	return 0;
}

int bm_deb_madison_parse(const char *out, struct bm_debpkg **pkgs, size_t *n)
{
	char *copy = strdup(out), *line, *save = NULL;
	struct bm_debpkg p, *v = NULL, *nv;
	size_t i;

	*pkgs = NULL;
	*n = 0;
	if (!copy)
		return -ENOMEM;
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (madison_line(line, &p))
			continue;
		for (i = 0; i < *n && strcmp(v[i].release, p.release); i++)
			;
		if (i < *n) {
			/* madison lists a package's versions newest first */
			if (!strcmp(v[i].version, p.version) &&
			    suite_rank(p.archive) < suite_rank(v[i].archive))
				v[i] = p;
			continue;
		}
		nv = realloc(v, (*n + 1) * sizeof(*v));
		if (!nv) {
			free(v);
			free(copy);
			return -ENOMEM;
		}
		v = nv;
		v[(*n)++] = p;
	}
	free(copy);
	*pkgs = v;
	return 0;
}

/* madison for these package names -> packages. */
static int madison(char *const *names, struct bm_debpkg **pkgs, size_t *n)
{
	char *args[80], *out = NULL;
	size_t i, k = 0;
	int status = 0, rc;

	args[k++] = "madison";
	for (i = 0; names[i] && k + 1 < sizeof(args) / sizeof(args[0]); i++)
		args[k++] = names[i];
	args[k] = NULL;
	rc = bm_apt_run("apt-cache", args, NULL, &out, &status);
	if (rc)
		return rc;
	rc = WIFEXITED(status) && WEXITSTATUS(status) == 0 ? bm_deb_madison_parse(out, pkgs, n)
							    : -ECHILD;
	free(out);
	return rc;
}

static int lookup_once(const char *release, struct bm_debpkg *p)
{
	char name[BM_REL_MAX + 16];
	char *names[] = { name, NULL };
	struct bm_debpkg *v;
	size_t n, i;
	int rc;

	snprintf(name, sizeof(name), "linux-image-%s", release);
	rc = madison(names, &v, &n);
	if (rc)
		return rc;
	rc = -ENOENT;
	for (i = 0; i < n; i++)
		if (!strcmp(v[i].release, release)) {
			*p = v[i];
			rc = 0;
		}
	free(v);
	return rc;
}

int bm_deb_lookup(const char *release, struct bm_debpkg *p)
{
	int rc;

	memset(p, 0, sizeof(*p));
	rc = bm_apt_update(0);
	if (rc)
		return rc;
	rc = lookup_once(release, p);
	if (rc != -ENOENT || updated_now)
		return rc;
	/* a kernel newer than the lists: update once and look again */
	rc = bm_apt_update(1);
	return rc ? rc : lookup_once(release, p);
}

/* Real releases of arch only: "6.12-arm64" is a meta-package, not a kernel.
 * The architecture ends the name, or comes before arm64's page-size flavour
 * ("6.12.117+deb13-arm64-16k"). */
static int wanted(const char *rel, const char *arch)
{
	size_t n = strlen(rel), a = strlen(arch);
	const char *dot = strchr(rel, '.');

	if (n > 4 && !strcmp(rel + n - 4, "-16k"))
		n -= 4;
	return bm_release_ok(rel) && n > a + 1 && rel[n - a - 1] == '-' &&
	       !strncmp(rel + n - a, arch, a) && dot && strchr(dot + 1, '.') &&
	       !strstr(rel, "-dbg") && !strstr(rel, "-unsigned");
}

int bm_deb_available(const char *arch, struct bm_debpkg **pkgs, size_t *n)
{
	char re[64];
	char *const args[] = { "search", "--names-only", re, NULL };
	char *out = NULL, *line, *save = NULL, **names = NULL, **nn;
	size_t k = 0, i;
	int status = 0, rc;

	*pkgs = NULL;
	*n = 0;
	if (!bm_arch_ok(arch))
		return -EINVAL;
	snprintf(re, sizeof(re), "^linux-image-[0-9].*-%s(-16k)?$", arch);
	rc = bm_apt_update(0);
	if (rc)
		return rc;
	rc = bm_apt_run("apt-cache", args, NULL, &out, &status);
	if (rc)
		return rc;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		free(out);
		return -ECHILD;
	}
	/* "linux-image-6.1.0-53-amd64 - Linux 6.1 for 64-bit PCs (signed)" */
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		line[strcspn(line, " ")] = '\0';
		if (strncmp(line, "linux-image-", 12) || !wanted(line + 12, arch))
			continue;
		nn = realloc(names, (k + 2) * sizeof(*names));
		if (!nn) {
			rc = -ENOMEM;
			goto out_free;
		}
		names = nn;
		names[k++] = line;
		names[k] = NULL;
	}
	/* one madison call per chunk of names: argv stays small */
	for (i = 0; i < k && !rc; i += 64) {
		char *chunk[65];
		struct bm_debpkg *v, *nv;
		size_t m, j;

		for (j = 0; j < 64 && i + j < k; j++)
			chunk[j] = names[i + j];
		chunk[j] = NULL;
		rc = madison(chunk, &v, &m);
		if (rc)
			break;
		nv = realloc(*pkgs, (*n + m + 1) * sizeof(*nv));
		if (!nv) {
			free(v);
			rc = -ENOMEM;
			break;
		}
		*pkgs = nv;
		memcpy(nv + *n, v, m * sizeof(*v));
		*n += m;
		free(v);
	}
out_free:
	free(names);
	free(out);
	if (rc) {
		free(*pkgs);
		*pkgs = NULL;
		*n = 0;
	}
	return rc;
}

int bm_apt_searched(char *buf, size_t len)
{
	char *have = NULL, missing[512] = "";
	size_t used = 0;
	int i, rc;

	buf[0] = '\0';
	rc = suites_with_lists(&have);
	if (rc)
		return rc;
	for (i = 0; bm_deb_suites[i]; i++)
		if (line_in(have, bm_deb_suites[i]))
			rc = rc ? rc : append(buf, len, &used, "%s%s", used ? ", " : "", bm_deb_suites[i]);
		else
			add_word(missing, sizeof(missing), bm_deb_suites[i]);
	free(have);
	if (!rc && missing[0])
		rc = append(buf, len, &used, " (no lists of %s)", missing);
	return rc;
}
