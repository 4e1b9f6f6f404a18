// SPDX-License-Identifier: MIT
/* Safety checks on the chosen test disk, and the wipe (disk.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>  /* BLKRRPART, in musl and glibc alike */
#include <unistd.h>

#include "disk.h"
#include "disksig.h"
#include "profile.h"

/* Calls fn for the disk itself and each of its partitions (sysfs subdirectories
 * with a "partition" file) until fn returns nonzero; returns that. */
typedef int (*part_fn)(const char *sysblock, const char *disk, const char *part,
		       void *arg);

static int each_part(const char *sysblock, const char *disk, part_fn fn, void *arg)
{
	char path[512], sub[800];
	struct dirent *de;
	DIR *dir;
	int ret = fn(sysblock, disk, "", arg);

	snprintf(path, sizeof(path), "%s/%s", sysblock, disk);
	dir = opendir(path);
	if (!dir)
		return ret;
	while (!ret && (de = readdir(dir))) {
		if (strncmp(de->d_name, disk, strlen(disk)))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s/partition", path, de->d_name);
		if (!access(sub, F_OK))
			ret = fn(sysblock, disk, de->d_name, arg);
	}
	closedir(dir);
	return ret;
}

/* "vda" or "vda/vda1": the sysfs directory of a disk or partition below sysblock. */
static void sub_dir(char *out, size_t len, const char *disk, const char *part)
{
	snprintf(out, len, "%s%s%s", disk, part[0] ? "/" : "", part);
}

struct part_state {
	const char *text;      /* mountinfo or swaps */
	char hit[32];          /* the disk or partition found */
	int count;
};

/* Number of entries in sysblock/rel/sub (holders, slaves); the first one in hit. */
static int dir_entries(const char *sysblock, const char *rel, const char *sub, char *hit,
		       size_t hitlen)
{
	char path[600];
	struct dirent *de;
	DIR *dir;
	int n = 0;

	snprintf(path, sizeof(path), "%s/%s/%s", sysblock, rel, sub);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((de = readdir(dir)))
		if (de->d_name[0] != '.' && !n++)
			snprintf(hit, hitlen, "%.31s", de->d_name);
	closedir(dir);
	return n;
}

static int held(const char *sysblock, const char *disk, const char *part, void *arg)
{
	struct part_state *st = arg;
	char rel[300];

	sub_dir(rel, sizeof(rel), disk, part);
	return dir_entries(sysblock, rel, "holders", st->hit, sizeof(st->hit));
}

