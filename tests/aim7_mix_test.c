// SPDX-License-Identifier: MIT
/* runner/workloads/aim7/desc_aim7_mix.c: AIM VII's workfiles to job counts (runtap()'s
 * rounding), aim_rand() and runtap()'s draws without replacement, the task
 * list parser and the AIM7 arithmetic, against hand-computed values and
 * seed 000's own figures. */
#include <string.h>

#include "tap.h"
#include "wl_aim7.h"

static unsigned weight_sum(const struct aim7_mix *m)
{
	unsigned i, s = 0;

	for (i = 0; i < m->n; i++)
		s += m->w[i].weight;
	return s;
}

/* counts[] by hand: round(w / sum * 100), e.g. fserver 20/595*100 = 3.36 -> 3. */
static void check_counts(const char *mix, unsigned sum, const unsigned *want, unsigned n,
			 unsigned total)
{
	const struct aim7_mix *m = aim7_mix_find(mix);
	unsigned got[AIM7_MIX_MAX], i, bad = 0;

	if (!m) {
		tap_ok(0, "mix %s exists", mix);
		return;
	}
	TAP_EQ_INT(m->n, n, "subtests in the mix");
	TAP_EQ_INT(weight_sum(m), sum, "weight sum");
	TAP_EQ_INT(aim7_job_counts(m, 100, got), total, "recomputed total for LOADNUM 100");
	for (i = 0; i < n && i < m->n; i++)
		if (got[i] != want[i]) {
			tap_diag("%s: %s gets %u jobs, want %u", mix, m->w[i].test, got[i], want[i]);
			bad++;
		}
	tap_ok(!bad, "%s: every subtest's job count", mix);
}

static void test_counts(void)
{
	/* workfile.fserver order: add x3, creat-clo, dir_rtns_1, disk_cp rd rr rw src wrt,
	 * div x3, jmp, link, mem1, mem2, misc, mul x3, ram, signal, sort, string,
	 * sync cp rw wrt, tcp, udp */
	static const unsigned fserver[] = { 3, 3, 3, 3, 3, 5, 5, 5, 5, 5, 5, 2, 2, 2, 2, 3,
					    7, 2, 3, 2, 2, 2, 3, 2, 5, 5, 1, 1, 1, 2, 7 };
	/* add x3, disk_rd, disk_rr, div x3, jmp, mem1, mem2, mul x3, page, ram, shm,
	 * sieve, sort, stream_pipe, string, sync_disk_rw, sync_disk_update */
	static const unsigned dbase[] = { 4, 4, 4, 7, 7, 2, 2, 2, 2, 7, 7, 2, 2, 2, 7, 4, 7,
					  5, 5, 2, 5, 5, 5 };
	/* workfile.shared: 30/780*100 = 3.85 -> 4, 20/780 -> 2.56 -> 3, 10/780 -> 1.28 -> 1 */
	static const unsigned shared[] = {
		4, 4, 4, 4, 4, 1, 1, 1, 1, 1, 3, 3, 3, 3, 3, 3, 1, 1, 1, 1, 1,
		3, 1, 1, 1, 1, 1, 1, 1, 3, 3, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 3, 1,
		1, 1, 1, 4, 1, 1, 1, 1, 1, 1,
	};
	const struct aim7_mix *m;

	check_counts("fserver", 595, fserver, 31, 101);
	check_counts("dbase", 550, dbase, 23, 99);
	/* seed 000's shared rows: 2186.9 jobs/min x 170.3 s / 60 / 64 tasks = 97 */
	check_counts("shared", 780, shared, 53, 97);
	tap_ok(aim7_mix_find("nosuch") == NULL, "unknown mix");
	m = aim7_mix_find("fserver");
	tap_ok(m && m->filesize == 10 << 20 && m->poolsize == 20 << 20, "fserver: 10M + 20M");
	m = aim7_mix_find("dbase");
	tap_ok(m && m->filesize == 1 << 20 && m->poolsize == 25 << 20, "dbase: 1M + 25M");
	m = aim7_mix_find("shared");
	tap_ok(m && m->filesize == 1 << 20 && m->poolsize == 10 << 20, "shared: 1M + 10M");
}

static void test_minimum(void)
{
	const struct aim7_mix *m = aim7_mix_find("fserver");
	unsigned got[AIM7_MIX_MAX], i, zero = 0, total;

	total = aim7_job_counts(m, 20, got);
	for (i = 0; i < m->n; i++)
		zero += !got[i];
	tap_ok(!zero, "LOADNUM 20: every listed subtest runs at least once");
	/* 30/595*20 = 1.01 -> 1, 40 -> 1.34 -> 1, everything else 0.x -> 1 */
	TAP_EQ_INT(total, 31, "LOADNUM 20: total recomputed (31 subtests, 1 each)");
	TAP_EQ_INT(aim7_job_counts(m, 1000, got), 1000, "LOADNUM 1000: exact total");
	TAP_EQ_INT(got[0], 34, "LOADNUM 1000: add_int 20/595*1000 = 33.6 -> 34");
}

