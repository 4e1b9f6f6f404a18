// SPDX-License-Identifier: MIT
/*
 * The PXE backend's prepare (pxe.h, backend.h): the TFTP tree of "bootmark
 * pxe", kernels with their initrds, the loader, pxelinux and iPXE files, a
 * box's queue.  The options were checked by cmd_pxe.c before this runs.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "initrd.h"
#include "kernel.h"
#include "profile.h"
#include "pxe.h"
#include "outdir.h"
#include "util.h"

/* src to dst through dst.tmp and rename: a box never reads half a file. */
static int copy_atomic(const char *src, const char *dst)
{
	char tmp[PATH_MAX];
	int fd, rc;

	fd = bm_out_tmp(dst, tmp, sizeof(tmp));
	if (fd < 0) {
		rc = fd;
		goto out_msg;
	}
	rc = bm_append_file(fd, src);
	if (!rc && fsync(fd))
		rc = -errno;
	if (close(fd) && !rc)
		rc = -errno;
	if (!rc && rename(tmp, dst))
		rc = -errno;
	if (rc)
		unlink(tmp);
out_msg:
	if (rc)
		bm_msg("cannot copy %s to %s: %s", src, dst, strerror(-rc));
	return rc;
}

const char *bm_pxe_image_arch(const char *path)
{
	unsigned char h[4096];
	char arch[16];
	ssize_t n;
	int fd = bm_open_regular(path);

	if (fd < 0)
		return NULL;
	n = pread(fd, h, sizeof(h), 0);
	close(fd);
	if (n >= 2 && h[0] == 0x1f && h[1] == 0x8b)
		return "gzip";
	/* the headers kernels/arch.c reads: an Image, a bzImage, an ELF */
	if (n < 0 || bm_image_arch_buf(h, (size_t)n, arch, sizeof(arch)))
		return NULL;
	return !strcmp(arch, "arm64") ? "arm64" : !strcmp(arch, "amd64") ? "amd64" : NULL;
}

/* src (an arm64 Image.gz) unpacked to dst through a fresh tmp: U-Boot's booti
 * takes a gzip'd Image only where the board sets kernel_comp_addr_r. */
static int gunzip_atomic(const char *src, const char *dst)
{
	char tmp[PATH_MAX], *argv[] = { "gzip", "-dc", (char *)src, NULL };
	const char *arch;
	int fd, rc;

	fd = bm_out_tmp(dst, tmp, sizeof(tmp));
	if (fd < 0) {
		bm_msg("cannot unpack %s to %s: %s", src, dst, strerror(-fd));
		return fd;
	}
	rc = bm_run_ok(argv, NULL, fd);
	if (!rc && fsync(fd))
		rc = -errno;
	if (close(fd) && !rc)
		rc = -errno;
	arch = rc ? NULL : bm_pxe_image_arch(tmp);
	if (!rc && (!arch || strcmp(arch, "arm64"))) {
		bm_msg("%s: not an arm64 Image once unpacked", src);
		rc = -EINVAL;
	}
	if (!rc && rename(tmp, dst))
		rc = -errno;
	if (rc)
		unlink(tmp);
	if (rc && rc != -EINVAL)
		bm_msg("cannot unpack %s to %s: %s", src, dst, strerror(-rc));
	return rc;
}

/* The kernel and, with --dtb, its device tree into dir. */
static int copy_kernel(const struct bm_pxe_tree *t, int i, const char *vmlinuz,
		       const char *dir)
{
	char dst[PATH_MAX];
	const char *arch = bm_pxe_image_arch(vmlinuz);
	int rc;

	if (bm_path(dst, sizeof(dst), "%s/vmlinuz", dir))
		return -ENAMETOOLONG;
	rc = arch && !strcmp(arch, "gzip") ? gunzip_atomic(vmlinuz, dst) : copy_atomic(vmlinuz, dst);
	if (rc || !t->dtb || !t->dtb[i][0])
		return rc;
	if (bm_path(dst, sizeof(dst), "%s/%s", dir, t->fdt))
		return -ENAMETOOLONG;
	return copy_atomic(t->dtb[i], dst);
}

