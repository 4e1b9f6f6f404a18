// SPDX-License-Identifier: MIT
/*
 * The TFTP tree of "bootmark pxe" (host/backend/pxe/pxe.h): command lines, the pxelinux
 * and iPXE files, the per-box queue and its advance.  Everything here is
 * text in, text out, except the three writers at the end, so the unit test
 * can check the bytes without booting anything.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "proto.h"
#include "pxe.h"
#include "sha256.h"
#include "util.h"

#define PXE_HEADER "# bootmark-pxe 1: written by bootmark pxe"
#define QUEUE_TEXT_MAX (BM_PXE_MAX * (BM_PXE_CMDLINE_MAX + 200) + 1024)

/* snprintf into a growing position; any overflow sticks in err. */
struct text {
	char *p;
	size_t len, used;
	int err;
};

static void put(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->err)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->p + t->used, t->len - t->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= t->len - t->used)
		t->err = -ENAMETOOLONG;
	else
		t->used += (size_t)n;
}

int bm_pxe_mac_norm(const char *mac, char *out, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	int i;

	if (!mac || strlen(mac) != 17 || len < 18)
		return -EINVAL;
	for (i = 0; i < 17; i++) {
		char c = mac[i];

		if (i % 3 == 2) {
			/* one separator throughout: "52:54-00..." is a typo */
			if ((c != ':' && c != '-') || c != mac[2])
				return -EINVAL;
			out[i] = '-';
			continue;
		}
		if (c >= 'A' && c <= 'F')
			c = (char)(c - 'A' + 'a');
		if (!strchr(hex, c) || !c)
			return -EINVAL;
		out[i] = c;
	}
	out[17] = '\0';
	return 0;
}

const char *bm_pxe_state_name(enum bm_pxe_state s)
{
	return s == BM_PXE_CURRENT ? "current" : s == BM_PXE_DONE ? "done" : "pending";
}

int bm_pxe_word_ok(const char *s)
{
	for (; *s; s++)
		if (*s <= ' ' || *s > '~' || *s == '"' || *s == '\'')
			return 0;
	return 1;
}

int bm_pxe_fdt_ok(const char *s)
{
	size_t n = strlen(s);

	/* a file name in bootmark/<label>/, which the FDT line names */
	return n > 4 && n < BM_PXE_FDT_MAX && bm_safe_name(s) && !strcmp(s + n - 4, ".dtb");
}

int bm_pxe_cmdline(const struct bm_pxe_args *a, const char *run, const char *finish,
		   const char *kargs, char *buf, size_t len)
{
	struct text t = { buf, len, 0, 0 };

	/* panic=10: a box shows the panic for 10 s, then reboots into the
	 * same queue entry (the file only moves on after a completed run) */
	put(&t, "console=%s panic=10 loglevel=4 bootmark.run=%s bootmark.suite=%s bootmark.fs=%s",
	    a->console, run, a->suite, a->fs);
	put(&t, " bootmark.disk_serial=%s", a->disk_serial);
	if (a->disk_wwn[0])
		put(&t, " bootmark.disk_wwn=%s", a->disk_wwn);
	if (a->disk_model[0])
		put(&t, " bootmark.disk_model=%s", a->disk_model);
	if (a->disk_size[0])
		put(&t, " bootmark.disk_size=%s", a->disk_size);
	if (a->disk_wipe[0])
		put(&t, " bootmark.disk_wipe=%s", a->disk_wipe);
	put(&t, " bootmark.results=%s bootmark.finish=%s", a->results, finish);
	if (a->watchdog)
		put(&t, " bootmark.watchdog=%lld", a->watchdog);
	if (a->append[0])
		put(&t, " %s", a->append);
	if (kargs[0])
		put(&t, " %s", kargs);
	return t.err;
}

int bm_pxe_run_id(const char *seed, const char *who, int idx, char out[9])
{
	char key[512], hex[65];

	if (!seed[0])
		return bm_run_id(out);
	snprintf(key, sizeof(key), "%s/%s/%d", seed, who, idx);
	bm_sha256_hex(key, strlen(key), hex);
	memcpy(out, hex, 8);
	out[8] = '\0';
	return 0;
}

/* "SERIAL 0 115200" from console=ttyS0,115200n8: pxelinux on the same UART. */
static void serial_line(struct text *t, const char *cmdline)
{
	const char *c = strstr(cmdline, "console=ttyS");
	unsigned port, baud;

	if (c && (c == cmdline || c[-1] == ' ') &&
	    sscanf(c, "console=ttyS%u,%u", &port, &baud) == 2 && port < 4)
		put(t, "SERIAL %u %u\n", port, baud);
}

