/* SPDX-License-Identifier: MIT */
/* runner/hostmode/hostmode.c, hostprobe.c, hosttree.c: dd on a temp dir of this host. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hostmode.h"
#include "hosttree.h"
#include "profile.h"
#include "proto.h"
#include "report.h"
#include "tap.h"
#include "testutil.h"

static char base[PATH_MAX];

static void put_file(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		tap_bail("cannot create a fixture file");
	fputs("keep\n", f);
	fclose(f);
}

/* Records as the host would read them: every R, partial=0, a clean stream. */
static void check_records(const char *text, size_t len, const char *dir)
{
	static const char *const want[] = { "dd2w", "dd2r", "dd2rw" };
	struct bm_stream s;
	const struct bm_record *r;
	struct bm_rres h;
	char why[256];
	uint64_t seq;
	int nr = 0, i;

	bm_stream_init(&s, "");
	for (i = 0; (size_t)i < len;) {
		size_t n = strcspn(text + i, "\n");

		bm_stream_feed(&s, text + i, n);
		i += (int)n + 1;
	}
	TAP_EQ_INT(bm_stream_check(&s, why, sizeof(why)), 0, "stream complete");
	r = bm_stream_get(&s, 1);
	tap_ok(r && r->type == BM_REC_HELLO, "HELLO first");
	tap_ok(r && bm_rec_get(r, "host") && !strcmp(bm_rec_get(r, "host"), "1"), "host=1");
	tap_ok(r && bm_rec_get(r, "dir") && !strcmp(bm_rec_get(r, "dir"), dir), "dir=%s", dir);
	for (seq = 1; seq <= s.max_seq; seq++) {
		r = bm_stream_get(&s, seq);
		if (!r || r->type != BM_REC_RESULT)
			continue;
		if (bm_rres_from_record(&h, r) || nr >= 3) {
			tap_ok(0, "unexpected R record %llu", (unsigned long long)seq);
			continue;
		}
		TAP_EQ_STR(h.test, want[nr], "R test label in order");
		TAP_EQ_INT(h.partial, 0, "partial=0");
		tap_ok(bm_rres_value(&h, "bytes", 0) == 2 << 20, "%s moved 2 MiB", h.test);
		tap_ok(bm_rres_metric(&h, "real") && bm_rres_metric(&h, "utime") &&
		       bm_rres_metric(&h, "stime"), "%s has the window's metrics", h.test);
		tap_ok(bm_rec_get(r, "cache") && (!strcmp(bm_rec_get(r, "cache"), "dropped") ||
						   !strcmp(bm_rec_get(r, "cache"), "fadvise")),
		       "%s says how the cache was emptied", h.test);
		nr++;
	}
	TAP_EQ_INT(nr, 3, "three R records");
	bm_stream_free(&s);
}

static void run_dd(void)
{
	static char *const words[] = { "size=2M", "bs=256K" };
	struct hostmode h;
	char err[256] = "", *text = NULL, *table = NULL, keep[PATH_MAX + 16];
	size_t len = 0, tlen = 0;
	FILE *rec, *tab;
	int ret;

	snprintf(keep, sizeof(keep), "%s/keep.txt", base);
	put_file(keep);
	ret = hostmode_setup(&h, base, "dd", words, 2, err, sizeof(err));
	TAP_EQ_INT(ret, 0, "setup dd size=2M bs=256K");
	if (ret) {
		tap_skip(err, "dd run");
		return;
	}
	rec = tmpfile();
	tab = open_memstream(&table, &tlen);
	if (!rec || !tab)
		tap_bail("tmpfile/open_memstream");
	TAP_EQ_INT(hostmode_run(&h, fileno(rec), tab), HOSTMODE_EXIT_OK, "every test ran");
	fclose(tab);
	hostmode_free(&h);
	rewind(rec);
	text = malloc(1 << 20);
	len = text ? fread(text, 1, (1 << 20) - 1, rec) : 0;
	fclose(rec);
	check_records(text, len, base);
	tap_ok(table && strstr(table, ": dd2w :") && strstr(table, ": dd2rw :"),
	       "table printed from the decoded records");
	TAP_EQ_INT(tu_entries(base), 1, "test directories removed, keep.txt left alone");
	tap_ok(access(keep, F_OK) == 0, "the file already in DIR is untouched");
	unlink(keep);
	free(text);
	free(table);
}

