/* SPDX-License-Identifier: MIT */
/*
 * dbench 4.0 NBENCH loadfiles (client.txt): parsing into an op array, and
 * a generated stand-in when the image carries no loadfile.
 */
#ifndef BM_RUNNER_DBENCH_LOAD_H
#define BM_RUNNER_DBENCH_LOAD_H

#include <stddef.h>
#include <stdint.h>

enum db_kind {
	DB_NTCREATEX, DB_CLOSE, DB_READX, DB_WRITEX, DB_FLUSH, DB_RENAME,
	DB_UNLINK, DB_MKDIR, DB_RMDIR, DB_DELTREE, DB_QPATHINFO, DB_QFILEINFO,
	DB_QFSINFO, DB_SFILEINFO, DB_FINDFIRST, DB_LOCKX, DB_UNLOCKX, DB_NKINDS
};

/* The name dbench's loadfile and per-op table use: "NTCreateX". */
extern const char *const db_kind_name[DB_NKINDS];

struct db_op {
	uint8_t kind;        /* enum db_kind */
	uint8_t ok;          /* expected status is NT_STATUS_OK */
	uint32_t line;       /* in the loadfile, from 1 */
	double t;            /* leading timestamp, 0 when none */
	uint32_t name, name2;/* offsets into the string pool; 0 = none */
	int64_t a[4];        /* numeric fields in loadfile order */
};

struct db_load {
	struct db_op *op;
	size_t n, cap;
	char *pool;          /* paths with '\' turned to '/', NUL-terminated */
	size_t pool_len, pool_cap;
};

/* Parses loadfile text; 0, or -EINVAL with err naming the line and the
 * problem ("line 12: ReadX: field 3 \"4x\" is not a number"). */
int db_load_parse(struct db_load *l, const char *text, size_t len,
		  const char *origin, char *err, size_t errlen);
/* Reads path (xz-compressed when it ends in ".xz": through
 * "/bin/busybox xzcat" or xzcat from PATH) and parses it. */
int db_load_file(struct db_load *l, const char *path, char *err, size_t errlen);
/* The generated loadfile text (malloc'd, deterministic: same nops, same
 * bytes): a mix close to client.txt's, see docs/workloads.md. */
int db_load_generate(char **text, size_t *len, unsigned nops);
void db_load_free(struct db_load *l);
static inline const char *db_str(const struct db_load *l, uint32_t off)
{
	return off ? l->pool + off : NULL;
}

#endif
