// SPDX-License-Identifier: MIT
/* Test disk discovery and safety checks (disk.h). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "disk.h"
#include "profile.h"

/* Reads a small sysfs attribute, trimmed of surrounding whitespace. */
static int read_attr(const char *dir, const char *name, const char *attr,
		     char *out, size_t len)
{
	char path[512], *buf, *s, *e;
	int ret;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, name, attr);
	ret = bm_read_file(path, &buf, NULL, 4096);
	if (ret)
		return ret;
	for (s = buf; isspace((unsigned char)*s); s++)
		;
	for (e = s + strlen(s); e > s && isspace((unsigned char)e[-1]); e--)
		;
	*e = '\0';
	snprintf(out, len, "%s", s);
	free(buf);
	return 0;
}

static int serial_matches(const char *sysblock, const char *name, const char *serial,
			  char *found, size_t len)
{
	char v[256];

	if (!read_attr(sysblock, name, "serial", v, sizeof(v)) && !strcmp(v, serial))
		goto out_match;
	if (!read_attr(sysblock, name, "device/serial", v, sizeof(v)) && !strcmp(v, serial))
		goto out_match;
	/* wwid carries a prefix ("t10.QEMU ... BMSCRATCH0"), so contains, not equals. */
	if (!read_attr(sysblock, name, "device/wwid", v, sizeof(v)) && strstr(v, serial))
		goto out_match;
	return 0;
out_match:
	if (snprintf(found, len, "%s", v) >= (int)len)
		found[len - 1] = '\0';
	return 1;
}

static int fill_info(const char *sysblock, const char *name, struct disk_info *d)
{
	char v[64];
	unsigned long long sectors;

	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(d->dev, sizeof(d->dev), "/dev/%s", name);
	if (!read_attr(sysblock, name, "size", v, sizeof(v)) &&
	    sscanf(v, "%llu", &sectors) == 1)
		d->size = (uint64_t)sectors * 512; /* sysfs size is in 512-byte units */
	if (!read_attr(sysblock, name, "dev", v, sizeof(v)) &&
	    sscanf(v, "%u:%u", &d->major, &d->minor) == 2)
		return 0;
	return -ENODEV;
}

/* "a, b, c"; names that do not fit are left out. */
static void append_name(char *list, size_t len, const char *name)
{
	size_t used = strlen(list), n = strlen(name);

	if (used + n + 3 > len)
		return;
	if (used) {
		memcpy(list + used, ", ", 2);
		used += 2;
	}
	memcpy(list + used, name, n + 1);
}

int disk_find(const char *sysblock, const char *serial, struct disk_info *d,
	      char *err, size_t errlen)
{
	char names[256] = "", found[64] = "", first[32] = "";
	struct dirent *de;
	DIR *dir;
	int n = 0;

	dir = opendir(sysblock);
	if (!dir) {
		snprintf(err, errlen, "cannot open %s: %s", sysblock, strerror(errno));
		return -errno;
	}
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		if (!serial_matches(sysblock, de->d_name, serial, found, sizeof(found)))
			continue;
		if (!n++ && strlen(de->d_name) < sizeof(first))
			memcpy(first, de->d_name, strlen(de->d_name) + 1);
		append_name(names, sizeof(names), de->d_name);
	}
	closedir(dir);
	if (n == 0) {
		snprintf(err, errlen, "no disk with serial %s in %s", serial, sysblock);
		return -ENODEV;
	}
	if (n > 1) {
		snprintf(err, errlen, "%d disks with serial %s: %s; refusing to guess",
			 n, serial, names);
		return -EEXIST;
	}
	memset(d, 0, sizeof(*d));
	snprintf(d->serial, sizeof(d->serial), "%s", serial);
	if (fill_info(sysblock, first, d)) {
		snprintf(err, errlen, "cannot read %s/%s/dev", sysblock, first);
		return -ENODEV;
	}
	return 0;
}

int disk_wait(const char *sysblock, const char *serial, int wait_s,
	      struct disk_info *d, char *err, size_t errlen)
{
	/* Short naps: the disk usually appears within milliseconds of the
	 * driver loading, and every boot waits for it before HELLO. */
	struct timespec nap = { 0, 10 * 1000 * 1000 };
	int tries = wait_s * 100, ret;

	for (;;) {
		ret = disk_find(sysblock, serial, d, err, errlen);
		/* Several matches will not get better by waiting. */
		if (ret != -ENODEV || tries-- <= 0)
			return ret;
		nanosleep(&nap, NULL);
	}
}

static int has_holders(const char *sysblock, const char *name)
{
	char path[512];
	struct dirent *de;
	DIR *dir;
	int n = 0;

	snprintf(path, sizeof(path), "%s/%s/holders", sysblock, name);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((de = readdir(dir)))
		if (de->d_name[0] != '.')
			n++;
	closedir(dir);
	return n;
}

/* Field 3 of mountinfo is major:minor of the mounted device. */
static int is_mounted(const char *mountinfo, unsigned major, unsigned minor)
{
	char *buf, *line, *next;
	unsigned ma, mi;
	int hit = 0;

	if (bm_read_file(mountinfo, &buf, NULL, 1 << 20))
		return 0;
	for (line = buf; line && *line && !hit; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (sscanf(line, "%*s %*s %u:%u", &ma, &mi) == 2 && ma == major &&
		    mi == minor)
			hit = 1;
	}
	free(buf);
	return hit;
}

int disk_check_safe(const char *sysblock, const char *mountinfo,
		    const struct disk_info *d, int try_open, char *err, size_t errlen)
{
	char v[32];
	int fd;

	if (!read_attr(sysblock, d->name, "ro", v, sizeof(v)) && strcmp(v, "0")) {
		snprintf(err, errlen, "%s is read-only", d->dev);
		return -EROFS;
	}
	if (!read_attr(sysblock, d->name, "removable", v, sizeof(v)) && strcmp(v, "0")) {
		snprintf(err, errlen, "%s is removable; refusing to write to it", d->dev);
		return -EPERM;
	}
	if (has_holders(sysblock, d->name)) {
		snprintf(err, errlen, "%s has holders (md, dm or similar); refusing", d->dev);
		return -EBUSY;
	}
	if (is_mounted(mountinfo, d->major, d->minor)) {
		snprintf(err, errlen, "%s is mounted; refusing", d->dev);
		return -EBUSY;
	}
	if (!try_open)
		return 0;
	fd = open(d->dev, O_RDWR | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open %s exclusively: %s", d->dev, strerror(errno));
		return -errno;
	}
	close(fd);
	return 0;
}
