/* SPDX-License-Identifier: MIT */
/* The HELLO record's facts about the machine, gathered from /proc and uname. */
#ifndef BM_RUNNER_HELLO_H
#define BM_RUNNER_HELLO_H

#include "config.h"
#include "disk.h"
#include "proto.h"

#define RUNNER_VERSION "0.1"
#define HELLO_KV_MAX 20

/* Fills kv (at most HELLO_KV_MAX); disk may be NULL when none was found. */
unsigned hello_collect(struct bm_kv *kv, const struct runner_cfg *cfg,
		       const char *cmdline, const struct disk_info *disk);
/* "model name" of the first CPU in /proc/cpuinfo text, or "" */
void hello_cpu_model(const char *cpuinfo, char *out, size_t len);

#endif
