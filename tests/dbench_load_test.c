// SPDX-License-Identifier: MIT
/* runner/workloads/dbench/dbench_load.c and dbench_gen.c: every op of client.txt's format,
 * bad lines with their line numbers, xz input, the generator's mix. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dbench_load.h"
#include "tap.h"

static const char good[] =
	"Deltree \"\\clients\\client1\" NT_STATUS_OK\n"
	"Mkdir \"\\clients\" NT_STATUS_OK\n"
	"NTCreateX \"\\clients\\client1\\a b.doc\" 0x4044 0x5 10001 NT_STATUS_OK\n"
	"\n"
	"WriteX 10001 0 65536 65536 NT_STATUS_OK\n"
	"ReadX 10001 4096 4096 4000 NT_STATUS_OK\n"
	"Flush 10001 NT_STATUS_OK\n"
	"LockX 10001 2147483538 1 NT_STATUS_OK\n"
	"UnlockX 10001 2147483538 1 NT_STATUS_OK\n"
	"QUERY_FILE_INFORMATION 10001 1004 NT_STATUS_OK\n"
	"SET_FILE_INFORMATION 10001 1004 NT_STATUS_OK\n"
	"Close 10001 NT_STATUS_OK\n"
	"Rename \"\\clients\\client1\\x\" \"\\clients\\client1\\y\" NT_STATUS_OK\n"
	"Unlink \"\\clients\\client1\\y\" 0x6 NT_STATUS_OBJECT_NAME_NOT_FOUND\n"
	"Rmdir \"\\clients\\client1\\d\" NT_STATUS_OK\n"
	"QUERY_PATH_INFORMATION \"\\clients\\client1\\~dmtmp\" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND\n"
	"QUERY_FS_INFORMATION 259 NT_STATUS_OK\n"
	"FIND_FIRST \"\\clients\\client1\\*.*\" 260 1366 2 NT_STATUS_NO_SUCH_FILE\n"
	"12.5 Close 7 0xc0000034\n";

static void test_good(void)
{
	struct db_load l;
	char err[256] = "";
	size_t i;
	int seen[DB_NKINDS] = { 0 }, all = 1, k;

	TAP_EQ_INT(db_load_parse(&l, good, sizeof(good) - 1, "t", err, sizeof(err)), 0,
		   "good loadfile parses");
	TAP_EQ_INT(l.n, 18, "18 ops (the blank line skipped)");
	if (l.n != 18)
		return;
	for (i = 0; i < l.n; i++)
		seen[l.op[i].kind] = 1;
	for (k = 0; k < DB_NKINDS; k++)
		all &= seen[k];
	tap_ok(all, "every one of the %d op kinds parsed", DB_NKINDS);
	TAP_EQ_STR(db_str(&l, l.op[2].name), "/clients/client1/a b.doc", "'\\' -> '/', quoted blank kept");
	tap_ok(l.op[2].a[0] == 0x4044 && l.op[2].a[1] == 5 && l.op[2].a[2] == 10001 && l.op[2].ok,
	       "NTCreateX fields: options 0x4044, disposition 5, fnum 10001, OK");
	TAP_EQ_INT(l.op[2].line, 3, "line numbers count blank lines");
	TAP_EQ_INT(l.op[3].line, 5, "line 5 after the blank");
	tap_ok(l.op[4].kind == DB_READX && l.op[4].a[1] == 4096 && l.op[4].a[2] == 4096 &&
	       l.op[4].a[3] == 4000, "ReadX fnum offset size ret");
	TAP_EQ_STR(db_str(&l, l.op[11].name2), "/clients/client1/y", "Rename's second path");
	TAP_EQ_INT(l.op[12].ok, 0, "NT_STATUS_OBJECT_NAME_NOT_FOUND is not OK");
	tap_ok(l.op[17].t == 12.5 && l.op[17].kind == DB_CLOSE && !l.op[17].ok,
	       "leading timestamp 12.5, 0x status not 0 -> not OK");
	tap_ok(l.op[0].t == 0 && db_str(&l, 0) == NULL, "no timestamp; offset 0 is no string");
	db_load_free(&l);
}

static void bad(const char *text, const char *want)
{
	struct db_load l;
	char err[256] = "";
	int ret = db_load_parse(&l, text, strlen(text), "lf", err, sizeof(err));

	tap_ok(ret < 0 && strstr(err, want), "rejected with \"%s\": %s", want, err);
}

static void test_bad(void)
{
	bad("Close 1 NT_STATUS_OK\nOpenX 1 NT_STATUS_OK\n", "lf: line 2: unknown operation \"OpenX\"");
	bad("ReadX 1 0 4096 NT_STATUS_OK\n", "line 1: ReadX: 4 fields, expected 5");
	bad("Close NT_STATUS_OK\n", "line 1: Close: 1 fields, expected 2");
	bad("Close 1 2 NT_STATUS_OK\n", "Close: 3 fields, expected 2");
	bad("\n\nWriteX 1 0 4x 4 NT_STATUS_OK\n", "line 3: WriteX: field 3 \"4x\" is not a number");
	bad("Close 99999999999999999999 NT_STATUS_OK\n", "field 1 \"99999999999999999999\"");
	bad("Close \"1\" NT_STATUS_OK\n", "field 1 \"1\" is not a number");
	bad("Close 1 OK\n", "line 1: Close: bad status \"OK\"");
	bad("Close 1 NT_STATUS_ok\n", "bad status");
	bad("Close 1 0xZZ\n", "bad status");
	bad("Mkdir \"\" NT_STATUS_OK\n", "Mkdir: field 1: empty path");
	bad("1.5x Close 1 NT_STATUS_OK\n", "timestamp \"1.5x\" is not a number");
	bad("3.0\n", "no operation after the timestamp");
	bad("a b c d e f g h i j\n", "line 1: too many fields");
	bad("\n \n", "lf: no operations");
}

static void test_xz(void)
{
	char dir[] = "/tmp/bm-dbload-XXXXXX", path[128], cmd[300], err[256] = "";
	struct db_load l;
	FILE *f;

	if (!mkdtemp(dir)) {
		tap_skip("mkdtemp failed", "xz loadfile");
		return;
	}
	snprintf(path, sizeof(path), "%s/client.txt", dir);
	f = fopen(path, "w");
	if (f) {
		fputs(good, f);
		fclose(f);
	}
	TAP_EQ_INT(db_load_file(&l, path, err, sizeof(err)), 0, "plain loadfile read");
	TAP_EQ_INT(l.n, 18, "plain: 18 ops");
	db_load_free(&l);
	snprintf(cmd, sizeof(cmd), "xz -T1 -9 --check=crc32 %s 2>/dev/null", path);
	if (system(cmd) != 0) {
		tap_skip("no xz on this host", "xz loadfile");
	} else {
		snprintf(path, sizeof(path), "%s/client.txt.xz", dir);
		TAP_EQ_INT(db_load_file(&l, path, err, sizeof(err)), 0, "xz loadfile through xzcat");
		TAP_EQ_INT(l.n, 18, "xz: 18 ops");
		db_load_free(&l);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/missing.txt", dir);
	tap_ok(db_load_file(&l, path, err, sizeof(err)) < 0 && strstr(err, "missing.txt"),
	       "missing file: %s", err);
	snprintf(path, sizeof(path), "%s/client.txt", dir);
	unlink(path);
	rmdir(dir);
}

static void test_generator(void)
{
	char *a, *b, err[256] = "";
	size_t la, lb, c[DB_NKINDS] = { 0 }, i;
	struct db_load l;

	TAP_EQ_INT(db_load_generate(&a, &la, 50000), 0, "generate 50000 ops");
	TAP_EQ_INT(db_load_generate(&b, &lb, 50000), 0, "generate again");
	tap_ok(la == lb && !memcmp(a, b, la), "same bytes both times (%zu)", la);
	free(b);
	TAP_EQ_INT(db_load_generate(&b, &lb, 1000), 0, "generate 1000 ops");
	tap_ok(lb < la && !memcmp(a, b, lb - 40), "a shorter run is a prefix of a longer one");
	free(b);
	tap_ok(db_load_parse(&l, a, la, "generated", err, sizeof(err)) == 0,
	       "generated text parses %s", err);
	tap_ok(l.n >= 50000 && l.n < 50100, "about 50000 ops (%zu)", l.n);
	for (i = 0; i < l.n; i++)
		c[l.op[i].kind]++;
	/* client.txt's order: ReadX > NTCreateX > QUERY_PATH > Close > WriteX */
	tap_ok(c[DB_READX] > c[DB_NTCREATEX] && c[DB_NTCREATEX] > c[DB_QPATHINFO] &&
	       c[DB_QPATHINFO] > c[DB_CLOSE] && c[DB_CLOSE] > c[DB_WRITEX],
	       "op order as client.txt: ReadX %zu NTCreateX %zu QPATH %zu Close %zu WriteX %zu",
	       c[DB_READX], c[DB_NTCREATEX], c[DB_QPATHINFO], c[DB_CLOSE], c[DB_WRITEX]);
	tap_ok(c[DB_FINDFIRST] && c[DB_UNLINK] && c[DB_QFSINFO] && c[DB_QFILEINFO] &&
	       c[DB_SFILEINFO] && c[DB_FLUSH] && c[DB_RENAME] && c[DB_LOCKX] == c[DB_UNLOCKX] &&
	       c[DB_LOCKX] && c[DB_DELTREE] == 1 && c[DB_MKDIR] == 1,
	       "the rarer ops all appear, one Deltree at the end");
	TAP_EQ_INT(l.op[l.n - 1].kind, DB_DELTREE, "ends with Deltree, as client.txt");
	db_load_free(&l);
	free(a);
}

