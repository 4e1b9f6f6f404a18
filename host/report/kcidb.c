// SPDX-License-Identifier: MIT
/*
 * The KCIDB document (kcidb.h): boots grouped by kernel into checkouts and
 * builds, the statuses, and the document's frame.  The tests of each boot
 * are written by host/report/kcidb_tests.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "kcidb.h"
#include "kcidb_int.h"
#include "profile.h"
#include "schema.h"
#include "util.h"

#define META_MAX (1 << 20)

int bm_kcidb_origin_ok(const char *origin)
{
	const char *p;

	if (!*origin || strlen(origin) >= BM_KCIDB_ORIGIN_MAX)
		return 0;
	for (p = origin; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return 0;
	return 1;
}

void bm_kcidb_path_part(char *buf, size_t len, const char *s)
{
	size_t i;

	if (!len)
		return;
	for (i = 0; s[i] && i + 1 < len; i++) {
		char c = s[i];

		buf[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			 c == '_' || c == '-' ? c : '_';
	}
	buf[i] = '\0';
	/* a path component is never empty */
	if (!i && len > 1)
		snprintf(buf, len, "_");
}

/* Priority order of v05_00.py's status enum, highest first. */
static const char *const order[] = { "FAIL", "ERROR", "MISS", "PASS", "DONE", "SKIP" };

static int rank(const char *s)
{
	size_t i;

	for (i = 0; s && i < sizeof(order) / sizeof(order[0]); i++)
		if (!strcmp(s, order[i]))
			return (int)i;
	return 99;
}

const char *bm_kcidb_worse(const char *a, const char *b)
{
	return rank(b) < rank(a) ? b : a;
}

const char *bm_kcidb_class_status(enum bm_status st)
{
	switch (st) {
	case BM_ST_COMPLETED:
		return "PASS";
	/* the kernel misbehaved: the tested code is faulty */
	case BM_ST_KERNEL_WARNING:
	case BM_ST_PANIC:
	case BM_ST_HANG:
	case BM_ST_UNEXPECTED_REBOOT:
		return "FAIL";
	/* bootmark's harness never got to test: nothing is known of the kernel */
	case BM_ST_INFRA_ERROR:
	case BM_ST_INTERRUPTED:
	case BM_ST_DISK_REFUSED:
		return "MISS";
	/* setup-failure, bench-error, protocol-error, timeout, the early ends */
	default:
		return "ERROR";
	}
}

const char *bm_kcidb_error_status(const char *cls)
{
	/* a workload's system call failed on this kernel (EIO, ENOSPC...) */
	if (!strcmp(cls, "bench"))
		return "FAIL";
	/* the runner refused the disk: the test never started, by design */
	if (!strcmp(cls, "refused"))
		return "MISS";
	/* setup (mkfs, mount), module, config, disk, watchdog, internal, new classes */
	return "ERROR";
}

void bm_kcidb_init(struct bm_kcidb *k, const char *origin, const char *configs)
{
	char exe[PATH_MAX];

	memset(k, 0, sizeof(*k));
	snprintf(k->origin, sizeof(k->origin), "%s", origin);
	if (configs)
		snprintf(k->configs, sizeof(k->configs), "%s", configs);
	else if (!bm_exe_dir(exe, sizeof(exe)))
		snprintf(k->configs, sizeof(k->configs), "%.*s/../configs",
			 (int)(sizeof(k->configs) - 12), exe);
}

void bm_kcidb_meta(const struct bm_kcidb_boot *b, const char *key, char *out, size_t len)
{
	out[0] = '\0';
	if (!b->meta || bm_json_get(b->meta, b->metalen, key, out, len) || !strcmp(out, "null"))
		out[0] = '\0';
}

/* The kernel of b: a Debian package at its version, a local build by its
 * release and image, or (a folder without meta.json) the hello's release. */
