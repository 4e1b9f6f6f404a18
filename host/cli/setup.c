// SPDX-License-Identifier: MIT
/* Checks shared by the commands that boot kernels (host/cli/setup.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "initrd.h"
#include "manifest.h"
#include "modclosure.h"
#include "results.h"
#include "setup.h"
#include "util.h"
#include "wldesc.h"

const char *const bm_accel_choices[] = { "auto", "kvm", "tcg", NULL };
const char *const bm_cache_choices[] = { "auto", "none", "writeback", "unsafe",
					 "directsync", "writethrough", NULL };
const char *const bm_machine_choices[] = { "auto", "q35", "pc", "virt", NULL };
const char *const bm_arch_choices[] = { "auto", "amd64", "arm64", NULL };

/*
 * --arch and --machine: the guest architecture (auto: the host's) and a
 * machine of it.  The image of another architecture than the build's own
 * is in <bootmark dir>/<arch>/ (make arm64).
 */
const struct bm_qemu_arch *bm_setup_arch(const char *arch, const char *accel)
{
	const struct bm_qemu_arch *a = arch[0] && strcmp(arch, "auto") ? bm_qemu_arch_find(arch)
								    : bm_qemu_arch_host();

	if (!a) {
		bm_msg("--arch %s: bootmark boots amd64 and arm64", arch);
		return NULL;
	}
	if (!strcmp(accel, "kvm") && a != bm_qemu_arch_host()) {
		bm_msg("--accel kvm: KVM runs %s guests here, not %s (--accel tcg or auto)",
		       bm_qemu_arch_host()->name, a->name);
		return NULL;
	}
	return a;
}

static int set_arch(struct bm_setup *s, const struct bm_boot_opts *o)
{
	const char *m = o->machine[0] ? o->machine : "auto";
	int amd64;

	s->arch = bm_setup_arch(o->arch, o->accel);
	if (!s->arch)
		return -EINVAL;
	amd64 = !strcmp(s->arch->name, "amd64");
	if (strcmp(m, "auto") && amd64 != strcmp(m, "virt")) {
		bm_msg("--machine %s is not a machine of %s (%s)", m, s->arch->name,
		       amd64 ? "q35 or pc" : "virt");
		return -EINVAL;
	}
	/* virt's GICv3: the one a server-class arm64 box has, and KernelCI's */
	snprintf(s->machine, sizeof(s->machine), "%s",
		 !strcmp(m, "auto") || !strcmp(m, "virt") ? s->arch->machine : m);
	return 0;
}

static int set_paths(struct bm_setup *s, const struct bm_boot_opts *o)
{
	char real[PATH_MAX];

	if (bm_exe_dir(s->exe, sizeof(s->exe)))
		return -ENOENT;
	if (set_arch(s, o))
		return -EINVAL;
	if (o->image[0])
		snprintf(s->image, sizeof(s->image), "%s", o->image);
	else if (s->arch == bm_qemu_arch_host())
		bm_path(s->image, sizeof(s->image), "%s/base.cpio.xz", s->exe);
	else
		bm_path(s->image, sizeof(s->image), "%s/%s/base.cpio.xz", s->exe, s->arch->name);
	if (o->configs[0])
		snprintf(s->configs, sizeof(s->configs), "%s", o->configs);
	else
		bm_path(s->configs, sizeof(s->configs), "%s/../configs", s->exe);
	if (!bm_is_dir(s->configs)) {
		bm_msg("configs directory %s does not exist", s->configs);
		return -EINVAL;
	}
	if (realpath(s->configs, real))
		snprintf(s->configs, sizeof(s->configs), "%s", real);
	return 0;
}

/*
 * A profile's modules go in the archive as optional ("reiserfs?"): a kernel
 * that lacks one (reiserfs after 6.12) still boots, and the runner's module
 * E record accounts for that filesystem's tests (bm_setup_kernel warns).
 */
