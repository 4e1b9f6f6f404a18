// SPDX-License-Identifier: MIT
/*
 * The history file (history.h): an SQLite database marked with bootmark's
 * application_id, its schema version in user_version.  A file is looked at
 * before anything is written to it: one that is not a database, a database
 * of another program or a newer schema is refused and left as it was.  An
 * older schema is brought forward, one step at a time, in one transaction.
 * WAL and a busy timeout let several processes add at once (a lab runs one
 * capture per box).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "history.h"
#include "outdir.h"
#include "util.h"

#define BUSY_MS 60000

/*
 * Step N brings a file at version N-1 to version N.  Version 1: the boots,
 * their results, the metrics and filesystem profiles they name.  Version 2:
 * the verdicts of history bisect.  A step is never changed once released;
 * a new version is a new step.
 */
static const char *const steps[BM_HIST_SCHEMA] = {
	"CREATE TABLE boots ("
	" id INTEGER PRIMARY KEY,"
	" run TEXT NOT NULL, label TEXT NOT NULL,"
	" kernel TEXT NOT NULL, release TEXT NOT NULL, spec TEXT NOT NULL, args TEXT NOT NULL,"
	" package TEXT NOT NULL, package_version TEXT NOT NULL, package_archive TEXT NOT NULL,"
	" config_sha256 TEXT NOT NULL, vmlinuz_sha256 TEXT NOT NULL, initrd_sha256 TEXT NOT NULL,"
	" method TEXT NOT NULL, host TEXT NOT NULL, cpu TEXT NOT NULL, ncpu INTEGER, mem_kb INTEGER,"
	" suite TEXT NOT NULL, start TEXT NOT NULL, finish TEXT NOT NULL,"
	" class TEXT NOT NULL, class_why TEXT NOT NULL, disturbed INTEGER,"
	" source TEXT NOT NULL, added TEXT NOT NULL,"
	" UNIQUE (run, label));"
	"CREATE TABLE profiles (id INTEGER PRIMARY KEY, fs TEXT NOT NULL, mkfs TEXT NOT NULL,"
	" mount TEXT NOT NULL, UNIQUE (fs, mkfs, mount));"
	"CREATE TABLE metrics (id INTEGER PRIMARY KEY, wl TEXT NOT NULL, test TEXT NOT NULL,"
	" name TEXT NOT NULL, unit TEXT NOT NULL, UNIQUE (wl, test, name, unit));"
	"CREATE TABLE results (boot INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,"
	" metric INTEGER NOT NULL REFERENCES metrics(id),"
	" profile INTEGER NOT NULL REFERENCES profiles(id),"
	" rep INTEGER NOT NULL, seq INTEGER NOT NULL, partial INTEGER NOT NULL,"
	" value REAL NOT NULL);",

	"CREATE TABLE bisections (change TEXT PRIMARY KEY, series TEXT NOT NULL,"
	" before TEXT NOT NULL, after TEXT NOT NULL, result TEXT NOT NULL,"
	" first_bad TEXT NOT NULL, why TEXT NOT NULL, out TEXT NOT NULL, boots INTEGER,"
	" date TEXT NOT NULL);",
};

int bm_hist_default_path(char *buf, size_t len)
{
	const char *x = getenv("XDG_DATA_HOME"), *home = getenv("HOME");

	if (x && *x == '/')
		return bm_path(buf, len, "%s/bootmark/history.db", x);
	if (home && *home)
		return bm_path(buf, len, "%s/.local/share/bootmark/history.db", home);
	bm_msg("no $XDG_DATA_HOME or $HOME for the default history: give --db FILE");
	return -EINVAL;
}

int bm_hist_exec(struct bm_hist *h, const char *sql, const char *what)
{
	char *err = NULL;

	if (sqlite3_exec(h->db, sql, NULL, NULL, &err) == SQLITE_OK)
		return 0;
	bm_msg("%s: cannot %s: %s", h->path, what, err ? err : sqlite3_errmsg(h->db));
	sqlite3_free(err);
	return -EIO;
}

