/* The module closure of a kernel: which module files an image needs so that a
 * list of wanted modules can be loaded, with the modules.* index files trimmed
 * to match. */
#ifndef BM_MODCLOSURE_H
#define BM_MODCLOSURE_H

#include <stddef.h>
#include <stdio.h>

/* root/lib/modules/release holds a depmod-built tree (depmod -b root release):
 * modules.dep is required; modules.softdep, modules.alias and modules.builtin are
 * read when present. wanted[] names modules ('-' and '_' are the same) or
 * aliases; a name ending in '?' is optional and skipped when the kernel has no
 * such module. The closure follows modules.dep recursively and softdep "pre:" and
 * "post:" names through modules.alias (every module an alias matches); builtin
 * modules need no file. Softdep names that resolve to nothing are skipped, as
 * modprobe does.
 *
 * Writes modules.dep, modules.softdep, modules.alias (all trimmed to the closure)
 * and modules.builtin (whole: it is what tells the runner a module needs no
 * file) into stage_dir, creating stage_dir itself if missing. Prints to list_out,
 * in the initramfs list format, sorted by path: every directory from /lib down,
 * every module file and the four staged files, all under
 * /lib/modules/<release>/, uid/gid 0, files 0644, directories 0755.
 *
 * plain[] (same syntax) names modules carried uncompressed with all they need:
 * a compressed one (.ko.xz, .ko.zst, .ko.gz) is decompressed into stage_dir and
 * listed, and named in modules.dep, without its suffix (modplain.h: the boot
 * modules, so the kernel does not decompress them on the way to the hello);
 * every other uncompressed module (.ko) is xz-compressed into stage_dir and
 * named .ko.xz (a smaller unpack for kernels that ship them plain).
 *
 * Returns 0; -ENOENT for a missing wanted module or module file (err names it);
 * -EINVAL for a bad argument or a malformed index file; other -errno for system
 * errors. */
int bm_modules_list(const char *root, const char *release, const char *const *wanted,
		    unsigned nwanted, const char *const *plain, unsigned nplain,
		    const char *stage_dir, FILE *list_out, char *err, size_t errlen);

/* Whether every module of the comma list (names, aliases, a trailing '?' for
 * optional) resolves in root/lib/modules/release, with all it needs, as
 * bm_modules_list would take it; nothing is written.  0, -ENOENT (err names
 * the first missing one) or -errno. */
int bm_modules_check(const char *root, const char *release, const char *list,
		     char *err, size_t errlen);

#endif
