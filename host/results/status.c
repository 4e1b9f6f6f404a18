// SPDX-License-Identifier: MIT
/*
 * Console-log facts and the class of a boot (docs/reliability.md).  Only a
 * panic is fatal on its own (as in LAVA); a complete protocol stream beats
 * everything else, because console text can be interleaved or missing (PXE);
 * the console only tells apart the ways a boot did not complete.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "results.h"
#include "util.h"

static const char *const init_failures[] = {
	"Initramfs unpacking failed",
	"No working init found",
	"Attempted to kill init",
	NULL,
};

/* Lines that start a kernel warning report.  "cut here" opens most of them;
 * the WARNING/BUG line that follows it belongs to the same report. */
static const char *const warn_marks[] = {
	"WARNING: CPU:", "BUG: ", "Oops: ", "UBSAN:", "KFENCE:",
	"general protection fault", NULL,
};
#define CUT_HERE "------------[ cut here ]------------"

/* Copies n bytes of line p into buf as a string. */
static void copy_line(const char *p, size_t n, char *buf, size_t buflen)
{
	if (n >= buflen)
		n = buflen - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
}

/* Copies the line that contains p (up to its end) into buf. */
static void grab_line(const char *text, size_t len, const char *p,
		      char *buf, size_t buflen)
{
	const char *end = p;

	while ((size_t)(end - text) < len && *end != '\n' && *end != '\r')
		end++;
	copy_line(p, (size_t)(end - p), buf, buflen);
}

static int has(const char *line, size_t n, const char *what)
{
	return memmem(line, n, what, strlen(what)) != NULL;
}

static int warn_line(const char *line, size_t n)
{
	int i;

	for (i = 0; warn_marks[i]; i++)
		if (has(line, n, warn_marks[i]))
			return 1;
	return 0;
}

/* One line: warnings (a report counts once), restarts, banners. */
static void scan_line(const char *line, size_t n, struct bm_console *c, int *after_cut)
{
	if (has(line, n, CUT_HERE)) {
		c->warnings++;
		*after_cut = 1;
		return;
	}
	if (warn_line(line, n)) {
		if (!*after_cut)
			c->warnings++;
		if (!c->warn_line[0])
			copy_line(line, n, c->warn_line, sizeof(c->warn_line));
	}
	*after_cut = 0;
	if (has(line, n, "reboot: Restarting system"))
		c->restarts++;
	if (has(line, n, "Linux version "))
		c->banners++;
}

void bm_console_scan(const char *text, size_t len, struct bm_console *c)
{
	size_t start = 0, i;
	const char *p;
	int after_cut = 0;

	memset(c, 0, sizeof(*c));
	c->bytes = len;
	for (i = 0; i <= len; i++) {
		if (i < len && text[i] != '\n' && text[i] != '\r')
			continue;
		if (i > start)
			scan_line(text + start, i - start, c, &after_cut);
		start = i + 1;
	}
	if (c->warnings && !c->warn_line[0])
		snprintf(c->warn_line, sizeof(c->warn_line), "%s", CUT_HERE);
	c->banner = c->banners > 0;
	p = memmem(text, len, "Kernel panic - not syncing", 26);
	if (p) {
		c->panic = 1;
		grab_line(text, len, p, c->panic_line, sizeof(c->panic_line));
	}
	for (i = 0; init_failures[i]; i++) {
		p = memmem(text, len, init_failures[i], strlen(init_failures[i]));
		if (p) {
			c->init_fail = 1;
			grab_line(text, len, p, c->init_line, sizeof(c->init_line));
			break;
		}
	}
}

/* The last occurrence of what in [from, to), or NULL. */
static const char *last_of(const char *from, const char *to, const char *what)
{
	const char *p, *found = NULL;
	size_t n = strlen(what);

	while (from < to && (p = memmem(from, (size_t)(to - from), what, n))) {
		found = p;
		from = p + 1;
	}
	return found;
}

static const char *line_end(const char *p, const char *end)
{
	while (p < end && *p != '\n')
		p++;
	return p < end ? p + 1 : end;
}

static const char *line_start(const char *text, const char *p)
{
	while (p > text && p[-1] != '\n')
		p--;
	return p;
}

/* The first record of a run other than run in [p, end), or end. */
static const char *next_foreign(const char *p, const char *end, const char *mine)
{
	const char *q;

	while (p < end && (q = memmem(p, (size_t)(end - p), "@@B1 ", 5))) {
		if (strncmp(q, mine, strlen(mine)))
			return line_start(p, q);
		p = q + 5;
	}
	return end;
}

