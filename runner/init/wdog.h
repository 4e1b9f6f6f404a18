/* SPDX-License-Identifier: MIT */
/*
 * The hardware watchdog (bootmark.watchdog=SECONDS): armed before the suite,
 * fed by a thread of its own while the runner lives, so a box whose kernel
 * locks up, panics without rebooting, or loses PID 1 is reset by the
 * hardware and comes back by itself (the next PXE boot).  A test that is
 * slow but alive keeps it fed; the host's silence timeout judges those.
 */
#ifndef BM_RUNNER_WDOG_H
#define BM_RUNNER_WDOG_H

#include <pthread.h>
#include <stddef.h>

struct wdog {
	int fd;                 /* -1 = not armed */
	int timeout;            /* seconds the driver accepted */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int running, stop;
};

/* Opens dev, sets the timeout (the driver may round it; wd->timeout says
 * what it took) and starts feeding.  0 or -errno with the reason in err. */
int wdog_arm(struct wdog *wd, const char *dev, int timeout_s, char *err, size_t errlen);
/* Stops feeding.  disarm: the magic close ('V'), so the watchdog stops;
 * otherwise it stays armed and fires unless the machine resets first. */
void wdog_release(struct wdog *wd, int disarm);

#endif