int bm_setup_merge_optional(char *buf, size_t len, const char *list)
{
	char tmp[1024], one[128], *tok, *save = NULL;

	if (bm_path(tmp, sizeof(tmp), "%s", list))
		return -E2BIG;
	for (tok = strtok_r(tmp, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		if (bm_path(one, sizeof(one), "%s%s", tok, tok[strlen(tok) - 1] == '?' ? "" : "?") ||
		    bm_list_merge(buf, len, one))
			return -E2BIG;
	}
	return 0;
}

/* Suite and every profile must load; the modules they need are collected. */
static int check_configs(struct bm_setup *s, const char *suite, const char *fs_list)
{
	char dir[PATH_MAX], err[512], fs[256], image[1024], *tok, *save = NULL;
	struct bm_fsprof prof;
	unsigned nfs = 0;
	int rc;

	if (!bm_safe_name(suite)) {
		bm_msg("bad suite name '%s'", suite);
		return -EINVAL;
	}
	bm_path(dir, sizeof(dir), "%s/suites", s->configs);
	if (bm_suite_load(&s->suite, dir, suite, err, sizeof(err))) {
		bm_msg("unknown or bad suite '%s': %s", suite, err);
		return -EINVAL;
	}
	rc = bm_conf_boot_modules(s->configs, s->modules, sizeof(s->modules));
	if (!rc)
		rc = bm_conf_image_modules(s->configs, image, sizeof(image));
	if (rc) {
		bm_msg("cannot read %s/bootmark.conf: %s", s->configs, bm_strerror(-rc));
		return -EINVAL;
	}
	/* the records' port of the arch (arm64: virtio_console for hvc0) */
	if (s->arch && bm_list_merge(s->modules, sizeof(s->modules), s->arch->results_modules)) {
		bm_msg("bootmark.conf's modules: too long a list");
		return -EINVAL;
	}
	snprintf(s->boot_modules, sizeof(s->boot_modules), "%s", s->modules);
	/* image_modules are optional in the archive: lab boxes' drivers, loaded
	 * when a box names them, and an arm64 kernel has no x86 watchdog */
	if (bm_setup_merge_optional(s->modules, sizeof(s->modules), image)) {
		bm_msg("bootmark.conf's image_modules: too long a list");
		return -EINVAL;
	}
	bm_path(dir, sizeof(dir), "%s/fs", s->configs);
	snprintf(fs, sizeof(fs), "%s", fs_list);
	for (tok = strtok_r(fs, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (nfs == BM_SETUP_FS_MAX) {
			bm_msg("more than %d filesystem profiles in --fs", BM_SETUP_FS_MAX);
			return -EINVAL;
		}
		nfs++;
		if (!strcmp(tok, BM_WL_RAW_FS)) {
			bm_msg("'%s' in --fs: the name is the raw disk's (records of jobs without a "
			       "filesystem), not a profile's", tok);
			return -EINVAL;
		}
		if (!bm_safe_name(tok) || bm_fsprof_load(&prof, dir, tok, err, sizeof(err))) {
			bm_msg("unknown or bad filesystem profile '%s'%s%s", tok,
			       bm_safe_name(tok) ? ": " : "", bm_safe_name(tok) ? err : "");
			return -EINVAL;
		}
		if (bm_setup_merge_optional(s->modules, sizeof(s->modules), prof.modules)) {
			bm_msg("module list too long");
			return -EINVAL;
		}
		s->prof[s->nprof++] = prof;
	}
	/* what the runner would reject is bad input here, before anything exists */
	if (bm_plan_make(&s->tests, &s->suite, nfs, err, sizeof(err))) {
		bm_msg("bad suite '%s' (%s/suites/%s): %s", suite, s->configs, suite, err);
		return -EINVAL;
	}
	/* a boot's readers keep that many R records (results.h): more would be
	 * read back as a damaged stream after the whole suite ran */
	if (s->tests.total > BM_RESULTS_MAX) {
		bm_msg("suite '%s' plans %u tests per boot on %u filesystem(s), more than the %d a "
		       "boot may hold (docs/reliability.md): fewer repeats or filesystems per run",
		       suite, s->tests.total, nfs, BM_RESULTS_MAX);
		return -EINVAL;
	}
	return 0;
}

static int check_tools(const struct bm_setup *s)
{
	char tool[PATH_MAX];

	bm_path(tool, sizeof(tool), "%s/bm-mkinitramfs", s->exe);
	if (!bm_is_file(tool) || !bm_is_file(s->image)) {
		/* another architecture's image is a target of its own */
		bm_msg("cannot find %s (run make%s%s first)", bm_is_file(tool) ? s->image : tool,
		       bm_is_file(tool) && s->arch != bm_qemu_arch_host() ? " " : "",
		       bm_is_file(tool) && s->arch != bm_qemu_arch_host() ? s->arch->name : "");
		return -ENOENT;
	}
	return 0;
}

/*
 * --decoy-disk: QEMU gets it read-write (a decoy the guest could not write
 * would prove nothing), so it must be the user's own regular file, named
 * directly: not a link, not a device, not another user's file.
 */
static int check_decoy(const char *path)
{
	struct stat st;

	if (lstat(path, &st)) {
		bm_msg("cannot use %s (--decoy-disk): %s", path, strerror(errno));
		return -EINVAL;
	}
	if (!S_ISREG(st.st_mode) || st.st_uid != getuid()) {
		bm_msg("cannot use %s (--decoy-disk): %s", path,
		       S_ISLNK(st.st_mode) ? "a symbolic link" : !S_ISREG(st.st_mode)
		       ? "not a regular file" : "not your own file");
		return -EINVAL;
	}
	return 0;
}

/* Tool archive a (built) must have every sibling the base has (base.cpio,
 * .xz, .zst): the kernel's compressor picks one of them. */
static int check_tool_files(const struct bm_setup *s, const struct bm_fsprof *p,
			    const struct bm_manifest_arch *a)
{
	static const char *const sfx[] = { "", ".xz", ".zst" };
	char stem[PATH_MAX], base[PATH_MAX], file[PATH_MAX];
	size_t i;

	snprintf(stem, sizeof(stem), "%.*s",
		 (int)(strlen(s->image) - strlen(bm_initrd_zip_suffix(s->image))), s->image);
	for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		if (bm_path(base, sizeof(base), "%s%s", stem, sfx[i]) || !bm_is_file(base))
			continue;
		if (bm_initrd_tool_file(base, a->path, file, sizeof(file)) || !bm_is_file(file)) {
			bm_msg("filesystem profile %s: cannot find %s, the %s tool archive beside %s "
			       "(run make)", p->name, file, a->name, base);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Each profile's mkfs in the manifest beside the image (manifest.h): the tool
 * archives they need go in s->tools; a mkfs the image cannot carry is bad
 * input.  A custom --image without a manifest is taken as it is: nothing is
 * added or checked, and a missing mkfs is the guest's E record.
 */
static int check_mkfs(struct bm_setup *s, int custom)
{
	char path[PATH_MAX], err[512];
	const struct bm_manifest_arch *a;
	struct bm_manifest *m;
	unsigned i, j;
	int rc;

	s->tools.n = 0;
	if (bm_manifest_name(s->image, path, sizeof(path))) {
		bm_msg("image path %s too long", s->image);
		return -EINVAL;
	}
	if (!bm_is_file(path)) {
		if (!custom) {
			bm_msg("cannot find %s (run make first)", path);
			return -ENOENT;
		}
		bm_msg("--image %s has no %s beside it: no tool archive is added and the "
		       "profiles' mkfs are not checked (docs/filesystems.md)", s->image, path);
		return 0;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	rc = bm_manifest_load(m, path, err, sizeof(err));
	if (rc) {
		bm_msg("cannot read %s: %s (run make)", path, err);
		rc = custom ? -EINVAL : -ENOENT;
	}
	for (i = 0; !rc && i < s->nprof; i++) {
		rc = bm_manifest_mkfs(m, &s->prof[i], &a, err, sizeof(err)) ? -EINVAL : 0;
		if (rc) {
			bm_msg("filesystem profile %s: %s", s->prof[i].name, err);
			break;
		}
		for (j = 0; a && j < s->tools.n && strcmp(s->tools.path[j], a->path); j++)
			;
		if (!a || j < s->tools.n)
			continue;
		rc = check_tool_files(s, &s->prof[i], a);
		if (!rc)
			snprintf(s->tools.path[s->tools.n++], sizeof(s->tools.path[0]), "%s", a->path);
	}
	free(m);
	return rc;
}

int bm_setup_load(struct bm_setup *s, const struct bm_boot_opts *o, const char *suite,
		  const char *fs)
{
	int rc;

	if (o->icount >= 0 && !strcmp(o->accel, "kvm")) {
		bm_msg("--icount is TCG's virtual time: it cannot go with --accel kvm");
		return -EINVAL;
	}
	/* empty for the commands without --cpu (pxe boots no QEMU) */
	if (o->cpu[0] && bm_qemu_cpu_check(o->cpu)) {
		bm_msg("--cpu '%s': not a QEMU CPU (a model, then ,feature=on|off words: "
		       "letters, digits and . _ - + = , only)", o->cpu);
		return -EINVAL;
	}
	if (o->decoy[0] && check_decoy(o->decoy))
		return -EINVAL;
	if (o->extra_initrd[0] && access(o->extra_initrd, R_OK)) {
		bm_msg("cannot read %s (--extra-initrd): %s", o->extra_initrd, strerror(errno));
		return -EINVAL;
	}
	snprintf(s->boot_method, sizeof(s->boot_method), "%s",
		 o->boot_method[0] ? o->boot_method : "auto");
	rc = set_paths(s, o);
	if (rc)
		return rc;
	rc = check_configs(s, suite, fs);
	if (!rc)
		rc = check_tools(s);
	return rc ? rc : check_mkfs(s, o->image[0] != '\0');
}

/* One list of modules against the kernel's tree; what names it goes in the message. */
/* One list of modules against the kernel's tree; what names it goes in the
 * message.  A module it lacks is bad input, or (warn) only said. */
static int check_mods(const struct bm_kernel *k, const char *list, const char *what, int warn)
{
	char err[512];
	int rc;

	rc = bm_modules_check(k->modroot, k->release, list, err, sizeof(err));
	if (!rc)
		return 0;
	if (rc == -ENOENT && warn) {
		bm_msg("%s: kernel %s: %s; its tests on that filesystem will end in a module "
		       "error record", what, k->release, err);
		return 0;
	}
	if (rc == -ENOENT)
		bm_msg("%s: kernel %s: %s", what, k->release, err);
	else
		bm_msg("cannot read the module tree of kernel %s: %s", k->release, err);
	return rc == -ENOENT ? -EINVAL : rc;
}

int bm_setup_kernel(const struct bm_setup *s, struct bm_kspec *spec, struct bm_kernel *k)
{
	char what[PATH_MAX + 64];
	unsigned i;
	int rc;

	rc = bm_kernel_resolve(spec, 1, k);
	if (rc) {
		if (rc == -ENOENT)
			bm_msg("kernel %s is not available", spec->text);
		return rc == -ENOENT ? -EINVAL : rc;
	}
	if (s->arch && strcmp(k->arch, s->arch->name)) {
		bm_msg("kernel %s is %s, and this run boots %s (--arch %s)", spec->text,
		       k->arch[0] ? k->arch : "of no known architecture", s->arch->name,
		       k->arch[0] ? k->arch : "...");
		return -EINVAL;
	}
	if (s->boot_method[0]) {
		struct bm_method m;

		rc = bm_boot_method(s->arch, s->boot_method, k, &m);
		if (rc)
			return rc;
	}
	/* everything built in (a local build without modules): nothing to find */
	if (!k->modroot[0])
		return 0;
	bm_path(what, sizeof(what), "%s/bootmark.conf modules", s->configs);
	rc = check_mods(k, s->boot_modules, what, 0);
	/* a filesystem this kernel lacks (reiserfs after 6.12) is a result of
	 * the kernel, said by the guest's E record: the other filesystems run */
	for (i = 0; !rc && i < s->nprof; i++) {
		bm_path(what, sizeof(what), "filesystem profile %s/fs/%s (modules = %s)",
			s->configs, s->prof[i].name, s->prof[i].modules);
		rc = check_mods(k, s->prof[i].modules, what, 1);
	}
	return rc;
}

int bm_setup_configs(struct bm_setup *s, const char *configs, const char *suite,
		     const char *fs)
{
	static struct bm_boot_opts o;

	snprintf(o.configs, sizeof(o.configs), "%s", configs);
	if (set_paths(s, &o))
		return -EINVAL;
	return check_configs(s, suite, fs) ? -EINVAL : 0;
}

int bm_setup_check_kernel(struct bm_kspec *k)
{
	struct bm_kernel kern;

	if (k->kind == BM_KSPEC_LOCAL)
		return bm_local_resolve(k, &kern) ? -EINVAL : 0;
	/* an unknown Debian release is bad input: say so before OUT exists */
	if (bm_deb_cached(k->release, &kern) && bm_deb_known(k->release) == -ENOENT) {
		bm_msg("Debian has no package linux-image-%s (see bootmark kernel list)",
		       k->release);
		return -EINVAL;
	}
	return 0;
}

int bm_setup_labels(struct bm_kspec *spec, int n, char *labels, size_t stride)
{
	int i, j, dup;

	for (i = 0; i < n; i++) {
		if (bm_setup_check_kernel(&spec[i]))
			return -EINVAL;
		for (j = 0, dup = 1; j < i; j++)
			dup += !strcmp(spec[j].release, spec[i].release);
		/* "_" sorts after the ".b<N>" of repeats: folders list in --kernel
		 * order, and compare's baseline stays the first kernel */
		if (bm_label_dup(labels + (size_t)i * stride, stride, spec[i].release, dup))
			return -EINVAL;
	}
	return 0;
}

/* The nearest folder of path that exists: path, or a parent of it. */
static void existing_folder(const char *path, char *buf, size_t len)
{
	char *slash;

	snprintf(buf, len, "%s", path[0] ? path : ".");
	while (!bm_is_dir(buf)) {
		slash = strrchr(buf, '/');
		if (!slash) {
			snprintf(buf, len, ".");
			return;
		}
		if (slash == buf) {
			buf[1] = '\0';
			return;
		}
		*slash = '\0';
	}
}

int bm_setup_check_disk(const struct bm_setup *s, const char *out)
{
	unsigned long long size = s->suite.disk_size;
	char dir[PATH_MAX];
	int fd, rc = 0;

	existing_folder(out, dir, sizeof(dir));
	if (size > (unsigned long long)INT64_MAX) {
		rc = -EFBIG;
	} else {
		/* an unnamed file (O_TMPFILE) of that size, never a block written
		 * and gone at close: what disk.img will be, on its filesystem */
		fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		if (fd < 0)
			return 0;  /* cannot tell here (no O_TMPFILE, not writable) */
		if (ftruncate(fd, (off_t)size))
			rc = -errno;
		close(fd);
	}
	if (rc != -EFBIG && rc != -EINVAL)
		return 0;
	bm_msg("suite '%s': disk_size=%llu bytes (%llu GiB) is more than a file on the filesystem "
	       "of %s can hold (%s): a smaller disk_size, or --out on another filesystem",
	       s->suite.name, size, size >> 30, dir, strerror(-rc));
	return -EINVAL;
}

void bm_setup_run_cfg(const struct bm_setup *s, const struct bm_boot_opts *o, const char *out,
		      const char *suite, const char *fs, struct bm_run_cfg *c)
{
	*c = (struct bm_run_cfg){
		.out = out, .suite = suite, .fs = fs, .tools = s->exe, .configs = s->configs,
		.image = s->image, .accel = o->accel, .disk_cache = o->disk_cache,
		.arch = s->arch, .machine = s->machine, .cpu = o->cpu, .boot_method = s->boot_method,
		.modules = s->modules, .tools_archives = &s->tools,
		.disk_size = s->suite.disk_size, .mem = (int)o->mem, .smp = (int)o->smp,
		.silence = (int)o->silence, .timeout = (int)o->timeout,
		.keep_disk = o->keep_disk, .icount = (int)o->icount,
		.fail_on_warning = o->fail_on_warning, .extra_initrd = o->extra_initrd,
		.disk_bus = o->disk_bus, .decoy = o->decoy,
		.planned = s->tests.total,
	};
	/* icount runs the vCPUs round-robin in one thread, and the 6.1 kernel's
	 * secondary CPU bring-up stalls there: one vCPU */
	if (o->icount >= 0)
		c->smp = 1;
}
