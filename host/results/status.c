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
#include "text.h"
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

/* Copies n bytes of line p into buf as a string: guest text, made safe. */
static void copy_line(const char *p, size_t n, char *buf, size_t buflen)
{
	bm_text_safe(buf, buflen, p, n, 0);
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

#define PANIC "Kernel panic - not syncing"

/* One line (no '\n', no '\r'): warnings (a report counts once), restarts,
 * banners, the first panic and the first initramfs failure (by the list's
 * order: the earlier failure names the cause). */
static void scan_line(struct bm_console *c, const char *line, size_t n)
{
	const char *p;
	int i;

	if (!c->panic && (p = memmem(line, n, PANIC, sizeof(PANIC) - 1))) {
		c->panic = 1;
		copy_line(p, n - (size_t)(p - line), c->panic_line, sizeof(c->panic_line));
	}
	for (i = 0; init_failures[i] && i < c->init_kind; i++) {
		p = memmem(line, n, init_failures[i], strlen(init_failures[i]));
		if (p) {
			c->init_fail = 1;
			c->init_kind = i;
			copy_line(p, n - (size_t)(p - line), c->init_line, sizeof(c->init_line));
			break;
		}
	}
	if (has(line, n, CUT_HERE)) {
		c->warnings++;
		c->after_cut = 1;
		return;
	}
	if (warn_line(line, n)) {
		if (!c->after_cut)
			c->warnings++;
		if (!c->warn_line[0])
			copy_line(line, n, c->warn_line, sizeof(c->warn_line));
	}
	c->after_cut = 0;
	if (has(line, n, "reboot: Restarting system"))
		c->restarts++;
	if (has(line, n, "Linux version "))
		c->banners++;
}

void bm_console_begin(struct bm_console *c)
{
	memset(c, 0, sizeof(*c));
	c->init_kind = (int)(sizeof(init_failures) / sizeof(init_failures[0]));
}

void bm_console_line(struct bm_console *c, const char *line, size_t len)
{
	size_t start = 0, i;

	for (i = 0; i <= len; i++) {
		if (i < len && line[i] != '\n' && line[i] != '\r')
			continue;
		if (i > start)
			scan_line(c, line + start, i - start);
		start = i + 1;
	}
}

void bm_console_end(struct bm_console *c, size_t bytes)
{
	c->bytes = bytes;
	if (c->warnings && !c->warn_line[0])
		snprintf(c->warn_line, sizeof(c->warn_line), "%s", CUT_HERE);
	c->banner = c->banners > 0;
}

void bm_console_scan(const char *text, size_t len, struct bm_console *c)
{
	bm_console_begin(c);
	bm_console_line(c, text, len);
	bm_console_end(c, len);
}

/*
 * The segment of one run in a log of several (bm_console_segment), found
 * in one pass over its lines ('\n' ends one): before the run's first
 * record, the start moves past each line with another run's record, then
 * past each "reboot: " line, then back to the last kernel banner; after
 * the run's last record, the end is the first line with another run's
 * record, or the first banner before it.
 */
#define SEG_NONE UINT64_MAX

struct seg {
	char mine[BM_RUN_LEN + 8];
	size_t mlen;
	int found;                 /* the run's first record was seen */
	int pend_b;                /* b is the next line's start */
	uint64_t b, c;             /* before it: after the last line with a record
				    * or a reboot, the last banner after b */
	uint64_t off;              /* the start, once found */
	uint64_t fstop, bstop;     /* after the last own line: the first line of
				    * another run's record, the first banner */
};

static void seg_init(struct seg *g, const char *run)
{
	memset(g, 0, sizeof(*g));
	g->mlen = (size_t)snprintf(g->mine, sizeof(g->mine), "@@B1 %s ", run);
	g->c = g->fstop = g->bstop = SEG_NONE;
}

/* Does the line hold a record of a run other than mine? */
static int seg_foreign(const struct seg *g, const char *line, size_t n)
{
	const char *p = line, *end = line + n, *q;

	while (p < end && (q = memmem(p, (size_t)(end - p), "@@B1 ", 5))) {
		if ((size_t)(end - q) < g->mlen || memcmp(q, g->mine, g->mlen))
			return 1;
		p = q + 5;
	}
	return 0;
}

static void seg_line(struct seg *g, const char *line, size_t n, uint64_t off)
{
	const char *own = memmem(line, n, g->mine, g->mlen);

	if (g->pend_b)
		g->b = off;
	g->pend_b = 0;
	if (!g->found && own) {
		size_t pre = (size_t)(own - line);

		g->found = 1;
		if (has(line, pre, "@@B1 ") || has(line, pre, "reboot: ") ||
		    has(line, pre, "Linux version "))
			g->off = off;
		else
			g->off = g->c != SEG_NONE ? g->c : g->b;
	} else if (!g->found) {
		if (has(line, n, "@@B1 ") || has(line, n, "reboot: ")) {
			g->pend_b = 1;
			g->c = SEG_NONE;
		} else if (has(line, n, "Linux version ")) {
			g->c = off;
		}
		return;
	}
	if (own) {
		g->fstop = g->bstop = SEG_NONE;
	} else if (g->fstop == SEG_NONE) {
		if (seg_foreign(g, line, n))
			g->fstop = off;
		else if (g->bstop == SEG_NONE && has(line, n, "Linux version "))
			g->bstop = off;
	}
}

static void seg_end(const struct seg *g, uint64_t size, uint64_t *off, uint64_t *n)
{
	uint64_t stop = g->fstop == SEG_NONE ? size : g->bstop != SEG_NONE ? g->bstop : g->fstop;

	*off = g->found ? g->off : 0;
	*n = g->found ? stop - *off : size;
}

void bm_console_segment(const char *text, size_t len, const char *run, size_t *off,
			size_t *n)
{
	struct seg g;
	uint64_t o, k;
	size_t start = 0, i;

	*off = 0;
	*n = len;
	if (!run[0])
		return;
	seg_init(&g, run);
	for (i = 0; i < len; i = start) {
		const char *nl = memchr(text + start, '\n', len - start);
		size_t end = nl ? (size_t)(nl - text) : len;

		seg_line(&g, text + start, end - start, start);
		start = end + 1;
	}
	seg_end(&g, len, &o, &k);
	*off = (size_t)o;
	*n = (size_t)k;
}

static int seg_cb(void *arg, const char *line, size_t len, uint64_t off)
{
	seg_line(arg, line, len, off);
	return 0;
}

int bm_console_segment_file(const char *path, const char *run, uint64_t *off, uint64_t *n)
{
	struct seg g;
	uint64_t size = 0;
	int rc;

	*off = *n = 0;
	seg_init(&g, run);
	rc = bm_log_lines(path, seg_cb, &g, &size);
	if (rc)
		return rc;
	if (!run[0])
		g.found = 0;
	seg_end(&g, size, off, n);
	return 0;
}

struct part {
	struct bm_console *c;
	uint64_t from, to;
};

static int part_cb(void *arg, const char *line, size_t len, uint64_t off)
{
	struct part *p = arg;

	if (off >= p->from && off < p->to)
		bm_console_line(p->c, line, len);
	return 0;
}

int bm_console_read(const char *path, uint64_t off, uint64_t n, struct bm_console *c)
{
	struct part p = { c, off, n > UINT64_MAX - off ? UINT64_MAX : off + n };
	uint64_t size = 0;
	int rc;

	bm_console_begin(c);
	rc = bm_log_lines(path, part_cb, &p, &size);
	if (size > p.to)
		size = p.to;
	bm_console_end(c, rc ? 0 : (size_t)(size > off ? size - off : 0));
	return rc;
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
