/*
 * snapshot.h -- a consistent copy of a results database that a running
 * sweep is writing, for `rulelab run --snapshot` (cluster tasks keep the
 * live database, and its write-ahead log, on node-local storage and copy
 * it to the shared folder from time to time).
 */
#ifndef RULELAB_SNAPSHOT_H
#define RULELAB_SNAPSHOT_H

#include <stddef.h>

#include "periodic.h"

/* Copies the database at src, as of one committed transaction, to dst:
 * SQLite's online backup (sqlite3_backup, all pages in one step inside one
 * read transaction of its own connection, so a writer in this or another
 * process carries on), into DST.tmp-PID next to dst, which is switched to
 * journal_mode=DELETE (one self-contained file: no -wal or -shm beside it,
 * fit for a network filesystem), synced, and renamed over dst. A reader
 * of dst sees the old copy or the new one, never part of one. Returns 0,
 * or -1 with a message (and no temporary file left). */
int snapshot_write(const char *src, const char *dst, char *err, size_t errsz);

/* Checks, before a run plays anything, that `rulelab run --snapshot COPY`
 * may write COPY (outfile.h's rule): COPY is not the database db (by
 * device and inode), its folder takes a new file, and an existing COPY is
 * replaced only if it is a snapshot of the same sweep (name, seed) and
 * shard (shard_count 0: the whole sweep) holding no more games than db
 * does now, as a requeued cluster task refreshes (it resumes from the
 * copy), or if `replace` (the user said so). Returns 0, or -1 with a
 * one-line message saying what to do. */
int snapshot_check_run(const char *copy, const char *db, const char *sweep,
                       long long seed, int shard_index, int shard_count,
                       int replace, char *err, size_t errsz);

/* The same for `rulelab merge OUT IN... --snapshot COPY`: COPY is none of
 * OUT and the inputs (dbs[0] is OUT, then the inputs), and an existing
 * COPY is replaced only if every sweep it holds is in OUT or an input and
 * it holds no more games than they hold together (an earlier copy of this
 * merge), or if `replace`. */
int snapshot_check_merge(const char *copy, const char *const *dbs, int n,
                         int replace, char *err, size_t errsz);

/* A snapshot kept while a database is written (`run --snapshot COPY
 * --snapshot-every S`): a thread copying db to path every `seconds`. */
struct snapshot_every {
    const char *db, *path, *who; /* who: the command, for its messages */
    struct periodic every;
};

/* Starts the thread (snapshot_every.c). Returns 0, or -1 with a message.
 * A copy that fails in passing is said on stderr ("WHO: snapshot: ...")
 * and tried again at the next interval. */
int snapshot_every_start(struct snapshot_every *sn, const char *db,
                         const char *path, double seconds, const char *who,
                         char *err, size_t errsz);

/* Stops the thread: a copy under way finishes first. */
void snapshot_every_stop(struct snapshot_every *sn);

#endif
