// SPDX-License-Identifier: MIT
/*
 * bootmark history add: a boot folder into the history (history.h).  The
 * folder is read as every reader reads it (bm_boot_read: the logs classed
 * with what meta.json says the host saw); its provenance comes from
 * meta.json and the HELLO record.  A boot is known by its run id and label:
 * adding it again changes nothing.  One transaction per boot, so that
 * writers running at once (one capture per box) interleave by boot.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "boot.h"
#include "kernel.h"
#include "bootdirs.h"
#include "history.h"
#include "json.h"
#include "profile.h"
#include "sha256.h"
#include "util.h"

/* What one boot brings besides its records. */
struct prov {
	char run[16], label[256], kernel[800], release[BM_REL_MAX];
	char spec[PATH_MAX], args[BM_KARGS_MAX];
	char package[BM_REL_MAX + 16], pkgver[64], archive[128];
	char config_sha[65], vmlinuz_sha[65], initrd_sha[65];
	char method[24], host[256], cpu[128], suite[32], start[32], end[32];
	char source[PATH_MAX];
	long long ncpu, mem_kb;
	int disturbed;             /* -1 unknown */
};

/* meta.json's member key as text; "" when absent, null or not a scalar. */
static void mget(const char *text, size_t len, const char *key, char *out, size_t outlen)
{
	if (!text || bm_json_get(text, len, key, out, outlen) || !strcmp(out, "null"))
		out[0] = '\0';
}

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

/* host.nodename of the object meta.json writes. */
static void meta_host(const char *text, size_t len, char *out, size_t outlen)
{
	char obj[2048];

	out[0] = '\0';
	if (text && bm_json_get(text, len, "host", obj, sizeof(obj)) == -EMEDIUMTYPE)
		mget(obj, strlen(obj), "nodename", out, outlen);
}

/*
 * How the boot was made: log, console, qemu-kvm, qemu-tcg, qemu-tcg-icount,
 * with "-arm64" for an arm64 guest (a series never mixes two architectures,
 * and history bisect boots the same one; amd64's names are what they were).
 */
static void method(struct prov *p, const char *text, size_t len, const char *machine)
{
	const char *arch = machine && machine[0] ? bm_arch_of_machine(machine) : "";

	char accel[16], icount[8], captured[8];

	mget(text, len, "accel", accel, sizeof(accel));
	mget(text, len, "icount", icount, sizeof(icount));
	mget(text, len, "captured", captured, sizeof(captured));
	if (!text)
		copy(p->method, sizeof(p->method), "log");
	else if (!strcmp(captured, "true"))
		copy(p->method, sizeof(p->method), "console");
	else if (!strcmp(accel, "kvm"))
		copy(p->method, sizeof(p->method), "qemu-kvm");
	else if (!strcmp(accel, "tcg"))
		copy(p->method, sizeof(p->method), !strcmp(icount, "1") ? "qemu-tcg-icount" : "qemu-tcg");
	else
		copy(p->method, sizeof(p->method), accel[0] ? accel : "unknown");
	if (!strcmp(arch, "arm64") && strlen(p->method) + 7 < sizeof(p->method))
		strcat(p->method, "-arm64");
}

/* The spec's words after the kernel: its extra command-line arguments. */
static void spec_args(struct prov *p)
{
	const char *sp = strchr(p->spec, ' ');

	copy(p->args, sizeof(p->args), sp ? sp + strspn(sp, " ") : "");
}

