// SPDX-License-Identifier: MIT
/*
 * Live progress of one boot.  The watchdog polls results.log anyway; this
 * reads only what is new, keeps an incomplete last line for the next poll
 * and decodes the records of the complete ones.  A record that does not
 * decode is counted and skipped: the line is informational, the verdict
 * comes from the whole log after the boot.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "progress.h"
#include "text.h"
#include "wldesc.h"

int bm_plan_make(struct bm_plan *pl, const struct bm_suite *su, unsigned nfs, char *err,
		 size_t errlen)
{
	unsigned j;
	int i, n;

	memset(pl, 0, sizeof(*pl));
	for (j = 0; j < su->njobs; j++) {
		const struct bm_job *job = &su->job[j];
		const struct bm_wl_desc *wl = bm_wl_desc_find(job->wl);
		char msg[256];
		void *o;

		/* the runner's own parser and messages (its description): the
		 * same options, the same tests, the same verdict on a bad line */
		if (!wl) {
			snprintf(err, errlen, "suites/%s:%d: unknown workload \"%s\"", su->name,
				 job->line, job->wl);
			return -EINVAL;
		}
		if (bm_wl_job_opts(wl, job->args, &o, msg, sizeof(msg))) {
			snprintf(err, errlen, "suites/%s:%d: %s: %s", su->name, job->line, job->wl,
				 msg);
			return -EINVAL;
		}
		n = wl->ntests(o);
		for (i = 0; i < n; i++) {
			struct bm_result r = { 0 };

			if (pl->ntests < BM_PLAN_MAX && !wl->describe(o, i, &r)) {
				snprintf(pl->wl[pl->ntests], sizeof(pl->wl[0]), "%s", wl->name);
				snprintf(pl->test[pl->ntests], sizeof(pl->test[0]), "%s", r.test);
				pl->raw[pl->ntests] = (unsigned char)bm_wl_job_raw(wl, o);
			}
			pl->ntests++;
		}
		pl->total += bm_wl_job_planned(wl, o, nfs, su->repeat);
		free(o);
	}
	return 0;
}

const char *bm_plan_wl(const struct bm_plan *pl, const char *test)
{
	unsigned i;

	for (i = 0; pl && i < pl->ntests && i < BM_PLAN_MAX; i++)
		if (!strcmp(pl->test[i], test))
			return pl->wl[i];
	return "";
}

void bm_progress_init(struct bm_progress *p, const struct bm_plan *plan, const char *kernel,
		      int idx, int n, FILE *out)
{
	memset(p, 0, sizeof(*p));
	p->plan = plan;
	p->kernel = kernel;
	p->idx = idx;
	p->n = n;
	p->out = out;
	p->tty = out && isatty(fileno(out));
}

/* Guest text, shown on the terminal: made safe to print (text.h). */
static void copy(char *dst, size_t len, const char *v)
{
	bm_text_safe(dst, len, v ? v : "", v ? strlen(v) : 0, 0);
}

static void take(struct bm_progress *p, const struct bm_record *rec, double now)
{
	const char *v;

	/* before END every R line comes again with its seq: count once */
	if (rec->seq <= p->last_seq)
		return;
	p->last_seq = rec->seq;
	switch (rec->type) {
	case BM_REC_PHASE:
		copy(p->phase, sizeof(p->phase), bm_rec_get(rec, "phase"));
		copy(p->fs, sizeof(p->fs), bm_rec_get(rec, "fs"));
		copy(p->test, sizeof(p->test), bm_rec_get(rec, "test"));
		v = bm_rec_get(rec, "rep");
		p->rep = v ? atoi(v) : 0;
		/* a test begins with its mkfs, a raw one (no mkfs) with its prepare */
		if (strcmp(p->phase, "mkfs") &&
		    (strcmp(p->phase, "prepare") || strcmp(p->fs, BM_WL_RAW_FS)))
			break;
		if (p->started && !p->cur_done)
			p->done_at = now;  /* the last test ended without a record */
		p->started++;
		p->cur_done = 0;
		if (!p->first_at)
			p->first_at = now;
		break;
	case BM_REC_BEAT:
		copy(p->phase, sizeof(p->phase), bm_rec_get(rec, "phase"));
		v = bm_rec_get(rec, "t");
		p->guest_t = v ? strtod(v, NULL) : p->guest_t;
		break;
	case BM_REC_RESULT:
	case BM_REC_ERROR:
		v = bm_rec_get(rec, "test");
		if (v && v[0] && p->started && !p->cur_done) {
			p->cur_done = 1;
			p->done_at = now;
		}
		break;
	case BM_REC_END:
		p->ended = 1;
		copy(p->phase, sizeof(p->phase), "end");
		break;
	}
}

