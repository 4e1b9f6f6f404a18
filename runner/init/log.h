/* SPDX-License-Identifier: MIT */
/* Runner diagnostics on stderr (the console), filtered by bootmark.loglevel. */
#ifndef BM_RUNNER_LOG_H
#define BM_RUNNER_LOG_H

enum { RLOG_ERR = 0, RLOG_INFO = 1, RLOG_DEBUG = 2 };

extern int runner_loglevel;

void rlog(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
