// SPDX-License-Identifier: MIT
/*
 * Capture: console bytes -> lines -> runs.  A run begins with a record of a
 * run id not seen before (its HELLO, unless that was damaged) or with the
 * kernel banner of a reboot; records of a known run id go to that run
 * wherever they appear.  Lines before any run go to the preamble, so
 * nothing read is lost.  Files are written by capture_out.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "util.h"

#define BANNER "Linux version "

void bm_lines_init(struct bm_lines *l, bm_line_fn fn, void *arg)
{
	memset(l, 0, sizeof(*l));
	l->fn = fn;
	l->arg = arg;
}

static void line_end(struct bm_lines *l)
{
	l->lineno++;
	if (l->skipping)
		l->dropped++;
	else
		l->fn(l->arg, l->buf, l->n, l->line_off, l->lineno);
	l->n = 0;
	l->skipping = 0;
}

void bm_lines_feed(struct bm_lines *l, const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++, l->off++) {
		char ch = buf[i];

		if (ch == '\n' && l->cr) {  /* the LF of a CRLF */
			l->cr = 0;
			l->line_off = l->off + 1;
			continue;
		}
		l->cr = ch == '\r';
		if (ch == '\n' || ch == '\r') {
			line_end(l);
			l->line_off = l->off + 1;
			continue;
		}
		if (l->n == sizeof(l->buf))
			l->skipping = 1;
		if (!l->skipping)
			l->buf[l->n++] = ch;
	}
}

void bm_lines_flush(struct bm_lines *l)
{
	if (l->n || l->skipping)
		line_end(l);
}

/* --- damaged records ------------------------------------------------------- */

static int is_hex(int ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
}

static void read_ids(const char *p, size_t n, struct bm_damage *d)
{
	size_t i = 5, k;

	if (n < 5 + BM_RUN_LEN + 2 || p[4] != ' ')
		return;
	for (k = 0; k < BM_RUN_LEN; k++)
		if (!is_hex(p[i + k]) || (p[i + k] >= 'A' && p[i + k] <= 'F'))
			return;
	if (p[i + BM_RUN_LEN] != ' ')
		return;
	memcpy(d->run, p + i, BM_RUN_LEN);
	d->run[BM_RUN_LEN] = '\0';
	for (i += BM_RUN_LEN + 1, k = 0; i < n && p[i] >= '0' && p[i] <= '9' && k < 18; i++, k++)
		d->seq = d->seq * 10 + (uint64_t)(p[i] - '0');
	if (i >= n || p[i] != ' ' || !k || p[i - k] == '0')
		d->seq = 0;
}

/*
 * Why bm_scan refused the record at p: the record runs to the next marker
 * or the end of the line.  Its " #" and eight hex digits present but not
 * matching: bad crc (a flipped byte, a message printed into it); no " #"
 * at all: truncated (the line was cut); anything else: bad framing.
 */
void bm_damage_diagnose(const char *p, size_t n, struct bm_damage *d)
{
	const char *next = n > 4 ? memmem(p + 4, n - 4, BM_PROTO_MAGIC, 4) : NULL;
	size_t end = next ? (size_t)(next - p) : n, i, h;

	memset(d, 0, sizeof(*d));
	read_ids(p, end, d);
	for (i = end; i >= 2; i--)
		if (p[i - 2] == ' ' && p[i - 1] == '#')
			break;
	if (i < 2) {
		d->why = "truncated";
		return;
	}
	for (h = 0; i + h < end && h < 8 && is_hex(p[i + h]); h++)
		;
	if (h == 8 && i + h <= BM_LINE_MAX) {
		char want[9];

		snprintf(want, sizeof(want), "%08x", bm_crc32(0, p, i - 2));
		if (strncasecmp(want, p + i, 8)) {
			d->why = "bad crc";
			return;
		}
	}
	d->why = h < 8 && i + h == end ? "truncated" : "bad framing";
}

/* --- runs ------------------------------------------------------------------- */

static int buf_add(struct bm_buf *b, const char *s, size_t n, size_t max)
{
	if (b->full || b->n + n + 1 > max) {
		b->full = 1;
		return -EFBIG;
	}
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *p;

		while (cap < b->n + n + 1)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p)
			return -ENOMEM;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n++] = '\n';
	return 0;
}

void bm_cap_init(struct bm_cap *c, const char *out)
{
	memset(c, 0, sizeof(*c));
	c->out = out;
	c->report = stderr;
}

static void run_free(struct bm_cap_run *r)
{
	bm_stream_free(&r->s);
	bm_results_free(&r->r);
	free(r->con.p);
	free(r->res.p);
	free(r->dseq);
	free(r);
}

void bm_cap_free(struct bm_cap *c)
{
	for (size_t i = 0; i < c->nruns; i++)
		run_free(c->runs[i]);
	free(c->runs);
	free(c->pre.p);
	c->runs = NULL;
	c->nruns = 0;
	c->cur = NULL;
}

static struct bm_cap_run *find_run(struct bm_cap *c, const char *run)
{
	for (size_t i = 0; i < c->nruns; i++)
		if (!strcmp(c->runs[i]->run, run))
			return c->runs[i];
	return NULL;
}

static void end_run(struct bm_cap *c, struct bm_cap_run *r, const char *why)
{
	if (!r || r->ended)
		return;
	r->ended = 1;
	r->dirty = 1;
	c->ended++;
	if (c->progress)
		bm_progress_end(&r->prog);
	if (c->report)
		fprintf(c->report, "bootmark: run %u (%s%s%s) ended: %s\n", r->idx,
			r->run[0] ? r->run : "no run id", r->kernel[0] ? ", " : "", r->kernel, why);
}

