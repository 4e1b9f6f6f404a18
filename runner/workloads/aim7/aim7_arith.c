// SPDX-License-Identifier: MIT
/*
 * AIM7's arithmetic subtests, each one job as AIM VII defines it:
 *
 *   add.c      add_double (1500000 loops), add_float (1000000), add_long,
 *              add_int (5000000), add_short (2000000): 12 additions a loop
 *   mul.c      mul_double, mul_float (1000000), mul_long, mul_int (20000),
 *              mul_short (25000): 12 multiplications a loop
 *   div.c      div_double, div_float (250000), div_long, div_int,
 *              div_short (75000): 12 divisions a loop
 *   int_fcns.c sieve: 5 sieves of Eratosthenes below 1000000
 *   ram.c      ram_copy: 64 memcpy()s of the sizes in ram.c's table
 *
 * The loop bodies are AIM's, value for value: the operands come in at run
 * time (AIM sscanf()s them from the registered argument string), so the
 * compiler cannot fold the loops; here they pass through volatiles.  The
 * result goes to a volatile sink, as AIM stores it in results[].
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wl_aim7.h"

static volatile double sink_d;
static volatile float sink_f;
static volatile long sink_l;
static volatile int sink_i;
static volatile short sink_s;

/* add.c: d += d1; d1 += d2; d1 += d2; d2 += d; d2 += d; d += d1; d += d1;
 * d1 += d2; d1 += d2; d2 += d; d2 += d; d += d1 -- stable, d1 = -d2. */
#define AIM_ADD(name, T, sink, a1, a2, loops)                                     \
	static int name(struct aim7_env *env)                                    \
	{                                                                        \
		volatile T va = (a1), vb = (a2);                                 \
		volatile int vn = (loops);                                       \
		T x = 0, x1 = va, x2 = vb;                                       \
		int n;                                                           \
		(void)env;                                                       \
		for (n = vn; n > 0; n--) {                                       \
			x += x1; x1 += x2; x1 += x2; x2 += x; x2 += x; x += x1;  \
			x += x1; x1 += x2; x1 += x2; x2 += x; x2 += x; x += x1;  \
		}                                                                \
		sink = x;                                                        \
		return 0;                                                        \
	}

/* mul.c, double and float: d *= d1; d1 *= d2; d1 *= d2; d2 *= d; d2 *= d;
 * d *= d1; d *= d1; d1 *= d2; d1 *= d2; d2 *= d; d2 *= d; d *= d1. */
#define AIM_MUL_F(name, T, sink, a1, a2, loops)                                   \
	static int name(struct aim7_env *env)                                    \
	{                                                                        \
		volatile T va = (a1), vb = (a2);                                 \
		volatile int vn = (loops);                                       \
		T x = 1, x1 = va, x2 = vb;                                       \
		int n;                                                           \
		(void)env;                                                       \
		for (n = vn; n > 0; n--) {                                       \
			x *= x1; x1 *= x2; x1 *= x2; x2 *= x; x2 *= x; x *= x1;  \
			x *= x1; x1 *= x2; x1 *= x2; x2 *= x; x2 *= x; x *= x1;  \
		}                                                                \
		sink = x;                                                        \
		return 0;                                                        \
	}

/* mul.c, the integer types: l *= l1; l1 *= l2; l1 *= l2; l2 *= l1;
 * l2 *= l1; l *= l2; l *= l1; l1 *= l2; l1 *= l2; l2 *= l1; l2 *= l1;
 * l *= l2, from l = 12345678 (short: 1234) and l1 = l2 = 1. */
#define AIM_MUL_I(name, T, sink, init, loops)                                     \
	static int name(struct aim7_env *env)                                    \
	{                                                                        \
		volatile T va = 1, vb = 1;                                       \
		volatile int vn = (loops);                                       \
		T x = (init), x1 = va, x2 = vb;                                  \
		int n;                                                           \
		(void)env;                                                       \
		for (n = vn; n > 0; n--) {                                       \
			x *= x1; x1 *= x2; x1 *= x2; x2 *= x1; x2 *= x1; x *= x2; \
			x *= x1; x1 *= x2; x1 *= x2; x2 *= x1; x2 *= x1; x *= x2; \
		}                                                                \
		sink = x;                                                        \
		return 0;                                                        \
	}

/* div.c, double and float: d /= d1; d2 /= d; d1 /= d2; d2 /= d1; d /= d2;
 * d2 /= d; d /= d1; d2 /= d; d1 /= d2; d2 /= d1; d /= d2; d2 /= d. */
#define AIM_DIV_F(name, T, sink, loops)                                           \
	static int name(struct aim7_env *env)                                    \
	{                                                                        \
		volatile T va = 4.0, vb = 0.25;                                  \
		volatile int vn = (loops);                                       \
		T x = 1, x1 = va, x2 = vb;                                       \
		int n;                                                           \
		(void)env;                                                       \
		for (n = vn; n > 0; n--) {                                       \
			x /= x1; x2 /= x; x1 /= x2; x2 /= x1; x /= x2; x2 /= x;  \
			x /= x1; x2 /= x; x1 /= x2; x2 /= x1; x /= x2; x2 /= x;  \
		}                                                                \
		sink = x;                                                        \
		return 0;                                                        \
	}

/* div.c, the integer types: l /= l1; l /= l2; l1 /= l2; l2 /= l1, three
 * times a loop, from l = 1234578 (short: 1234) and l1 = l2 = 1. */
