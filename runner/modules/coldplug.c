// SPDX-License-Identifier: MIT
/*
 * Coldplug of the storage path (coldplug.h).
 *
 * At boot the kernel has announced its devices before any user space
 * listened; udev replays them ("udevadm trigger") and modprobes each
 * device's modalias.  The runner does the same for the buses a test disk
 * hangs off: a PCI mass-storage controller (NVMe, AHCI, a SAS or RAID
 * HBA), the virtio devices virtio_pci creates (virtio-blk, virtio-scsi)
 * and the SCSI devices an HBA finds (sd_mod for disks).  Only the modules
 * the image carries can match: the image's modules.alias lists no others.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coldplug.h"
#include "log.h"

struct cp_run {
	struct coldplug *cp;
	mod_load_fn load;
	unsigned char *done;    /* per module of the index: this pass loaded it */
};

void coldplug_init(struct coldplug *cp, const struct bm_moddb *db, const char *sys)
{
	memset(cp, 0, sizeof(*cp));
	cp->db = db;
	cp->sys = sys;
}

/* A small sysfs attribute of the folder dfd, trimmed: 0 or -errno. */
static int attr(int dfd, const char *name, char *buf, size_t len)
{
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return 0;
}

static unsigned long hex(const char *s)
{
	return strtoul(s, NULL, 16);
}

/* A PCI storage controller nothing in the image matches, once. */
static void add_orphan(struct coldplug *cp, int dfd, const char *addr, unsigned cls)
{
	char v[16] = "", d[16] = "";
	struct coldplug_orphan *o;
	unsigned i;

	for (i = 0; i < cp->norphans; i++)
		if (!strcmp(cp->orphan[i].addr, addr))
			return;
	if (cp->norphans == COLDPLUG_ORPHANS)
		return;
	o = &cp->orphan[cp->norphans++];
	snprintf(o->addr, sizeof(o->addr), "%.15s", addr);
	attr(dfd, "vendor", v, sizeof(v));
	attr(dfd, "device", d, sizeof(d));
	o->vendor = (unsigned)hex(v);
	o->device = (unsigned)hex(d);
	o->class = cls;
}

/* A module name in a comma list. */
static int listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while (*p) {
		size_t m = strcspn(p, ",");

		if (m == n && !strncmp(p, name, n))
			return 1;
		p += m + (p[m] == ',');
	}
	return 0;
}

static void add_name(char *list, size_t len, const char *name)
{
	size_t n = strlen(list);

	if (!listed(list, name))
		snprintf(list + n, len - n, "%s%s", n ? "," : "", name);
}

/* The modules whose own alias matches modalias: the device's drivers, not
 * what they need (cp->want, for the HELLO record). */
static void want_drivers(struct coldplug *cp, const char *modalias)
{
	char name[MODPARAM_NAME];
	size_t i;

	for (i = 0; i < cp->db->naliases; i++)
		if (!fnmatch(cp->db->aliases[i].pattern, modalias, 0) &&
		    !bm_mod_normalise(cp->db->aliases[i].module, 0, name, sizeof(name)))
			add_name(cp->want, sizeof(cp->want), name);
}

/*
 * One device: planned when no driver holds it and its modalias matches.
 * 0, or -errno (a plan that cannot be made: err says why).
 */
static int device(struct coldplug *cp, struct mod_plan *plan, int dirfd, const char *name,
		  int pci, char *err, size_t errlen)
{
	char alias[256], cls[16];
	unsigned c = 0;
	int dfd, ret = 0;

	dfd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return 0;
	if (!faccessat(dfd, "driver", F_OK, AT_SYMLINK_NOFOLLOW) ||
	    attr(dfd, "modalias", alias, sizeof(alias)) || !alias[0])
		goto out_close;
	if (pci) {
		if (attr(dfd, "class", cls, sizeof(cls)))
			goto out_close;
		c = (unsigned)hex(cls);
		if (c >> 16 != 0x01)  /* mass storage controllers only */
			goto out_close;
	}
	ret = mod_plan_add(cp->db, plan, alias, err, errlen);
	if (!ret)
		want_drivers(cp, alias);
	if (ret == -ENOENT) {
		if (pci)
			add_orphan(cp, dfd, name, c);
		ret = 0;
	}
out_close:
	close(dfd);
	return ret;
}

