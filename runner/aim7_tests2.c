// SPDX-License-Identifier: MIT
/*
 * AIM7 subtests, part 2: CPU, memory and interprocess work.  Each job is
 * a fixed amount of work sized to take a few milliseconds on a current
 * x86 host (docs/workloads.md lists the unit of each); results are checked
 * where the answer is known, so a broken job fails instead of being fast.
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "wl_aim7.h"

#define ARITH_N 5000000L   /* additions, multiplications */
#define DIV_N 2000000L     /* divisions, 3-4 times slower */
#define KB 1024

static int fail(struct aim7_env *env, int err, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(env->err, env->errlen, fmt, ap);
	va_end(ap);
	n = strlen(env->err);
	snprintf(env->err + n, env->errlen - n, ": %s", strerror(err));
	return -err;
}

/* N operations on volatile operands; the sum is checked against the
 * closed form (conversions to short wrap the same way on both sides). */
#define ARITH(fn, T, OP, A, B, N)                                                \
	static int fn(struct aim7_env *env)                                     \
	{                                                                       \
		volatile T x = (A), y = (B);                                    \
		T acc = 0;                                                      \
		long i;                                                         \
		for (i = 0; i < (N); i++)                                       \
			acc = (T)(acc + (T)(x OP y));                           \
		if (acc != (T)((long long)(N) * ((A) OP (B))))                  \
			return fail(env, EIO, #fn ": wrong result");            \
		return 0;                                                       \
	}
ARITH(add_int, int, +, 7, 3, ARITH_N)
ARITH(add_long, long, +, 7, 3, ARITH_N)
ARITH(add_short, short, +, 7, 3, ARITH_N)
ARITH(mul_int, int, *, 7, 3, ARITH_N)
ARITH(mul_long, long, *, 7, 3, ARITH_N)
ARITH(mul_short, short, *, 7, 3, ARITH_N)
ARITH(div_int, int, /, 700, 3, DIV_N)
ARITH(div_long, long, /, 700, 3, DIV_N)
ARITH(div_short, short, /, 700, 3, DIV_N)

static int jmp_test(struct aim7_env *env)
{
	jmp_buf jb;
	volatile int n = 0;

	(void)env;
	if (setjmp(jb) < 100000) {
		n++;
		longjmp(jb, n);
	}
	return 0;
}

static int ram_copy(struct aim7_env *env)
{
	static char a[64 * KB], b[64 * KB];
	int i;

	memset(a, 0x5a, sizeof(a));
	for (i = 0; i < 500; i++) {
		a[i] = (char)i;
		memcpy(b, a, sizeof(a));
	}
	return b[199] == (char)199 ? 0 : fail(env, EIO, "ram_copy: copy differs");
}

/* Dynamic memory: 64 slots, 20000 malloc/free of 16..4111 bytes. */
static int mem_rtns_1(struct aim7_env *env)
{
	char *slot[64] = { 0 };
	int i, k, ret = 0;
	size_t sz;

	for (i = 0; i < 20000 && !ret; i++) {
		k = (int)(aim7_rand(&env->rng) % 64);
		free(slot[k]);
		sz = 16 + (size_t)(aim7_rand(&env->rng) % 4096);
		slot[k] = malloc(sz);
		if (!slot[k])
			ret = fail(env, ENOMEM, "mem_rtns_1: malloc %zu", sz);
		else
			slot[k][sz - 1] = 1;
	}
	for (k = 0; k < 64; k++)
		free(slot[k]);
	return ret;
}

/* Block memory: memset, memmove, memcmp, memchr over 16 KiB, 2000 times. */
static int mem_rtns_2(struct aim7_env *env)
{
	static char a[16 * KB], b[16 * KB];
	int i;

	for (i = 0; i < 2000; i++) {
		memset(a, 'a' + i % 26, sizeof(a));
		memmove(b, a, sizeof(a));
		if (memcmp(a, b, sizeof(a)) || !memchr(b, 'a' + i % 26, sizeof(b)))
			return fail(env, EIO, "mem_rtns_2: copy differs");
	}
	return 0;
}

static int misc_rtns_1(struct aim7_env *env)
{
	mode_t m;
	int i;

	for (i = 0; i < 1000; i++) {
		if (getpid() <= 0)
			return fail(env, EIO, "misc_rtns_1: getpid");
		(void)getuid();
		(void)getgid();
		m = umask(022);
		umask(m);
		(void)time(NULL);
	}
	return 0;
}

static int string_rtns(struct aim7_env *env)
{
	char a[128], b[128];
	int i;
	size_t n = 0;

	for (i = 0; i < 20000; i++) {
		strcpy(a, "the quick brown fox ");
		strcat(a, "jumps over the lazy dog");
		n += strlen(a);
		strncpy(b, a, sizeof(b));
		if (strcmp(a, b) || !strchr(b, 'z') || !strstr(b, "lazy"))
			return fail(env, EIO, "string_rtns: strings differ");
	}
	return n == 20000u * 43 ? 0 : fail(env, EIO, "string_rtns: wrong length");
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int sort_rtns_1(struct aim7_env *env)
{
	enum { N = 20000 };
	static int v[N];
	int i;

	for (i = 0; i < N; i++)
		v[i] = (int)(aim7_rand(&env->rng) % 1000000);
	qsort(v, N, sizeof(v[0]), cmp_int);
	for (i = 1; i < N; i++)
		if (v[i - 1] > v[i])
			return fail(env, EIO, "sort_rtns_1: not sorted");
	return 0;
}

/* Eratosthenes below 10^6: 78498 primes. */
static int sieve(struct aim7_env *env)
{
	enum { N = 1000000 };
	static unsigned char comp[N];
	int i, j, n = 0;

	memset(comp, 0, sizeof(comp));
	for (i = 2; i < N; i++) {
		if (comp[i])
			continue;
		n++;
		for (j = 2 * i; j < N; j += i)
			comp[j] = 1;
	}
	return n == 78498 ? 0 : fail(env, EIO, "sieve: %d primes", n);
}

/* 2 MiB of fresh anonymous pages, each touched once. */
static int page_test(struct aim7_env *env)
{
	size_t len = 2u << 20, off;
	char *p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return fail(env, errno, "page_test: mmap");
	for (off = 0; off < len; off += 4096)
		p[off] = 1;
	munmap(p, len);
	return 0;
}

/* The child's exit status as 0 or -EIO; the child exits 0 on success. */
static int reap(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -EIO;
}

/*
 * shared_memory: a 64 KiB segment; a forked child fills it, the parent
 * checks, then 100 attach/detach cycles.  System V shm where the kernel
 * has it (CONFIG_SYSVIPC); without it (ENOSYS) a MAP_SHARED anonymous
 * mapping shared over fork() does the same exchange.
 */
static int shm_exchange(struct aim7_env *env, unsigned char *p, size_t len)
{
	pid_t pid = fork();
	size_t i;
	int ret;

	if (pid < 0)
		return fail(env, errno, "shared_memory: fork");
	if (!pid) {
		for (i = 0; i < len; i++)
			p[i] = (unsigned char)(i * 7);
		_exit(0);
	}
	ret = reap(pid);
	if (ret)
		return fail(env, -ret, "shared_memory: child");
	for (i = 0; i < len; i++)
		if (p[i] != (unsigned char)(i * 7))
			return fail(env, EIO, "shared_memory: byte %zu not shared", i);
	return 0;
}

static int shared_memory(struct aim7_env *env)
{
	size_t len = 64 * KB;
	void *p;
	int id, i, ret;

	id = shmget(IPC_PRIVATE, len, IPC_CREAT | 0600);
	if (id < 0 && errno == ENOSYS) {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return fail(env, errno, "shared_memory: mmap");
		ret = shm_exchange(env, p, len);
		munmap(p, len);
		return ret;
	}
	if (id < 0)
		return fail(env, errno, "shared_memory: shmget");
	p = shmat(id, NULL, 0);
	if (p == (void *)-1) {
		ret = fail(env, errno, "shared_memory: shmat");
		goto out_rmid;
	}
	ret = shm_exchange(env, p, len);
	shmdt(p);
	for (i = 0; i < 100 && !ret; i++) {
		p = shmat(id, NULL, SHM_RDONLY);
		if (p == (void *)-1)
			ret = fail(env, errno, "shared_memory: shmat");
		else
			shmdt(p);
	}
out_rmid:
	shmctl(id, IPC_RMID, NULL);
	return ret;
}

static volatile sig_atomic_t sig_count;

static void on_usr1(int sig)
{
	(void)sig;
	sig_count++;
}

/* signal_test: 2000 SIGUSR1 sent to itself, each one handled. */
static int signal_test(struct aim7_env *env)
{
	struct sigaction sa, old;
	int i, ret = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	if (sigaction(SIGUSR1, &sa, &old))
		return fail(env, errno, "signal_test: sigaction");
	sig_count = 0;
	for (i = 0; i < 2000 && !ret; i++)
		if (kill(getpid(), SIGUSR1))
			ret = fail(env, errno, "signal_test: kill");
	sigaction(SIGUSR1, &old, NULL);
	if (!ret && sig_count != 2000)
		ret = fail(env, EIO, "signal_test: %d of 2000 signals", (int)sig_count);
	return ret;
}

static int xfer(int fd, void *buf, size_t len, int wr)
{
	ssize_t n;

	while (len) {
		n = wr ? write(fd, buf, len) : read(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EPIPE;
		buf = (char *)buf + n;
		len -= (size_t)n;
	}
	return 0;
}

/* stream_pipe: 1 MiB through a pipe, in 1 KiB writes, to a forked reader
 * that checks the byte count. */
static int stream_pipe(struct aim7_env *env)
{
	char buf[KB];
	int fd[2], i, ret = 0;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	if (pipe(fd))
		return fail(env, errno, "stream_pipe: pipe");
	pid = fork();
	if (pid < 0) {
		ret = fail(env, errno, "stream_pipe: fork");
		goto out_close;
	}
	if (!pid) {
		close(fd[1]);
		while ((n = read(fd[0], buf, sizeof(buf))) > 0)
			got += (size_t)n;
		_exit(got == 1024u * KB ? 0 : 1);
	}
	memset(buf, 'p', sizeof(buf));
	for (i = 0; i < 1024 && !ret; i++)
		if (xfer(fd[1], buf, KB, 1))
			ret = fail(env, errno, "stream_pipe: write");
	close(fd[1]);
	fd[1] = -1;
	if (reap(pid) && !ret)
		ret = fail(env, EIO, "stream_pipe: reader");
out_close:
	close(fd[0]);
	if (fd[1] >= 0)
		close(fd[1]);
	return ret;
}

static void loopback(struct sockaddr_in *a)
{
	memset(a, 0, sizeof(*a));
	a->sin_family = AF_INET;
	a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
}

/* tcp_test: a loopback connection, 200 round trips of 1 KiB each way. */
static int tcp_test(struct aim7_env *env)
{
	struct sockaddr_in a;
	socklen_t al = sizeof(a);
	char buf[KB];
	int ls, c = -1, s = -1, i, one = 1, ret = 0;

	loopback(&a);
	ls = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (ls < 0)
		return fail(env, errno, "tcp_test: socket");
	if (bind(ls, (struct sockaddr *)&a, sizeof(a)) || listen(ls, 1) ||
	    getsockname(ls, (struct sockaddr *)&a, &al)) {
		ret = fail(env, errno, "tcp_test: listen on 127.0.0.1");
		goto out_close;
	}
	c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c < 0 || connect(c, (struct sockaddr *)&a, sizeof(a))) {
		ret = fail(env, errno, "tcp_test: connect to 127.0.0.1");
		goto out_close;
	}
	s = accept(ls, NULL, NULL);
	if (s < 0) {
		ret = fail(env, errno, "tcp_test: accept");
		goto out_close;
	}
	setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	memset(buf, 't', sizeof(buf));
	for (i = 0; i < 200 && !ret; i++)
		if (xfer(c, buf, KB, 1) || xfer(s, buf, KB, 0) ||
		    xfer(s, buf, KB, 1) || xfer(c, buf, KB, 0))
			ret = fail(env, errno ? errno : EPIPE, "tcp_test: round trip %d", i);
out_close:
	if (s >= 0)
		close(s);
	if (c >= 0)
		close(c);
	close(ls);
	return ret;
}

/* udp_test: two loopback sockets, 200 round trips of a 1 KiB datagram. */
static int udp_test(struct aim7_env *env)
{
	struct sockaddr_in a, b;
	socklen_t len = sizeof(a);
	char buf[KB];
	int x, y = -1, i, ret = 0;

	loopback(&a);
	loopback(&b);
	x = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (x < 0)
		return fail(env, errno, "udp_test: socket");
	y = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (y < 0 || bind(x, (struct sockaddr *)&a, sizeof(a)) ||
	    bind(y, (struct sockaddr *)&b, sizeof(b)) ||
	    getsockname(x, (struct sockaddr *)&a, &len) ||
	    (len = sizeof(b), getsockname(y, (struct sockaddr *)&b, &len))) {
		ret = fail(env, errno, "udp_test: bind on 127.0.0.1");
		goto out_close;
	}
	memset(buf, 'u', sizeof(buf));
	for (i = 0; i < 200 && !ret; i++) {
		if (sendto(x, buf, KB, 0, (struct sockaddr *)&b, sizeof(b)) != KB ||
		    recv(y, buf, KB, 0) != KB ||
		    sendto(y, buf, KB, 0, (struct sockaddr *)&a, sizeof(a)) != KB ||
		    recv(x, buf, KB, 0) != KB)
			ret = fail(env, errno ? errno : EIO, "udp_test: round trip %d", i);
	}
out_close:
	if (y >= 0)
		close(y);
	close(x);
	return ret;
}

const struct aim7_test aim7_cpu_tests[] = {
	{ "add_int", add_int, "5e6 int additions" },
	{ "add_long", add_long, "5e6 long additions" },
	{ "add_short", add_short, "5e6 short additions" },
	{ "mul_int", mul_int, "5e6 int multiplications" },
	{ "mul_long", mul_long, "5e6 long multiplications" },
	{ "mul_short", mul_short, "5e6 short multiplications" },
	{ "div_int", div_int, "2e6 int divisions" },
	{ "div_long", div_long, "2e6 long divisions" },
	{ "div_short", div_short, "2e6 short divisions" },
	{ "jmp_test", jmp_test, "100000 setjmp/longjmp" },
	{ "ram_copy", ram_copy, "500 memcpy of 64 KiB" },
	{ "mem_rtns_1", mem_rtns_1, "20000 malloc/free of 16..4111 bytes" },
	{ "mem_rtns_2", mem_rtns_2, "2000 x memset, memmove, memcmp, memchr of 16 KiB" },
	{ "misc_rtns_1", misc_rtns_1, "1000 x getpid, getuid, getgid, 2 umask, time" },
	{ "string_rtns", string_rtns, "20000 x strcpy, strcat, strlen, strncpy, strcmp, strchr, strstr" },
	{ "sort_rtns_1", sort_rtns_1, "qsort of 20000 random ints" },
	{ "sieve", sieve, "sieve of Eratosthenes below 10^6" },
	{ "page_test", page_test, "mmap 2 MiB, touch every page, munmap" },
	{ "shared_memory", shared_memory, "64 KiB SysV shm filled by a child, 100 shmat/shmdt" },
	{ "signal_test", signal_test, "2000 SIGUSR1 to itself, handled" },
	{ "stream_pipe", stream_pipe, "1 MiB through a pipe to a forked reader" },
	{ "tcp_test", tcp_test, "200 round trips of 1 KiB over loopback TCP" },
	{ "udp_test", udp_test, "200 round trips of a 1 KiB datagram over loopback UDP" },
	{ NULL, NULL, NULL },
};