/* Root writes through any mode bits, but not into a read-only mount: one is
 * made over dir in a child's own mount namespace, so nobody else sees it. */
static void ro_as_root(const char *dir)
{
	struct hostmode h;
	char err[256];
	pid_t pid = fork();
	int st = 0;

	if (pid == 0) {
		if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount("tmpfs", dir, "tmpfs", MS_RDONLY, NULL))
			_exit(77);
		_exit(hostmode_setup(&h, dir, "dd", NULL, 0, err, sizeof(err)) == -EROFS ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st)) {
		tap_ok(0, "read-only DIR rejected (the child did not report)");
		return;
	}
	if (WEXITSTATUS(st) == 77)
		tap_skip("no mount namespace for a read-only mount", "read-only DIR rejected");
	else
		tap_ok(WEXITSTATUS(st) == 0, "read-only DIR rejected (EROFS, as root)");
}

static void bad_input(void)
{
	static char *const bad[] = { "colour=red" }, *const noeq[] = { "size" };
	struct hostmode h;
	char err[256] = "", missing[PATH_MAX + 16], file[PATH_MAX + 16];

	TAP_EQ_INT(hostmode_setup(&h, base, "dd", bad, 1, err, sizeof(err)), -EINVAL,
		   "unknown option rejected");
	tap_ok(strstr(err, "colour") != NULL, "error names the option: %s", err);
	TAP_EQ_INT(hostmode_setup(&h, base, "dd", noeq, 1, err, sizeof(err)), -EINVAL,
		   "word without = rejected");
	TAP_EQ_INT(hostmode_setup(&h, base, "nosuch", NULL, 0, err, sizeof(err)), -EINVAL,
		   "unknown workload rejected");
	snprintf(missing, sizeof(missing), "%s/missing", base);
	TAP_EQ_INT(hostmode_setup(&h, missing, "dd", NULL, 0, err, sizeof(err)), -ENOENT,
		   "missing DIR rejected");
	tap_ok(strstr(err, missing) != NULL, "error names DIR: %s", err);
	snprintf(file, sizeof(file), "%s/file", base);
	put_file(file);
	TAP_EQ_INT(hostmode_setup(&h, file, "dd", NULL, 0, err, sizeof(err)), -ENOTDIR,
		   "a file is not a DIR");
	unlink(file);
	snprintf(file, sizeof(file), "%s/ro", base);
	mkdir(file, 0500);
	if (geteuid() == 0)
		ro_as_root(file);
	else
		TAP_EQ_INT(hostmode_setup(&h, file, "dd", NULL, 0, err, sizeof(err)), -EACCES,
			   "read-only DIR rejected");
	rmdir(file);
}

/* A symlink to a directory outside must be removed, not followed. */
static void tree(void)
{
	char out[PATH_MAX + 16], outf[PATH_MAX + 32], t[PATH_MAX + 16], p[PATH_MAX + 64];
	int fd = open(base, O_RDONLY | O_DIRECTORY);

	snprintf(out, sizeof(out), "%s/outside", base);
	snprintf(outf, sizeof(outf), "%s/precious", out);
	snprintf(t, sizeof(t), "%s/t", base);
	mkdir(out, 0755);
	put_file(outf);
	mkdir(t, 0755);
	snprintf(p, sizeof(p), "%s/a", t);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/a/b", t);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/a/b/f", t);
	put_file(p);
	snprintf(p, sizeof(p), "%s/a/link", t);
	if (symlink(out, p))
		tap_bail("symlink");
	snprintf(p, sizeof(p), "%s/flink", t);
	if (symlink(outf, p))
		tap_bail("symlink");
	TAP_EQ_INT(hosttree_fadvise(fd, "t"), 0, "fadvise walk");
	TAP_EQ_INT(hosttree_remove(fd, "t"), 0, "tree removed");
	tap_ok(access(t, F_OK) != 0, "t is gone");
	tap_ok(access(outf, F_OK) == 0, "target of a symlink inside is untouched");
	TAP_EQ_INT(hosttree_remove(fd, "t"), -ENOENT, "removing it again: ENOENT");
	unlink(outf);
	rmdir(out);
	close(fd);
}