int bm_pxe_cfg_text(const struct bm_pxe_entry *e, int n, int def, char *buf, size_t len)
{
	struct text t = { buf, len, 0, 0 };
	int i;

	put(&t, "%s\n", PXE_HEADER);
	if (!n) {
		/* LOCALBOOT 0 under pxelinux: back to the BIOS, the next boot device */
		put(&t, "# the queue is done: boot from the local disk\n"
			"DEFAULT local\nLABEL local\n  LOCALBOOT 0\n");
		return t.err;
	}
	serial_line(&t, e[def].cmdline);
	put(&t, "DEFAULT %s\n", e[def].label);
	for (i = 0; i < n; i++) {
		put(&t, "LABEL %s\n  KERNEL bootmark/%s/vmlinuz\n  INITRD bootmark/%s/initrd.img\n",
		    e[i].label, e[i].label, e[i].label);
		if (e[i].fdt[0])
			put(&t, "  FDT bootmark/%s/%s\n", e[i].label, e[i].fdt);
		put(&t, "  APPEND %s\n", e[i].cmdline);
	}
	return t.err;
}

int bm_pxe_uboot_cmd(char *buf, size_t len)
{
	struct text t = { buf, len, 0, 0 };

	/* qemu_arm64's and most boards' distro boot has no pxe target of its
	 * own: their dhcp target sources this, and U-Boot's pxe command reads
	 * the files pxelinux would, 01-<mac> first.  A kernel the tree holds
	 * is an uncompressed Image (bootmark pxe unpacks a gzip'd one), so
	 * booti needs no kernel_comp_addr_r of the board. */
	put(&t, "%s\n# U-Boot: distro boot's dhcp target sources this (boot.scr.uimg)\n"
		"echo bootmark: pxe get, pxe boot\npxe get\npxe boot\n", PXE_HEADER);
	return t.err;
}

static void be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

int bm_pxe_uimage_script(const char *text, uint32_t stamp, unsigned char *buf, size_t len,
			 size_t *used)
{
	size_t n = strlen(text), data = 8 + n;
	unsigned char *h = buf;

	if (n > UINT32_MAX - 8 || len < BM_UIMAGE_HDR + data)
		return -ENAMETOOLONG;
	memset(h, 0, BM_UIMAGE_HDR);
	/* the data of a script image: its length list (one script, then 0) */
	be32(buf + BM_UIMAGE_HDR, (uint32_t)n);
	be32(buf + BM_UIMAGE_HDR + 4, 0);
	memcpy(buf + BM_UIMAGE_HDR + 8, text, n);
	be32(h, BM_UIMAGE_MAGIC);
	be32(h + 8, stamp);
	be32(h + 12, (uint32_t)data);
	/* load and entry point 0: U-Boot's source runs it where it lies */
	be32(h + 24, bm_crc32(0, buf + BM_UIMAGE_HDR, data));
	h[28] = 5;   /* IH_OS_LINUX */
	h[29] = 22;  /* IH_ARCH_ARM64 */
	h[30] = 6;   /* IH_TYPE_SCRIPT */
	h[31] = 0;   /* IH_COMP_NONE */
	memcpy(h + 32, "bootmark", 8);
	/* the header's CRC is over the header with its own field 0 */
	be32(h + 4, bm_crc32(0, h, BM_UIMAGE_HDR));
	*used = BM_UIMAGE_HDR + data;
	return 0;
}

int bm_pxe_ipxe_text(const struct bm_pxe_entry *e, const char *base, int chain_mac,
		     char *buf, size_t len)
{
	struct text t = { buf, len, 0, 0 };
	const char *sep = base[0] && base[strlen(base) - 1] != '/' ? "/" : "";

	put(&t, "#!ipxe\n%s\n", PXE_HEADER);
	if (chain_mac)
		/* a box with a queue has its own script; when that script
		 * exits (queue done), so does this one */
		put(&t, "chain %s%sbootmark-${mac:hexhyp}.ipxe && exit 0 ||\n", base, sep);
	if (!e) {
		put(&t, "# the queue is done: back to the BIOS, the next boot device\nexit 0\n");
		return t.err;
	}
	put(&t, "kernel %s%sbootmark/%s/vmlinuz %s\n", base, sep, e->label, e->cmdline);
	put(&t, "initrd %s%sbootmark/%s/initrd.img\nboot\n", base, sep, e->label);
	return t.err;
}

int bm_pxe_queue_text(const struct bm_pxe_queue *q, char *buf, size_t len)
{
	struct text t = { buf, len, 0, 0 };
	int i;

	put(&t, "%s\n# box %s: one line per kernel, in boot order; bootmark pxe --advance and\n"
		"# bootmark capture --pxe move \"current\" on when its run completes\n",
	    BM_PXE_QUEUE_MAGIC, q->mac);
	put(&t, "mac %s\nipxe-base %s\n", q->mac, q->ipxe_base[0] ? q->ipxe_base : "-");
	/* only in U-Boot trees given a --dtb: amd64 queues keep their bytes */
	if (q->fdt[0])
		put(&t, "fdt %s\n", q->fdt);
	put(&t, "# state label run command-line\n");
	for (i = 0; i < q->n; i++)
		put(&t, "%s %s %s %s\n", bm_pxe_state_name(q->e[i].state), q->e[i].label,
		    q->e[i].run, q->e[i].cmdline);
	return t.err;
}