/* One integer from a PRAGMA or query; the SQLite result code. */
static int query_int(sqlite3 *db, const char *sql, long long *v)
{
	sqlite3_stmt *st;
	int rc;

	*v = 0;
	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*v = sqlite3_column_int64(st, 0);
		rc = SQLITE_OK;
	} else if (rc == SQLITE_DONE) {
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

enum kind { K_EMPTY, K_OURS, K_NOTDB, K_FOREIGN, K_NEWER, K_ERROR };

/* What the file is, by reading only; *ver its schema version when ours. */
static enum kind inspect(struct bm_hist *h, long long *ver, char *why, size_t len)
{
	long long app = 0, tables = 0;
	int rc;

	rc = query_int(h->db, "PRAGMA application_id", &app);
	if (rc == SQLITE_OK)
		rc = query_int(h->db, "PRAGMA user_version", ver);
	if (rc == SQLITE_OK)
		rc = query_int(h->db, "SELECT count(*) FROM sqlite_master", &tables);
	if (rc == SQLITE_NOTADB) {
		snprintf(why, len, "not an SQLite database");
		return K_NOTDB;
	}
	if (rc != SQLITE_OK) {
		snprintf(why, len, "%s", sqlite3_errmsg(h->db));
		return K_ERROR;
	}
	if (!app && !*ver && !tables)
		return K_EMPTY;
	if (app != BM_HIST_APP_ID) {
		snprintf(why, len, "an SQLite database of another program (application_id %#llx, "
			 "%lld tables)", (unsigned long long)(app & 0xffffffff), tables);
		return K_FOREIGN;
	}
	if (*ver > BM_HIST_SCHEMA) {
		snprintf(why, len, "its schema version %lld is newer than this bootmark's (%d): "
			 "use a newer bootmark", *ver, BM_HIST_SCHEMA);
		return K_NEWER;
	}
	return K_OURS;
}

int bm_hist_migrate(struct bm_hist *h, int to)
{
	char sql[96], why[256];
	long long ver = 0;
	int rc;

	/* IMMEDIATE: two processes opening one old file migrate it once */
	if (bm_hist_exec(h, "BEGIN IMMEDIATE", "start a transaction"))
		return -EIO;
	switch (inspect(h, &ver, why, sizeof(why))) {
	case K_EMPTY:
	case K_OURS:
		break;
	default:
		bm_msg("%s is not a bootmark history: %s", h->path, why);
		rc = -EINVAL;
		goto out_rollback;
	}
	for (rc = 0; ver < to && !rc; ver++)
		rc = bm_hist_exec(h, steps[ver], "migrate the schema");
	snprintf(sql, sizeof(sql), "PRAGMA application_id = %d; PRAGMA user_version = %lld",
		 BM_HIST_APP_ID, ver);
	if (!rc)
		rc = bm_hist_exec(h, sql, "mark the file with its schema version");
	if (!rc)
		rc = bm_hist_exec(h, "COMMIT", "commit the schema");
	if (!rc) {
		h->version = (int)ver;
		return 0;
	}
out_rollback:
	sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

/* WAL for concurrent writers; the mode is the file's, so only the first
 * opener changes it (another one may hold it busy for a moment). */
static int set_wal(struct bm_hist *h)
{
	sqlite3_stmt *st;
	int i, ok = 0;

	for (i = 0; i < 50 && !ok; i++) {
		if (sqlite3_prepare_v2(h->db, "PRAGMA journal_mode = WAL", -1, &st, NULL) != SQLITE_OK)
			break;
		ok = sqlite3_step(st) == SQLITE_ROW &&
		     !sqlite3_stricmp((const char *)sqlite3_column_text(st, 0), "wal");
		sqlite3_finalize(st);
		if (!ok)
			usleep(100000);
	}
	if (!ok)
		bm_msg("%s: cannot switch to WAL: %s", h->path, sqlite3_errmsg(h->db));
	return ok ? 0 : -EIO;
}

/* The names SQLite opens beside a database, by name, whenever they are
 * missing: its rollback journal, its WAL and the WAL's index. */
static const char *const companions[] = { "-journal", "-wal", "-shm", NULL };

/*
 * The history is its user's own (outdir.h, bm_private_file): a file of
 * theirs, in a folder no one else can make names in, so that SQLite's
 * companions are never another user's file or link; root writing into a
 * history another user owns would let that user change it.  real gets the
 * path SQLite opens (no link on it), *st the file's identity.
 */
static int own_file(const char *path, int create, char *real, size_t rlen, struct stat *st)
{
	char why[PATH_MAX + 200];
	int rc = bm_private_file(path, companions, create, real, rlen, st, why, sizeof(why));

	if (rc == -ENOENT && !create) {
		bm_msg("no history at %s (bootmark history add DIR... makes one)", path);
		return -ENOENT;
	}
	if (rc == -EPERM || rc == -ENOTDIR) {
		bm_msg("refusing the history %s: %s; SQLite makes its -wal, -shm and -journal "
		       "there by name: keep a history in a folder only you can write", path, why);
		return -EINVAL;
	}
	if (rc == -EEXIST) {
		bm_msg("refusing the history %s: %s", path, why);
		return -EINVAL;
	}
	if (rc)
		bm_msg("cannot open %s: %s", path, strerror(-rc));
	return rc;
}

static int open_at(struct bm_hist *h, const char *path, int flags, int version)
{
	char real[PATH_MAX], why[256];
	struct stat st, now;
	long long ver = 0;
	enum kind kind;
	int rc;

	memset(h, 0, sizeof(*h));
	snprintf(h->path, sizeof(h->path), "%s", path);
	rc = own_file(path, flags & BM_HIST_CREATE, real, sizeof(real), &st);
	if (rc)
		return rc == -ENOENT || rc == -EINVAL ? rc : -EIO;
	rc = sqlite3_open_v2(real, &h->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW, NULL);
	if (rc != SQLITE_OK) {
		bm_msg("cannot open %s: %s", path, h->db ? sqlite3_errmsg(h->db) : "out of memory");
		goto out_close;
	}
	/* SQLite opened the file by name: the one checked, still there */
	if (lstat(real, &now) || !S_ISREG(now.st_mode) || now.st_dev != st.st_dev ||
	    now.st_ino != st.st_ino) {
		bm_msg("refusing the history %s: %s was replaced while it was opened", path, real);
		sqlite3_close(h->db);
		h->db = NULL;
		return -EINVAL;
	}
	sqlite3_busy_timeout(h->db, BUSY_MS);
	/*
	 * No checkpoint when the connection closes: a refused file is not
	 * written to, and a command that ends spares two fdatasync (70 ms
	 * here); SQLite checkpoints when the WAL passes 1000 pages.  A commit
	 * survives the process; a power cut may take the boots added since the
	 * last checkpoint, which history add (idempotent) puts back.
	 */
	sqlite3_db_config(h->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
	/* one snapshot: another process may be making the file right now */
	sqlite3_exec(h->db, "BEGIN", NULL, NULL, NULL);
	kind = inspect(h, &ver, why, sizeof(why));
	sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
	switch (kind) {
	case K_EMPTY:
	case K_OURS:
		break;
	case K_ERROR:
		bm_msg("cannot read %s: %s", path, why);
		goto out_close;
	default:
		bm_msg("%s is not a bootmark history: %s; it was left unchanged", path, why);
		sqlite3_close(h->db);
		h->db = NULL;
		return -EINVAL;
	}
	h->version = (int)ver;
	if (version < 1)
		version = BM_HIST_SCHEMA;
	if (ver < version && (rc = bm_hist_migrate(h, version))) {
		sqlite3_close(h->db);
		h->db = NULL;
		return rc;
	}
	if (set_wal(h) || bm_hist_exec(h, "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON",
				       "set the connection up"))
		goto out_close;
	return 0;
out_close:
	sqlite3_close(h->db);
	h->db = NULL;
	return -EIO;
}

int bm_hist_open(struct bm_hist *h, const char *path, int flags)
{
	return open_at(h, path, flags, 0);
}

int bm_hist_create_at(struct bm_hist *h, const char *path, int version)
{
	return open_at(h, path, BM_HIST_CREATE, version);
}

void bm_hist_close(struct bm_hist *h)
{
	if (h->db)
		sqlite3_close(h->db);
	h->db = NULL;
}

int bm_hist_check_path(const char *path)
{
	struct bm_hist h;
	int rc = bm_hist_open(&h, path, BM_HIST_CREATE);

	bm_hist_close(&h);
	return rc;
}

int bm_hist_metric_known(struct bm_hist *h, const char *metric, char *same_wl, size_t len)
{
	const char *d1 = strchr(metric, '.'), *d2 = strrchr(metric, '.');
	sqlite3_stmt *st;
	size_t at = 0;
	int rc, found = 0;

	if (len)
		same_wl[0] = '\0';
	if (!d1 || d1 == d2)
		return 0;
	rc = sqlite3_prepare_v2(h->db, "SELECT DISTINCT test || '.' || name, "
				"test = ?2 AND name = ?3 FROM metrics WHERE wl = ?1 ORDER BY 1",
				-1, &st, NULL);
	if (rc != SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(st, 1, metric, (int)(d1 - metric), SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, d1 + 1, (int)(d2 - d1 - 1), SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, d2 + 1, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		found |= sqlite3_column_int(st, 1);
		if (at + 1 < len)
			at += (size_t)snprintf(same_wl + at, len - at, "%s%.*s", at ? ", " : "",
					       (int)(d1 - metric), metric);
		if (at + 1 < len)
			at += (size_t)snprintf(same_wl + at, len - at, ".%s",
					       (const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	if (at >= len && len > 4)
		snprintf(same_wl + len - 5, 5, "...");
	return rc == SQLITE_DONE ? found : -EIO;
}
