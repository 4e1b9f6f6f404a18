// SPDX-License-Identifier: MIT
/* runner/init/hello.c: the kernel-log scan and the boot milestones of HELLO; P's t=. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emit.h"
#include "hello.h"
#include "proto.h"
#include "tap.h"

/* Feeds one record as /dev/kmsg returns it; returns what hello_kmsg_record does. */
static int feed(struct hello_times *t, const char *rec, double *skew)
{
	return hello_kmsg_record(t, rec, strlen(rec), skew);
}

static void test_kmsg(void)
{
	struct hello_times t;
	double skew = -99;

	hello_times_init(&t);
	TAP_EQ_INT(feed(&t, "6,1,0,-;Linux version 6.1.0-53-amd64\n", &skew), 0, "other message");
	TAP_EQ_INT(feed(&t, "5,338,2410123,-;Trying to unpack rootfs image as initramfs...\n"
			    " SUBSYSTEM=x\n", &skew), 0, "unpack start is no probe");
	tap_ok(fabs(t.unpack0 - 2.410123) < 1e-9, "unpack0 from the usec field");
	feed(&t, "6,339,2500000,-;Trying to unpack rootfs image as initramfs...\n", &skew);
	tap_ok(fabs(t.unpack0 - 2.410123) < 1e-9, "the first occurrence wins");
	feed(&t, "6,412,2818000,-;Freeing initrd memory: 3760K\n", &skew);
	tap_ok(fabs(t.unpack1 - 2.818) < 1e-9, "unpack1: Freeing initrd memory");
	feed(&t, "6,500,4000000,-;Run stuff that is not init\n", &skew);
	tap_ok(t.init < 0, "\"Run \" without \"as init process\" is not the init");
	feed(&t, "6,501,4827001,-;Run /init as init process\n", &skew);
	tap_ok(fabs(t.init - 4.827001) < 1e-9, "init: Run /init as init process");
	TAP_EQ_INT(feed(&t, "15,700,4900000,-;bootmark: clock probe 4.850000\n", &skew), 1,
		   "our probe is recognised");
	tap_ok(fabs(skew - 0.05) < 1e-9, "skew = printk time - the BOOTTIME it carries");
	TAP_EQ_INT(feed(&t, "15,701,4900000,-;bootmark: clock probe x\n", &skew), 0,
		   "a probe without a number is ignored");
	TAP_EQ_INT(feed(&t, "garbage without fields\n", &skew), 0, "no ';': ignored");
	TAP_EQ_INT(feed(&t, "6,1;Run /init as init process\n", &skew), 0, "too few fields");
	TAP_EQ_INT(hello_kmsg_record(&t, "6,1,5,-;Freeing", 9, &skew), 0,
		   "a length that ends before ';' is respected");
}

/* The HELLO's keys: each milestone with 3 decimals, absent when unknown. */
static void test_keys(void)
{
	struct runner_cfg cfg;
	struct bm_kv kv[HELLO_KV_MAX];
	struct hello_times t;
	unsigned n, i;
	const char *runner = NULL, *init = NULL, *unpack0 = NULL, *th = NULL, *skew = NULL;
	const char *drift = NULL;

	memset(&cfg, 0, sizeof(cfg));
	hello_times_init(&t);
	t.runner = 4.7921;
	t.init = 4.8;
	t.kskew = 0.1126;
	t.kskew_ok = 1;
	t.kcost = 0.02;
	n = hello_collect(kv, NULL, &cfg, "console=ttyS0", NULL, &t);
	tap_ok(n <= HELLO_KV_MAX, "within HELLO_KV_MAX (%u)", n);
	for (i = 0; i < n; i++) {
		if (!strcmp(kv[i].key, "t_runner"))
			runner = kv[i].val;
		else if (!strcmp(kv[i].key, "t_init"))
			init = kv[i].val;
		else if (!strcmp(kv[i].key, "t_unpack0"))
			unpack0 = kv[i].val;
		else if (!strcmp(kv[i].key, "t_hello"))
			th = kv[i].val;
		else if (!strcmp(kv[i].key, "klog_skew"))
			skew = kv[i].val;
		else if (!strcmp(kv[i].key, "klog_drift"))
			drift = kv[i].val;
	}
	TAP_EQ_STR(runner ?: "(none)", "4.792", "t_runner, 3 decimals");
	TAP_EQ_STR(init ?: "(none)", "4.800", "t_init");
	tap_ok(!unpack0, "t_unpack0 absent when not found");
	tap_ok(th && t.hello > 0, "t_hello set when the HELLO is formatted");
	TAP_EQ_STR(skew ?: "(none)", "0.1126", "klog_skew, 4 decimals");
	tap_ok(!drift, "no klog_drift from one probe");
	TAP_EQ_INT(hello_collect(kv, NULL, &cfg, "", NULL, NULL) < n, 1, "no times: no t_ keys");
}

/* P records carry t= (seconds since boot, 3 decimals). */
static void test_phase_t(void)
{
	char path[] = "/tmp/bm-hello-XXXXXX", text[2048];
	struct emit_ctx ec = { .fs = "ext4", .test = "dd32w", .rep = 1 };
	struct bm_kv kv[1] = { { "v", "1" } };
	struct bm_record rec;
	struct emitter e;
	size_t pos = 0;
	ssize_t len;
	int fd = mkstemp(path), found = 0;
	const char *t;

	if (fd < 0)
		tap_bail("mkstemp failed");
	emit_init_fd(&e, fd, "0a1b2c3d");
	emit_hello(&e, kv, 1);
	emit_phase(&e, "mkfs", &ec);
	len = pread(fd, text, sizeof(text) - 1, 0);
	emit_close(&e);
	unlink(path);
	if (len < 0)
		tap_bail("cannot read the records back");
	while (bm_scan(text, (size_t)len, &pos, &rec) == 1)
		if (rec.type == BM_REC_PHASE) {
			found = 1;
			t = bm_rec_get(&rec, "t");
			tap_ok(t && strchr(t, '.') && strlen(strchr(t, '.')) == 4 && atof(t) > 0,
			       "P has t= with 3 decimals (%s)", t ?: "none");
		}
	tap_ok(found, "the P record decodes");
}

int main(void)
{
	test_kmsg();
	test_keys();
	test_phase_t();
	return tap_done();
}
