/*
 * store_internal.h -- what the two halves of the results store share, and
 * nothing else includes: the store's own fields, read and written by
 * store_open.c (opening a database, the schema and its migration chain,
 * closing) and store.c (registering a run, writing games). The public
 * contract is store.h.
 */
#ifndef RULELAB_STORE_INTERNAL_H
#define RULELAB_STORE_INTERNAL_H

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

#endif
