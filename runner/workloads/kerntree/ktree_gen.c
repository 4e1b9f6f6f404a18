// SPDX-License-Identifier: MIT
/*
 * The deterministic kernel tree (ktree_gen.h).  Integer arithmetic only, so
 * that glibc (host tests) and musl (the appliance) build the same tree.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktree_gen.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define POOL_SIZE (1u << 20)
#define MTIME 1670803200 /* 2022-12-11, the day 6.1 was released */

/*
 * Measured on Debian's linux-source-6.1 (6.1.192): files by the number of
 * directories above them (0: the top level), directories likewise (0: the
 * top-level directories), files by size: bucket 0 is empty files, bucket k
 * holds sizes in [2^(k-1), 2^k).
 */
static const uint32_t file_depth[] = {
	14, 1101, 13741, 24933, 20826, 11667, 3047, 2509, 510, 231,
};
static const uint32_t dir_depth[] = {
	24, 608, 1505, 1383, 835, 287, 233, 164, 56,
};
static const uint32_t size_bucket[] = {
	30, 0, 0, 2, 51, 140, 393, 985, 2366, 5088, 7503, 11022, 12778,
	12886, 11014, 7655, 4229, 1723, 450, 129, 51, 44, 11, 19, 9, 1,
};
/* 65536 * 2^(j/16): sizes are log-uniform within a bucket, in 16 steps. */
static const uint32_t exp2_16[17] = {
	65536, 68438, 71468, 74632, 77936, 81386, 84990, 88752, 92682, 96785,
	101070, 105545, 110218, 115098, 120194, 125515, 131072,
};
/* File name extensions, weighted by the same tree's counts ("" for
 * Makefile, Kconfig and the other names without a dot). */
static const char *const ext_name[] = {
	".c", ".h", ".rst", ".yaml", ".dts", ".txt", ".dtsi", "", ".S", ".sh", ".json",
};
static const uint32_t ext_weight[] = {
	32004, 23401, 3249, 2984, 2618, 2082, 1897, 6149, 1322, 757, 598,
};
static const char *const syl[] = {
	"ar", "ch", "dr", "iv", "er", "fs", "mm", "net", "io", "qc", "lib", "bus",
	"hw", "cpu", "dev", "mod", "reg", "pci", "usb", "irq", "sch", "ed", "ti", "me",
};
static const char *const tok[] = {
	"static", "int", "struct", "return", "if", "else", "for", "unsigned", "long",
	"void", "const", "char", "u32", "u64", "NULL", "err", "ret", "dev", "priv",
	"goto", "out", "sizeof", "->", "=", "==", "!=", "&&", "||", "0", "1", "+",
	"(", ")", ";", "{", "}", "[", "]", ",", "*", "&", "/*", "*/", "#define",
	"#include", "spin_lock", "mutex_unlock", "kfree", "kmalloc", "GFP_KERNEL",
};

static unsigned char pool[POOL_SIZE];
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t below(uint64_t *s, uint32_t n)
{
	return n ? (uint32_t)(rnd(s) % n) : 0;
}

/* Lines of C-like tokens, indented by tabs: compresses about as source. */
static void pool_fill(void)
{
	uint64_t s = 0x6b7472656531ull;
	size_t p = 0, n;
	unsigned indent = 0, i, words = 0;
	const char *w;

	while (p < POOL_SIZE) {
		if (words == 0) {
			pool[p++] = '\n';
			indent = below(&s, 4);
			for (i = 0; i < indent && p < POOL_SIZE; i++)
				pool[p++] = '\t';
			words = 2 + below(&s, 9);
			continue;
		}
		w = tok[below(&s, NELEM(tok))];
		n = strlen(w);
		if (p + n + 1 > POOL_SIZE)
			n = POOL_SIZE - p - 1;
		memcpy(pool + p, w, n);
		p += n;
		pool[p++] = ' ';
		words--;
	}
}

static void pool_init(void)
{
	pool_fill();
}

