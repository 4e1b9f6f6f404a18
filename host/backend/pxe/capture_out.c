// SPDX-License-Identifier: MIT
/*
 * Capture's files: OUT/<label>/ with console.log, results.log, results.json
 * and meta.json as a QEMU boot leaves them, and OUT/preamble.log.  Every file
 * is rewritten whole (tmp + rename) when a run ends and periodically, so a
 * reader never sees half a file and a crash of capture loses little.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "boot.h"
#include "capture.h"
#include "json.h"
#include "util.h"
#include "schema.h"

#define META_VERSION 1

void bm_cap_verdict(struct bm_cap_run *r)
{
	struct bm_console con;
	unsigned i;

	bm_results_free(&r->r);
	if (bm_results_from_stream(&r->r, &r->s))
		bm_results_free(&r->r);  /* no memory: an empty verdict, still a verdict */
	snprintf(r->r.source, sizeof(r->r.source), "results.log");
	/* the stream saw intact records only: the damage is ours to count */
	r->r.bad_crc = r->damaged;
	bm_console_scan(r->con.p ? r->con.p : "", r->con.n, &con);
	bm_classify(&r->r, &con, r->watch, r->watch_why);
	for (r->recovered = 0, i = 0; i < r->damaged; i++)
		r->recovered += r->dseq[i] && bm_stream_get(&r->s, r->dseq[i]);
}

/* What a run's label is made of: its kernel, else its run id, else its place. */
static void label_base(const struct bm_cap_run *r, char *buf, size_t len)
{
	if (r->kernel[0])
		snprintf(buf, len, "%s", r->kernel);
	else if (r->run[0])
		snprintf(buf, len, "run-%s", r->run);
	else
		snprintf(buf, len, "boot-%u", r->idx);
}

/* Labels in order of appearance, so the _N suffixes follow the log. */
static int make_label(struct bm_cap *c, struct bm_cap_run *r)
{
	int dup = 1;

	label_base(r, r->base, sizeof(r->base));
	for (size_t i = 0; i + 1 < r->idx; i++) {
		struct bm_cap_run *o = c->runs[i];

		if (!o->label[0] && make_label(c, o))
			return -ENAMETOOLONG;
		dup += !strcmp(o->base, r->base);
	}
	if (bm_label_dup(r->label, sizeof(r->label), r->base, dup) ||
	    bm_path(r->dir, sizeof(r->dir), "%s/%s", c->out, r->label))
		return -ENAMETOOLONG;
	return 0;
}

static void meta_body(FILE *f, const struct bm_cap *c, const struct bm_cap_run *r)
{
	static const char *const watch[] = {
		[BM_WATCH_NONE] = "none", [BM_WATCH_SILENCE] = "silence-timeout",
	};
	struct bm_json j;

	bm_json_init(&j, f, 1);
	bm_json_obj_begin(&j);
	bm_json_kstr(&j, "schema", BM_SCHEMA_META);
	bm_json_kint(&j, "meta_version", META_VERSION);
	bm_json_kstr(&j, "label", r->label);
	bm_json_key(&j, "captured");
	bm_json_bool(&j, 1);
	bm_json_kstr(&j, "source", c->source ? c->source : "");
	bm_json_kstr(&j, "kernel_release", r->kernel);
	bm_json_kstr(&j, "run", r->run);
	bm_json_kstr(&j, "start", r->start);
	bm_json_kstr(&j, "end", r->ended ? r->end : "");
	bm_json_key(&j, "ended");
	bm_json_bool(&j, r->ended);
	bm_json_kstr(&j, "watchdog", r->watch == BM_WATCH_SILENCE ? watch[BM_WATCH_SILENCE] : "none");
	bm_json_kstr(&j, "watchdog_why", r->watch_why);
	bm_json_kint(&j, "damaged", r->damaged);
	bm_json_kint(&j, "recovered", r->recovered);
	bm_json_key(&j, "console_truncated");
	bm_json_bool(&j, r->con.full);
	bm_json_kstr(&j, "status", bm_status_name(r->r.status));
	bm_json_kstr(&j, "status_why", r->r.status_why);
	bm_json_obj_end(&j);
}

static int write_buf(const char *dir, const char *name, const struct bm_buf *b)
{
	char path[PATH_MAX];

	if (bm_path(path, sizeof(path), "%s/%s", dir, name))
		return -ENAMETOOLONG;
	return bm_write_file_atomic(path, b->p ? b->p : "", b->n);
}

static int write_meta(const struct bm_cap *c, const struct bm_cap_run *r)
{
	char path[PATH_MAX], *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	if (bm_path(path, sizeof(path), "%s/meta.json", r->dir))
		return -ENAMETOOLONG;
	f = open_memstream(&buf, &len);
	if (!f)
		return -errno;
	meta_body(f, c, r);
	if (fclose(f))
		return -errno;
	rc = bm_write_file_atomic(path, buf, len);
	free(buf);
	return rc;
}

static int write_run(struct bm_cap *c, struct bm_cap_run *r)
{
	char path[PATH_MAX];
	int rc;

	if (!r->label[0] && (rc = make_label(c, r)))
		return rc;
	rc = bm_mkdir_p(r->dir, 0755);
	if (!rc)
		rc = write_buf(r->dir, "console.log", &r->con);
	if (!rc)
		rc = write_buf(r->dir, "results.log", &r->res);
	if (!rc)
		rc = bm_path(path, sizeof(path), "%s/results.json", r->dir);
	if (!rc)
		rc = bm_write_results_json(path, &r->r);
	if (!rc)
		rc = write_meta(c, r);
	if (rc)
		bm_msg("cannot write %s: %s", r->dir, strerror(-rc));
	return rc;
}

static int flush_run(struct bm_cap *c, struct bm_cap_run *r, int all)
{
	int ending = r->ended && !r->notified, rc = 0;

	if (!ending && !(all && r->dirty))
		return 0;
	if (ending)
		bm_utc_now(r->end, sizeof(r->end));
	bm_cap_verdict(r);
	if (c->out) {
		/* before its kernel is known a live run has no label yet */
		if (!r->label[0] && !r->ended && !r->kernel[0])
			return 0;
		rc = write_run(c, r);
	}
	r->dirty = 0;
	if (ending) {
		r->notified = 1;
		if (c->on_end)
			c->on_end(c->end_arg, c, r);
	}
	return rc;
}

int bm_cap_flush(struct bm_cap *c, int all)
{
	char path[PATH_MAX];
	int rc;

	for (size_t i = 0; i < c->nruns; i++)
		if ((rc = flush_run(c, c->runs[i], all)) && !c->werr)
			c->werr = rc;
	if (c->out && all && c->pre_dirty) {
		rc = bm_path(path, sizeof(path), "%s/preamble.log", c->out);
		if (!rc)
			rc = bm_write_file_atomic(path, c->pre.p ? c->pre.p : "", c->pre.n);
		if (rc) {
			bm_msg("cannot write %s/preamble.log: %s", c->out, strerror(-rc));
			c->werr = c->werr ? c->werr : rc;
		}
		c->pre_dirty = 0;
	}
	return c->werr;
}

int bm_cap_finish(struct bm_cap *c)
{
	bm_lines_flush(&c->lines);
	for (size_t i = 0; i < c->nruns; i++) {
		struct bm_cap_run *r = c->runs[i];

		if (!r->ended) {
			r->ended = 1;
			r->dirty = 1;
			c->ended++;
			if (c->progress)
				bm_progress_end(&r->prog);
		}
	}
	return bm_cap_flush(c, 1);
}
