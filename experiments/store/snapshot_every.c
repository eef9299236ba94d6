/*
 * snapshot_every.c -- a snapshot kept while a database is written
 * (snapshot.h, snapshot_every_start): a periodic thread (periodic.h)
 * copies the database with snapshot_write every few seconds. A copy that
 * fails in passing is said on stderr and tried again at the next
 * interval; the caller writes the last copy itself, after the run, and
 * that one decides the run's status.
 */
#include "snapshot.h"

#include <stdio.h>

/* One copy (periodic's work). */
static void copy_once(void *arg)
{
    struct snapshot_every *sn = arg;
    char err[1024];
    if (snapshot_write(sn->db, sn->path, err, sizeof err) != 0)
        fprintf(stderr, "%s: snapshot: %s\n", sn->who, err);
}

int snapshot_every_start(struct snapshot_every *sn, const char *db,
                         const char *path, double seconds, const char *who,
                         char *err, size_t errsz)
{
    sn->db = db;
    sn->path = path;
    sn->who = who;
    if (periodic_start(&sn->every, seconds, copy_once, sn) != 0) {
        snprintf(err, errsz, "cannot start the snapshot thread");
        return -1;
    }
    return 0;
}

void snapshot_every_stop(struct snapshot_every *sn)
{
    periodic_stop(&sn->every);
}
