// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stdio.h>

#include "log.h"

int runner_loglevel = RLOG_INFO;

void rlog(int level, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (level > runner_loglevel)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* One fprintf per message so lines from the heartbeat thread never mix. */
	fprintf(stderr, "bootmark-runner: %s\n", buf);
}
