// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the runner's configuration (runner/config.c through
 * common/opts.c) and the profile and suite parsers (common/profile.c).
 * bootmark.conf, the profiles and the suites are files in the image, but the
 * kernel command line is typed by people and by bisect scripts, and a
 * PXE box may take it from anywhere.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void runner_cfg(const char *conf, const char *cmdline)
{
	struct runner_cfg c;
	char err[256], dump[4096];

	if (runner_cfg_load(&c, conf, "fuzz.conf", cmdline, err, sizeof(err)))
		return;
	/* what loaded must pass its own check and print within bounds */
	if (runner_cfg_check(&c, err, sizeof(err)))
		abort();
	runner_cfg_dump(&c, dump, sizeof(dump));
	runner_cfg_hash(&c);
}

static void profiles(const char *text)
{
	struct bm_fsprof p;
	struct bm_suite *s = malloc(sizeof(*s));
	char err[256], buf[512], *argv[BM_ARGV_MAX];

	if (!s)
		abort();
	if (!bm_fsprof_parse(&p, "fuzz", text, err, sizeof(err)))
		bm_fsprof_mkfs_argv(&p, "/dev/vdb", buf, sizeof(buf), argv, BM_ARGV_MAX);
	bm_suite_parse(s, "fuzz", text, err, sizeof(err));
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* These parsers take C strings: a NUL-terminated copy of the exact
	 * bytes, so ASan sees a read past the terminator. */
	char *text = malloc(size + 1);
	const char *second;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';

	runner_cfg(text, NULL);
	runner_cfg(NULL, text);
	/* An embedded NUL splits the input: file text first, command line
	 * after it, so the fuzzer can reach an override of a file value. */
	second = memchr(text, '\0', size);
	if (second)
		runner_cfg(text, second + 1);
	profiles(text);
	free(text);
	return 0;
}
