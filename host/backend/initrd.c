// SPDX-License-Identifier: MIT
/* Module archives (bm-mkinitramfs + a compressor the kernel has) and initrd.img:
 * base, tool archives, modules, configuration (initrd.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "initrd.h"
#include "profile.h"
#include "sha256.h"
#include "outdir.h"
#include "util.h"

#define DEFAULT_BOOT_MODULES "virtio_pci,virtio_blk"

struct compressor {
	const char *name;      /* bench-boot --compress */
	const char *sym;       /* CONFIG_RD_* the kernel needs */
	const char *ext;
	char *const *argv;     /* reads stdin-less: file argument appended */
};

static char *const xz_argv[] = { "xz", "--check=crc32", "-T1", "-9", "-c", NULL };
static char *const zstd_argv[] = { "zstd", "-q", "-19", "-c", NULL };
static char *const gzip_argv[] = { "gzip", "-n", "-9", "-c", NULL };
/* -l: the legacy frame format, the only one the kernel's lz4 decoder reads */
static char *const lz4_argv[] = { "lz4", "-q", "-l", "-9", "-c", NULL };

/*
 * In order of preference.  zstd first: xz saves about 6% of the bytes but
 * the kernel's xz decoder is slow; under TCG unpacking the xz initrd took
 * 1.3 s of a 6 s boot, zstd's a small fraction of that (docs/bench.md).
 */
static const struct compressor compressors[] = {
	{ "zstd", "CONFIG_RD_ZSTD", "zst", zstd_argv },
	{ "xz", "CONFIG_RD_XZ", "xz", xz_argv },
	{ "gzip", "CONFIG_RD_GZIP", "gz", gzip_argv },
};

/* Only measured against the product's choice (bench-boot --compress). */
static const struct compressor others[] = {
	{ "lz4", "CONFIG_RD_LZ4", "lz4", lz4_argv },
	{ "none", NULL, "cpio", NULL },
};

/* Without a config gzip is the safe guess: every x86 distro kernel has it. */
static const struct compressor *pick(const struct bm_kernel *k, int *has_xz)
{
	size_t i;

	*has_xz = 1;
	if (!k->config[0])
		return &compressors[2];
	*has_xz = bm_kconfig_has(k->config, "CONFIG_RD_XZ") == 1;
	for (i = 0; i < sizeof(compressors) / sizeof(compressors[0]); i++)
		if (bm_kconfig_has(k->config, compressors[i].sym) == 1)
			return &compressors[i];
	return NULL;
}

static int compress_to(const struct compressor *c, const char *in, const char *out);

/* The compressor of extension ext (zst, xz, gz) on in, to out. */
static int compress_ext(const char *ext, const char *in, const char *out)
{
	size_t i;

	for (i = 0; i < sizeof(compressors) / sizeof(compressors[0]); i++)
		if (!strcmp(compressors[i].ext, ext))
			return compress_to(&compressors[i], in, out);
	return -EINVAL;
}

static int compress_to(const struct compressor *c, const char *in, const char *out)
{
	char *argv[8];
	int i;

	for (i = 0; c->argv[i]; i++)
		argv[i] = c->argv[i];
	argv[i++] = (char *)in;
	argv[i] = NULL;
	return bm_run_to_file(argv, out);
}

/* What the archive carries uncompressed and its boot index lists:
 * bootmark.conf's boot modules and the arch's (req->boot_extra). */
static int boot_modules(const struct bm_initrd_req *req, char *buf, size_t len)
{
	int rc = bm_conf_boot_modules(req->configs, buf, len);

	return rc || !req->boot_extra ? rc : bm_list_merge(buf, len, req->boot_extra);
}

/* bm-mkinitramfs --modules ... > list; bm-mkinitramfs -o cpio list.  The boot
 * modules go in uncompressed (initramfs/modplain.h). */
static int modules_cpio(const struct bm_initrd_req *req, const char *stage, const char *cpio)
{
	char tool[4096], list[4096], names[1024], plain[1024];
	char *mods[] = { tool, "--modules", (char *)req->k->modroot, (char *)req->k->release,
			 (char *)stage, names, plain, NULL };
	char *arch[] = { tool, "-o", (char *)cpio, list, NULL };
	int rc;

	if (bm_path(tool, sizeof(tool), "%s/bm-mkinitramfs", req->tools_dir) ||
	    bm_path(list, sizeof(list), "%s/modules.list", stage) ||
	    bm_path(names, sizeof(names), "%s", req->modules))
		return -ENAMETOOLONG;
	rc = boot_modules(req, plain, sizeof(plain));
	if (rc)
		return rc;
	rc = bm_run_to_file(mods, list);
	return rc ? rc : bm_run_ok(arch, NULL, -1);
}

