/* SPDX-License-Identifier: MIT */
/*
 * CRC-32 as in IEEE 802.3 and zlib's crc32(): reflected polynomial
 * 0xedb88320, initial value and final xor 0xffffffff.  Pass 0 as crc to
 * start and the previous result to continue, exactly like zlib, so
 * bm_crc32(0, "123456789", 9) == 0xcbf43926.
 *
 * The table is built on first use rather than spelled out: 256 magic
 * numbers are harder to review than the eight-line loop that makes them.
 * Building it twice from two threads writes the same values, so no lock.
 */
#include "proto.h"

static uint32_t crc_table[256];
static int crc_table_ready;

static void crc_table_init(void)
{
	for (uint32_t n = 0; n < 256; n++) {
		uint32_t c = n;

		for (int k = 0; k < 8; k++)
			c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[n] = c;
	}
	crc_table_ready = 1;
}

uint32_t bm_crc32(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	if (!crc_table_ready)
		crc_table_init();
	crc = ~crc;
	while (len--)
		crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}