static void probe(void)
{
	static const char mi[] =
		"22 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw,errors=remount-ro\n"
		"30 22 0:26 / /dev/shm rw,nosuid shared:2 - tmpfs tmpfs rw,size=4k\n"
		"31 22 8:3 / /var rw shared:3 - xfs /dev/sda3 rw,attr2\n"
		"32 31 8:3 /sub /var/my\\040dir rw,noatime - xfs /dev/sda3 rw,attr2\n";
	char type[32], opts[128], sys[PATH_MAX + 16], link[PATH_MAX + 32], name[32];

	TAP_EQ_INT(hostmode_mountinfo(mi, "/home/u", makedev(8, 2), type, sizeof(type), opts,
				      sizeof(opts)), 0, "root mount found");
	TAP_EQ_STR(type, "ext4", "fs type");
	TAP_EQ_STR(opts, "rw,relatime,errors=remount-ro", "options merged without repeats");
	TAP_EQ_INT(hostmode_mountinfo(mi, "/var/my dir/x", makedev(8, 3), type, sizeof(type),
				      opts, sizeof(opts)), 0, "escaped mount point");
	TAP_EQ_STR(opts, "rw,noatime,attr2", "longest mount point wins");
	TAP_EQ_INT(hostmode_mountinfo(mi, "/variable", makedev(8, 3), type, sizeof(type), opts,
				      sizeof(opts)), -ENOENT, "/var is not a prefix of /variable");
	TAP_EQ_INT(hostmode_mountinfo(mi, "/dev/shm", makedev(0, 26), type, sizeof(type), opts,
				      sizeof(opts)), 0, "tmpfs");
	TAP_EQ_STR(type, "tmpfs", "tmpfs type");

	snprintf(sys, sizeof(sys), "%s/sysblock", base);
	mkdir(sys, 0755);
	snprintf(link, sizeof(link), "%s/8:2", sys);
	if (symlink("../../devices/pci0000:00/0000:00:01.1/ata1/block/sda/sda2", link))
		tap_bail("symlink");
	TAP_EQ_INT(hostmode_blockdev(sys, makedev(8, 2), name, sizeof(name)), 0, "partition");
	TAP_EQ_STR(name, "sda2", "partition's own diskstats name");
	TAP_EQ_INT(hostmode_blockdev(sys, makedev(0, 26), name, sizeof(name)), -ENODEV,
		   "major 0: no block device");
	TAP_EQ_INT(hostmode_blockdev(sys, makedev(8, 3), name, sizeof(name)), -ENODEV,
		   "no sysfs entry: no block device");
	unlink(link);
	rmdir(sys);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	char tmpl[PATH_MAX];

	tap_plan(0);
	snprintf(tmpl, sizeof(tmpl), "%s/bm-hostmode.XXXXXX", tmp && tmp[0] ? tmp : "/var/tmp");
	if (!mkdtemp(tmpl) || !realpath(tmpl, base))
		tap_bail("mkdtemp");
	run_dd();
	bad_input();
	tree();
	probe();
	TAP_EQ_INT(tu_entries(base), 0, "nothing left behind");
	rmdir(base);
	return tap_done();
}
