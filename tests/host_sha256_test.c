/* SPDX-License-Identifier: MIT */
/* common/sha256.c against the FIPS 180-2 example vectors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sha256.h"
#include "tap.h"

static void vec(const char *msg, const char *want)
{
	char hex[65];

	bm_sha256_hex(msg, strlen(msg), hex);
	TAP_EQ_STR(hex, want, msg[0] ? msg : "(empty)");
}

/* Feeding in pieces must give the one-shot digest, whatever the split. */
static void splits(void)
{
	unsigned char buf[200], one[32], part[32];
	struct bm_sha256 c;
	size_t len, cut, bad = 0;

	for (len = 0; len < sizeof(buf); len++)
		buf[len] = (unsigned char)(len * 7 + 3);
	for (len = 50; len <= 130; len++) {
		bm_sha256_init(&c);
		bm_sha256_update(&c, buf, len);
		bm_sha256_final(&c, one);
		for (cut = 0; cut <= len; cut += 9) {
			bm_sha256_init(&c);
			bm_sha256_update(&c, buf, cut);
			bm_sha256_update(&c, buf + cut, len - cut);
			bm_sha256_final(&c, part);
			bad += memcmp(one, part, 32) != 0;
		}
	}
	tap_ok(bad == 0, "split updates agree with one-shot (lengths 50..130 across 55/56/64)");
}

static void million_a(void)
{
	char *buf = malloc(1000000), hex[65];

	if (!buf) {
		tap_skip("no memory", "one million 'a'");
		return;
	}
	memset(buf, 'a', 1000000);
	bm_sha256_hex(buf, 1000000, hex);
	TAP_EQ_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
		   "one million 'a'");
	free(buf);
}

static void file_hash(void)
{
	const char *path = "tests/data/host_results.log";
	char a[65], b[65], *text;
	long n;
	FILE *f = fopen(path, "rb");

	if (!f) {
		tap_skip("fixture missing", "file digest");
		tap_skip("fixture missing", "missing file");
		return;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = malloc((size_t)n);
	if (!text || fread(text, 1, (size_t)n, f) != (size_t)n)
		tap_bail("cannot read the fixture");
	fclose(f);
	bm_sha256_hex(text, (size_t)n, a);
	TAP_EQ_INT(bm_sha256_file(path, b), 0, "bm_sha256_file reads the fixture");
	TAP_EQ_STR(b, a, "file digest equals buffer digest");
	tap_ok(bm_sha256_file("tests/data/no-such-file", b) < 0, "missing file is an error");
	free(text);
}

int main(void)
{
	tap_plan(0);
	vec("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	vec("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	vec("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	vec("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
	    "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
	splits();
	million_a();
	file_hash();
	return tap_done();
}