/* Every device of one bus into the plan: 0 or -errno. */
static int bus(struct coldplug *cp, struct mod_plan *plan, const char *name, int pci,
	       char *err, size_t errlen)
{
	char path[256];
	struct dirent *e;
	DIR *d;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/bus/%s/devices", cp->sys, name);
	d = opendir(path);
	if (!d)
		return 0;  /* a bus no driver registered yet (scsi before the first HBA) */
	while (!ret && (e = readdir(d)))
		if (e->d_name[0] != '.')
			ret = device(cp, plan, dirfd(d), e->d_name, pci, err, errlen);
	closedir(d);
	return ret;
}

/* A module some earlier load made live is not loaded again: finit_module
 * would read and check its signature only to say EEXIST. */
static int live(const struct coldplug *cp, const char *module)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/module/%s/initstate", cp->sys, module);
	return !access(path, F_OK);
}


/* On mod_plan_run's threads: each module is one step, so each writes its
 * own byte of done. */
static int cp_load(void *ctx, const struct bm_moddb *db, const struct bm_mod *m)
{
	struct cp_run *r = ctx;
	int ret;

	if (live(r->cp, m->name))
		return 0;
	ret = r->load(NULL, db, m);
	if (!ret)
		r->done[m - db->mods] = 1;
	return ret;
}

int coldplug_pass(struct coldplug *cp, char *err, size_t errlen)
{
	static const struct { const char *name; int pci; } buses[] = {
		{ "pci", 1 }, { "virtio", 0 }, { "scsi", 0 },
	};
	struct cp_run r = { .cp = cp, .load = cp->load ? cp->load : modload_one };
	struct mod_plan plan;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	size_t i, first;
	int ret = 0, loaded = 0;

	cp->passes++;
	mod_plan_init(&plan);
	for (i = 0; !ret && i < sizeof(buses) / sizeof(buses[0]); i++)
		ret = bus(cp, &plan, buses[i].name, buses[i].pci, err, errlen);
	if (ret || !plan.n)
		goto out_free;
	r.done = calloc(cp->db->nmods, 1);
	if (!r.done) {
		ret = -ENOMEM;
		goto out_free;
	}
	ret = mod_plan_run(cp->db, &plan, ncpu > 0 ? (unsigned)ncpu : 1, cp_load, &r, err,
			   errlen);
	/* in plan order: dependencies first, as they loaded */
	first = strlen(cp->loaded);
	for (i = 0; i < plan.n; i++) {
		const char *name = cp->db->mods[plan.step[i].mod].name;

		if (!r.done[plan.step[i].mod])
			continue;
		add_name(cp->loaded, sizeof(cp->loaded), name);
		if (listed(cp->want, name))
			add_name(cp->drivers, sizeof(cp->drivers), name);
		loaded++;
	}
	free(r.done);
	if (loaded)
		rlog(RLOG_INFO, "coldplug: loaded %s", cp->loaded + first + (first > 0));
out_free:
	mod_plan_free(&plan);
	return ret ? ret : loaded;
}

void coldplug_describe_orphans(const struct coldplug *cp, char *buf, size_t len)
{
	size_t n = strlen(buf);
	unsigned i;

	for (i = 0; i < cp->norphans && n < len; i++) {
		const struct coldplug_orphan *o = &cp->orphan[i];

		snprintf(buf + n, len - n, "; no driver in the image for PCI storage controller "
			 "%04x:%04x (class 0x%06x) at %s", o->vendor, o->device, o->class, o->addr);
		n = strlen(buf);
	}
}

void coldplug_drivers(const struct coldplug *cp, char *buf, size_t len)
{
	snprintf(buf, len, "%s", cp->drivers);
}
