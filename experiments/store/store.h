/*
 * store.h -- the results database (SQLite).
 *
 * One writer (the runner, serialised by its caller, and one run per
 * database: store_begin_run takes a lock), any number of readers (report,
 * notebooks, the sqlite3 shell) at the same time: the database is in WAL
 * mode, writes are batched into transactions, and the hot statements are
 * prepared once. The schema, its versions and what a crash or a power cut
 * can lose are documented in results/README.md.
 */
#ifndef RULELAB_STORE_H
#define RULELAB_STORE_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "agent.h"
#include "sweep.h"

/* The schema version this program writes and reads (meta.schema_version).
 * Opening a database for writing migrates an older one up to it; opening
 * one for reading needs exactly it. */
#define STORE_SCHEMA_VERSION 7

struct store;

/* One finished game, as the runner hands it over. */
struct game_record {
    int64_t cell_id;
    int game_index;
    uint64_t seed;
    const char *side[2]; /* the side (colour) each seat played */
    enum game_outcome outcome;
    enum end_reason reason;
    int plies;
    double duration_ms;
    const char *moves; /* the agents', space-separated, in the game's
                        * notation */
    size_t moves_len; /* strlen(moves) */
    /* With `record = search`: what the mover's agent reported for each of
     * the agents' plies (stats[ply], plies of them), stored in move_stats
     * where the agent searched (a move with every figure zero, a random
     * agent's, is left out); NULL: none recorded. */
    const struct agent_stats *stats;
};

/* Where a game's agents started, when its sweep has openings. */
struct game_opening {
    const char *moves; /* games.opening: played before the agents' moves */
    const char *position; /* games.opening_position: "" for the start */
    int64_t pair_id; /* games.pair_id (sweep_pair_id; 0 is stored NULL) */
};

/* Opens the database at path. For writing (readonly 0) it is created if
 * needed and its schema brought up to STORE_SCHEMA_VERSION (an empty path
 * is refused). For reading it must be at STORE_SCHEMA_VERSION: an older or
 * newer one is refused with a message naming both versions and what to do;
 * a database in a folder the reader cannot write is read as it is on disk
 * (SQLite's immutable mode) when no write-ahead log holds data. Returns 0,
 * or -1 with a message. */
int store_open(const char *path, int readonly, struct store **out, char *err,
               size_t errsz);

/* Whether a reader must open the database at path as immutable: its
 * folder cannot be written (no -shm file can be made there, so SQLite's
 * WAL reader cannot start) and no write-ahead log holds data. */
int store_reader_needs_immutable(const char *path);

/* Runs SQLite's quick_check on the database at path, read-only. Returns
 * 0 when it says ok, or -1 with a one-line message saying the file is
 * damaged and what to do (for merge and migrate, before they write into
 * an existing database). */
int store_check_intact(const char *path, char *err, size_t errsz);

/* Opens the SQLite file at path read-only as immutable (a URI: SQLite
 * then takes no lock and makes no -shm file beside it, and ignores a
 * write-ahead log): for looking at a file this program may not change,
 * such as one it is about to refuse. Returns an SQLite result code; *db
 * must be closed either way. */
int store_open_immutable(const char *path, sqlite3 **db);

/* Reads the schema version of the database at path without changing it
 * (0 for an empty one). Returns 0, or -1 with a message. */
int store_schema_version(const char *path, int *version, char *err,
                         size_t errsz);

/* Commits what is pending and closes. NULL is fine. */
void store_close(struct store *st);

sqlite3 *store_db(struct store *st);

/* For a module that keeps a table of its own in the results database
 * (`metrics`' game_metrics, `tune --save`'s tunings): it writes through
 * store_db inside a transaction that these three open and end, after
 * store_lock_writer. */

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

/* Takes the writer lock (below), registers the sweep (or finds it by name
 * and seed), its variants, agents and cells, and starts a run row.
 * cell_ids[i] gets the id of s->cells[i]. Returns 0, or -1 with a message:
 * another process holds the lock (naming its pid, host and start), two
 * cells of the sweep are one cell, a cell holds games played by another
 * behaviour version (store.c says what the message tells), or the sweep
 * holds the cell with other openings (another `openings` setting, or
 * none where this one has some, or the reverse).
 *
 * The writer lock is an flock() on the side file PATH.lock, held until
 * store_close: one `rulelab run` at a time per database; readers never
 * take it and are never blocked. Once it holds the lock, this marks the
 * runs left `running` by processes that died (SIGKILL, crash) `killed`. */
int store_begin_run(struct store *st, const struct sweep *s, int threads,
                    int64_t *cell_ids, char *err, size_t errsz);

/* A shard of a sweep (shard.h): shard k of n, its games dealt as the
 * fingerprint `deal` (shard_deal_fingerprint, 64 hex digits) says. */
struct store_shard {
    int k, n;
    const char *deal;
};

/* store_begin_run for a run that plays one shard: the run row records it.
 * Refuses, before it writes anything (no sweep text, cell or run row
 * changes), when an earlier run of this sweep here played shard k of n
 * under another deal: resuming it could leave games that no shard plays.
 * shard NULL is store_begin_run. Returns 0, or -1 with a message. */
int store_begin_shard_run(struct store *st, const struct sweep *s,
                          int threads, const struct store_shard *shard,
                          int64_t *cell_ids, char *err, size_t errsz);