static void provenance(struct prov *p, const char *dir, const struct bm_results *r,
		       const struct bm_hist_add_opts *o)
{
	char path[PATH_MAX], cfg[PATH_MAX], v[32], *text = NULL;
	const char *base = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
	size_t len = 0;

	memset(p, 0, sizeof(*p));
	if (bm_path(path, sizeof(path), "%s/meta.json", dir) ||
	    bm_read_file(path, &text, &len, (size_t)1 << 24))
		text = NULL;
	/* meta.json's label first: the same boot reached through a link or a
	 * renamed copy of its folder is still the same boot */
	mget(text, len, "label", p->label, sizeof(p->label));
	if (!p->label[0])
		copy(p->label, sizeof(p->label), base);
	copy(p->run, sizeof(p->run), r->run);
	if (!p->run[0])
		mget(text, len, "run", p->run, sizeof(p->run));
	mget(text, len, "kernel_release", p->release, sizeof(p->release));
	if (!p->release[0])
		copy(p->release, sizeof(p->release), bm_hello_get(r, "kernel"));
	mget(text, len, "spec", p->spec, sizeof(p->spec));
	spec_args(p);
	mget(text, len, "kernel_package", p->package, sizeof(p->package));
	mget(text, len, "kernel_package_version", p->pkgver, sizeof(p->pkgver));
	mget(text, len, "kernel_package_archive", p->archive, sizeof(p->archive));
	mget(text, len, "kernel_config", cfg, sizeof(cfg));
	if (cfg[0] && bm_sha256_file(cfg, p->config_sha))
		p->config_sha[0] = '\0';
	mget(text, len, "vmlinuz_sha256", p->vmlinuz_sha, sizeof(p->vmlinuz_sha));
	mget(text, len, "initrd_sha256", p->initrd_sha, sizeof(p->initrd_sha));
	method(p, text, len, bm_hello_get(r, "machine"));
	meta_host(text, len, p->host, sizeof(p->host));
	if (!p->host[0])
		mget(text, len, "source", p->host, sizeof(p->host));
	if (o->host && o->host[0])
		copy(p->host, sizeof(p->host), o->host);
	if (!p->host[0])
		copy(p->host, sizeof(p->host), "unknown");
	copy(p->cpu, sizeof(p->cpu), bm_hello_get(r, "cpu"));
	p->ncpu = bm_hello_get(r, "ncpu") ? atoll(bm_hello_get(r, "ncpu")) : -1;
	p->mem_kb = bm_hello_get(r, "mem_kb") ? atoll(bm_hello_get(r, "mem_kb")) : -1;
	copy(p->suite, sizeof(p->suite), bm_hello_get(r, "suite"));
	mget(text, len, "start", p->start, sizeof(p->start));
	mget(text, len, "end", p->end, sizeof(p->end));
	mget(text, len, "load_disturbed", v, sizeof(v));
	p->disturbed = !strcmp(v, "true") ? 1 : !strcmp(v, "false") ? 0 : -1;
	if (!realpath(dir, p->source))
		copy(p->source, sizeof(p->source), dir);
	if (o->release && o->release[0])
		copy(p->kernel, sizeof(p->kernel), o->release);
	else
		snprintf(p->kernel, sizeof(p->kernel), "%s%s%s",
			 p->release[0] ? p->release : p->label, p->args[0] ? " " : "", p->args);
	free(text);
}

/* --- ids of metrics and profiles ----------------------------------------------- */

/*
 * (wl, test, name, unit) and (fs, mkfs, mount) rows by their parts: the
 * tables are read once per history add, so a boot's 1320 values cost no
 * lookup in SQLite; a row new to the history is inserted and cached.
 */
struct idmap {
	char **key;                /* parts joined by \x1f; NULL = free slot */
	long long *id;
	size_t cap, n;             /* cap: a power of two */
};

static uint64_t fnv(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static void join(char *buf, size_t len, const char *const *v, int n)
{
	size_t at = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < n; i++)
		at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "%s%s", i ? "\x1f" : "", v[i]);
}

static size_t slot_of(const struct idmap *m, const char *key)
{
	size_t i = (size_t)fnv(key) & (m->cap - 1);

	while (m->key[i] && strcmp(m->key[i], key))
		i = (i + 1) & (m->cap - 1);
	return i;
}

static int map_put(struct idmap *m, const char *key, long long id)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap) {
		struct idmap big = { .cap = m->cap ? 2 * m->cap : 1024 };

		big.key = calloc(big.cap, sizeof(char *));
		big.id = calloc(big.cap, sizeof(long long));
		if (!big.key || !big.id) {
			free(big.key);
			free(big.id);
			return -ENOMEM;
		}
		for (i = 0; i < m->cap; i++)
			if (m->key[i]) {
				size_t j = slot_of(&big, m->key[i]);

				big.key[j] = m->key[i];
				big.id[j] = m->id[i];
			}
		big.n = m->n;
		free(m->key);
		free(m->id);
		*m = big;
	}
	i = slot_of(m, key);
	if (!m->key[i]) {
		if (!(m->key[i] = strdup(key)))
			return -ENOMEM;
		m->n++;
	}
	m->id[i] = id;
	return 0;
}