static void kernel_of(const struct bm_kcidb_boot *b, struct bm_kcidb_build *k)
{
	const char *hk = bm_hello_get(&b->r, "kernel");

	memset(k, 0, sizeof(*k));
	bm_kcidb_meta(b, "kernel_release", k->release, sizeof(k->release));
	if (!k->release[0])
		snprintf(k->release, sizeof(k->release), "%.127s", hk ? hk : b->label);
	bm_kcidb_meta(b, "kernel_package", k->package, sizeof(k->package));
	bm_kcidb_meta(b, "kernel_package_version", k->version, sizeof(k->version));
	bm_kcidb_meta(b, "kernel_package_archive", k->archive, sizeof(k->archive));
	bm_kcidb_meta(b, "kernel_config", k->config, sizeof(k->config));
	bm_kcidb_meta(b, "vmlinuz_sha256", k->vmlinuz_sha, sizeof(k->vmlinuz_sha));
	if (k->package[0])
		snprintf(k->id, sizeof(k->id), "deb:%s%s%s", k->package, k->version[0] ? "=" : "",
			 k->version);
	else if (k->vmlinuz_sha[0])
		snprintf(k->id, sizeof(k->id), "local:%s:%.16s", k->release, k->vmlinuz_sha);
	else
		snprintf(k->id, sizeof(k->id), "kernel:%s", k->release);
}

/* The build's status: PASS once one of its boots reached the runner (the
 * image boots); otherwise what its first boot's class says. */
static void build_saw(struct bm_kcidb_build *k, const struct bm_results *r)
{
	const char *m = bm_hello_get(r, "machine");

	if (r->have_hello) {
		k->status = "PASS";
		/* the kernel's ARCH name, as KernelCI's builds have it: x86_64, arm64
		 * (uname says aarch64) */
		if (!k->arch[0] && m)
			bm_kcidb_path_part(k->arch, sizeof(k->arch),
					   !strcmp(m, "aarch64") ? "arm64" : m);
	} else if (!k->status) {
		k->status = bm_kcidb_class_status(r->status);
	}
}

int bm_kcidb_add(struct bm_kcidb *k, const char *dir, const char *label, struct bm_results *r)
{
	struct bm_kcidb_boot *nb, *b;
	struct bm_kcidb_build kern, *nk;
	char path[4200];
	size_t i;

	nb = realloc(k->boots, (k->nboots + 1) * sizeof(*nb));
	if (!nb)
		return -ENOMEM;
	k->boots = nb;
	b = &nb[k->nboots];
	memset(b, 0, sizeof(*b));
	snprintf(b->dir, sizeof(b->dir), "%s", dir);
	snprintf(b->label, sizeof(b->label), "%s", label);
	snprintf(path, sizeof(path), "%s/meta.json", dir);
	if (bm_read_file(path, &b->meta, &b->metalen, META_MAX))
		b->meta = NULL;
	b->r = *r;
	memset(r, 0, sizeof(*r));
	k->nboots++;
	kernel_of(b, &kern);
	for (i = 0; i < k->nbuilds && strcmp(k->builds[i].id, kern.id); i++)
		;
	if (i == k->nbuilds) {
		nk = realloc(k->builds, (k->nbuilds + 1) * sizeof(*nk));
		if (!nk)
			return -ENOMEM;
		k->builds = nk;
		nk[k->nbuilds++] = kern;
	}
	b->build = i;
	build_saw(&k->builds[i], &b->r);
	return 0;
}

/* "<origin>:<id>", the form of every KCIDB id. */
void bm_kcidb_id(const struct bm_kcidb *k, char *buf, size_t len, const char *id)
{
	snprintf(buf, len, "%s:%s", k->origin, id);
}

