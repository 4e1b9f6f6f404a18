/* SPDX-License-Identifier: MIT */
/*
 * Collects the records of one run from the lines of a serial log and
 * judges whether the run is complete (docs/protocol.md, "Completeness").
 *
 * Records are kept by sequence number.  A second copy with the same bytes
 * is the end-of-run repeat and is merged; a second copy with other bytes
 * is a conflict, kept aside as a flag on the slot so the check can name it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

/* A run writes a few hundred records; a larger seq is damage or hostile input. */
#define STREAM_SEQ_MAX 1000000u
#define MARK_LEN 5  /* "@@B1 ": the run id follows it in a record's text */

/*
 * One kept record: its text as bm_scan() left it in rec->raw (marker to
 * CRC, the CRC in lowercase), which decodes again to the same record.
 */
struct bm_slot {
	unsigned short len;      /* of raw, without its NUL */
	char type;
	unsigned char conflict;  /* another copy of this seq had other bytes */
	char raw[];
};

void bm_stream_init(struct bm_stream *s, const char *run)
{
	memset(s, 0, sizeof(*s));
	s->keep_max = BM_STREAM_KEEP_MAX;
	if (run)
		snprintf(s->run, sizeof(s->run), "%s", run);
}

void bm_stream_free(struct bm_stream *s)
{
	for (size_t i = 0; i < s->cap; i++)
		free(s->by_seq ? s->by_seq[i] : NULL);
	free(s->by_seq);
	free(s->scratch);
	s->by_seq = NULL;
	s->scratch = NULL;
	s->cap = 0;
	s->kept = 0;
}

static const struct bm_slot *slot_at(const struct bm_stream *s, uint64_t seq)
{
	if (seq == 0 || seq > s->cap)
		return NULL;
	return s->by_seq[seq - 1];
}

char bm_stream_type(const struct bm_stream *s, uint64_t seq)
{
	const struct bm_slot *sl = slot_at(s, seq);

	return sl ? sl->type : 0;
}

const struct bm_record *bm_stream_get(const struct bm_stream *s, uint64_t seq)
{
	const struct bm_slot *sl = slot_at(s, seq);
	size_t pos = 0;

	/* the text was a valid record when it was kept: it decodes again */
	if (!sl || !s->scratch || bm_scan(sl->raw, sl->len, &pos, s->scratch) != 1)
		return NULL;
	return s->scratch;
}

static int stream_grow(struct bm_stream *s, uint64_t seq)
{
	size_t cap = s->cap ? s->cap : 64;
	struct bm_slot **p;

	while (cap < seq)
		cap *= 2;
	p = realloc(s->by_seq, cap * sizeof(*p));
	if (!p)
		return -ENOMEM;
	memset(p + s->cap, 0, (cap - s->cap) * sizeof(*p));
	s->by_seq = p;
	s->cap = cap;
	return 0;
}

static void stream_recount_max(struct bm_stream *s)
{
	s->max_seq = 0;
	for (size_t i = 0; i < s->cap; i++)
		if (s->by_seq[i])
			s->max_seq = i + 1;
}

/*
 * The run id was left open and the first HELLO names it: records of other
 * runs stored meanwhile (a stale tail of an older log) are dropped now.
 */
static void stream_adopt_run(struct bm_stream *s, const char *run)
{
	memcpy(s->run, run, sizeof(s->run));
	for (size_t i = 0; i < s->cap; i++) {
		struct bm_slot *sl = s->by_seq[i];

		if (sl && strncmp(sl->raw + MARK_LEN, run, BM_RUN_LEN)) {
			s->kept -= sl->len;
			free(sl);
			s->by_seq[i] = NULL;
			s->foreign++;
		}
	}
	stream_recount_max(s);
}

/* 1 stored, 0 a copy of a stored one (or not kept), -ENOMEM */
static int stream_store(struct bm_stream *s, const struct bm_record *rec)
{
	size_t len = strlen(rec->raw);
	struct bm_slot **at, *sl;
	int rc;

	if (rec->seq > s->cap && (rc = stream_grow(s, rec->seq)))
		return rc;
	at = &s->by_seq[rec->seq - 1];
	if (*at) {
		/* the run id is part of the text */
		if (strcmp((*at)->raw, rec->raw)) {
			(*at)->conflict = 1;
			s->conflicts++;
		}
		return 0;
	}
	if (s->kept + len > s->keep_max) {
		s->unkept++;
		return 0;
	}
	sl = malloc(sizeof(*sl) + len + 1);
	if (!sl)
		return -ENOMEM;
	sl->len = (unsigned short)len;
	sl->type = rec->type;
	sl->conflict = 0;
	memcpy(sl->raw, rec->raw, len + 1);
	*at = sl;
	s->kept += len;
	if (rec->seq > s->max_seq)
		s->max_seq = rec->seq;
	return 1;
}

static void stream_note(struct bm_stream *s, const struct bm_record *rec)
{
	const char *n = bm_rec_get(rec, "n");
	char *end;

	if (rec->type == BM_REC_HELLO)
		s->hellos++;
	if (rec->type != BM_REC_END || s->end_n)
		return;
	s->end_n = UINT64_MAX;  /* present but unreadable: the check says so */
	if (n && *n >= '1' && *n <= '9') {
		unsigned long long v = strtoull(n, &end, 10);

		if (!*end && v < UINT64_MAX)
			s->end_n = v;
	}
}

