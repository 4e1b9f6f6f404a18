// SPDX-License-Identifier: MIT
/*
 * AIM Suite VII's three multiuser workfiles as data, and the way
 * multitask.c runtap() turns one into a task's jobs: each listed test gets
 * its share of LOADNUM (suite.h: 100) jobs, rounded as runtap() rounds,
 * and each job is drawn with aim_rand() (rand.c), seeded per task with
 * aim_srand(user), without replacement (reduce_list()).
 *
 * The weights, FILESIZE and POOLSIZE are those of workfile.fserver 1.3,
 * workfile.dbase 1.3 and workfile.shared 1.2 (AIM VII 1.1, January 1996).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "wl_aim7.h"

#define KiB 1024ull
#define MiB (1024ull * 1024ull)
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* "Fileserver Mix" */
static const struct aim7_weight fserver_w[] = {
	{ "add_int", 20 }, { "add_long", 20 }, { "add_short", 20 },
	{ "creat-clo", 20 }, { "dir_rtns_1", 20 },
	{ "disk_cp", 30 }, { "disk_rd", 30 }, { "disk_rr", 30 },
	{ "disk_rw", 30 }, { "disk_src", 30 }, { "disk_wrt", 30 },
	{ "div_int", 10 }, { "div_long", 10 }, { "div_short", 10 },
	{ "jmp_test", 10 }, { "link_test", 20 },
	{ "mem_rtns_1", 40 }, { "mem_rtns_2", 10 }, { "misc_rtns_1", 20 },
	{ "mul_int", 10 }, { "mul_long", 10 }, { "mul_short", 10 },
	{ "ram_copy", 20 }, { "signal_test", 10 }, { "sort_rtns_1", 30 },
	{ "string_rtns", 30 },
	{ "sync_disk_cp", 5 }, { "sync_disk_rw", 5 }, { "sync_disk_wrt", 5 },
	{ "tcp_test", 10 }, { "udp_test", 40 },
};

/* "Large Database Mix" */
static const struct aim7_weight dbase_w[] = {
	{ "add_int", 20 }, { "add_long", 20 }, { "add_short", 20 },
	{ "disk_rd", 40 }, { "disk_rr", 40 },
	{ "div_int", 10 }, { "div_long", 10 }, { "div_short", 10 },
	{ "jmp_test", 10 }, { "mem_rtns_1", 40 }, { "mem_rtns_2", 40 },
	{ "mul_int", 10 }, { "mul_long", 10 }, { "mul_short", 10 },
	{ "page_test", 40 }, { "ram_copy", 20 }, { "shared_memory", 40 },
	{ "sieve", 30 }, { "sort_rtns_1", 30 }, { "stream_pipe", 10 },
	{ "string_rtns", 30 }, { "sync_disk_rw", 30 }, { "sync_disk_update", 30 },
};

/* "Multiuser Shared System Mix" */
static const struct aim7_weight shared_w[] = {
	{ "add_double", 30 }, { "add_float", 30 }, { "add_int", 30 },
	{ "add_long", 30 }, { "add_short", 30 },
	{ "array_rtns", 10 }, { "brk_test", 10 }, { "creat-clo", 10 },
	{ "dgram_pipe", 10 }, { "dir_rtns_1", 10 },
	{ "disk_cp", 20 }, { "disk_rd", 20 }, { "disk_rr", 20 },
	{ "disk_rw", 20 }, { "disk_src", 20 }, { "disk_wrt", 20 },
	{ "div_double", 10 }, { "div_float", 10 }, { "div_int", 10 },
	{ "div_long", 10 }, { "div_short", 10 },
	{ "exec_test", 20 }, { "fork_test", 10 }, { "jmp_test", 10 },
	{ "link_test", 10 }, { "matrix_rtns", 10 },
	{ "mem_rtns_1", 10 }, { "mem_rtns_2", 10 }, { "misc_rtns_1", 10 },
	{ "mul_double", 20 }, { "mul_float", 20 }, { "mul_int", 20 },
	{ "mul_long", 20 }, { "mul_short", 20 },
	{ "new_raph", 10 }, { "num_rtns_1", 10 }, { "page_test", 10 },
	{ "pipe_cpy", 10 }, { "ram_copy", 10 }, { "series_1", 10 },
	{ "shared_memory", 10 }, { "shell_rtns_1", 20 }, { "sieve", 10 },
	{ "signal_test", 10 }, { "sort_rtns_1", 10 }, { "stream_pipe", 10 },
	{ "string_rtns", 30 },
	{ "sync_disk_cp", 10 }, { "sync_disk_rw", 10 }, { "sync_disk_wrt", 10 },
	{ "tcp_test", 10 }, { "trig_rtns", 10 }, { "udp_test", 10 },
};

