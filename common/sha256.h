/* SPDX-License-Identifier: MIT */
/* SHA-256 (FIPS 180-4), for recording what exactly was booted. */
#ifndef BM_SHA256_H
#define BM_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct bm_sha256 {
	uint32_t h[8];
	uint64_t total;      /* bytes fed so far */
	unsigned char buf[64];
	size_t used;
};

void bm_sha256_init(struct bm_sha256 *c);
void bm_sha256_update(struct bm_sha256 *c, const void *data, size_t len);
void bm_sha256_final(struct bm_sha256 *c, unsigned char out[32]);
/* Lowercase hex of the digest of buf or of a file (0 or -errno). */
void bm_sha256_hex(const void *buf, size_t len, char hex[65]);
int bm_sha256_file(const char *path, char hex[65]);

#endif
