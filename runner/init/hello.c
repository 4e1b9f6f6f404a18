// SPDX-License-Identifier: MIT
/* HELLO record contents (hello.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libaio.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "hello.h"
#include "profile.h"

#define KMSG_REC_MAX  8192   /* a read of /dev/kmsg returns one whole record */
#define KMSG_RECS_MAX 20000  /* the ring holds ~1500 at boot: a bound, not a limit */
#define KMSG_PROBE    "bootmark: clock probe"

static double boottime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void hello_times_init(struct hello_times *t)
{
	*t = (struct hello_times){ .runner = -1, .setup = -1, .modules = -1, .disk = -1,
				   .hello = -1, .unpack0 = -1, .unpack1 = -1, .init = -1,
				   .kcost = -1 };
}

/* printk time of a /dev/kmsg record ("prio,seq,usec,flags;text") and its text. */
static int kmsg_split(const char *rec, size_t len, double *ts, const char **text, size_t *n)
{
	const char *semi = memchr(rec, ';', len), *c1, *c2, *end;
	unsigned long long usec;

	if (!semi)
		return -EINVAL;
	c1 = memchr(rec, ',', (size_t)(semi - rec));
	c2 = c1 ? memchr(c1 + 1, ',', (size_t)(semi - c1 - 1)) : NULL;
	if (!c2 || sscanf(c2 + 1, "%llu", &usec) != 1)
		return -EINVAL;
	*ts = (double)usec / 1e6;
	*text = semi + 1;
	end = memchr(*text, '\n', len - (size_t)(*text - rec));
	*n = end ? (size_t)(end - *text) : len - (size_t)(*text - rec);
	return 0;
}

int hello_kmsg_record(struct hello_times *t, const char *rec, size_t len, double *skew)
{
	static const char *const what[] = {
		"Trying to unpack rootfs image as initramfs", "Freeing initrd memory", "Run ",
	};
	double *slot[] = { &t->unpack0, &t->unpack1, &t->init };
	const size_t plen = strlen(KMSG_PROBE);
	const char *text;
	char num[32];
	double ts, w;
	size_t i, n;

	if (kmsg_split(rec, len, &ts, &text, &n))
		return 0;
	/* our probe: "bootmark: clock probe <CLOCK_BOOTTIME just before the write>" */
	if (n > plen + 1 && n - plen - 1 < sizeof(num) && !memcmp(text, KMSG_PROBE " ", plen + 1)) {
		memcpy(num, text + plen + 1, n - plen - 1);
		num[n - plen - 1] = '\0';
		if (sscanf(num, "%lf", &w) != 1)
			return 0;
		*skew = ts - w;
		return 1;
	}
	for (i = 0; i < 3; i++) {
		size_t wl = strlen(what[i]);

		if (n < wl || memcmp(text, what[i], wl) || *slot[i] >= 0)
			continue;
		/* "Run %s as init process": the kernel found an init */
		if (i == 2 && !memmem(text, n, " as init process", 16))
			continue;
		*slot[i] = ts;
	}
	return 0;
}

/* Writes a probe; 0 and its text in buf, or -errno.  <7>: debug level,
 * never on a console at bootmark's loglevel=4. */
static int kmsg_probe(int fd, char *buf, size_t len)
{
	int n = snprintf(buf, len, "<7>" KMSG_PROBE " %.6f\n", boottime());

	if (n < 0 || (size_t)n >= len)
		return -EINVAL;
	return write(fd, buf, (size_t)n) == n ? 0 : -errno;
}

void hello_kmsg_probe(void)
{
	char buf[64];
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	kmsg_probe(fd, buf, sizeof(buf));
	close(fd);
}

/* The records up to our last probe: the milestones and the probes' skews. */
static void kmsg_read(struct hello_times *t, int fd, const char *last)
{
	char *rec = malloc(KMSG_REC_MAX);
	double skew, first = 0;
	int i, nprobe = 0;
	ssize_t n;

	if (!rec)
		return;
	for (i = 0; i < KMSG_RECS_MAX; i++) {
		n = read(fd, rec, KMSG_REC_MAX - 1);
		if (n < 0 && errno == EPIPE)
			continue;  /* overwritten while we read: the next one follows */
		if (n <= 0)
			break;
		rec[n] = '\0';
		if (!hello_kmsg_record(t, rec, (size_t)n, &skew))
			continue;
		if (!nprobe++)
			first = skew;
		if (last && strstr(rec, last))
			break;
	}
	free(rec);
	if (!nprobe)
		return;
	/* the first probe is the runner's start, closest to the kernel's milestones */
	t->kskew = first;
	t->kdrift = skew - first;
	t->kskew_ok = nprobe;
}