/* Names the command this process runs ("run", "merge"), which the writer
 * lock file then shows to a second writer refused. */
void store_set_command(const char *command);

/* Takes the writer lock of store_begin_run (PATH.lock) without starting a
 * run: what `rulelab merge` holds on the database it writes. Returns 0
 * (also when held already), or -1 with a message naming the holder. */
int store_lock_writer(struct store *st, char *err, size_t errsz);

/* Reads what cell cell_id holds: sets *stopped_at to the games after
 * which an early stop ended it (or -1), then calls visit(arg, index,
 * outcome) for each stored game of index 0..n-1, in index order, stopping
 * at visit's first non-zero return. Returns 0; visit's non-zero return;
 * or -1 with a message in err. */
int store_cell_games(struct store *st, int64_t cell_id, int n, int *stopped_at,
                     int (*visit)(void *arg, int index,
                                  enum game_outcome outcome),
                     void *arg, char *err, size_t errsz);

/* store_insert_game's answer for a game the cell already holds. */
#define STORE_GAME_ALREADY 1

/* Adds a finished game in the open transaction (opening one if needed).
 * Returns 0 when it was stored; STORE_GAME_ALREADY when the cell already
 * holds a game of that index (the stored one is left as it was, and this
 * one is not stored); -1 with a message for anything else (a row the
 * schema rejects, a full disk). */
int store_insert_game(struct store *st, const struct game_record *g,
                      char *err, size_t errsz);

/* The same for a game that started from an opening (o NULL: from the
 * variant's start, opening '' and pair_id NULL, as store_insert_game). */
int store_insert_opened_game(struct store *st, const struct game_record *g,
                             const struct game_opening *o, char *err,
                             size_t errsz);

/* Records that a cell stopped early after `games` games. */
int store_set_stopped(struct store *st, int64_t cell_id, int games);

/* Commits the open transaction (the next insert opens another). Returns
 * 0, or -1 with a message: then the transaction is rolled back, and its
 * games are lost (a resumed run plays them again). */
int store_commit(struct store *st, char *err, size_t errsz);

/* The games stored and committed since the last store_begin_run: what a
 * run reports as played (and what runs.games holds). */
long store_games_committed(const struct store *st);

/* Commits what is pending and closes the run row: when and how it ended
 * ("complete", "interrupted", "failed"). (Its `games` count is kept by
 * each commit.) Returns 0 or -1. */
int store_end_run(struct store *st, const char *status);

/* One stored game as store_each_game hands it over: every text is the
 * row's, valid until the visitor returns, and never NULL. */
struct store_game {
    int64_t id;
    const char *sweep, *variant;  /* the variant's canonical text */
    const char *agent_name[2], *agent_spec[2]; /* per seat */
    int game_index;               /* within its cell */
    const char *opening_position; /* "" from the variant's start */
    const char *opening;          /* moves before the agents' ("" none) */
    const char *moves;            /* the agents', space-separated */
    const char *result, *reason;  /* "seat0", "seat1", "draw"; the reason */
    int plies;                    /* the agents' moves */
    int winner_seat;              /* 0, 1, or -1 for none */
};

/* Which stored games store_each_game reads, and in what order. */
struct store_game_filter {
    const char *sweep;   /* NULL: every sweep */
    const char *game;    /* NULL: every game ("tafl", ...) */
    const char *variant; /* NULL: every variant (canonical text) */
    int64_t id;          /* 0: every game; else that game alone */
    int from_start;      /* only games whose opening is no position text */
    enum { STORE_BY_ID, STORE_BY_CELL } order; /* by id; or by variant,
                                                  agent names and index */
};

/* Told of each game store_each_game reads; a non-zero return stops it. */
typedef int (*store_game_visit)(void *arg, const struct store_game *g);

/* Calls visit(arg, game) for every stored game that f selects, in f's
 * order. Works on any connection (store_db, or a read-only one). Returns
 * 0; visit's non-zero return; or -1 with a message (the query failed, or
 * a game holds a NULL text column: naming the game and the column). */
int store_each_game(sqlite3 *db, const struct store_game_filter *f,
                    store_game_visit visit, void *arg, char *err,
                    size_t errsz);

/* Starts one read snapshot of db (a savepoint): every read until
 * store_read_end sees the database as it is now, even while a sweep
 * writes it. Returns 0, or -1 with a message. */
int store_read_begin(sqlite3 *db, char *err, size_t errsz);

/* Ends store_read_begin's snapshot. Returns 0, or -1 with a message. */
int store_read_end(sqlite3 *db, char *err, size_t errsz);

/* The names of the sweeps of db, in the order they were first stored,
 * comma-separated into names (n bytes; cut when longer), and whether one
 * is `name` (*found; name may be NULL). Returns how many, or -1 with a
 * message. */
int store_sweep_names(sqlite3 *db, const char *name, int *found,
                      char *names, size_t n, char *err, size_t errsz);

/* One line on the last run of sweep (NULL: of any sweep) into buf: its
 * sweep, status (running, complete, interrupted, failed, killed), when it
 * started and ended, and the games it stored; "" when there is none.
 * Returns 0, or -1 when the query fails. */
int store_last_run_text(sqlite3 *db, const char *sweep, char *buf, size_t n);

#endif
