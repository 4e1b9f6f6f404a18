// SPDX-License-Identifier: MIT
/* bench-boot's tables and BB1 lines (bench_cmd.h, docs/cli.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "bench_cmd.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of the known values of a phase over n runs; NAN if none. */
static double median_of(const struct image *im, int n, int phase)
{
	double s[MAX_RUNS];
	int i, k = 0;

	for (i = 0; i < n; i++)
		if (!isnan(im->bb[i].v[phase]))
			s[k++] = im->bb[i].v[phase];
	if (!k)
		return NAN;
	qsort(s, (size_t)k, sizeof(*s), cmp_double);
	return k % 2 ? s[k / 2] : (s[k / 2 - 1] + s[k / 2]) / 2;
}

off_t bm_bench_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : st.st_size;
}

/* The clock skew and the scan's cost are fractions of a millisecond. */
#define PREC(p) ((p) >= BM_BB_RATE ? 4 : 3)

/* "1.234", or "-" for an unknown value, into buf. */
static const char *fmt_s(char *buf, size_t len, double v, int prec)
{
	if (!isnan(v))
		snprintf(buf, len, "%.*f", prec, v);
	else
		snprintf(buf, len, "-");
	return buf;
}

static void breakdown(const struct bench *B)
{
	char a[32], b[32];
	int n = (int)B->o.runs, p, k;

	printf("breakdown, median of %d run(s), seconds:", n);
	for (k = 0; k < B->nimg; k++)
		printf(" %9s", B->img[k].name);
	printf("\n");
	for (p = 0; p < BM_BB_N; p++) {
		printf("  %-42s", bm_bb_label[p]);
		for (k = 0; k < B->nimg; k++) {
			double m = median_of(&B->img[k], n, p);

			printf(" %9s", fmt_s(a, sizeof(a), m, PREC(p)));
		}
		printf("\n");
	}
	for (p = 0; p < BM_BB_N; p++) {
		double m0 = median_of(&B->img[0], n, p);
		double m1 = B->nimg > 1 ? median_of(&B->img[1], n, p) : NAN;

		printf("BB1|phase|%s|%s|%s\n", bm_bb_name[p],
		       fmt_s(a, sizeof(a), m0, PREC(p)), fmt_s(b, sizeof(b), m1, PREC(p)));
	}
}

static void repeats(const struct bench *B)
{
	printf("boots repeated (died before their marker, logs *.failed*.log): %d\n", B->repeated);
	printf("BB1|repeated|%d\n", B->repeated);
}

void bm_bench_summary(const struct bench *B)
{
	int n = (int)B->o.runs;
	double ma = median_of(&B->img[0], n, BM_BB_WALL), mb = median_of(&B->img[1], n, BM_BB_WALL);
	double ratio = mb > 0 ? ma / mb : 0;
	const char *v = ratio <= TARGET_RATIO ? "PASS" : "FAIL";

	printf("median: bootmark %.3f s  trivial %.3f s\n", ma, mb);
	printf("ratio bootmark/trivial: %.3fx\n", ratio);
	printf("target <= %.2fx: %s\n", TARGET_RATIO, v);
	breakdown(B);
	repeats(B);
	printf("BB1|ratio|%.3f|<= %.2f|%s\n", ratio, TARGET_RATIO, v);
}

/* Medians per compressor and the fastest to HELLO. */
void bm_bench_compress_summary(const struct bench *B)
{
	int n = (int)B->o.runs, k, best = 0;
	char u[32];

	printf("%-6s %10s %14s %14s\n", "image", "bytes", "to HELLO, s", "unpack, s");
	for (k = 0; k < B->nimg; k++) {
		const struct image *im = &B->img[k];
		double w = median_of(im, n, BM_BB_WALL), un = median_of(im, n, BM_BB_UNPACK);
		long long bytes = (long long)bm_bench_size(im->initrd);

		if (w < median_of(&B->img[best], n, BM_BB_WALL))
			best = k;
		printf("%-6s %10lld %14.3f %14s\n", im->name, bytes, w, fmt_s(u, sizeof(u), un, 3));
		printf("BB1|compress|%s|%lld|%.3f|%s\n", im->name, bytes, w, fmt_s(u, sizeof(u), un, 3));
	}
	breakdown(B);
	repeats(B);
	printf("fastest: %s (median %.3f s to HELLO)\n", B->img[best].name,
	       median_of(&B->img[best], n, BM_BB_WALL));
	printf("BB1|fastest|%s|%.3f\n", B->img[best].name, median_of(&B->img[best], n, BM_BB_WALL));
}
