/* SPDX-License-Identifier: MIT */
/* What host/report/kcidb.c and host/report/kcidb_tests.c share (kcidb.h is the interface). */
#ifndef BM_KCIDB_INT_H
#define BM_KCIDB_INT_H

#include <stddef.h>

#include "json.h"
#include "kcidb.h"

/* meta.json's key of b as text; "" when absent or null. */
void bm_kcidb_meta(const struct bm_kcidb_boot *b, const char *key, char *out, size_t len);
/* "<origin>:<id>" */
void bm_kcidb_id(const struct bm_kcidb *k, char *buf, size_t len, const char *id);
/* Every test of boot b, the boot's own last.  0 or -ENOMEM. */
int bm_kcidb_boot_tests(struct bm_json *j, const struct bm_kcidb *k,
			const struct bm_kcidb_boot *b);

#endif