#define AIM_DIV_I(name, T, sink, init, loops)                                     \
	static int name(struct aim7_env *env)                                    \
	{                                                                        \
		volatile T va = 1, vb = 1;                                       \
		volatile int vn = (loops);                                       \
		T x = (init), x1 = va, x2 = vb;                                  \
		int n;                                                           \
		(void)env;                                                       \
		for (n = vn; n > 0; n--) {                                       \
			x /= x1; x /= x2; x1 /= x2; x2 /= x1;                    \
			x /= x1; x /= x2; x1 /= x2; x2 /= x1;                    \
			x /= x1; x /= x2; x1 /= x2; x2 /= x1;                    \
		}                                                                \
		sink = x;                                                        \
		return 0;                                                        \
	}

#define AIM_PI 3.14159

AIM_ADD(add_double, double, sink_d, AIM_PI, -AIM_PI, 1500000)
AIM_ADD(add_float, float, sink_f, 3.5f, -3.5f, 1000000)
AIM_ADD(add_long, long, sink_l, 3, -3, 5000000)
AIM_ADD(add_int, int, sink_i, 3, -3, 5000000)
AIM_ADD(add_short, short, sink_s, 3, -3, 2000000)
AIM_MUL_F(mul_double, double, sink_d, AIM_PI, 1.0 / AIM_PI, 1000000)
AIM_MUL_F(mul_float, float, sink_f, 4.0f, 0.25f, 1000000)
AIM_MUL_I(mul_long, long, sink_l, 12345678, 20000)
AIM_MUL_I(mul_int, int, sink_i, 12345678, 20000)
AIM_MUL_I(mul_short, short, sink_s, 1234, 25000)
AIM_DIV_F(div_double, double, sink_d, 250000)
AIM_DIV_F(div_float, float, sink_f, 250000)
AIM_DIV_I(div_long, long, sink_l, 1234578, 75000)
AIM_DIV_I(div_int, int, sink_i, 1234578, 75000)
AIM_DIV_I(div_short, short, sink_s, 1234, 75000)

/* int_fcns.c sieve(): "1000000 5" -- 5 sieves of a 10^6-byte table; the
 * count of entries still marked prime (0 and 1 included) must be 78500. */
static int sieve(struct aim7_env *env)
{
	volatile int vmax = 1000000, viter = 5;
	int max = vmax, iter, n, i, primes = 0;
	char *table = malloc((size_t)max);

	if (!table)
		return aim7_fail(env, ENOMEM, "sieve: %d bytes", max);
	for (iter = 0; iter < viter; iter++) {
		memset(table, 1, (size_t)max);
		for (n = 2; n < max; n++) {
			if (table[n] != 1)
				continue;
			for (i = n + n; i < max; i += n)
				table[i] = 0;
		}
	}
	for (n = 0; n < max; n++)
		primes += table[n] == 1;
	free(table);
	if (primes != 78500)
		return aim7_fail(env, EDOM, "sieve: %d primes, want 78500", primes);
	return 0;
}

/* ram.c's copy sizes: runs of 1..6 and 7s, a few larger blocks. */
static const int ram_sizes[] = {
	1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 7, 8, 9, 11, 17, 33, 63,
	7, 7, 7, 7, 7, 7, 1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 7,
	127, 256, 1001, 1200, 1492, 1500, 1024, 2048, 3172, 4096, 8192, 512,
	7, 7, 7, 7, 7, 7, 1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 7,
	8, 9, 11, 17, 33, 63, 7, 7, 7, 7, 7, 7, 1, 2, 3, 4, 5, 6,
	7, 7, 7, 7, 7, 7,
};

/* ram.c ram_copy(): "64" -- 64 memcpy()s, the size from the table, source
 * and destination at every offset 0..7. */
static int ram_copy(struct aim7_env *env)
{
	static char a[8192 + sizeof(double)], b[8192 + sizeof(double)];
	volatile int vn = 64;
	int n;

	(void)env;
	for (n = 0; n < vn; n++)
		memcpy(&b[n % sizeof(double)], &a[(n / sizeof(double)) % sizeof(double)],
		       (size_t)ram_sizes[n % (sizeof(ram_sizes) / sizeof(ram_sizes[0]))]);
	sink_i = b[64];
	return 0;
}

const struct aim7_test aim7_arith_tests[] = {
	{ "add_double", add_double, "add.c add_double()", "1500000 x 12 double additions" },
	{ "add_float", add_float, "add.c add_float()", "1000000 x 12 float additions" },
	{ "add_long", add_long, "add.c add_long()", "5000000 x 12 long additions" },
	{ "add_int", add_int, "add.c add_int()", "5000000 x 12 int additions" },
	{ "add_short", add_short, "add.c add_short()", "2000000 x 12 short additions" },
	{ "mul_double", mul_double, "mul.c mul_double()", "1000000 x 12 double multiplies" },
	{ "mul_float", mul_float, "mul.c mul_float()", "1000000 x 12 float multiplies" },
	{ "mul_long", mul_long, "mul.c mul_long()", "20000 x 12 long multiplies" },
	{ "mul_int", mul_int, "mul.c mul_int()", "20000 x 12 int multiplies" },
	{ "mul_short", mul_short, "mul.c mul_short()", "25000 x 12 short multiplies" },
	{ "div_double", div_double, "div.c div_double()", "250000 x 12 double divides" },
	{ "div_float", div_float, "div.c div_float()", "250000 x 12 float divides" },
	{ "div_long", div_long, "div.c div_long()", "75000 x 12 long divides" },
	{ "div_int", div_int, "div.c div_int()", "75000 x 12 int divides" },
	{ "div_short", div_short, "div.c div_short()", "75000 x 12 short divides" },
	{ "sieve", sieve, "int_fcns.c sieve()", "5 sieves below 1000000" },
	{ "ram_copy", ram_copy, "ram.c ram_copy()", "64 memcpy of 1..8192 bytes" },
	{ NULL, NULL, NULL, NULL },
};