static void write_checkout(struct bm_json *j, const struct bm_kcidb *k,
			   const struct bm_kcidb_build *b)
{
	char id[BM_KCIDB_ID_MAX + 80], text[512];

	bm_json_obj_begin(j);
	bm_kcidb_id(k, id, sizeof(id), b->id);
	bm_json_kstr(j, "id", id);
	bm_json_kstr(j, "origin", k->origin);
	if (b->package[0]) {
		bm_json_kstr(j, "tree_name", "debian");
		snprintf(text, sizeof(text), "Debian package %s %s%s%s", b->package,
			 b->version[0] ? b->version : "(version not recorded)",
			 b->archive[0] ? " from " : "", b->archive);
	} else {
		snprintf(text, sizeof(text), "kernel %s%s", b->release,
			 b->vmlinuz_sha[0] ? ", a local build" : "");
	}
	bm_json_kstr(j, "comment", text);
	/* the source was there to build: Debian's, or the local tree's */
	bm_json_key(j, "valid");
	bm_json_bool(j, 1);
	bm_json_key(j, "misc");
	bm_json_obj_begin(j);
	bm_json_kstr(j, "kernel_release", b->release);
	if (b->package[0]) {
		bm_json_kstr(j, "kernel_package", b->package);
		if (b->version[0])
			bm_json_kstr(j, "kernel_package_version", b->version);
		if (b->archive[0])
			bm_json_kstr(j, "kernel_package_archive", b->archive);
	}
	bm_json_obj_end(j);
	bm_json_obj_end(j);
}

static void write_build(struct bm_json *j, const struct bm_kcidb *k,
			const struct bm_kcidb_build *b)
{
	char id[BM_KCIDB_ID_MAX + 80];
	const char *cfg = strrchr(b->config, '/');

	bm_json_obj_begin(j);
	bm_kcidb_id(k, id, sizeof(id), b->id);
	bm_json_kstr(j, "id", id);
	bm_json_kstr(j, "origin", k->origin);
	bm_json_kstr(j, "checkout_id", id);
	bm_json_kstr(j, "comment", b->release);
	if (b->arch[0])
		bm_json_kstr(j, "architecture", b->arch);
	if (b->config[0])
		bm_json_kstr(j, "config_name", cfg ? cfg + 1 : b->config);
	bm_json_kstr(j, "status", b->status ? b->status : "MISS");
	bm_json_key(j, "misc");
	bm_json_obj_begin(j);
	bm_json_kstr(j, "kernel_release", b->release);
	if (b->vmlinuz_sha[0])
		bm_json_kstr(j, "vmlinuz_sha256", b->vmlinuz_sha);
	if (b->config[0])
		bm_json_kstr(j, "kernel_config", b->config);
	bm_json_obj_end(j);
	bm_json_obj_end(j);
}

int bm_kcidb_write(const struct bm_kcidb *k, FILE *f)
{
	struct bm_json j;
	size_t i;
	int rc = 0;

	bm_json_init(&j, f, 1);
	bm_json_obj_begin(&j);
	bm_json_key(&j, "version");
	bm_json_obj_begin(&j);
	bm_json_kint(&j, "major", BM_KCIDB_MAJOR);
	bm_json_kint(&j, "minor", BM_KCIDB_MINOR);
	bm_json_obj_end(&j);
	bm_json_key(&j, "checkouts");
	bm_json_arr_begin(&j);
	for (i = 0; i < k->nbuilds; i++)
		write_checkout(&j, k, &k->builds[i]);
	bm_json_arr_end(&j);
	bm_json_key(&j, "builds");
	bm_json_arr_begin(&j);
	for (i = 0; i < k->nbuilds; i++)
		write_build(&j, k, &k->builds[i]);
	bm_json_arr_end(&j);
	bm_json_key(&j, "tests");
	bm_json_arr_begin(&j);
	for (i = 0; !rc && i < k->nboots; i++)
		rc = bm_kcidb_boot_tests(&j, k, &k->boots[i]);
	bm_json_arr_end(&j);
	bm_json_obj_end(&j);
	fputc('\n', f);
	if (!rc && (j.err || ferror(f)))
		rc = -EIO;
	return rc;
}

void bm_kcidb_free(struct bm_kcidb *k)
{
	size_t i;

	for (i = 0; i < k->nboots; i++) {
		free(k->boots[i].meta);
		bm_results_free(&k->boots[i].r);
	}
	free(k->boots);
	free(k->builds);
	memset(k, 0, sizeof(*k));
}
