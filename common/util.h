/* SPDX-License-Identifier: MIT */
/*
 * Small helpers of the host-side layers (kernels, qemu, host): messages,
 * paths, files, processes.
 * Everything returns 0 or -errno unless it says otherwise.
 */
#ifndef BM_COMMON_UTIL_H
#define BM_COMMON_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Exit codes of the host tools (docs/exit-codes.md). */
#define BM_EXIT_OK       0
#define BM_EXIT_NOTDONE  1    /* some boot did not complete */
#define BM_EXIT_USAGE    100  /* bad input; nothing was created */
#define BM_EXIT_SYSTEM   111  /* system or infrastructure error */

/* "bootmark: " + message + newline, on stderr. */
void bm_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* snprintf that reports truncation as -ENAMETOOLONG. */
int bm_path(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* mkdir -p for the folders bootmark writes in: refuses (-EPERM, reason
 * printed) a folder or ancestor another user could redirect (outdir.h). */
int bm_mkdir_p(const char *path, mode_t mode);
/* Removes a tree without following symlinks. Missing path is not an error. */
int bm_rm_rf(const char *path);
int bm_is_dir(const char *path);
int bm_is_file(const char *path);
/* Writes a whole buffer to path via a new PATH.<random>.tmp (O_EXCL) and
 * rename: whatever path was (a file, a planted link) is replaced, not followed. */
int bm_write_file_atomic(const char *path, const void *buf, size_t len);
/* Appends the contents of file src to the open fd. */
int bm_append_file(int fd, const char *src);
/* The directory holding the running executable (from /proc/self/exe). */
/* Debian's name of the architecture uname's machine names ("x86_64" ->
 * "amd64", "aarch64" -> "arm64"); machine itself for any other. */
const char *bm_arch_of_machine(const char *machine);
int bm_exe_dir(char *buf, size_t len);
/* Cache root: $BOOTMARK_CACHE, $XDG_CACHE_HOME/bootmark or ~/.cache/bootmark. */
int bm_cache_root(char *buf, size_t len);
/* Current UTC time as "2026-11-29T22:23:25Z". */
void bm_utc_now(char *buf, size_t len);
/* 8 lowercase hex digits from getrandom(2). */
int bm_run_id(char out[9]);
/* 1 when s is a safe single path component made of [A-Za-z0-9._+-]. */
int bm_safe_name(const char *s);
/* The boot folder label of the dup-th boot (1, 2, ...) of one release, as
 * "bootmark run" names them: "6.1.0-53-amd64", "6.1.0-53-amd64_2" ("_" sorts
 * after the ".b<N>" of repeats).  Returns what bm_path returns. */
int bm_label_dup(char *buf, size_t len, const char *release, int dup);
/* The last non-empty line of path (read up to 1 MiB) into buf, or "" (bm_read_file). */
void bm_last_line(const char *path, char *buf, size_t len);

/*
 * Runs argv (execvp, no shell) in cwd (NULL = ours) with stdin from
 * /dev/null.  stdout goes to out_fd (-1 = ours) unless out/outlen is
 * given, then it is captured into a malloc'd NUL-terminated buffer.
 * *status gets the waitpid() status.  Returns 0 when the program ran
 * (whatever its exit status), -errno when it could not be started.
 * Here and in bm_proc_start the child dies (SIGKILL) when bootmark does:
 * no helper, QEMU least of all, runs on unwatched.
 */
int bm_run_prog(char *const argv[], const char *cwd, int out_fd,
		char **out, size_t *outlen, int *status);
/* Starts argv with stdin /dev/null and stdout+stderr to log_fd (-1 =
 * ours) and does not wait. */
int bm_proc_start(char *const argv[], int log_fd, pid_t *pid);
/* bm_run_prog plus "exited 0" check; prints a message naming argv[0]. */
int bm_run_ok(char *const argv[], const char *cwd, int out_fd);
/* bm_run_ok with stdout written to path (created or truncated, 0644). */
int bm_run_to_file(char *const argv[], const char *path);
/* Describes a waitpid status: "exit status 2", "killed by signal 9". */
void bm_status_str(int status, char *buf, size_t len);

#endif
