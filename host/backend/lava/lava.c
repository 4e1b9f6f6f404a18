// SPDX-License-Identifier: MIT
/* The LAVA job of "bootmark lava"; see lava.h and docs/lava.md. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lava.h"
#include "opts.h"
#include "outdir.h"
#include "util.h"

/* Minutes of the deploy and boot actions; the test gets the rest of the job. */
#define DEPLOY_MIN  10
#define BOOT_MIN    10
#define MIN_JOB_MIN (DEPLOY_MIN + BOOT_MIN + 5)
/* x86's COMMAND_LINE_SIZE is 2048; the device type adds its own words. */
#define ARGS_MAX    1024

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Printable ASCII; with word set, no space or double quote either. */
static int printable(const char *s, int word)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c > 0x7e || (word && (c == ' ' || c == '"')))
			return 0;
	}
	return 1;
}

/*
 * A URL LAVA's deploy actions download from, nothing a kernel, YAML or shell
 * would split: http://, https://, scp:// with a host, file:/// with a path,
 * downloads:// (lava_dispatcher/actions/deploy/download.py: HttpDownloadAction,
 * ScpDownloadAction, FileDownloadAction, PreDownloadedAction).
 */
static int check_url(const char *name, const char *url, char *err, size_t errlen)
{
	static const char *const schemes[] = { "http", "https", "scp", "file", "downloads" };
	const char *rest = strstr(url, "://");
	size_t i, n = rest ? (size_t)(rest - url) : 0;

	if (!*url)
		return fail(err, errlen, "--%s is required (the URL LAVA downloads it from)", name);
	if (!printable(url, 1) || strchr(url, '\''))
		return fail(err, errlen, "--%s: a URL holds no spaces, quotes or control "
			    "characters (escape them as %%20 ...)", name);
	for (i = 0; rest && i < sizeof(schemes) / sizeof(schemes[0]); i++)
		if (strlen(schemes[i]) == n && !strncasecmp(url, schemes[i], n))
			break;
	if (!rest || i == sizeof(schemes) / sizeof(schemes[0]))
		return fail(err, errlen, "--%s %s: not a URL LAVA downloads from (http://, "
			    "https://, scp://, file:///, downloads://)", name, url);
	rest += 3;
	/* a host, or file:'s absolute path, and something to fetch; downloads://
	 * names a file LAVA fetched before */
	if (!strncasecmp(url, "downloads", n) ? !rest[0] :
	    !strncasecmp(url, "file", n) ? rest[0] != '/' || !rest[1] :
	    !rest[0] || rest[0] == '/' || !strchr(rest, '/') || !strchr(rest, '/')[1])
		return fail(err, errlen, "--%s %s: no %s", name, url,
			    !strncasecmp(url, "downloads", n) ? "file name (downloads://NAME)" :
			    !strncasecmp(url, "file", n) ? "absolute path (file:///PATH)" :
			    "host and path (SCHEME://HOST/PATH)");
	return 0;
}

/* A comma list whose items satisfy ok(); empty items are refused. */
static int check_list(const char *list, int (*ok)(const char *))
{
	char buf[512], *save = NULL, *it;
	size_t n = strlen(list);

	if (n >= sizeof(buf) || list[0] == ',' || (n && list[n - 1] == ',') || strstr(list, ",,"))
		return 0;
	memcpy(buf, list, n + 1);
	for (it = strtok_r(buf, ",", &save); it; it = strtok_r(NULL, ",", &save))
		if (!ok(it))
			return 0;
	return 1;
}

static int tag_ok(const char *s)
{
	return *s && printable(s, 0);
}

