// SPDX-License-Identifier: MIT
/*
 * AIM7's num_fcns.c subtests, each one job with AIM VII's loop counts:
 *
 *   num_rtns_1  100 rounds of exp, log10, log, modf, frexp, ldexp, fmod,
 *               pow, sqrt, srand, rand, labs on values from vals10[]
 *   new_raph    200 Newton-Raphson zeros of 1000 sin(x) cos(x)
 *   trig_rtns   10000 rounds (100 x 100) of sin asin cos acos tan atan
 *               tanh sinh cosh atan2
 *   matrix_rtns 100 4x4 matrix times vector products
 *   array_rtns  20 linear systems, 5 to 100 equations, Gauss elimination
 *   series_1    100 sine series summed to convergence, checked with sin()
 *   string_rtns, mem_rtns_1, mem_rtns_2, misc_rtns_1, shell_rtns_1: in
 *               runner/workloads/aim7/aim7_str.c
 *   sort_rtns_1 "10" in steps of 5: 2 rounds of 3 qsort()s of 10000 ints
 *               and 2000 bsearch()es
 *   dir_rtns_1  10000 readdir()s of /bin, rewinding at its end
 *
 * vals[] and vals10[] are num_fcns_c()'s tables; vals10 takes its values
 * from aim_rand() where AIM called the C library's rand(), so that glibc
 * and musl builds use the same numbers.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wl_aim7.h"

#define NUMVALS 500
#define NUM10VALS 10000
#define SORTSIZE 10000

static double vals[NUMVALS], vals10[NUM10VALS];
static int sort_table[SORTSIZE];
static volatile double fake1, fake2, fake3, fake4, fake5;
static int num_ready;

void aim7_num_init(void)
{
	double t1 = 1.0, t2 = 1.0;
	unsigned long seed = 1;    /* rand()'s state before any srand() */
	int i;

	if (num_ready)
		return;
	while (t1 > 0.0) {         /* the smallest positive double */
		t2 = t1;
		t1 /= 2.0;
	}
	vals[0] = 0.0;
	vals[1] = 1.0;
	vals[2] = t2;
	for (i = 3; i < NUMVALS; i++)
		vals[i] = fabs(vals[i - 2] - vals[i - 1]) / 2.0;
	for (i = 0; i < NUM10VALS; i++)
		vals10[i] = i % 100 == 0 ? t2 : aim7_rand(&seed) / 32767.0 * 20.0 - 10.0;
	for (i = 0; i < SORTSIZE; i++)
		sort_table[i] = i;
	num_ready = 1;
}

static double next_value(struct aim7_env *env)
{
	return vals[env->vals_i++ % NUMVALS];
}

/* num_fcns.c's ARG, POS and NEG: the next value of vals10[] (-10..10),
 * shifted positive or negative.  Functions, not AIM's macros: several in
 * one expression would be unsequenced. */
static double arg(struct aim7_env *env)
{
	return vals10[env->vals10_i++ % NUM10VALS];
}

static double pos(struct aim7_env *env)
{
	return arg(env) + 10.0001;
}

static double neg(struct aim7_env *env)
{
	return arg(env) - 10.0001;
}

/* num_fcns.c num_rtns_1() */
static int num_rtns_1(struct aim7_env *env)
{
	double dtemp;
	int n, itemp = 0;

	for (n = 0; n < 100; n++) {
		fake1 = floor(exp(arg(env))) + ceil(log10(pos(env)));
		fake2 = modf(log(pos(env)), &dtemp) + frexp(neg(env), &itemp);
		fake3 = ldexp(arg(env), abs(-itemp)) + fabs(fmod(arg(env) * 5, pos(env)));
		fake4 = sqrt(pow(pos(env), arg(env)));
		srand((unsigned)itemp);
		fake5 = (double)labs((long)(-rand() + n));
	}
	return 0;
}

static double nr_f(double x)
{
	return 1000.0 * sin(x) * cos(x);
}

static double nr_fprime(double x)
{
	double c = cos(x), s = sin(x);

	return -(s * s * 1000.0) + (c * c * 1000.0);
}

/* num_fcns.c newton_raphson(): "200" zeros from starts 0.05 n; a start
 * that takes 100 steps fails the job. */
