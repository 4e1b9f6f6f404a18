// SPDX-License-Identifier: MIT
/* Choosing the test disk from sysfs (disk.h); the checks are in diskcheck.c. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "disk.h"

static void trim_copy(char *out, size_t len, const char *s)
{
	const char *e;

	while (isspace((unsigned char)*s))
		s++;
	for (e = s + strlen(s); e > s && isspace((unsigned char)e[-1]); e--)
		;
	snprintf(out, len, "%.*s", (int)(e - s), s);
}

/*
 * One attribute under dirfd (a disk's sysfs folder or its device/; -1 for
 * one that is not there; AT_FDCWD with a whole path): 0, or -errno.
 * disk_read opens the folder once and reads every attribute
 * relative to it: a path from /sys/block resolves the disk's symlink and
 * walks the whole device path again for each of the ten.  Under TCG the
 * disk step before the hello went from 12 to 9 ms (docs/performance.md).
 */
static int attr_at(int dirfd, const char *attr, char *out, size_t len)
{
	char buf[512];
	ssize_t got;
	int fd;

	if (dirfd == -1)
		return -ENOENT;
	fd = openat(dirfd, attr, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (got < 0)
		return -errno;
	buf[got] = '\0';
	trim_copy(out, len, buf);
	return 0;
}

int disk_read_attr(const char *dir, const char *name, const char *attr,
		   char *out, size_t len)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s/%s", dir, name, attr);
	return attr_at(AT_FDCWD, path, out, len);
}

/* SCSI disks show their serial only in the binary VPD page 0x80:
 * 4 header bytes (length in bytes 2-3), then the serial, space padded. */
static int read_vpd80(int devfd, char *out, size_t len)
{
	unsigned char buf[256];
	char text[256];
	size_t n, i;
	ssize_t got;
	int fd;

	if (devfd < 0)
		return -ENOENT;
	fd = openat(devfd, "vpd_pg80", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	got = read(fd, buf, sizeof(buf));
	close(fd);
	if (got < 4 || buf[1] != 0x80)
		return -EINVAL;
	n = (size_t)(buf[2] << 8 | buf[3]);
	if (n > (size_t)got - 4)
		n = (size_t)got - 4;
	for (i = 0; i < n && buf[4 + i]; i++)
		text[i] = isprint(buf[4 + i]) ? (char)buf[4 + i] : '?';
	text[i] = '\0';
	trim_copy(out, len, text);
	return out[0] ? 0 : -ENODATA;
}

/* Lower case, without naa./eui./0x: "naa.5000C500A1" and "0x5000c500a1" are one WWN. */
static void wwn_norm(const char *in, char *out, size_t len)
{
	static const char *const prefixes[] = { "naa.", "eui.", "0x" };
	size_t i, o = 0;

	while (isspace((unsigned char)*in))
		in++;
	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncasecmp(in, prefixes[i], strlen(prefixes[i])))
			in += strlen(prefixes[i]);
	for (; *in && o + 1 < len; in++)
		if (!isspace((unsigned char)*in))
			out[o++] = (char)tolower((unsigned char)*in);
	out[o] = '\0';
}

/* Whether word is one whole space-separated word of s ("t10.ATA QEMU ... SERIAL"). */
static int has_word(const char *s, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = strstr(s, word); p; p = strstr(p + 1, word))
		if ((p == s || isspace((unsigned char)p[-1])) &&
		    (!p[n] || isspace((unsigned char)p[n])))
			return 1;
	return 0;
}

