/* SPDX-License-Identifier: MIT */
/*
 * Running mkfs without a shell: PATH search, fork+execve, output captured
 * for the error record.  Also the mount option translation for mount(2).
 */
#ifndef BM_RUNNER_SPAWN_H
#define BM_RUNNER_SPAWN_H

#include <stddef.h>

#include "profile.h"

#define SPAWN_PATH BM_MKFS_PATH

/* Finds prog in SPAWN_PATH (or takes it as is when it has a '/'). */
int spawn_find(const char *prog, char *out, size_t len);
/*
 * Runs argv[0] with argv, stdin /dev/null, stdout+stderr into out
 * (truncated, NUL-terminated).  Returns the exit status (0..255),
 * 128+signal when killed, or -errno when it could not be started.
 */
int spawn_run(char *const argv[], char *out, size_t outlen);
/* Collects exited children that are not ours to wait for (we are PID 1). */
void spawn_reap_orphans(void);

/* "noatime,data=writeback" -> MS_NOATIME and data "data=writeback". */
int mountopt_parse(const char *opts, unsigned long *flags, char *data, size_t len);

#endif
