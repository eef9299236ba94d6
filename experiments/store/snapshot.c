/*
 * snapshot.c -- snapshot_write (snapshot.h): a consistent copy of a live
 * database through SQLite's backup API, renamed into place; and the checks
 * that a snapshot's path may be written before a run or merge starts.
 */
#include "snapshot.h"

#include "outfile.h"
#include "store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

/* Sets err to "WHAT: SQLite's message" and returns -1. */
static int fail(char *err, size_t errsz, const char *what, sqlite3 *db)
{
    snprintf(err, errsz, "%s: %s", what, db ? sqlite3_errmsg(db) : "out of memory");
    return -1;
}

/* Copies every page of src_db into the database at tmp and makes it a
 * rollback-journal database. Returns 0, or -1 with a message. */
static int copy_into(sqlite3 *src_db, const char *src, const char *tmp,
                     char *err, size_t errsz)
{
    sqlite3 *dst_db = NULL;
    char what[9000];
    int rc = -1;
    if (sqlite3_open_v2(tmp, &dst_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                        NULL) != SQLITE_OK) {
        snprintf(what, sizeof what, "cannot create %s", tmp);
        fail(err, errsz, what, dst_db);
        goto done;
    }
    sqlite3_backup *b = sqlite3_backup_init(dst_db, "main", src_db, "main");
    if (!b) {
        snprintf(what, sizeof what, "cannot copy %s to %s", src, tmp);
        fail(err, errsz, what, dst_db);
        goto done;
    }
    /* All pages in one step: the source's read transaction lasts the whole
     * copy, so it is one committed state, whatever a writer does meanwhile.
     * A writer's lock (BUSY or LOCKED) only delays the start. */
    int step;
    for (int tries = 0;; tries++) {
        step = sqlite3_backup_step(b, -1);
        if ((step != SQLITE_BUSY && step != SQLITE_LOCKED) || tries == 500)
            break;
        struct timespec nap = {0, 10 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    int finish = sqlite3_backup_finish(b);
    if (step != SQLITE_DONE || finish != SQLITE_OK) {
        snprintf(what, sizeof what, "copying %s to %s", src, tmp);
        fail(err, errsz, what, dst_db);
        goto done;
    }
    /* The copy carries the source's WAL mode in its header; a snapshot is
     * read from a shared folder, where a -wal and -shm do not belong. */
    if (sqlite3_exec(dst_db, "PRAGMA journal_mode=DELETE", NULL, NULL, NULL)
        != SQLITE_OK) {
        snprintf(what, sizeof what, "%s: journal_mode=DELETE", tmp);
        fail(err, errsz, what, dst_db);
        goto done;
    }
    rc = 0;
done:
    if (dst_db && sqlite3_close(dst_db) != SQLITE_OK && rc == 0)
        rc = fail(err, errsz, "closing the copy", dst_db);
    return rc;
}

int snapshot_write(const char *src, const char *dst, char *err, size_t errsz)
{
    char tmp[4200];
    if (outfile_temp_name(dst, tmp, sizeof tmp) != 0) {
        snprintf(err, errsz, "snapshot path too long: %s", dst);
        return -1;
    }
    outfile_clean_stale(dst);
    unlink(tmp);
    sqlite3 *src_db = NULL;
    if (sqlite3_open_v2(src, &src_db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        char what[4200];
        snprintf(what, sizeof what, "cannot open %s", src);
        fail(err, errsz, what, src_db);
        sqlite3_close(src_db);
        return -1;
    }
    sqlite3_busy_timeout(src_db, 5000);
    int rc = copy_into(src_db, src, tmp, err, errsz);
    sqlite3_close(src_db);
    if (rc == 0)
        return outfile_rename_synced(tmp, dst, err, errsz);
    unlink(tmp);
    return rc;
}

/* ---- may COPY be replaced? ---------------------------------------------- */

/* The number that sql (one row, one column) counts in db, or -1 if it
 * cannot be read. Where sql has them, ?1 and ?2 are bound to the sweep's
 * name and seed, ?3 and ?4 to the shard's index and count (left NULL for
 * the whole sweep, shard_count 0). */
static long long count_of(sqlite3 *db, const char *sql, const char *name,
                          long long seed, int shard_index, int shard_count)
{
    sqlite3_stmt *q;
    long long n = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_bind_parameter_count(q) >= 2) {
        sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 2, seed);
    }
    if (sqlite3_bind_parameter_count(q) == 4 && shard_count) {
        sqlite3_bind_int(q, 3, shard_index);
        sqlite3_bind_int(q, 4, shard_count);
    }
    if (sqlite3_step(q) == SQLITE_ROW)
        n = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    return n;
}

/* The games the database at path holds (0 where it does not exist or
 * holds none), or -1 if it cannot be read. */
static long long games_in(const char *path)
{
    struct stat sb;
    sqlite3 *db = NULL;
    if (stat(path, &sb) != 0 || sb.st_size == 0)
        return 0;
    long long n = -1;
    if (store_open_immutable(path, &db) == SQLITE_OK)
        n = count_of(db, "SELECT COUNT(*) FROM games", NULL, 0, 0, 0);
    sqlite3_close(db);
    return n;
}

/* Whether the file at copy is a snapshot of sweep (name, seed) and shard:
 * a rulelab database holding that sweep alone, every run of it of that
 * shard. */
static int is_snapshot_of(const char *copy, const char *name, long long seed,
                          int shard_index, int shard_count)
{
    sqlite3 *db = NULL;
    int ok = 0;
    if (outfile_is_sqlite(copy) && store_open_immutable(copy, &db) == SQLITE_OK)
        ok = count_of(db, "SELECT COUNT(*) FROM meta WHERE key = "
                      "'schema_version'", NULL, 0, 0, 0) == 1
             && count_of(db, "SELECT COUNT(*) FROM sweeps WHERE name = ?1 "
                         "AND seed = ?2", name, seed, 0, 0) == 1
             && count_of(db, "SELECT COUNT(*) FROM sweeps WHERE NOT (name = "
                         "?1 AND seed = ?2)", name, seed, 0, 0) == 0
             && count_of(db, "SELECT COUNT(*) FROM runs r JOIN sweeps s ON "
                         "s.id = r.sweep_id WHERE s.name = ?1 AND s.seed = ?2"
                         " AND (r.shard_index IS NOT ?3 OR r.shard_count IS "
                         "NOT ?4)", name, seed, shard_index, shard_count) == 0;
    sqlite3_close(db);
    return ok;
}

int snapshot_check_run(const char *copy, const char *db, const char *sweep,
                       long long seed, int shard_index, int shard_count,
                       int replace, char *err, size_t errsz)
{
    const char *inputs[1] = {db};
    if (outfile_check(copy, "--snapshot", inputs, 1, OUTFILE_REPLACE, err,
                      errsz) != 0)
        return -1;
    struct stat sb;
    if (replace || stat(copy, &sb) != 0)
        return 0;
    long long held = games_in(copy), live = games_in(db);
    int same = is_snapshot_of(copy, sweep, seed, shard_index, shard_count);
    if (same && held >= 0 && held <= live)
        return 0;
    if (same && held > live && live >= 0) {
        snprintf(err, errsz, "--snapshot %s holds %lld games of this sweep "
                 "and %s only %lld, so a copy would lose some: resume from "
                 "it (cp it to %s first), choose another path, or add "
                 "--snapshot-replace if they may go", copy, held, db, live,
                 db);
        return -1;
    }
    char shard[64] = "";
    if (shard_count)
        snprintf(shard, sizeof shard, ", shard %d/%d", shard_index,
                 shard_count);
    snprintf(err, errsz, "--snapshot %s exists and is not a snapshot of this "
             "sweep (%s, seed %lld%s), so it would be lost: choose another "
             "path, or add --snapshot-replace if it may go", copy, sweep,
             seed, shard);
    return -1;
}

/* Whether every sweep of the database at copy is in one of the n dbs
 * (those that do not exist yet hold none). */
static int sweeps_within(const char *copy, const char *const *dbs, int n)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *q = NULL;
    int ok = outfile_is_sqlite(copy)
             && store_open_immutable(copy, &db) == SQLITE_OK
             && sqlite3_prepare_v2(db, "SELECT name, seed FROM sweeps", -1,
                                   &q, NULL) == SQLITE_OK;
    int step;
    while (ok && (step = sqlite3_step(q)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(q, 0);
        long long seed = sqlite3_column_int64(q, 1);
        int found = 0;
        for (int i = 0; i < n && !found; i++) {
            sqlite3 *other = NULL;
            struct stat sb;
            if (stat(dbs[i], &sb) == 0
                && store_open_immutable(dbs[i], &other) == SQLITE_OK)
                found = count_of(other, "SELECT COUNT(*) FROM sweeps WHERE "
                                 "name = ?1 AND seed = ?2", name, seed, 0,
                                 0) == 1;
            sqlite3_close(other);
        }
        ok = found;
    }
    if (ok && step != SQLITE_DONE)
        ok = 0;
    sqlite3_finalize(q);
    sqlite3_close(db);
    return ok;
}

int snapshot_check_merge(const char *copy, const char *const *dbs, int n,
                         int replace, char *err, size_t errsz)
{
    if (outfile_check(copy, "--snapshot", dbs, n, OUTFILE_REPLACE, err,
                      errsz) != 0)
        return -1;
    struct stat sb;
    if (replace || stat(copy, &sb) != 0)
        return 0;
    /* the merge makes OUT at most what OUT and the inputs hold now */
    long long held = games_in(copy), most = 0;
    for (int i = 0; i < n && most >= 0; i++) {
        long long each = games_in(dbs[i]);
        most = each < 0 ? -1 : most + each;
    }
    if (sweeps_within(copy, dbs, n) && held >= 0 && most >= 0 && held <= most)
        return 0;
    snprintf(err, errsz, "--snapshot %s exists and is not an earlier copy of "
             "this merge's OUT (it holds sweeps that neither OUT nor an input "
             "holds, more games than they hold together, or is no rulelab "
             "database), so it would be lost: choose another path, or add "
             "--snapshot-replace if it may go", copy);
    return -1;
}
