/* SPDX-License-Identifier: MIT */
/*
 * Building protocol records in unit tests: tu_rec() encodes one record line
 * (CRC, newline) from "k=v k2=v2" pairs, values without spaces.  The result
 * lives in one of 8 rotating buffers, so a test can hold a few at once.
 * tu_put_rec() writes one from an array of pairs, any value, to a file.
 */
#ifndef BM_TESTREC_H
#define BM_TESTREC_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "proto.h"
#include "tap.h"

static inline const char *tu_rec(const char *run, uint64_t seq, char type, const char *pairs)
{
	static char out[8][BM_LINE_MAX];
	static int slot;
	char buf[BM_LINE_MAX], *tok, *save = NULL;
	struct bm_line l;

	bm_line_start(&l, run, seq, type);
	snprintf(buf, sizeof(buf), "%s", pairs);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq)
			tap_bail("tu_rec: a pair without '='");
		*eq = '\0';
		bm_line_add(&l, tok, eq + 1);
	}
	if (bm_line_finish(&l) < 0)
		tap_bail("tu_rec: cannot encode a record");
	slot = (slot + 1) % 8;
	memcpy(out[slot], l.buf, l.len + 1);
	return out[slot];
}

/* One record of run (pairs NULL-terminated, any value bytes but NUL) written
 * to f, CRC and newline included. */
static inline void tu_put_rec(FILE *f, const char *run, uint64_t seq, char type,
			      const char *const *kv)
{
	struct bm_line l;

	bm_line_start(&l, run, seq, type);
	for (; kv && kv[0]; kv += 2)
		bm_line_add(&l, kv[0], kv[1]);
	if (bm_line_finish(&l) < 0)
		tap_bail("tu_put_rec: cannot encode a record");
	fputs(l.buf, f);
}

#endif
