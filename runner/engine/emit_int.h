/* SPDX-License-Identifier: MIT */
/* Inside the emitter (emit.c, emit_lava.c): callers hold e->lock. */
#ifndef BM_RUNNER_EMIT_INT_H
#define BM_RUNNER_EMIT_INT_H

#include "emit.h"

/* Starts a record with the next sequence number. */
int emit_begin(struct emitter *e, struct bm_line *l, char type);
/* Frames it (or an E record in its place when it does not fit) and writes it. */
int emit_finish_write(struct emitter *e, struct bm_line *l);
/* M records after an R record, and for a failing test (emit_lava.c). */
int emit_lava_metrics(struct emitter *e, const struct bm_result *r, const struct emit_ctx *c);
int emit_lava_failure(struct emitter *e, const char *cls, const struct emit_ctx *c);

#endif