static const struct aim7_mix mixes[] = {
	{ "fserver", "workfile.fserver:1.3", 10 * MiB, 20 * MiB, fserver_w, N(fserver_w) },
	{ "dbase", "workfile.dbase:1.3", 1 * MiB, 25 * MiB, dbase_w, N(dbase_w) },
	{ "shared", "workfile.shared:1.2", 1 * MiB, 10 * MiB, shared_w, N(shared_w) },
};

const char *const aim7_mix_names[] = { "fserver", "dbase", "shared", NULL };

const struct aim7_mix *aim7_mix_find(const char *name)
{
	size_t i;

	for (i = 0; i < N(mixes); i++)
		if (!strcmp(mixes[i].name, name))
			return &mixes[i];
	return NULL;
}

unsigned aim7_job_counts(const struct aim7_mix *m, unsigned loadnum, unsigned *counts)
{
	unsigned i, sum = 0, total = 0;
	double load;

	for (i = 0; i < m->n; i++)
		sum += m->w[i].weight;
	for (i = 0; i < m->n; i++) {
		load = (double)m->w[i].weight / sum * loadnum;
		counts[i] = (unsigned)load;
		if (load - counts[i] >= 0.5)
			counts[i]++;
		else if (load - counts[i] != 0.0 && counts[i] == 0)
			counts[i] = 1;      /* "run each test at least once" */
		total += counts[i];
	}
	return total;
}

unsigned aim7_rand(unsigned long *seed)
{
	*seed = *seed * 1103515245ul + 12345ul;
	return (unsigned)((*seed >> 16) & 0x7fff);
}

int aim7_next_job(unsigned *wlist, unsigned work, unsigned long *seed)
{
	unsigned rlist[AIM7_MIX_MAX], total = 0, i, k;

	if (!work)
		return -1;
	k = aim7_rand(seed) % work;
	if (wlist[k] > 0) {
		wlist[k]--;
		return (int)k;
	}
	for (i = 0; i < work; i++)
		if (wlist[i])
			rlist[total++] = i;
	if (!total)
		return -1;     /* AIM: "FATAL ERROR - DIVIDE BY ZERO" */
	k = rlist[aim7_rand(seed) % total];
	wlist[k]--;
	return (int)k;
}

int aim7_tasks_parse(const char *list, unsigned *out, int max)
{
	return bm_parse_uint_list(list, out, max, 1, AIM7_TASKS_MAX);
}

double aim7_jobs_min(unsigned jobs_per_task, unsigned tasks, double real)
{
	return real > 0 ? (double)jobs_per_task / real * 60.0 * tasks : 0.0;
}

/* runtap(): std_dev = sqrt((sumsq - sum^2/n) / n), cov = std_dev / mean,
 * jti = (int)cov > 1 ? 0 : (1 - cov) * 100. */
double aim7_jti(const double *t, unsigned n)
{
	double sum = 0, sumsq = 0, sd, cov;
	unsigned i;

	if (!n)
		return 0;
	if (n == 1)
		return 100;
	for (i = 0; i < n; i++) {
		sum += t[i];
		sumsq += t[i] * t[i];
	}
	sd = sqrt(fmax(0, (sumsq - sum * sum / n) / n));
	cov = sum > 0 ? sd / (sum / n) : 0;
	return (int)cov > 1 ? 0 : (double)(int)((1 - cov) * 100);   /* jti is an int */
}

unsigned aim7_disk_kib(uint64_t filesize, uint64_t poolsize, unsigned tasks)
{
	return (unsigned)(filesize / KiB + poolsize / KiB / tasks);
}
