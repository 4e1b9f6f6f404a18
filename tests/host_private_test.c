/* SPDX-License-Identifier: MIT */
/*
 * Files bootmark keeps under one name are its user's own (issue 43, cases 3,
 * 4 and 5; common/outdir.c bm_private_*, docs/reliability.md "Shared
 * hosts"): the history and the names SQLite makes beside it, and the host's
 * measuring lock.  Another user's link, file or folder is refused and left
 * as it was, nothing is made where that user chose, and a lock folder
 * another user made first is never used.  The cases with another user need
 * root (chown, setresuid); without it they are skipped.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "history.h"
#include "hostlock.h"
#include "outdir.h"
#include "sha256.h"
#include "tap.h"
#include "testutil.h"

#define OTHER 65534   /* "another user": nobody */

static char tmp[] = "/tmp/bm-private-XXXXXX";

static void path_of(char *buf, const char *name)
{
	snprintf(buf, PATH_MAX, "%s/%s", tmp, name);
}

static void put(const char *path, const char *text, mode_t mode, uid_t uid)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f) || chmod(path, mode) ||
	    (uid != (uid_t)-1 && chown(path, uid, (gid_t)-1)))
		tap_bail("cannot make a test file");
}

static int exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

/* none of PATH, PATH-wal, PATH-shm, PATH-journal */
static int none_of(const char *path)
{
	static const char *const sfx[] = { "", "-wal", "-shm", "-journal" };
	char one[PATH_MAX + 16];
	size_t i;

	for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		snprintf(one, sizeof(one), "%s%s", path, sfx[i]);
		if (exists(one))
			return 0;
	}
	return 1;
}

static void test_helpers(int root)
{
	char dir[PATH_MAX], f[PATH_MAX], why[PATH_MAX + 200];
	struct stat st;
	int fd;

	path_of(dir, "sticky");
	if (mkdir(dir, 01777) || chmod(dir, 01777))
		tap_bail("mkdir");
	TAP_EQ_INT(bm_private_dir(dir, 0, why, sizeof(why)), -EPERM, "a 1777 folder is not private");
	tap_ok(strstr(why, "writable by everyone (mode 1777)") != NULL, "and says so: %s", why);
	path_of(dir, "mine/sub");
	TAP_EQ_INT(bm_private_dir(dir, 0700, why, sizeof(why)), 0, "a folder made by it is private");
	tap_ok(!stat(dir, &st) && (st.st_mode & 07777) == 0700, "made with mode 0700");

	path_of(f, "mine/sub/lock");
	fd = bm_private_open(f, O_RDWR | O_CREAT, 0600, why, sizeof(why));
	tap_ok(fd >= 0 && !fstat(fd, &st) && (st.st_mode & 07777) == 0600 && S_ISREG(st.st_mode),
	       "a missing file is made (O_EXCL), mode 0600");
	if (fd >= 0)
		close(fd);
	chmod(f, 0666);
	fd = bm_private_open(f, O_RDWR, 0, why, sizeof(why));
	tap_ok(fd == -EEXIST && strstr(why, "writable by everyone (mode 0666)"),
	       "a file others may write is refused: %s", why);
	if (fd >= 0)
		close(fd);
	unlink(f);
	if (mkfifo(f, 0600))
		tap_bail("mkfifo");
	fd = bm_private_open(f, O_RDONLY, 0, why, sizeof(why));
	tap_ok(fd == -EEXIST && strstr(why, "not a regular file"), "a FIFO is refused at once: %s", why);
	if (fd >= 0)
		close(fd);
	unlink(f);
	if (symlink("/etc/hostname", f))
		tap_bail("symlink");
	fd = bm_private_open(f, O_RDWR | O_CREAT, 0600, why, sizeof(why));
	tap_ok(fd == -EEXIST && strstr(why, "symbolic link"), "a link is never followed: %s", why);
	if (fd >= 0)
		close(fd);
	unlink(f);
	if (!root) {
		tap_skip("not root", "another user's file is refused");
		return;
	}
	put(f, "x", 0600, OTHER);
	fd = bm_private_open(f, O_RDWR | O_CREAT, 0600, why, sizeof(why));
	tap_ok(fd == -EEXIST && strstr(why, "uid 65534 (another user)"),
	       "another user's file is refused: %s", why);
	if (fd >= 0)
		close(fd);
}

