/* The readable initramfs list, one entry per line (gen_init_cpio style):
 *
 *   dir   <path> <mode> <uid> <gid>
 *   file  <path> <hostpath> <mode> <uid> <gid>
 *   slink <path> <target> <mode> <uid> <gid>
 *   nod   <path> <mode> <uid> <gid> <c|b> <maj> <min>
 *
 * Fields are separated by blanks and cannot contain any; modes are octal
 * permission bits (07777 at most), numbers decimal. '#' starts a comment line.
 * Relative host paths are taken from the current directory. A path listed twice
 * is an error unless both lines are the same directory.
 */
#ifndef BM_LIST_H
#define BM_LIST_H

#include <stddef.h>
#include <stdio.h>

#include "cpio.h"

/* Adds the entries of one list line. Returns 0, or -EINVAL with err set to the
 * problem (no location); other -errno values only for allocation failures. */
int bm_list_parse_line(struct bm_cpio *c, char *line, char *err, size_t errlen);

/* Adds every entry of the list read from f; name is used in messages, which read
 * "<name>:<line>: <problem>". Returns 0; -EINVAL for a bad list; -errno when
 * reading fails. */
int bm_list_parse(struct bm_cpio *c, FILE *f, const char *name, char *err, size_t errlen);

/* Opens path and parses it as above. */
int bm_list_parse_file(struct bm_cpio *c, const char *path, char *err, size_t errlen);

#endif
