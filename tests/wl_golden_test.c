// SPDX-License-Identifier: MIT
/* bootmark's report formatters against what the original tools printed
 * (tests/data/bonnie++-2.00a.txt, tests/data/dbench-4.0.txt, each captured
 * from the real tool, its command line in its first lines):
 *
 *  - dbench: records made of dbench's own figures must come out of
 *    runner/workloads/dbench/report_dbench.c as dbench's per-op lines and Throughput line,
 *    byte for byte;
 *  - bonnie++: records made of bonnie++'s CSV figures must give, through
 *    report_bonnie_csv(), bonnie++'s own CSV line (all 50 fields but the
 *    version, which says bootmark);
 *  - bon_csv2html, bonnie++'s own reader, renders both lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report.h"
#include "report_bonnie.h"
#include "tap.h"
#include "testutil.h"
#include "wl_dbench.h"

#define BON_FIXTURE "tests/data/bonnie++-2.00a.txt"
#define DB_FIXTURE "tests/data/dbench-4.0.txt"

static void metric(struct bm_rres *h, const char *name, double v, const char *unit)
{
	struct bm_rmetric *m = &h->m[h->nm++];

	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->unit, sizeof(m->unit), "%s", unit);
	m->value = v;
}

/* The fixture's lines without its "#" note, NUL-terminated. */
static char *fixture(const char *path)
{
	char *text = NULL, *out, *p, *nl;
	size_t len = 0, n = 0;

	if (bm_read_file(path, &text, &len, 1 << 20))
		return NULL;
	out = calloc(1, len + 1);
	for (p = text; out && p < text + len; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(text + len - p));
		if (!nl)
			nl = text + len;
		if (*p != '#') {
			memcpy(out + n, p, (size_t)(nl - p));
			n += (size_t)(nl - p);
			out[n++] = '\n';
		}
	}
	free(text);
	return out;
}

/* dbench's per-op names and the record's metric stems (report_dbench.c). */
static const char *const db_ops[][2] = {
	{ "NTCreateX", "create" }, { "Close", "close" }, { "Qpathinfo", "qpath" },
	{ "Find", "find" }, { "WriteX", "write" }, { "ReadX", "read" },
};

static void test_dbench(void)
{
	char *fx = fixture(DB_FIXTURE), *got = NULL, want[4096] = "", line[160], key[32];
	struct bm_rres h;
	struct bm_rrow row = { .label = "EXT4 test", .r = &h };
	double tput = 0, lat = 0, a, b;
	unsigned cnt, k;
	size_t glen = 0;
	FILE *f;
	char *p;

	if (!fx) {
		tap_ok(0, "cannot read %s", DB_FIXTURE);
		return;
	}
	memset(&h, 0, sizeof(h));
	snprintf(h.wl, sizeof(h.wl), "dbench");
	snprintf(h.test, sizeof(h.test), "dbench2");
	snprintf(h.params, sizeof(h.params), "clients=2 time=3 warmup=0 loadfile=client.txt");
	h.rep = 1;
	for (k = 0; k < 6; k++) {
		snprintf(line, sizeof(line), "\n %s ", db_ops[k][0]);
		p = strstr(fx, line);
		if (!p || sscanf(p, " %*s %u %lf %lf", &cnt, &a, &b) != 3) {
			tap_ok(0, "%s in the dbench fixture", db_ops[k][0]);
			continue;
		}
		snprintf(key, sizeof(key), "n_%s", db_ops[k][1]);
		metric(&h, key, cnt, "count");
		snprintf(key, sizeof(key), "avg_%s", db_ops[k][1]);
		metric(&h, key, a, "ms");
		snprintf(key, sizeof(key), "max_%s", db_ops[k][1]);
		metric(&h, key, b, "ms");
		/* dbench's own line, as it printed it */
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%.*s\n",
			 (int)strcspn(p + 1, "\n"), p + 1);
	}
	p = strstr(fx, "\nThroughput ");
	tap_ok(p && sscanf(p, " Throughput %lf MB/sec 2 clients 2 procs max_latency=%lf", &tput,
			   &lat) == 2, "dbench's Throughput line read");
	metric(&h, "tput", tput, "MB/s");
	metric(&h, "lat_max", lat, "ms");
	if (p)
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%.*s\n",
			 (int)strcspn(p + 1, "\n"), p + 1);
	f = open_memstream(&got, &glen);
	report_dbench_ops.print(f, &row, 1);
	fclose(f);
	/* every line of dbench's appears in bootmark's table as printed */
	for (p = want; *p; p += strcspn(p, "\n") + 1) {
		snprintf(line, sizeof(line), "%.*s\n", (int)strcspn(p, "\n"), p);
		tap_ok(strstr(got, line) != NULL, "dbench's \"%.*s\" printed alike", (int)strlen(line) - 1,
		       line);
	}
	free(got);
	free(fx);
}

/* A latency field ("42427us", "533ms", "12s") in us; -1 when empty. */
static double lat_us(const char *s)
{
	double v;
	char u[4] = "";

	if (!*s || sscanf(s, "%lf%3s", &v, u) < 2)
		return -1;
	return !strcmp(u, "us") ? v : !strcmp(u, "ms") ? v * 1e3 : v * 1e6;
}

