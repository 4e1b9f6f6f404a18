// SPDX-License-Identifier: MIT
/* bonnie's report (runner/workloads/bonnie/report_bonnie.c) against a golden file, and the
 * CSV rules one by one. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "report_bonnie.h"
#include "tap.h"
#include "testutil.h"
#include "wldesc.h"

#define EXPECTED "tests/data/report_bonnie.expected"
#define NRES 40

static struct bm_rres res[NRES];
static struct bm_rrow rows[NRES];
static size_t nres;


/* A record as the runner emits it: the window's metrics, then bonnie's.
 * work is KiB, seeks or files; rate and cpu% are what the test measured. */
static struct bm_rres *add(const char *label, const char *fs, int rep, const char *params,
			   int test, double work, double rate, double cpu, double lat_us)
{
	static const char *const names[] = {
		"bon-putc", "bon-block-w", "bon-rewrite", "bon-getc", "bon-block-r", "bon-seeks",
		"bon-seq-create", "bon-seq-stat", "bon-seq-del", "bon-rnd-create",
		"bon-rnd-stat", "bon-rnd-del",
	};
	static const char *const units[] = { "KiB/s", "ops/s", "files/s" };
	struct bm_rres *h = &res[nres];
	double elapsed = work / rate;

	memset(h, 0, sizeof(*h));
	h->seq = nres + 2;
	h->rep = rep;
	snprintf(h->wl, sizeof(h->wl), "bonnie");
	snprintf(h->fs, sizeof(h->fs), "%s", fs);
	snprintf(h->test, sizeof(h->test), "%s", names[test]);
	snprintf(h->params, sizeof(h->params), "%s", params);
	tu_rmetric(h, "real", elapsed + 0.01, "s");
	tu_rmetric(h, "utime", 0.1, "s");
	tu_rmetric(h, "stime", 0.2, "s");
	tu_rmetric(h, "rate", rate, units[test < 5 ? 0 : test == 5 ? 1 : 2]);
	tu_rmetric(h, "cpu", (int)cpu, "%");
	tu_rmetric(h, "cpu_s", cpu / 100 * elapsed, "s");
	tu_rmetric(h, "elapsed", elapsed, "s");
	tu_rmetric(h, "lat", lat_us, "us");
	rows[nres].label = label;
	rows[nres].r = h;
	nres++;
	return h;
}

#define P256 "size=256M chunk=8k charsize=3M seeks=8192 seekers=5 num=16 dirs=1 seed=0"
#define PF "size=32M chunk=8k charsize=3M seeks=8192 seekers=5 num=4 dirs=8 seed=3 " \
	   "max_size=4k min_size=1k"

/* Seed 001's TEST5 figures on EXT4, a slower XFS, a repeat, a short test. */
static void fixture(void)
{
	static const double io[2][6][3] = {
		{ { 3618, 99.2, 2900 }, { 11135, 16.0, 81000 }, { 5981, 10.8, 120000 },
		  { 3005, 88.8, 3100 }, { 18268, 17.8, 45000 }, { 185.4, 2.9, 310000 } },
		{ { 3412, 98.7, 3500 }, { 9915, 14.7, 96000 }, { 6013, 11.3, 150000 },
		  { 2894, 86.0, 4000 }, { 18502, 19.1, 52000 }, { 1181.4, 3.1, 1200000 } },
	};
	static const double files[6][3] = {
		{ 1670, 40.3, 1900 }, { 30000, 99.3, 310 }, { 2063, 28.3, 65000 },
		{ 1661, 38.0, 2300 }, { 535, 99.3, 890 }, { 1313, 21.3, 120000000 },
	};
	const char *label[2] = { "EXT4 6.1.0-53", "XFS 6.1.0-53" }, *fs[2] = { "ext4", "xfs" };
	int l, t;

	for (l = 0; l < 2; l++) {
		for (t = 0; t < 6; t++) {
			double work = t == 5 ? 8192 : t == 0 || t == 3 ? 3072 : 262144;

			add(label[l], fs[l], 1, P256, t, work, io[l][t][0], io[l][t][1], io[l][t][2]);
		}
		for (t = 0; t < 6; t++)
			add(label[l], fs[l], 1, P256, 6 + t, 16384, files[t][0] * (l ? 0.5 : 1),
			    files[t][1], files[t][2]);
	}
	/* a repeat of EXT4's block write, and a stat that took 0.2 s: "+++++" */
	add(label[0], fs[0], 2, P256, 1, 262144, 11066, 15.6, 79000);
	add(label[0], fs[0], 2, P256, 7, 16384, 81920, 99.9, 40);
	/* another job: file tests only, sizes and directories; one went partial */
	for (t = 6; t < 12; t++)
		add(label[1], fs[1], 1, PF, t, 4096, 900 + t, 50.5, 2000)->partial = t == 11;
}

