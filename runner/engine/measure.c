// SPDX-License-Identifier: MIT
/* The measurement window of one test (measure.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "measure.h"
#include "sctrace.h"
#include "stats.h"
#include "sysstat.h"

int measure_drop_caches(void)
{
	int fd, ret = 0;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, "3\n", 2) != 2)
		ret = -errno;
	close(fd);
	return ret;
}

void measure_beat(struct wl_ctx *ctx, const char *what)
{
	emit_beat_maybe(ctx->priv);
}

/* The window's metrics first, in the seed's column order. */
static void add_window(const struct measure_env *env, const struct sysstat_snap *a,
		       const struct sysstat_snap *b, struct bm_result *res)
{
	struct bm_result win;
	unsigned i;

	memset(&win, 0, sizeof(win));
	sysstat_add_metrics(a, b, env->hz, &win);
	for (i = 0; i < win.nmetrics; i++) {
		if (!env->disk && (!strcmp(win.m[i].name, "read") ||
				   !strcmp(win.m[i].name, "written")))
			continue;
		bm_result_add(res, win.m[i].name, win.m[i].value, win.m[i].unit);
	}
}

int measure_test(const struct measure_env *env, const struct wl_ops *w, const void *o,
		 struct wl_ctx *ctx, int idx, const struct emit_ctx *ec,
		 struct bm_result *res)
{
	const char *disk = env->disk ? env->disk : "";
	struct sysstat_snap a, b;
	struct bm_result own;
	struct bm_cpu c0, c1;
	struct sctrace tr = { 0 };
	unsigned i;
	int ret = 0, prepared, r;

	emit_phase(env->em, "prepare", ec);
	prepared = w->prepare && (!w->prepares || w->prepares(o, idx));
	if (w->prepare)
		ret = w->prepare(ctx, o, idx);
	if (ret) {
		emit_error(env->em, "bench", ec, "%s prepare: %s", w->desc->name, strerror(-ret));
		return ret;
	}
	if (env->drop && !(w->keep_cache && w->keep_cache(ctx, o, idx))) {
		ret = env->drop(env->drop_arg, prepared);
		if (ret)
			return ret;
	}
	memset(&own, 0, sizeof(own));
	emit_phase(env->em, "run", ec);
	if (env->strace && (r = sctrace_start(&tr, env->strace)))
		rlog(RLOG_ERR, "strace %s: %s: the test runs untraced", env->strace, strerror(-r));
	if (sysstat_begin(&a, "/proc", disk) && env->disk)
		rlog(RLOG_INFO, "no /proc/stat or diskstats entry for %s", disk);
	bm_cpu_now(&c0, RUSAGE_SELF);
	ret = w->run(ctx, o, idx, &own);
	bm_cpu_now(&c1, RUSAGE_SELF);
	sysstat_end(&b, "/proc", disk);
	if (tr.pid && (r = sctrace_stop(&tr, stderr, ec->fs ? ec->fs : "-", ec->test, ec->rep)))
		rlog(RLOG_ERR, "strace %s: no summary: %s", env->strace, strerror(-r));
	if (w->inspect)
		w->inspect(ctx, o, idx, &own);
	add_window(env, &a, &b, res);
	if (env->rusage) {
		bm_result_add(res, "putime", c1.user_s - c0.user_s, "s");
		bm_result_add(res, "pstime", c1.sys_s - c0.sys_s, "s");
	}
	for (i = 0; i < own.nmetrics; i++)
		bm_result_add(res, own.m[i].name, own.m[i].value, own.m[i].unit);
	if (own.partial)
		res->partial = 1;
	if (ret) {
		res->partial = 1;
		emit_error(env->em, "bench", ec, "%s run: %s", w->desc->name, strerror(-ret));
	}
	return ret;
}