/* The module cpio, then compressed into dst. */
static int make_archive(const struct bm_initrd_req *req, const struct compressor *c,
			const char *stage, const char *dst)
{
	char cpio[4096], tmp[4096];
	int rc;

	if (bm_path(cpio, sizeof(cpio), "%s/modules.cpio", stage))
		return -ENAMETOOLONG;
	rc = modules_cpio(req, stage, cpio);
	if (rc)
		return rc;
	/* a name of its own: two runs building the same cached archive each
	 * rename a whole one into place (the bytes are the same) */
	rc = bm_out_tmp(dst, tmp, sizeof(tmp));
	if (rc < 0)
		return rc;
	close(rc);
	rc = compress_to(c, cpio, tmp);
	if (!rc && rename(tmp, dst))
		rc = -errno;
	if (rc)
		unlink(tmp);
	return rc;
}

/* Finds or builds the module archive; path gets its name. */
static int module_archive(const struct bm_initrd_req *req, const struct compressor *c,
			  char *path, size_t len)
{
	char dir[4096], stage[4096], key[2400], plain[1024], hex[65];
	int rc;

	if (req->cacheable) {
		rc = bm_cache_root(dir, sizeof(dir));
		if (!rc)
			rc = bm_path(dir + strlen(dir), sizeof(dir) - strlen(dir), "/initrd");
	} else {
		rc = bm_path(dir, sizeof(dir), "%s", req->workdir);
	}
	if (!rc)
		rc = bm_mkdir_p(dir, 0755);
	if (rc)
		return rc;
	rc = boot_modules(req, plain, sizeof(plain));
	if (rc)
		return rc;
	/* "4": the boot modules uncompressed, the others xz-compressed where the
	 * kernel ships them plain (initramfs/modplain.h), and the boot index
	 * (BM_MODULES_BOOT_DIR); an older archive differs */
	snprintf(key, sizeof(key), "4\n%s\n%s\n%s", req->modules, plain, c->ext);
	bm_sha256_hex(key, strlen(key), hex);
	hex[12] = '\0';
	if (bm_path(path, len, "%s/%s-%s.cpio.%s", dir, req->k->release, hex, c->ext) ||
	    bm_path(stage, sizeof(stage), "%s/.stage-XXXXXX", dir))
		return -ENAMETOOLONG;
	if (req->cacheable && bm_is_file(path))
		return 0;
	if (!mkdtemp(stage))
		return -errno;
	rc = make_archive(req, c, stage, path);
	bm_rm_rf(stage);
	return rc;
}

/* Zero bytes up to a 4-byte boundary: an uncompressed cpio must start aligned. */
static int pad4(int fd)
{
	static const char zero[4];
	off_t end = lseek(fd, 0, SEEK_END);

	if (end < 0)
		return -errno;
	if (end % 4 && write(fd, zero, (size_t)(4 - end % 4)) != 4 - end % 4)
		return -EIO;
	return 0;
}

