// SPDX-License-Identifier: MIT
/*
 * The floor of "make bench": a PID 1 that writes one line to the results
 * UART and powers off.  The kernel, QEMU flags and port are the same as
 * for the real image, so the difference in time to the first line is
 * what the bootmark image itself costs (initrd size, runner start-up).
 * On arm64 the line goes to the kernel's console instead (PORT says why).
 * The line carries the guest's clock (CLOCK_BOOTTIME, as the runner's
 * t_hello), so the host can tell firmware and loading from the kernel.
 * No stdio: it would double the binary, and the initrd it is loaded from.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <time.h>
#include <unistd.h>

#define LINE "bootmark-trivial-init t="

/*
 * amd64: ttyS1, the UART the records take.  arm64's virt machine has one
 * UART for the kernel, and the records take a virtio console, hvc0, which
 * Debian's 6.1 kernel has only as a module (virtio_console, with virtio_pci
 * under it): an init that loads no module has no hvc0 there, and where the
 * driver is built in (6.12) the port still appears later, once the device
 * has announced it on its control queue.  So the floor writes to the
 * kernel's console (ttyAMA0, the PL011, built in), the same on every
 * kernel, and bringing the records' port up counts as the image's cost:
 * the real appliance pays it before its HELLO (docs/bench.md).
 */
#ifdef __aarch64__
#define PORT "/dev/console"
#else
#define PORT "/dev/ttyS1"
#endif

/* "S.mmm\n" at p; returns the end. */
static char *put_time(char *p, const struct timespec *ts)
{
	char digits[24];
	long long s = ts->tv_sec;
	long ms = ts->tv_nsec / 1000000;
	int n = 0;

	do
		digits[n++] = (char)('0' + s % 10);
	while ((s /= 10) && n < (int)sizeof(digits));
	while (n)
		*p++ = digits[--n];
	*p++ = '.';
	*p++ = (char)('0' + ms / 100);
	*p++ = (char)('0' + ms / 10 % 10);
	*p++ = (char)('0' + ms % 10);
	*p++ = '\n';
	return p;
}

int main(void)
{
	char line[64] = LINE, *end;
	struct timespec ts;
	int fd;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	end = put_time(line + strlen(LINE), &ts);
	/* The kernel mounts devtmpfs itself only for a real root, not an initramfs. */
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	fd = open(PORT, O_WRONLY | O_NOCTTY);
	if (fd >= 0) {
		ssize_t w = write(fd, line, (size_t)(end - line));

		(void)w; /* no one to tell: the host times out */
		close(fd);
	}
	sync();
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}
