// SPDX-License-Identifier: MIT
/*
 * AIM7's num_fcns.c string, memory, miscellaneous and shell subtests, each
 * one job with AIM VII's counts (the rest of num_fcns.c is aim7_num.c):
 *
 *   string_rtns  string_rtns_1(): 100 rounds of %g and %ld round trips
 *                (sprintf, atof, strtod, atol, atoi, strtol), 11 ctype
 *                tests over a 1 KiB buffer, strcat/strncat fills, ctime,
 *                strncpy, strcoll, strcspn, strpbrk, strrchr, strspn, strstr
 *   mem_rtns_1   100 rounds: 100 x (malloc + strcpy of a 45-byte string,
 *                malloc and calloc of sizes from AIM's table), every block
 *                touched, freed in the order i, i+2, i+1 from the top
 *   mem_rtns_2   100 rounds of memset x2, memchr, memcmp, memcpy, memmove
 *                at offsets 0..7, sizes from the same table
 *   misc_rtns_1  10 rounds of cfget[io]speed, clock, ctermid, getcwd, the
 *                four ids, getenv("PATH"), getgroups, getpid, getpgrp,
 *                getppid, getpwnam("root"), getpwuid, getgrgid, times,
 *                isatty, ttyname, uname
 *   shell_rtns_1 aim_system("aim_1.sh <tasks>"): a fork whose child runs
 *                system(), i.e. /bin/sh -c, which runs aim_1.sh: ls -l
 *
 * misc_rtns_1 does every lookup but, unlike AIM, does not stop when PATH,
 * the root user or the group is unknown: the appliance has no /etc/passwd.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/times.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "wl_aim7.h"

static volatile long sink;

/* The characters string_rtns_1() classifies: controls, digits, both cases
 * in groups of five, punctuation. */
static const char charset[] =
	" \t\n\r\b0123456789 abcde fghij klmno pqrst uvwxy z ABCDE FGHIJ KLMNO PQRST "
	"UVWXY Z .,;:!@#$%^&*()_-+=|\\\"'`[]}{";

/* The 11 ctype tests of one byte, with string_rtns_1()'s case twiddles. */
static int classify(char *p)
{
	int c = (unsigned char)*p, k = 0;

	k += !!isalnum(c) + !!isalpha(c) + !!iscntrl(c) + !!isdigit(c) + !!isgraph(c);
	if (islower(c)) {
		k++;
		*p = (char)tolower(toupper(c));
	}
	c = (unsigned char)*p;
	k += !!isprint(c) + !!ispunct(c) + !!isspace(c);
	if (isupper(c)) {
		k++;
		*p = (char)toupper(tolower(c));
	}
	return k + !!isxdigit((unsigned char)*p);
}

/* The strcat and strncat fills of the 1 KiB buffer with an 18-byte line. */
static int cat_fills(char *buffer, size_t size, const char *cat)
{
	int k = 0;

	snprintf(buffer, size, "%s", cat);
	k += !strcmp(buffer, cat);
	while (size - strlen(buffer) > strlen(cat)) {
		strcat(buffer, cat);
		k += !strcmp(buffer, cat);
	}
	strcpy(buffer, cat);
	while (size - strlen(buffer) > strlen(cat)) {
		strncat(buffer, cat, 10);
		k += !strncmp(buffer, cat, 10);
	}
	return k;
}

int aim7_string_rtns(struct aim7_env *env)
{
	char buffer[1024], cat[32], *p;
	long l1, l2, l3;
	double d2, d3;
	int n, i1 = 0, i2;
	time_t t;

	(void)env;
	memset(buffer, 0, sizeof(buffer));
	time(&t);
	for (n = 0; n < 100; n++) {
		snprintf(buffer, sizeof(buffer), "%g", (double)i1 / 1000.0);
		d2 = atof(buffer);
		d3 = strtod(buffer, &p);
		l1 = (long)(1000 * d2);
		snprintf(buffer, sizeof(buffer), "%ld", l1);
		l2 = atol(buffer);
		i1 = atoi(buffer);
		l3 = strtol(buffer, &p, 10);
		snprintf(buffer, sizeof(buffer), "%s", charset);
		for (p = buffer; p != &buffer[sizeof(buffer) - 1]; p++)
			i1 += classify(p);
		snprintf(cat, sizeof(cat), "What is your name?");
		i2 = (int)strlen(cat) + cat_fills(buffer, sizeof(buffer), cat);
		p = ctime(&t);
		t++;
		memcpy(buffer, p, strlen(p));     /* strncpy(buffer, p, strlen(p)) */
		i1 += !strcoll(buffer, cat) + (strcspn(buffer, "jfamsond") > 4) +
		      !strpbrk(buffer, " ;\n") + !strrchr(buffer, '\n') +
		      (strspn(buffer, "abcdefghijklmnopqrstuvwxyz") > 5) +
		      (strstr(buffer, buffer) != buffer);
		if (i2 > 100)
			i1++;
		sink = l2 + l3 + (long)d3;
	}
	return 0;
}

/* mem_rtns_1's and mem_rtns_2's sizes: small, page-ish and odd blocks. */
static const int mem_sizes[] = {
	1, 3, 5, 7, 9, 11, 33, 65, 129, 1024, 1025, 1023, 8192, 4096, 4095,
	11, 33, 65, 129, 1024, 1, 3, 5, 7, 9, 11, 33, 65, 129, 1024,
	1025, 1023, 8192, 4096, 4095, 11, 33, 65, 129, 1024,
};
#define NSIZES ((int)(sizeof(mem_sizes) / sizeof(mem_sizes[0])))