/* The attributes of one disk (disk_read), from its folder and its device/. */
static int disk_attrs(int fd, int devfd, struct disk_info *d, char *wwid, size_t wwidlen)
{
	char v[256], vendor[64] = "";
	unsigned long long sectors;

	if (attr_at(fd, "serial", d->serial, sizeof(d->serial)) &&
	    attr_at(devfd, "serial", d->serial, sizeof(d->serial)))
		read_vpd80(devfd, d->serial, sizeof(d->serial));
	wwid[0] = '\0';
	if (attr_at(fd, "wwid", wwid, wwidlen))
		attr_at(devfd, "wwid", wwid, wwidlen);
	/* A t10. id is vendor, model and serial run together, not a WWN. */
	if (strncasecmp(wwid, "t10.", 4))
		snprintf(d->wwn, sizeof(d->wwn), "%s", wwid);
	attr_at(devfd, "vendor", vendor, sizeof(vendor));
	if (!attr_at(devfd, "model", v, sizeof(v))) {
		snprintf(d->model, sizeof(d->model), "%s%s%.60s", vendor, vendor[0] ? " " : "", v);
		d->model_at = vendor[0] ? strlen(vendor) + 1 : 0;
	}
	if (!attr_at(fd, "size", v, sizeof(v)) && sscanf(v, "%llu", &sectors) == 1)
		d->size = (uint64_t)sectors * 512; /* sysfs size is in 512-byte units */
	if (!attr_at(fd, "dev", v, sizeof(v)) && sscanf(v, "%u:%u", &d->major, &d->minor) == 2)
		return 0;
	return -ENODEV;
}

