// SPDX-License-Identifier: MIT
/* bench-boot's tables and BB1 lines (bench_cmd.h, docs/cli.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	char a[32];
	int n = (int)B->o.runs, p, k;

	printf("breakdown, median of %d run(s), seconds:", n);
	for (k = 0; k < B->nimg; k++)
		printf(" %12s", B->img[k].name);
	printf("\n");
	for (p = 0; p < BM_BB_N; p++) {
		printf("  %-42s", bm_bb_label[p]);
		for (k = 0; k < B->nimg; k++) {
			double m = median_of(&B->img[k], n, p);

			printf(" %12s", fmt_s(a, sizeof(a), m, PREC(p)));
		}
		printf("\n");
	}
	/* fields: the images in order (bootmark, trivial, then the other method's) */
	for (p = 0; p < BM_BB_N; p++) {
		printf("BB1|phase|%s", bm_bb_name[p]);
		for (k = 0; k < B->nimg || k < 2; k++)
			printf("|%s", fmt_s(a, sizeof(a), k < B->nimg ? median_of(&B->img[k], n, p) : NAN,
					    PREC(p)));
		printf("\n");
	}
}

/* The image of method m, trivial or not; NULL when it was not booted. */
static const struct image *find_image(const struct bench *B, const char *m, int trivial)
{
	int k;

	for (k = 0; k < B->nimg; k++)
		if (!strcmp(B->img[k].method, m) && B->img[k].trivial == trivial)
			return &B->img[k];
	return NULL;
}

/*
 * Where a boot to HELLO goes, from the medians: QEMU and firmware (the PVH
 * floor's time before the guest clock starts), the bzImage's decompression
 * (what the bzImage floor adds to that), the kernel's start-up (the floor's
 * kernel to its line), the initramfs unpack and the runner (/init to HELLO)
 * of the bootmark image.
 */
static void split(const struct bench *B)
{
	const struct image *tp = find_image(B, "pvh", 1), *tb = find_image(B, "bzimage", 1);
	const struct image *bm = &B->img[0];
	/* arm64's one method (image): its trivial boot is the floor */
	const struct image *floor = tp ? tp : tb ? tb : find_image(B, bm->method, 1);
	int n = (int)B->o.runs, p;
	double v[5], runner = 0;
	const char *const name[5] = { "qemu-firmware", "decompression", "kernel-startup",
				      "initramfs-unpack", "runner" };
	const char *const label[5] = {
		"QEMU + firmware + loading (floor: wall - guest t)",
		"bzImage decompression (bzImage floor - PVH floor)",
		"kernel start-up (floor: guest t at its line)",
		"initramfs unpack (bootmark image)",
		"runner (/init to HELLO, bootmark image)",
	};
	char a[32];

	v[0] = floor ? median_of(floor, n, BM_BB_FW) : NAN;
	v[1] = tp && tb ? median_of(tb, n, BM_BB_FW) - median_of(tp, n, BM_BB_FW) : NAN;
	v[2] = floor ? median_of(floor, n, BM_BB_KERNEL) : NAN;
	v[3] = median_of(bm, n, BM_BB_UNPACK);
	for (p = BM_BB_RUNNER; p <= BM_BB_HELLO; p++)
		runner += median_of(bm, n, p);  /* NAN when any is unknown */
	v[4] = runner;
	printf("where the time goes (%s boot of the bootmark image, medians):\n", bm->method);
	for (p = 0; p < 5; p++) {
		printf("  %-50s %9s\n", label[p], fmt_s(a, sizeof(a), v[p], 3));
		printf("BB1|split|%s|%s\n", name[p], fmt_s(a, sizeof(a), v[p], 3));
	}
}

/*
 * The verdict is median over median; beside it, each run's own ratio (the
 * two boots of a run are minutes apart at most) and their geometric mean
 * and range, so a reader sees how far one invocation's figure can move on
 * a host whose speed changes under it (docs/bench.md).
 */
static void pairs(const struct bench *B, int floor)
{
	int n = (int)B->o.runs, i, k = 0;
	double lsum = 0, lo = INFINITY, hi = -INFINITY, a, f, r;

	for (i = 0; i < n; i++) {
		a = B->img[0].bb[i].v[BM_BB_WALL];
		f = B->img[floor].bb[i].v[BM_BB_WALL];
		if (isnan(a) || isnan(f) || f <= 0)
			continue;
		r = a / f;
		lsum += log(r);
		lo = r < lo ? r : lo;
		hi = r > hi ? r : hi;
		k++;
	}
	if (!k)
		return;
	printf("each run's ratio to the floor's boot of that run: geometric mean %.3fx, "
	       "%.3fx to %.3fx over %d run(s)\n", exp(lsum / k), lo, hi, k);
	printf("BB1|pairs|%.3f|%.3f|%.3f|%d\n", exp(lsum / k), lo, hi, k);
}

static void repeats(const struct bench *B)
{
	printf("boots repeated (died before their marker, logs *.failed*.log): %d\n", B->repeated);
	printf("BB1|repeated|%d\n", B->repeated);
}

void bm_bench_summary(const struct bench *B)
{
	int n = (int)B->o.runs, k, floor = 1;
	const struct image *bp = find_image(B, "pvh", 0), *bz = find_image(B, "bzimage", 0);
	double ma = median_of(&B->img[0], n, BM_BB_WALL), mf, ratio;
	const char *v;

	printf("median to the marker:");
	for (k = 0; k < B->nimg; k++) {
		double m = median_of(&B->img[k], n, BM_BB_WALL);

		printf("  %s (%s) %.3f s", B->img[k].name, B->img[k].method, m);
		if (B->img[k].trivial && m < median_of(&B->img[floor], n, BM_BB_WALL))
			floor = k;
	}
	printf("\n");
	for (k = 0; k < B->nimg; k++)
		printf("BB1|image|%s|%s|%.3f\n", B->img[k].name, B->img[k].method,
		       median_of(&B->img[k], n, BM_BB_WALL));
	mf = median_of(&B->img[floor], n, BM_BB_WALL);
	ratio = mf > 0 ? ma / mf : 0;
	v = ratio <= TARGET_RATIO ? "PASS" : "FAIL";
	printf("floor (the fastest trivial boot): %s, %s, %.3f s\n", B->img[floor].name,
	       B->img[floor].method, mf);
	printf("ratio bootmark (%s)/floor: %.3fx\n", B->img[0].method, ratio);
	printf("target <= %.2fx: %s\n", TARGET_RATIO, v);
	printf("BB1|floor|%s|%s|%.3f\n", B->img[floor].name, B->img[floor].method, mf);
	pairs(B, floor);
	if (bp && bz) {
		double s = median_of(bp, n, BM_BB_WALL) / median_of(bz, n, BM_BB_WALL);

		printf("bootmark image, PVH / bzImage: %.3fx\n", s);
		printf("BB1|pvh-bzimage|%.3f\n", s);
	}
	breakdown(B);
	split(B);
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
