// SPDX-License-Identifier: MIT
/*
 * AIM7 workfiles as data, and how a task's job list comes from them
 * (AIM Suite VII multitask.c, reaim): each of LOADNUM jobs is a subtest;
 * subtest j runs round(w_j / sum(w) * LOADNUM) times, at least once, the
 * total is recomputed, and the jobs are taken in random order without
 * replacement.
 *
 * fserver: workfile.fserver 1.3 (benchmarks.md section 5), FILESIZE 10M,
 * POOLSIZE 20M.  dbase: the weights derived from Hron's percentages (sum
 * 550); its FILESIZE/POOLSIZE are not known, fserver's are used.
 * shared: workfile.shared is UNVERIFIED; AIM7 describes "shared" as a
 * multiuser blend of file-server and database work, so bootmark's shared
 * is the union of the two mixes with their weights added (docs/workloads.md).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "wl_aim7.h"

#define MiB (1024ull * 1024ull)
#define N(a) (sizeof(a) / sizeof((a)[0]))

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

/* fserver + dbase, weights added; fserver's order, then dbase's own tests. */
static const struct aim7_weight shared_w[] = {
	{ "add_int", 40 }, { "add_long", 40 }, { "add_short", 40 },
	{ "creat-clo", 20 }, { "dir_rtns_1", 20 },
	{ "disk_cp", 30 }, { "disk_rd", 70 }, { "disk_rr", 70 },
	{ "disk_rw", 30 }, { "disk_src", 30 }, { "disk_wrt", 30 },
	{ "div_int", 20 }, { "div_long", 20 }, { "div_short", 20 },
	{ "jmp_test", 20 }, { "link_test", 20 },
	{ "mem_rtns_1", 80 }, { "mem_rtns_2", 50 }, { "misc_rtns_1", 20 },
	{ "mul_int", 20 }, { "mul_long", 20 }, { "mul_short", 20 },
	{ "ram_copy", 40 }, { "signal_test", 10 }, { "sort_rtns_1", 60 },
	{ "string_rtns", 60 },
	{ "sync_disk_cp", 5 }, { "sync_disk_rw", 35 }, { "sync_disk_wrt", 5 },
	{ "tcp_test", 10 }, { "udp_test", 40 },
	{ "page_test", 40 }, { "shared_memory", 40 }, { "sieve", 30 },
	{ "stream_pipe", 10 }, { "sync_disk_update", 30 },
};

static const struct aim7_mix mixes[] = {
	{ "fserver", 10 * MiB, 20 * MiB, fserver_w, N(fserver_w) },
	{ "dbase", 10 * MiB, 20 * MiB, dbase_w, N(dbase_w) },
	{ "shared", 10 * MiB, 20 * MiB, shared_w, N(shared_w) },
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

	for (i = 0; i < m->n; i++)
		sum += m->w[i].weight;
	for (i = 0; i < m->n; i++) {
		counts[i] = (unsigned)lround((double)m->w[i].weight / sum * loadnum);
		if (!counts[i])
			counts[i] = 1;
		total += counts[i];
	}
	return total;
}

/* splitmix64 (Steele, Lea, Flood 2014): a full-period 64-bit generator,
 * the same sequence under every libc. */
uint64_t aim7_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

unsigned aim7_job_list(const struct aim7_mix *m, unsigned loadnum, uint64_t seed,
		       unsigned task, unsigned *jobs)
{
	unsigned counts[AIM7_MIX_MAX], i, k, n = 0, j, t;
	uint64_t st = seed * 0x100000001b3ull + task;

	aim7_job_counts(m, loadnum, counts);
	for (i = 0; i < m->n; i++)
		for (k = 0; k < counts[i]; k++)
			jobs[n++] = i;
	for (i = n; i > 1; i--) {      /* Fisher-Yates: draws without replacement */
		j = (unsigned)(aim7_rand(&st) % i);
		t = jobs[i - 1];
		jobs[i - 1] = jobs[j];
		jobs[j] = t;
	}
	return n;
}

int aim7_tasks_parse(const char *list, unsigned *out, int max)
{
	return bm_parse_uint_list(list, out, max, 1, AIM7_TASKS_MAX);
}

double aim7_jobs_min(unsigned jobs_per_task, unsigned tasks, double real)
{
	return real > 0 ? (double)jobs_per_task / real * 60.0 * tasks : 0.0;
}

double aim7_jti(const double *t, unsigned n)
{
	double mean = 0, var = 0;
	unsigned i;

	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		mean += t[i];
	mean /= n;
	for (i = 0; i < n; i++)
		var += (t[i] - mean) * (t[i] - mean);
	var /= n;
	return mean > 0 ? (1.0 - sqrt(var) / mean) * 100.0 : 100.0;
}

unsigned aim7_disk_kib(uint64_t filesize, uint64_t poolsize, unsigned tasks)
{
	return (unsigned)((filesize + poolsize / tasks) / 1024);
}
