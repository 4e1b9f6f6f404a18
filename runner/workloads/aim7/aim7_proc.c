// SPDX-License-Identifier: MIT
/*
 * AIM7's process, memory-map and IPC subtests, each one job with AIM VII's
 * counts:
 *
 *   creat-clo.c page_test    100 x (break down 64 KiB, up 16 x 4 KiB, a
 *                            byte in every 128 dirtied), after +1 MiB
 *               brk_test     1000 x (down 64 KiB, up 16 x 4 KiB)
 *               jmp_test     1000 setjmp()s, longjmp() from 11 calls deep
 *               signal_test  1000 SIGUSR2 to itself, each caught
 *               exec_test    5 fork + exec("./true") + wait
 *               fork_test    100 fork + exit + wait
 *   pipe_test.c tcp_test     89 round trips on a TCP loopback connection
 *               udp_test     99 round trips between two UDP sockets
 *               stream_pipe  99 round trips on an AF_UNIX stream socketpair
 *               dgram_pipe   99 round trips on an AF_UNIX datagram pair
 *               pipe_cpy     99 round trips through a pipe
 *               shared_memory 100 copies in and out of a 2 KiB SysV shared
 *                            segment, each under a SysV semaphore
 *
 * A round trip (read_write_close()) writes n bytes and reads them back in
 * the same process, n from pipe_test.c's size table, its index carried
 * from job to job.  The break moves with the brk system call: musl's
 * sbrk() only reads it.  tcp/udp bind to 127.0.0.1 where AIM bound to the
 * host name's address.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wl_aim7.h"

#define MAXBLK 2048

static uintptr_t cur_brk(uintptr_t to)
{
	return (uintptr_t)syscall(SYS_brk, to);
}

/* creat-clo.c page_test() and brk_test(): the break 1 MiB up, then n
 * rounds of 64 KiB down and 16 x 4 KiB up (page_test dirties every 128th
 * byte of each new page), then back where it was. */
static int brk_rounds(struct aim7_env *env, const char *what, int n, int dirty)
{
	uintptr_t old = cur_brk(0), top = old + (1 << 20);
	int i, j;

	if (cur_brk(top) != top)
		return aim7_fail(env, ENOMEM, "%s: unable to do initial sbrk", what);
	while (n--) {
		top -= 4096 * 16;
		cur_brk(top);
		for (i = 0; i < 16; i++) {
			char *cp = (char *)top;

			top += 4096;
			if (cur_brk(top) != top)
				return aim7_fail(env, ENOMEM, "%s: unable to do sbrk", what);
			for (j = 0; dirty && j < 4096; j += 128)
				cp[j] = ' ';
		}
	}
	cur_brk(old);
	return 0;
}

static int page_test(struct aim7_env *env)
{
	return brk_rounds(env, "page_test", 100, 1);
}

static int brk_test(struct aim7_env *env)
{
	return brk_rounds(env, "brk_test", 1000, 0);
}

static void jmp_down(jmp_buf buf, int count);
/* called through a volatile pointer: a real frame per level, never inlined
 * or turned into a loop (AIM: "max out register windows") */
static void (*volatile jmp_next)(jmp_buf, int) = jmp_down;

static void jmp_down(jmp_buf buf, int count)
{
	if (count == 0)
		longjmp(buf, 1);
	jmp_next(buf, count - 1);
}

/* creat-clo.c jmp_test(): "1000" x setjmp, dummy_function(buf, 10). */
static int jmp_test(struct aim7_env *env)
{
	static volatile int i;
	jmp_buf buf;

	(void)env;
	for (i = 0; i < 1000; i++)
		if (!setjmp(buf))
			jmp_down(buf, 10);
	return 0;
}

static volatile sig_atomic_t sigcount, sigbad;

static void on_usr2(int sig)
{
	signal(SIGUSR2, on_usr2);       /* as AIM's handler re-installs itself */
	if (sig != SIGUSR2)
		sigbad = 1;
	sigcount++;
}

/* creat-clo.c signal_test(): "1000" SIGUSR2s sent with kill() and caught. */
static int signal_test(struct aim7_env *env)
{
	pid_t me = getpid();

	sigcount = sigbad = 0;
	signal(SIGUSR2, on_usr2);
	while (sigcount < 1000) {
		if (kill(me, SIGUSR2))
			return aim7_fail(env, errno, "signal_test: kill(%d, SIGUSR2)", (int)me);
		if (sigbad)
			return aim7_fail(env, EINVAL, "signal_test: wrong signal caught");
	}
	return 0;
}

