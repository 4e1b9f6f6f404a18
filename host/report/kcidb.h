/* SPDX-License-Identifier: MIT */
/*
 * "bootmark export --format kcidb": boots as one KCIDB I/O document
 * (KernelCI's common report database; schema v5 of kernelci/kcidb-io,
 * kcidb_io/schema/v05_00.py).  A checkout and a build per kernel, one test
 * per measured value with a "number", one per error record, one per
 * planned test that never ran, and one per boot (path "bootmark") whose
 * status is the boot's class.  docs/results.md, "KCIDB", has the mapping.
 */
#ifndef BM_KCIDB_H
#define BM_KCIDB_H

#include <stddef.h>
#include <stdio.h>

#include "results.h"

/* The schema version the document claims.  Every field bootmark writes is
 * in v5.0 with the type and pattern it keeps up to v5.3, and a receiver of
 * any v5.x accepts a v5.0 document (its "minor" may be at most its own). */
#define BM_KCIDB_MAJOR 5
#define BM_KCIDB_MINOR 0
#define BM_KCIDB_ORIGIN "bootmark"
#define BM_KCIDB_ORIGIN_MAX 64

#define BM_KCIDB_ID_MAX 400

struct bm_kcidb_boot {
	char dir[4096];
	char label[256];
	char *meta;                     /* meta.json's text; NULL without one */
	size_t metalen;
	size_t build;                   /* its index in bm_kcidb.builds */
	struct bm_results r;
};

/* A kernel: its checkout (the source: a Debian package's version, or a
 * local build's release) and its build (the image), under one id. */
struct bm_kcidb_build {
	char id[BM_KCIDB_ID_MAX];       /* without the origin */
	char release[128];
	char package[160], version[64], archive[64];  /* "" for a local build */
	char config[4096];              /* the kernel's config file, "" unknown */
	char vmlinuz_sha[65];
	char arch[32];                  /* uname -m of its first boot with a hello */
	const char *status;             /* the summary of its boots' classes */
};

struct bm_kcidb {
	char origin[BM_KCIDB_ORIGIN_MAX];
	char configs[4096];             /* where suites are looked up to name planned tests */
	struct bm_kcidb_boot *boots;
	size_t nboots;
	struct bm_kcidb_build *builds;  /* one per kernel, in order of first boot */
	size_t nbuilds;
};

/* KCIDB's origin pattern, [a-z0-9_]+ (v03_00.py origin_pattern). */
int bm_kcidb_origin_ok(const char *origin);
/* configs: the folder of suites/ used to name tests that never ran ("" = none,
 * NULL = the tree's, <dir of the binary>/../configs). */
void bm_kcidb_init(struct bm_kcidb *k, const char *origin, const char *configs);
/* One boot folder (its meta.json is read when there) with its results, which
 * k takes over (r is left empty).  0 or -ENOMEM. */
int bm_kcidb_add(struct bm_kcidb *k, const char *dir, const char *label, struct bm_results *r);
/* The whole document; 0 or -EIO. */
int bm_kcidb_write(const struct bm_kcidb *k, FILE *f);
void bm_kcidb_free(struct bm_kcidb *k);

/* The status of the test of a whole boot, from its class alone. */
const char *bm_kcidb_class_status(enum bm_status st);
/* The status of the test an E record of class cls stands for. */
const char *bm_kcidb_error_status(const char *cls);
/* KCIDB's summary rule: the status of higher priority (FAIL, ERROR, MISS,
 * PASS, DONE, SKIP); NULL counts as none. */
const char *bm_kcidb_worse(const char *a, const char *b);
/* s as one component of a test path: [a-zA-Z0-9_-], any other byte '_'. */
void bm_kcidb_path_part(char *buf, size_t len, const char *s);

#endif
