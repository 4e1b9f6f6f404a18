// SPDX-License-Identifier: MIT
/* HELLO record contents (hello.h). */
#include <inttypes.h>
#include <libaio.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "hello.h"
#include "profile.h"

void hello_cpu_model(const char *cpuinfo, char *out, size_t len)
{
	const char *p = strstr(cpuinfo, "model name");
	size_t n;

	out[0] = '\0';
	if (!p || !(p = strchr(p, ':')))
		return;
	p += 1 + strspn(p + 1, " \t");
	n = strcspn(p, "\n");
	snprintf(out, len, "%.*s", (int)n, p);
}

static long long mem_total_kb(void)
{
	long long kb = 0;
	char *buf, *p;

	if (bm_read_file("/proc/meminfo", &buf, NULL, 1 << 16))
		return 0;
	p = strstr(buf, "MemTotal:");
	if (p)
		kb = atoll(p + 9);
	free(buf);
	return kb;
}

/* Whether the kernel has native AIO (CONFIG_AIO): later AIO workloads need it. */
static int have_aio(void)
{
	io_context_t ctx = 0;

	if (io_setup(1, &ctx))
		return 0;
	io_destroy(ctx);
	return 1;
}

static void put(struct bm_kv *kv, unsigned *n, const char *k, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void put(struct bm_kv *kv, unsigned *n, const char *k, const char *fmt, ...)
{
	va_list ap;

	if (*n >= HELLO_KV_MAX)
		return;
	snprintf(kv[*n].key, sizeof(kv[*n].key), "%s", k);
	va_start(ap, fmt);
	vsnprintf(kv[*n].val, sizeof(kv[*n].val), fmt, ap);
	va_end(ap);
	(*n)++;
}

unsigned hello_collect(struct bm_kv *kv, const struct runner_cfg *cfg,
		       const char *cmdline, const struct disk_info *disk)
{
	char cpu[128] = "", *buf;
	struct utsname u;
	unsigned n = 0;

	memset(&u, 0, sizeof(u));
	uname(&u);
	if (!bm_read_file("/proc/cpuinfo", &buf, NULL, 1 << 20)) {
		hello_cpu_model(buf, cpu, sizeof(cpu));
		free(buf);
	}
	put(kv, &n, "v", "%d", BM_PROTO_VERSION);
	put(kv, &n, "kernel", "%s", u.release);
	put(kv, &n, "machine", "%s", u.machine);
	/* Escaping can triple a value; keep the line under BM_LINE_MAX. */
	put(kv, &n, "cmdline", "%.200s", cmdline ? cmdline : "");
	put(kv, &n, "cpu", "%.80s", cpu);
	put(kv, &n, "ncpu", "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	put(kv, &n, "mem_kb", "%lld", mem_total_kb());
	put(kv, &n, "disk", "%s", disk ? disk->dev : "");
	put(kv, &n, "disk_serial", "%s",
	    disk && disk->serial[0] ? disk->serial : cfg->disk_serial);
	put(kv, &n, "disk_size", "%" PRIu64, disk ? disk->size : 0);
	/* What sysfs says, so a report shows which physical disk was measured. */
	if (disk && disk->wwn[0])
		put(kv, &n, "disk_wwn", "%s", disk->wwn);
	if (disk && disk->model[0])
		put(kv, &n, "disk_model", "%s", disk->model);
	if (disk && disk->wiped)
		put(kv, &n, "disk_wiped", "1");
	put(kv, &n, "suite", "%s", cfg->suite);
	put(kv, &n, "fs", "%s", cfg->fs);
	put(kv, &n, "config", "%08x", runner_cfg_hash(cfg));
	put(kv, &n, "runner", "%s", RUNNER_VERSION);
	put(kv, &n, "aio", "%d", have_aio());
	return n;
}
