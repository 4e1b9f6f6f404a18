// SPDX-License-Identifier: MIT
/*
 * The PXE backend's boot (pxe.h, backend.h): the box boots by itself from the
 * TFTP tree; bootmark follows its console (a UART, a console server, a log
 * file) and leaves OUT/<label>/ per run, as "bootmark capture".  Stops at
 * the end of a file not followed, after runs or idle, or at SIGINT/SIGTERM,
 * with every file written.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "capture_src.h"
#include "pxe.h"
#include "util.h"

#define FLUSH_EVERY_S 5.0
#define POLL_MS 500

static volatile sig_atomic_t stop_sig;

static void on_signal(int sig)
{
	stop_sig = sig;
}

static int loop(const struct bm_pxe_follow *fw)
{
	const int live = fw->src->kind != BM_SRC_FILE || fw->src->follow;
	double now = bm_src_now(), last_byte = now, last_flush = now;
	char buf[65536];
	ssize_t n;

	while (!stop_sig) {
		n = bm_src_read(fw->src, buf, sizeof(buf), POLL_MS);
		now = bm_src_now();
		if (n == -ENODATA)
			break;
		if (n < 0 && n != -EINTR) {
			bm_msg("cannot read %s: %s", fw->src->desc, strerror((int)-n));
			return (int)n;
		}
		if (n > 0) {
			bm_cap_feed(fw->cap, buf, (size_t)n, now);
			last_byte = now;
		}
		if (live)
			bm_cap_tick(fw->cap, now, (int)fw->silence);
		if (bm_cap_flush(fw->cap, live && now - last_flush >= FLUSH_EVERY_S))
			return fw->cap->werr;
		if (now - last_flush >= FLUSH_EVERY_S)
			last_flush = now;
		if (fw->runs && fw->cap->ended >= fw->runs)
			break;
		if (live && fw->idle && now - last_byte >= fw->idle) {
			bm_msg("no byte for %lld s: stopping", fw->idle);
			break;
		}
	}
	return 0;
}

int bm_pxe_follow(struct bm_backend_req *req)
{
	struct bm_pxe_follow *fw = container_of(req, struct bm_pxe_req, r)->follow;
	struct sigaction sa = { .sa_handler = on_signal };
	int rc;

	/* the source first: a source that cannot be opened leaves no --out */
	rc = bm_src_open(fw->src);
	if (rc) {
		bm_msg("cannot open %s: %s", fw->src->desc, strerror(-rc));
		return rc;
	}
	rc = bm_mkdir_p(req->out, 0755);
	if (rc) {
		bm_msg("cannot create %s: %s", req->out, strerror(-rc));
		bm_src_close(fw->src);
		return rc;
	}
	/* no SA_RESTART: a signal ends the poll at once */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	bm_cap_init(fw->cap, req->out);
	fw->cap->source = fw->src->desc;
	fw->cap->on_end = fw->on_end;
	fw->cap->end_arg = fw->end_arg;
	if (fw->src->kind != BM_SRC_FILE || fw->src->follow)
		fw->cap->progress = stdout;
	rc = loop(fw);
	if (stop_sig)
		bm_msg("%s: finishing the files", strsignal(stop_sig));
	if (bm_cap_finish(fw->cap) && !rc)
		rc = fw->cap->werr;
	bm_src_close(fw->src);
	if (fw->cap->progress)
		fflush(stdout);
	return rc;
}

const struct bm_backend_ops bm_backend_pxe = {
	.name = "pxe",
	.help = "bootmark pxe writes the TFTP tree a box boots from; bootmark capture follows "
		"its console and leaves OUT/<label>/ per run",
	.prepare = bm_pxe_prepare,
	.boot = bm_pxe_follow,
};
