// SPDX-License-Identifier: MIT
/* The engine registry, generated from workloads.def (the descriptions'
 * is runner/workloads/desc_registry.c). */
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
		if (!strcmp((*w)->desc->name, name))
			return *w;
	return NULL;
}
