/* SPDX-License-Identifier: MIT */
/* bootmark's apt for deb: kernels: the host's mirrors (kernels/aptsrc.c), its own
 * sources file and apt-cache madison's output (kernels/debapt.c).  No network. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "testutil.h"
#include "util.h"

static char dir[] = "/tmp/bm-kernel-apt-XXXXXX";

static const char *file(const char *name, const char *text)
{
	static char path[8][256];
	static int i;
	char *p = path[i++ % 8];
	FILE *f;

	snprintf(p, 256, "%s/%s", dir, name);
	f = fopen(p, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		tap_bail("cannot write a sources file");
	return p;
}

static void one_line(void)
{
	struct bm_deb_mirrors m;
	const char *f[] = {
		file("sources.list",
		     "# deb http://commented.example/debian bookworm main\n"
		     "deb-src http://src.example/debian bookworm main\n"
		     "deb [arch=amd64 signed-by=/usr/share/keyrings/x.gpg] http://ftp.de.debian.org/debian/ bookworm main contrib\n"
		     "deb http://security.debian.org/debian-security bookworm-security main\n"
		     "deb http://later.example/debian trixie main\n"),
	};

	bm_deb_mirrors_from(&m, f, 1);
	TAP_EQ_STR(m.debian, "http://ftp.de.debian.org/debian", "one-line: options skipped, trailing / dropped");
	TAP_EQ_STR(m.security, "http://security.debian.org/debian-security", "one-line: -security suite");
	TAP_EQ_STR(m.debian_from, f[0], "the file it came from is named");
}

static void deb822(void)
{
	struct bm_deb_mirrors m;
	const char *f[] = {
		file("off.sources",
		     "Types: deb\nURIs: http://disabled.example/debian\nSuites: bookworm\n"
		     "Components: main\nEnabled: no\n"),
		file("debian.sources",
		     "Types: deb\n"
		     "# http://snapshot.debian.org/archive/debian/20250520T000000Z\n"
		     "URIs: http://deb.debian.org/debian\n"
		     "Suites: bookworm bookworm-updates\nComponents: main\n"
		     "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n\n"
		     "types: deb-src\nURIs: http://src.example/debian-security\nSuites: bookworm-security\n\n"
		     "Types: deb\nURIs: http://deb.debian.org/debian-security http://mirror2.example/ds\n"
		     "Suites: bookworm-security\nComponents: main\n"),
	};

	bm_deb_mirrors_from(&m, f, 2);
	TAP_EQ_STR(m.debian, "http://deb.debian.org/debian", "deb822: Enabled: no and comments skipped");
	TAP_EQ_STR(m.security, "http://deb.debian.org/debian-security",
		   "deb822: deb-src skipped, first of two URIs");
}

static void not_debian(void)
{
	struct bm_deb_mirrors m;
	const char *f[] = {
		file("ubuntu.sources",
		     "Types: deb\nURIs: http://archive.ubuntu.com/ubuntu\n"
		     "Suites: noble noble-updates noble-security\nComponents: main\n"),
		file("other.list", "deb https://deb.nodesource.com/node_20.x nodistro main\n"),
		"/nonexistent/bm.list",
	};

	bm_deb_mirrors_from(&m, f, 3);
	TAP_EQ_STR(m.debian, "", "Ubuntu's and other archives are not Debian's mirror");
	TAP_EQ_STR(m.security, "", "nor its security archive (an unreadable file is skipped)");
}

static void sources_text(void)
{
	struct bm_deb_mirrors m = { .debian = "http://ftp.de.debian.org/debian",
				    .security = "http://security.debian.org/debian-security",
				    .debian_from = "a", .security_from = "b" };
	char buf[4096], small[200];

	TAP_EQ_INT(bm_apt_sources_text(&m, "/k.gpg", buf, sizeof(buf)), 0, "sources written");
	tap_ok(strstr(buf, "\nTypes: deb\nURIs: http://ftp.de.debian.org/debian\nSuites: bookworm "
		      "bookworm-updates bookworm-backports trixie trixie-updates trixie-backports\n") != NULL,
	       "the mirror has both releases, their updates and backports");
	tap_ok(strstr(buf, "URIs: http://security.debian.org/debian-security\nSuites: "
		      "bookworm-security trixie-security\n") != NULL, "the security archive has both");
	tap_ok(strstr(buf, "Signed-By: /k.gpg\n") && strstr(strstr(buf, "Signed-By: /k.gpg\n") + 1,
							     "Signed-By: /k.gpg\n"),
	       "both stanzas are Signed-By the keyring");
	tap_ok(strstr(buf, "Targets: Packages\n") != NULL, "only Packages lists");
	tap_ok(strstr(buf, "Architectures: amd64 arm64\n") &&
	       strstr(strstr(buf, "Architectures: amd64 arm64\n") + 1, "Architectures: amd64 arm64\n"),
	       "both stanzas carry amd64 and arm64");
	TAP_EQ_INT(bm_apt_sources_text(&m, "/k.gpg", small, sizeof(small)), -ENAMETOOLONG,
		   "a short buffer is refused");
}

static void madison(void)
{
	/* as apt-cache madison prints them: a package's newest version first */
	const char *out =
		"linux-image-6.1.0-53-amd64 |  6.1.187-1 | http://deb.debian.org/debian-security bookworm-security/main amd64 Packages\n"
		"linux-image-6.1.0-50-amd64 |  6.1.176-1 | http://deb.debian.org/debian-security bookworm-security/main amd64 Packages\n"
		"linux-image-6.1.0-50-amd64 |  6.1.176-1 | http://deb.debian.org/debian bookworm/main amd64 Packages\n"
		"linux-image-6.12.57+deb12-amd64 | 6.12.57-1~deb12u1 | http://deb.debian.org/debian-security bookworm-security/main amd64 Packages\n"
		"linux-image-6.12.57+deb12-amd64 | 6.12.57-1~bpo12+1 | http://deb.debian.org/debian bookworm-backports/main amd64 Packages\n"
		"linux-signed-amd64 | 6.1.187+1 | http://deb.debian.org/debian-security bookworm-security/main Sources\n"
		"N: Unable to locate package linux-image-9-amd64\n"
		"linux-image-6.1.0-9-amd64 | 1:2-3 | file:/srv/mirror weird/main amd64 Packages\n"
		/* a foreign architecture's package is named with it */
		"linux-image-6.1.0-53-arm64:arm64 |  6.1.187-1 | http://deb.debian.org/debian-security bookworm-security/main arm64 Packages\n";
	struct bm_debpkg *p;
	size_t n;

	TAP_EQ_INT(bm_deb_madison_parse(out, &p, &n), 0, "madison output parsed");
	TAP_EQ_INT((long long)n, 5, "one entry per package");
	if (n != 5)
		return;
	TAP_EQ_STR(p[0].release, "6.1.0-53-amd64", "release from the package name");
	TAP_EQ_STR(p[0].version, "6.1.187-1", "version as apt reports it");
	TAP_EQ_STR(p[0].archive, "bookworm-security", "archive: the suite, component dropped");
	TAP_EQ_STR(p[1].archive, "bookworm", "same version in two archives: the point release named");
	TAP_EQ_STR(p[2].version, "6.12.57-1~deb12u1", "the newest version, not backports' older one");
	TAP_EQ_STR(p[2].archive, "bookworm-security", "and its archive");
	TAP_EQ_STR(p[3].version, "1:2-3", "an epoch is kept");
	TAP_EQ_STR(p[3].archive, "weird", "a suite bootmark does not list is still named");
	TAP_EQ_STR(p[0].arch, "amd64", "the list's architecture");
	TAP_EQ_STR(p[4].release, "6.1.0-53-arm64", "a foreign package's release: no :arm64");
	TAP_EQ_STR(p[4].arch, "arm64", "and its architecture");
	TAP_EQ_STR(p[4].archive, "bookworm-security", "and its archive");
	free(p);
	TAP_EQ_INT(bm_deb_madison_parse("", &p, &n), 0, "empty output");
	TAP_EQ_INT((long long)n, 0, "no package");
	free(p);
}

int main(void)
{
	tap_plan(0);
	tu_mkdtemp(dir);
	one_line();
	deb822();
	not_debian();
	sources_text();
	madison();
	bm_rm_rf(dir);
	return tap_done();
}