static struct bm_cap_run *new_run(struct bm_cap *c, const char *run, const char *kernel)
{
	struct bm_cap_run *r = calloc(1, sizeof(*r)), **p;

	if (!r)
		return NULL;
	p = realloc(c->runs, (c->nruns + 1) * sizeof(*p));
	if (!p) {
		free(r);
		return NULL;
	}
	c->runs = p;
	c->runs[c->nruns++] = r;
	r->idx = (unsigned)c->nruns;
	snprintf(r->run, sizeof(r->run), "%s", run);
	snprintf(r->kernel, sizeof(r->kernel), "%s", kernel);
	bm_stream_init(&r->s, run);
	bm_utc_now(r->start, sizeof(r->start));
	r->t0 = r->last_at = c->now;
	r->dirty = 1;
	bm_progress_init(&r->prog, NULL, r->kernel, (int)r->idx, (int)r->idx, c->progress);
	return r;
}

/* "Linux version 6.1.0-53-amd64 (debian-kernel@...)": a reboot. */
static void on_banner(struct bm_cap *c, const char *line, size_t len, const char *b)
{
	const char *rel = b + strlen(BANNER), *end = line + len, *e = rel;
	char kernel[128];

	while (e < end && *e != ' ' && e - rel < (long)sizeof(kernel) - 1)
		e++;
	snprintf(kernel, sizeof(kernel), "%.*s", (int)(e - rel), rel);
	end_run(c, c->cur, "the box rebooted (kernel banner)");
	c->cur = new_run(c, "", bm_safe_name(kernel) ? kernel : "");
}

/* A valid record: to its run, a new run when its id is new. */
static void on_record(struct bm_cap *c, const struct bm_record *rec)
{
	struct bm_cap_run *r = find_run(c, rec->run);
	const char *k;

	if (!r && c->cur && !c->cur->run[0]) {
		r = c->cur;  /* the boot whose banner we saw */
		snprintf(r->run, sizeof(r->run), "%s", rec->run);
		snprintf(r->s.run, sizeof(r->s.run), "%s", rec->run);
	} else if (!r) {
		end_run(c, c->cur, "a new run began");
		r = c->cur = new_run(c, rec->run, "");
		if (!r)
			return;
	}
	if (rec->type == BM_REC_HELLO && (k = bm_rec_get(rec, "kernel")) && bm_safe_name(k))
		snprintf(r->kernel, sizeof(r->kernel), "%s", k);
	if (bm_stream_feed(&r->s, rec->raw, strlen(rec->raw)) > 0) {
		buf_add(&r->res, rec->raw, strlen(rec->raw), BM_CAP_CON_MAX);
		r->dirty = 1;
	}
	if (c->progress) {
		bm_progress_feed(&r->prog, rec->raw, strlen(rec->raw), c->now);
		bm_progress_feed(&r->prog, "\n", 1, c->now);
	}
	if (rec->type == BM_REC_END)
		end_run(c, r, "end record");
}

static void on_damage(struct bm_cap *c, const char *p, size_t n, uint64_t off, unsigned long lineno)
{
	struct bm_cap_run *r;
	struct bm_damage d;
	uint64_t *ds;

	bm_damage_diagnose(p, n, &d);
	c->damaged++;
	r = d.run[0] ? find_run(c, d.run) : NULL;
	if (!r)
		r = c->cur;
	if (c->report)
		fprintf(c->report, "bootmark: line %lu (offset %llu): damaged record (run %s seq %llu): %s\n",
			lineno, (unsigned long long)off, d.run[0] ? d.run : "?",
			(unsigned long long)d.seq, d.why);
	if (!r) {
		c->unattributed++;
		return;
	}
	ds = realloc(r->dseq, (r->damaged + 1) * sizeof(*ds));
	if (!ds)
		return;
	r->dseq = ds;
	r->dseq[r->damaged++] = d.seq;
	r->dirty = 1;
}

static void on_line(void *arg, const char *line, size_t len, uint64_t off, unsigned long lineno)
{
	struct bm_cap *c = arg;
	const char *b = memmem(line, len, BANNER, strlen(BANNER));
	size_t pos = 0, at;
	int rc;

	if (b)
		on_banner(c, line, len, b);
	while ((rc = bm_scan(line, len, &pos, &c->rec)) != 0) {
		if (rc > 0) {
			on_record(c, &c->rec);
			continue;
		}
		at = pos - strlen(BM_PROTO_MAGIC " ");  /* bm_scan stepped over the marker */
		on_damage(c, line + at, len - at, off + at, lineno);
	}
	if (c->cur) {
		buf_add(&c->cur->con, line, len, BM_CAP_CON_MAX);
		c->cur->last_at = c->now;
		c->cur->dirty = 1;
	} else {
		buf_add(&c->pre, line, len, BM_CAP_CON_MAX);
		c->pre_dirty = 1;
	}
}

void bm_cap_feed(struct bm_cap *c, const char *buf, size_t len, double now)
{
	if (!c->lines.fn)
		bm_lines_init(&c->lines, on_line, c);
	c->now = now;
	bm_lines_feed(&c->lines, buf, len);
	if (c->cur)
		c->cur->last_at = now;  /* a partial line is life too */
}

void bm_cap_tick(struct bm_cap *c, double now, int silence)
{
	struct bm_cap_run *r = c->cur;

	if (r && !r->ended && silence > 0 && now - r->last_at >= silence) {
		r->watch = BM_WATCH_SILENCE;
		snprintf(r->watch_why, sizeof(r->watch_why), "no output for %d s", silence);
		end_run(c, r, r->watch_why);
	}
	if (r && !r->ended && c->progress)
		bm_progress_tick(&r->prog, NULL, now - r->t0, now);
}
