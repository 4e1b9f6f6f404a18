// SPDX-License-Identifier: MIT
/*
 * JUnit XML and TAP 13 from the results of a run.  Both formats come from
 * one list of cases per boot, so a CI system and a human reading TAP see
 * the same verdicts.  A case's time is the sum of m_real over its
 * repetitions: the measured part, not mkfs and mount.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "junit.h"
#include "text.h"
#include "util.h"

#define TAP_CONSOLE_LINES 10

struct jcase {
	const char *fs, *test;      /* point into the results */
	double time;
	unsigned nres, npartial, nerr;
};

struct jboot {
	struct jcase *c;
	size_t n;
	unsigned loose;             /* E records that name no test */
	int boot_failed;
	unsigned failures;          /* cases failed, the boot case included */
	double time;
};

/* XML 1.0 text from any bytes: guest text made safe (text.h) in its
 * several-lines form, then the five entities. */
void bm_xml_escape(FILE *f, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, n;

	while (i < len) {
		enum bm_text_kind k = bm_text_step(u + i, len - i, BM_TEXT_LINES, &n);

		if (k == BM_TEXT_BAD)
			fputc('?', f);
		else if (k == BM_TEXT_KEEP && n > 1)
			fwrite(u + i, 1, n, f);
		else if (k == BM_TEXT_KEEP)
			switch (u[i]) {
			case '<': fputs("&lt;", f); break;
			case '>': fputs("&gt;", f); break;
			case '&': fputs("&amp;", f); break;
			case '"': fputs("&quot;", f); break;
			case '\'': fputs("&apos;", f); break;
			default: fputc(u[i], f);
			}
		i += n;
	}
}

static void esc(FILE *f, const char *s)
{
	bm_xml_escape(f, s, strlen(s));
}

const char *bm_tail_lines(const char *text, size_t len, int n)
{
	size_t i = len;

	if (i && text[i - 1] == '\n')
		i--;  /* the last line's own newline */
	while (i > 0) {
		if (text[i - 1] == '\n' && --n == 0)
			break;
		i--;
	}
	return text + i;
}

/* Enough for BM_CONSOLE_TAIL lines of any console: the log's end only is read. */
#define TAIL_BYTES (64 << 10)

char *bm_console_tail(const char *dir)
{
	char path[PATH_MAX], *raw = NULL, *safe = NULL, *tail = NULL;
	const char *t, *nl;
	struct stat st;
	ssize_t n;
	size_t len;
	off_t from;
	int fd;

	if (bm_path(path, sizeof(path), "%s/console.log", dir))
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		goto out_close;
	from = st.st_size > TAIL_BYTES ? st.st_size - TAIL_BYTES : 0;
	raw = malloc(TAIL_BYTES);
	safe = malloc(TAIL_BYTES + 1);
	if (!raw || !safe || (n = pread(fd, raw, TAIL_BYTES, from)) < 0)
		goto out_free;
	/* guest bytes: a NUL is one '?' like any control, it ends nothing */
	len = bm_text_safe(safe, TAIL_BYTES + 1, raw, (size_t)n, BM_TEXT_LINES);
	t = safe;
	if (from > 0 && (nl = memchr(safe, '\n', len)))
		t = nl + 1;  /* the first line was cut by the window */
	t = bm_tail_lines(t, len - (size_t)(t - safe), BM_CONSOLE_TAIL);
	tail = strdup(t);
out_free:
	free(raw);
	free(safe);
out_close:
	close(fd);
	return tail;
}

static struct jcase *find_case(struct jboot *jb, const char *fs, const char *test)
{
	size_t i;

	for (i = 0; i < jb->n; i++)
		if (!strcmp(jb->c[i].fs, fs) && !strcmp(jb->c[i].test, test))
			return &jb->c[i];
	jb->c[jb->n] = (struct jcase){ .fs = fs, .test = test };
	return &jb->c[jb->n++];
}

/* Ran to END with E records: the E records are the failures to show. */
static int with_errors(enum bm_status st)
{
	return st == BM_ST_SETUP_FAILURE || st == BM_ST_BENCH_ERROR;
}