/* TFTPDIR/bootmark/<label>/{vmlinuz,initrd.img}; desc says what the initrd holds. */
static int write_kernel(const struct bm_pxe_tree *t, int i, char *desc, size_t desclen)
{
	char dir[PATH_MAX], work[PATH_MAX], initrd[PATH_MAX];
	struct bm_kernel k;
	struct bm_initrd_req req = {
		.k = &k, .tools_dir = t->tools_dir, .image = t->image, .tools = t->tools,
		.modules = t->modules,
		.out = initrd, .workdir = work, .cacheable = t->spec[i].kind == BM_KSPEC_DEB,
		.configs = t->configs, .suite = t->suite, .fs = t->fs,
	};
	int rc;

	rc = bm_kernel_resolve(&t->spec[i], 1, &k);
	if (rc) {
		bm_msg("kernel %s is not available", t->spec[i].text);
		return rc;
	}
	if (bm_path(dir, sizeof(dir), "%s/bootmark/%s", t->out, t->label[i]) ||
	    bm_path(work, sizeof(work), "%s/bootmark/.work-%s", t->out, t->label[i]) ||
	    bm_path(initrd, sizeof(initrd), "%s/initrd.img", dir))
		return -ENAMETOOLONG;
	rc = bm_mkdir_p(dir, 0755);
	if (rc) {
		bm_msg("cannot create %s: %s", dir, strerror(-rc));
		return rc;
	}
	rc = copy_kernel(t, i, k.vmlinuz, dir);
	if (!rc)
		rc = bm_initrd_build(&req, desc, desclen);
	bm_rm_rf(work);
	return rc;
}

/* U-Boot's boot.scr.uimg; stamped with SOURCE_DATE_EPOCH, else 0: same bytes. */
static int write_uboot_script(const struct bm_pxe_tree *t)
{
	char text[1024], path[PATH_MAX], *end;
	unsigned char img[BM_UIMAGE_HDR + sizeof(text) + 8];
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	unsigned long long stamp = sde ? strtoull(sde, &end, 10) : 0;
	size_t len;
	int rc;

	if (!sde || !sde[0] || *end || stamp > UINT32_MAX)
		stamp = 0;
	if (bm_path(path, sizeof(path), "%s/boot.scr.uimg", t->out))
		return -ENAMETOOLONG;
	rc = bm_pxe_uboot_cmd(text, sizeof(text));
	if (!rc)
		rc = bm_pxe_uimage_script(text, (uint32_t)stamp, img, sizeof(img), &len);
	if (!rc)
		rc = bm_write_file_atomic(path, img, len);
	if (rc)
		bm_msg("cannot write %s: %s", path, strerror(-rc));
	return rc;
}

static int write_loader(const struct bm_pxe_tree *t)
{
	char src[PATH_MAX], dst[PATH_MAX];

	if (!strcmp(t->arch, "arm64"))
		return write_uboot_script(t) ? -EIO : 0;

	if (bm_path(dst, sizeof(dst), "%s/pxelinux.0", t->out) || copy_atomic(t->pxelinux, dst))
		return -EIO;
	if (bm_path(src, sizeof(src), "%s/ldlinux.c32", t->modules_dir) ||
	    bm_path(dst, sizeof(dst), "%s/ldlinux.c32", t->out) || copy_atomic(src, dst))
		return -EIO;
	return 0;
}

/* Entries of who ("default" or the MAC); a queue reboots into its next entry. */
static int make_entries(const struct bm_pxe_tree *t, const char *who, int queue, struct bm_pxe_entry *e)
{
	int i, rc;

	for (i = 0; i < t->nk; i++) {
		rc = bm_pxe_run_id(t->run_seed, who, i, e[i].run);
		if (rc)
			return rc;
		snprintf(e[i].label, sizeof(e[i].label), "%s", t->label[i]);
		snprintf(e[i].fdt, sizeof(e[i].fdt), "%s", t->fdt ? t->fdt : "");
		e[i].state = queue && i == 0 ? BM_PXE_CURRENT : BM_PXE_PENDING;
		rc = bm_pxe_cmdline(t->a, e[i].run, queue && i + 1 < t->nk ? "reboot" : "poweroff",
				    t->spec[i].args, e[i].cmdline, sizeof(e[i].cmdline));
		if (rc)
			return rc;
	}
	return 0;
}

