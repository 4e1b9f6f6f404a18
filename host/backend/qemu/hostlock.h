/* SPDX-License-Identifier: MIT */
/*
 * The host-wide lock of measuring runs (host/backend/qemu/hostlock.c; docs/reliability.md,
 * "Shared hosts").  BM_LOCK_SHARED: an ordinary measuring run (never waits; told
 * when an --exclusive run measures); BM_LOCK_EXCLUSIVE: --exclusive, waits for
 * the runs measuring now and says for whom; BM_LOCK_NONE: --icount (virtual
 * time needs no lock).  *fd is the lock to keep until the run ends (-1: none).
 * 0, -EINTR (a stop signal while waiting), -EINVAL (the lock's folder or file
 * is not its user's own: refused, reported) or -errno (reported).
 */
#ifndef BM_HOSTLOCK_H
#define BM_HOSTLOCK_H

enum bm_lock_mode { BM_LOCK_NONE, BM_LOCK_SHARED, BM_LOCK_EXCLUSIVE };

int bm_host_lock(int mode, int *fd);
void bm_host_unlock(int fd);

#endif
