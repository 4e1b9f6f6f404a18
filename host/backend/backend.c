// SPDX-License-Identifier: MIT
/* The boot backends' registry, from backends.def (backend.h). */
#include <errno.h>
#include <string.h>

#include "backend.h"

const struct bm_backend_ops *const bm_backends[] = {
#define BM_BACKEND(name) &bm_backend_##name,
#include "backends.def"
#undef BM_BACKEND
	NULL,
};

const struct bm_backend_ops *bm_backend_find(const char *name)
{
	const struct bm_backend_ops *const *b;

	for (b = bm_backends; *b; b++)
		if (!strcmp((*b)->name, name))
			return *b;
	return NULL;
}

int bm_backend_prepare(struct bm_backend_req *req)
{
	const struct bm_backend_ops *b = bm_backend_find(req->backend);

	if (!b)
		return -ENOENT;
	return b->prepare ? b->prepare(req) : -ENOTSUP;
}

int bm_backend_boot(struct bm_backend_req *req)
{
	const struct bm_backend_ops *b = bm_backend_find(req->backend);

	if (!b)
		return -ENOENT;
	return b->boot ? b->boot(req) : -ENOTSUP;
}