static int new_raph(struct aim7_env *env)
{
	double p = 0, p0;
	int n, i;

	for (n = 0; n < 200; n++) {
		p0 = 0.05 * n;
		for (i = 1; i < 100; i++) {
			p = p0 - nr_f(p0) / nr_fprime(p0);
			if (fabs(p - p0) == 0.0)
				break;
			p0 = p;
		}
		if (i >= 100)
			return aim7_fail(env, EDOM, "new_raph: no zero from %g in 100 tries", 0.05 * n);
	}
	fake1 = p;
	return 0;
}

/* num_fcns.c trig_rtns(): "100", scaled by 100. */
static int trig_rtns(struct aim7_env *env)
{
	int n;

	for (n = 0; n < 100 * 100; n++) {
		fake1 = acos(cos(asin(sin(arg(env)))));
		fake2 = tanh(atan(tan(arg(env))));
		fake3 = atan2(sinh(arg(env)), cosh(arg(env)));
	}
	return 0;
}

/* num_fcns.c matrix_rtns(): "100" transforms of a point by a 4x4 matrix. */
static int matrix_rtns(struct aim7_env *env)
{
	double v1[4], v2[4][4], v3[4], prod = 0;
	int n, i, j;

	for (n = 0; n < 100; n++) {
		for (i = 0; i < 4; i++)
			v1[i] = next_value(env);
		for (i = 0; i < 4; i++)
			for (j = 0; j < 4; j++)
				v2[i][j] = next_value(env);
		for (i = 0; i < 4; i++) {
			v3[i] = 0.0;
			for (j = 0; j < 4; j++)
				v3[i] += v1[j] * v2[i][j];
		}
		prod += v3[0] * v3[1] * v3[2];
		fake1 = (int)(v3[0] * 1280.0) + (int)(v3[1] * 1024.0) + (int)(v3[2] * 8192.0) + prod;
	}
	return 0;
}

#define M(a, x, y) (a)[(x) + wide * (y)]

/* num_fcns.c solve_array(): upper triangular, then the identity; the
 * solution is the last column.  0 when singular. */
static int solve_array(double *a, double *b, int wide, int high)
{
	double t;
	int i, j, k;

	for (i = 0; i < high; i++) {
		t = M(a, i, i);
		if (t == 0.0)
			return 0;
		for (j = i; j < wide; j++)
			M(a, j, i) /= t;
		for (j = i + 1; j < high; j++) {
			t = M(a, i, j);
			for (k = 0; k < wide; k++)
				M(a, k, j) -= t * M(a, k, i);
		}
	}
	for (i = high - 1; i > 0; i--)
		for (j = i - 1; j >= 0; j--) {
			t = M(a, i, j);
			for (k = 0; k < wide; k++)
				M(a, k, j) -= t * M(a, k, i);
		}
	for (i = 0; i < high; i++)
		b[i] = M(a, wide - 1, i);
	return 1;
}

/* num_fcns.c test(): every row of the original system within .5. */
static int check_array(const double *a, const double *b, int wide, int high)
{
	double t;
	int i, j;

	for (i = 0; i < high; i++) {
		for (t = 0.0, j = 0; j < high; j++)
			t += M(a, j, i) * b[j];
		if (fabs(M(a, wide - 1, i) - t) > .5)
			return 0;
	}
	return 1;
}

/* num_fcns.c array_rtns(): "20" systems of 5, 10, ... equations. */
static int array_rtns(struct aim7_env *env)
{
	static double a[100 * 101], orig[100 * 101], res[100];
	double val = 1.0;
	int n, high, wide, j, k;

	memset(a, 0, sizeof(a));
	for (high = 5, n = 0; n < 20; n++, high += 5) {
		if (high > 100)
			high = 5;
		wide = high + 1;
		for (j = 0; j < high; j++)
			for (k = 0; k < wide; k++) {
				M(a, k, j) = val;
				val = val * 1.00001 + 1.0;
				if (val > 1e20)
					val -= 1e19;
			}
		memcpy(orig, a, sizeof(a));
		if (!solve_array(a, res, wide, high))
			return aim7_fail(env, EDOM, "array_rtns: singular matrix of size %d", high);
		if (!check_array(orig, res, wide, high))
			return aim7_fail(env, EDOM, "array_rtns: wrong solution of size %d", high);
	}
	return 0;
}