/* Field 3 of mountinfo is major:minor of the mounted device. */
static int mounted(const char *sysblock, const char *disk, const char *part, void *arg)
{
	struct part_state *st = arg;
	unsigned major, minor, ma, mi;
	char rel[300], v[32];
	const char *line;

	sub_dir(rel, sizeof(rel), disk, part);
	if (disk_read_attr(sysblock, rel, "dev", v, sizeof(v)) ||
	    sscanf(v, "%u:%u", &major, &minor) != 2)
		return 0;
	for (line = st->text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
		if (sscanf(line, "%*s %*s %u:%u", &ma, &mi) == 2 && ma == major && mi == minor) {
			snprintf(st->hit, sizeof(st->hit), "%.31s", part[0] ? part : disk);
			return 1;
		}
	return 0;
}

/* /proc/swaps: a header line, then the swap's path first on each line. */
static int swapping(const char *sysblock, const char *disk, const char *part, void *arg)
{
	struct part_state *st = arg;
	const char *name = part[0] ? part : disk, *line;
	char path[64];
	size_t n;

	snprintf(path, sizeof(path), "/dev/%s", name);
	n = strlen(path);
	for (line = st->text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
		if (!strncmp(line, path, n) && (line[n] == ' ' || line[n] == '\t')) {
			snprintf(st->hit, sizeof(st->hit), "%.31s", name);
			return 1;
		}
	return 0;
}

static int count_part(const char *sysblock, const char *disk, const char *part, void *arg)
{
	struct part_state *st = arg;

	if (part[0] && !st->count++)
		snprintf(st->hit, sizeof(st->hit), "%.31s", part);
	return 0;
}

/* Runs fn over the disk and its partitions with text read from path ("" = none). */
static int scan_parts(const char *sysblock, const char *disk, const char *path, part_fn fn,
		      struct part_state *st)
{
	char *buf = NULL;
	int ret;

	memset(st, 0, sizeof(*st));
	if (path && bm_read_file(path, &buf, NULL, 1 << 20))
		buf = NULL;
	st->text = buf;
	ret = each_part(sysblock, disk, fn, st);
	free(buf);
	return ret;
}

int disk_check_safe(const char *sysblock, const char *mountinfo, const char *swaps,
		    const struct disk_info *d, int try_open, char *err, size_t errlen)
{
	struct part_state st;
	char v[32];
	int fd;

	if (!disk_read_attr(sysblock, d->name, "ro", v, sizeof(v)) && strcmp(v, "0")) {
		snprintf(err, errlen, "%s is read-only", d->dev);
		return -EROFS;
	}
	if (!disk_read_attr(sysblock, d->name, "removable", v, sizeof(v)) && strcmp(v, "0")) {
		snprintf(err, errlen, "%s is removable; refusing to write to it", d->dev);
		return -EPERM;
	}
	/* md and dm devices are candidates too, but they are other disks' data. */
	if (dir_entries(sysblock, d->name, "slaves", st.hit, sizeof(st.hit))) {
		snprintf(err, errlen, "%s is built on other disks (%s: md, dm or similar); refusing",
			 d->dev, st.hit);
		return -EBUSY;
	}
	if (scan_parts(sysblock, d->name, NULL, held, &st)) {
		snprintf(err, errlen, "%s has holders (%s: md, dm or similar); refusing",
			 d->dev, st.hit);
		return -EBUSY;
	}
	if (scan_parts(sysblock, d->name, mountinfo, mounted, &st)) {
		snprintf(err, errlen, "%s is mounted (/dev/%s); refusing", d->dev, st.hit);
		return -EBUSY;
	}
	if (scan_parts(sysblock, d->name, swaps, swapping, &st)) {
		snprintf(err, errlen, "%s is in use as swap (/dev/%s); refusing", d->dev, st.hit);
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

/* "a GPT partition table, 2 partitions (vdb1 ...)" from what was found. */
static void describe_foreign(const struct disksig *sig, int n, int first,
			     const struct part_state *parts, char *out, size_t len)
{
	char one[160];
	int i;

	out[0] = '\0';
	for (i = first; i >= 0 && i < n; i++) {
		if (sig[i].is_fs && !strcmp(sig[i].label, DISKSIG_OURS))
			continue;
		disksig_describe(&sig[i], one, sizeof(one));
		snprintf(out + strlen(out), len - strlen(out), "%s%s", out[0] ? ", " : "", one);
	}
	if (parts->count)
		snprintf(out + strlen(out), len - strlen(out), "%s%d partition%s (%s%s)",
			 out[0] ? " and " : "", parts->count, parts->count > 1 ? "s" : "",
			 parts->hit, parts->count > 1 ? " ..." : "");
}

/* The first and the last MiB of a device; end is start for a device of at
 * most 1 MiB.  Sizes come from the open device, so an image file works too. */
struct ends {
	unsigned char *start, *end;
	size_t end_len;
	uint64_t size;
};

/* Both ends through fd: 0 or -errno. */
static int read_ends_fd(int fd, struct ends *e)
{
	off_t size = lseek(fd, 0, SEEK_END);
	int ret;

	if (size < 0)
		return -errno;
	e->size = (uint64_t)size;
	e->end_len = e->size < DISKSIG_LEN ? (size_t)e->size : DISKSIG_LEN;
	ret = disksig_read(fd, e->start, DISKSIG_LEN, 0);
	if (!ret)
		ret = disksig_read(fd, e->end, e->end_len, e->size - e->end_len);
	return ret;
}

_Static_assert(DISK_CHECK_BUF_LEN == 2 * DISKSIG_LEN, "the buffer holds both ends");

/*
 * O_DIRECT first: the check then leaves no page of the disk in the page
 * cache for the first test to find, and under TCG it costs a fraction of
 * a buffered read (the 2 MiB: about 20 ms direct, 60 buffered, on a
 * Debian 6.1 guest; docs/performance.md).  What refuses direct I/O (EINVAL:
 * a file on tmpfs, an end not on a logical block) is read buffered.  buf
 * (the caller's, or NULL) is e->start; *owned says whether to free it.
 */
static int read_ends(const char *dev, struct ends *e, void *buf, int *owned, char *err,
		     size_t errlen)
{
	int fd, ret = -EINVAL, direct;

	*owned = !buf;
	if (!buf && posix_memalign(&buf, 4096, DISK_CHECK_BUF_LEN)) {
		snprintf(err, errlen, "cannot probe %s: out of memory", dev);
		return -ENOMEM;
	}
	e->start = buf;
	e->end = e->start + DISKSIG_LEN;
	for (direct = 1; direct >= 0 && ret == -EINVAL; direct--) {
		fd = open(dev, O_RDONLY | O_CLOEXEC | (direct ? O_DIRECT : 0));
		if (fd < 0) {
			ret = -errno;
			if (ret == -EINVAL && direct)
				continue;
			snprintf(err, errlen, "cannot open %s: %s", dev, strerror(-ret));
			return ret;
		}
		ret = read_ends_fd(fd, e);
		close(fd);
	}
	if (ret)
		snprintf(err, errlen, "cannot read %s: %s", dev, strerror(-ret));
	return ret;
}

/* Start and end signatures; an end one of a kind the start has (GPT's backup,
 * ZFS's L2/L3) says nothing new. */
static int probe_ends(const struct ends *e, struct disksig *sig)
{
	struct disksig end[DISKSIG_MAX];
	int n = disksig_probe(e->start, DISKSIG_LEN, sig, DISKSIG_MAX), i, j, m;

	m = disksig_probe_end(e->end, e->end_len, e->size, end, DISKSIG_MAX);
	for (i = 0; i < m && n < DISKSIG_MAX; i++) {
		for (j = 0; j < n && strcmp(sig[j].kind, end[i].kind); j++)
			;
		if (j == n)
			sig[n++] = end[i];
	}
	return n;
}

/* Nothing named, yet not blank: where the first non-zero byte is, or 0 with
 * *off untouched for a disk that is all zeros in both places. */
static int unknown_data(const struct ends *e, uint64_t *off)
{
	size_t start_len = e->size < DISKSIG_LEN ? (size_t)e->size : DISKSIG_LEN;
	size_t at = disksig_nonzero(e->start, start_len);

	if (at < start_len) {
		*off = at;
		return 1;
	}
	at = disksig_nonzero(e->end, e->end_len);
	if (at < e->end_len) {
		*off = e->size - e->end_len + at;
		return 1;
	}
	return 0;
}

int disk_check_foreign(const char *sysblock, const char *dev, const struct disk_info *d,
		       const char *wipe, int *wiped, void *buf, char *err, size_t errlen)
{
	struct disksig sig[DISKSIG_MAX];
	struct part_state parts;
	struct ends e = { NULL, NULL, 0, 0 };
	uint64_t off = 0;
	char what[300];
	int ret, n, first, owned = 0;

	*wiped = 0;
	ret = read_ends(dev, &e, buf, &owned, err, errlen);
	if (ret)
		goto out_free;
	n = probe_ends(&e, sig);
	first = disksig_foreign(sig, n);
	scan_parts(sysblock, d->name, NULL, count_part, &parts);
	/* A filesystem of ours owns the rest of both MiBs (bootmark formats the
	 * whole disk); only a disk that shows nothing must also be blank. */
	if (first < 0 && !parts.count && (n > 0 || !unknown_data(&e, &off)))
		goto out_free;
	if (first < 0 && !parts.count)
		snprintf(what, sizeof(what), "unrecognised non-zero data at offset %llu",
			 (unsigned long long)off);
	else
		describe_foreign(sig, n, first, &parts, what, sizeof(what));
	if (wipe[0] && d->serial[0] && !strcmp(wipe, d->serial)) {
		snprintf(err, errlen, "%s (serial %s) holds %s; disk_wipe names it: wiping",
			 d->dev, d->serial, what);
		*wiped = 1;
		goto out_free;
	}
	snprintf(err, errlen, "%s (serial %s) holds %s that bootmark did not make; "
		 "set disk_wipe=%s to overwrite it", d->dev, d->serial[0] ? d->serial : "none",
		 what, d->serial[0] ? d->serial : "<serial>");
	ret = -ENOTEMPTY;
out_free:
	if (owned)
		free(e.start);
	return ret;
}

int disk_wipe(const char *dev, uint64_t size, char *err, size_t errlen)
{
	const size_t mib = 1 << 20;
	char *zero;
	int fd, ret = 0;

	zero = calloc(1, mib);
	if (!zero) {
		snprintf(err, errlen, "cannot wipe %s: out of memory", dev);
		return -ENOMEM;
	}
	fd = open(dev, O_WRONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot open %s: %s", dev, strerror(-ret));
		goto out_free;
	}
	errno = 0;
	if (pwrite(fd, zero, mib, 0) != (ssize_t)mib ||
	    (size > mib && pwrite(fd, zero, mib, (off_t)(size - mib)) != (ssize_t)mib) ||
	    fsync(fd)) {
		ret = errno ? -errno : -EIO;
		snprintf(err, errlen, "cannot wipe %s: %s", dev, strerror(-ret));
		goto out_close;
	}
	/* Partitions the old table described must go before mkfs reuses the space;
	 * EINVAL: a device without partitions, ENOTTY: not a block device (tests). */
	if (ioctl(fd, BLKRRPART) && errno != EINVAL && errno != ENOTTY) {
		ret = -errno;
		snprintf(err, errlen, "cannot re-read the partition table of %s: %s", dev,
			 strerror(-ret));
	}
out_close:
	close(fd);
out_free:
	free(zero);
	return ret;
}

int disk_ends_sum(const char *dev, uint64_t size, uint64_t *sum)
{
	struct ends e = { NULL, NULL, 0, 0 };
	uint64_t h = 0xcbf29ce484222325ull, w;
	char err[200];
	size_t i;
	int ret, owned = 0;

	ret = read_ends(dev, &e, NULL, &owned, err, sizeof(err));
	if (!ret && e.size != size)
		ret = -ENODEV;    /* not the disk it was */
	/* the start MiB, then the end's bytes (a disk under 1 MiB has fewer) */
	for (i = 0; !ret && i + 8 <= DISKSIG_LEN + e.end_len; i += 8) {
		memcpy(&w, (const char *)e.start + i, 8);
		h = (h ^ w) * 0x100000001b3ull;
	}
	if (owned)
		free(e.start);
	*sum = h;
	return ret;
}
