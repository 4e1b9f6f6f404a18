// SPDX-License-Identifier: MIT
/*
 * M records for LAVA's monitors (bootmark.lava=1): one per metric after each
 * R record, one failed case per failing test (docs/protocol.md, docs/lava.md).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "emit.h"
#include "emit_int.h"

/* Appends one id part: lowercase [a-z0-9], other runs as one "_", trimmed. */
static void id_part(char *buf, size_t len, size_t *n, const char *part)
{
	int gap = 0, any = 0;

	if (*n && *n + 2 < len) {
		buf[(*n)++] = '_';
		buf[(*n)++] = '_';
	}
	for (; part && *part && *n + 1 < len; part++) {
		unsigned char c = (unsigned char)*part;

		if (c >= 'A' && c <= 'Z')
			c = (unsigned char)(c - 'A' + 'a');
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) {
			gap = any;
			continue;
		}
		if (gap && *n + 2 < len)
			buf[(*n)++] = '_';
		buf[(*n)++] = (char)c;
		gap = 0;
		any = 1;
	}
	if (!any && *n + 1 < len)
		buf[(*n)++] = 'x';  /* an empty part would make "____" */
	buf[*n] = '\0';
}

void emit_lava_id(char *buf, size_t len, const char *fs, const char *test, int rep,
		  const char *metric, const char *cls)
{
	char r[24];
	size_t n = 0;

	if (!len)
		return;
	buf[0] = '\0';
	if (!fs || !rep) {
		id_part(buf, len, &n, "run");
		id_part(buf, len, &n, cls);
		return;
	}
	id_part(buf, len, &n, fs);
	snprintf(r, sizeof(r), "r%d", rep);
	id_part(buf, len, &n, test);
	id_part(buf, len, &n, r);
	if (metric)
		id_part(buf, len, &n, metric);
}

void emit_lava_unit(char *buf, size_t len, const char *unit)
{
	size_t n = 0;

	for (; unit && *unit && n + 8 < len; unit++) {
		unsigned char c = (unsigned char)*unit;

		if (c == '%')
			n += (size_t)snprintf(buf + n, len - n, "percent");
		else
			buf[n++] = c > ' ' && c < 0x7f ? (char)c : '_';
	}
	if (len)
		buf[n < len ? n : len - 1] = '\0';
	if (len > 4 && !n)
		snprintf(buf, len, "none");
}

/* One M record; the caller holds the lock. */
static int metric_locked(struct emitter *e, const char *id, const char *result,
			 const char *measurement, const char *units)
{
	struct bm_line l;

	emit_begin(e, &l, BM_REC_METRIC);
	bm_line_add(&l, "id", id);
	bm_line_add(&l, "result", result);
	bm_line_add(&l, "measurement", measurement);
	bm_line_add(&l, "units", units);
	return emit_finish_write(e, &l);
}

/*
 * After an R record: one M per metric.  A partial result's values are real
 * but the test stopped early: "unknown", so a LAVA chart does not take it
 * for a normal run.  A value that is not finite cannot be a measurement.
 */
int emit_lava_metrics(struct emitter *e, const struct bm_result *r, const struct emit_ctx *c)
{
	char id[BM_VAL_MAX], num[64], unit[64];
	int ret = 0, n;

	for (unsigned i = 0; i < r->nmetrics; i++) {
		int ok = isfinite(r->m[i].value);

		emit_lava_id(id, sizeof(id), c->fs, r->test, c->rep ? c->rep : 1,
			     r->m[i].name, NULL);
		emit_fmt_value(num, sizeof(num), ok ? r->m[i].value : 0);
		emit_lava_unit(unit, sizeof(unit), r->m[i].unit);
		n = metric_locked(e, id, !ok ? "fail" : r->partial ? "unknown" : "pass", num, unit);
		if (n && !ret)
			ret = n;
	}
	return ret;
}

/*
 * After an E record: one failed case, whose measurement means nothing.  A
 * test that fails twice (mkfs, then unmount) is still one failed case.
 */
int emit_lava_failure(struct emitter *e, const char *cls, const struct emit_ctx *c)
{
	char id[BM_VAL_MAX];

	if (c && c->rep)
		emit_lava_id(id, sizeof(id), c->fs, c->test, c->rep, NULL, cls);
	else
		emit_lava_id(id, sizeof(id), NULL, NULL, 0, NULL, cls);
	if (!strcmp(id, e->last_fail))
		return 0;
	snprintf(e->last_fail, sizeof(e->last_fail), "%s", id);
	return metric_locked(e, id, "fail", "0", "none");
}