static int split(char *line, char **f, int max)
{
	int n = 0;
	char *p = line;

	while (p && n < max) {
		f[n++] = p;
		p = strchr(p, ',');
		if (p)
			*p++ = '\0';
	}
	return n;
}

/* The CSV of EXT4's first row, field by field (bon_csv2html.cpp's indexes). */
static void csv_fields(void)
{
	const struct bm_rres *t[BON_REPORT_TESTS] = { NULL };
	char line[1024], *f[64], lat[16];
	size_t i;

	for (i = 0; i < 12; i++)
		t[report_bonnie_index(res[i].test)] = &res[i];
	TAP_EQ_INT(report_bonnie_csv(line, sizeof(line), "EXT4 6.1.0-53", t), 0, "csv");
	TAP_EQ_INT(split(line, f, 64), 50, "50 fields");
	TAP_EQ_STR(f[5], "256M", "file_size in MiB");
	TAP_EQ_STR(f[6], "", "io_chunk_size empty as 2.00a");
	TAP_EQ_STR(f[7], "8192", "seeks");
	TAP_EQ_STR(f[8], "5", "seek_proc_count");
	TAP_EQ_STR(f[9], "3618", "putc K/sec");
	TAP_EQ_STR(f[10], "99", "putc %CPU is int(99.2)");
	TAP_EQ_STR(f[11], "11135", "put_block");
	TAP_EQ_STR(f[19], "185.4", "seeks under 1000: one decimal");
	TAP_EQ_STR(f[20], "2", "seeks %CPU");
	TAP_EQ_STR(f[21], "16", "num_files");
	TAP_EQ_STR(f[22], "", "max_size empty");
	TAP_EQ_STR(f[24], "", "num_dirs empty for one directory");
	TAP_EQ_STR(f[28], "30000", "seq_stat");
	TAP_EQ_STR(f[38], "2900us", "putc latency");
	TAP_EQ_STR(f[40], "120ms", "rewrite latency in ms over 0.1 s");
	TAP_EQ_STR(f[49], "120s", "ran_del latency in s over 100 s");
	t[1] = NULL;
	for (i = 6; i < 12; i++)
		t[i] = NULL;
	report_bonnie_csv(line, sizeof(line), "x", t);
	TAP_EQ_INT(split(line, f, 64), 50, "50 fields with tests missing");
	tap_ok(!f[11][0] && !f[12][0] && !f[39][0], "a missing test: empty fields");
	tap_ok(!f[21][0] && !f[26][0] && !f[49][0], "no file tests: empty as -n 0");
	for (i = 0; i < BON_REPORT_TESTS; i++)
		t[i] = NULL;
	t[7] = &res[25];  /* the 0.2 s stat */
	report_bonnie_csv(line, sizeof(line), "x", t);
	TAP_EQ_INT(split(line, f, 64), 50, "50 fields, file tests only");
	tap_ok(!f[5][0] && !f[7][0] && !f[8][0], "no I/O tests: empty as -s 0");
	TAP_EQ_STR(f[28], "+++++", "under 0.5 s: +++++");
	TAP_EQ_STR(f[29], "+++", "and +++ for %CPU");
	TAP_EQ_STR(f[45], "40us", "its latency is kept");
	t[7] = &res[27];  /* max/min/dirs job */
	report_bonnie_csv(line, sizeof(line), "x", t);
	split(line, f, 64);
	tap_ok(!strcmp(f[21], "4") && !strcmp(f[22], "4096") && !strcmp(f[23], "1024") &&
	       !strcmp(f[24], "8") && !f[25][0], "num,max,min,dirs,chunk = 4,4096,1024,8,\"\"");
	TAP_EQ_INT(report_bonnie_csv(line, 40, "x", t), -E2BIG, "short buffer: -E2BIG");
	report_bonnie_lat(lat, sizeof(lat), 99999);
	TAP_EQ_STR(lat, "99999us", "0.099999 s is still us");
	report_bonnie_lat(lat, sizeof(lat), 100000);
	TAP_EQ_STR(lat, "100ms", "0.1 s is ms");
	report_bonnie_lat(lat, sizeof(lat), 0);
	TAP_EQ_STR(lat, "", "no latency: empty");
}

int main(void)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	tap_plan(0);
	fixture();
	TAP_EQ_INT(report_bonnie_index("bon-seeks"), 5, "seeks is test 5");
	TAP_EQ_INT(report_bonnie_index("dd32w"), -1, "not a bonnie test");
	f = open_memstream(&out, &len);
	if (!f)
		tap_bail("open_memstream failed");
	bm_report_print(f, rows, nres);
	fclose(f);
	tu_golden(EXPECTED, "/tmp/report_bonnie.expected.actual", "report", out, len);
	free(out);
	csv_fields();
	return tap_done();
}
