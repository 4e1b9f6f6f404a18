// SPDX-License-Identifier: MIT
/*
 * What else the host did while a boot was measured (hostload.h).  Under TCG
 * a guest's timings are the host's CPU time: a second QEMU on a 2-core host
 * stretches every number, and nothing in the records shows it.  So each boot
 * samples /proc/loadavg, the cpu line of /proc/stat (busy, steal and iowait
 * jiffies) and the other QEMU processes it can see, at its start, every few
 * seconds and at its end; meta.json keeps the summary and compare, report
 * and bisect say when the boots they weigh ran under different load.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "hostload.h"
#include "profile.h"

/* cpu  user nice system idle iowait irq softirq steal guest guest_nice */
static int read_cpu(unsigned long long v[8])
{
	char *text = NULL;
	int n;

	if (bm_read_file("/proc/stat", &text, NULL, 1 << 20))
		return -1;
	n = sscanf(text, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		   &v[3], &v[4], &v[5], &v[6], &v[7]);
	free(text);
	return n == 8 ? 0 : -1;
}

static double read_load1(void)
{
	char *text = NULL;
	double l = -1;

	if (!bm_read_file("/proc/loadavg", &text, NULL, 4096) && sscanf(text, "%lf", &l) != 1)
		l = -1;
	free(text);
	return l;
}

/* utime + stime of pid, in jiffies; 0 when unknown. */
static unsigned long long proc_jiffies(pid_t pid)
{
	char path[64], *text = NULL, *p;
	unsigned long long ut = 0, st = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (pid <= 0 || bm_read_file(path, &text, NULL, 1 << 16))
		return 0;
	p = strrchr(text, ')');  /* comm may hold spaces */
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &ut, &st) != 2)
		ut = st = 0;
	free(text);
	return ut + st;
}

/* QEMU processes other than ours; names the first few into l->others. */
static int count_qemus(struct bm_load *l, pid_t ours)
{
	char path[64], *comm = NULL;
	struct dirent *e;
	DIR *d = opendir("/proc");
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		pid_t pid;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		pid = (pid_t)atoi(e->d_name);
		if (pid == ours)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
		if (bm_read_file(path, &comm, NULL, 256))
			continue;
		if (!strncmp(comm, "qemu-system-", 12)) {
			size_t len = strlen(l->others);

			n++;
			if (!strstr(l->others, e->d_name) && len + 16 < sizeof(l->others))
				snprintf(l->others + len, sizeof(l->others) - len, "%s%.12s", len ? " " : "",
					 e->d_name);
		}
		free(comm);
		comm = NULL;
	}
	closedir(d);
	return n;
}

static double tv_s(struct timeval t)
{
	return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

/*
 * CPU time of bootmark and of its children reaped so far, in /proc/stat's
 * ticks.  QEMU is our child: once bm_qemu_watch has reaped it, this holds all
 * of its CPU time, where the last /proc sample misses its final seconds (and
 * with them a quiet host's boot was judged disturbed by its own QEMU).
 */
static unsigned long long our_ticks(void)
{
	struct rusage self, kids;
	long hz = sysconf(_SC_CLK_TCK);

	if (hz <= 0 || getrusage(RUSAGE_SELF, &self) || getrusage(RUSAGE_CHILDREN, &kids))
		return 0;
	return (unsigned long long)((tv_s(self.ru_utime) + tv_s(self.ru_stime) +
				     tv_s(kids.ru_utime) + tv_s(kids.ru_stime)) * (double)hz);
}

void bm_load_start(struct bm_load *l)
{
	memset(l, 0, sizeof(*l));
	l->load1_start = l->load1_max = read_load1();
	l->have_cpu = !read_cpu(l->cpu0);
	l->ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	l->ours0 = our_ticks();
}

void bm_load_sample(struct bm_load *l, pid_t qemu)
{
	double load1 = read_load1();
	int n = count_qemus(l, qemu);

	if (load1 > l->load1_max)
		l->load1_max = load1;
	if (n > l->qemu_max)
		l->qemu_max = n;
	l->samples++;
	if (qemu > 0)
		l->qemu_pid = qemu;
	if (qemu > 0)
		l->qemu_jiffies = proc_jiffies(qemu);  /* the last sample before it exits */
}

void bm_load_end(struct bm_load *l)
{
	unsigned long long c1[8], d[8], total = 0, busy, ours;
	int i;

	l->load1_end = read_load1();
	if (l->load1_end > l->load1_max)
		l->load1_max = l->load1_end;
	l->busy_pct = l->others_pct = l->steal_pct = l->iowait_pct = -1;
	if (!l->have_cpu || read_cpu(c1))
		return;
	for (i = 0; i < 8; i++) {
		d[i] = c1[i] - l->cpu0[i];
		total += d[i];
	}
	if (!total)
		return;
	busy = total - d[3] - d[4];  /* all but idle and iowait */
	l->busy_pct = 100.0 * (double)busy / (double)total;
	l->steal_pct = 100.0 * (double)d[7] / (double)total;
	l->iowait_pct = 100.0 * (double)d[4] / (double)total;
	/* what is not ours: QEMU's CPU time as its reaping counted it (the last
	 * sample's if QEMU was not reaped), bootmark's own and its tools' */
	ours = our_ticks() - l->ours0;
	if (ours < l->qemu_jiffies)
		ours = l->qemu_jiffies;
	l->others_pct = busy > ours ? 100.0 * (double)(busy - ours) / (double)total : 0;
}

int bm_load_disturbed(const struct bm_load *l)
{
	return l->qemu_max > 0 || l->others_pct > BM_LOAD_OTHERS_PCT ||
	       l->steal_pct > BM_LOAD_STEAL_PCT;
}
