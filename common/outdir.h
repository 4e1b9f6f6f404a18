/* SPDX-License-Identifier: MIT */
/*
 * Writing into output folders on a shared host (common/outdir.c): trusted
 * folders, files created, never followed.  Functions return 0 or -errno;
 * -EPERM (an untrusted folder) and -EEXIST (an entry bootmark will not
 * write through) come with a reason in why, to be reported as bad input.
 */
#ifndef BM_OUTDIR_H
#define BM_OUTDIR_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/* path is an existing folder whose every ancestor, and every symlink on
 * the way, belongs to root or to us, and that is not writable by others
 * unless sticky (OpenSSH StrictModes, with /tmp's sticky bit allowed). */
int bm_dir_trusted(const char *path, char *why, size_t len);
/* dir is trusted, or does not exist and the nearest existing ancestor, in
 * which it would be created, is. */
int bm_out_ready(const char *dir, char *why, size_t len);
/* path may be (re)written: absent, or a regular file of ours with one link.
 * A symlink (or a hard-linked file) is accepted when replace_links is 1
 * (--overwrite: it is unlinked, never followed); replace_links -1 is "no
 * --overwrite exists for this file" (only changes the message). */
int bm_entry_ready(const char *path, int replace_links, char *why, size_t len);
/* Creates path afresh in its (trusted) folder: an old entry of ours or a
 * symlink is unlinked first, then openat(O_CREAT|O_EXCL|O_NOFOLLOW).
 * flags are open(2) flags (O_WRONLY, O_RDWR, O_CLOEXEC...).  Returns the fd or -errno;
 * -EEXIST for another user's file, -EPERM for an untrusted folder. */
int bm_out_open(const char *path, int flags, mode_t mode);
/* A new file "PATH.<random>.tmp" next to path (O_EXCL); its name in tmp.
 * Returns the fd (O_CLOEXEC) or -errno. */
int bm_out_tmp(const char *path, char *tmp, size_t len);
/* --overwrite: every entry of dir that is not a folder is unlinked (a
 * symlink as a name, never followed).  A missing dir is not an error. */
int bm_out_clear(const char *dir);

/*
 * The same checks for a command's planning, before it creates anything: a
 * refusal is reported ("bootmark: refusing ...") and returned as -EINVAL
 * (bad input, exit 100); other errors as -errno.  plan_dir: an output
 * folder (bm_out_ready); plan_file: one file and its folder; plan_entries:
 * the named files in dir, when dir exists (it must be a trusted folder).
 */
int bm_out_plan_dir(const char *dir);
int bm_out_plan_file(const char *path, int replace_links);
int bm_out_plan_entries(const char *dir, const char *const *names, int replace_links);

/* mkdir -p of dir (missing levels made with mode) where bm_out_ready allows
 * it; then dir must be trusted.  -EPERM/-ENOTDIR with why. */
int bm_out_mkdir(const char *dir, mode_t mode, char *why, size_t len);

/*
 * Private files: those bootmark opens again and again under one name, with
 * names others open beside them (SQLite makes a database's -journal, -wal
 * and -shm by name whenever they are missing; lock files).  A check made
 * before such an open cannot cover the names made after it, so the folder
 * must be private: trusted (bm_dir_trusted) and writable by its owner only
 * (a sticky /tmp is not enough: others may still create names there).  The
 * file is a regular file of ours, with one link, that no one else may
 * write.  Refusals are -EPERM (the folder) or -EEXIST (a file), with why.
 */
/* dir, made with mode when missing, is private. */
int bm_private_dir(const char *dir, mode_t mode, char *why, size_t len);
/* path is absent or a private file (lstat: a link is refused). */
int bm_private_entry(const char *path, char *why, size_t len);
/* Opens path in a private folder: O_NOFOLLOW, never blocking on a FIFO;
 * with O_CREAT in flags a missing file is made with O_EXCL and mode.  The
 * descriptor (O_CLOEXEC) of a private file, or -errno. */
int bm_private_open(const char *path, int flags, mode_t mode, char *why, size_t len);
/*
 * A private file named by path, as a database is: a symbolic link of ours
 * or root's at path is followed once (a link of another user is refused);
 * its folder is made (create) and must be private; the file and each
 * "<file><suffix>" of companions (NULL-terminated) must be absent or
 * private files; the file is made (O_EXCL) when missing and create is set.
 * real gets the file's path with no link in it (for openers that resolve
 * links themselves, such as SQLite), *st its identity to compare after they
 * opened it.  -ENOENT when it is missing and create is 0.
 */
int bm_private_file(const char *path, const char *const *companions, int create,
		    char *real, size_t rlen, struct stat *st, char *why, size_t len);

#endif