uint64_t ktree_quotas(const uint32_t *counts, unsigned n, uint32_t ppm, uint32_t *quota)
{
	uint64_t sum = 0, want, got = 0, rem[32];
	unsigned i, best;

	for (i = 0; i < n && i < NELEM(rem); i++) {
		uint64_t x = (uint64_t)counts[i] * ppm;

		quota[i] = (uint32_t)(x / 1000000);
		rem[i] = x % 1000000;
		got += quota[i];
		sum += counts[i];
	}
	want = (sum * ppm + 500000) / 1000000;
	if (want == 0)
		want = 1;
	while (got < want) {
		for (best = 0, i = 1; i < n; i++)
			if (rem[i] > rem[best])
				best = i;
		quota[best]++;
		rem[best] = 0;
		got++;
	}
	return want;
}

static void base36(char *buf, size_t len, uint32_t v)
{
	char tmp[8];
	size_t n = 0, i;

	do {
		tmp[n++] = "0123456789abcdefghijklmnopqrstuvwxyz"[v % 36];
		v /= 36;
	} while (v && n < sizeof(tmp));
	for (i = 0; i < n && i + 1 < len; i++)
		buf[i] = tmp[n - 1 - i];
	buf[i] = '\0';
}

/* 1-3 syllables, then the index in base 36 (unique in the tree), then ext. */
static void make_name(uint64_t *s, char *buf, size_t len, uint32_t idx, const char *ext)
{
	unsigned k = 1 + below(s, 3), i;
	char id[8];
	size_t n = 0;

	for (i = 0; i < k; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s", syl[below(s, NELEM(syl))]);
	base36(id, sizeof(id), idx);
	snprintf(buf + n, len - n, "%s%s", id, ext);
}

static const char *pick_ext(uint64_t *s)
{
	uint32_t total = 0, x;
	unsigned i;

	for (i = 0; i < NELEM(ext_weight); i++)
		total += ext_weight[i];
	x = below(s, total);
	for (i = 0; x >= ext_weight[i]; i++)
		x -= ext_weight[i];
	return ext_name[i];
}

static uint64_t pick_size(uint64_t *s, unsigned bucket)
{
	uint64_t lo, a, b;
	unsigned j;

	if (bucket == 0)
		return 0;
	lo = 1ull << (bucket - 1);
	j = below(s, 16);
	a = lo * exp2_16[j] / 65536;
	b = lo * exp2_16[j + 1] / 65536;
	return b > a ? a + below(s, (uint32_t)(b - a)) : a;
}

/* Directories level by level; a level the rounding left empty moves the
 * deeper ones up, so every directory has a parent one level above. */
static int build_dirs(struct ktree *t, uint64_t *s, uint32_t ppm, uint32_t *lvl_start,
		      uint32_t *lvl_n)
{
	uint32_t q[NELEM(dir_depth)], n, i, d, a, deepest = 0;

	n = (uint32_t)ktree_quotas(dir_depth, NELEM(dir_depth), ppm, q) + 1;
	t->dirs = calloc(n, sizeof(*t->dirs));
	if (!t->dirs)
		return -ENOMEM;
	snprintf(t->dirs[0].name, sizeof(t->dirs[0].name), KTREE_ROOT);
	lvl_start[0] = 0;
	lvl_n[0] = 1;
	t->ndirs = 1;
	for (d = 0; d < NELEM(dir_depth); d++) {
		for (i = 0; i < q[d]; i++) {
			struct ktree_dir *x = &t->dirs[t->ndirs];

			a = d + 1 <= deepest + 1 ? d + 1 : deepest + 1;
			if (a > deepest) {
				deepest = a;
				lvl_start[a] = t->ndirs;
				lvl_n[a] = 0;
			}
			x->parent = lvl_start[a - 1] + below(s, lvl_n[a - 1]);
			x->depth = (uint8_t)a;
			make_name(s, x->name, sizeof(x->name), t->ndirs, "");
			lvl_n[a]++;
			t->ndirs++;
		}
	}
	return (int)deepest;
}

static int build_files(struct ktree *t, uint64_t *s, uint32_t ppm, const uint32_t *lvl_start,
		       const uint32_t *lvl_n, uint32_t deepest)
{
	uint32_t qd[NELEM(file_depth)], qs[NELEM(size_bucket)], *bucket, n, i, j, k, d, a;

	n = (uint32_t)ktree_quotas(file_depth, NELEM(file_depth), ppm, qd);
	ktree_quotas(size_bucket, NELEM(size_bucket), ppm, qs);
	t->files = calloc(n, sizeof(*t->files));
	bucket = calloc(n, sizeof(*bucket));
	if (!t->files || !bucket) {
		free(bucket);
		return -ENOMEM;
	}
	/* Both roundings give the same total: sizes are dealt out shuffled. */
	for (i = 0, k = 0; i < NELEM(size_bucket); i++)
		for (j = 0; j < qs[i] && k < n; j++)
			bucket[k++] = i;
	for (i = n; i > 1; i--) {
		j = below(s, i);
		k = bucket[i - 1], bucket[i - 1] = bucket[j], bucket[j] = k;
	}
	for (d = 0, k = 0; d < NELEM(file_depth); d++) {
		a = d < deepest ? d : deepest;
		for (i = 0; i < qd[d]; i++, k++) {
			struct ktree_file *f = &t->files[k];

			f->dir = lvl_start[a] + below(s, lvl_n[a]);
			f->size = pick_size(s, bucket[k]);
			f->off = below(s, POOL_SIZE);
			make_name(s, f->name, sizeof(f->name), k, pick_ext(s));
			t->bytes += f->size;
		}
	}
	t->nfiles = n;
	free(bucket);
	return 0;
}

/* Pre-order, as tar walks a tree: a directory, its files, its subdirs. */
static int build_order(struct ktree *t)
{
	uint32_t nd = t->ndirs, *first, *kids, *fkids, *ffirst, *stack, sp = 0, k = 0, i;
	int ret = -ENOMEM;

	first = calloc(nd + 1, sizeof(*first));
	ffirst = calloc(nd + 1, sizeof(*ffirst));
	kids = calloc(nd, sizeof(*kids));
	fkids = calloc(t->nfiles + 1, sizeof(*fkids));
	stack = calloc(nd, sizeof(*stack));
	t->order = calloc(nd + t->nfiles, sizeof(*t->order));
	if (!first || !ffirst || !kids || !fkids || !stack || !t->order)
		goto out_free;
	/* counting sort of the children by parent */
	for (i = 1; i < nd; i++)
		first[t->dirs[i].parent + 1]++;
	for (i = 0; i < t->nfiles; i++)
		ffirst[t->files[i].dir + 1]++;
	for (i = 0; i < nd; i++) {
		first[i + 1] += first[i];
		ffirst[i + 1] += ffirst[i];
	}
	for (i = 1; i < nd; i++)
		kids[first[t->dirs[i].parent]++] = i;
	for (i = 0; i < t->nfiles; i++)
		fkids[ffirst[t->files[i].dir]++] = i;
	for (i = nd; i > 0; i--) {  /* the increments moved each start to the next */
		first[i] = first[i - 1];
		ffirst[i] = ffirst[i - 1];
	}
	first[0] = ffirst[0] = 0;
	stack[sp++] = 0;
	while (sp) {
		uint32_t d = stack[--sp];

		t->order[k++] = d;
		for (i = ffirst[d]; i < ffirst[d + 1]; i++)
			t->order[k++] = nd + fkids[i];
		for (i = first[d + 1]; i > first[d]; i--)
			stack[sp++] = kids[i - 1];
	}
	ret = 0;
out_free:
	free(first);
	free(ffirst);
	free(kids);
	free(fkids);
	free(stack);
	return ret;
}

int ktree_build(struct ktree *t, uint64_t seed, uint32_t ppm)
{
	uint32_t lvl_start[NELEM(dir_depth) + 1], lvl_n[NELEM(dir_depth) + 1];
	uint64_t s = seed;
	int ret;

	memset(t, 0, sizeof(*t));
	if (ppm < KTREE_SCALE_MIN_PPM || ppm > KTREE_SCALE_MAX_PPM)
		return -EINVAL;
	pthread_once(&pool_once, pool_init);
	ret = build_dirs(t, &s, ppm, lvl_start, lvl_n);
	if (ret >= 0)
		ret = build_files(t, &s, ppm, lvl_start, lvl_n, (uint32_t)ret);
	if (!ret)
		ret = build_order(t);
	if (ret)
		ktree_free(t);
	return ret;
}

void ktree_free(struct ktree *t)
{
	free(t->dirs);
	free(t->files);
	free(t->order);
	memset(t, 0, sizeof(*t));
}

static int dir_path(const struct ktree *t, uint32_t d, char *buf, size_t len, size_t *used)
{
	int ret = 0;

	if (d != 0)
		ret = dir_path(t, t->dirs[d].parent, buf, len, used);
	if (ret)
		return ret;
	ret = snprintf(buf + *used, len - *used, "%s%s", d ? "/" : "", t->dirs[d].name);
	if (ret < 0 || (size_t)ret >= len - *used)
		return -ENAMETOOLONG;
	*used += (size_t)ret;
	return 0;
}

int ktree_path(const struct ktree *t, uint32_t ent, char *buf, size_t len)
{
	size_t used = 0;
	int ret;

	if (ent < t->ndirs)
		return dir_path(t, ent, buf, len, &used);
	ent -= t->ndirs;
	ret = dir_path(t, t->files[ent].dir, buf, len, &used);
	if (!ret && (size_t)snprintf(buf + used, len - used, "/%s", t->files[ent].name) >=
		    len - used)
		ret = -ENAMETOOLONG;
	return ret;
}

void ktree_file_text(const struct ktree *t, uint32_t f, uint64_t pos, void *buf, size_t len)
{
	unsigned char *out = buf;
	size_t at = (size_t)((t->files[f].off + pos) % POOL_SIZE), n;

	while (len) {
		n = POOL_SIZE - at < len ? POOL_SIZE - at : len;
		memcpy(out, pool + at, n);
		out += n;
		len -= n;
		at = 0;
	}
}

void ktree_stream_init(struct ktree_stream *s, const struct ktree *t)
{
	memset(s, 0, sizeof(*s));
	s->t = t;
}

/* Makes the header of the next entry; 1 when there is none left. */
static int next_entry(struct ktree_stream *s)
{
	const struct ktree *t = s->t;
	char path[USTAR_PATH_MAX];
	struct ustar_entry e = { .name = path, .linkname = "", .mtime = MTIME };
	uint32_t ent;

	if (s->k >= t->ndirs + t->nfiles)
		return 1;
	ent = t->order[s->k++];
	s->err = ktree_path(t, ent, path, sizeof(path));
	e.type = ent < t->ndirs ? USTAR_DIR : USTAR_REG;
	e.mode = ent < t->ndirs ? 0755 : 0644;
	e.size = ent < t->ndirs ? 0 : t->files[ent - t->ndirs].size;
	if (!s->err)
		s->err = ustar_header(s->hdr, &e);
	s->cur = ent;
	s->size = e.size;
	s->pos = 0;
	s->len = USTAR_BLOCK + ustar_padded(e.size);
	return 0;
}

ssize_t ktree_stream_read(void *stream, void *buf, size_t len)
{
	struct ktree_stream *s = stream;
	unsigned char *out = buf;
	size_t done = 0, n;

	while (done < len && s->state < 2) {
		if (s->pos == s->len) {
			if (s->state == 1 || next_entry(s)) {
				/* two zero blocks end the archive */
				s->len = s->state == 0 ? 2 * USTAR_BLOCK : 0;
				s->pos = 0;
				s->state++;
				s->size = 0;
				s->cur = UINT32_MAX;
				continue;
			}
			if (s->err)
				return s->err;
		}
		if (s->cur != UINT32_MAX && s->pos < USTAR_BLOCK) {
			n = USTAR_BLOCK - s->pos;
			n = n < len - done ? n : len - done;
			memcpy(out + done, s->hdr + s->pos, n);
		} else if (s->cur != UINT32_MAX && s->pos - USTAR_BLOCK < s->size) {
			n = (size_t)(s->size - (s->pos - USTAR_BLOCK));
			n = n < len - done ? n : len - done;
			ktree_file_text(s->t, s->cur - s->t->ndirs, s->pos - USTAR_BLOCK,
					out + done, n);
		} else {
			n = (size_t)(s->len - s->pos);
			n = n < len - done ? n : len - done;
			memset(out + done, 0, n);
		}
		s->pos += n;
		done += n;
	}
	return (ssize_t)done;
}