static int check_disk(const struct bm_lava_opts *o, char *err, size_t errlen)
{
	const char *const names[] = { "disk-serial", "disk-wwn", "disk-model" };
	const char *const vals[] = { o->disk_serial, o->disk_wwn, o->disk_model };
	uint64_t size;

	/* any one selector names the disk (docs/disk-safety.md): all that are
	 * set must match, and exactly one disk may */
	if (!o->disk_serial[0] && !o->disk_wwn[0] && !o->disk_model[0] && !o->disk_size[0])
		return fail(err, errlen, "no disk named: give --disk-serial, --disk-wwn, "
			    "--disk-model or --disk-size (the runner reformats the disk they select)");
	for (int i = 0; i < 3; i++)
		if (!printable(vals[i], 1))
			return fail(err, errlen, "--%s %s: a kernel command line word holds no "
				    "spaces, quotes or control characters", names[i], vals[i]);
	if (o->disk_size[0] && (bm_parse_size(o->disk_size, &size) || !size))
		return fail(err, errlen, "--disk-size %s: a size in bytes, or with k, M, G, T",
			    o->disk_size);
	return 0;
}

static int check_console(const char *c, char *err, size_t errlen)
{
	const char *p = c;

	if (!*c)
		return 0;
	if (strncmp(c, "tty", 3))
		return fail(err, errlen, "--console %s: a tty and its settings, e.g. "
			    "ttyS0,115200n8", c);
	for (; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == ','))
			return fail(err, errlen, "--console %s: a tty and its settings, e.g. "
				    "ttyS0,115200n8", c);
	return 0;
}

static int check_choices(const struct bm_lava_opts *o, char *err, size_t errlen)
{
	char *end;
	long v;

	if (strcmp(o->priority, "high") && strcmp(o->priority, "medium") &&
	    strcmp(o->priority, "low")) {
		v = strtol(o->priority, &end, 10);
		if (o->priority[0] < '0' || o->priority[0] > '9' || *end || v > 100)
			return fail(err, errlen, "--priority %s: high, medium, low or 0..100",
				    o->priority);
	}
	if (strcmp(o->visibility, "public") && strcmp(o->visibility, "personal") &&
	    (strncmp(o->visibility, "group:", 6) || !o->visibility[6] ||
	     !check_list(o->visibility + 6, tag_ok)))
		return fail(err, errlen, "--visibility %s: public, personal or group:NAME[,NAME...]",
			    o->visibility);
	if (!check_list(o->tags, tag_ok))
		return fail(err, errlen, "--tags %s: a comma list of non-empty tags", o->tags);
	if (!o->commands[0] || !bm_safe_name(o->commands))
		return fail(err, errlen, "--commands %s: the name of a boot command set of the "
			    "device type, e.g. ramdisk", o->commands);
	return 0;
}

/* Words the job relies on cannot be overridden by --append. */
static int check_append(const char *a, char *err, size_t errlen)
{
	static const char *const fixed[] = { "bootmark.lava=", "bootmark.results=", "console=" };
	const char *w = a;

	if (!printable(a, 0) || strchr(a, '"') || strchr(a, '\''))
		return fail(err, errlen, "--append: printable words without quotes expected");
	while (*w) {
		size_t n = strcspn(w, " ");

		for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
			if (!strncmp(w, fixed[i], strlen(fixed[i])) && strlen(fixed[i]) <= n)
				return fail(err, errlen, "--append: %.*s: the job sets %s itself%s",
					    (int)n, w, fixed[i],
					    i == 2 ? " (use --console)" : "");
		w += n;
		w += strspn(w, " ");
	}
	return 0;
}

/* U-Boot's booti boots an arm64 Image; the x86 boot methods are BIOS and
 * EFI loaders of a bzImage (grub-efi works on arm64 UEFI boards too). */
static int check_arch(const struct bm_lava_opts *o, char *err, size_t errlen)
{
	int arm64 = !strcmp(o->arch, "arm64");

	if (strcmp(o->arch, "amd64") && !arm64)
		return fail(err, errlen, "--arch %s: amd64 or arm64", o->arch);
	if (!strcmp(o->boot_method, "u-boot") && !arm64)
		return fail(err, errlen, "--boot-method u-boot boots arm64 boards: add --arch arm64");
	if (arm64 && (!strcmp(o->boot_method, "ipxe") || !strcmp(o->boot_method, "grub")))
		return fail(err, errlen, "--boot-method %s boots amd64 boxes: an arm64 board "
			    "takes u-boot, grub-efi or qemu", o->boot_method);
	if (o->dtb_url[0] && strcmp(o->boot_method, "u-boot"))
		return fail(err, errlen, "--dtb-url goes with --boot-method u-boot");
	return 0;
}