void hello_kmsg_scan(struct hello_times *t)
{
	double t0 = boottime();
	char buf[64], *last = NULL;
	int fd;

	fd = open("/dev/kmsg", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return;
	if (!kmsg_probe(fd, buf, sizeof(buf)))
		last = buf + 3;  /* without <7> and the newline: the text as read */
	if (last)
		last[strlen(last) - 1] = '\0';
	kmsg_read(t, fd, last);
	close(fd);
	t->kcost = boottime() - t0;
}

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

/*
 * Whether the kernel has native AIO (CONFIG_AIO): later AIO workloads need
 * it.  io_setup with no events is refused with EINVAL by a kernel that has
 * it (fs/aio.c checks nr_events before anything is made) and with ENOSYS by
 * one that does not.  Not a real context: io_destroy waits out an RCU grace
 * period, 40-60 ms of a boot under TCG (docs/performance.md).
 */
static int have_aio(void)
{
	io_context_t ctx = 0;

	return io_setup(0, &ctx) == -EINVAL;
}

/* kernel.randomize_va_space as the suite runs it (the runner sets it), -1 unknown. */
static int aslr_now(void)
{
	char *buf;
	int v;

	if (bm_read_file("/proc/sys/kernel/randomize_va_space", &buf, NULL, 64))
		return -1;
	v = atoi(buf);
	free(buf);
	return v;
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

/* The milestones that are known, 3 decimals (ms), then the scan's figures. */
static void put_times(struct bm_kv *kv, unsigned *n, const struct hello_times *t)
{
	static const char *const keys[] = { "t_runner", "t_setup", "t_modules", "t_disk",
					    "t_hello", "t_unpack0", "t_unpack1", "t_init" };
	const double v[] = { t->runner, t->setup, t->modules, t->disk, t->hello,
			     t->unpack0, t->unpack1, t->init };
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (v[i] >= 0)
			put(kv, n, keys[i], "%.3f", v[i]);
	if (t->kskew_ok)
		put(kv, n, "klog_skew", "%.4f", t->kskew);
	if (t->kskew_ok > 1)
		put(kv, n, "klog_drift", "%.4f", t->kdrift);
	if (t->kcost >= 0)
		put(kv, n, "klog_cost", "%.4f", t->kcost);
}

void hello_facts_read(struct hello_facts *f)
{
	char *buf;

	memset(f, 0, sizeof(*f));
	uname(&f->u);
	if (!bm_read_file("/proc/cpuinfo", &buf, NULL, 1 << 20)) {
		hello_cpu_model(buf, f->cpu, sizeof(f->cpu));
		free(buf);
	}
	f->ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	f->mem_kb = mem_total_kb();
	f->aio = have_aio();
	f->aslr = aslr_now();
}

unsigned hello_collect(struct bm_kv *kv, const struct hello_facts *facts,
		       const struct runner_cfg *cfg, const char *cmdline,
		       const struct disk_info *disk, struct hello_times *times)
{
	struct hello_facts now;
	const struct hello_facts *f = facts;
	unsigned n = 0;

	if (!f) {
		hello_facts_read(&now);
		f = &now;
	}
	put(kv, &n, "v", "%d", BM_PROTO_VERSION);
	put(kv, &n, "kernel", "%s", f->u.release);
	put(kv, &n, "machine", "%s", f->u.machine);
	/* Escaping can triple a value; keep the line under BM_LINE_MAX. */
	put(kv, &n, "cmdline", "%.200s", cmdline ? cmdline : "");
	put(kv, &n, "cpu", "%.80s", f->cpu);
	put(kv, &n, "ncpu", "%ld", f->ncpu);
	put(kv, &n, "mem_kb", "%lld", f->mem_kb);
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
	if (disk && disk->bus[0])
		put(kv, &n, "disk_bus", "%s", disk->bus);
	if (disk && disk->driver[0])
		put(kv, &n, "disk_driver", "%s", disk->driver);
	if (f->coldplug[0])
		put(kv, &n, "coldplug", "%s", f->coldplug);
	put(kv, &n, "suite", "%s", cfg->suite);
	put(kv, &n, "fs", "%s", cfg->fs);
	put(kv, &n, "config", "%08x", runner_cfg_hash(cfg));
	put(kv, &n, "runner", "%s", RUNNER_VERSION);
	put(kv, &n, "aio", "%d", f->aio);
	put(kv, &n, "aslr", "%d", f->aslr);
	if (times) {
		times->hello = boottime();
		put_times(kv, &n, times);
	}
	return n;
}
