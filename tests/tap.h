/* SPDX-License-Identifier: MIT */
/*
 * A small TAP producer in the manner of kselftest.h.  Each test program
 * includes it once, so the counters are plain statics.
 *
 *     tap_plan(0);                      plan printed by tap_done()
 *     tap_ok(x == 1, "x is %d", x);
 *     TAP_EQ_INT(f(), 3, "f returns 3");
 *     return tap_done();                0 pass, 1 fail, 77 when all skipped
 */
#ifndef BM_TAP_H
#define BM_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
	int planned, run, pass, fail, skip;
} tap_state;

/* Line-buffered so a crash (or ASan abort) still shows every finished test. */
static inline void tap_plan(int n)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	tap_state.planned = n;
	printf("TAP version 13\n");
	if (n > 0)
		printf("1..%d\n", n);
}

static inline void tap_vreport(const char *status, const char *directive,
			       const char *fmt, va_list ap)
{
	printf("%s %d - ", status, ++tap_state.run);
	vprintf(fmt, ap);
	printf("%s\n", directive);
}

static inline void tap_diag(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static inline void tap_ok(int cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vreport(cond ? "ok" : "not ok", "", fmt, ap);
	va_end(ap);
	if (cond)
		tap_state.pass++;
	else
		tap_state.fail++;
}

static inline void tap_skip(const char *why, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void tap_skip(const char *why, const char *fmt, ...)
{
	char directive[256];
	va_list ap;

	snprintf(directive, sizeof(directive), " # SKIP %s", why);
	va_start(ap, fmt);
	tap_vreport("ok", directive, fmt, ap);
	va_end(ap);
	tap_state.skip++;
}

/* For when going on makes no sense: TAP readers stop here and count a failure. */
static inline void tap_bail(const char *why)
{
	printf("Bail out! %s\n", why);
	exit(1);
}

static inline int tap_done(void)
{
	if (tap_state.planned <= 0)
		printf("1..%d\n", tap_state.run);
	else if (tap_state.planned != tap_state.run) {
		tap_diag("planned %d tests but ran %d", tap_state.planned, tap_state.run);
		tap_state.fail++;
	}
	printf("# Totals: pass:%d fail:%d skip:%d\n", tap_state.pass, tap_state.fail,
	       tap_state.skip);
	fflush(stdout);
	if (tap_state.fail)
		return 1;
	return tap_state.skip && !tap_state.pass ? 77 : 0;
}

static inline void tap_eq_int(long long a, long long b, const char *as, const char *bs,
			      const char *name)
{
	tap_ok(a == b, "%s", name);
	if (a != b)
		tap_diag("  %s = %lld, expected %s = %lld", as, a, bs, b);
}

static inline void tap_eq_str(const char *a, const char *b, const char *as, const char *bs,
			      const char *name)
{
	int same = a && b ? !strcmp(a, b) : a == b;

	tap_ok(same, "%s", name);
	if (!same)
		tap_diag("  %s = \"%s\", expected %s = \"%s\"", as, a ? a : "(null)", bs,
			 b ? b : "(null)");
}

#define TAP_EQ_INT(a, b, name) tap_eq_int((long long)(a), (long long)(b), #a, #b, (name))
#define TAP_EQ_STR(a, b, name) tap_eq_str((a), (b), #a, #b, (name))

#endif