int bm_lava_check(const struct bm_lava_opts *o, char *err, size_t errlen)
{
	char args[ARGS_MAX + 1];
	int rc;

	if ((rc = check_url("kernel-url", o->kernel_url, err, errlen)) ||
	    (rc = check_url("initrd-url", o->initrd_url, err, errlen)) ||
	    (o->dtb_url[0] && (rc = check_url("dtb-url", o->dtb_url, err, errlen))))
		return rc;
	if ((rc = check_arch(o, err, errlen)))
		return rc;
	if (!o->device_type[0])
		return fail(err, errlen, "--device-type is required (a device type of the lab, "
			    "e.g. x86)");
	if (!bm_safe_name(o->device_type))
		return fail(err, errlen, "--device-type %s: letters, digits and ._+- only",
			    o->device_type);
	if (!printable(o->job_name, 0))
		return fail(err, errlen, "--job-name: printable characters only");
	if (!bm_safe_name(o->suite))
		return fail(err, errlen, "--suite %s: one suite name expected", o->suite);
	if (!o->fs[0] || !check_list(o->fs, bm_safe_name))
		return fail(err, errlen, "--fs %s: a comma list of filesystem profiles expected",
			    o->fs);
	if ((rc = check_disk(o, err, errlen)) || (rc = check_console(o->console, err, errlen)) ||
	    (rc = check_choices(o, err, errlen)) || (rc = check_append(o->append, err, errlen)))
		return rc;
	/* with no console= the kernel writes to tty0, which a QEMU device has not */
	if (!strcmp(o->boot_method, "qemu") && !o->console[0])
		return fail(err, errlen, "--console \"\" with --boot-method qemu: the records "
			    "need the serial console QEMU shows LAVA (%s)",
			    strcmp(o->arch, "arm64") ? "ttyS0,115200n8" : "ttyAMA0,115200");
	if (o->timeout && o->timeout < MIN_JOB_MIN)
		return fail(err, errlen, "--timeout %lld: at least %d minutes (deploy %d, boot %d, "
			    "and the suite)", o->timeout, MIN_JOB_MIN, DEPLOY_MIN, BOOT_MIN);
	if (bm_lava_kernel_args(o, args, sizeof(args)) < 0)
		return fail(err, errlen, "the kernel command line words exceed %d bytes "
			    "(--append, --fs or the disk selectors are too long)", ARGS_MAX);
	return 0;
}

long long bm_lava_minutes(const struct bm_lava_opts *o)
{
	if (o->timeout)
		return o->timeout;
	/* smoke and bisect take minutes; the seeds' sizes take hours on a real disk */
	if (!strcmp(o->suite, "smoke") || !strcmp(o->suite, "bisect"))
		return 30;
	return 720;
}

int bm_lava_kernel_args(const struct bm_lava_opts *o, char *buf, size_t len)
{
	size_t n = 0;
	int w;

#define ADD(...) do { \
		w = snprintf(buf + n, len - n, __VA_ARGS__); \
		if (w < 0 || (size_t)w >= len - n) \
			return -ENAMETOOLONG; \
		n += (size_t)w; \
	} while (0)
	/* loglevel=4: fewer kernel lines land in the middle of a record */
	ADD("loglevel=4 bootmark.lava=1 bootmark.results=/dev/console bootmark.suite=%s "
	    "bootmark.fs=%s bootmark.disk_serial=%s", o->suite, o->fs, o->disk_serial);
	if (o->disk_wwn[0])
		ADD(" bootmark.disk_wwn=%s", o->disk_wwn);
	if (o->disk_model[0])
		ADD(" bootmark.disk_model=%s", o->disk_model);
	if (o->disk_size[0])
		ADD(" bootmark.disk_size=%s", o->disk_size);
	ADD(" bootmark.finish=poweroff");
	if (o->append[0])
		ADD(" %s", o->append);
	/* the last console= is /dev/console, where the records go */
	if (o->console[0])
		ADD(" console=%s", o->console);
#undef ADD
	return (int)n;
}

