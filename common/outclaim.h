/* SPDX-License-Identifier: MIT */
/*
 * One output folder, one writer (common/outclaim.c; docs/reliability.md,
 * "Results are durable").  Two runs into the same new --out both passed the
 * "already holds results" check, then unlinked and recreated each other's
 * logs while their QEMUs wrote them (issue 43).  A run takes its --out with
 * an exclusive flock on OUT/.bootmark.lock and keeps it until it ends; the
 * kernel drops it however the run ends, so a killed run leaves no stale claim.
 */
#ifndef BM_OUTCLAIM_H
#define BM_OUTCLAIM_H

#include <stddef.h>

#define BM_OUT_CLAIM_NAME ".bootmark.lock"

/*
 * Takes dir (an existing output folder, already checked by
 * bm_out_plan_dir) for this process: *fd holds the lock until it is closed.
 * 0; -EBUSY when another process holds it (who: "pid N (its command
 * line)", or ""); -EEXIST when the lock's name is not a plain file of ours
 * (who then says so); other -errno.
 */
int bm_out_claim(const char *dir, int *fd, char *who, size_t len);
/* A command's --out: made when missing, then claimed, every failure
 * reported ("refusing --out DIR: another bootmark writes there (pid N
 * (...))").  0; -EINVAL refused (bad input, exit 100); other -errno. */
int bm_out_take(const char *dir, int *fd);
void bm_out_release(int fd);

#endif