/* Returns 1 when the record is ours and newly stored, 0 otherwise. */
static int stream_take(struct bm_stream *s, const struct bm_record *rec)
{
	int rc;

	if (rec->seq > STREAM_SEQ_MAX) {
		s->bad_crc++;
		return 0;
	}
	if (!s->run[0] && rec->type == BM_REC_HELLO)
		stream_adopt_run(s, rec->run);
	if (s->run[0] && strcmp(s->run, rec->run)) {
		s->foreign++;
		return 0;
	}
	rc = stream_store(s, rec);
	if (rc > 0)
		stream_note(s, rec);
	return rc;
}

/* Returns how many new records of this run the line held, or -ENOMEM. */
int bm_stream_feed(struct bm_stream *s, const char *line, size_t len)
{
	size_t pos = 0;
	int rc, taken = 0;

	if (!s->scratch && !(s->scratch = malloc(sizeof(*s->scratch))))
		return -ENOMEM;
	while ((rc = bm_scan(line, len, &pos, s->scratch)) != 0) {
		if (rc < 0) {
			s->bad_crc++;
			continue;
		}
		rc = stream_take(s, s->scratch);
		if (rc < 0)
			break;
		taken += rc;
	}
	return rc < 0 ? rc : taken;
}

/* What one pass over the stored records finds. */
struct tally {
	uint64_t first_missing, nmissing, first_conflict, end_seq, hello_seq;
	unsigned nres, nerr, nend;
};

static void stream_tally(const struct bm_stream *s, struct tally *t)
{
	memset(t, 0, sizeof(*t));
	for (uint64_t seq = 1; seq <= s->max_seq; seq++) {
		const struct bm_slot *r = slot_at(s, seq);

		if (!r) {
			t->first_missing = t->first_missing ? t->first_missing : seq;
			t->nmissing++;
			continue;
		}
		if (r->conflict && !t->first_conflict)
			t->first_conflict = seq;
		t->nres += r->type == BM_REC_RESULT;
		t->nerr += r->type == BM_REC_ERROR;
		if (r->type == BM_REC_END) {
			t->nend++;
			t->end_seq = seq;
		}
		if (r->type == BM_REC_HELLO && !t->hello_seq)
			t->hello_seq = seq;
	}
}

static int verdict(char *why, size_t whylen, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int verdict(char *why, size_t whylen, int rc, const char *fmt, ...)
{
	va_list ap;

	if (why && whylen) {
		va_start(ap, fmt);
		vsnprintf(why, whylen, fmt, ap);
		va_end(ap);
	}
	return rc;
}

/* The END record's own counts must match what arrived. */
static int check_end_counts(const struct bm_stream *s, const struct tally *t,
			    char *why, size_t whylen)
{
	const struct bm_record *end = bm_stream_get(s, t->end_seq);
	const char *res = bm_rec_get(end, "results"), *err = bm_rec_get(end, "errors");
	char buf[24];

	snprintf(buf, sizeof(buf), "%u", t->nres);
	if (!res || strcmp(res, buf))
		return verdict(why, whylen, -EPROTO, "end results=%s but %u result records",
			       res ? res : "(none)", t->nres);
	snprintf(buf, sizeof(buf), "%u", t->nerr);
	if (!err || strcmp(err, buf))
		return verdict(why, whylen, -EPROTO, "end errors=%s but %u error records",
			       err ? err : "(none)", t->nerr);
	return 0;
}

static int check_end(const struct bm_stream *s, const struct tally *t,
		     char *why, size_t whylen)
{
	unsigned long long n = s->end_n;

	if (!s->end_n)
		return verdict(why, whylen, -EPROTO, "no end record");
	if (s->end_n == UINT64_MAX)
		return verdict(why, whylen, -EPROTO, "end record without a valid n");
	if (t->nend > 1)
		return verdict(why, whylen, -EPROTO, "%u end records", t->nend);
	if (s->max_seq > s->end_n)
		return verdict(why, whylen, -EPROTO, "end n=%llu but seq %llu seen",
			       n, (unsigned long long)s->max_seq);
	if (t->end_seq != s->end_n)
		return verdict(why, whylen, -EPROTO, "end n=%llu but the end record is seq %llu",
			       n, (unsigned long long)t->end_seq);
	return 0;
}

int bm_stream_check(const struct bm_stream *s, char *why, size_t whylen)
{
	struct tally t;
	int rc;

	if (!s->max_seq)
		return verdict(why, whylen, -ENODATA, "no records");
	if (s->unkept)
		return verdict(why, whylen, -EPROTO, "%u records past the %zu KiB of records "
			       "a run may hold were not kept (docs/protocol.md)", s->unkept,
			       s->keep_max >> 10);
	stream_tally(s, &t);
	if (t.first_conflict)
		return verdict(why, whylen, -EPROTO, "conflicting copies of seq %llu",
			       (unsigned long long)t.first_conflict);
	if (!s->hellos)
		return verdict(why, whylen, -EPROTO, "no hello");
	if (s->hellos > 1)
		return verdict(why, whylen, -EPROTO, "%u hello records (the guest rebooted)",
			       s->hellos);
	if (t.hello_seq != 1)
		return verdict(why, whylen, -EPROTO, "hello is seq %llu, not 1",
			       (unsigned long long)t.hello_seq);
	if ((rc = check_end(s, &t, why, whylen)))
		return rc;
	if (t.nmissing == 1)
		return verdict(why, whylen, -EPROTO, "missing seq %llu",
			       (unsigned long long)t.first_missing);
	if (t.nmissing)
		return verdict(why, whylen, -EPROTO, "missing seq %llu (%llu missing in all)",
			       (unsigned long long)t.first_missing,
			       (unsigned long long)t.nmissing);
	if ((rc = check_end_counts(s, &t, why, whylen)))
		return rc;
	return verdict(why, whylen, 0, "complete: %llu records",
		       (unsigned long long)s->max_seq);
}
