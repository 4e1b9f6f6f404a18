// SPDX-License-Identifier: MIT
/* The workload registry, generated from workloads.def. */
#include <string.h>

#include "wl.h"

const struct wl_ops *const wl_registry[] = {
#define WL(name) &wl_##name##_ops,
#include "workloads.def"
#undef WL
	NULL
};

const struct wl_ops *wl_find(const char *name)
{
	const struct wl_ops *const *w;

	for (w = wl_registry; *w; w++)
		if (!strcmp((*w)->name, name))
			return *w;
	return NULL;
}
