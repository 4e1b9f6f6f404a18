// SPDX-License-Identifier: MIT
/* The hardware watchdog (wdog.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
/* musl-gcc does not see the kernel's uapi headers; these three ioctls are
 * stable ABI (include/uapi/linux/watchdog.h). */
#if __has_include(<linux/watchdog.h>)
#include <linux/watchdog.h>
#else
#define WDIOC_KEEPALIVE  _IOR('W', 5, int)
#define WDIOC_SETTIMEOUT _IOWR('W', 6, int)
#define WDIOC_GETTIMEOUT _IOR('W', 7, int)
#endif
#include "wdog.h"

static void *feeder(void *arg)
{
	struct wdog *wd = arg;
	struct timespec until;
	/* A third of the timeout: two feeds may be lost before it fires. */
	int every = wd->timeout >= 3 ? wd->timeout / 3 : 1;

	pthread_mutex_lock(&wd->lock);
	while (!wd->stop) {
		if (ioctl(wd->fd, WDIOC_KEEPALIVE, 0) < 0 && write(wd->fd, "\0", 1) < 0)
			rlog(RLOG_ERR, "watchdog keepalive failed: %s", strerror(errno));
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += every;
		while (!wd->stop &&
		       pthread_cond_timedwait(&wd->cond, &wd->lock, &until) != ETIMEDOUT)
			;
	}
	pthread_mutex_unlock(&wd->lock);
	return NULL;
}

int wdog_arm(struct wdog *wd, const char *dev, int timeout_s, char *err, size_t errlen)
{
	int t = timeout_s, ret;

	memset(wd, 0, sizeof(*wd));
	wd->fd = open(dev, O_WRONLY | O_CLOEXEC);
	if (wd->fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot open %s: %s%s", dev, strerror(errno),
			 errno == ENOENT ? " (is its driver in bootmark.modules?)" : "");
		return ret;
	}
	/* Opening started it.  Some drivers cannot change the timeout: keep theirs. */
	if (ioctl(wd->fd, WDIOC_SETTIMEOUT, &t) < 0 &&
	    ioctl(wd->fd, WDIOC_GETTIMEOUT, &t) < 0)
		t = timeout_s;
	wd->timeout = t > 0 ? t : timeout_s;
	pthread_mutex_init(&wd->lock, NULL);
	pthread_cond_init(&wd->cond, NULL);
	ret = -pthread_create(&wd->thread, NULL, feeder, wd);
	if (ret) {
		snprintf(err, errlen, "cannot start the watchdog feeder: %s", strerror(-ret));
		goto out_close;
	}
	wd->running = 1;
	return 0;
out_close:
	/* Disarm: nobody will feed it. */
	if (write(wd->fd, "V", 1) < 0)
		rlog(RLOG_ERR, "watchdog magic close failed: %s", strerror(errno));
	close(wd->fd);
	wd->fd = -1;
	return ret;
}

void wdog_release(struct wdog *wd, int disarm)
{
	if (!wd->running)
		return;
	pthread_mutex_lock(&wd->lock);
	wd->stop = 1;
	pthread_cond_signal(&wd->cond);
	pthread_mutex_unlock(&wd->lock);
	pthread_join(wd->thread, NULL);
	wd->running = 0;
	if (disarm && write(wd->fd, "V", 1) < 0)
		rlog(RLOG_ERR, "watchdog magic close failed: %s", strerror(errno));
	/* Without the magic character the close leaves it running (unless the
	 * kernel has nowayout=0 semantics and the driver stops on close). */
	close(wd->fd);
	wd->fd = -1;
}