/* base, then each of the n further parts ("" = none), padded to 4 bytes when pad. */
static int concat(const char *out, const char *base, const char *const *parts, size_t n, int pad)
{
	char tmp[4096];
	size_t i;
	int fd, rc;

	fd = bm_out_tmp(out, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	rc = bm_append_file(fd, base);
	for (i = 0; !rc && i < n; i++) {
		if (!parts[i] || !parts[i][0])
			continue;
		rc = pad ? pad4(fd) : 0;
		if (!rc)
			rc = bm_append_file(fd, parts[i]);
	}
	if (close(fd) && !rc)
		rc = -errno;
	if (!rc && rename(tmp, out))
		rc = -errno;
	if (rc)
		unlink(tmp);
	return rc;
}

const char *bm_initrd_zip_suffix(const char *path)
{
	size_t n = strlen(path), i, z;

	for (i = 0; i < sizeof(compressors) / sizeof(compressors[0]); i++) {
		z = strlen(compressors[i].ext);
		if (n > z + 1 && path[n - z - 1] == '.' && !strcmp(path + n - z, compressors[i].ext))
			return path + n - z - 1;
	}
	return "";
}

int bm_initrd_tool_file(const char *base, const char *path, char *out, size_t len)
{
	return bm_path(out, len, "%s%s", path, bm_initrd_zip_suffix(base));
}

/* The files of req's tool archives that go with base, into file[]; *n of them. */
static int tool_files(const struct bm_initrd_req *req, const char *base,
		      char file[][PATH_MAX], size_t *n)
{
	unsigned i;

	*n = 0;
	for (i = 0; req->tools && i < req->tools->n; i++) {
		if (bm_initrd_tool_file(base, req->tools->path[i], file[i], PATH_MAX))
			return -ENAMETOOLONG;
		if (!bm_is_file(file[i])) {
			bm_msg("cannot find %s, a tool archive of the image (run make)", file[i]);
			return -ENOENT;
		}
		(*n)++;
	}
	return 0;
}

int bm_initrd_build(const struct bm_initrd_req *req, char *desc, size_t desclen)
{
	const struct compressor *c;
	char tools[BM_INITRD_TOOLS_MAX][PATH_MAX];
	char base[4096], mods[4096] = "", cfg[4096] = "";
	const char *parts[BM_INITRD_TOOLS_MAX + 2];
	size_t n, ntools, i, used;
	int has_xz, rc;

	c = pick(req->k, &has_xz);
	if (!c) {
		bm_msg("kernel %s supports no initrd compression we can make (xz, zstd, gzip)",
		       req->k->release);
		return -ENOTSUP;
	}
	snprintf(base, sizeof(base), "%s", req->image);
	n = strlen(base);
	/* base.cpio.xz names its siblings: base.cpio.zst when the modules are
	 * zstd and it exists, the uncompressed base.cpio for a kernel without xz. */
	if (n > 3 && !strcmp(base + n - 3, ".xz")) {
		snprintf(base + n - 2, sizeof(base) - n + 2, "%s", c->ext);
		if (strcmp(c->ext, "zst") || !bm_is_file(base))
			snprintf(base + n - 3, sizeof(base) - n + 3, "%s", has_xz ? ".xz" : "");
		if (!bm_is_file(base)) {
			bm_msg("cannot find %s, the base image for kernel %s%s", base, req->k->release,
			       has_xz ? "" : " (no CONFIG_RD_XZ)");
			return -ENOENT;
		}
	}
	/* the tool archives are compressed as the base is: they extend it */
	rc = tool_files(req, base, tools, &ntools);
	if (rc)
		return rc;
	if (req->k->modroot[0] && req->modules[0]) {
		rc = module_archive(req, c, mods, sizeof(mods));
		if (rc) {
			bm_msg("cannot build the module archive for %s: %s", req->k->release, strerror(-rc));
			return rc;
		}
	}
	if (req->configs) {
		rc = bm_config_archive(req, c->ext, compress_ext, cfg, sizeof(cfg));
		if (rc) {
			bm_msg("cannot build the archive of suite %s and profiles %s: %s",
			       req->suite, req->fs, strerror(-rc));
			return rc;
		}
		if (req->config_out)
			snprintf(req->config_out, req->config_len, "%s", cfg);
	}
	for (i = 0; i < ntools; i++)
		parts[i] = tools[i];
	parts[ntools] = mods;
	parts[ntools + 1] = cfg;
	rc = concat(req->out, base, parts, ntools + 2, 1);
	if (rc) {
		bm_msg("cannot write %s: %s", req->out, strerror(-rc));
		return rc;
	}
	/* "BASE + TOOL... + MODULES + CONFIG" (meta.json initrd_parts) */
	snprintf(desc, desclen, "%s", base);
	for (i = 0; i < ntools; i++) {
		used = strlen(desc);
		snprintf(desc + used, desclen - used, " + %s", tools[i]);
	}
	used = strlen(desc);
	snprintf(desc + used, desclen - used, " + %s%s%s", mods[0] ? mods : "(no modules)",
		 cfg[0] ? " + " : "", cfg);
	return 0;
}

static const struct compressor *by_name(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(compressors) / sizeof(compressors[0]); i++)
		if (!strcmp(compressors[i].name, name))
			return &compressors[i];
	for (i = 0; i < sizeof(others) / sizeof(others[0]); i++)
		if (!strcmp(others[i].name, name))
			return &others[i];
	return NULL;
}