/* What sysfs says about one disk; 0, or -ENODEV without a dev attribute. */
static int disk_read(int sysfd, const char *name, struct disk_info *d, char *wwid,
		     size_t wwidlen)
{
	int fd, devfd, ret;

	memset(d, 0, sizeof(*d));
	if (strlen(name) >= sizeof(d->name))
		return -ENAMETOOLONG;
	snprintf(d->name, sizeof(d->name), "%.31s", name);
	snprintf(d->dev, sizeof(d->dev), "/dev/%.31s", name);
	fd = openat(sysfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -ENODEV;
	/* none for a virtual disk (ram, loop, md): those attributes are absent */
	devfd = openat(fd, "device", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ret = disk_attrs(fd, devfd, d, wwid, wwidlen);
	if (devfd >= 0)
		close(devfd);
	close(fd);
	return ret;
}

static int disk_matches(const struct disk_sel *sel, const struct disk_info *d,
			const char *wwid)
{
	char a[128], b[128];

	if (sel->serial[0] && strcmp(d->serial, sel->serial) && !has_word(wwid, sel->serial))
		return 0;
	if (sel->wwn[0]) {
		wwn_norm(sel->wwn, a, sizeof(a));
		wwn_norm(d->wwn, b, sizeof(b));
		if (!b[0] || strcmp(a, b))
			return 0;
	}
	/* d->model is "vendor model"; the model alone matches too. */
	if (sel->model[0] && strcasecmp(d->model, sel->model) &&
	    strcasecmp(d->model + d->model_at, sel->model))
		return 0;
	return !sel->size || d->size == sel->size;
}

/* ram, loop and zram devices are never a test disk; anything else is kept,
 * and the checks refuse what must not be written. */
static int candidate(const char *name)
{
	return name[0] != '.' && strncmp(name, "ram", 3) && strncmp(name, "loop", 4) &&
	       strncmp(name, "zram", 4);
}

/* Appends "; vda serial=X size=N wwn=W model='M'" for an operator to fix the config. */
static void append_seen(char *list, size_t len, const struct disk_info *d)
{
	size_t used = strlen(list);
	int n;

	if (used + 8 >= len)
		return;
	n = snprintf(list + used, len - used, "%s%s serial=%s size=%" PRIu64 "%s%s%s%s%s",
		     used ? "; " : "", d->name, d->serial[0] ? d->serial : "(none)", d->size,
		     d->wwn[0] ? " wwn=" : "", d->wwn, d->model[0] ? " model='" : "",
		     d->model, d->model[0] ? "'" : "");
	if ((size_t)n >= len - used)
		snprintf(list + len - 5, 5, "...");
}

static void describe_sel(const struct disk_sel *sel, char *out, size_t len)
{
	snprintf(out, len, "%s%s%s%s%s%s%s", sel->serial[0] ? " serial=" : "", sel->serial,
		 sel->wwn[0] ? " wwn=" : "", sel->wwn, sel->model[0] ? " model='" : "",
		 sel->model, sel->model[0] ? "'" : "");
	if (sel->size)
		snprintf(out + strlen(out), len - strlen(out), " size=%" PRIu64, sel->size);
}

int disk_find(const char *sysblock, const struct disk_sel *sel, struct disk_info *d,
	      char *err, size_t errlen)
{
	char seen[800] = "", matched[400] = "", wwid[128], want[256];
	struct disk_info cur;
	struct dirent *de;
	int n = 0, cands = 0;
	DIR *dir;

	dir = opendir(sysblock);
	if (!dir) {
		snprintf(err, errlen, "cannot open %s: %s", sysblock, strerror(errno));
		return -ENOENT;
	}
	while ((de = readdir(dir))) {
		if (!candidate(de->d_name) ||
		    disk_read(dirfd(dir), de->d_name, &cur, wwid, sizeof(wwid)))
			continue;
		cands++;
		append_seen(seen, sizeof(seen), &cur);
		if (!disk_matches(sel, &cur, wwid))
			continue;
		append_seen(matched, sizeof(matched), &cur);
		if (!n++)
			*d = cur;
	}
	closedir(dir);
	describe_sel(sel, want, sizeof(want));
	if (!cands) {
		snprintf(err, errlen, "no disk at all in %s (wanted%s)", sysblock, want);
		return -ENXIO;
	}
	if (n == 0) {
		snprintf(err, errlen, "no disk matches%s; seen: %s", want, seen);
		return -ENODEV;
	}
	if (n > 1) {
		snprintf(err, errlen, "%d disks match%s; refusing to guess: %s", n, want, matched);
		return -EEXIST;
	}
	return 0;
}

/*
 * 1 for a virtio disk: virtio_blk probes every device of its bus within the
 * one call that registers it (module load or initcall; it does not ask for
 * asynchronous probing), so once one is visible all are, and waiting for a
 * second costs every QEMU boot the settle time for nothing (docs/bench.md).
 * SCSI, NVMe and USB scan asynchronously: they keep the settle.
 */
static int probed_at_once(const char *sysblock, const char *name)
{
	char path[512], link[512];
	const char *base;
	ssize_t n;

	n = snprintf(path, sizeof(path), "%s/%s/device/driver", sysblock, name);
	if (n < 0 || n >= (ssize_t)sizeof(path))
		return 0;
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return 0;
	link[n] = '\0';
	base = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
	return !strcmp(base, "virtio_blk");
}

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int disk_wait(const char *sysblock, const struct disk_sel *sel, int wait_s,
	      const struct disk_waiter *w, struct disk_info *d, char *err, size_t errlen)
{
	/* Short naps: the disk usually appears within milliseconds of the
	 * driver loading, and every boot waits for it before HELLO. */
	struct timespec nap = { 0, 10 * 1000 * 1000 };

	struct timespec settle = { 0, 300 * 1000 * 1000 };
	/* a deadline, not a count of naps: a tick that loads drivers takes
	 * its own time */
	double until = mono_now() + wait_s, tick_at = 0;
	int ret;

	for (;;) {
		ret = disk_find(sysblock, sel, d, err, errlen);
		/* Several matches will not get better by waiting. */
		if ((ret != -ENODEV && ret != -ENXIO) || mono_now() >= until)
			break;
		if (w && w->tick && mono_now() >= tick_at) {
			w->tick(w->arg);
			tick_at = mono_now() + 0.05;
			continue;
		}
		nanosleep(&nap, NULL);
	}
	if (ret || !wait_s || probed_at_once(sysblock, d->name))
		return ret;
	/* Drivers probe disks one after another: a second disk that matches
	 * too may appear a moment later.  Look again before trusting one. */
	nanosleep(&settle, NULL);
	return disk_find(sysblock, sel, d, err, errlen);
}