/* The same ops, field for field and path for path. */
static int same_load(const struct db_load *a, const struct db_load *b)
{
	size_t i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++) {
		const struct db_op *x = &a->op[i], *y = &b->op[i];
		const char *xn = db_str(a, x->name), *yn = db_str(b, y->name);

		if (x->kind != y->kind || x->ok != y->ok || x->line != y->line || x->t != y->t ||
		    memcmp(x->a, y->a, sizeof(x->a)) || !xn != !yn || (xn && strcmp(xn, yn)))
			return 0;
	}
	return 1;
}

static void write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fwrite(text, 1, len, f);
		fclose(f);
	}
}

/*
 * db_load_file parses as the text arrives, a read at a time: a loadfile of
 * many reads (the generated one, megabytes) gives what db_load_parse of
 * the whole text gives, plain or through xzcat, with or without a last
 * newline; an error far into it names its own line.
 */
static void test_stream(void)
{
	char dir[] = "/tmp/bm-dbstream-XXXXXX", path[128], cmd[300], err[256] = "";
	struct db_load whole, got;
	char *text, *bad;
	size_t len, i, lines = 0, at;

	if (!mkdtemp(dir) || db_load_generate(&text, &len, 200000)) {
		tap_skip("mkdtemp or generate failed", "streamed loadfile");
		return;
	}
	tap_ok(len > (1u << 20), "the generated loadfile is %zu bytes: several reads", len);
	TAP_EQ_INT(db_load_parse(&whole, text, len, "g", err, sizeof(err)), 0, "parsed whole");
	snprintf(path, sizeof(path), "%s/gen.txt", dir);
	write_file(path, text, len);
	tap_ok(db_load_file(&got, path, err, sizeof(err)) == 0, "read as a stream: %s", err);
	tap_ok(same_load(&whole, &got), "streamed: the same %zu ops as parsed whole", got.n);
	db_load_free(&got);
	write_file(path, text, len - 1);  /* no newline after the last line */
	tap_ok(db_load_file(&got, path, err, sizeof(err)) == 0, "no last newline: %s", err);
	tap_ok(same_load(&whole, &got), "no last newline: the same ops");
	db_load_free(&got);
	write_file(path, text, len);
	snprintf(cmd, sizeof(cmd), "xz -T1 -0 --check=crc32 %s 2>/dev/null", path);
	if (system(cmd) != 0) {
		tap_skip("no xz on this host", "streamed xz loadfile");
	} else {
		snprintf(path, sizeof(path), "%s/gen.txt.xz", dir);
		tap_ok(db_load_file(&got, path, err, sizeof(err)) == 0, "xz stream: %s", err);
		tap_ok(same_load(&whole, &got), "through xzcat: the same ops");
		db_load_free(&got);
		unlink(path);
	}
	/* a bad line past the first read: its own number */
	bad = malloc(len + 32);
	for (i = 0, at = 0; bad && i < len && lines < 150000; i++)
		if (text[i] == '\n' && ++lines == 150000)
			at = i + 1;
	if (bad && at) {
		memcpy(bad, text, at);
		memcpy(bad + at, "Bogus 1 NT_STATUS_OK\n", 21);
		memcpy(bad + at + 21, text + at, len - at);
		snprintf(path, sizeof(path), "%s/bad.txt", dir);
		write_file(path, bad, len + 21);
		tap_ok(db_load_file(&got, path, err, sizeof(err)) == -EINVAL &&
		       strstr(err, "line 150001: unknown operation \"Bogus\""),
		       "a bad line far in: %s", err);
		unlink(path);
	}
	/* a line longer than a read's buffer is refused, not split */
	if (bad && len > (400u << 10)) {
		memset(bad, 'x', 400u << 10);
		bad[(400u << 10) - 1] = '\n';
		snprintf(path, sizeof(path), "%s/long.txt", dir);
		write_file(path, bad, 400u << 10);
		tap_ok(db_load_file(&got, path, err, sizeof(err)) == -EINVAL &&
		       strstr(err, "line 1: longer than"), "an overlong line: %s", err);
		unlink(path);
	}
	free(bad);
	db_load_free(&whole);
	free(text);
	snprintf(path, sizeof(path), "%s/gen.txt", dir);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	tap_plan(0);
	test_good();
	test_bad();
	test_xz();
	test_generator();
	test_stream();
	return tap_done();
}