static const char *const bon_labels[12] = {
	"bon-putc", "bon-block-w", "bon-rewrite", "bon-getc", "bon-block-r", "bon-seeks",
	"bon-seq-create", "bon-seq-stat", "bon-seq-del", "bon-rnd-create", "bon-rnd-stat",
	"bon-rnd-del",
};

/* One record per test from bonnie++'s CSV fields: a figure with its %CP,
 * or +++++ (an elapsed time under 0.5 s), and the latency. */
static void bon_records(char **f, struct bm_rres *h, const struct bm_rres **t)
{
	int i, at;

	for (i = 0; i < 12; i++) {
		at = i < 6 ? 9 + 2 * i : 26 + 2 * (i - 6);
		memset(&h[i], 0, sizeof(h[i]));
		snprintf(h[i].wl, sizeof(h[i].wl), "bonnie");
		snprintf(h[i].test, sizeof(h[i].test), "%s", bon_labels[i]);
		snprintf(h[i].params, sizeof(h[i].params), "size=%s chunk=8k charsize=1M seeks=%s "
			 "seekers=%s num=%s dirs=1 seed=%s max_size=%s min_size=%s", f[5], f[7],
			 f[8], f[21], f[4], f[22], f[23]);
		h[i].rep = 1;
		if (!strcmp(f[at], "+++++")) {
			metric(&h[i], "elapsed", 0.1, "s");
			metric(&h[i], "rate", 1e9, "KiB/s");
		} else {
			metric(&h[i], "elapsed", 2.0, "s");
			metric(&h[i], "rate", atof(f[at]), "KiB/s");
			metric(&h[i], "cpu", atof(f[at + 1]), "%");
		}
		if (lat_us(f[38 + i]) >= 0)
			metric(&h[i], "lat", lat_us(f[38 + i]), "us");
		t[i] = &h[i];
	}
}

static int split(char *line, char **f, int max)
{
	int n = 0;
	char *p;

	for (p = line; p && n < max; n++) {
		f[n] = p;
		p = strchr(p, ',');
		if (p)
			*p++ = '\0';
	}
	return n;
}

/* bon_csv2html reads lines on stdin; 0 when it printed a table with name. */
static int csv2html(const char *line, const char *name)
{
	char cmd[96], path[64], *html = NULL;
	size_t len = 0;
	FILE *p;
	int st, ok;

	snprintf(path, sizeof(path), "/tmp/bm-golden-%d.html", (int)getpid());
	snprintf(cmd, sizeof(cmd), "bon_csv2html > %s 2>&1", path);
	p = popen(cmd, "w");
	if (!p)
		return -1;
	fprintf(p, "%s\n", line);
	st = pclose(p);
	if (bm_read_file(path, &html, &len, 1 << 20))
		return -1;
	ok = WIFEXITED(st) && !WEXITSTATUS(st) && strstr(html, "<table") && strstr(html, name);
	free(html);
	unlink(path);
	return ok ? 0 : -1;
}

static void test_bonnie(void)
{
	char *fx = fixture(BON_FIXTURE), *csv, orig[1024], mine[1024], copy[1024];
	char *f[64], *g[64];
	const struct bm_rres *t[12];
	struct bm_rres h[12];
	int n, i, same = 1;

	if (!fx || !(csv = strstr(fx, "\n1.98,"))) {
		tap_ok(0, "a CSV line in %s", BON_FIXTURE);
		free(fx);
		return;
	}
	snprintf(orig, sizeof(orig), "%.*s", (int)strcspn(csv + 1, "\n"), csv + 1);
	snprintf(copy, sizeof(copy), "%s", orig);
	n = split(copy, f, 64);
	TAP_EQ_INT(n, 50, "bonnie++ 2.00a's CSV has 50 fields");
	bon_records(f, h, t);
	TAP_EQ_INT(report_bonnie_csv(mine, sizeof(mine), f[2], t), 0, "bootmark's CSV line");
	snprintf(copy, sizeof(copy), "%s", orig);
	split(copy, f, 64);
	n = split(mine, g, 64);
	TAP_EQ_INT(n, 50, "bootmark's CSV has 50 fields");
	for (i = 0; i < 50 && i < n; i++) {
		if (i == 1)
			continue;   /* bonnie_version: "2.00a" / "bootmark-2.00a" */
		if (strcmp(f[i], g[i])) {
			tap_diag("field %d: bonnie++ \"%s\", bootmark \"%s\"", i, f[i], g[i]);
			same = 0;
		}
	}
	tap_ok(same, "every field as bonnie++ 2.00a wrote it (but the version)");
	TAP_EQ_STR(g[1], "bootmark-2.00a", "bonnie_version says bootmark");
	if (system("command -v bon_csv2html > /dev/null 2>&1")) {
		tap_skip("no bon_csv2html (Debian bonnie++)", "bon_csv2html renders both lines");
	} else {
		report_bonnie_csv(mine, sizeof(mine), "bootmark-golden", t);
		tap_ok(csv2html(orig, "bootmark-fixture") == 0, "bon_csv2html renders bonnie++'s line");
		tap_ok(csv2html(mine, "bootmark-golden") == 0, "bon_csv2html renders bootmark's line");
	}
	free(fx);
}

int main(void)
{
	tap_plan(0);
	test_dbench();
	test_bonnie();
	return tap_done();
}