void bm_console_segment(const char *text, size_t len, const char *run, size_t *off,
			size_t *n)
{
	const char *end = text + len, *first, *last, *start, *stop, *p;
	char mine[BM_RUN_LEN + 8];

	*off = 0;
	*n = len;
	snprintf(mine, sizeof(mine), "@@B1 %s ", run);
	first = run[0] ? memmem(text, len, mine, strlen(mine)) : NULL;
	if (!first)
		return;
	last = last_of(first, end, mine);
	/* before: after the previous run's last record, its restart, then our banner */
	p = last_of(text, first, "@@B1 ");
	start = p ? line_end(p, first) : text;
	if ((p = last_of(start, first, "reboot: ")))
		start = line_end(p, first);
	if ((p = last_of(start, first, "Linux version ")))
		start = line_start(text, p);
	/* after: up to the next run's first record, or the banner of its boot */
	last = line_end(last, end);
	stop = next_foreign(last, end, mine);
	if (stop < end && (p = memmem(last, (size_t)(stop - last), "Linux version ", 14)))
		stop = line_start(text, p);
	*off = (size_t)(line_start(text, start) - text);
	*n = (size_t)(stop - text) - *off;
}

static void set(struct bm_results *r, enum bm_status st, const char *why)
{
	size_t n = strlen(why);

	if (n >= sizeof(r->status_why))
		n = sizeof(r->status_why) - 1;
	r->status = st;
	memcpy(r->status_why, why, n);
	r->status_why[n] = '\0';
}

static int is_setup_class(const char *cls)
{
	return !strcmp(cls, "setup") || !strcmp(cls, "module") || !strcmp(cls, "config") ||
	       !strcmp(cls, "disk");
}

/* The stream went to END, but does END's plan match what arrived, and the
 * host's?  NULL when it does, else why not (into buf). */
static const char *plan_gap(const struct bm_results *r, long long host_planned, char *buf,
			    size_t len)
{
	char first[128];
	long long miss;

	if (host_planned > 0 && r->end_tests >= 0 && r->end_tests != host_planned) {
		snprintf(buf, len, "the guest planned %lld tests, the host's suite %lld "
			 "(the guest ran another suite)", r->end_tests, host_planned);
		return buf;
	}
	miss = bm_results_unaccounted(r, first, sizeof(first));
	if (!miss)
		return NULL;
	snprintf(buf, len, "%lld of %lld planned tests have neither a result nor an error "
		 "record%s%s", miss, r->end_tests, first[0] ? " (" : "", first[0] ? first : "");
	if (first[0])
		strncat(buf, ")", len - strlen(buf) - 1);
	return buf;
}

/* The stream went to END: the first E record decides between the two
 * "ran, with errors" classes (an unknown class counts as bench). */
static void classify_complete(struct bm_results *r, const struct bm_console *c,
			      long long host_planned)
{
	char why[300];

	if (plan_gap(r, host_planned, why, sizeof(why))) {
		set(r, BM_ST_PROTOCOL_ERROR, why);
		return;
	}
	if (c && c->warnings && c->fail_on_warning) {
		snprintf(why, sizeof(why), "%d kernel warning(s), first: %s", c->warnings,
			 c->warn_line);
		set(r, BM_ST_KERNEL_WARNING, why);
		return;
	}
	if (r->nerr) {
		snprintf(why, sizeof(why), "%zu error record(s), first (%.15s): %.200s", r->nerr,
			 r->err[0].cls, r->err[0].msg);
		set(r, is_setup_class(r->err[0].cls) ? BM_ST_SETUP_FAILURE : BM_ST_BENCH_ERROR,
		    why);
		return;
	}
	if (r->end_errors > 0) {
		snprintf(why, sizeof(why), "END counts %lld error(s)", r->end_errors);
		set(r, BM_ST_BENCH_ERROR, why);
		return;
	}
	set(r, BM_ST_COMPLETED, "");
}

/* The message of the first E record of class "refused", or NULL. */
static const char *refusal(const struct bm_results *r)
{
	size_t i;

	for (i = 0; i < r->nerr; i++)
		if (!strcmp(r->err[i].cls, "refused"))
			return r->err[i].msg;
	return NULL;
}

/* Why the kernel restarted before END, or NULL. */
static const char *restarted(const struct bm_results *r, const struct bm_console *c)
{
	if (r->hellos > 1)
		return "a second HELLO record (the guest rebooted)";
	/* seq 1 is the HELLO: a different copy of it is a HELLO sent again from
	 * scratch (an identical copy cannot be told from a retransmission) */
	if (r->conflicts && !strcmp(r->stream_why, "conflicting copies of seq 1"))
		return "a second, different HELLO record (the guest rebooted)";
	if (c && c->banners > 1)
		return "a second kernel banner on the console";
	if (c && c->restarts && !r->have_end)
		return "\"reboot: Restarting system\" before END";
	return NULL;
}

/* No HELLO and no crash: which of the early classes.  Records of the run
 * without a HELLO are a damaged stream, not a runner that never spoke. */
static void classify_early(struct bm_results *r, const struct bm_console *c)
{
	char why[300];

	if (r->max_seq && !r->have_hello && r->stream_rc != -ENODATA) {
		snprintf(why, sizeof(why), "no intact HELLO record, %zu result and %zu error "
			 "record(s) intact: %.150s", r->nres, r->nerr, r->stream_why);
		set(r, BM_ST_PROTOCOL_ERROR, why);
	} else if (c && c->init_fail) {
		snprintf(why, sizeof(why), "no HELLO record: %s", c->init_line);
		set(r, BM_ST_INITRAMFS_ERROR, why);
	} else if (c && !c->bytes && !r->max_seq && !r->bad_crc && !r->foreign) {
		set(r, BM_ST_NO_CONSOLE, "the console log is empty");
	} else {
		set(r, BM_ST_NO_RUNNER, c && c->banner ? "no HELLO record (kernel banner seen)"
						       : "no HELLO record");
	}
}

