// SPDX-License-Identifier: MIT
/*
 * host/backend/qemu/boot.c's disk image: the size asked for, zeros, sparse
 * past its first 4 KiB, and those 4 KiB data, not a hole (QEMU probes its
 * O_DIRECT alignment there: a hole made it pad 1 KiB writes, and QEMU 7.2
 * failed merged requests so padded; boot.c).  Never written through a link.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "qemu_boot.h"
#include "tap.h"
#include "testutil.h"
#include "util.h"

int main(void)
{
	char dir[] = "/tmp/bm-diskimg-XXXXXX", path[64], lnk[64], buf[4096], zero[4096] = { 0 };
	struct stat st;
	off_t data;
	int fd;

	tap_plan(0);
	tu_mkdtemp(dir);
	snprintf(path, sizeof(path), "%s/disk.img", dir);
	TAP_EQ_INT(bm_boot_make_disk(path, 64ull << 20), 0, "a 64 MiB image");
	fd = open(path, O_RDONLY);
	tap_ok(fd >= 0 && !fstat(fd, &st), "it opens");
	TAP_EQ_INT(st.st_size, 64ll << 20, "its size");
	data = lseek(fd, 0, SEEK_DATA);
	TAP_EQ_INT(data, 0, "its first bytes are data, not a hole (SEEK_DATA at 0)");
	tap_ok(pread(fd, buf, sizeof(buf), 0) == (ssize_t)sizeof(buf) && !memcmp(buf, zero, 4096),
	       "and zeros");
	tap_ok(st.st_blocks * 512 < (1 << 20), "the rest is sparse (%lld bytes allocated)",
	       (long long)st.st_blocks * 512);
	close(fd);
	snprintf(lnk, sizeof(lnk), "%s/link.img", dir);
	if (symlink(path, lnk))
		tap_bail("cannot make a link");
	TAP_EQ_INT(bm_boot_make_disk(lnk, 1 << 20), 0, "a link at the name goes as a name");
	tap_ok(!lstat(lnk, &st) && S_ISREG(st.st_mode) && st.st_size == 1 << 20,
	       "a new image in its place");
	TAP_EQ_INT(stat(path, &st) ? -1 : st.st_size, 64ll << 20, "the link's target is untouched");
	snprintf(path, sizeof(path), "%s/tiny.img", dir);
	TAP_EQ_INT(bm_boot_make_disk(path, 512), 0, "an image smaller than 4 KiB");
	TAP_EQ_INT(stat(path, &st) ? -1 : st.st_size, 512, "keeps its size");
	bm_rm_rf(dir);
	return tap_done();
}
