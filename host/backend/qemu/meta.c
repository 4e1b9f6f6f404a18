// SPDX-License-Identifier: MIT
/* meta.json of a QEMU boot: what was booted, how, and how it ended (docs/results.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "qemu_boot.h"
#include "json.h"
#include "util.h"
#include "schema.h"

static void host_uname(struct bm_json *j)
{
	struct utsname u;

	bm_json_key(j, "host");
	bm_json_obj_begin(j);
	if (!uname(&u)) {
		bm_json_kstr(j, "sysname", u.sysname);
		bm_json_kstr(j, "nodename", u.nodename);
		bm_json_kstr(j, "release", u.release);
		bm_json_kstr(j, "version", u.version);
		bm_json_kstr(j, "machine", u.machine);
	}
	bm_json_obj_end(j);
}

/* status -1: QEMU never ran (both null) */
static void qemu_exit(struct bm_json *j, int status)
{
	bm_json_key(j, "qemu_exit");
	if (status >= 0 && WIFEXITED(status))
		bm_json_int(j, WEXITSTATUS(status));
	else
		bm_json_null(j);
	bm_json_key(j, "qemu_signal");
	if (status >= 0 && WIFSIGNALED(status))
		bm_json_int(j, WTERMSIG(status));
	else
		bm_json_null(j);
}

/* Flat load_* keys, so that readers (bootread.c) take them with bm_json_get. */
static void host_load(struct bm_json *j, const struct bm_boot *b)
{
	const struct bm_load *l = &b->load;

	bm_json_knum(j, "load_avg1_start", l->load1_start);
	bm_json_knum(j, "load_avg1_end", l->load1_end);
	bm_json_knum(j, "load_avg1_max", l->load1_max);
	bm_json_kint(j, "load_ncpu", l->ncpu);
	bm_json_knum(j, "load_cpu_busy_pct", l->busy_pct);
	bm_json_knum(j, "load_cpu_others_pct", l->others_pct);
	bm_json_knum(j, "load_steal_pct", l->steal_pct);
	bm_json_knum(j, "load_iowait_pct", l->iowait_pct);
	bm_json_kint(j, "load_other_qemu", l->qemu_max);
	bm_json_kstr(j, "load_other_qemu_pids", l->others);
	bm_json_kint(j, "load_samples", l->samples);
	bm_json_key(j, "load_disturbed");
	bm_json_bool(j, l->samples && bm_load_disturbed(l));
	bm_json_kint(j, "exclusive", b->exclusive);
	bm_json_kint(j, "icount", b->icount);
}

/* A string, or null when s is "" (not known, or not a Debian kernel). */
static void kstr_or_null(struct bm_json *j, const char *key, const char *s)
{
	if (s && *s) {
		bm_json_kstr(j, key, s);
	} else {
		bm_json_key(j, key);
		bm_json_null(j);
	}
}

/* Which Debian package the kernel is, at which version, from which archive
 * (kernels/debapt.c): the same spec is the same kernel on every host. */
static void deb_package(struct bm_json *j, const struct bm_kernel *k)
{
	char pkg[BM_REL_MAX + 16] = "";

	if (k->deb)
		snprintf(pkg, sizeof(pkg), "linux-image-%s", k->release);
	kstr_or_null(j, "kernel_package", pkg);
	kstr_or_null(j, "kernel_package_version", k->deb ? k->deb_version : "");
	kstr_or_null(j, "kernel_package_archive", k->deb ? k->deb_archive : "");
}

static void meta_body(FILE *f, const void *arg)
{
	const struct bm_boot *b = arg;
	struct bm_json j;
	size_t i;

	bm_json_init(&j, f, 1);
	bm_json_obj_begin(&j);
	bm_json_kstr(&j, "schema", BM_SCHEMA_META);
	bm_json_kstr(&j, "label", b->label);
	bm_json_kstr(&j, "spec", b->spec);
	bm_json_kstr(&j, "kernel_release", b->k.release);
	kstr_or_null(&j, "arch", b->arch);
	deb_package(&j, &b->k);
	bm_json_kstr(&j, "vmlinuz", b->k.vmlinuz);
	bm_json_kstr(&j, "vmlinuz_sha256", b->sha_vmlinuz);
	/* pvh: QEMU loaded the vmlinux ELF at its PVH entry; bzimage: vmlinuz */
	bm_json_kstr(&j, "boot_method", b->method.name);
	bm_json_kstr(&j, "boot_method_why", b->method.why);
	bm_json_kstr(&j, "kernel_image", b->method.image);
	bm_json_kstr(&j, "kernel_config", b->k.config);
	bm_json_kstr(&j, "initrd", b->initrd);
	bm_json_kstr(&j, "initrd_sha256", b->sha_initrd);
	bm_json_kstr(&j, "initrd_parts", b->initrd_desc);
	bm_json_kstr(&j, "config_archive", b->config_archive);
	bm_json_kstr(&j, "config_archive_sha256", b->sha_config);
	bm_json_kstr(&j, "run", b->run);
	bm_json_kstr(&j, "append", b->append);
	bm_json_kstr(&j, "accel", b->kvm ? "kvm" : "tcg");
	bm_json_kstr(&j, "accel_why", b->accel_why);
	bm_json_kstr(&j, "disk", b->disk);
	bm_json_kstr(&j, "disk_cache", b->disk_cache);
	bm_json_kstr(&j, "disk_bus", b->disk_bus);
	kstr_or_null(&j, "decoy_disk", b->decoy);
	kstr_or_null(&j, "cpu", b->cpu);
	bm_json_key(&j, "qemu_argv");
	bm_json_arr_begin(&j);
	for (i = 0; i < b->argv.n; i++)
		bm_json_str(&j, b->argv.v[i]);
	bm_json_arr_end(&j);
	host_uname(&j);
	bm_json_kstr(&j, "start", b->start);
	bm_json_kstr(&j, "end", b->end);
	bm_json_knum(&j, "seconds", b->w.seconds);
	bm_json_kstr(&j, "watchdog", bm_watch_name(b->w.verdict));
	bm_json_kstr(&j, "watchdog_why", b->w.why);
	qemu_exit(&j, b->w.verdict == BM_WATCH_NOSTART ? -1 : b->w.status);
	bm_json_kstr(&j, "qemu_said", b->qemu_said);
	bm_json_kint(&j, "planned_tests", b->planned);
	bm_json_kint(&j, "fail_on_warning", b->fail_on_warning);
	host_load(&j, b);
	bm_json_kstr(&j, "status", bm_status_name(b->res.status));
	bm_json_kstr(&j, "status_why", b->res.status_why);
	bm_json_obj_end(&j);
}

int bm_write_meta(const struct bm_boot *b)
{
	char path[PATH_MAX];

	if (bm_path(path, sizeof(path), "%s/meta.json", b->dir))
		return -ENAMETOOLONG;
	return bm_write_json(path, meta_body, b);
}

