// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the dbench loadfile parser (runner/dbench_load.c).
 * client.txt comes from the build host's dbench package or any file given
 * with loadfile=, so the parser must reject, never crash on, what it does
 * not know.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dbench_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* db_load_parse() takes a length: an exact-size copy, no NUL after
	 * it, so ASan catches a read past the end of the text. */
	char *text = malloc(size ? size : 1);
	struct db_load l;
	char err[256];
	size_t i;

	if (!text)
		abort();
	memcpy(text, data, size);
	if (!db_load_parse(&l, text, size, "fuzz", err, sizeof(err))) {
		/* every op must point inside the pool it came with
		 * (offset 0 is "none", and the pool is empty without names) */
		for (i = 0; i < l.n; i++) {
			const struct db_op *op = &l.op[i];

			if (op->kind >= DB_NKINDS || (op->name && op->name >= l.pool_len) ||
			    (op->name2 && op->name2 >= l.pool_len))
				abort();
			if (op->name)
				(void)strlen(db_str(&l, op->name));
			if (op->name2)
				(void)strlen(db_str(&l, op->name2));
		}
		db_load_free(&l);
	}
	free(text);
	return 0;
}
