/* SPDX-License-Identifier: MIT */
/*
 * A real Debian kernel for the unit tests that read one (its bzImage header,
 * its module tree): taken from bootmark's kernel cache, the one `make run`
 * and `bootmark kernel fetch` fill ($BOOTMARK_CACHE, else ~/.cache/bootmark),
 * and fetched into it when missing, as bootmark run would.  Only a kernel
 * that cannot be had (no network, no apt) is a skip, and the skip says why.
 */
#ifndef BM_TESTKERNEL_H
#define BM_TESTKERNEL_H

#include <stdio.h>
#include <string.h>

#include "kernel.h"

/* 0 and *k filled, or -errno with why holding the skip's reason. */
static inline int tk_kernel(const char *release, struct bm_kernel *k, char *why, size_t len)
{
	struct bm_kspec spec;
	char err[256], spectext[128];
	int rc;

	snprintf(spectext, sizeof(spectext), "deb:%s", release);
	rc = bm_kspec_parse(&spec, spectext, err, sizeof(err));
	if (rc) {
		snprintf(why, len, "bad spec %s: %.200s", spectext, err);
		return rc;
	}
	/* bootmark's messages go to stderr; the test's TAP stays on stdout */
	rc = bm_kernel_resolve(&spec, 1, k);
	if (rc)
		snprintf(why, len, "kernel %s is not in bootmark's cache and cannot be fetched "
			 "(%s): bootmark kernel fetch %s", release, strerror(-rc), spectext);
	return rc;
}

#endif