/* Case 3: a link planted by another user at --db, in a sticky folder. */
static void test_planted_link(void)
{
	char theirs[PATH_MAX], target[PATH_MAX], link[PATH_MAX];
	struct bm_hist h;

	path_of(theirs, "theirs");
	if (mkdir(theirs, 0755) || chown(theirs, OTHER, (gid_t)-1))
		tap_bail("mkdir");
	path_of(target, "theirs/target.db");
	path_of(link, "sticky/hx.db");
	if (symlink(target, link) || lchown(link, OTHER, (gid_t)-1))
		tap_bail("symlink");
	TAP_EQ_INT(bm_hist_open(&h, link, BM_HIST_CREATE), -EINVAL,
		   "history: a link of another user at --db is refused");
	tap_ok(none_of(target), "nothing made where the link points (no file, -wal, -shm, -journal)");
	bm_hist_close(&h);
	path_of(link, "sticky/mine.db");
	TAP_EQ_INT(bm_hist_open(&h, link, BM_HIST_CREATE), -EINVAL,
		   "history: a new file in a sticky folder others write is refused");
	tap_ok(none_of(link), "and nothing is made there");
	bm_hist_close(&h);
}

/* Case 4: another user's database (0666), and a planted -shm. */
static void test_their_db(void)
{
	char dir[PATH_MAX], db[PATH_MAX], shm[PATH_MAX + 8], victim[PATH_MAX + 8], h1[65], h2[65];
	char own[PATH_MAX], mylink[PATH_MAX];
	struct bm_hist h;

	path_of(dir, "hist");
	path_of(db, "hist/h.db");
	if (mkdir(dir, 0755))
		tap_bail("mkdir");
	TAP_EQ_INT(bm_hist_open(&h, db, BM_HIST_CREATE), 0, "history: a new file in a folder of ours");
	/* the whole history in the file, no -wal or -shm left beside it */
	bm_hist_exec(&h, "PRAGMA journal_mode = DELETE", "test");
	bm_hist_close(&h);
	/* a history of another user: what root writes there, that user could change */
	if (chown(db, OTHER, (gid_t)-1) || chmod(db, 0666))
		tap_bail("chown");
	if (bm_sha256_file(db, h1))
		tap_bail("hash");
	TAP_EQ_INT(bm_hist_open(&h, db, BM_HIST_CREATE), -EINVAL,
		   "history: another user's database (mode 0666) is refused");
	bm_hist_close(&h);
	TAP_EQ_INT(bm_hist_open(&h, db, 0), -EINVAL, "by the readers too");
	bm_hist_close(&h);
	tap_ok(!bm_sha256_file(db, h2) && !strcmp(h1, h2), "and left unchanged");
	snprintf(shm, sizeof(shm), "%s-shm", db);
	snprintf(victim, sizeof(victim), "%s-wal", db);
	tap_ok(!exists(shm) && !exists(victim), "no -wal or -shm made beside it");
	if (chown(db, 0, (gid_t)-1))
		tap_bail("chown");
	TAP_EQ_INT(bm_hist_open(&h, db, BM_HIST_CREATE), -EINVAL,
		   "history: a file of ours that others may write (0666) is refused");
	bm_hist_close(&h);
	chmod(db, 0644);
	/* a -shm planted as a link: refused by name, not "unable to open" */
	path_of(victim, "victim");
	put(victim, "somebody's file\n", 0644, OTHER);
	if (symlink(victim, shm) || lchown(shm, OTHER, (gid_t)-1))
		tap_bail("symlink");
	TAP_EQ_INT(bm_hist_open(&h, db, BM_HIST_CREATE), -EINVAL,
		   "history: a -shm planted as a link is refused");
	bm_hist_close(&h);
	unlink(shm);
	put(shm, "", 0666, OTHER);
	TAP_EQ_INT(bm_hist_open(&h, db, BM_HIST_CREATE), -EINVAL,
		   "history: a -shm of another user is refused");
	bm_hist_close(&h);
	unlink(shm);
	TAP_EQ_INT(bm_hist_open(&h, db, 0), 0, "the same file, nothing planted: opened");
	bm_hist_close(&h);
	/* a link of our own to our history: followed, as before */
	path_of(own, "mine/h-link.db");
	snprintf(mylink, sizeof(mylink), "%s", db);
	if (symlink(mylink, own))
		tap_bail("symlink");
	TAP_EQ_INT(bm_hist_open(&h, own, 0), 0, "a link of our own to our history is followed");
	bm_hist_close(&h);
}

