// SPDX-License-Identifier: MIT
/* The raw I/O target's properties (rawdev.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "rawdev.h"
#include "profile.h"

static int read_trim(const char *path, char *out, size_t len)
{
	char *text, *p, *e;
	int ret = bm_read_file(path, &text, NULL, 4096);

	if (ret)
		return ret;
	for (p = text; isspace((unsigned char)*p); p++)
		;
	for (e = p + strlen(p); e > p && isspace((unsigned char)e[-1]); e--)
		;
	*e = '\0';
	snprintf(out, len, "%s", p);
	free(text);
	return 0;
}

int rawdev_queue_attr(const char *sysdev, dev_t dev, const char *attr, char *out, size_t len)
{
	char path[256];
	int ret;

	snprintf(path, sizeof(path), "%s/%u:%u/queue/%s", sysdev, major(dev), minor(dev), attr);
	ret = read_trim(path, out, len);
	if (ret != -ENOENT)
		return ret;
	/* a partition has no queue/ of its own: its disk's is one level up */
	snprintf(path, sizeof(path), "%s/%u:%u/../queue/%s", sysdev, major(dev), minor(dev), attr);
	return read_trim(path, out, len);
}

int rawdev_io_poll(const char *sysdev, dev_t dev)
{
	char v[16];
	int ret = rawdev_queue_attr(sysdev, dev, "io_poll", v, sizeof(v));

	return ret ? ret : strcmp(v, "0") != 0;
}

int rawdev_nvme_generic(const char *disk, char *out, size_t len)
{
	const char *name = strrchr(disk, '/') ? strrchr(disk, '/') + 1 : disk;
	unsigned ctrl, ns;
	struct stat st;
	int n = 0;

	if (sscanf(name, "nvme%un%u%n", &ctrl, &ns, &n) != 2 || name[n])
		return -ENODEV;
	snprintf(out, len, "/dev/ng%un%u", ctrl, ns);
	if (stat(out, &st))
		return -errno;
	return S_ISCHR(st.st_mode) ? 0 : -ENODEV;
}
