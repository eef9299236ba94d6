/*
 * store.c -- the SQLite results store: schema, sweep registration, and the
 * batched insert of finished games.
 *
 * Durability: WAL with synchronous=NORMAL commits each batch atomically; a
 * crash or SIGKILL loses at most the batch not yet committed (the games in
 * flight and those finished since the last commit, a few seconds' worth),
 * never the consistency of the file. Games are unique per (cell, index),
 * so resuming a sweep can neither duplicate nor lose a game.
 */
#include "store.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "version.h"

struct store {
    sqlite3 *db;
    int readonly, in_transaction;
    time_t clock; /* when `now` was written: once a second is enough */
    char now[32];
    int64_t run_id;
    sqlite3_stmt *insert_game, *games_done, *cell_scores;
};

static const char *const schema[] = {
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS sweeps ("
    " id INTEGER PRIMARY KEY, name TEXT NOT NULL, seed INTEGER NOT NULL,"
    " file_text TEXT NOT NULL, created TEXT NOT NULL, UNIQUE (name, seed))",
    "CREATE TABLE IF NOT EXISTS runs ("
    " id INTEGER PRIMARY KEY, sweep_id INTEGER NOT NULL REFERENCES sweeps(id),"
    " program_version TEXT NOT NULL, host TEXT NOT NULL, threads INTEGER NOT NULL,"
    " started TEXT NOT NULL, ended TEXT, games INTEGER NOT NULL DEFAULT 0,"
    " status TEXT NOT NULL DEFAULT 'running')",
    "CREATE TABLE IF NOT EXISTS variants ("
    " id INTEGER PRIMARY KEY, game TEXT NOT NULL, canonical TEXT NOT NULL UNIQUE)",
    "CREATE TABLE IF NOT EXISTS agents ("
    " id INTEGER PRIMARY KEY, spec TEXT NOT NULL UNIQUE)",
    "CREATE TABLE IF NOT EXISTS cells ("
    " id INTEGER PRIMARY KEY, sweep_id INTEGER NOT NULL REFERENCES sweeps(id),"
    " variant_id INTEGER NOT NULL REFERENCES variants(id),"
    " agent0_id INTEGER NOT NULL REFERENCES agents(id),"
    " agent1_id INTEGER NOT NULL REFERENCES agents(id),"
    " agent0_name TEXT NOT NULL, agent1_name TEXT NOT NULL,"
    " games_planned INTEGER NOT NULL, stopped_at INTEGER,"
    " UNIQUE (sweep_id, variant_id, agent0_id, agent1_id))",
    "CREATE TABLE IF NOT EXISTS games ("
    " id INTEGER PRIMARY KEY, cell_id INTEGER NOT NULL REFERENCES cells(id),"
    " game_index INTEGER NOT NULL, seed INTEGER NOT NULL,"
    " side0 TEXT NOT NULL, side1 TEXT NOT NULL,"
    " result TEXT NOT NULL CHECK (result IN ('seat0', 'seat1', 'draw')),"
    " winner_seat INTEGER CHECK (winner_seat IN (0, 1)),"
    " reason TEXT NOT NULL, plies INTEGER NOT NULL,"
    " duration_ms REAL NOT NULL, finished TEXT NOT NULL, moves TEXT NOT NULL,"
    " UNIQUE (cell_id, game_index))",
    "CREATE TABLE IF NOT EXISTS claims ("
    " id INTEGER PRIMARY KEY, game_id INTEGER REFERENCES games(id),"
    " ply INTEGER NOT NULL, variant TEXT NOT NULL, position TEXT NOT NULL,"
    " question TEXT NOT NULL, plies INTEGER NOT NULL, node_budget INTEGER NOT NULL,"
    " answer TEXT NOT NULL CHECK (answer IN ('win', 'no_win', 'unknown')),"
    " nodes INTEGER NOT NULL, seconds REAL NOT NULL, pv TEXT NOT NULL,"
    " proof TEXT, created TEXT NOT NULL,"
    " UNIQUE (game_id, ply, question, plies, node_budget))",
    "CREATE VIEW IF NOT EXISTS game_view AS SELECT"
    " g.id, s.name AS sweep, s.seed AS sweep_seed, v.game, v.canonical AS variant,"
    " c.agent0_name, c.agent1_name, a0.spec AS agent0, a1.spec AS agent1,"
    " g.cell_id, g.game_index, g.seed, g.side0, g.side1, g.result, g.winner_seat,"
    " g.reason, g.plies, g.duration_ms, g.finished, g.moves"
    " FROM games g JOIN cells c ON c.id = g.cell_id"
    " JOIN sweeps s ON s.id = c.sweep_id JOIN variants v ON v.id = c.variant_id"
    " JOIN agents a0 ON a0.id = c.agent0_id JOIN agents a1 ON a1.id = c.agent1_id",
    NULL};

static int db_error(sqlite3 *db, char *err, size_t errsz, const char *what)
{
    if (err && errsz)
        snprintf(err, errsz, "%s: %s", what, db ? sqlite3_errmsg(db) : "?");
    return -1;
}

static void now_text(char *buf, size_t n)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int exec(struct store *st, const char *sql, char *err, size_t errsz)
{
    if (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return db_error(st->db, err, errsz, sql);
    return 0;
}

/* Creates the schema in a new database, or checks an existing one's
 * version (this is version 1: there is nothing to migrate from yet). */
static int ensure_schema(struct store *st, char *err, size_t errsz)
{
    if (exec(st, "BEGIN IMMEDIATE", err, errsz))
        return -1;
    for (int i = 0; schema[i]; i++)
        if (exec(st, schema[i], err, errsz)) {
            sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
            return -1;
        }
    sqlite3_stmt *q;
    int version = 0;
    if (sqlite3_prepare_v2(st->db, "SELECT value FROM meta WHERE key = "
                           "'schema_version'", -1, &q, NULL) == SQLITE_OK) {
        if (sqlite3_step(q) == SQLITE_ROW)
            version = sqlite3_column_int(q, 0);
        sqlite3_finalize(q);
    }
    if (version > STORE_SCHEMA_VERSION) {
        sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
        snprintf(err, errsz, "the database has schema version %d, newer than "
                 "this rulelab's %d", version, STORE_SCHEMA_VERSION);
        return -1;
    }
    if (version == 0
        && exec(st, "INSERT INTO meta VALUES ('schema_version', '1')", err,
                errsz)) {
        sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    return exec(st, "COMMIT", err, errsz);
}

int store_open(const char *path, int readonly, struct store **out, char *err,
               size_t errsz)
{
    struct store *st = calloc(1, sizeof *st);
    *out = NULL;
    if (!st) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    st->readonly = readonly;
    int flags = readonly ? SQLITE_OPEN_READONLY
                         : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    if (sqlite3_open_v2(path, &st->db, flags, NULL) != SQLITE_OK) {
        db_error(st->db, err, errsz, path);
        store_close(st);
        return -1;
    }
    sqlite3_busy_timeout(st->db, 30000);
    if (!readonly
        && (exec(st, "PRAGMA page_size = 16384", err, errsz)
            || exec(st, "PRAGMA journal_mode = WAL", err, errsz)
            || exec(st, "PRAGMA synchronous = NORMAL", err, errsz)
            || exec(st, "PRAGMA cache_size = -32768", err, errsz)
            || exec(st, "PRAGMA foreign_keys = ON", err, errsz)
            || ensure_schema(st, err, errsz))) {
        store_close(st);
        return -1;
    }
    if (readonly) {
        sqlite3_stmt *q;
        if (sqlite3_prepare_v2(st->db, "SELECT value FROM meta WHERE key = "
                               "'schema_version'", -1, &q, NULL) != SQLITE_OK) {
            snprintf(err, errsz, "%s: not a rulelab database", path);
            store_close(st);
            return -1;
        }
        sqlite3_finalize(q);
    }
    *out = st;
    return 0;
}

void store_close(struct store *st)
{
    if (!st)
        return;
    if (st->in_transaction)
        sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL);
    sqlite3_finalize(st->insert_game);
    sqlite3_finalize(st->games_done);
    sqlite3_finalize(st->cell_scores);
    sqlite3_close(st->db);
    free(st);
}

sqlite3 *store_db(struct store *st)
{
    return st->db;
}

/* Runs an INSERT OR IGNORE then SELECT id for a row found by text keys. */
static int64_t upsert_id(struct store *st, const char *insert,
                         const char *select, const char *a, const char *b)
{
    sqlite3_stmt *q;
    int64_t id = -1;
    if (sqlite3_prepare_v2(st->db, insert, -1, &q, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_text(q, 1, a, -1, SQLITE_STATIC);
    if (b)
        sqlite3_bind_text(q, 2, b, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE
        || sqlite3_prepare_v2(st->db, select, -1, &q, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_text(q, 1, b ? b : a, -1, SQLITE_STATIC);
    if (sqlite3_step(q) == SQLITE_ROW)
        id = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    return id;
}

static int64_t sweep_id(struct store *st, const struct sweep *s)
{
    sqlite3_stmt *q;
    int64_t id = -1;
    char now[32];
    now_text(now, sizeof now);
    const char *sql[2] = {
        "INSERT INTO sweeps (name, seed, file_text, created) VALUES (?1, ?2, "
        "?3, ?4) ON CONFLICT (name, seed) DO UPDATE SET file_text = ?3",
        "SELECT id FROM sweeps WHERE name = ?1 AND seed = ?2"};
    for (int i = 0; i < 2; i++) {
        if (sqlite3_prepare_v2(st->db, sql[i], -1, &q, NULL) != SQLITE_OK)
            return -1;
        sqlite3_bind_text(q, 1, s->name, -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 2, (int64_t)s->seed);
        if (i == 0) {
            sqlite3_bind_text(q, 3, s->file_text, -1, SQLITE_STATIC);
            sqlite3_bind_text(q, 4, now, -1, SQLITE_STATIC);
        }
        int rc = sqlite3_step(q);
        if (i == 1 && rc == SQLITE_ROW)
            id = sqlite3_column_int64(q, 0);
        sqlite3_finalize(q);
        if (i == 0 && rc != SQLITE_DONE)
            return -1;
    }
    return id;
}

static int64_t cell_id(struct store *st, int64_t sweep, const struct sweep *s,
                       const struct sweep_cell *c)
{
    int64_t variant = upsert_id(
        st, "INSERT OR IGNORE INTO variants (game, canonical) VALUES (?1, ?2)",
        "SELECT id FROM variants WHERE canonical = ?1", c->variant.game->name,
        c->variant_text);
    int64_t agent[2];
    for (int k = 0; k < 2; k++)
        agent[k] = upsert_id(
            st, "INSERT OR IGNORE INTO agents (spec) VALUES (?1)",
            "SELECT id FROM agents WHERE spec = ?1",
            s->agents[c->agent[k]].spec, NULL);
    if (variant < 0 || agent[0] < 0 || agent[1] < 0)
        return -1;
    sqlite3_stmt *q;
    const char *sql[2] = {
        "INSERT INTO cells (sweep_id, variant_id, agent0_id, agent1_id,"
        " agent0_name, agent1_name, games_planned) VALUES (?1, ?2, ?3, ?4, ?5,"
        " ?6, ?7) ON CONFLICT (sweep_id, variant_id, agent0_id, agent1_id)"
        " DO UPDATE SET games_planned = ?7, agent0_name = ?5, agent1_name = ?6",
        "SELECT id FROM cells WHERE sweep_id = ?1 AND variant_id = ?2 AND"
        " agent0_id = ?3 AND agent1_id = ?4"};
    int64_t id = -1;
    for (int i = 0; i < 2; i++) {
        if (sqlite3_prepare_v2(st->db, sql[i], -1, &q, NULL) != SQLITE_OK)
            return -1;
        sqlite3_bind_int64(q, 1, sweep);
        sqlite3_bind_int64(q, 2, variant);
        sqlite3_bind_int64(q, 3, agent[0]);
        sqlite3_bind_int64(q, 4, agent[1]);
        if (i == 0) {
            sqlite3_bind_text(q, 5, s->agents[c->agent[0]].name, -1, SQLITE_STATIC);
            sqlite3_bind_text(q, 6, s->agents[c->agent[1]].name, -1, SQLITE_STATIC);
            sqlite3_bind_int(q, 7, s->games_per_cell);
        }
        int rc = sqlite3_step(q);
        if (i == 1 && rc == SQLITE_ROW)
            id = sqlite3_column_int64(q, 0);
        sqlite3_finalize(q);
        if (i == 0 && rc != SQLITE_DONE)
            return -1;
    }
    return id;
}

int store_begin_run(struct store *st, const struct sweep *s, int threads,
                    int64_t *cell_ids, char *err, size_t errsz)
{
    if (exec(st, "BEGIN IMMEDIATE", err, errsz))
        return -1;
    int64_t sweep = sweep_id(st, s);
    if (sweep < 0)
        goto fail;
    for (int i = 0; i < s->n_cells; i++)
        if ((cell_ids[i] = cell_id(st, sweep, s, &s->cells[i])) < 0)
            goto fail;
    char host[256] = "?", now[32];
    gethostname(host, sizeof host - 1);
    now_text(now, sizeof now);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(st->db, "INSERT INTO runs (sweep_id, "
                           "program_version, host, threads, started) VALUES "
                           "(?1, ?2, ?3, ?4, ?5)", -1, &q, NULL) != SQLITE_OK)
        goto fail;
    sqlite3_bind_int64(q, 1, sweep);
    sqlite3_bind_text(q, 2, RULELAB_VERSION, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, host, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(q, 4, threads);
    sqlite3_bind_text(q, 5, now, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(q);
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE)
        goto fail;
    st->run_id = sqlite3_last_insert_rowid(st->db);
    if (exec(st, "COMMIT", err, errsz))
        return -1;
    return 0;
fail:
    db_error(st->db, err, errsz, "registering the sweep");
    sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

static int prepare(struct store *st, sqlite3_stmt **q, const char *sql)
{
    if (*q)
        return sqlite3_reset(*q) == SQLITE_OK ? 0 : -1;
    return sqlite3_prepare_v3(st->db, sql, -1, SQLITE_PREPARE_PERSISTENT, q,
                              NULL) == SQLITE_OK ? 0 : -1;
}

int store_games_done(struct store *st, int64_t cell_id, int n,
                     unsigned char *done, int *stopped_at)
{
    memset(done, 0, (size_t)n);
    *stopped_at = -1;
    if (prepare(st, &st->games_done, "SELECT game_index FROM games WHERE "
                "cell_id = ?1 UNION ALL SELECT -1 - stopped_at FROM cells "
                "WHERE id = ?1 AND stopped_at IS NOT NULL"))
        return -1;
    sqlite3_bind_int64(st->games_done, 1, cell_id);
    int rc;
    while ((rc = sqlite3_step(st->games_done)) == SQLITE_ROW) {
        int i = sqlite3_column_int(st->games_done, 0);
        if (i >= 0 && i < n)
            done[i] = 1;
        else if (i < 0)
            *stopped_at = -1 - i;
    }
    return rc == SQLITE_DONE ? 0 : -1;
}

int store_cell_scores(struct store *st, int64_t cell_id, int n,
                      signed char *scores)
{
    memset(scores, -1, (size_t)n);
    if (prepare(st, &st->cell_scores, "SELECT game_index, result FROM games "
                "WHERE cell_id = ?1 AND game_index < ?2"))
        return -1;
    sqlite3_bind_int64(st->cell_scores, 1, cell_id);
    sqlite3_bind_int(st->cell_scores, 2, n);
    int rc;
    while ((rc = sqlite3_step(st->cell_scores)) == SQLITE_ROW) {
        const char *r = (const char *)sqlite3_column_text(st->cell_scores, 1);
        scores[sqlite3_column_int(st->cell_scores, 0)] =
            strcmp(r, "seat0") == 0 ? 2 : strcmp(r, "draw") == 0 ? 1 : 0;
    }
    return rc == SQLITE_DONE ? 0 : -1;
}

int store_insert_game(struct store *st, const struct game_record *g, char *err,
                      size_t errsz)
{
    if (!st->in_transaction) {
        if (exec(st, "BEGIN IMMEDIATE", err, errsz))
            return -1;
        st->in_transaction = 1;
    }
    if (prepare(st, &st->insert_game, "INSERT OR IGNORE INTO games (cell_id,"
                " game_index, seed, side0, side1, result, winner_seat, reason,"
                " plies, duration_ms, finished, moves) VALUES (?1, ?2, ?3, ?4,"
                " ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"))
        return db_error(st->db, err, errsz, "preparing the game insert");
    static const char *const results[] = {"draw", "seat0", "seat1", "draw"};
    if (time(NULL) != st->clock) {
        st->clock = time(NULL);
        now_text(st->now, sizeof st->now);
    }
    sqlite3_stmt *q = st->insert_game;
    sqlite3_bind_int64(q, 1, g->cell_id);
    sqlite3_bind_int(q, 2, g->game_index);
    sqlite3_bind_int64(q, 3, (int64_t)g->seed);
    sqlite3_bind_text(q, 4, g->side[0], -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 5, g->side[1], -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 6, results[g->outcome], -1, SQLITE_STATIC);
    if (g->outcome == GAME_WIN_SEAT0 || g->outcome == GAME_WIN_SEAT1)
        sqlite3_bind_int(q, 7, g->outcome == GAME_WIN_SEAT0 ? 0 : 1);
    else
        sqlite3_bind_null(q, 7);
    sqlite3_bind_text(q, 8, end_reason_name(g->reason), -1, SQLITE_STATIC);
    sqlite3_bind_int(q, 9, g->plies);
    sqlite3_bind_double(q, 10, g->duration_ms);
    sqlite3_bind_text(q, 11, st->now, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 12, g->moves, (int)g->moves_len, SQLITE_STATIC);
    if (sqlite3_step(q) != SQLITE_DONE)
        return db_error(st->db, err, errsz, "storing a game");
    return 0;
}

int store_set_stopped(struct store *st, int64_t cell_id, int games)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(st->db, "UPDATE cells SET stopped_at = ?2 WHERE "
                           "id = ?1", -1, &q, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(q, 1, cell_id);
    sqlite3_bind_int(q, 2, games);
    int rc = sqlite3_step(q);
    sqlite3_finalize(q);
    return rc == SQLITE_DONE ? 0 : -1;
}

int store_commit(struct store *st, char *err, size_t errsz)
{
    if (!st->in_transaction)
        return 0;
    st->in_transaction = 0;
    return exec(st, "COMMIT", err, errsz);
}

int store_end_run(struct store *st, long games, const char *status)
{
    char now[32];
    now_text(now, sizeof now);
    sqlite3_stmt *q;
    if (store_commit(st, NULL, 0)
        || sqlite3_prepare_v2(st->db, "UPDATE runs SET ended = ?2, games = ?3,"
                              " status = ?4 WHERE id = ?1", -1, &q, NULL)
               != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(q, 1, st->run_id);
    sqlite3_bind_text(q, 2, now, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(q, 3, games);
    sqlite3_bind_text(q, 4, status, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    sqlite3_finalize(q);
    return rc == SQLITE_DONE ? 0 : -1;
}