/*
 * Case 5: another user made /tmp/bootmark-<uid> first (1777).  The victim
 * (a uid of its own, no $XDG_RUNTIME_DIR, as a cron job runs) still takes a
 * real lock, in a folder of its own; $BOOTMARK_LOCK_DIR naming another
 * user's folder is refused, never used.
 */
static void test_lock(void)
{
	char home[PATH_MAX], lock[PATH_MAX + 64], squat[64], squatlock[96];
	uid_t uid = 4200000 + (uid_t)(getpid() % 100000);
	int p[2], q[2], rc, st;
	struct stat sb;
	char c = 0;
	pid_t pid;

	snprintf(squat, sizeof(squat), "/tmp/bootmark-%u", (unsigned)uid);
	snprintf(squatlock, sizeof(squatlock), "%s/measure.lock", squat);
	if ((mkdir(squat, 01777) && errno != EEXIST) || chmod(squat, 01777) ||
	    chown(squat, uid + 1, (gid_t)-1))
		tap_bail("cannot make the squatted folder");
	path_of(home, "home");
	if (mkdir(home, 0755) || chown(home, uid, (gid_t)-1) || chmod(tmp, 0755))
		tap_bail("home");
	if (pipe(p) || pipe(q))
		tap_bail("pipe");
	pid = fork();
	if (pid == 0) {
		int fd = -1;

		unsetenv("XDG_RUNTIME_DIR");
		unsetenv("BOOTMARK_LOCK_DIR");
		unsetenv("BOOTMARK_CACHE");
		unsetenv("XDG_CACHE_HOME");
		setenv("HOME", home, 1);
		if (setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
			_exit(3);
		rc = bm_host_lock(BM_LOCK_SHARED, &fd);
		c = rc || fd < 0 ? 'n' : 'y';
		if (write(p[1], &c, 1) != 1 || read(q[0], &c, 1) != 1)
			_exit(4);
		/* a second user's folder named by $BOOTMARK_LOCK_DIR: refused */
		bm_host_unlock(fd);
		setenv("BOOTMARK_LOCK_DIR", squat, 1);
		rc = bm_host_lock(BM_LOCK_EXCLUSIVE, &fd);
		c = rc == -EINVAL && fd < 0 ? 'y' : 'n';
		if (write(p[1], &c, 1) != 1)
			_exit(5);
		_exit(0);
	}
	if (pid < 0)
		tap_bail("fork");
	close(p[1]);
	close(q[0]);
	rc = read(p[0], &c, 1);
	TAP_EQ_INT(rc == 1 ? c : 0, 'y', "lock: a user whose /tmp/bootmark-<uid> another user made "
		   "still takes the shared lock");
	snprintf(lock, sizeof(lock), "%s/.cache/bootmark/lock/measure.lock", home);
	tap_ok(!stat(lock, &sb) && sb.st_uid == uid && (sb.st_mode & 07777) == 0600,
	       "in a folder of its own (the cache's lock/), mode 0600");
	{
		int fd = open(lock, O_RDONLY | O_CLOEXEC);

		tap_ok(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) && errno == EWOULDBLOCK,
		       "and holds it: an exclusive lock cannot be had meanwhile");
		if (fd >= 0)
			close(fd);
	}
	tap_ok(!exists(squatlock), "the squatted folder is not used");
	if (write(q[1], &c, 1) != 1)
		tap_bail("write");
	rc = read(p[0], &c, 1);
	TAP_EQ_INT(rc == 1 ? c : 0, 'y', "lock: $BOOTMARK_LOCK_DIR naming another user's 1777 folder "
		   "is refused (-EINVAL, exit 100 in run)");
	tap_ok(!exists(squatlock), "and nothing is made in it");
	waitpid(pid, &st, 0);
	TAP_EQ_INT(WIFEXITED(st) ? WEXITSTATUS(st) : 99, 0, "the victim's process ended well");
	close(p[0]);
	close(q[1]);
	rmdir(squat);
}

int main(void)
{
	int root = geteuid() == 0;
	char cmd[PATH_MAX + 16];

	tap_plan(0);
	tu_mkdtemp(tmp);
	test_helpers(root);
	if (root) {
		test_planted_link();
		test_their_db();
		test_lock();
	} else {
		tap_skip("not root", "history: another user's link, file and -shm refused");
		tap_skip("not root", "lock: a folder another user made first is never used");
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	if (system(cmd))
		tap_diag("cannot remove %s", tmp);
	return tap_done();
}
