// SPDX-License-Identifier: MIT
/* Safety checks on the chosen test disk, and the wipe (disk.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>  /* BLKRRPART, in musl and glibc alike */
#include <unistd.h>

#include "disk.h"
#include "diskmark.h"
#include "diskprobe.h"
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

/* "a GPT partition table, 2 partitions (vdb1 ...)" from what was found;
 * with skip_ours, the filesystems bootmark made are left out (beside its
 * mark they are its own). */
static void describe_foreign(const struct disksig *sig, int n, int skip_ours,
			     const struct part_state *parts, char *out, size_t len)
{
	char one[160];
	int i;

	out[0] = '\0';
	for (i = 0; i < n; i++) {
		if (skip_ours && disksig_ours(&sig[i]))
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

/* The first non-zero byte of the first MiB: 1 and *off (from the disk's
 * start), or 0 when it is all zero. */
static int start_junk(const struct ends *e, uint64_t *off)
{
	size_t len = e->size < DISKSIG_LEN ? (size_t)e->size : DISKSIG_LEN;
	size_t at = disksig_nonzero(e->start, len);

	*off = at;
	return at < len;
}

/* The same for the last MiB, less the DISKMARK_LEN bytes at skip (the mark's
 * place in it; past the end: none). */
static int end_junk(const struct ends *e, size_t skip, uint64_t *off)
{
	size_t cut = skip < e->end_len ? skip : e->end_len, at;
	size_t rest = cut + DISKMARK_LEN < e->end_len ? cut + DISKMARK_LEN : e->end_len;

	at = disksig_nonzero(e->end, cut);
	if (at == cut)
		at = rest + disksig_nonzero(e->end + rest, e->end_len - rest);
	*off = e->size - e->end_len + at;
	return at < e->end_len;
}

/* Non-zero bytes in the first MiB and no signature at its start: a partition
 * (or a filesystem made at an offset) starting inside it, where DOS and old
 * GPT tools put the first one, or at a power of two.  The number found. */
static int probe_inside_start(const struct ends *e, struct disksig *sig)
{
	static const size_t at[] = { 34 * 512, 63 * 512, 64 * 512, 128 * 512, 256 * 512,
				     512 * 512, 1024 * 512 };
	size_t i;
	int n;

	for (i = 0; i < sizeof(at) / sizeof(at[0]) && at[i] < e->size; i++) {
		n = disksig_probe(e->start + at[i], DISKSIG_LEN - at[i], sig, 1);
		if (n > 0) {
			snprintf(sig[0].where, sizeof(sig[0].where), "at offset %u, sector %u",
				 (unsigned)at[i], (unsigned)(at[i] / 512));
			return n;
		}
	}
	return 0;
}

int disk_wipe_named(const char *wipe, const struct disk_info *d)
{
	return wipe[0] && d->serial[0] && !strcmp(wipe, d->serial);
}

int disk_verdict_msg(const struct disk_info *d, const char *wipe, const char *what, int noproof,
		     char *err, size_t errlen)
{
	if (disk_wipe_named(wipe, d)) {
		snprintf(err, errlen, "%s (serial %s) holds %s; disk_wipe names it: wiping", d->dev,
			 d->serial, what);
		return 1;
	}
	snprintf(err, errlen, "%s (serial %s) holds %s %s; set disk_wipe=%s to overwrite it",
		 d->dev, d->serial[0] ? d->serial : "none", what,
		 noproof ? "without bootmark's ownership mark (a label proves nothing)"
			 : "that bootmark did not make", d->serial[0] ? d->serial : "<serial>");
	return 0;
}

/*
 * What the two MiB say about a disk with no mark of bootmark's: *blank when
 * they are all zeros; else what it holds, into what, and *noproof when that
 * is only filesystems labelled as bootmark labels its own.  end_nz: the first
 * non-zero byte of the last MiB (end_len: none), scanned once already.
 */
static void unmarked(const struct ends *e, size_t end_nz, struct disksig *sig, int n,
		     const struct part_state *parts, char *what, size_t len, int *blank,
		     int *noproof)
{
	uint64_t off = 0;

	*blank = *noproof = 0;
	if (n || parts->count) {
		describe_foreign(sig, n, 0, parts, what, len);
		*noproof = disksig_foreign(sig, n) < 0 && !parts->count;
	} else if (start_junk(e, &off)) {
		if (probe_inside_start(e, sig) > 0)
			disksig_describe(&sig[0], what, len);
		else
			snprintf(what, len, "unrecognised non-zero data at offset %llu",
				 (unsigned long long)off);
	} else if (end_nz < e->end_len) {
		snprintf(what, len, "unrecognised non-zero data at offset %llu",
			 (unsigned long long)(e->size - e->end_len + end_nz));
	} else {
		*blank = 1;
	}
}

/* The same for a disk whose last MiB holds bootmark's mark of this disk at
 * base + skip: the filesystems it made are its own, and any data in the
 * first MiB (a raw test's); nothing else may be beside the mark. */
static void marked(const struct ends *e, size_t skip, struct disksig *sig, int n,
		   const struct part_state *parts, char *what, size_t len, int *ours)
{
	uint64_t off = 0;

	*ours = 0;
	if (disksig_foreign(sig, n) >= 0 || parts->count)
		describe_foreign(sig, n, 1, parts, what, len);
	else if (end_junk(e, skip, &off))
		snprintf(what, len, "unrecognised non-zero data at offset %llu beside bootmark's "
			 "ownership mark", (unsigned long long)off);
	else
		*ours = 1;
}

int disk_check_foreign(const char *sysblock, const char *dev, const struct disk_info *d,
		       const char *wipe, int *claim, void *buf, char *err, size_t errlen)
{
	struct disksig sig[DISKSIG_MAX];
	struct part_state parts;
	struct ends e = { NULL, NULL, 0, 0 };
	struct disk_info id = *d;
	uint64_t at = 0;
	char what[520], why[200], more[300];
	int ret, n, owned = 0, mark = -ENODATA, ok = 0, noproof = 0;
	size_t end_nz;

	*claim = DISK_BLANK;
	ret = read_ends(dev, &e, buf, &owned, err, errlen);
	if (ret)
		goto out_free;
	n = probe_ends(&e, sig);
	scan_parts(sysblock, d->name, NULL, count_part, &parts);
	id.size = e.size;   /* the device as opened: sysfs's size, in the runner */
	/* a blank last MiB (every new disk) holds no mark: no search, and the
	 * one zero scan of it the check makes */
	end_nz = disksig_nonzero(e.end, e.end_len);
	if (end_nz < e.end_len)
		mark = diskmark_find(e.end, e.end_len, &id, &at, why, sizeof(why));
	if (!mark) {
		marked(&e, (size_t)(at - (e.size - e.end_len)), sig, n, &parts, what, sizeof(what),
		       &ok);
	} else if (mark == -ENODATA) {
		unmarked(&e, end_nz, sig, n, &parts, what, sizeof(what), &ok, &noproof);
	} else {
		/* damaged, or another disk's: with whatever else is there */
		describe_foreign(sig, n, 0, &parts, more, sizeof(more));
		snprintf(what, sizeof(what), "%s%s%s", why, more[0] ? ", " : "", more);
	}
	if (ok) {
		*claim = mark ? DISK_BLANK : DISK_MARKED;
		goto out_free;
	}
	if (disk_verdict_msg(d, wipe, what, noproof, err, errlen))
		*claim = DISK_WIPE;
	else
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

int disk_wipe_all(const char *dev, uint64_t size, char *err, size_t errlen)
{
	int ret = disk_probe_zero(dev, size, err, errlen);

	return ret ? ret : disk_wipe(dev, size, err, errlen);
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