int bm_initrd_can_unpack(const struct bm_kernel *k, const char *name)
{
	const struct compressor *c = by_name(name);

	if (!c)
		return -EINVAL;
	if (!c->sym)
		return 1;
	return k->config[0] && bm_kconfig_has(k->config, c->sym) == 1;
}

int bm_initrd_compress(const char *name, const char *in, const char *out)
{
	const struct compressor *c = by_name(name);
	int fd, rc;

	if (!c)
		return -EINVAL;
	if (c->argv)
		return compress_to(c, in, out);
	fd = bm_out_open(out, O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return fd;
	rc = bm_append_file(fd, in);
	if (close(fd) && !rc)
		rc = -errno;
	return rc;
}

int bm_initrd_modules_cpio(const struct bm_initrd_req *req, const char *out)
{
	char stage[4096];
	int rc;

	if (bm_path(stage, sizeof(stage), "%s/.stage-XXXXXX", req->workdir))
		return -ENAMETOOLONG;
	if (!mkdtemp(stage))
		return -errno;
	rc = modules_cpio(req, stage, out);
	bm_rm_rf(stage);
	return rc;
}

int bm_initrd_concat(const char *out, const char *name, const char *base, const char *mods)
{
	/* The kernel's lz4 reads legacy frames up to the end of its input: zeros
	 * after a member are a bad frame ("Decoding failed"), the next member's
	 * magic is taken as more of the same stream.  The others stop at their end. */
	return concat(out, base, &mods, 1, strcmp(name, "lz4"));
}

int bm_list_merge(char *buf, size_t len, const char *add)
{
	char tmp[1024], *tok, *save = NULL;

	if (bm_path(tmp, sizeof(tmp), "%s", add))
		return -E2BIG;
	for (tok = strtok_r(tmp, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		size_t n = strlen(tok), used = strlen(buf);
		const char *p = buf;
		int found = 0;

		while (*p && !found) {
			size_t m = strcspn(p, ",");

			found = m == n && !strncmp(p, tok, n);
			p += m + (p[m] == ',');
		}
		if (found)
			continue;
		if (used + n + 2 > len)
			return -E2BIG;
		snprintf(buf + used, len - used, "%s%s", used ? "," : "", tok);
	}
	return 0;
}

/* The value of "key = value" in line when the key is key, else NULL; cuts comments. */
static char *conf_value(char *line, const char *key)
{
	char *p = line + strspn(line, " \t"), *v, *end;
	size_t n = strlen(key);

	if (strncmp(p, key, n) || !strchr(" \t=", p[n]))
		return NULL;
	v = strchr(p, '=');
	if (!v)
		return NULL;
	v += 1 + strspn(v + 1, " \t");
	end = v + strcspn(v, "#");
	while (end > v && strchr(" \t\r", end[-1]))
		end--;
	*end = '\0';
	return v;
}

/* bootmark.conf's "modules" (boot, the default when absent) and "image_modules". */
static int conf_lists(const char *configs, char *boot, size_t blen, char *image, size_t ilen)
{
	char path[4096], *text, *line, *save = NULL, *v;
	size_t tlen;
	int rc;

	snprintf(boot, blen, "%s", DEFAULT_BOOT_MODULES);
	image[0] = '\0';
	if (!configs)
		return 0;
	if (bm_path(path, sizeof(path), "%s/bootmark.conf", configs))
		return -ENAMETOOLONG;
	rc = bm_read_file(path, &text, &tlen, 1 << 20);
	if (rc == -ENOENT)
		return 0;
	if (rc)
		return rc;
	/* Only the keys the host needs; the runner parses the file fully. */
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if ((v = conf_value(line, "modules")))
			snprintf(boot, blen, "%s", v);
		else if ((v = conf_value(line, "image_modules")))
			snprintf(image, ilen, "%s", v);
	}
	free(text);
	return 0;
}

/* The archive carries the boot modules and image_modules (loaded only when
 * bootmark.modules= on a lab box's command line names them). */
int bm_conf_modules(const char *configs, char *buf, size_t len)
{
	char image[1024];
	int rc = conf_lists(configs, buf, len, image, sizeof(image));

	return rc ? rc : bm_list_merge(buf, len, image);
}

int bm_conf_image_modules(const char *configs, char *buf, size_t len)
{
	char boot[1024];

	return conf_lists(configs, boot, sizeof(boot), buf, len);
}

int bm_conf_boot_modules(const char *configs, char *buf, size_t len)
{
	char image[1024];

	return conf_lists(configs, buf, len, image, sizeof(image));
}
