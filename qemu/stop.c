// SPDX-License-Identifier: MIT
/*
 * SIGINT, SIGTERM and SIGHUP end a run the same way (docs/reliability.md):
 * the handler only notes the signal; the watch loop stops QEMU, the command
 * writes what it has, then bm_stop_reraise() dies by the same signal, so a
 * shell, make or timeout(1) sees the death it caused (128 + signal).  A
 * second signal while QEMU is being stopped skips the grace period.
 */
#include <signal.h>
#include <string.h>

#include "qemu.h"

static const int stop_sigs[] = { SIGINT, SIGTERM, SIGHUP };
#define NSIGS (sizeof(stop_sigs) / sizeof(stop_sigs[0]))

static volatile sig_atomic_t first_sig, nsigs;
static struct sigaction old_act[NSIGS];
static int caught;

static void on_stop(int sig)
{
	if (!first_sig)
		first_sig = sig;
	if (nsigs < 1000)
		nsigs++;
}

int bm_stop_catch(void)
{
	struct sigaction sa = { .sa_handler = on_stop };
	unsigned i;

	if (caught)
		return 0;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NSIGS; i++) {
		sigaction(stop_sigs[i], NULL, &old_act[i]);
		/* nohup: an ignored SIGHUP stays ignored */
		if (old_act[i].sa_handler == SIG_IGN)
			continue;
		sigaction(stop_sigs[i], &sa, NULL);
	}
	caught = 1;
	return 1;
}

void bm_stop_release(void)
{
	unsigned i;

	if (!caught)
		return;
	for (i = 0; i < NSIGS; i++)
		sigaction(stop_sigs[i], &old_act[i], NULL);
	caught = 0;
}

int bm_stop_signal(void)
{
	return first_sig;
}

int bm_stop_count(void)
{
	return nsigs;
}

const char *bm_stop_name(int sig)
{
	switch (sig) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	default: return "a signal";
	}
}

void bm_stop_reraise(void)
{
	int sig = first_sig;

	if (!sig)
		return;
	bm_stop_release();
	signal(sig, SIG_DFL);
	raise(sig);
}
