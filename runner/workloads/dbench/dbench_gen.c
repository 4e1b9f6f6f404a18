// SPDX-License-Identifier: MIT
/*
 * The loadfile bootmark generates when the image carries no client.txt.
 *
 * client.txt is a capture of a NetBench client run against Samba: Office
 * style sessions on files under \clients\client1\~dmtmp.  The stand-in
 * replays sessions of the same shape on 4 folders of 24 files each: look
 * the file up (QUERY_PATH_INFORMATION), open or create it (NTCreateX),
 * query and stamp it, append 4 KiB..64 KiB blocks (WriteX), read back at
 * random offsets (ReadX), sometimes Flush or lock a byte, Close; between
 * sessions list the folder (FIND_FIRST), query the filesystem, unlink or
 * rename a file.  The probabilities are tuned so that the op counts come
 * out in client.txt's order and roughly its proportions (ReadX 27%,
 * NTCreateX 17%, QUERY_PATH_INFORMATION 16%, Close 13%, WriteX 9% ...;
 * tests/dbench_load_test.c checks the order).  A model of which files
 * exist, and how long they are, gives every line the status a real run
 * returns, so Unlink and Rename (whose status must match) never fail.
 * Deterministic: a fixed LCG, no clock, no host state.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbench_load.h"

#define GEN_DIRS 4
#define GEN_FILES 24
#define GEN_FILE_MAX (1u << 20)
#define GEN_ROOT "\\clients\\client1"
#define GEN_TMP GEN_ROOT "\\~dmtmp"

struct gen {
	char *buf;
	size_t len, cap;
	unsigned lines;
	uint64_t rng;
	unsigned fnum;
	int exists[GEN_DIRS][GEN_FILES];
	unsigned size[GEN_DIRS][GEN_FILES];
	int oom;
};

static unsigned gen_rand(struct gen *g, unsigned n)
{
	/* Knuth's MMIX LCG; the high bits are the good ones */
	g->rng = g->rng * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)((g->rng >> 33) % n);
}

__attribute__((format(printf, 2, 3)))
static void gen_line(struct gen *g, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (g->oom)
		return;
	if (g->cap - g->len < 512) {
		size_t cap = g->cap ? g->cap * 2 : 1 << 20;
		char *b = realloc(g->buf, cap);

		if (!b) {
			g->oom = 1;
			return;
		}
		g->buf = b;
		g->cap = cap;
	}
	va_start(ap, fmt);
	n = vsnprintf(g->buf + g->len, g->cap - g->len, fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n < g->cap - g->len)
		g->len += (size_t)n;
	g->lines++;
}

static const char *st(int ok)
{
	return ok ? "NT_STATUS_OK" : "NT_STATUS_OBJECT_NAME_NOT_FOUND";
}

static void gen_mkdir(struct gen *g, const char *dir, int d)
{
	unsigned h = g->fnum++;

	if (d < 0)
		gen_line(g, "NTCreateX \"%s\" 0x1 0x2 %u NT_STATUS_OK\n", dir, h);
	else
		gen_line(g, "NTCreateX \"%s\\DIR%d\" 0x1 0x2 %u NT_STATUS_OK\n", dir, d, h);
	gen_line(g, "Close %u NT_STATUS_OK\n", h);
}

static void gen_rw(struct gen *g, int d, int f, unsigned h, int write)
{
	static const unsigned sizes[] = { 4096, 65536, 32768, 16384, 4096, 65536 };
	unsigned i, n = write ? 1 + gen_rand(g, 3) : 1 + gen_rand(g, 5), len, off;

	for (i = 0; i < n; i++) {
		len = sizes[gen_rand(g, 6)];
		if (write) {
			off = g->size[d][f];
			if (off + len > GEN_FILE_MAX)
				off = 0;
			gen_line(g, "WriteX %u %u %u %u NT_STATUS_OK\n", h, off, len, len);
			if (off + len > g->size[d][f])
				g->size[d][f] = off + len;
		} else if (g->size[d][f]) {
			off = gen_rand(g, g->size[d][f]) & ~4095u;
			gen_line(g, "ReadX %u %u %u %u NT_STATUS_OK\n", h, off, len,
				 g->size[d][f] - off < len ? g->size[d][f] - off : len);
		}
	}
}

