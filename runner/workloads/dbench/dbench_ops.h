/* SPDX-License-Identifier: MIT */
/* dbench 4.0's fileio backend: one loadfile operation -> its syscalls. */
#ifndef BM_RUNNER_DBENCH_OPS_H
#define BM_RUNNER_DBENCH_OPS_H

#include <limits.h>
#include <stdint.h>

#include "dbench_load.h"

#define DB_FTABLE_MAX 200   /* dbench's MAX_FILES */
#define DB_DIRBUF 32768     /* glibc's opendir() buffer on ext4 (dbench_ops.c db_scan) */

struct db_opstat {
	uint64_t n, sum_ns, max_ns;
};

struct db_client {
	int id;                     /* from 0: "client1" -> "client<id>" */
	const char *dir;            /* dbench -D */
	const struct db_load *l;
	int sync_open;              /* dbench -s: O_SYNC on every open */
	int sync_dirs;              /* dbench -S: fdatasync the folder after unlink/rmdir/rename */
	struct {
		int64_t handle;     /* the loadfile's fnum; 0 = free slot */
		int fd;
		char *name;
	} ft[DB_FTABLE_MAX];
	unsigned char *buf;         /* zeroed, as large as the largest ReadX/WriteX */
	char *dirbuf;               /* DB_DIRBUF of directory entries */
	uint64_t mism;              /* statuses that differ where dbench only prints */
	int cleaned;                /* db_cleanup ran */
	char path[2][PATH_MAX];
	char err[320];              /* what made db_exec fail */
};

/* Largest ReadX/WriteX size in l (the client buffer's size). */
uint64_t db_max_io(const struct db_load *l);
int db_client_init(struct db_client *c, int id, const char *dir, const struct db_load *l,
		   int sync_open, int sync_dirs);
void db_client_free(struct db_client *c);
/* Runs one operation; *bytes gets what dbench adds to the client's byte
 * count (ReadX/WriteX size).  0, or -errno where dbench exits (a handle
 * that was never opened, a short write, Unlink/Rename/Rmdir with another
 * status than expected), c->err naming the loadfile line. */
int db_exec(struct db_client *c, const struct db_op *op, uint64_t *bytes);
/* dbench's cleanup: the files (not the folders) under dir/clients/client<id>. */
void db_deltree(const char *path);
void db_cleanup(struct db_client *c);
/* dir + path with every "client1" turned into "client<id>". */
void db_path(char *out, size_t len, const char *dir, const char *path, int id);

#endif