static void map_free(struct idmap *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		free(m->key[i]);
	free(m->key);
	free(m->id);
	memset(m, 0, sizeof(*m));
}

struct adder {
	struct bm_hist *h;
	sqlite3_stmt *ins_boot, *ins_res, *ins_metric, *get_metric, *ins_prof, *get_prof;
	struct idmap metrics, profiles;
};

static int bind_texts(sqlite3_stmt *st, const char *const *v, int n)
{
	int i;

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	for (i = 0; i < n; i++)
		if (sqlite3_bind_text(st, i + 1, v[i], -1, SQLITE_STATIC) != SQLITE_OK)
			return -EIO;
	return 0;
}

/* The id of the row v[0..n) names, inserted when new; -1 on error.  A row
 * another process added since the tables were read is found by get. */
static long long row_id(struct adder *a, struct idmap *m, sqlite3_stmt *ins, sqlite3_stmt *get,
			const char *const *v, int n)
{
	char key[1024];
	size_t i;
	long long id = -1;

	join(key, sizeof(key), v, n);
	if (m->cap && m->key[i = slot_of(m, key)])
		return m->id[i];
	if (bind_texts(ins, v, n) || sqlite3_step(ins) != SQLITE_DONE)
		return -1;
	if (sqlite3_changes(a->h->db)) {
		id = sqlite3_last_insert_rowid(a->h->db);
	} else {
		if (bind_texts(get, v, n))
			return -1;
		if (sqlite3_step(get) == SQLITE_ROW)
			id = sqlite3_column_int64(get, 0);
		sqlite3_reset(get);
	}
	return id < 0 || map_put(m, key, id) ? -1 : id;
}