/* "current LABEL RUN CMDLINE..." */
static int parse_entry(struct bm_pxe_entry *e, char *line)
{
	char *state = line, *label, *run, *cmd;

	label = strchr(state, ' ');
	if (!label)
		return -EINVAL;
	*label++ = '\0';
	run = strchr(label, ' ');
	if (!run)
		return -EINVAL;
	*run++ = '\0';
	cmd = strchr(run, ' ');
	if (!cmd)
		return -EINVAL;
	*cmd++ = '\0';
	if (!strcmp(state, "pending"))
		e->state = BM_PXE_PENDING;
	else if (!strcmp(state, "current"))
		e->state = BM_PXE_CURRENT;
	else if (!strcmp(state, "done"))
		e->state = BM_PXE_DONE;
	else
		return -EINVAL;
	if (!bm_safe_name(label) || strlen(label) >= sizeof(e->label) || !bm_run_id_ok(run) ||
	    !cmd[0] || strlen(cmd) >= sizeof(e->cmdline))
		return -EINVAL;
	snprintf(e->label, sizeof(e->label), "%s", label);
	snprintf(e->run, sizeof(e->run), "%s", run);
	snprintf(e->cmdline, sizeof(e->cmdline), "%s", cmd);
	return 0;
}

static int parse_line(struct bm_pxe_queue *q, char *line)
{
	if (!strncmp(line, "mac ", 4))
		return bm_pxe_mac_norm(line + 4, q->mac, sizeof(q->mac));
	if (!strncmp(line, "ipxe-base ", 10)) {
		if (strlen(line + 10) >= sizeof(q->ipxe_base))
			return -EINVAL;
		snprintf(q->ipxe_base, sizeof(q->ipxe_base), "%s", strcmp(line + 10, "-") ? line + 10 : "");
		return 0;
	}
	if (!strncmp(line, "fdt ", 4)) {
		if (!bm_pxe_fdt_ok(line + 4))
			return -EINVAL;
		snprintf(q->fdt, sizeof(q->fdt), "%s", line + 4);
		return 0;
	}
	if (q->n == BM_PXE_MAX)
		return -EINVAL;
	return parse_entry(&q->e[q->n++], line);
}

int bm_pxe_queue_parse(struct bm_pxe_queue *q, const char *text, const char *origin,
		       char *err, size_t errlen)
{
	char *copy = strdup(text), *line, *save = NULL;
	int no = 0, cur = 0, i, rc = 0;

	if (!copy)
		return -ENOMEM;
	memset(q, 0, sizeof(*q));
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		no++;   /* strtok_r skips empty lines: numbers count the others */
		if (no == 1) {
			if (strcmp(line, BM_PXE_QUEUE_MAGIC)) {
				snprintf(err, errlen, "%s: not a queue file of this version "
					 "(first line is not \"%s\")", origin, BM_PXE_QUEUE_MAGIC);
				rc = -EINVAL;
				goto out_free;
			}
			continue;
		}
		if (line[0] == '#')
			continue;
		if (parse_line(q, line)) {
			snprintf(err, errlen, "%s: bad line %d: %.80s", origin, no, line);
			rc = -EINVAL;
			goto out_free;
		}
	}
	for (i = 0; i < q->n; i++) {
		cur += q->e[i].state == BM_PXE_CURRENT;
		snprintf(q->e[i].fdt, sizeof(q->e[i].fdt), "%s", q->fdt);
	}
	if (!no || !q->mac[0] || !q->n || cur > 1) {
		snprintf(err, errlen, "%s: %s", origin, !no ? "empty" : !q->mac[0] ? "no mac line" :
			 !q->n ? "no entries" : "more than one current entry");
		rc = -EINVAL;
	}
out_free:
	free(copy);
	return rc;
}

static int current_of(const struct bm_pxe_queue *q)
{
	int i;

	for (i = 0; i < q->n; i++)
		if (q->e[i].state == BM_PXE_CURRENT)
			return i;
	return -1;
}

static int write_text(const char *path, const char *text, char *err, size_t errlen)
{
	int rc = bm_write_file_atomic(path, text, strlen(text));

	if (rc)
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(-rc));
	return rc;
}

