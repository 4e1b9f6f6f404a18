// SPDX-License-Identifier: MIT
/*
 * Brings up the loopback interface, as `ip link set lo up` would, for the
 * workloads that talk TCP/UDP to 127.0.0.1 (AIM7's tcp_test, udp_test).
 * The kernel configures 127.0.0.1/8 on lo by itself once it is up.  On a
 * host lo is already up and nothing is changed (no privilege needed).
 */
#include <errno.h>
#include <net/if.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "netlo.h"

int bm_netlo_up(void)
{
	struct ifreq ifr;
	int fd, ret = 0;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr)) {
		ret = -errno;
		goto out_close;
	}
	if (ifr.ifr_flags & IFF_UP)
		goto out_close;
	ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr))
		ret = -errno;
out_close:
	close(fd);
	return ret;
}