/* Every row of a metrics or profiles table into m. */
static int load_map(struct adder *a, const char *sql, int n, struct idmap *m)
{
	sqlite3_stmt *st;
	const char *v[4];
	char key[1024];
	int rc, i;

	if (sqlite3_prepare_v2(a->h->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (i = 0; i < n; i++)
			v[i] = (const char *)sqlite3_column_text(st, i + 1);
		join(key, sizeof(key), v, n);
		if (map_put(m, key, sqlite3_column_int64(st, 0)))
			rc = SQLITE_NOMEM;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

static int prepare(struct adder *a)
{
	static const char *const sql[] = {
		"INSERT INTO boots (run, label, kernel, release, spec, args, package, package_version,"
		" package_archive, config_sha256, vmlinuz_sha256, initrd_sha256, method, host, cpu,"
		" ncpu, mem_kb, suite, start, finish, class, class_why, disturbed, source, added)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,"
		" ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25) ON CONFLICT (run, label) DO NOTHING",
		"INSERT INTO results (boot, metric, profile, rep, seq, partial, value)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
		"INSERT INTO metrics (wl, test, name, unit) VALUES (?1, ?2, ?3, ?4)"
		" ON CONFLICT DO NOTHING",
		"SELECT id FROM metrics WHERE wl = ?1 AND test = ?2 AND name = ?3 AND unit = ?4",
		"INSERT INTO profiles (fs, mkfs, mount) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
		"SELECT id FROM profiles WHERE fs = ?1 AND mkfs = ?2 AND mount = ?3",
	};
	sqlite3_stmt **st[] = { &a->ins_boot, &a->ins_res, &a->ins_metric, &a->get_metric,
				&a->ins_prof, &a->get_prof };
	size_t i;

	for (i = 0; i < sizeof(sql) / sizeof(sql[0]); i++)
		if (sqlite3_prepare_v2(a->h->db, sql[i], -1, st[i], NULL) != SQLITE_OK) {
			bm_msg("%s: cannot prepare a statement: %s", a->h->path,
			       sqlite3_errmsg(a->h->db));
			return -EIO;
		}
	if (load_map(a, "SELECT id, wl, test, name, unit FROM metrics", 4, &a->metrics) ||
	    load_map(a, "SELECT id, fs, mkfs, mount FROM profiles", 3, &a->profiles)) {
		bm_msg("%s: cannot read the metrics: %s", a->h->path, sqlite3_errmsg(a->h->db));
		return -EIO;
	}
	return 0;
}

static void finalize(struct adder *a)
{
	sqlite3_finalize(a->ins_boot);
	sqlite3_finalize(a->ins_res);
	sqlite3_finalize(a->ins_metric);
	sqlite3_finalize(a->get_metric);
	sqlite3_finalize(a->ins_prof);
	sqlite3_finalize(a->get_prof);
	map_free(&a->metrics);
	map_free(&a->profiles);
}

/* 1 inserted, 0 known already, -EIO */
static int insert_boot(struct adder *a, const struct prov *p, const struct bm_results *r)
{
	char now[32];
	const char *t[] = { p->run, p->label, p->kernel, p->release, p->spec, p->args, p->package,
			    p->pkgver, p->archive, p->config_sha, p->vmlinuz_sha, p->initrd_sha,
			    p->method, p->host, p->cpu };
	sqlite3_stmt *st = a->ins_boot;
	int i, rc = 0;

	bm_utc_now(now, sizeof(now));
	if (bind_texts(st, t, (int)(sizeof(t) / sizeof(t[0]))))
		return -EIO;
	rc |= p->ncpu >= 0 ? sqlite3_bind_int64(st, 16, p->ncpu) : sqlite3_bind_null(st, 16);
	rc |= p->mem_kb >= 0 ? sqlite3_bind_int64(st, 17, p->mem_kb) : sqlite3_bind_null(st, 17);
	i = 18;
	rc |= sqlite3_bind_text(st, i++, p->suite, -1, SQLITE_STATIC);
	rc |= sqlite3_bind_text(st, i++, p->start, -1, SQLITE_STATIC);
	rc |= sqlite3_bind_text(st, i++, p->end, -1, SQLITE_STATIC);
	rc |= sqlite3_bind_text(st, i++, bm_status_name(r->status), -1, SQLITE_STATIC);
	rc |= sqlite3_bind_text(st, i++, r->status_why, -1, SQLITE_STATIC);
	rc |= p->disturbed >= 0 ? sqlite3_bind_int(st, i, p->disturbed) : sqlite3_bind_null(st, i);
	i++;
	rc |= sqlite3_bind_text(st, i++, p->source, -1, SQLITE_STATIC);
	rc |= sqlite3_bind_text(st, i++, now, -1, SQLITE_TRANSIENT);
	if (rc != SQLITE_OK || sqlite3_step(st) != SQLITE_DONE)
		return -EIO;
	return sqlite3_changes(a->h->db) ? 1 : 0;
}

static int insert_results(struct adder *a, long long boot, const struct bm_results *r,
			  long long *nvalues)
{
	sqlite3_stmt *st = a->ins_res;
	size_t i;
	unsigned m;

	for (i = 0; i < r->nres; i++) {
		const struct bm_rres *h = &r->res[i];
		const char *pv[] = { h->fs, h->mkfs, h->mount };
		long long prof = row_id(a, &a->profiles, a->ins_prof, a->get_prof, pv, 3);

		if (prof < 0)
			return -EIO;
		for (m = 0; m < h->nm; m++) {
			const char *mv[] = { h->wl, h->test, h->m[m].name, h->m[m].unit };
			long long met;

			if (!isfinite(h->m[m].value))
				continue;
			met = row_id(a, &a->metrics, a->ins_metric, a->get_metric, mv, 4);
			if (met < 0)
				return -EIO;
			sqlite3_reset(st);
			if (sqlite3_bind_int64(st, 1, boot) || sqlite3_bind_int64(st, 2, met) ||
			    sqlite3_bind_int64(st, 3, prof) || sqlite3_bind_int(st, 4, h->rep) ||
			    sqlite3_bind_int64(st, 5, (long long)h->seq) ||
			    sqlite3_bind_int(st, 6, h->partial) ||
			    sqlite3_bind_double(st, 7, h->m[m].value) || sqlite3_step(st) != SQLITE_DONE)
				return -EIO;
			(*nvalues)++;
		}
	}
	return 0;
}

/* One boot in one transaction; 1 added, 0 known, -EIO (reported). */
static int add_boot(struct adder *a, const struct prov *p, const struct bm_results *r,
		    long long *nvalues)
{
	int rc;

	if (bm_hist_exec(a->h, "BEGIN IMMEDIATE", "start a transaction"))
		return -EIO;
	rc = insert_boot(a, p, r);
	if (rc == 1 && insert_results(a, sqlite3_last_insert_rowid(a->h->db), r, nvalues))
		rc = -EIO;
	if (rc < 0) {
		bm_msg("%s: cannot add %s: %s", a->h->path, p->source, sqlite3_errmsg(a->h->db));
		sqlite3_exec(a->h->db, "ROLLBACK", NULL, NULL, NULL);
		/* ids inserted by this transaction are gone with it */
		map_free(&a->metrics);
		map_free(&a->profiles);
		return rc;
	}
	if (bm_hist_exec(a->h, rc ? "COMMIT" : "ROLLBACK", "commit the boot"))
		return -EIO;
	return rc;
}

struct walk {
	struct adder a;
	const struct bm_hist_add_opts *o;
	struct bm_hist_add_stats *st;
	struct prov p;
};

static int add_one(const char *dir, void *arg)
{
	struct walk *w = arg;
	struct bm_results r;
	long long nv = 0;
	int rc;

	memset(&r, 0, sizeof(r));
	rc = bm_boot_read(dir, "", &r);
	if (rc) {
		/* a system error (111), as in compare, export and report */
		bm_msg("cannot read the logs in %s: %s", dir, strerror(-rc));
		return rc == -ENOMEM ? rc : -EIO;
	}
	provenance(&w->p, dir, &r, w->o);
	rc = add_boot(&w->a, &w->p, &r, &nv);
	if (rc == 1) {
		w->st->added++;
		w->st->values += nv;
		if (!w->o->quiet)
			printf("added %s (run %s): %s, %s, %lld values\n", w->p.label,
			       w->p.run[0] ? w->p.run : "-", w->p.kernel, bm_status_name(r.status), nv);
	} else if (rc == 0) {
		w->st->known++;
		if (!w->o->quiet)
			printf("known %s (run %s): already in the history\n", w->p.label,
			       w->p.run[0] ? w->p.run : "-");
	}
	bm_results_free(&r);
	return rc < 0 ? rc : 0;
}

int bm_hist_add_dir(struct bm_hist *h, const char *dir, const struct bm_hist_add_opts *o,
		    struct bm_hist_add_stats *st)
{
	struct walk *w = calloc(1, sizeof(*w));
	int rc;

	if (!w)
		return -ENOMEM;
	w->a.h = h;
	w->o = o;
	w->st = st;
	if (!bm_is_dir(dir)) {
		bm_msg("%s is not a directory", dir);
		rc = -EINVAL;
		goto out_free;
	}
	if ((rc = prepare(&w->a)))
		goto out_finalize;
	rc = bm_boot_dirs(dir, add_one, w);
	if (rc == 0) {
		bm_no_boot_msg(dir);
		rc = -EINVAL;
	} else if (rc > 0) {
		rc = 0;
	} else if (rc != -EIO && rc != -EINVAL && rc != -ENOMEM) {
		bm_msg("cannot read directory %s: %s", dir, strerror(-rc));
		rc = -EINVAL;
	}
out_finalize:
	finalize(&w->a);
out_free:
	free(w);
	return rc;
}

int bm_hist_add_path(const char *path, const char *dir)
{
	struct bm_hist_add_opts o = { .quiet = 1 };
	struct bm_hist_add_stats st = { 0 };
	struct bm_hist h;
	int rc;

	rc = bm_hist_open(&h, path, BM_HIST_CREATE);
	if (!rc)
		rc = bm_hist_add_dir(&h, dir, &o, &st);
	bm_hist_close(&h);
	if (!rc)
		bm_msg("%s: %s in the history %s", dir, st.added ? "added" : "already", path);
	return rc;
}