/* Writes dir/name; text_rc is what building text returned. */
static int write_built(const char *dir, const char *name, int text_rc, const char *text,
		       char *err, size_t errlen)
{
	char path[PATH_MAX];

	if (text_rc || bm_path(path, sizeof(path), "%s/%s", dir, name)) {
		snprintf(err, errlen, "%s/%s: %s", dir, name, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	return write_text(path, text, err, errlen);
}

int bm_pxe_write_box(const char *tftpdir, const struct bm_pxe_queue *q, char *err, size_t errlen)
{
	char *buf = malloc(QUEUE_TEXT_MAX), name[64];
	int cur = current_of(q), rc;

	if (!buf)
		return -ENOMEM;
	snprintf(name, sizeof(name), "pxelinux.cfg/01-%s", q->mac);
	rc = write_built(tftpdir, name, cur < 0 ? bm_pxe_cfg_text(NULL, 0, 0, buf, QUEUE_TEXT_MAX) :
			 bm_pxe_cfg_text(&q->e[cur], 1, 0, buf, QUEUE_TEXT_MAX), buf, err, errlen);
	if (rc)
		goto out_free;
	snprintf(name, sizeof(name), "bootmark-%s.ipxe", q->mac);
	rc = write_built(tftpdir, name, bm_pxe_ipxe_text(cur < 0 ? NULL : &q->e[cur], q->ipxe_base,
							 0, buf, QUEUE_TEXT_MAX), buf, err, errlen);
	if (rc)
		goto out_free;
	snprintf(name, sizeof(name), "bootmark/queue-%s", q->mac);
	rc = write_built(tftpdir, name, bm_pxe_queue_text(q, buf, QUEUE_TEXT_MAX), buf, err, errlen);
out_free:
	free(buf);
	return rc;
}

int bm_pxe_write_default(const char *tftpdir, const struct bm_pxe_entry *e, int n,
			 const char *ipxe_base, int chain_mac, char *err, size_t errlen)
{
	char *buf = malloc(QUEUE_TEXT_MAX);
	int rc;

	if (!buf)
		return -ENOMEM;
	rc = write_built(tftpdir, "pxelinux.cfg/default", bm_pxe_cfg_text(e, n, 0, buf, QUEUE_TEXT_MAX),
			 buf, err, errlen);
	if (!rc)
		rc = write_built(tftpdir, "bootmark.ipxe",
				 bm_pxe_ipxe_text(e, ipxe_base, chain_mac, buf, QUEUE_TEXT_MAX),
				 buf, err, errlen);
	free(buf);
	return rc;
}

int bm_pxe_advance(const char *tftpdir, const char *mac, const char *run,
		   int completed, char *err, size_t errlen)
{
	struct bm_pxe_queue *q = NULL;
	char norm[18], path[PATH_MAX], *text = NULL;
	size_t len;
	int cur, rc;

	if (errlen)
		err[0] = '\0';
	if (bm_pxe_mac_norm(mac, norm, sizeof(norm))) {
		snprintf(err, errlen, "bad MAC address '%s': want six hex pairs like 52:54:00:12:34:56", mac);
		return -EINVAL;
	}
	if (!bm_run_id_ok(run)) {
		snprintf(err, errlen, "bad run id '%s': want 8 lowercase hex digits", run);
		return -EINVAL;
	}
	if (bm_path(path, sizeof(path), "%s/bootmark/queue-%s", tftpdir, norm)) {
		snprintf(err, errlen, "%s: %s", tftpdir, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	rc = bm_read_file(path, &text, &len, (size_t)1 << 20);
	if (rc) {
		snprintf(err, errlen, rc == -ENOENT ? "box %s has no queue in %s (no %s)" :
			 "box %s: cannot read its queue in %s: %s", norm, tftpdir,
			 rc == -ENOENT ? path : bm_strerror(-rc));
		return rc;
	}
	q = malloc(sizeof(*q));
	rc = q ? bm_pxe_queue_parse(q, text, path, err, errlen) : -ENOMEM;
	if (rc)
		goto out_free;
	if (strcmp(q->mac, norm)) {
		snprintf(err, errlen, "%s: is the queue of box %s, not %s", path, q->mac, norm);
		rc = -EINVAL;
		goto out_free;
	}
	cur = current_of(q);
	/* someone else's run, a run of an entry already done, or a failed one:
	 * the box boots what it booted */
	if (cur < 0 || strcmp(q->e[cur].run, run) || !completed)
		goto out_free;
	q->e[cur].state = BM_PXE_DONE;
	if (cur + 1 < q->n)
		q->e[cur + 1].state = BM_PXE_CURRENT;
	rc = bm_pxe_write_box(tftpdir, q, err, errlen);
	if (!rc)
		rc = 1;
out_free:
	/* callers print err on failure: never leave it empty */
	if (rc < 0 && errlen && !err[0])
		snprintf(err, errlen, "%s", strerror(-rc));
	free(q);
	free(text);
	return rc;
}
