// SPDX-License-Identifier: MIT
/* Host mode: what DIR is, where it lives, and the workload's options (hostmode.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "fsrun.h"
#include "hostmode.h"
#include "profile.h"

int hostmode_blockdev(const char *sysdevblock, dev_t dev, char *name, size_t len)
{
	char path[128], target[PATH_MAX];
	const char *base;
	ssize_t n;

	if (major(dev) == 0)
		return -ENODEV;
	snprintf(path, sizeof(path), "%s/%u:%u", sysdevblock, major(dev), minor(dev));
	/* ../../devices/pci0000:00/.../block/sda/sda2: a partition has its own
	 * diskstats line, so the last component is the name to look up. */
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return errno == ENOENT ? -ENODEV : -errno;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (!*base || strlen(base) >= len)
		return -ENAMETOOLONG;
	snprintf(name, len, "%s", base);
	return 0;
}

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++, w++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*w = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*w = *s;
		}
	}
	*w = '\0';
}

static int under(const char *path, const char *mnt)
{
	size_t n = strlen(mnt);

	if (!strcmp(mnt, "/"))
		return 1;
	return !strncmp(path, mnt, n) && (path[n] == '/' || !path[n]);
}

static int has_item(const char *list, const char *item)
{
	size_t n = strlen(item);
	const char *p;

	for (p = list; (p = strstr(p, item)); p += n)
		if ((p == list || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return 1;
	return 0;
}

/* "rw,relatime" + "rw,errors=remount-ro" -> "rw,relatime,errors=remount-ro" */
static void merge_opts(char *out, size_t len, const char *a, const char *b)
{
	char buf[512], *save = NULL, *tok;
	size_t used;

	snprintf(out, len, "%s", a);
	snprintf(buf, sizeof(buf), "%s", b);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (has_item(out, tok))
			continue;
		used = strlen(out);
		snprintf(out + used, len - used, "%s%s", used ? "," : "", tok);
	}
}

int hostmode_mountinfo(const char *text, const char *path, dev_t dev,
		       char *fstype, size_t tlen, char *opts, size_t olen)
{
	char line[2048], mnt[1024], mopts[512], type[64], sopts[512];
	unsigned ma, mi;
	size_t best = 0, n;
	const char *p = text, *dash;
	int found = 0;

	while (p && *p) {
		n = strcspn(p, "\n");
		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		p += n + (p[n] == '\n');
		dash = strstr(line, " - ");
		if (!dash || sscanf(line, "%*u %*u %u:%u %*s %1023s %511s", &ma, &mi, mnt,
				    mopts) != 4)
			continue;
		if (sscanf(dash + 3, "%63s %*s %511s", type, sopts) != 2)
			continue;
		unescape(mnt);
		if (makedev(ma, mi) != dev || !under(path, mnt) || strlen(mnt) < best)
			continue;
		/* the longest mount point wins: a later mount over a parent */
		best = strlen(mnt);
		snprintf(fstype, tlen, "%s", type);
		merge_opts(opts, olen, mopts, sopts);
		found = 1;
	}
	return found ? 0 : -ENOENT;
}

static int check_dir(struct hostmode *h, const char *dir, char *err, size_t errlen)
{
	struct stat st;

	int e;

	if (!realpath(dir, h->dir) || stat(h->dir, &st)) {
		e = errno;
		snprintf(err, errlen, "cannot use %s: %s", dir, strerror(e));
		return -e;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "cannot use %s: %s", dir, strerror(ENOTDIR));
		return -ENOTDIR;
	}
	if (access(h->dir, W_OK | X_OK)) {
		e = errno;
		snprintf(err, errlen, "cannot write in %s: %s", dir, strerror(e));
		return -e;
	}
	h->dirfd = open(h->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (h->dirfd < 0) {
		e = errno;
		snprintf(err, errlen, "cannot open %s: %s", dir, strerror(e));
		return -e;
	}
	return 0;
}

/* Device and filesystem of DIR; what cannot be found is reported, not fatal. */
static void probe_dir(struct hostmode *h)
{
	struct stat st;
	char *mi = NULL;
	int ret;

	snprintf(h->fstype, sizeof(h->fstype), "unknown");
	if (fstat(h->dirfd, &st))
		return;
	if (!bm_read_file("/proc/self/mountinfo", &mi, NULL, 4 << 20)) {
		hostmode_mountinfo(mi, h->dir, st.st_dev, h->fstype, sizeof(h->fstype),
				   h->mount_opts, sizeof(h->mount_opts));
		free(mi);
	}
	ret = hostmode_blockdev("/sys/dev/block", st.st_dev, h->disk, sizeof(h->disk));
	if (ret) {
		h->disk[0] = '\0';
		fprintf(stderr, "bootmark-runner: %s (%s, device %u:%u) has no block device "
			"of its own: read and written are not reported\n", h->dir, h->fstype,
			major(st.st_dev), minor(st.st_dev));
	}
}

static int parse_words(struct hostmode *h, char *const *words, int nwords,
		       char *err, size_t errlen)
{
	char msg[200];
	size_t used = 0;
	int i, ret;

	for (i = 0; i < nwords; i++) {
		/* fsrun_job_opts splits on blanks: a word must not hold one */
		if (strpbrk(words[i], " \t") || used + strlen(words[i]) + 2 > sizeof(h->args)) {
			snprintf(err, errlen, "%s: bad option word \"%s\"", h->w->desc->name, words[i]);
			return -EINVAL;
		}
		used += (size_t)snprintf(h->args + used, sizeof(h->args) - used, "%s%s",
					 used ? " " : "", words[i]);
	}
	ret = fsrun_job_opts(h->w, h->args, &h->opts, msg, sizeof(msg));
	if (!ret && h->w->host_check)
		ret = h->w->host_check(h->opts, msg, sizeof(msg));
	if (!ret)
		return 0;
	snprintf(err, errlen, "%s: %s", h->w->desc->name, msg);
	/* bm_opt_set says ENOENT for an unknown key: still the user's words */
	return ret == -ENOMEM ? ret : -EINVAL;
}

int hostmode_setup(struct hostmode *h, const char *dir, const char *wl,
		   char *const *words, int nwords, char *err, size_t errlen)
{
	struct utsname u;
	int ret;

	memset(h, 0, sizeof(*h));
	h->dirfd = -1;
	h->w = wl_find(wl);
	if (!h->w) {
		snprintf(err, errlen, "unknown workload \"%s\"", wl);
		return -EINVAL;
	}
	ret = parse_words(h, words, nwords, err, errlen);
	if (!ret)
		ret = check_dir(h, dir, err, errlen);
	if (ret) {
		hostmode_free(h);
		return ret;
	}
	probe_dir(h);
	if (!uname(&u))
		snprintf(h->kernel, sizeof(h->kernel), "%s", u.release);
	h->can_drop = geteuid() == 0;
	return 0;
}

void hostmode_free(struct hostmode *h)
{
	free(h->opts);
	h->opts = NULL;
	if (h->dirfd >= 0)
		close(h->dirfd);
	h->dirfd = -1;
}
