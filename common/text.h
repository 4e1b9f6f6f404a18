/* SPDX-License-Identifier: MIT */
/*
 * Text from the guest made safe to print (docs/reliability.md, "Guest text is
 * data").  Record values, console lines and console tails come from a serial
 * line: any byte but NUL in a value, any byte at all in a log.  Every place
 * that prints such text (terminal, TAP, JUnit, HTML, JSON, CSV, messages) sees
 * it through this one function, so none of them passes on an escape sequence
 * (ESC ] 0 ; title BEL), a carriage return that overwrites the line, a C1
 * control or bytes that are not UTF-8.
 *
 * What is kept: printable ASCII and strict UTF-8 (RFC 3629: no overlong forms,
 * no surrogates, nothing above U+10FFFF) without C1 controls and
 * non-characters.  Each control byte (C0, DEL), each bad sequence and each byte
 * that starts none becomes one '?'; a carriage return is dropped (CRLF logs);
 * newline and tab stay only in BM_TEXT_LINES mode (a console tail).  A NUL is
 * a control like any other: it never ends the text.
 */
#ifndef BM_TEXT_H
#define BM_TEXT_H

#include <stddef.h>
#include <stdio.h>

#define BM_TEXT_LINES 1u  /* keep '\n' and '\t' (several lines); else one line */

enum bm_text_kind { BM_TEXT_DROP = -1, BM_TEXT_BAD = 0, BM_TEXT_KEEP = 1 };

/* The next character of s[0..len) (len > 0): *n bytes to keep as they are,
 * to print as one '?' (BAD), or to leave out (DROP). */
enum bm_text_kind bm_text_step(const unsigned char *s, size_t len, unsigned flags, size_t *n);
/* s[0..len) made safe into dst (at most dstlen - 1 bytes, never a cut
 * character, NUL-terminated); returns its length. */
size_t bm_text_safe(char *dst, size_t dstlen, const char *s, size_t len, unsigned flags);
/* The same in place on a C string (the safe text is never longer). */
void bm_text_clean(char *s, unsigned flags);
/* s[0..len) made safe, written to f. */
void bm_text_fput(FILE *f, const char *s, size_t len, unsigned flags);

#endif