static int build(struct jboot *jb, const struct bm_results *r)
{
	size_t i;

	memset(jb, 0, sizeof(*jb));
	jb->c = calloc(r->nres + r->nerr + 1, sizeof(*jb->c));
	if (!jb->c)
		return -ENOMEM;
	for (i = 0; i < r->nres; i++) {
		struct jcase *c = find_case(jb, r->res[i].fs, r->res[i].test);
		double t = bm_rres_value(&r->res[i], "real", 0);

		c->time += t;
		jb->time += t;
		c->nres++;
		c->npartial += r->res[i].partial != 0;
	}
	for (i = 0; i < r->nerr; i++) {
		if (r->err[i].test[0])
			find_case(jb, r->err[i].fs, r->err[i].test)->nerr++;
		else
			jb->loose++;
	}
	for (i = 0; i < jb->n; i++)
		jb->failures += jb->c[i].nerr > 0;
	/* a run error with no E record to show still fails somewhere */
	jb->boot_failed = (r->status != BM_ST_COMPLETED && !with_errors(r->status)) ||
			  jb->loose || (with_errors(r->status) && !r->nerr);
	jb->failures += jb->boot_failed;
	return 0;
}

static void write_errors(FILE *f, const struct bm_results *r, const char *fs, const char *test)
{
	size_t i;

	for (i = 0; i < r->nerr; i++) {
		const struct bm_herr *e = &r->err[i];

		if (test ? strcmp(e->test, test) || strcmp(e->fs, fs) : e->test[0] != '\0')
			continue;
		fputs("      <failure type=\"", f);
		esc(f, e->cls);
		fputs("\" message=\"", f);
		esc(f, e->msg);
		fputs("\">", f);
		esc(f, e->cls);
		fprintf(f, ": ");
		esc(f, e->msg);
		if (e->rep)
			fprintf(f, " (rep %d)", e->rep);
		fputs("</failure>\n", f);
	}
}

static void write_boot_case(FILE *f, const struct bm_ci_boot *b, const struct jboot *jb)
{
	const struct bm_results *r = b->r;

	fputs("    <testcase classname=\"bootmark.", f);
	esc(f, b->kernel);
	fputs("\" name=\"boot\" time=\"0\"", f);
	if (!jb->boot_failed) {
		fputs("/>\n", f);
		return;
	}
	fputs(">\n", f);
	if (r->status != BM_ST_COMPLETED && (!with_errors(r->status) || !r->nerr)) {
		fputs("      <failure type=\"", f);
		esc(f, bm_status_name(r->status));
		fputs("\" message=\"", f);
		esc(f, r->status_why);
		fputs("\">", f);
		esc(f, bm_status_name(r->status));
		fputs(": ", f);
		esc(f, r->status_why);
		fputs("</failure>\n", f);
	}
	write_errors(f, r, NULL, NULL);
	if (b->console) {
		fputs("      <system-out>", f);
		esc(f, b->console);
		fputs("</system-out>\n", f);
	}
	fputs("    </testcase>\n", f);
}

static void write_case(FILE *f, const struct bm_ci_boot *b, const struct jcase *c)
{
	fputs("    <testcase classname=\"bootmark.", f);
	esc(f, b->kernel);
	fputc('.', f);
	esc(f, c->fs);
	fputs("\" name=\"", f);
	esc(f, c->test);
	fprintf(f, "\" time=\"%.3f\"", c->time);
	if (!c->nerr && !c->npartial) {
		fputs("/>\n", f);
		return;
	}
	fputs(">\n", f);
	write_errors(f, b->r, c->fs, c->test);
	if (c->npartial)
		fprintf(f, "      <system-out>partial: %u of %u result(s) stopped early; "
			   "their values are flagged, not dropped</system-out>\n",
			c->npartial, c->nres);
	fputs("    </testcase>\n", f);
}

static void free_boots(struct jboot *jb, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(jb[i].c);
	free(jb);
}

static struct jboot *build_all(const struct bm_ci_boot *b, size_t n)
{
	struct jboot *jb = calloc(n + 1, sizeof(*jb));
	size_t i;

	for (i = 0; jb && i < n; i++) {
		if (build(&jb[i], b[i].r)) {
			free_boots(jb, i);
			return NULL;
		}
	}
	return jb;
}