/* TFTPDIR/bootmark/tree.txt: what is where, without run ids (same bytes on a re-run). */
static int write_readme(const struct bm_pxe_tree *t, char desc[][PATH_MAX * 2 + 8])
{
	char path[PATH_MAX], *text = NULL;
	size_t len = 0;
	FILE *f;
	int i, rc;

	if (bm_path(path, sizeof(path), "%s/bootmark/tree.txt", t->out))
		return -ENAMETOOLONG;
	f = open_memstream(&text, &len);
	if (!f)
		return -errno;
	fprintf(f, "bootmark-pxe-tree 1\n# written by bootmark pxe: suite %s, fs %s, arch %s\n",
		t->suite, t->fs, t->arch);
	if (strcmp(t->arch, "arm64"))
		fprintf(f, "pxelinux.0                  %s\nldlinux.c32                 %s/ldlinux.c32\n",
			t->pxelinux, t->modules_dir);
	else
		fprintf(f, "boot.scr.uimg               U-Boot's script (distro boot's dhcp target "
			   "sources it):\n                            pxe get; pxe boot\n");
	fprintf(f, "pxelinux.cfg/default        every kernel as a LABEL, the first is DEFAULT\n"
		   "bootmark.ipxe               iPXE: chains bootmark-<mac>.ipxe if the box has one,\n"
		   "                            else boots the first kernel\n");
	for (i = 0; i < t->nk; i++) {
		fprintf(f, "bootmark/%s/  --kernel %s\n    initrd.img = %s\n", t->label[i],
			t->spec[i].text, desc[i]);
		if (t->dtb && t->dtb[i][0])
			fprintf(f, "    %s = %s\n", t->fdt, t->dtb[i]);
	}
	if (t->mac[0])
		fprintf(f, "pxelinux.cfg/01-%s, bootmark-%s.ipxe: box %s, its current entry\n"
			   "bootmark/queue-%s: its queue\n", t->mac, t->mac, t->mac, t->mac);
	rc = ferror(f) ? -ENOMEM : 0;
	if (fclose(f) && !rc)
		rc = -ENOMEM;
	if (!rc)
		rc = bm_write_file_atomic(path, text, len);
	free(text);
	return rc;
}

static int write_tree(const struct bm_pxe_tree *t)
{
	/* static: a few hundred KiB, too much for the stack; one call per process */
	static struct bm_pxe_entry def[BM_PXE_MAX];
	static struct bm_pxe_queue q;
	static char desc[BM_PXE_MAX][PATH_MAX * 2 + 8];
	char path[PATH_MAX], err[PATH_MAX + 256] = "";
	int i, rc;

	if (bm_path(path, sizeof(path), "%s/pxelinux.cfg", t->out))
		return -ENAMETOOLONG;
	rc = bm_mkdir_p(path, 0755);
	if (!rc && !bm_path(path, sizeof(path), "%s/bootmark", t->out))
		rc = bm_mkdir_p(path, 0755);
	if (rc) {
		bm_msg("cannot create %s: %s", path, strerror(-rc));
		return rc;
	}
	if (write_loader(t))
		return -EIO;
	for (i = 0; i < t->nk; i++) {
		rc = write_kernel(t, i, desc[i], sizeof(desc[i]));
		if (rc)
			return rc;
		printf("%s: bootmark/%s/\n", t->spec[i].text, t->label[i]);
	}
	rc = make_entries(t, "default", 0, def);
	if (!rc)
		rc = bm_pxe_write_default(t->out, def, t->nk, t->ipxe_base, 1, err, sizeof(err));
	if (!rc && t->mac[0]) {
		memset(&q, 0, sizeof(q));
		snprintf(q.mac, sizeof(q.mac), "%s", t->mac);
		snprintf(q.ipxe_base, sizeof(q.ipxe_base), "%s", t->ipxe_base);
		snprintf(q.fdt, sizeof(q.fdt), "%s", t->fdt ? t->fdt : "");
		q.n = t->nk;
		rc = make_entries(t, t->mac, 1, q.e);
		if (!rc)
			rc = bm_pxe_write_box(t->out, &q, err, sizeof(err));
	}
	if (rc) {
		bm_msg("%s", err[0] ? err : strerror(-rc));
		return rc;
	}
	rc = write_readme(t, desc);
	if (rc)
		bm_msg("cannot write %s/bootmark/tree.txt: %s", t->out, strerror(-rc));
	for (i = 0; !rc && t->mac[0] && i < t->nk; i++)
		printf("box %s, boot %d: %s run %s\n", t->mac, i + 1, q.e[i].label, q.e[i].run);
	return rc;
}

int bm_pxe_prepare(struct bm_backend_req *req)
{
	struct bm_pxe_req *q = container_of(req, struct bm_pxe_req, r);
	struct bm_pxe_tree t = *q->tree;

	t.out = req->out;
	return write_tree(&t);
}
