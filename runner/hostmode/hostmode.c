// SPDX-License-Identifier: MIT
/* Host mode: the test loop, the records and the table (hostmode.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "emit.h"
#include "hello.h"
#include "hostmode.h"
#include "hosttree.h"
#include "measure.h"
#include "profile.h"
#include "report.h"
#include "wldesc.h"

#define HOST_HELLO_MAX 16

static void put(struct bm_kv *kv, unsigned *n, const char *k, const char *v)
{
	if (*n >= HOST_HELLO_MAX)
		return;
	snprintf(kv[*n].key, sizeof(kv[*n].key), "%s", k);
	/* Escaping can triple a value; keep the line under BM_LINE_MAX. */
	snprintf(kv[*n].val, sizeof(kv[*n].val), "%.160s", v);
	(*n)++;
}

static void host_hello(struct hostmode *h, struct emitter *em)
{
	struct bm_kv kv[HOST_HELLO_MAX];
	char cpu[128] = "", num[32], *buf, *p;
	struct utsname u;
	unsigned n = 0;

	memset(&u, 0, sizeof(u));
	uname(&u);
	put(kv, &n, "v", "1");
	put(kv, &n, "host", "1");
	put(kv, &n, "kernel", u.release);
	put(kv, &n, "machine", u.machine);
	if (!bm_read_file("/proc/cpuinfo", &buf, NULL, 1 << 20)) {
		hello_cpu_model(buf, cpu, sizeof(cpu));
		free(buf);
	}
	put(kv, &n, "cpu", cpu);
	snprintf(num, sizeof(num), "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	put(kv, &n, "ncpu", num);
	num[0] = '\0';
	if (!bm_read_file("/proc/meminfo", &buf, NULL, 1 << 16)) {
		p = strstr(buf, "MemTotal:");
		snprintf(num, sizeof(num), "%lld", p ? atoll(p + 9) : 0LL);
		free(buf);
	}
	put(kv, &n, "mem_kb", num);
	put(kv, &n, "dir", h->dir);
	snprintf(cpu, sizeof(cpu), "%s%s", h->disk[0] ? "/dev/" : "", h->disk);
	put(kv, &n, "disk", cpu);
	put(kv, &n, "fs", h->fstype);
	put(kv, &n, "wl", h->w->desc->name);
	put(kv, &n, "params", h->args);
	put(kv, &n, "cache", h->can_drop ? "dropped" : "fadvise");
	put(kv, &n, "runner", RUNNER_VERSION);
	emit_hello(em, kv, n);
}

/*
 * Root drops the whole page cache, as the appliance does.  Anyone else
 * gets the next best thing: after sync, POSIX_FADV_DONTNEED evicts the
 * clean pages of every file in the test directory.
 */
static int host_drop(void *arg, int prepared)
{
	struct hostmode *h = arg;
	int ret;

	(void)prepared;  /* nothing to remount: the directory is the user's */
	if (h->can_drop) {
		ret = measure_drop_caches();
		if (!ret) {
			h->cache = "dropped";
			return 0;
		}
		fprintf(stderr, "bootmark-runner: cannot drop caches: %s\n", strerror(-ret));
		h->can_drop = 0;
	} else {
		sync();
	}
	if (!h->said_cache) {
		fprintf(stderr, "bootmark-runner: not root: the page cache is not dropped; "
			"the test files' pages are evicted with fadvise (records say "
			"cache=fadvise)\n");
		h->said_cache = 1;
	}
	ret = hosttree_fadvise(h->dirfd, h->subdir);
	if (ret)
		fprintf(stderr, "bootmark-runner: fadvise in %s/%s: %s\n", h->dir, h->subdir,
			strerror(-ret));
	h->cache = "fadvise";
	/* an eviction that did not happen is visible in the read figures and
	 * in cache=; it does not stop the test */
	return 0;
}

/*
 * The directory of test idx: the one test idx-1 kept for it (kept only when
 * the workload says idx continues it: bonnie++'s stat after its create),
 * else a fresh DIR/bootmark.<pid>.<n>.  1 continued, 0 fresh, or -errno.
 */
static int host_test_dir(struct hostmode *h, struct emitter *em, const struct emit_ctx *ec,
			 char *sub, size_t len)
{
	int ret;

	if (h->kept[0]) {
		snprintf(sub, len, "%s", h->kept);
		h->kept[0] = '\0';
		return 1;
	}
	snprintf(sub, len, "bootmark.%ld.%u", (long)getpid(), ++h->ntest);
	if (mkdirat(h->dirfd, sub, 0700)) {
		ret = -errno;
		emit_error(em, "setup", ec, "cannot make %s/%s: %s", h->dir, sub, strerror(errno));
		return ret;
	}
	return 0;
}

/* One test in its directory (host_test_dir); -errno when the directory failed us. */
static int host_test(struct hostmode *h, struct emitter *em, int idx)
{
	char sub[64], mnt[PATH_MAX + 64], dev[80];
	struct measure_env env = { .em = em, .disk = h->disk[0] ? h->disk : NULL,
				   .hz = sysconf(_SC_CLK_TCK), .drop = host_drop, .drop_arg = h,
				   .rusage = 1 };
	struct wl_ctx ctx = { .mnt = mnt, .dev = dev, .fs = h->fstype, .rep = 1,
			      .beat = measure_beat, .priv = em };
	struct emit_ctx ec = { .fs = h->fstype, .rep = 1 };
	struct bm_kv kv[2];
	struct bm_result res;
	int ret, failed;

	memset(&res, 0, sizeof(res));
	if (h->w->desc->describe(h->opts, idx, &res)) {
		emit_error(em, "internal", NULL, "%s: no test %d", h->w->desc->name, idx);
		return 0;
	}
	ec.test = res.test;
	ret = host_test_dir(h, em, &ec, sub, sizeof(sub));
	if (ret < 0)
		return ret;
	ctx.continued = ret;
	snprintf(mnt, sizeof(mnt), "%s/%s", h->dir, sub);
	snprintf(dev, sizeof(dev), "%s%s", h->disk[0] ? "/dev/" : "", h->disk);
	h->subdir = sub;
	h->cache = "kept";
	snprintf(kv[1].key, sizeof(kv[1].key), "continues");
	snprintf(kv[1].val, sizeof(kv[1].val), "%s", ctx.continued ? h->kept_test : "");
	failed = measure_test(&env, h->w, h->opts, &ctx, idx, &ec, &res) || res.partial;
	/* a failed test leaves nothing worth continuing from */
	ret = 0;
	if (!failed && idx + 1 < h->ntests && h->w->continues && h->w->continues(h->opts, idx + 1)) {
		snprintf(h->kept, sizeof(h->kept), "%s", sub);
		snprintf(h->kept_test, sizeof(h->kept_test), "%s", res.test);
	} else
		ret = hosttree_remove(h->dirfd, sub);
	if (ret)
		emit_error(em, "setup", &ec, "cannot remove %s: %s", mnt, strerror(-ret));
	if (res.nmetrics) {
		snprintf(kv[0].key, sizeof(kv[0].key), "cache");
		snprintf(kv[0].val, sizeof(kv[0].val), "%s", h->cache);
		/* continues=<label>: this test took over that test's files */
		emit_result_kv(em, &res, &ec, "", h->mount_opts, kv, ctx.continued ? 2 : 1);
	}
	return ret;
}

/* The table from the R lines as written: it proves they decode. */
static void host_table(const struct hostmode *h, const struct emitter *em, FILE *f)
{
	struct bm_rrow *rows = calloc(em->nr ? em->nr : 1, sizeof(*rows));
	struct bm_rres *res = calloc(em->nr ? em->nr : 1, sizeof(*res));
	struct bm_record *rec = malloc(sizeof(*rec));
	char kshort[80], label[128];
	size_t i, n = 0, pos;

	if (!rows || !res || !rec)
		goto out_free;
	bm_kernel_short(h->kernel, kshort, sizeof(kshort));
	bm_report_label(label, sizeof(label), h->fstype, kshort);
	for (i = 0; i < em->nr; i++) {
		pos = 0;
		if (bm_scan(em->rlines[i], strlen(em->rlines[i]), &pos, rec) != 1 ||
		    bm_rres_from_record(&res[n], rec)) {
			fprintf(stderr, "bootmark-runner: record %zu does not decode\n", i + 1);
			continue;
		}
		rows[n].label = label;
		rows[n].r = &res[n];
		n++;
	}
	if (n) {
		fputc('\n', f);
		bm_report_print(f, rows, n);
		fflush(f);
	}
out_free:
	free(rows);
	free(res);
	free(rec);
}

static char *new_run_id(char *buf, size_t len)
{
	char *uuid = NULL;

	if (!bm_read_file("/proc/sys/kernel/random/uuid", &uuid, NULL, 64) &&
	    strlen(uuid) >= BM_RUN_LEN)
		snprintf(buf, len, "%.8s", uuid);
	else
		snprintf(buf, len, "%08x", (unsigned)getpid() ^ 0x5eedu);
	free(uuid);
	return buf;
}

int hostmode_run(struct hostmode *h, int fd, FILE *table)
{
	struct emitter em;
	char run[BM_RUN_LEN + 1];
	int idx, ntests, sys = 0, rc;

	/* The emitter closes its fd at the end: give it its own. */
	fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (fd < 0) {
		fprintf(stderr, "bootmark-runner: cannot write records: %s\n", strerror(errno));
		return HOSTMODE_EXIT_SYSTEM;
	}
	emit_init_fd(&em, fd, new_run_id(run, sizeof(run)));
	host_hello(h, &em);
	ntests = h->w->desc->ntests(h->opts);
	h->ntests = ntests;
	h->kept[0] = '\0';
	emit_set_planned(&em, (unsigned)ntests, 0);
	for (idx = 0; idx < ntests && !sys; idx++)
		sys = host_test(h, &em, idx) < 0;
	if (h->kept[0] && hosttree_remove(h->dirfd, h->kept) < 0)
		sys = 1;  /* only when a test stopped the loop before its successor */
	rc = emit_end(&em);
	if (rc) {
		fprintf(stderr, "bootmark-runner: cannot write records: %s\n", strerror(-rc));
		sys = 1;
	}
	if (table)
		host_table(h, &em, table);
	rc = sys ? HOSTMODE_EXIT_SYSTEM : em.nerrors ? HOSTMODE_EXIT_FAILED : HOSTMODE_EXIT_OK;
	emit_close(&em);
	return rc;
}

static int host_usage(const char *why)
{
	fprintf(stderr, "bootmark-runner: %s\n"
		"usage: bootmark-runner --host DIR --workload NAME [--table] [key=value ...]\n"
		"(bootmark-runner --help lists the workloads and their options)\n", why);
	return HOSTMODE_EXIT_USAGE;
}

static int setup_exit(int ret)
{
	switch (ret) {
	case -EINVAL: case -ENOENT: case -ENOTDIR: case -EACCES: case -EPERM: case -EROFS:
	case -ENAMETOOLONG: case -ELOOP:
		return HOSTMODE_EXIT_USAGE;
	default:
		return HOSTMODE_EXIT_SYSTEM;
	}
}

int hostmode_main(int argc, char **argv)
{
	static struct hostmode h;
	char err[512], **words;
	const char *dir = NULL, *wl = NULL;
	int i, nwords = 0, table = isatty(1), ret;

	words = calloc((size_t)argc, sizeof(*words));
	if (!words)
		return HOSTMODE_EXIT_SYSTEM;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--host") && i + 1 < argc)
			dir = argv[++i];
		else if (!strcmp(argv[i], "--workload") && i + 1 < argc)
			wl = argv[++i];
		else if (!strcmp(argv[i], "--table"))
			table = 1;
		else if (argv[i][0] != '-' && strchr(argv[i], '='))
			words[nwords++] = argv[i];
		else {
			snprintf(err, sizeof(err), "unexpected argument \"%s\"", argv[i]);
			free(words);
			return host_usage(err);
		}
	}
	if (!dir || !wl) {
		free(words);
		return host_usage(!dir ? "--host needs a directory" : "--workload is missing");
	}
	ret = hostmode_setup(&h, dir, wl, words, nwords, err, sizeof(err));
	free(words);
	if (ret) {
		fprintf(stderr, "bootmark-runner: %s\n", err);
		return setup_exit(ret);
	}
	ret = hostmode_run(&h, 1, table ? stdout : NULL);
	hostmode_free(&h);
	return ret;
}
