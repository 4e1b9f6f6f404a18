/* SPDX-License-Identifier: MIT */
/*
 * The deterministic kernel tree: a tree of directories and files shaped
 * like Linux 6.1's source (file count, directory count, the depth of files
 * and directories, the distribution of file sizes; docs/workloads.md has
 * the measured numbers), with names and C-like text that depend only on
 * the seed and the scale.  ktree_stream_read() serves it as a ustar
 * archive, made on the fly from memory.
 */
#ifndef BM_RUNNER_KTREE_GEN_H
#define BM_RUNNER_KTREE_GEN_H

#include <stdint.h>
#include <sys/types.h>

#include "ustar.h"

/* The measured tree at scale 1 (Debian linux-source-6.1, 6.1.192). */
#define KTREE_REF_FILES 78579u
#define KTREE_REF_DIRS 5095u
#define KTREE_REF_BYTES 1298682509ull
#define KTREE_SCALE_MIN_PPM 100u        /* scale 0.0001 */
#define KTREE_SCALE_MAX_PPM 4000000u    /* scale 4 */
#define KTREE_SCALE_SEED004_PPM 180000u /* scale=seed004: the tree seed 004 untarred */
#define KTREE_ROOT "linux"              /* top directory of the archive */

struct ktree_dir {
	uint32_t parent;        /* index into dirs; the root has itself */
	uint8_t depth;          /* 0: KTREE_ROOT itself */
	char name[16];
};

struct ktree_file {
	uint32_t dir;
	uint32_t off;           /* where its text starts in the text pool */
	uint64_t size;
	char name[24];
};

struct ktree {
	uint32_t ndirs, nfiles; /* dirs includes the root */
	uint64_t bytes;         /* sum of file sizes */
	struct ktree_dir *dirs;
	struct ktree_file *files;
	uint32_t *order;        /* archive order: dirs as i, files as ndirs + i */
};

/* "0.02" -> 20000 parts per million; -EINVAL outside [0.0001, 4]. */
int ktree_parse_scale(const char *s, uint32_t *ppm);
/* Largest-remainder rounding of counts[i] * ppm / 10^6 (n buckets) to
 * integer quotas summing to the rounded total; returns that total. */
uint64_t ktree_quotas(const uint32_t *counts, unsigned n, uint32_t ppm, uint32_t *quota);

int ktree_build(struct ktree *t, uint64_t seed, uint32_t ppm);
void ktree_free(struct ktree *t);
/* "linux/drivers/foo3/bar1c.c" of entry order[k]; -ENAMETOOLONG if > len. */
int ktree_path(const struct ktree *t, uint32_t ent, char *buf, size_t len);
/* The first len bytes of file f's text into buf (len <= its size). */
void ktree_file_text(const struct ktree *t, uint32_t f, uint64_t pos, void *buf, size_t len);

/* The archive as a byte stream. */
struct ktree_stream {
	const struct ktree *t;
	uint32_t k;             /* next entry of t->order */
	uint32_t cur;           /* entry being served */
	uint64_t pos, len;      /* position in, length of its header + padded data */
	uint64_t size;          /* its data bytes */
	int state;              /* 0 entries, 1 end blocks, 2 done */
	unsigned char hdr[USTAR_BLOCK];
	int err;
};

void ktree_stream_init(struct ktree_stream *s, const struct ktree *t);
/* A ustar_read_fn over a struct ktree_stream. */
ssize_t ktree_stream_read(void *stream, void *buf, size_t len);

#endif