int aim7_mem_rtns_1(struct aim7_env *env)
{
	static const char str[] = "Hello, this is an average length string 1234";
	char *a[300];
	long count = 0;
	int n, i, j;

	for (n = 0; n < 100; n++) {
		for (j = i = 0; i < 100; i++) {
			a[j] = malloc(sizeof(str));
			a[j + 1] = malloc((size_t)mem_sizes[i % NSIZES]);
			a[j + 2] = calloc((size_t)mem_sizes[(i + 1) % NSIZES], 1);
			if (!a[j] || !a[j + 1] || !a[j + 2])
				return aim7_fail(env, ENOMEM, "mem_rtns_1: allocation %d", j);
			strcpy(a[j], str);
			count += (long)sizeof(str) + mem_sizes[i % NSIZES] +
				 mem_sizes[(i + 1) % NSIZES];
			j += 3;
		}
		for (i = 0; i < 300; i++)
			count += *a[i];    /* touch each block */
		for (i = 297; i >= 0; i -= 3) {
			free(a[i]);
			free(a[i + 2]);
			free(a[i + 1]);
		}
	}
	sink = count;
	return 0;
}

int aim7_mem_rtns_2(struct aim7_env *env)
{
	char b1[8192 + sizeof(double)], b2[8192 + sizeof(double)], *p;
	int n, off1, off2, size, i;

	(void)env;
	for (n = 0; n < 100; n++) {
		off1 = n % (int)sizeof(double);
		off2 = (n / (int)sizeof(double)) % (int)sizeof(double);
		size = mem_sizes[n % NSIZES];
		memset(b1 + off1, 'A', (size_t)size);
		memset(b2 + off2, 'A', (size_t)size);
		b1[off1 + n % size] = 'Z';
		p = memchr(b1 + off1, 'Z', (size_t)size);
		i = memcmp(b1 + off1, b2 + off2, (size_t)size);
		if (i > 0 && p)
			*p = 'A';
		memcpy(b1 + off1, b2 + off2, (size_t)size);
		memmove(b2 + off1, b1 + off2, (size_t)size);
	}
	sink = b2[0];
	return 0;
}

int aim7_misc_rtns_1(struct aim7_env *env)
{
	char buffer[2048], term[L_ctermid];
	gid_t groups[64];
	struct termios t;
	struct tms tms;
	struct utsname name;
	long k = 0;
	int n;

	memset(&t, 0, sizeof(t));
	for (n = 0; n < 10; n++) {
		k += (long)cfgetispeed(&t) + (long)cfgetospeed(&t) + (long)clock();
		if (!ctermid(term))
			return aim7_fail(env, EINVAL, "misc_rtns_1: ctermid() failed");
		if (!getcwd(buffer, sizeof(buffer)))
			return aim7_fail(env, errno, "misc_rtns_1: getcwd() failed");
		k += getuid() + geteuid() + getgid() + getegid();
		k += getenv("PATH") != NULL;
		if (getgroups(64, groups) < 0)
			return aim7_fail(env, errno, "misc_rtns_1: getgroups() failed");
		k += getpid() + getpgrp() + getppid();
		k += getpwnam("root") != NULL;
		k += getpwuid(getuid()) != NULL;
		k += getgrgid(getgid()) != NULL;
		if (times(&tms) == (clock_t)-1)
			return aim7_fail(env, errno, "misc_rtns_1: times() failed");
		k += isatty(STDIN_FILENO) + (ttyname(STDIN_FILENO) != NULL);
		if (uname(&name))
			return aim7_fail(env, errno, "misc_rtns_1: uname() failed");
	}
	sink = k;
	return 0;
}

static int wait_child(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -EINTR;
}

/* num_fcns.c aim_system() + shell_rtns_1(): fork; the child does what
 * system("aim_1.sh <load>") does (fork, /bin/sh -c) and exits; the
 * script's status is not checked, as AIM's. */
int aim7_shell_rtns_1(struct aim7_env *env)
{
	char cmd[64];
	pid_t pid, sh;
	int ret;

	snprintf(cmd, sizeof(cmd), "./aim_1.sh %u", env->load);
	pid = fork();
	if (pid < 0)
		return aim7_fail(env, errno, "shell_rtns_1: fork");
	if (pid == 0) {
		sh = fork();
		if (sh == 0) {
			execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
			_exit(127);
		}
		_exit(sh < 0 ? 1 : (wait_child(sh) & 0x7f));
	}
	ret = wait_child(pid);
	return ret < 0 ? aim7_fail(env, -ret, "shell_rtns_1: wait") : 0;
}

/* aim_1.sh ("ls -l > /dev/null 2>&1", its $1 the task count) and the
 * "./true" exec_test runs: /bin/true, or BusyBox's applet in the image. */
int aim7_make_scripts(char *err, size_t errlen)
{
	static const char script[] = "#!/bin/sh\n# AIM7 shell_rtns_1: $1 is the task count\n"
				     "ls -l > /dev/null 2>&1\n";
	const char *truth = access("/bin/true", X_OK) ? "/bin/busybox" : "/bin/true";
	int fd = open("aim_1.sh", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755), ret = 0;

	if (fd < 0 || write(fd, script, sizeof(script) - 1) != (ssize_t)sizeof(script) - 1)
		ret = -errno;
	if (fd >= 0 && close(fd) && !ret)
		ret = -errno;
	unlink("true");
	if (!ret && symlink(truth, "true"))
		ret = -errno;
	if (ret)
		snprintf(err, errlen, "cannot write aim_1.sh or ./true: %s", strerror(-ret));
	return ret;
}
