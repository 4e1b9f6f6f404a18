/* SPDX-License-Identifier: MIT */
/*
 * A small streaming JSON writer (in the manner of fio's json.c, our own
 * code).  Commas and indentation are handled here; callers just nest.
 */
#ifndef BM_JSON_H
#define BM_JSON_H

#include <stddef.h>
#include <stdio.h>

#define BM_JSON_DEPTH 16

struct bm_json {
	FILE *f;
	int depth;
	int first[BM_JSON_DEPTH];  /* no member written yet at this level */
	int after_key;             /* a key was just written: no comma, no newline */
	int pretty;
	int err;                   /* -EINVAL on misuse (too deep); sticky */
};

void bm_json_init(struct bm_json *j, FILE *f, int pretty);
void bm_json_obj_begin(struct bm_json *j);
void bm_json_obj_end(struct bm_json *j);
void bm_json_arr_begin(struct bm_json *j);
void bm_json_arr_end(struct bm_json *j);
void bm_json_key(struct bm_json *j, const char *key);
void bm_json_str(struct bm_json *j, const char *s);
/* Non-finite numbers are written as null: JSON has no NaN. */
void bm_json_num(struct bm_json *j, double v);
void bm_json_int(struct bm_json *j, long long v);
void bm_json_bool(struct bm_json *j, int v);
void bm_json_null(struct bm_json *j);
/* key + value shorthands */
void bm_json_kstr(struct bm_json *j, const char *key, const char *s);
void bm_json_knum(struct bm_json *j, const char *key, double v);
void bm_json_kint(struct bm_json *j, const char *key, long long v);
/* Writes s as a JSON string literal (quotes included) to f. */
void bm_json_escape(FILE *f, const char *s);
/* Shortest "%.*g" text that reads back as the same double. */
void bm_fmt_double(char *buf, size_t len, double v);

/* Reading (host/results/jsonread.c).  0 when text[0..len) is one valid JSON value. */
int bm_json_valid(const char *text, size_t len);
/*
 * The member key of the top-level object of text: a string decoded into out,
 * any other scalar as its literal text ("12", "null", "true").  -ENOENT no
 * such member, -EMEDIUMTYPE an object or array (out holds its text),
 * -ENAMETOOLONG out too small, -EINVAL not a valid JSON object.
 */
int bm_json_get(const char *text, size_t len, const char *key, char *out, size_t outlen);

#endif
