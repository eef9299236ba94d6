/*
 * snapshot.c -- snapshot_write (snapshot.h): a consistent copy of a live
 * database through SQLite's backup API, renamed into place.
 */
#include "snapshot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

/* Sets err to "WHAT: SQLite's message" and returns -1. */
static int fail(char *err, size_t errsz, const char *what, sqlite3 *db)
{
    snprintf(err, errsz, "%s: %s", what, db ? sqlite3_errmsg(db) : "out of memory");
    return -1;
}

/* fsync()s the file at path. Returns 0, or -1 with errno set. */
static int sync_file(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    int saved = errno;
    close(fd);
    errno = saved;
    return rc;
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
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp-%ld", dst, (long)getpid())
        >= sizeof tmp) {
        snprintf(err, errsz, "snapshot path too long: %s", dst);
        return -1;
    }
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
    if (rc == 0 && sync_file(tmp) != 0) {
        snprintf(err, errsz, "syncing %s: %s", tmp, strerror(errno));
        rc = -1;
    }
    if (rc == 0 && rename(tmp, dst) != 0) {
        snprintf(err, errsz, "renaming %s to %s: %s", tmp, dst, strerror(errno));
        rc = -1;
    }
    if (rc != 0)
        unlink(tmp);
    return rc;
}