/* num_fcns.c series_1(): "100" sines summed x/1! - x^3/3! ... until a term
 * adds nothing, compared with sin(). */
static int series_1(struct aim7_env *env)
{
	double d0, d1, old, sine, sq, fact, i;
	int n;

	for (n = 0; n < 100; n++) {
		d0 = d1 = next_value(env);
		old = 100.0;
		sine = 0.0;
		sq = d1 * d1;
		fact = 1.0;
		for (i = 1.0; sine != old; i += 2) {
			old = sine;
			sine += d1 / fact;
			fact *= (i + 1) * (i + 2);
			d1 *= -sq;
		}
		if (fabs(sine - sin(d0)) > .0001)
			return aim7_fail(env, EDOM, "series_1: sine of %g is %g, sin() says %g", d0,
					 sine, sin(d0));
	}
	return 0;
}

/* num_fcns.c dir_rtns_1(): "100" x 100 readdir()s of /bin. */
static int dir_rtns_1(struct aim7_env *env)
{
	DIR *d = opendir("/bin");
	int n, count = 0;

	if (!d)
		return aim7_fail(env, errno, "dir_rtns_1: unable to open /bin");
	for (n = 0; n < 100 * 100; n++)
		if (!readdir(d)) {
			count++;
			rewinddir(d);
		}
	closedir(d);
	fake1 = count;
	return 0;
}

/* num_fcns.c sort_rtns_1(): "10" in steps of 5; the table starts (and
 * stays between jobs) ascending, "worst case for qsort". */
static int cmp_up(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static int cmp_down(const void *a, const void *b)
{
	return *(const int *)b - *(const int *)a;
}

static int sort_rtns_1(struct aim7_env *env)
{
	int n, i, missing = 0;

	(void)env;
	for (n = 0; n < 10; n += 5) {
		qsort(sort_table, SORTSIZE, sizeof(int), cmp_up);
		qsort(sort_table, SORTSIZE, sizeof(int), cmp_down);
		qsort(sort_table, SORTSIZE, sizeof(int), cmp_up);
		for (i = 0; i < SORTSIZE * 2; i += 10)
			missing += !bsearch(&i, sort_table, SORTSIZE, sizeof(int), cmp_up);
	}
	fake1 = missing;
	return 0;
}

const struct aim7_test aim7_num_tests[] = {
	{ "num_rtns_1", num_rtns_1, "num_fcns.c num_rtns_1()", "100 rounds of 15 libm calls" },
	{ "new_raph", new_raph, "num_fcns.c newton_raphson()", "200 zeros found" },
	{ "trig_rtns", trig_rtns, "num_fcns.c trig_rtns()", "10000 rounds of 10 trig calls" },
	{ "matrix_rtns", matrix_rtns, "num_fcns.c matrix_rtns()", "100 4x4 transforms" },
	{ "array_rtns", array_rtns, "num_fcns.c array_rtns()", "20 linear systems solved" },
	{ "series_1", series_1, "num_fcns.c series_1()", "100 sine series" },
	{ "string_rtns", aim7_string_rtns, "num_fcns.c string_rtns_1()", "100 string rounds" },
	{ "mem_rtns_1", aim7_mem_rtns_1, "num_fcns.c mem_rtns_1()", "100 x 300 allocations" },
	{ "mem_rtns_2", aim7_mem_rtns_2, "num_fcns.c mem_rtns_2()", "100 rounds of 6 mem* calls" },
	{ "sort_rtns_1", sort_rtns_1, "num_fcns.c sort_rtns_1()",
	  "2 x 3 qsorts of 10000 ints, 4000 bsearches" },
	{ "misc_rtns_1", aim7_misc_rtns_1, "num_fcns.c misc_rtns_1()", "10 rounds of 20 system calls" },
	{ "dir_rtns_1", dir_rtns_1, "num_fcns.c dir_rtns_1()", "10000 readdir of /bin" },
	{ "shell_rtns_1", aim7_shell_rtns_1, "num_fcns.c shell_rtns_1(), aim_system()",
	  "one aim_1.sh through system()" },
	{ NULL, NULL, NULL, NULL },
};
