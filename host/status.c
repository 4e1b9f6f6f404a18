// SPDX-License-Identifier: MIT
/*
 * Console-log facts and the per-boot status.  Only a panic is fatal on
 * its own (as in LAVA); everything else is judged from the protocol
 * stream, because console text can be interleaved or missing (PXE).
 */
#include <stdio.h>
#include <string.h>

#include "results.h"
#include "util.h"

static const char *const init_failures[] = {
	"Initramfs unpacking failed",
	"No working init found",
	"Attempted to kill init",
	NULL,
};

/* Copies the line that contains p (up to its end) into buf. */
static void grab_line(const char *text, size_t len, const char *p,
		      char *buf, size_t buflen)
{
	const char *end = p;
	size_t n;

	while ((size_t)(end - text) < len && *end != '\n' && *end != '\r')
		end++;
	n = (size_t)(end - p);
	if (n >= buflen)
		n = buflen - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
}

void bm_console_scan(const char *text, size_t len, struct bm_console *c)
{
	const char *p;
	int i;

	memset(c, 0, sizeof(*c));
	if (memmem(text, len, "Linux version ", 14))
		c->banner = 1;
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

static void set(struct bm_results *r, enum bm_status st, const char *why)
{
	size_t n = strlen(why);

	if (n >= sizeof(r->status_why))
		n = sizeof(r->status_why) - 1;
	r->status = st;
	memcpy(r->status_why, why, n);
	r->status_why[n] = '\0';
}

static void classify_complete(struct bm_results *r)
{
	char why[256];

	if (r->nerr || r->end_errors > 0) {
		bm_path(why, sizeof(why), "%zu error record(s)%s%s", r->nerr,
			r->nerr ? ", first: " : "", r->nerr ? r->err[0].msg : "");
		set(r, BM_ST_RUN_ERROR, why);
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

void bm_classify(struct bm_results *r, const struct bm_console *c,
		 enum bm_watch w, const char *watch_why)
{
	char why[300];

	if (w == BM_WATCH_NOSTART) {
		set(r, BM_ST_INFRA_ERROR, watch_why ? watch_why : "QEMU did not start");
		return;
	}
	if (c && c->panic) {
		set(r, BM_ST_PANIC, c->panic_line);
		return;
	}
	/* A refusal is the configuration's or the disk's fault, not the kernel's:
	 * say so even if the stream that carried it is damaged. */
	if (refusal(r)) {
		set(r, BM_ST_DISK_REFUSED, refusal(r));
		return;
	}
	/* A complete stream is valid even if QEMU then failed to power off. */
	if (r->stream_rc == 0) {
		classify_complete(r);
		return;
	}
	if (w == BM_WATCH_SILENCE || w == BM_WATCH_TIMEOUT) {
		snprintf(why, sizeof(why), "%s%s", watch_why ? watch_why : "watchdog",
			 r->have_hello ? "" : " (before HELLO)");
		set(r, BM_ST_HANG, why);
		return;
	}
	if (!r->have_hello) {
		if (c && c->init_fail)
			snprintf(why, sizeof(why), "no HELLO record: %s", c->init_line);
		else if (c && c->banner)
			snprintf(why, sizeof(why), "no HELLO record (kernel banner seen)");
		else if (c)
			snprintf(why, sizeof(why), "no HELLO record and no kernel banner");
		else
			snprintf(why, sizeof(why), "no HELLO record");
		set(r, BM_ST_BOOT_FAILURE, why);
		return;
	}
	set(r, BM_ST_PROTOCOL_ERROR, r->stream_why[0] ? r->stream_why : "incomplete stream");
}