static void take_line(struct bm_progress *p, const char *line, size_t len, double now)
{
	static struct bm_record rec;  /* large; one poller at a time */
	size_t pos = 0;
	int rc;

	while ((rc = bm_scan(line, len, &pos, &rec)) != 0) {
		if (rc < 0)
			p->damaged++;
		else
			take(p, &rec, now);
	}
}

void bm_progress_feed(struct bm_progress *p, const char *buf, size_t len, double now)
{
	while (len) {
		const char *nl = memchr(buf, '\n', len);
		size_t n = nl ? (size_t)(nl - buf) : len;

		if (!p->skipping && p->npart + n < sizeof(p->part)) {
			memcpy(p->part + p->npart, buf, n);
			p->npart += n;
		} else {
			/* longer than any record: nothing to decode in it */
			p->skipping = 1;
			p->npart = 0;
		}
		if (!nl)
			return;
		if (!p->skipping)
			take_line(p, p->part, p->npart, now);
		p->npart = 0;
		p->skipping = 0;
		buf += n + 1;
		len -= n + 1;
	}
}

size_t bm_progress_read(struct bm_progress *p, const char *path, double now)
{
	char buf[16384];
	size_t total = 0;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	while ((n = pread(fd, buf, sizeof(buf), p->off)) > 0) {
		p->off += n;
		total += (size_t)n;
		bm_progress_feed(p, buf, (size_t)n, now);
	}
	close(fd);
	return total;
}

unsigned bm_progress_done(const struct bm_progress *p)
{
	if (p->ended || !p->started)
		return p->started;
	return p->started - (p->cur_done ? 0 : 1);
}

double bm_progress_left(unsigned total, unsigned done, double spent)
{
	if (!total || !done || spent < 0)
		return -1;
	if (done >= total)
		return 0;
	return (double)(total - done) * spent / done;
}

static void fmt_dur(char *buf, size_t len, double s)
{
	/* clamped to 99:59:59 so the line keeps its width */
	int t = s < 0 ? 0 : s > 359999 ? 359999 : (int)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, len, "%d:%02d:%02d", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, len, "%d:%02d", t / 60, t % 60);
}

void bm_progress_line(const struct bm_progress *p, double elapsed, char *buf, size_t len)
{
	char el[16], left[16] = "?";  /* fmt_dur: at most 9 bytes + NUL */
	unsigned done = bm_progress_done(p);
	double l;

	fmt_dur(el, sizeof(el), elapsed);
	if (!p->started) {
		snprintf(buf, len, "%s %d/%d  booting  %s", p->kernel, p->idx, p->n, el);
		return;
	}
	l = bm_progress_left(p->plan ? p->plan->total : 0, done, p->done_at - p->first_at);
	if (l >= 0)
		fmt_dur(left, sizeof(left), l);
	snprintf(buf, len, "%s %d/%d rep %d  %s  %s %s (%s)  %s  ~%s", p->kernel, p->idx, p->n,
		 p->rep, p->fs, bm_plan_wl(p->plan, p->test), p->test, p->phase, el, left);
}

void bm_progress_tick(void *arg, const char *results_log, double elapsed, double now)
{
	struct bm_progress *p = arg;
	char line[sizeof(p->last)], key[sizeof(p->shown)];

	if (results_log)
		bm_progress_read(p, results_log, now);
	if (!p->out)
		return;
	bm_progress_line(p, elapsed, line, sizeof(line));
	if (p->tty) {
		if (strcmp(line, p->last)) {
			fprintf(p->out, "\r%s\033[K", line);
			fflush(p->out);
			p->dirty = 1;
		}
		copy(p->last, sizeof(p->last), line);
		return;
	}
	/* a log, not a screen: one line per test */
	snprintf(key, sizeof(key), "%s/%s", p->fs, p->test);
	if (p->started && strcmp(key, p->shown)) {
		fprintf(p->out, "%s\n", line);
		copy(p->shown, sizeof(p->shown), key);
	}
}

void bm_progress_end(struct bm_progress *p)
{
	if (p->tty && p->dirty && p->out) {
		fprintf(p->out, "\r\033[K");
		fflush(p->out);
	}
	p->dirty = 0;
}
