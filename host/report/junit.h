/* SPDX-License-Identifier: MIT */
/*
 * Results of "bootmark run" for CI: JUnit XML and TAP 13.  One case per
 * kernel x filesystem x test label (E records name tests by label), plus
 * one "boot" case per kernel that fails when the boot did not complete.
 */
#ifndef BM_HOST_JUNIT_H
#define BM_HOST_JUNIT_H

#include <stdio.h>

#include "results.h"

#define BM_CONSOLE_TAIL 40  /* console lines a failed boot carries */

struct bm_ci_boot {
	const char *kernel;          /* boot label: "6.1.0-53-amd64", "6.1.0-53-amd64.b2" */
	const struct bm_results *r;
	const char *console;         /* tail of console.log, or NULL */
};

/* XML text or attribute content, valid for any input bytes: <&>"' as
 * entities; C0/C1 controls, DEL, bytes that are not strict UTF-8 (RFC 3629:
 * overlong forms, surrogates, above U+10FFFF) and the non-characters
 * (U+FDD0..U+FDEF, U+xxFFFE/F) as '?'; CR dropped. */
void bm_xml_escape(FILE *f, const char *s, size_t len);
/* The start of the last n lines of text[0..len). */
const char *bm_tail_lines(const char *text, size_t len, int n);
/* Reads the last BM_CONSOLE_TAIL lines of dir/console.log (malloc'd) or NULL. */
char *bm_console_tail(const char *dir);

/* Return 0 or -EIO when writing failed. */
int bm_junit_write(FILE *f, const struct bm_ci_boot *b, size_t n);
int bm_tap_write(FILE *f, const struct bm_ci_boot *b, size_t n);

#endif
