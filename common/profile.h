/* SPDX-License-Identifier: MIT */
/*
 * Filesystem profiles (configs/fs/<name>) and suites (configs/suites/<name>).
 * Both the runner (inside the image) and the host (to size the disk and pick
 * the modules to pack) read them, so the parsers live here.
 *
 * Profile, "key = value" lines through an option table:
 *     type       = ext4                     filesystem type for mount(2)
 *     mkfs       = mkfs.ext4 -F -q -E lazy_itable_init=0,lazy_journal_init=0
 *                  argv words split on spaces; the device is appended last
 *     mount_opts = noatime                  flags and data, as mount -o
 *     modules    = ext4                     modules to load before mkfs
 *
 * Suite, one job per line:
 *     suite disk_size=1G repeat=1           suite-wide settings (optional)
 *     dd size=32M bs=1M                     <workload> <option>=<value> ...
 */
#ifndef BM_PROFILE_H
#define BM_PROFILE_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#define BM_ARGV_MAX 32
/* Where the runner finds a profile's mkfs when argv[0] has no '/'
 * (runner/engine/spawn.c), in order; the host looks it up in the image
 * manifest along the same path (host/backend/manifest.c). */
#define BM_MKFS_PATH "/sbin:/bin:/usr/sbin:/usr/bin"

struct bm_fsprof {
	char name[32];
	char type[32];
	char mkfs[256];
	char mount_opts[256];
	char modules[128];
};

int bm_fsprof_parse(struct bm_fsprof *p, const char *name, const char *text,
		    char *err, size_t errlen);
/* Reads dir/name and parses it. */
int bm_fsprof_load(struct bm_fsprof *p, const char *dir, const char *name,
		   char *err, size_t errlen);
/* Splits p->mkfs into argv (pointing into buf), appends dev, NULL-terminates. */
int bm_fsprof_mkfs_argv(const struct bm_fsprof *p, const char *dev, char *buf,
			size_t buflen, char *argv[], int max);
/* The mkfs option that sets a label for filesystem type ("-L", reiserfs "-l"),
 * NULL when unknown. */
const char *bm_mkfs_label_opt(const char *type);
/* Makes an argv from bm_fsprof_mkfs_argv (n words, the device last) set label:
 * the value of a label option already there is replaced, else the option is
 * inserted before the device.  The new n, or -E2BIG / -EINVAL. */
int bm_mkfs_argv_label(const char *type, char *argv[], int n, int max, const char *label);

/*
 * Makes such an argv make a filesystem of at most bytes bytes (a multiple of
 * 1 MiB) from the device's start, so the rest of the disk stays out of it
 * (the runner's ownership mark, docs/disk-safety.md): mke2fs's fs-size
 * ("<KiB>k") and the count of mkfs.jfs's 4 KiB blocks or mkreiserfs's blocks
 * (its -b, else 4096) after the device, "-d size=<KiB>k" (xfs) or "-b <bytes>"
 * (btrfs) before it.  The new words are written into buf.  The new n;
 * -EOPNOTSUPP for another type (its size option is not known), -EINVAL when
 * the profile sets the size itself, -E2BIG.
 */
int bm_mkfs_argv_size(const char *type, char *argv[], int n, int max, uint64_t bytes,
		      char *buf, size_t buflen);

#define BM_SUITE_JOBS 32

struct bm_job {
	char wl[16];
	char args[256];     /* the rest of the line: "size=32M bs=1M" */
	int line;           /* for error messages */
};

struct bm_suite {
	char name[32];
	uint64_t disk_size; /* bytes the test disk needs */
	int repeat;
	unsigned njobs;
	struct bm_job job[BM_SUITE_JOBS];
};

int bm_suite_parse(struct bm_suite *s, const char *name, const char *text,
		   char *err, size_t errlen);
int bm_suite_load(struct bm_suite *s, const char *dir, const char *name,
		  char *err, size_t errlen);

/*
 * Configuration and input files are regular files: a FIFO would block its
 * reader for ever (opening it waits for a writer), a device or a socket need
 * not end.  bm_open_regular opens path for reading without waiting
 * (O_NONBLOCK, then cleared) and refuses a folder (-EISDIR) and anything else
 * that is not a regular file (-BM_ENOTREG); bm_strerror says so in words.
 * Links are followed: reading through one writes nothing.
 */
#define BM_ENOTREG EBADFD
int bm_open_regular(const char *path);
/* strerror(err), but "not a regular file (...)" for BM_ENOTREG. */
const char *bm_strerror(int err);
/* Reads a whole small regular file (bm_open_regular) into a NUL-terminated
 * malloc'd buffer. */
int bm_read_file(const char *path, char **out, size_t *lenp, size_t max);

#endif
