/* SPDX-License-Identifier: MIT */
/*
 * A boot backend: one way of booting a box, one folder (host/backend/<name>/).
 * Whatever boots the box, a backend's product is the results folder
 * OUT/<label>/ of each boot (console.log, results.log, meta.json,
 * results.json; docs/results.md, "The results folder"): everything after it,
 * parse, export, compare, report, bisect, history, reads only that folder.
 *
 * The registry is the explicit list backends.def (fio-style, no
 * constructors).  Each backend's request embeds struct bm_backend_req as its
 * first member and its header says which struct that is; the backend gets
 * its own back with container_of.
 */
#ifndef BM_BACKEND_H
#define BM_BACKEND_H

#include <stddef.h>

#ifndef container_of
#define container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))
#endif

/* The part of a request every backend reads. */
struct bm_backend_req {
	const char *backend;   /* the ops->name the request was built for */
	const char *out;       /* results folder (qemu: OUT/<label>/), or what prepare writes */
};

struct bm_backend_ops {
	const char *name;      /* "qemu", "pxe", "lava" */
	const char *help;      /* how the box boots and where its results folder comes from */
	/*
	 * Writes what a box boots from when it boots by itself (pxe: the TFTP
	 * tree; lava: the job).  NULL when boot does everything (qemu).
	 * 0 or -errno (reported).
	 */
	int (*prepare)(struct bm_backend_req *req);
	/*
	 * Boots a box (qemu) or follows one (pxe: its console) and leaves a
	 * results folder per boot under req->out.  NULL when bootmark never
	 * sees the box (lava: LAVA boots it; its log saved as DIR/console.log
	 * is the folder, bootmark parse LOG --out DIR adds results.json).  0 or -errno (reported); a boot that failed
	 * is a verdict in its folder, not an error here.
	 */
	int (*boot)(struct bm_backend_req *req);
};

#define BM_BACKEND(name) extern const struct bm_backend_ops bm_backend_##name;
#include "backends.def"
#undef BM_BACKEND

/* NULL-terminated, in backends.def order. */
extern const struct bm_backend_ops *const bm_backends[];
/* The backend called name, or NULL. */
const struct bm_backend_ops *bm_backend_find(const char *name);
/*
 * req->backend's prepare or boot.  -ENOENT for an unknown backend, -ENOTSUP
 * when it has no such step (neither reported: a programming error).
 */
int bm_backend_prepare(struct bm_backend_req *req);
int bm_backend_boot(struct bm_backend_req *req);

#endif
