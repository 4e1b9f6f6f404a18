/* SPDX-License-Identifier: MIT */
/*
 * How the host's watch over one boot ended.  Every way of booting a box
 * (QEMU with its watchdog, a captured serial line, a LAVA job) ends with
 * one of these, and the classification of the results folder
 * (host/results/status.c) reads it; so it sits below both the boot backends and
 * the host.
 */
#ifndef BM_COMMON_WATCH_H
#define BM_COMMON_WATCH_H

enum bm_watch {
	BM_WATCH_NONE,     /* not watched (bootmark parse) */
	BM_WATCH_EXITED,   /* QEMU exited by itself */
	BM_WATCH_SILENCE,  /* killed: no progress for --silence-timeout */
	BM_WATCH_TIMEOUT,  /* killed: --timeout reached */
	BM_WATCH_PANIC,    /* killed after a panic, QEMU did not exit */
	BM_WATCH_NOSTART,  /* QEMU could not be started */
	BM_WATCH_INTERRUPTED, /* a signal to bootmark stopped QEMU */
	BM_WATCH_HOSTIO,   /* killed: QEMU paused the guest on the host's I/O error (a full disk) */
};

#endif
