/* SPDX-License-Identifier: MIT */
/* The loopback interface: the guest's kernel starts with "lo" down. */
#ifndef BM_RUNNER_NETLO_H
#define BM_RUNNER_NETLO_H

/* Sets IFF_UP (and IFF_RUNNING) on "lo"; 0 when it is up (or already
 * was), or -errno from socket/SIOCGIFFLAGS/SIOCSIFFLAGS. */
int bm_netlo_up(void);

#endif
