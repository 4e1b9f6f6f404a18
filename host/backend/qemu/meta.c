// SPDX-License-Identifier: MIT
/* meta.json (what was booted, how, and how it ended) and results.json. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "boot.h"
#include "json.h"
#include "util.h"
#include "schema.h"

static const char *const watch_names[] = {
	[BM_WATCH_NONE] = "none", [BM_WATCH_EXITED] = "exited",
	[BM_WATCH_SILENCE] = "silence-timeout", [BM_WATCH_TIMEOUT] = "hard-timeout",
	[BM_WATCH_PANIC] = "panic", [BM_WATCH_NOSTART] = "not-started",
	[BM_WATCH_INTERRUPTED] = "interrupted",
};

const char *bm_watch_name(enum bm_watch w)
{
	return (unsigned)w < sizeof(watch_names) / sizeof(watch_names[0]) ? watch_names[w] : "none";
}

int bm_watch_parse(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(watch_names) / sizeof(watch_names[0]); i++)
		if (watch_names[i] && !strcmp(watch_names[i], name))
			return (int)i;
	return -1;
}

/* Writes through a memory stream, then atomically to path. */
static int write_json(const char *path, void (*fn)(FILE *, const void *), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f)
		return -errno;
	fn(f, arg);
	if (fclose(f))
		return -errno;
	rc = bm_write_file_atomic(path, buf, len);
	free(buf);
	return rc;
}

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
	bm_json_key(&j, "qemu_argv");
	bm_json_arr_begin(&j);
	for (i = 0; i < b->argv.n; i++)
		bm_json_str(&j, b->argv.v[i]);
	bm_json_arr_end(&j);
	host_uname(&j);
	bm_json_kstr(&j, "start", b->start);
	bm_json_kstr(&j, "end", b->end);
	bm_json_knum(&j, "seconds", b->w.seconds);
	bm_json_kstr(&j, "watchdog", watch_names[b->w.verdict]);
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
	return write_json(path, meta_body, b);
}

static void record(struct bm_json *j, const struct bm_rres *h)
{
	unsigned i;

	bm_json_obj_begin(j);
	bm_json_kint(j, "seq", (long long)h->seq);
	bm_json_kstr(j, "wl", h->wl);
	bm_json_kstr(j, "test", h->test);
	bm_json_kstr(j, "fs", h->fs);
	bm_json_kint(j, "rep", h->rep);
	bm_json_kstr(j, "params", h->params);
	bm_json_kstr(j, "mkfs", h->mkfs);
	bm_json_kstr(j, "mount", h->mount);
	bm_json_key(j, "partial");
	bm_json_bool(j, h->partial);
	bm_json_key(j, "metrics");
	bm_json_arr_begin(j);
	for (i = 0; i < h->nm; i++) {
		bm_json_obj_begin(j);
		bm_json_kstr(j, "name", h->m[i].name);
		bm_json_knum(j, "value", h->m[i].value);
		bm_json_kstr(j, "unit", h->m[i].unit);
		bm_json_obj_end(j);
	}
	bm_json_arr_end(j);
	bm_json_obj_end(j);
}

static void error_rec(struct bm_json *j, const struct bm_herr *e)
{
	bm_json_obj_begin(j);
	bm_json_kint(j, "seq", (long long)e->seq);
	bm_json_kstr(j, "class", e->cls);
	bm_json_kstr(j, "msg", e->msg);
	bm_json_kstr(j, "fs", e->fs);
	bm_json_kstr(j, "test", e->test);
	bm_json_kint(j, "rep", e->rep);
	bm_json_obj_end(j);
}

static void protocol(struct bm_json *j, const struct bm_results *r)
{
	bm_json_key(j, "protocol");
	bm_json_obj_begin(j);
	bm_json_kint(j, "max_seq", (long long)r->max_seq);
	bm_json_kint(j, "bad_crc", r->bad_crc);
	bm_json_kint(j, "foreign", r->foreign);
	bm_json_kint(j, "conflicts", r->conflicts);
	bm_json_kint(j, "hellos", r->hellos);
	bm_json_key(j, "complete");
	bm_json_bool(j, r->stream_rc == 0);
	bm_json_kstr(j, "problem", r->stream_rc ? r->stream_why : "");
	bm_json_obj_end(j);
}

void bm_results_json(FILE *f, const struct bm_results *r)
{
	struct bm_json j;
	size_t i;

	bm_json_init(&j, f, 1);
	bm_json_obj_begin(&j);
	bm_json_kstr(&j, "schema", BM_SCHEMA_RESULTS);
	bm_json_kstr(&j, "run", r->run);
	bm_json_kstr(&j, "source", r->source);
	bm_json_kstr(&j, "status", bm_status_name(r->status));
	bm_json_kstr(&j, "status_why", r->status_why);
	bm_json_kint(&j, "kernel_warnings", r->kernel_warnings);
	bm_json_kstr(&j, "kernel_warning_first", r->kernel_warning_first);
	bm_json_key(&j, "hello");
	if (r->have_hello) {
		bm_json_obj_begin(&j);
		for (i = 0; i < r->hello.nkv; i++)
			bm_json_kstr(&j, r->hello.kv[i].key, r->hello.kv[i].val);
		bm_json_obj_end(&j);
	} else {
		bm_json_null(&j);
	}
	bm_json_key(&j, "records");
	bm_json_arr_begin(&j);
	for (i = 0; i < r->nres; i++)
		record(&j, &r->res[i]);
	bm_json_arr_end(&j);
	bm_json_key(&j, "errors");
	bm_json_arr_begin(&j);
	for (i = 0; i < r->nerr; i++)
		error_rec(&j, &r->err[i]);
	bm_json_arr_end(&j);
	bm_json_key(&j, "end");
	if (r->have_end) {
		bm_json_obj_begin(&j);
		bm_json_kint(&j, "results", r->end_results);
		bm_json_kint(&j, "errors", r->end_errors);
		bm_json_key(&j, "tests");
		if (r->end_tests >= 0)
			bm_json_int(&j, r->end_tests);
		else
			bm_json_null(&j);
		bm_json_obj_end(&j);
	} else {
		bm_json_null(&j);
	}
	protocol(&j, r);
	bm_json_obj_end(&j);
}

static void results_body(FILE *f, const void *arg)
{
	bm_results_json(f, arg);
}

int bm_write_results_json(const char *path, const struct bm_results *r)
{
	return write_json(path, results_body, r);
}