/* A YAML single-quoted scalar: only ' needs escaping (as ''). Input is printable. */
static void q(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

/* "key: 'value'\n" at an indent. */
static void kq(FILE *f, int indent, const char *key, const char *val)
{
	fprintf(f, "%*s%s: ", indent, "", key);
	q(f, val);
	fputc('\n', f);
}

/* A comma list as a YAML block sequence. */
static void seq(FILE *f, int indent, const char *list)
{
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, ",");
		char item[512];

		snprintf(item, sizeof(item), "%.*s", (int)n, p);
		fprintf(f, "%*s- ", indent, "");
		q(f, item);
		fputc('\n', f);
		p += n + (p[n] == ',');
	}
}

static void minutes(FILE *f, int indent, const char *key, long long m)
{
	fprintf(f, "%*s%s:\n%*sminutes: %lld\n", indent, "", key, indent + 2, "", m);
}

static void write_head(FILE *f, const struct bm_lava_opts *o, long long job)
{
	char name[256];
	const char *pri = o->priority;

	fprintf(f, "# bootmark LAVA job, format %d (bootmark lava; docs/lava.md)\n",
		BM_LAVA_JOB_FORMAT);
	fprintf(f, "# Each M record of the run becomes one test case of the suite 'bootmark'.\n");
	kq(f, 0, "device_type", o->device_type);
	snprintf(name, sizeof(name), "bootmark %s %s", o->suite, o->fs);
	kq(f, 0, "job_name", o->job_name[0] ? o->job_name : name);
	fprintf(f, "timeouts:\n");
	minutes(f, 2, "job", job);
	minutes(f, 2, "action", DEPLOY_MIN);
	/* the longest wait between two matches: one test of the suite */
	minutes(f, 2, "connection", job - DEPLOY_MIN - BOOT_MIN);
	if (pri[0] >= '0' && pri[0] <= '9')
		fprintf(f, "priority: %ld\n", strtol(pri, NULL, 10));  /* "08" is no YAML int */
	else
		kq(f, 0, "priority", pri);
	if (!strncmp(o->visibility, "group:", 6)) {
		fprintf(f, "visibility:\n  group:\n");
		seq(f, 2, o->visibility + 6);
	} else {
		kq(f, 0, "visibility", o->visibility);
	}
	if (o->tags[0]) {
		fprintf(f, "tags:\n");
		seq(f, 0, o->tags);
	}
	fprintf(f, "metadata:\n  bootmark.job_format: %d\n", BM_LAVA_JOB_FORMAT);
	kq(f, 2, "bootmark.suite", o->suite);
	kq(f, 2, "bootmark.fs", o->fs);
}

/* A box: the kernel and the initrd go to TFTP and the device type's boot
 * commands (iPXE, GRUB) load them. */
static void write_tftp(FILE *f, const struct bm_lava_opts *o)
{
	fprintf(f, "actions:\n- deploy:\n    to: tftp\n");
	minutes(f, 4, "timeout", DEPLOY_MIN);
	/* no compression and no LAVA overlay: the initrd is booted as built */
	fprintf(f, "    kernel:\n");
	kq(f, 6, "url", o->kernel_url);
	/* U-Boot: an Image for booti (a raw ramdisk; LAVA passes its size) */
	if (!strcmp(o->boot_method, "u-boot"))
		kq(f, 6, "type", "image");
	fprintf(f, "    ramdisk:\n");
	kq(f, 6, "url", o->initrd_url);
	fprintf(f, "      install_modules: false\n      install_overlay: false\n");
	if (o->dtb_url[0]) {
		fprintf(f, "    dtb:\n");
		kq(f, 6, "url", o->dtb_url);
	}
	fprintf(f, "- boot:\n");
	kq(f, 4, "method", o->boot_method);
	kq(f, 4, "commands", o->commands);
	minutes(f, 4, "timeout", BOOT_MIN);
}

/* A QEMU device: LAVA downloads both files to the worker and appends each
 * image_arg to the device's QEMU command, {kernel} and {initrd} replaced by
 * the files; the command line goes in -append, since LAVA's qemu method has
 * no bootloader to pass extra_kernel_args.  The test disk is the device's:
 * its dictionary gives QEMU a disk with the serial the runner selects. */