/* One Office-style session on one file. */
static void gen_session(struct gen *g)
{
	int d = (int)gen_rand(g, GEN_DIRS), f = (int)gen_rand(g, GEN_FILES), created = 0;
	unsigned h = g->fnum++;
	char name[96];

	snprintf(name, sizeof(name), GEN_TMP "\\DIR%d\\F%02d.DOC", d, f);
	if (gen_rand(g, 20) < 17)
		gen_line(g, "QUERY_PATH_INFORMATION \"%s\" 1004 %s\n", name, st(g->exists[d][f]));
	if (!g->exists[d][f] && gen_rand(g, 10) < 6) {
		/* the application probes for the file before it creates it */
		gen_line(g, "NTCreateX \"%s\" 0x4044 0x1 %u %s\n", name, h, st(0));
		return;
	}
	if (g->exists[d][f]) {
		gen_line(g, "NTCreateX \"%s\" 0x4044 0x1 %u NT_STATUS_OK\n", name, h);
	} else {
		gen_line(g, "NTCreateX \"%s\" 0x4044 0x5 %u NT_STATUS_OK\n", name, h);
		g->exists[d][f] = 1;
		g->size[d][f] = 0;
		created = 1;
	}
	if (gen_rand(g, 10) < 4)
		gen_line(g, "QUERY_FILE_INFORMATION %u 1004 NT_STATUS_OK\n", h);
	if (created || gen_rand(g, 10) < 3)
		gen_rw(g, d, f, h, 1);
	gen_rw(g, d, f, h, 0);
	if (gen_rand(g, 10) < 2)
		gen_line(g, "SET_FILE_INFORMATION %u 1004 NT_STATUS_OK\n", h);
	if (gen_rand(g, 10) < 2)
		gen_line(g, "Flush %u NT_STATUS_OK\n", h);
	if (gen_rand(g, 200) == 0) {
		gen_line(g, "LockX %u 2147483538 1 NT_STATUS_OK\n", h);
		gen_line(g, "UnlockX %u 2147483538 1 NT_STATUS_OK\n", h);
	}
	gen_line(g, "Close %u NT_STATUS_OK\n", h);
}

/* What happens between sessions: listings, fs queries, unlink, rename. */
static void gen_between(struct gen *g)
{
	int d = (int)gen_rand(g, GEN_DIRS), f = (int)gen_rand(g, GEN_FILES), f2, n = 0, i;

	if (gen_rand(g, 10) < 5) {
		for (i = 0; i < GEN_FILES; i++)
			n += g->exists[d][i];
		gen_line(g, "FIND_FIRST \"" GEN_TMP "\\DIR%d\\*.*\" 260 1366 %d NT_STATUS_OK\n", d,
			 n + 2);
	}
	if (gen_rand(g, 10) < 2)
		gen_line(g, "FIND_FIRST \"" GEN_TMP "\\DIR%d\\~*.TMP\" 260 1366 0 "
			 "NT_STATUS_NO_SUCH_FILE\n", d);
	if (gen_rand(g, 10) < 4)
		gen_line(g, "QUERY_FS_INFORMATION 1 NT_STATUS_OK\n");
	if (gen_rand(g, 10) < 4) {
		gen_line(g, "Unlink \"" GEN_TMP "\\DIR%d\\F%02d.DOC\" 0x6 %s\n", d, f,
			 st(g->exists[d][f]));
		g->exists[d][f] = 0;
	}
	f2 = (int)gen_rand(g, GEN_FILES);
	if (gen_rand(g, 10) < 3 && g->exists[d][f] && !g->exists[d][f2]) {
		gen_line(g, "Rename \"" GEN_TMP "\\DIR%d\\F%02d.DOC\" \"" GEN_TMP
			 "\\DIR%d\\F%02d.DOC\" NT_STATUS_OK\n", d, f, d, f2);
		g->exists[d][f2] = 1;
		g->size[d][f2] = g->size[d][f];
		g->exists[d][f] = 0;
	}
}

int db_load_generate(char **text, size_t *len, unsigned nops)
{
	struct gen g;
	int d;

	memset(&g, 0, sizeof(g));
	g.rng = 0x6462656e6368ull;  /* "dbench" */
	g.fnum = 10000;
	gen_line(&g, "Mkdir \"\\clients\" NT_STATUS_OK\n");
	gen_mkdir(&g, GEN_ROOT, -1);
	gen_mkdir(&g, GEN_TMP, -1);
	for (d = 0; d < GEN_DIRS; d++)
		gen_mkdir(&g, GEN_TMP, d);
	while (g.lines + 2 < nops && !g.oom) {
		gen_session(&g);
		if (gen_rand(&g, 10) < 6)
			gen_between(&g);
	}
	/* as client.txt ends: its files go, the folders stay for the next pass */
	gen_line(&g, "Deltree \"" GEN_ROOT "\" NT_STATUS_OK\n");
	if (g.oom) {
		free(g.buf);
		return -ENOMEM;
	}
	*text = g.buf;
	*len = g.len;
	return 0;
}
