// SPDX-License-Identifier: MIT
/*
 * The kernels of "bootmark ci" (ci.h).  A revision baseline is the same tree
 * at another commit: git archive exports it (the user's work tree is never
 * touched, untracked files never leak in), and it is built with the
 * candidate's base config, fragment and -j.  Its build is kept under the
 * cache by commit and by a hash of the config inputs, so the next job on the
 * same base commit boots the same bzImage without building.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ci.h"
#include "sha256.h"
#include "util.h"

#define STAMP "bootmark-ci.spec"   /* a finished build's spec, in its folder */

int bm_ci_resolve_rev(struct bm_ci *ci)
{
	char rev[160], *out = NULL;
	char *argv[] = { "git", "-C", ci->o.src, "rev-parse", "--verify", "--quiet", rev, NULL };
	size_t len = 0;
	int status, rc;

	snprintf(rev, sizeof(rev), "%s^{commit}", ci->o.baseline_rev);
	rc = bm_run_prog(argv, NULL, -1, &out, &len, &status);
	if (rc) {
		bm_msg("cannot run git: %s", strerror(-rc));
		return rc;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) || len < 40 || strspn(out, "0123456789abcdef") < 40) {
		bm_msg("--baseline-rev %s is not a commit of the git tree %s", ci->o.baseline_rev,
		       ci->o.src);
		free(out);
		return -EINVAL;
	}
	snprintf(ci->base_commit, sizeof(ci->base_commit), "%.40s", out);
	free(out);
	return 0;
}

static void kbuild_opts(const struct bm_ci *ci, struct bm_kbuild *kb, const char *src,
			const char *out)
{
	memset(kb, 0, sizeof(*kb));
	snprintf(kb->src, sizeof(kb->src), "%s", src);
	snprintf(kb->out, sizeof(kb->out), "%s", out);
	snprintf(kb->base, sizeof(kb->base), "%s", ci->o.base);
	snprintf(kb->fragment, sizeof(kb->fragment), "%s", ci->o.fragment);
	/* "" or auto: the host's; else the guest's (--arch arm64 cross-builds) */
	snprintf(kb->arch, sizeof(kb->arch), "%s", strcmp(ci->o.b.arch, "auto") ? ci->o.b.arch : "");
	kb->jobs = ci->o.jobs;
}

int bm_ci_candidate(struct bm_ci *ci)
{
	struct bm_kbuild kb;

	if (ci->o.kernel[0]) {
		snprintf(ci->cand_spec, sizeof(ci->cand_spec), "%s", ci->o.kernel);
		return 0;
	}
	printf("ci: building the candidate, %s\n", ci->o.src);
	kbuild_opts(ci, &kb, ci->o.src, ci->o.build_out);
	return bm_kernel_build(&kb, ci->cand_spec, sizeof(ci->cand_spec));
}

/* 12 hex digits naming how a tree is built: the base (a name, or a config
 * file's contents) and the fragment's contents. */
static int build_key(const struct bm_ci *ci, char key[13])
{
	char hb[65] = "", hf[65], all[200];

	if (bm_is_file(ci->o.base) ? bm_sha256_file(ci->o.base, hb) :
	    (bm_sha256_hex(ci->o.base, strlen(ci->o.base), hb), 0))
		return -EIO;
	if (bm_sha256_file(ci->o.fragment, hf))
		return -EIO;
	snprintf(all, sizeof(all), "%s %s", hb, hf);
	bm_sha256_hex(all, strlen(all), hb);
	snprintf(key, 13, "%.12s", hb);
	return 0;
}

/* <cache>/ci/src-<commit>: the revision's files, exported once. */
static int export_rev(const struct bm_ci *ci, const char *cache, char *src, size_t len)
{
	char tmp[PATH_MAX], tar[PATH_MAX + 8], id[9];
	int rc;

	if (bm_path(src, len, "%s/ci/src-%s", cache, ci->base_commit))
		return -ENAMETOOLONG;
	if (bm_is_dir(src))
		return 0;
	if ((rc = bm_run_id(id)) || bm_path(tmp, sizeof(tmp), "%s.tmp-%s", src, id) ||
	    bm_path(tar, sizeof(tar), "%s.tar", tmp))
		return rc ? rc : -ENAMETOOLONG;
	if ((rc = bm_mkdir_p(tmp, 0755)))
		return rc;
	printf("ci: exporting %s at %.12s into %s\n", ci->o.src, ci->base_commit, src);
	{
		char *git[] = { "git", "-C", (char *)ci->o.src, "archive", "--format=tar", "-o", tar,
				(char *)ci->base_commit, NULL };
		char *untar[] = { "tar", "-xf", tar, "-C", tmp, NULL };

		rc = bm_run_ok(git, NULL, -1);
		if (!rc)
			rc = bm_run_ok(untar, NULL, -1);
	}
	unlink(tar);
	if (!rc && rename(tmp, src))
		rc = -errno;
	if (rc) {
		bm_msg("cannot export %.12s of %s into %s", ci->base_commit, ci->o.src, src);
		bm_rm_rf(tmp);
	}
	return rc;
}

static int read_stamp(const char *path, char *spec, size_t len)
{
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return -errno;
	ok = fgets(spec, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -EINVAL;
	spec[strcspn(spec, "\n")] = '\0';
	return strncmp(spec, "local:", 6) || !bm_is_file(spec + 6) ? -ENOENT : 0;
}

int bm_ci_baseline(struct bm_ci *ci)
{
	char cache[PATH_MAX], src[PATH_MAX], out[PATH_MAX], stamp[PATH_MAX + 32], key[13];
	struct bm_kbuild kb;
	int rc;

	if (ci->base_kind == BM_CI_BASE_SPEC) {
		snprintf(ci->base_spec, sizeof(ci->base_spec), "%s", ci->o.baseline);
		return 0;
	}
	if ((rc = bm_cache_root(cache, sizeof(cache))) || (rc = build_key(ci, key)) ||
	    (rc = bm_path(out, sizeof(out), "%s/builds/rev-%.12s-%s", cache, ci->base_commit, key)) ||
	    (rc = bm_path(stamp, sizeof(stamp), "%s/" STAMP, out)))
		return rc;
	if (!read_stamp(stamp, ci->base_spec, sizeof(ci->base_spec))) {
		printf("ci: baseline %.12s built before: %s\n", ci->base_commit, ci->base_spec);
		return 0;
	}
	if ((rc = export_rev(ci, cache, src, sizeof(src))))
		return rc;
	printf("ci: building the baseline, %.12s of %s\n", ci->base_commit, ci->o.src);
	kbuild_opts(ci, &kb, src, out);
	rc = bm_kernel_build(&kb, ci->base_spec, sizeof(ci->base_spec));
	if (rc)
		return rc;
	rc = bm_write_file_atomic(stamp, ci->base_spec, strlen(ci->base_spec));
	if (rc)
		bm_msg("cannot write %s: %s", stamp, strerror(-rc));
	return rc;
}
