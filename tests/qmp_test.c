/* SPDX-License-Identifier: MIT */
/*
 * qemu/qmp.c: the watchdog hears QEMU pause the guest because the host
 * could not write disk.img (a full disk), and such a boot is infra-error,
 * not a hang (issue 43).  The socket's other end plays QEMU.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "qemu.h"
#include "results.h"
#include "tap.h"

#define GREETING "{\"QMP\": {\"version\": {\"qemu\": {\"micro\": 22, \"minor\": 2, \"major\": 7}}, " \
		 "\"capabilities\": [\"oob\"]}}\r\n"
/* as QEMU 7.2 sends them (one line each) */
#define EV_REPORT "{\"timestamp\": {\"seconds\": 1, \"microseconds\": 2}, \"event\": " \
		  "\"BLOCK_IO_ERROR\", \"data\": {\"device\": \"\", \"nospace\": false, " \
		  "\"node-name\": \"#block123\", \"reason\": \"Input/output error\", " \
		  "\"operation\": \"read\", \"action\": \"report\"}}\r\n"
#define EV_STOP "{\"timestamp\": {\"seconds\": 1, \"microseconds\": 3}, \"event\": " \
		"\"BLOCK_IO_ERROR\", \"data\": {\"device\": \"\", \"nospace\": true, " \
		"\"node-name\": \"#block123\", \"reason\": \"No space left on device\", " \
		"\"operation\": \"write\", \"action\": \"stop\"}}\r\n"

static void say(int fd, const char *s, size_t n)
{
	if (write(fd, s, n) != (ssize_t)n)
		tap_bail("cannot write to the socket");
}

static void test_pair_and_argv(void)
{
	struct bm_argv a = { 0 };
	int qfd, own, fl;
	size_t i;
	int found = 0;

	TAP_EQ_INT(bm_qmp_pair(&qfd, &own), 0, "a socket pair");
	tap_ok(!(fcntl(qfd, F_GETFD) & FD_CLOEXEC), "QEMU's end is inherited");
	tap_ok(fcntl(own, F_GETFD) & FD_CLOEXEC, "ours is not");
	fl = fcntl(own, F_GETFL);
	tap_ok(fl >= 0 && (fl & O_NONBLOCK), "ours does not block the watch");
	bm_qmp_argv(&a, qfd);
	for (i = 0; i + 3 < a.n; i++)
		found |= !strcmp(a.v[i], "-chardev") && !strncmp(a.v[i + 1], "socket,id=qmp,fd=", 17) &&
			 !strcmp(a.v[i + 2], "-mon") && !strcmp(a.v[i + 3], "chardev=qmp,mode=control");
	tap_ok(found, "-chardev socket,id=qmp,fd=N -mon chardev=qmp,mode=control");
	bm_argv_free(&a);
	close(qfd);
	close(own);
}

static void test_events(void)
{
	struct bm_qmp q;
	char why[200] = "", got[256];
	int sv[2];
	ssize_t n;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv))
		tap_bail("socketpair");
	bm_qmp_start(&q, sv[0]);
	n = read(sv[1], got, sizeof(got) - 1);
	got[n > 0 ? n : 0] = '\0';
	tap_ok(strstr(got, "qmp_capabilities") != NULL, "the handshake is sent: %s", got);
	TAP_EQ_INT(bm_qmp_poll(&q, why, sizeof(why)), 0, "nothing yet");
	say(sv[1], GREETING, strlen(GREETING));
	say(sv[1], "{\"return\": {}}\r\n", 16);
	say(sv[1], EV_REPORT, strlen(EV_REPORT));
	TAP_EQ_INT(bm_qmp_poll(&q, why, sizeof(why)), 0,
		   "an error reported to the guest is not the pause");
	/* the event in two pieces, as a socket may deliver it */
	say(sv[1], EV_STOP, 40);
	TAP_EQ_INT(bm_qmp_poll(&q, why, sizeof(why)), 0, "half an event is no event");
	say(sv[1], &EV_STOP[40], strlen(EV_STOP) - 40);
	TAP_EQ_INT(bm_qmp_poll(&q, why, sizeof(why)), 1, "the guest paused on the host's error");
	tap_ok(strstr(why, "No space left on device") && strstr(why, "write"), "why: %s", why);
	close(sv[1]);
	TAP_EQ_INT(bm_qmp_poll(&q, why, sizeof(why)), 0, "QEMU gone: nothing more");
	tap_ok(q.done, "... and the watch stops listening");
	bm_qmp_end(&q);
	bm_qmp_start(&q, -1);
	TAP_EQ_INT(bm_qmp_poll(&q, why, sizeof(why)), 0, "no socket: nothing to hear");
	bm_qmp_end(&q);
}

/* The watchdog's verdict read as a class: infra-error unless the stream completed. */
static void test_class(void)
{
	struct bm_boot_facts f = { .w = BM_WATCH_HOSTIO, .qemu_status = 15,
				   .why = "QEMU paused the guest: ... (No space left on device)" };
	struct bm_console c = { .bytes = 100 };
	struct bm_results r;

	bm_results_empty(&r, "5eed0043");
	r.have_hello = 1;
	r.max_seq = 1;
	bm_classify_boot(&r, &c, &f);
	tap_ok(r.status == BM_ST_INFRA_ERROR && strstr(r.status_why, "No space left"),
	       "paused after HELLO: infra-error, not a hang (%s: %s)", bm_status_name(r.status),
	       r.status_why);
	bm_results_free(&r);
}

int main(void)
{
	tap_plan(0);
	test_pair_and_argv();
	test_events();
	test_class();
	return tap_done();
}
