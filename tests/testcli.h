/* SPDX-License-Identifier: MIT */
/*
 * A command of build/bootmark run in the test process (its bm_cmd_<name>), its
 * stdout and stderr caught: the unit tests check what a user sees without a
 * binary or a shell around it.
 */
#ifndef BM_TESTCLI_H
#define BM_TESTCLI_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile.h"
#include "tap.h"

/* cmd with the NULL-terminated args (args[0] the command's name); its stdout and
 * stderr in *out (malloc'd, NUL-terminated, *len bytes); its exit code. */
static inline int tu_run_cmd(int (*cmd)(int, char **), const char *const *args, char **out,
			     size_t *len)
{
	char path[] = "/tmp/bm-cmd-out.XXXXXX", *argv[16], *mine[16];
	int fd = mkstemp(path), o1 = dup(1), o2 = dup(2), rc, argc;
	size_t n = 0;

	if (fd < 0 || o1 < 0 || o2 < 0)
		tap_bail("cannot redirect stdout");
	for (argc = 0; args[argc] && argc < 15; argc++)
		argv[argc] = mine[argc] = strdup(args[argc]);  /* a command may reorder argv */
	argv[argc] = NULL;
	fflush(stdout);
	fflush(stderr);
	dup2(fd, 1);
	dup2(fd, 2);
	rc = cmd(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(o1, 1);
	dup2(o2, 2);
	close(o1);
	close(o2);
	close(fd);
	while (argc--)
		free(mine[argc]);
	if (bm_read_file(path, out, &n, 1 << 24))
		*out = strdup("");
	unlink(path);
	if (len)
		*len = n;
	return rc;
}

#endif