static void write_qemu(FILE *f, const struct bm_lava_opts *o, const char *args)
{
	char arg[ARGS_MAX + 64];

	fprintf(f, "actions:\n- deploy:\n    to: tmpfs\n");
	minutes(f, 4, "timeout", DEPLOY_MIN);
	fprintf(f, "    images:\n      kernel:\n");
	snprintf(arg, sizeof(arg), "-kernel {kernel} -append \"%s\"", args);
	kq(f, 8, "image_arg", arg);
	kq(f, 8, "url", o->kernel_url);
	fprintf(f, "      initrd:\n");
	kq(f, 8, "image_arg", "-initrd {initrd}");
	kq(f, 8, "url", o->initrd_url);
	fprintf(f, "- boot:\n");
	kq(f, 4, "method", "qemu");
	kq(f, 4, "media", "tmpfs");
	minutes(f, 4, "timeout", BOOT_MIN);
}

static void write_actions(FILE *f, const struct bm_lava_opts *o, long long job,
			  const char *args)
{
	if (!strcmp(o->boot_method, "qemu"))
		write_qemu(f, o, args);
	else
		write_tftp(f, o);
	fprintf(f, "- test:\n");
	minutes(f, 4, "timeout", job - DEPLOY_MIN - BOOT_MIN);
	fprintf(f, "    monitors:\n    - name: bootmark\n");
	kq(f, 6, "start", BM_LAVA_START);
	kq(f, 6, "end", BM_LAVA_END);
	kq(f, 6, "pattern", BM_LAVA_PATTERN);
}

int bm_lava_write(FILE *f, const struct bm_lava_opts *o)
{
	char args[ARGS_MAX + 1], dev[64];
	long long job = bm_lava_minutes(o);
	int rc = bm_lava_kernel_args(o, args, sizeof(args));

	if (rc < 0)
		return rc;
	write_head(f, o, job);
	fprintf(f, "context:\n");
	/* LAVA's qemu device template picks qemu-system-x86_64 or -aarch64 by
	 * the job's arch; arm64: bootmark run's virt machine and TCG CPU */
	if (!strcmp(o->boot_method, "qemu"))
		kq(f, 2, "arch", o->arch);
	if (!strcmp(o->boot_method, "qemu") && !strcmp(o->arch, "arm64")) {
		kq(f, 2, "machine", "virt,gic-version=3");
		kq(f, 2, "cpu", "neoverse-n1");
	}
	kq(f, 2, "extra_kernel_args", args);
	if (o->console[0]) {
		snprintf(dev, sizeof(dev), "%.*s", (int)strcspn(o->console, ","), o->console);
		kq(f, 2, "console_device", dev);
	}
	write_actions(f, o, job, args);
	return ferror(f) ? -EIO : 0;
}

static int lava_prepare(struct bm_backend_req *req)
{
	struct bm_lava_req *q = container_of(req, struct bm_lava_req, r);
	const char *out = req->out;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	/* the whole job first: a failure leaves no half-written file */
	f = open_memstream(&buf, &len);
	if (!f) {
		rc = -errno;
		bm_msg("cannot build the job: %s", strerror(-rc));
		return rc;
	}
	rc = bm_lava_write(f, q->o);
	if (fclose(f) && !rc)
		rc = -errno;
	if (rc) {
		bm_msg("cannot build the job: %s", strerror(-rc));
		goto out_free_buf;
	}
	if (out[0]) {
		rc = bm_out_plan_file(out, -1);
		if (rc) {
			q->refused = 1;
			goto out_free_buf;
		}
	}
	if (out[0])
		rc = bm_write_file_atomic(out, buf, len);
	else if (fwrite(buf, 1, len, stdout) != len || fflush(stdout))
		rc = errno ? -errno : -EIO;
	if (rc)
		bm_msg("cannot write %s: %s", out[0] ? out : "standard output", strerror(-rc));
out_free_buf:
	free(buf);
	return rc;
}

const struct bm_backend_ops bm_backend_lava = {
	.name = "lava",
	.help = "bootmark lava writes a LAVA job; LAVA boots the box, the job's log is the "
		"results folder's console.log (bootmark parse reads it)",
	.prepare = lava_prepare,
};