/* rand.c: seed = seed * 1103515245 + 12345, (seed >> 16) & 0x7fff */
static void test_rand(void)
{
	unsigned long s = 0, t = 1;
	unsigned a = aim7_rand(&s), b = aim7_rand(&s);

	TAP_EQ_INT(a, 0, "aim_rand from seed 0: 12345 >> 16 = 0");
	TAP_EQ_INT(b, (unsigned)(((12345ul * 1103515245ul + 12345ul) >> 16) & 0x7fff),
		   "aim_rand's second value");
	TAP_EQ_INT(aim7_rand(&t), 16838, "aim_rand from seed 1 (the C library's first rand())");
}

/* runtap()'s draws: a permutation of the counted jobs, AIM's for a seed. */
static void test_draws(void)
{
	const struct aim7_mix *m = aim7_mix_find("dbase");
	unsigned w[AIM7_MIX_MAX], counts[AIM7_MIX_MAX], seen[AIM7_MIX_MAX] = { 0 };
	unsigned long seed = 0, s2 = 0, s3 = 1;
	unsigned n, i, perm = 1, same = 1, differ = 0;
	int a[128] = { 0 }, b[128] = { 0 }, k;

	n = aim7_job_counts(m, 100, w);
	aim7_job_counts(m, 100, counts);
	for (i = 0; i < n; i++) {
		a[i] = aim7_next_job(w, m->n, &seed);
		if (a[i] >= 0)
			seen[a[i]]++;
	}
	TAP_EQ_INT(aim7_next_job(w, m->n, &seed), -1, "no job left after the total");
	for (i = 0; i < m->n; i++)
		perm &= seen[i] == counts[i];
	tap_ok(perm, "the draws take every counted job once");
	/* the first draw by hand: aim_rand() from seed 0 is 0, 0 % 23 = add_int */
	TAP_EQ_INT(a[0], 0, "user 0's first job: aim_rand() = 0 -> add_int");
	aim7_job_counts(m, 100, w);
	for (i = 0; i < n; i++)
		same &= (b[i] = aim7_next_job(w, m->n, &s2)) == a[i];
	tap_ok(same, "same user, same order");
	aim7_job_counts(m, 100, w);
	for (i = 0; i < n; i++) {
		k = aim7_next_job(w, m->n, &s3);
		differ += k != a[i];
	}
	tap_ok(differ > 0, "another user gets another order");
}

static void test_arith(void)
{
	unsigned list[AIM7_LISTS_MAX];
	double same[3] = { 2, 2, 2 }, two[2] = { 1, 3 }, three[3] = { 9, 10, 11 };

	TAP_EQ_INT(aim7_tasks_parse("1,2,4,8,16", list, AIM7_LISTS_MAX), 5, "five task counts");
	TAP_EQ_INT(list[4], 16, "last task count");
	tap_ok(aim7_tasks_parse("1,,2", list, AIM7_LISTS_MAX) < 0, "empty item rejected");
	tap_ok(aim7_tasks_parse("0", list, AIM7_LISTS_MAX) < 0, "0 tasks rejected");
	tap_ok(aim7_tasks_parse("4097", list, AIM7_LISTS_MAX) < 0, "too many tasks rejected");
	tap_ok(aim7_tasks_parse("1,2,", list, AIM7_LISTS_MAX) < 0, "trailing comma rejected");
	tap_ok(aim7_tasks_parse("", list, AIM7_LISTS_MAX) < 0, "empty list rejected");
	/* seed 000, 2.5.70-mm8 dbase 32 tasks: 686.7 jobs/min at Real 276.8 s,
	 * 99 jobs per task: 99/276.8*60*32 = 686.7 */
	tap_ok(aim7_jobs_min(99, 32, 276.8) > 686.6 && aim7_jobs_min(99, 32, 276.8) < 686.8,
	       "Jobs/Min = jobs/real*60*tasks (seed 000's 686.7)");
	/* fserver, 2.5.70-mm6, 4 tasks: 92.7 at 261.6 s with 101 jobs per task */
	tap_ok(aim7_jobs_min(101, 4, 261.6) > 92.6 && aim7_jobs_min(101, 4, 261.6) < 92.8,
	       "seed 000's fserver 92.7 from 101 jobs per task");
	TAP_EQ_INT((int)aim7_jobs_min(100, 1, 0), 0, "no time, no rate");
	TAP_EQ_INT((int)aim7_jti(same, 3), 100, "equal times: JTI 100");
	TAP_EQ_INT((int)aim7_jti(two, 2), 50, "times 1 and 3: JTI 50");
	TAP_EQ_INT((int)aim7_jti(three, 3), 91, "JTI is runtap()'s int: (1 - 0.0816) x 100 -> 91");
	TAP_EQ_INT(aim7_disk_kib(10 << 20, 20 << 20, 1), 30720, "fserver, 1 task: 30 MiB");
	TAP_EQ_INT(aim7_disk_kib(10 << 20, 20 << 20, 8), 12800, "fserver, 8 tasks: 12.5 MiB");
	TAP_EQ_INT(aim7_disk_kib(1 << 20, 25 << 20, 3), 1024 + 8533, "dbase, 3 tasks: 25600/3 "
		   "truncated");
}

int main(void)
{
	tap_plan(0);
	test_counts();
	test_minimum();
	test_rand();
	test_draws();
	test_arith();
	return tap_done();
}
