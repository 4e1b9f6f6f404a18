// SPDX-License-Identifier: MIT
/* Workload -> headline metric (host/analysis/headline.h), from its description. */
#include <stddef.h>

#include "headline.h"
#include "wldesc.h"

const char *bm_headline_metric(const char *wl)
{
	const struct bm_wl_desc *d = bm_wl_desc_find(wl);

	return d ? d->headline : NULL;
}
