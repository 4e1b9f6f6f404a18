/* bm-mkinitramfs: write a reproducible newc archive from readable lists, or print
 * the list entries for a kernel's module closure. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpio.h"
#include "list.h"
#include "modclosure.h"

#define PROG "bm-mkinitramfs"
#define EXIT_USAGE 100
#define EXIT_SYSTEM 111

static const char usage_text[] =
	"usage: " PROG " [-t MTIME] -o OUT LIST...\n"
	"       " PROG " --modules ROOT RELEASE STAGE_DIR NAME[,NAME...] [PLAIN[,PLAIN...]]\n"
	"\n"
	"The first form writes an uncompressed newc cpio archive built from the\n"
	"LIST files (see initramfs/list.h for the format). Every entry gets mtime\n"
	"MTIME (default 0); entries are sorted, parents come first, inodes are\n"
	"numbered in order, so the same lists and files give the same bytes.\n"
	"\n"
	"The second form prints, on stdout, the list entries for the modules NAME...\n"
	"and everything they need from ROOT/lib/modules/RELEASE (modules.dep,\n"
	"softdeps through modules.alias; builtin modules need no file). Trimmed\n"
	"modules.* files are written to STAGE_DIR and listed too. A NAME ending in\n"
	"'?' is optional: it is skipped if the kernel has no such module. The\n"
	"PLAIN modules (the boot modules), and all they need, are carried\n"
	"uncompressed: a .ko.xz, .ko.zst or .ko.gz is decompressed into STAGE_DIR\n"
	"(xz, zstd, gzip) and listed without its suffix. Any other .ko is\n"
	"xz-compressed into STAGE_DIR and listed as .ko.xz.\n"
	"\n"
	"Exit codes: 0 success, 100 usage error, bad list or unknown module,\n"
	"111 system error (I/O, memory).\n";

static int usage(void)
{
	fputs(usage_text, stderr);
	return EXIT_USAGE;
}

static int exit_for(int rc)
{
	return rc == -EINVAL || rc == -ENOENT ? EXIT_USAGE : EXIT_SYSTEM;
}

/* Writes OUT.tmp and renames it, so a failed run never leaves an archive that
 * make would take for finished. */
static int write_archive(struct bm_cpio *c, const char *out, uint32_t mtime)
{
	char tmp[4096], err[8192];
	FILE *f;
	int rc;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", out) >= sizeof(tmp)) {
		fprintf(stderr, PROG ": output path too long: %s\n", out);
		return EXIT_USAGE;
	}
	f = fopen(tmp, "we");
	if (!f) {
		fprintf(stderr, PROG ": cannot open %s: %s\n", tmp, strerror(errno));
		return EXIT_SYSTEM;
	}
	rc = bm_cpio_write(c, f, mtime, err, sizeof(err));
	if (fclose(f) && !rc) {
		rc = -errno;
		snprintf(err, sizeof(err), "cannot write %s: %s", tmp, strerror(errno));
	}
	if (!rc && rename(tmp, out)) {
		rc = -errno;
		snprintf(err, sizeof(err), "cannot rename %s: %s", tmp, strerror(errno));
	}
	if (rc) {
		unlink(tmp);
		fprintf(stderr, PROG ": %s\n", err);
		return rc == -ENOTDIR ? EXIT_USAGE : EXIT_SYSTEM;
	}
	return 0;
}

static int cmd_archive(int argc, char **argv)
{
	const char *out = NULL;
	unsigned long mtime = 0;
	struct bm_cpio c;
	char err[1024], *end;
	int opt, rc = 0;

	while ((opt = getopt(argc, argv, "t:o:")) != -1) {
		if (opt == 'o') {
			out = optarg;
		} else if (opt == 't') {
			errno = 0;
			mtime = strtoul(optarg, &end, 10);
			if (errno || *end || !*optarg || mtime > UINT32_MAX)
				return usage();
		} else {
			return usage();
		}
	}
	if (!out || optind == argc)
		return usage();
	bm_cpio_init(&c);
	for (int i = optind; i < argc && !rc; i++) {
		rc = bm_list_parse_file(&c, argv[i], err, sizeof(err));
		if (rc)
			fprintf(stderr, PROG ": %s\n", err);
	}
	rc = rc ? exit_for(rc) : write_archive(&c, out, (uint32_t)mtime);
	bm_cpio_free(&c);
	return rc;
}

/* NAME[,NAME...] into an array pointing into s. */
static int split_names(char *s, const char ***names, unsigned *n)
{
	unsigned cap = 1;
	char *save;

	for (const char *p = s; *p; p++)
		cap += *p == ',';
	*names = calloc(cap, sizeof(**names));
	if (!*names)
		return -ENOMEM;
	*n = 0;
	for (char *tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		(*names)[(*n)++] = tok;
	return *n ? 0 : -EINVAL;
}

static int cmd_modules(int argc, char **argv)
{
	const char **names = NULL, **plain = NULL;
	unsigned n = 0, np = 0;
	char err[1024];
	int rc;

	if (argc != 6 && argc != 7)
		return usage();
	rc = split_names(argv[5], &names, &n);
	if (!rc && argc == 7 && argv[6][0])
		rc = split_names(argv[6], &plain, &np);
	if (rc) {
		free(names);
		free(plain);
		return rc == -EINVAL ? usage() : EXIT_SYSTEM;
	}
	rc = bm_modules_list(argv[2], argv[3], names, n, plain, np, argv[4], stdout, err,
			     sizeof(err));
	free(names);
	free(plain);
	if (!rc && (fflush(stdout) || ferror(stdout))) {
		rc = -EIO;
		snprintf(err, sizeof(err), "cannot write standard output");
	}
	if (rc) {
		fprintf(stderr, PROG ": %s\n", err);
		return exit_for(rc);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--modules"))
		return cmd_modules(argc, argv);
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage_text, stdout);
		return 0;
	}
	return cmd_archive(argc, argv);
}
