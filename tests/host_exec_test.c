/* SPDX-License-Identifier: MIT */
/*
 * bm_run_prog's child keeps its standard streams: a child whose stdout is
 * our stderr (history changes --confirm with --format json runs bootmark
 * run so) still has a stderr, or the next file it opens becomes fd 2 and
 * QEMU refuses it for -add-fd ("fd cannot be a standard I/O stream").
 */
#include <stdio.h>
#include <sys/wait.h>

#include "tap.h"
#include "util.h"

static int exit_of(char *const argv[], int out_fd)
{
	int status;

	if (bm_run_prog(argv, NULL, out_fd, NULL, NULL, &status))
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(void)
{
	char *const fd2[] = { "test", "-e", "/proc/self/fd/2", NULL };
	char *const fd1[] = { "test", "-e", "/proc/self/fd/1", NULL };

	tap_plan(3);
	TAP_EQ_INT(exit_of(fd2, -1), 0, "a child of ours has a stderr");
	TAP_EQ_INT(exit_of(fd2, 2), 0, "with its stdout sent to our stderr, it still has a stderr");
	TAP_EQ_INT(exit_of(fd1, 2), 0, "and a stdout");
	return tap_done();
}
