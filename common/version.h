/* SPDX-License-Identifier: MIT */
/*
 * The version --version prints (bootmark and bootmark-runner): the release,
 * then the record protocol both sides speak.  Raised with a release; the
 * records' own version is BM_PROTO_VERSION (proto.h), which a parser checks.
 */
#ifndef BM_VERSION_H
#define BM_VERSION_H

#include "proto.h"

#define BM_VERSION "0.1.0"

/* "bootmark 0.1.0 (records @@B1, protocol 1)" */
#define BM_VERSION_LINE(prog) \
	prog " " BM_VERSION " (records " BM_PROTO_MAGIC ", protocol %d)\n"

#endif