int bm_junit_write(FILE *f, const struct bm_ci_boot *b, size_t n)
{
	struct jboot *jb = build_all(b, n);
	unsigned tests = 0, failures = 0;
	double time = 0;
	size_t i, j;

	if (!jb)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		tests += (unsigned)jb[i].n + 1;
		failures += jb[i].failures;
		time += jb[i].time;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuites name=\"bootmark\" tests=\"%u\" failures=\"%u\" errors=\"0\" "
		   "time=\"%.3f\">\n", tests, failures, time);
	for (i = 0; i < n; i++) {
		fputs("  <testsuite name=\"", f);
		esc(f, b[i].kernel);
		fprintf(f, "\" tests=\"%zu\" failures=\"%u\" errors=\"0\" skipped=\"0\" time=\"%.3f\">\n",
			jb[i].n + 1, jb[i].failures, jb[i].time);
		fputs("    <properties>\n      <property name=\"status\" value=\"", f);
		esc(f, bm_status_name(b[i].r->status));
		fputs("\"/>\n      <property name=\"run\" value=\"", f);
		esc(f, b[i].r->run);
		fputs("\"/>\n    </properties>\n", f);
		write_boot_case(f, &b[i], &jb[i]);
		for (j = 0; j < jb[i].n; j++)
			write_case(f, &b[i], &jb[i].c[j]);
		fputs("  </testsuite>\n", f);
	}
	fputs("</testsuites>\n", f);
	free_boots(jb, n);
	return ferror(f) ? -EIO : 0;
}

/* "# " before every line of s; a message never breaks the TAP stream. */
static void tap_diag_text(FILE *f, const char *prefix, const char *s, size_t len)
{
	const char *end = s + len;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *stop = nl ? nl : end;
		size_t n = (size_t)(stop - s);

		fprintf(f, "# %s", prefix);
		bm_text_fput(f, s, n, 0);  /* guest text: one line of it */
		fputc('\n', f);
		s = stop + 1;
	}
}

static void tap_errors(FILE *f, const struct bm_results *r, const char *fs, const char *test)
{
	size_t i;

	for (i = 0; i < r->nerr; i++) {
		const struct bm_herr *e = &r->err[i];
		char pre[48];

		if (test ? strcmp(e->test, test) || strcmp(e->fs, fs) : e->test[0] != '\0')
			continue;
		snprintf(pre, sizeof(pre), "%s: ", e->cls);
		tap_diag_text(f, pre, e->msg, strlen(e->msg));
	}
}

static void tap_boot(FILE *f, const struct bm_ci_boot *b, const struct jboot *jb, unsigned *k)
{
	const struct bm_results *r = b->r;
	const char *t;

	fprintf(f, "%s %u - %s boot: %s\n", jb->boot_failed ? "not ok" : "ok", ++*k, b->kernel,
		bm_status_name(r->status));
	if (!jb->boot_failed)
		return;
	if (r->status_why[0])
		tap_diag_text(f, "", r->status_why, strlen(r->status_why));
	tap_errors(f, r, NULL, NULL);
	if (b->console && b->console[0]) {
		t = bm_tail_lines(b->console, strlen(b->console), TAP_CONSOLE_LINES);
		fprintf(f, "# console (last lines):\n");
		tap_diag_text(f, "  ", t, strlen(t));
	}
}

int bm_tap_write(FILE *f, const struct bm_ci_boot *b, size_t n)
{
	struct jboot *jb = build_all(b, n);
	unsigned total = 0, k = 0;
	size_t i, j;

	if (!jb)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		total += (unsigned)jb[i].n + 1;
	fprintf(f, "TAP version 13\n1..%u\n", total);
	for (i = 0; i < n; i++) {
		tap_boot(f, &b[i], &jb[i], &k);
		for (j = 0; j < jb[i].n; j++) {
			const struct jcase *c = &jb[i].c[j];

			fprintf(f, "%s %u - %s %s %s (%.3f s)\n", c->nerr ? "not ok" : "ok", ++k,
				b[i].kernel, c->fs, c->test, c->time);
			tap_errors(f, b[i].r, c->fs, c->test);
			if (c->npartial)
				fprintf(f, "# partial: %u of %u result(s) stopped early\n",
					c->npartial, c->nres);
		}
	}
	free_boots(jb, n);
	return ferror(f) ? -EIO : 0;
}
