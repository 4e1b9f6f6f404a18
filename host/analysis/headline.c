// SPDX-License-Identifier: MIT
/* Workload -> headline metric (host/headline.h). */
#include <stddef.h>
#include <string.h>

#include "headline.h"

static const struct {
	const char *wl, *metric;
} headline_tab[] = {
	{ "dd",       "real" },      /* elapsed s: dd's bw is derived from it */
	{ "lmdd",     "rate" },
	{ "tiobench", "rate" },
	{ "bonnie",   "rate" },
	{ "aio",      "files_s" },
	{ "aim7",     "jobs_min" },
	{ "dbench",   "tput" },
	{ "kerntree", "real" },
	{ "fio",      "bw" },        /* MiB/s, fio's own figure */
};

const char *bm_headline_metric(const char *wl)
{
	size_t i;

	for (i = 0; i < sizeof(headline_tab) / sizeof(headline_tab[0]); i++)
		if (!strcmp(headline_tab[i].wl, wl))
			return headline_tab[i].metric;
	return NULL;
}