static int reap(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

/* creat-clo.c fork_test() ("100", the child exits) and exec_test() ("5",
 * the child execs "./true"). */
static int fork_rounds(struct aim7_env *env, const char *what, int n, int do_exec)
{
	pid_t pid;
	int ret;

	while (n--) {
		pid = fork();
		if (pid < 0)
			return aim7_fail(env, errno, "%s: fork", what);
		if (pid == 0) {
			if (do_exec)
				execl("./true", "true", (char *)NULL);
			_exit(do_exec ? 255 : 0);
		}
		ret = reap(pid);
		if (ret)
			return aim7_fail(env, -ret, "%s: wait", what);
	}
	return 0;
}

static int fork_test(struct aim7_env *env)
{
	return fork_rounds(env, "fork_test", 100, 0);
}

static int exec_test(struct aim7_env *env)
{
	return fork_rounds(env, "exec_test", 5, 1);
}

/* pipe_test.c's transaction sizes. */
static const int pipe_sizes[] = {
	1, 3, 5, 7, 16, 32, 64, 512, 1024, 2048, 1, 3, 5, 7, 16, 32, 64, 512, 1024, 2048,
	32, 32, 32, 32, 32, 32, 512, 512, 512, 512, 512,
};

static int xfer(int fd, char *buf, int size, int writing)
{
	int left = size;
	ssize_t n;

	while (left > 0) {
		n = writing ? write(fd, buf, (size_t)left) : read(fd, buf, (size_t)left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EPIPE;
		left -= (int)n;
		buf += n;
	}
	return 0;
}

/* pipe_test.c read_write_close(): loops - 1 transactions (write on wr,
 * read back on rd), then both closed. */
static int read_write_close(struct aim7_env *env, const char *what, int loops, int rd, int wr)
{
	char buffer[MAXBLK];
	int size, ret = 0;

	memset(buffer, 0, sizeof(buffer));
	while (--loops > 0 && !ret) {
		size = pipe_sizes[env->pipe_count++ % (int)(sizeof(pipe_sizes) / sizeof(int))];
		ret = xfer(wr, buffer, size, 1);
		if (!ret)
			ret = xfer(rd, buffer, size, 0);
	}
	close(rd);
	close(wr);
	return ret ? aim7_fail(env, -ret, "%s: transfer", what) : 0;
}

static void loopback(struct sockaddr_in *a)
{
	memset(a, 0, sizeof(*a));
	a->sin_family = AF_INET;
	a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
}

/* pipe_test.c tcp_test(): "90"; a listening socket with TCP_NODELAY, a
 * connect()ed reader, the accept()ed socket writes. */
static int tcp_test(struct aim7_env *env)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	int wr, rd = -1, nw, one = 1;

	wr = socket(AF_INET, SOCK_STREAM, 0);
	if (wr < 0)
		return aim7_fail(env, errno, "tcp_test: socket");
	loopback(&a);
	if (bind(wr, (struct sockaddr *)&a, sizeof(a)) || getsockname(wr, (struct sockaddr *)&a,
								       &len) ||
	    setsockopt(wr, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) || listen(wr, 5))
		goto fail;
	rd = socket(AF_INET, SOCK_STREAM, 0);
	if (rd < 0 || connect(rd, (struct sockaddr *)&a, sizeof(a)))
		goto fail;
	do
		nw = accept(wr, NULL, NULL);
	while (nw < 0 && errno == EINTR);
	if (nw < 0)
		goto fail;
	close(wr);
	return read_write_close(env, "tcp_test", 90, rd, nw);
fail:
	nw = errno;
	close(wr);
	if (rd >= 0)
		close(rd);
	return aim7_fail(env, nw, "tcp_test: setup");
}

/* pipe_test.c udp_test(): "100"; two bound sockets, the writer connect()ed
 * to the reader. */
static int udp_test(struct aim7_env *env)
{
	struct sockaddr_in a, b;
	socklen_t len = sizeof(b);
	int wr = socket(AF_INET, SOCK_DGRAM, 0), rd = socket(AF_INET, SOCK_DGRAM, 0), e;

	loopback(&a);
	loopback(&b);
	if (wr < 0 || rd < 0 || bind(wr, (struct sockaddr *)&a, sizeof(a)) ||
	    bind(rd, (struct sockaddr *)&b, sizeof(b)) ||
	    getsockname(rd, (struct sockaddr *)&b, &len) ||
	    connect(wr, (struct sockaddr *)&b, sizeof(b))) {
		e = errno;
		if (wr >= 0)
			close(wr);
		if (rd >= 0)
			close(rd);
		return aim7_fail(env, e, "udp_test: setup");
	}
	return read_write_close(env, "udp_test", 100, rd, wr);
}

/* pipe_test.c stream_pipe(), dgram_pipe(), pipe_cpy(): "100" each. */
static int pair_test(struct aim7_env *env, const char *what, int type)
{
	int fd[2];

	if (type ? socketpair(AF_UNIX, type, 0, fd) : pipe(fd))
		return aim7_fail(env, errno, "%s: cannot create the pair", what);
	return read_write_close(env, what, 100, fd[0], fd[1]);
}

static int stream_pipe(struct aim7_env *env)
{
	return pair_test(env, "stream_pipe", SOCK_STREAM);
}

static int dgram_pipe(struct aim7_env *env)
{
	return pair_test(env, "dgram_pipe", SOCK_DGRAM);
}

static int pipe_cpy(struct aim7_env *env)
{
	return pair_test(env, "pipe_cpy", 0);
}

static int sem_step(int sem, int op)
{
	struct sembuf b = { .sem_num = 0, .sem_op = (short)op, .sem_flg = 0 };

	return semop(sem, &b, 1);
}

/* pipe_test.c shared_memory(): a 2 KiB segment and a semaphore keyed by
 * the pid; 100 x (wait, copy in, signal, wait, copy out, signal); both
 * removed (clear_ipc()). */
static int shared_memory(struct aim7_env *env)
{
	static char buffer[MAXBLK];
	int shmid, sem, n, size, ret = 0;
	char *p;

	shmid = shmget((key_t)getpid(), MAXBLK, IPC_CREAT | 0666);
	if (shmid < 0)
		return aim7_fail(env, errno, "shared_memory: shmget");
	sem = semget((key_t)getpid(), 1, IPC_CREAT | 0666);
	p = sem < 0 ? (char *)-1 : shmat(shmid, NULL, 0);
	if (sem < 0 || p == (char *)-1 || semctl(sem, 0, SETVAL, 1) < 0) {
		ret = aim7_fail(env, errno, "shared_memory: semget/shmat/semctl");
		goto out_rm;
	}
	for (n = 0; n < 100 && !ret; n++) {
		size = pipe_sizes[env->pipe_count++ % (int)(sizeof(pipe_sizes) / sizeof(int))];
		if (sem_step(sem, -1))
			ret = aim7_fail(env, errno, "shared_memory: sem_wait");
		memcpy(p, buffer, (size_t)size);
		if (!ret && (sem_step(sem, 1) || sem_step(sem, -1)))
			ret = aim7_fail(env, errno, "shared_memory: sem_signal");
		memcpy(buffer, p, (size_t)size);
		if (!ret && sem_step(sem, 1))
			ret = aim7_fail(env, errno, "shared_memory: sem_signal");
	}
out_rm:
	if (p != (char *)-1)
		shmdt(p);
	shmctl(shmid, IPC_RMID, NULL);
	if (sem >= 0)
		semctl(sem, 0, IPC_RMID);
	return ret;
}

const struct aim7_test aim7_proc_tests[] = {
	{ "page_test", page_test, "creat-clo.c page_test()", "100 x 17 brk, 16 pages dirtied" },
	{ "brk_test", brk_test, "creat-clo.c brk_test()", "1000 x 17 brk" },
	{ "jmp_test", jmp_test, "creat-clo.c jmp_test()", "1000 setjmp/longjmp, 11 deep" },
	{ "signal_test", signal_test, "creat-clo.c signal_test()", "1000 SIGUSR2 caught" },
	{ "exec_test", exec_test, "creat-clo.c exec_test()", "5 fork+exec+wait" },
	{ "fork_test", fork_test, "creat-clo.c fork_test()", "100 fork+exit+wait" },
	{ "tcp_test", tcp_test, "pipe_test.c tcp_test()", "89 TCP loopback round trips" },
	{ "udp_test", udp_test, "pipe_test.c udp_test()", "99 UDP loopback round trips" },
	{ "stream_pipe", stream_pipe, "pipe_test.c stream_pipe()", "99 stream socketpair trips" },
	{ "dgram_pipe", dgram_pipe, "pipe_test.c dgram_pipe()", "99 datagram socketpair trips" },
	{ "pipe_cpy", pipe_cpy, "pipe_test.c pipe_cpy()", "99 pipe round trips" },
	{ "shared_memory", shared_memory, "pipe_test.c shared_memory()",
	  "100 SysV shm copies under a semaphore" },
	{ NULL, NULL, NULL, NULL },
};

const struct aim7_test *aim7_test_find(const char *name)
{
	const struct aim7_test *lists[] = {
		aim7_disk_tests, aim7_arith_tests, aim7_num_tests, aim7_proc_tests,
	};
	const struct aim7_test *t;
	size_t i;

	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		for (t = lists[i]; t->name; t++)
			if (!strcmp(t->name, name))
				return t;
	return NULL;
}
