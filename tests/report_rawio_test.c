// SPDX-License-Identifier: MIT
/* rawio's table (runner/workloads/rawio/report_rawio.c) against a golden file:
 * random reads of the whole disk through several engines and depths on two
 * kernels, a repeat, a partial result, a record without its percentiles (cells
 * "-", not 0), and random writes of a region in a block of their own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "tap.h"
#include "testutil.h"
#include "wl_rawio.h"

#define EXPECTED "tests/data/report_rawio.expected"
#define NRES 12

static struct bm_rres res[NRES];
static struct bm_rrow rows[NRES];
static size_t nres;


/* One result; lat < 0: a record without the percentiles. */
static struct bm_rres *add(const char *label, const char *params, double iops, double lat,
			   double cpu)
{
	struct bm_rres *h = &res[nres];

	memset(h, 0, sizeof(*h));
	h->seq = nres + 2;
	h->rep = 1;
	snprintf(h->wl, sizeof(h->wl), "rawio");
	snprintf(h->fs, sizeof(h->fs), "raw");
	snprintf(h->test, sizeof(h->test), "raw-x");
	snprintf(h->params, sizeof(h->params), "%s", params);
	tu_rmetric(h, "real", 1.5, "s");
	tu_rmetric(h, "iops", iops, "ops/s");
	tu_rmetric(h, "bw", iops * 4096 / 1048576, "MiB/s");
	if (lat >= 0) {
		tu_rmetric(h, "lat_p50", lat, "ms");
		tu_rmetric(h, "lat_p99", lat * 4, "ms");
		tu_rmetric(h, "lat_p999", lat * 9, "ms");
	}
	tu_rmetric(h, "cpu_io", cpu, "us");
	rows[nres].label = label;
	rows[nres].r = h;
	nres++;
	return h;
}

#define RD(e, q, b) "engine=" e " rw=randread bs=4k qd=" q " batch=" b " ios=20000 size=0"
#define WR(e, q, b) "engine=" e " rw=randwrite bs=4k qd=" q " batch=" b " ios=5000 size=1G"

int main(void)
{
	struct bm_rres *h;
	char *got = NULL;
	size_t glen = 0;
	FILE *f;

	tap_plan(1);
	add("RAW 6.1.0-53", RD("psync", "1", "1x1"), 8331, 0.1039, 39.9);
	add("RAW 6.1.0-53", RD("io_uring", "32", "8x8"), 25786, 0.5448, 38.2);
	add("RAW 6.1.0-53", RD("uring_cmd_hipri", "32", "8x8"), 27010, 0.4501, 36.9);
	h = add("RAW 6.1.0-53", RD("io_uring", "32", "8x8"), 24990, 0.5612, 39.0);
	h->rep = 2;
	add("RAW 6.12.117+deb12", RD("psync", "1", "1x1"), 4466, 0.0957, 107.7);
	h = add("RAW 6.12.117+deb12", RD("sqpoll", "32", "1x1"), 1137, 0.4567, 1728.9);
	h->partial = 1;
	add("RAW 6.12.117+deb12", RD("libaio", "32", "4x1"), 8521, -1, 92.2);
	add("RAW 6.1.0-53", WR("uring_cmd", "32", "8x8"), 10962, 1.0199, 46.3);
	f = open_memstream(&got, &glen);
	if (!f)
		return 1;
	report_rawio_ops.print(f, rows, nres);
	fclose(f);
	tu_golden(EXPECTED, "/tmp/report_rawio.expected.actual", "the rawio table", got, glen);
	free(got);
	return tap_done();
}
