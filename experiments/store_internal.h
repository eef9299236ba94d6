/*
 * store_internal.h -- what the two halves of the results store share, and
 * nothing else includes: store_open.c (opening a database, the schema and
 * its migration chain, closing) and store.c (registering a run, writing
 * games). The public contract is store.h.
 */
#ifndef RULELAB_STORE_INTERNAL_H
#define RULELAB_STORE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <sqlite3.h>

struct store {
    sqlite3 *db;
    char *path;
    int lock_fd; /* PATH.lock while this store holds the writer lock */
    int readonly, in_transaction;
    time_t clock; /* when `now` was written: once a second is enough */
    char now[32];
    int64_t run_id;
    long pending; /* games stored in the open transaction */
    long committed; /* games of this run committed */
    sqlite3_stmt *insert_game, *cell_stop, *cell_games; /* prepared once */
    sqlite3_stmt *insert_move_stats;
};

/* Writes "WHAT: the connection's last error" to err (when err and errsz
 * are not 0; db may be NULL, which says "?"). Returns -1, so an error path
 * can `return store_error(...)`. */
int store_error(sqlite3 *db, char *err, size_t errsz, const char *what);

/* Runs sql (statements without parameters or result rows: a PRAGMA,
 * BEGIN, COMMIT, a migration step). Returns 0, or -1 with a message that
 * names sql and the error. */
int store_exec(struct store *st, const char *sql, char *err, size_t errsz);

/* Ends a write transaction that failed part-way, so the connection can be
 * used again: a ROLLBACK when one is open, nothing otherwise. The failure
 * itself is already in err; a ROLLBACK that fails as well is added to it
 * (when err and errsz are not 0). */
void store_rollback(struct store *st, char *err, size_t errsz);

#endif
