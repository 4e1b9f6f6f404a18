/* SPDX-License-Identifier: MIT */
/*
 * Host mode: `bootmark-runner --host DIR --workload NAME [key=value ...]`
 * runs every test of one workload on an existing directory of the host,
 * without mkfs, and writes the same framed records as the appliance
 * (HELLO with host=1, R per test, E, Z).  Each test runs in a fresh
 * directory DIR/bootmark.<pid>.<n> that is removed afterwards, except that
 * a test the workload says continues its predecessor (wl_ops.continues)
 * runs in the predecessor's directory; nothing else in DIR is touched.  The measurement window is the appliance's
 * (measure.c).  docs/cli.md describes it.
 */
#ifndef BM_RUNNER_HOSTMODE_H
#define BM_RUNNER_HOSTMODE_H

#include <limits.h>
#include <stdio.h>
#include <sys/types.h>

#include "wl.h"

/* Exit codes (docs/exit-codes.md). */
#define HOSTMODE_EXIT_OK     0    /* every test ran */
#define HOSTMODE_EXIT_FAILED 1    /* a test failed: E records */
#define HOSTMODE_EXIT_USAGE  100  /* bad arguments, options or DIR */
#define HOSTMODE_EXIT_SYSTEM 111  /* the host failed us: records, test dirs */

struct hostmode {
	char dir[PATH_MAX];         /* DIR, resolved */
	int dirfd;                  /* DIR, O_DIRECTORY: tests live relative to it */
	const struct wl_ops *w;
	void *opts;
	char args[256];             /* the key=value words, for HELLO */
	char disk[64];              /* diskstats name; "" = no block device */
	char fstype[32];            /* from mountinfo: ext4, xfs, tmpfs ... */
	char mount_opts[256];       /* mount and superblock options of DIR's mount */
	char kernel[65];            /* uname -r */
	int can_drop;               /* root: /proc/sys/vm/drop_caches is ours to write */
	unsigned ntest;             /* directories made so far, for bootmark.<pid>.<n> */
	int said_cache;             /* the fadvise note was printed */
	const char *cache;          /* for the current test: "dropped", "fadvise" or "kept" */
	const char *subdir;         /* the current test directory, relative to dirfd */
	char kept[64];              /* the last test's directory, kept for the next; "" = none */
	char kept_test[64];         /* and its test label, for the next one's continues= */
	int ntests;                 /* tests of the job */
};

/* Checks DIR (exists, a directory, writable), the workload and its options
 * (words "key=value").  0; or -errno with the reason in err: -EINVAL,
 * -ENOENT, -EACCES, -ENOTDIR, -EROFS are the caller's fault (exit 100). */
int hostmode_setup(struct hostmode *h, const char *dir, const char *wl,
		   char *const *words, int nwords, char *err, size_t errlen);
/* Runs every test, records to fd (HELLO first, Z last).  When table is not
 * NULL, the human table, made by decoding the R records just written, is
 * printed there.  Returns an exit code (HOSTMODE_EXIT_*). */
int hostmode_run(struct hostmode *h, int fd, FILE *table);
void hostmode_free(struct hostmode *h);
/* The whole command: argv[1] is "--host".  Returns the exit code. */
int hostmode_main(int argc, char **argv);

/* Pieces, exported for the unit test. */

/* Block device holding dev_t dev, as /proc/diskstats names it ("sda2"),
 * from sysdevblock/MAJ:MIN (normally "/sys/dev/block").  -ENODEV when
 * dev is not a block device (major 0: tmpfs, overlay, btrfs subvolumes). */
int hostmode_blockdev(const char *sysdevblock, dev_t dev, char *name, size_t len);
/* The mountinfo line of the mount holding path (resolved) on dev: fs type
 * and "mount options,superblock options" without repeats.  0 or -ENOENT. */
int hostmode_mountinfo(const char *text, const char *path, dev_t dev,
		       char *fstype, size_t tlen, char *opts, size_t olen);

#endif