static void copy_warnings(struct bm_results *r, const struct bm_console *c)
{
	r->kernel_warnings = c ? c->warnings : 0;
	snprintf(r->kernel_warning_first, sizeof(r->kernel_warning_first), "%s",
		 c ? c->warn_line : "");
}

/* QEMU itself failed (a bad option, a file it cannot open, KVM refusing the
 * vCPU): the kernel never had its chance.  A guest's own end (power-off,
 * panic=-1 with -no-reboot, a triple fault) exits 0. */
static int qemu_failed(const struct bm_boot_facts *f, char *why, size_t len)
{
	int st = f->qemu_status;
	const char *said = f->why && strncmp(f->why, "exit status", 11) &&
			   strncmp(f->why, "killed by", 9) ? f->why : NULL;

	if (f->w != BM_WATCH_EXITED || st < 0 || (WIFEXITED(st) && !WEXITSTATUS(st)))
		return 0;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		snprintf(why, len, "QEMU could not be run (exit status 127: %s not found)%s%.200s",
			 "qemu-system-x86_64", said ? "; " : "", said ? said : "");
	else if (WIFEXITED(st))
		snprintf(why, len, "QEMU failed (exit status %d): %.200s", WEXITSTATUS(st),
			 said ? said : "it wrote nothing to qemu.log");
	else
		snprintf(why, len, "QEMU was killed by signal %d%s%.200s",
			 WIFSIGNALED(st) ? WTERMSIG(st) : 0, said ? ": " : "", said ? said : "");
	return 1;
}

static int stream_complete(const struct bm_results *r)
{
	return r->stream_rc == 0 && r->have_hello && r->have_end;
}

void bm_classify_boot(struct bm_results *r, const struct bm_console *c,
		      const struct bm_boot_facts *f)
{
	enum bm_watch w = f->w;
	const char *watch_why = f->why;
	char why[300];

	copy_warnings(r, c);
	if (w == BM_WATCH_NOSTART) {
		set(r, BM_ST_INFRA_ERROR, watch_why ? watch_why : "QEMU did not start");
		return;
	}
	if (!stream_complete(r) && qemu_failed(f, why, sizeof(why))) {
		set(r, BM_ST_INFRA_ERROR, why);
		return;
	}
	/* QEMU paused the guest because the host could not write disk.img (its
	 * filesystem full): what followed was no hang of the kernel's */
	if (!stream_complete(r) && w == BM_WATCH_HOSTIO) {
		set(r, BM_ST_INFRA_ERROR, watch_why ? watch_why : "the host's I/O failed");
		return;
	}
	/* The panic that follows a broken initramfs ("VFS: Unable to mount root
	 * fs", "No working init found") is its consequence, not the kernel's
	 * crash: without a HELLO the initramfs message decides. */
	if (c && c->init_fail && !r->have_hello && !r->max_seq) {
		classify_early(r, c);
		return;
	}
	if ((c && c->panic) || w == BM_WATCH_PANIC) {
		set(r, BM_ST_PANIC, c && c->panic ? c->panic_line : watch_why ? watch_why : "panic");
		return;
	}
	/* A refusal is the configuration's or the disk's fault, not the kernel's:
	 * say so even if the stream that carried it is damaged. */
	if (refusal(r)) {
		set(r, BM_ST_DISK_REFUSED, refusal(r));
		return;
	}
	/* A complete stream is valid even if QEMU then failed to power off. */
	if (stream_complete(r)) {
		classify_complete(r, c, f->planned);
		return;
	}
	if (w == BM_WATCH_INTERRUPTED) {
		snprintf(why, sizeof(why), "%s%s", watch_why ? watch_why : "stopped by a signal",
			 r->have_hello ? "" : " (before HELLO)");
		set(r, BM_ST_INTERRUPTED, why);
		return;
	}
	if (w == BM_WATCH_TIMEOUT || w == BM_WATCH_SILENCE) {
		snprintf(why, sizeof(why), "%s%s", watch_why ? watch_why : "watchdog",
			 r->have_hello ? "" : " (before HELLO)");
		set(r, w == BM_WATCH_TIMEOUT ? BM_ST_TIMEOUT : BM_ST_HANG, why);
		return;
	}
	if (restarted(r, c)) {
		set(r, BM_ST_UNEXPECTED_REBOOT, restarted(r, c));
		return;
	}
	if (!r->have_hello) {
		classify_early(r, c);
		return;
	}
	set(r, BM_ST_PROTOCOL_ERROR, r->stream_why[0] ? r->stream_why : "incomplete stream");
}

void bm_classify(struct bm_results *r, const struct bm_console *c,
		 enum bm_watch w, const char *watch_why)
{
	struct bm_boot_facts f = { .w = w, .why = watch_why, .qemu_status = -1 };

	bm_classify_boot(r, c, &f);
}
