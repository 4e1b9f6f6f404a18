/* SPDX-License-Identifier: MIT */
/*
 * bootmark result protocol, version 1 (docs/protocol.md is the specification).
 *
 * One record is one line:
 *
 *     @@B1 <run> <seq> <T> key=value key=value ... #<crc32>
 *
 * run: 8 lowercase hex digits; seq: decimal from 1; T: one type letter.
 * Keys are [a-z0-9_]{1,31}; values are percent-escaped (%XX for '%', space,
 * and every byte outside 0x21..0x7e) so a record never contains a space
 * except as a separator.  The CRC-32 (IEEE 802.3, as zlib's crc32()) covers
 * the bytes from the first '@' up to, not including, the " #" before it and
 * is written as 8 lowercase hex digits.  The marker may start anywhere in a
 * line, because the kernel's printk output interleaves with ours on a
 * shared UART.
 */
#ifndef BM_PROTO_H
#define BM_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define BM_PROTO_MAGIC   "@@B1"
#define BM_PROTO_VERSION 1
#define BM_LINE_MAX      1024  /* whole encoded line, newline included */
#define BM_KEY_MAX       32    /* key incl. NUL */
#define BM_VAL_MAX       512   /* decoded value incl. NUL */
#define BM_KV_MAX        40    /* pairs in one record */
#define BM_RUN_LEN       8

enum bm_rec_type {
	BM_REC_HELLO  = 'H', /* first record: kernel, cmdline, cpu, mem, disk, config hash */
	BM_REC_PHASE  = 'P', /* a phase starts: mkfs, mount, prepare, run, umount */
	BM_REC_BEAT   = 'B', /* heartbeat while a phase runs */
	BM_REC_RESULT = 'R', /* one test's measurements; keys m_<name>=<value>:<unit> */
	BM_REC_ERROR  = 'E', /* class=<config|disk|setup|bench|module|internal> msg=... */
	BM_REC_END    = 'Z', /* last record: n=<seq of this record> */
	BM_REC_METRIC = 'M', /* bootmark.lava=1: id= result= measurement= units= (LAVA) */
};

/* Encoder: build one line in place. */
struct bm_line {
	char buf[BM_LINE_MAX];
	size_t len;
	int err;             /* first error (-E2BIG, -EINVAL); sticky */
};

int bm_line_start(struct bm_line *l, const char *run, uint64_t seq, char type);
int bm_line_add(struct bm_line *l, const char *key, const char *val);
int bm_line_addf(struct bm_line *l, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Appends " #xxxxxxxx\n"; returns the line length or the sticky -errno. */
int bm_line_finish(struct bm_line *l);

/* Decoded record. Values are unescaped. */
struct bm_kv {
	char key[BM_KEY_MAX];
	char val[BM_VAL_MAX];
};

struct bm_record {
	char run[BM_RUN_LEN + 1];
	uint64_t seq;
	char type;
	unsigned nkv;
	struct bm_kv kv[BM_KV_MAX];
	char raw[BM_LINE_MAX];  /* the encoded record, marker to crc, no newline */
};

/*
 * Look for the next record in line[*pos..len).  Returns 1 and advances *pos
 * past it when a valid record was decoded, 0 when no further marker exists,
 * -EBADMSG when a marker was found but the record is malformed or its CRC
 * fails (*pos is advanced past the marker so the caller can continue).
 */
int bm_scan(const char *line, size_t len, size_t *pos, struct bm_record *rec);
const char *bm_rec_get(const struct bm_record *r, const char *key);
/* 1 when run is a run id as the grammar has it: 8 lowercase hex digits. */
int bm_run_id_ok(const char *run);

/*
 * Stream: collects the records of one run from any number of lines.
 * Duplicates with identical bytes (the end-of-run repeat) are merged; a
 * record that was damaged the first time is recovered from its repeat.
 *
 * A record is kept as its encoded text (a few dozen bytes for a heartbeat),
 * not as a decoded struct bm_record (22 KB), and a run keeps at most
 * BM_STREAM_KEEP_MAX bytes of records: memory follows what is kept, and a
 * log of any size costs at most that much (docs/protocol.md, "How the host
 * judges a run").  Records past it are counted in unkept, and the check
 * says so.
 */
#define BM_STREAM_KEEP_MAX (64u << 20)

struct bm_slot;                      /* one kept record (common/stream.c) */

struct bm_stream {
	char run[BM_RUN_LEN + 1];    /* "" = take the run id of the first HELLO */
	struct bm_slot **by_seq;     /* index seq-1; NULL = not seen */
	size_t cap;
	uint64_t max_seq;
	uint64_t end_n;              /* n= of the END record, 0 if none */
	unsigned bad_crc;            /* markers found whose record did not decode */
	unsigned foreign;            /* valid records of another run id */
	unsigned conflicts;          /* same seq, different bytes */
	unsigned hellos;             /* HELLO records seen (a second = reboot) */
	size_t kept;                 /* bytes of record text kept */
	size_t keep_max;             /* BM_STREAM_KEEP_MAX (a test may set less) */
	unsigned unkept;             /* records of the run past keep_max */
	struct bm_record *scratch;   /* what feed and get decode into */
};

void bm_stream_init(struct bm_stream *s, const char *run);
void bm_stream_free(struct bm_stream *s);
int bm_stream_feed(struct bm_stream *s, const char *line, size_t len);
/* 0 when complete: HELLO, END, seq 1..n all present, no conflicts.
 * Otherwise -EPROTO (or -ENODATA when no record at all) and a reason. */
int bm_stream_check(const struct bm_stream *s, char *why, size_t whylen);
/* The record of seq decoded, or NULL.  It lives in the stream's scratch
 * space: valid until the next bm_stream_get or bm_stream_feed on s. */
const struct bm_record *bm_stream_get(const struct bm_stream *s, uint64_t seq);
/* Its type ('R' ...), or 0 when seq was not seen; decodes nothing. */
char bm_stream_type(const struct bm_stream *s, uint64_t seq);

uint32_t bm_crc32(uint32_t crc, const void *buf, size_t len);

#endif
