/*
 * store.c -- the SQLite results store: the schema and its migrations,
 * sweep registration, and the batched insert of finished games.
 *
 * The schema is a numbered chain: meta.schema_version says which migrations
 * a database has had, and opening it for writing runs the rest in order,
 * each in its own transaction with the version bump, so a database made by
 * any earlier rulelab is brought up to date without losing a row. Readers
 * (report, export, replay) change nothing: they refuse a version other
 * than this program's, naming both and what to do.
 *
 * Durability: WAL with synchronous=FULL: each commit (one per batch of
 * games) is written to the log and fsynced before COMMIT returns, so a
 * SIGKILL, a crash of the system or a power cut loses at most the batch
 * not yet committed (the games in flight and those finished since the last
 * commit), never a committed one nor the consistency of the file, on
 * storage that honours fsync. (With synchronous=NORMAL a power cut could
 * roll back committed batches, up to the last checkpoint.) FULL costs one
 * fsync per batch: a 6,000-game sweep of about 12 batches took 0.92 s
 * against 0.91 s with NORMAL (means of 5 runs on 2 threads; the sweep and
 * the commands are in results/README.md). Games are unique per (cell,
 * index), so resuming a sweep can neither duplicate nor lose a game.
 *
 * One run writes a database at a time: store_begin_run takes an flock on
 * PATH.lock, which the kernel releases however the process ends, so the
 * next run may mark the runs left `running` as `killed`. Readers never
 * take it. A cell is found by its seed key (identities, see sweep.h), and
 * refuses to be resumed by another behaviour version of its game engine
 * or agents.
 */
#include "store.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "version.h"

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
    sqlite3_stmt *insert_game, *cell_stop, *cell_games;
};

/* ---- the schema: a numbered chain of migrations ----------------------- */

/* Version 1, as release cbdcb07 (and every rulelab before it) made it. */
static const char *const to_version_1[] = {
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE sweeps ("
    " id INTEGER PRIMARY KEY, name TEXT NOT NULL, seed INTEGER NOT NULL,"
    " file_text TEXT NOT NULL, created TEXT NOT NULL, UNIQUE (name, seed))",
    "CREATE TABLE runs ("
    " id INTEGER PRIMARY KEY, sweep_id INTEGER NOT NULL REFERENCES sweeps(id),"
    " program_version TEXT NOT NULL, host TEXT NOT NULL, threads INTEGER NOT NULL,"
    " started TEXT NOT NULL, ended TEXT, games INTEGER NOT NULL DEFAULT 0,"
    " status TEXT NOT NULL DEFAULT 'running')",
    "CREATE TABLE variants ("
    " id INTEGER PRIMARY KEY, game TEXT NOT NULL, canonical TEXT NOT NULL UNIQUE)",
    "CREATE TABLE agents ("
    " id INTEGER PRIMARY KEY, spec TEXT NOT NULL UNIQUE)",
    "CREATE TABLE cells ("
    " id INTEGER PRIMARY KEY, sweep_id INTEGER NOT NULL REFERENCES sweeps(id),"
    " variant_id INTEGER NOT NULL REFERENCES variants(id),"
    " agent0_id INTEGER NOT NULL REFERENCES agents(id),"
    " agent1_id INTEGER NOT NULL REFERENCES agents(id),"
    " agent0_name TEXT NOT NULL, agent1_name TEXT NOT NULL,"
    " games_planned INTEGER NOT NULL, stopped_at INTEGER,"
    " UNIQUE (sweep_id, variant_id, agent0_id, agent1_id))",
    "CREATE TABLE games ("
    " id INTEGER PRIMARY KEY, cell_id INTEGER NOT NULL REFERENCES cells(id),"
    " game_index INTEGER NOT NULL, seed INTEGER NOT NULL,"
    " side0 TEXT NOT NULL, side1 TEXT NOT NULL,"
    " result TEXT NOT NULL CHECK (result IN ('seat0', 'seat1', 'draw')),"
    " winner_seat INTEGER CHECK (winner_seat IN (0, 1)),"
    " reason TEXT NOT NULL, plies INTEGER NOT NULL,"
    " duration_ms REAL NOT NULL, finished TEXT NOT NULL, moves TEXT NOT NULL,"
    " UNIQUE (cell_id, game_index))",
    "CREATE TABLE claims ("
    " id INTEGER PRIMARY KEY, game_id INTEGER REFERENCES games(id),"
    " ply INTEGER NOT NULL, variant TEXT NOT NULL, position TEXT NOT NULL,"
    " question TEXT NOT NULL, plies INTEGER NOT NULL, node_budget INTEGER NOT NULL,"
    " answer TEXT NOT NULL CHECK (answer IN ('win', 'no_win', 'unknown')),"
    " nodes INTEGER NOT NULL, seconds REAL NOT NULL, pv TEXT NOT NULL,"
    " proof TEXT, created TEXT NOT NULL,"
    " UNIQUE (game_id, ply, question, plies, node_budget))",
    "CREATE VIEW game_view AS SELECT"
    " g.id, s.name AS sweep, s.seed AS sweep_seed, v.game, v.canonical AS variant,"
    " c.agent0_name, c.agent1_name, a0.spec AS agent0, a1.spec AS agent1,"
    " g.cell_id, g.game_index, g.seed, g.side0, g.side1, g.result, g.winner_seat,"
    " g.reason, g.plies, g.duration_ms, g.finished, g.moves"
    " FROM games g JOIN cells c ON c.id = g.cell_id"
    " JOIN sweeps s ON s.id = c.sweep_id JOIN variants v ON v.id = c.variant_id"
    " JOIN agents a0 ON a0.id = c.agent0_id JOIN agents a1 ON a1.id = c.agent1_id",
    NULL};

/* Version 2: identity keys that survive a new parameter at its default,
 * and behaviour versions (see store.h). Every row of version 1 was written
 * when the identity of a variant or agent was its canonical text, and when
 * every engine and agent kind was at behaviour version 1. */
static const char *const to_version_2[] = {
    "ALTER TABLE variants ADD COLUMN identity TEXT NOT NULL DEFAULT ''",
    "UPDATE variants SET identity = canonical",
    "CREATE UNIQUE INDEX variants_identity ON variants (identity)",
    "ALTER TABLE agents ADD COLUMN identity TEXT NOT NULL DEFAULT ''",
    "UPDATE agents SET identity = spec",
    "CREATE UNIQUE INDEX agents_identity ON agents (identity)",
    "ALTER TABLE cells ADD COLUMN seed_key TEXT NOT NULL DEFAULT ''",
    "UPDATE cells SET seed_key ="
    " (SELECT identity FROM variants WHERE id = variant_id) || char(10) ||"
    " (SELECT identity FROM agents WHERE id = agent0_id) || char(10) ||"
    " (SELECT identity FROM agents WHERE id = agent1_id)",
    "CREATE UNIQUE INDEX cells_seed_key ON cells (sweep_id, seed_key)",
    "ALTER TABLE cells ADD COLUMN game_behaviour INTEGER NOT NULL DEFAULT 1",
    "ALTER TABLE cells ADD COLUMN agent0_behaviour INTEGER NOT NULL DEFAULT 1",
    "ALTER TABLE cells ADD COLUMN agent1_behaviour INTEGER NOT NULL DEFAULT 1",
    "ALTER TABLE runs ADD COLUMN behaviour TEXT",
    NULL};

/* The chain: migrations[i] takes a database from version i to i + 1. A
 * later change appends a migration and bumps STORE_SCHEMA_VERSION; it never
 * edits one already released (tests/fixtures/ holds databases made before
 * each, and every migration is tested on them). */
static const char *const *const migrations[] = {to_version_1, to_version_2};

_Static_assert(sizeof migrations / sizeof migrations[0] == STORE_SCHEMA_VERSION,
               "one migration per schema version");

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

/* Reads the schema version of an open database into *version: 0 for an
 * empty one. Returns 0, or -1 with a message naming path when the file is
 * no SQLite database, or one that rulelab did not make. */
static int read_version(sqlite3 *db, const char *path, int *version,
                        char *err, size_t errsz)
{
    sqlite3_stmt *q = NULL;
    int rc = -1, tables = -1;
    *version = 0;
    if (sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM sqlite_master", -1, &q,
                           NULL) != SQLITE_OK
        || sqlite3_step(q) != SQLITE_ROW) {
        snprintf(err, errsz, "%s: cannot read it as a database: %s", path,
                 sqlite3_errmsg(db));
        goto done;
    }
    tables = sqlite3_column_int(q, 0);
    sqlite3_finalize(q);
    q = NULL;
    if (tables == 0) {
        rc = 0;
        goto done;
    }
    if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = "
                           "'schema_version'", -1, &q, NULL) != SQLITE_OK
        || sqlite3_step(q) != SQLITE_ROW) {
        snprintf(err, errsz, "%s: not a rulelab database (it has no "
                 "meta.schema_version)", path);
        goto done;
    }
    const char *text = (const char *)sqlite3_column_text(q, 0);
    char *end;
    errno = 0;
    long v = text ? strtol(text, &end, 10) : 0;
    if (!text || end == text || *end || errno || v < 1 || v > 1000000) {
        snprintf(err, errsz, "%s: not a rulelab database (schema_version is "
                 "'%s', not a version number)", path, text ? text : "NULL");
        goto done;
    }
    *version = (int)v;
    rc = 0;
done:
    sqlite3_finalize(q);
    return rc;
}

/* The message for a database this program cannot use as it is. */
static int version_error(const char *path, int version, char *err,
                         size_t errsz)
{
    if (version > STORE_SCHEMA_VERSION)
        snprintf(err, errsz, "%s has schema version %d, newer than this "
                 "rulelab knows (1 to %d): use the rulelab that wrote it, or "
                 "a newer one", path, version, STORE_SCHEMA_VERSION);
    else
        snprintf(err, errsz, "%s has schema version %d, older than this "
                 "rulelab's %d: upgrade it with `rulelab migrate %s` (or "
                 "`rulelab run` on it); every row is kept", path, version,
                 STORE_SCHEMA_VERSION, path);
    return -1;
}

/* Brings the schema up to date: each missing migration in its own
 * transaction, which also bumps meta.schema_version. Safe against another
 * process migrating at the same time (the version is read again inside
 * each write transaction). Returns 0 or -1 with a message. */
static int migrate(struct store *st, const char *path, char *err,
                   size_t errsz)
{
    int version;
    /* Up to date: no write transaction (that would wait for a run's batch) */
    if (read_version(st->db, path, &version, err, errsz))
        return -1;
    if (version == STORE_SCHEMA_VERSION)
        return 0;
    if (version > STORE_SCHEMA_VERSION)
        return version_error(path, version, err, errsz);
    for (int to = 1; to <= STORE_SCHEMA_VERSION; to++) {
        if (exec(st, "BEGIN IMMEDIATE", err, errsz))
            return -1;
        if (read_version(st->db, path, &version, err, errsz))
            goto fail;
        if (version > STORE_SCHEMA_VERSION) {
            version_error(path, version, err, errsz);
            goto fail;
        }
        if (version >= to) {
            if (exec(st, "COMMIT", err, errsz))
                goto fail;
            continue;
        }
        for (const char *const *sql = migrations[to - 1]; *sql; sql++)
            if (exec(st, *sql, err, errsz))
                goto fail;
        char bump[160];
        snprintf(bump, sizeof bump, "INSERT INTO meta (key, value) VALUES "
                 "('schema_version', '%d') ON CONFLICT (key) DO UPDATE SET "
                 "value = excluded.value", to);
        if (exec(st, bump, err, errsz) || exec(st, "COMMIT", err, errsz))
            goto fail;
    }
    return 0;
fail:
    if (!sqlite3_get_autocommit(st->db))
        sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

/* Whether this process may create files in the folder that holds path. */
static int folder_writable(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    return access(dirname(dir), W_OK) == 0;
}

/* Whether a reader may open path as immutable: its folder is not writable
 * (so no writer can be running there, and SQLite cannot make the -shm file
 * a WAL reader needs) and no write-ahead log holds data. */
static int may_open_immutable(const char *path)
{
    char wal[4200];
    struct stat sb;
    snprintf(wal, sizeof wal, "%s-wal", path);
    if (folder_writable(path))
        return 0;
    return stat(wal, &sb) != 0 ? errno == ENOENT : sb.st_size == 0;
}

/* Opens path read-only as an immutable database (a URI: its characters
 * outside [A-Za-z0-9/._~-] percent-encoded). */
static int open_immutable(const char *path, sqlite3 **db)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = strlen(path);
    char *uri = malloc(3 * n + 32);
    if (!uri)
        return SQLITE_NOMEM;
    char *p = uri + sprintf(uri, "file:");
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)path[i];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
            || (c >= '0' && c <= '9') || strchr("/._~-", c)) {
            *p++ = (char)c;
        } else {
            *p++ = '%';
            *p++ = hex[c >> 4];
            *p++ = hex[c & 15];
        }
    }
    strcpy(p, "?immutable=1");
    int rc = sqlite3_open_v2(uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
                             NULL);
    free(uri);
    return rc;
}

/* Opens for reading: the database must be at this program's version. A
 * WAL database in a folder the reader cannot write cannot get its -shm
 * file; when no log holds data there, it is opened immutable instead. */
static int open_reader(struct store *st, const char *path, char *err,
                       size_t errsz)
{
    int version;
    if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READONLY, NULL)
        != SQLITE_OK)
        return db_error(st->db, err, errsz, path);
    if (read_version(st->db, path, &version, err, errsz) != 0) {
        if (!may_open_immutable(path)) {
            size_t len = strlen(err);
            if (!folder_writable(path) && len < errsz)
                snprintf(err + len, errsz - len, " (a reader cannot use the "
                         "write-ahead log %s-wal in a folder it cannot "
                         "write: fold it in with `rulelab migrate %s` where "
                         "the folder is writable)", path, path);
            return -1;
        }
        sqlite3_close(st->db);
        st->db = NULL;
        if (open_immutable(path, &st->db) != SQLITE_OK
            || read_version(st->db, path, &version, err, errsz) != 0)
            return -1;
    }
    if (version == 0) {
        snprintf(err, errsz, "%s: not a rulelab database (it is empty)",
                 path);
        return -1;
    }
    if (version != STORE_SCHEMA_VERSION)
        return version_error(path, version, err, errsz);
    return 0;
}

/* Opens for writing: WAL, and the schema brought up to date. */
static int open_writer(struct store *st, const char *path, char *err,
                       size_t errsz)
{
    if (path[0] == '\0') {
        snprintf(err, errsz, "no database path given (an empty path would "
                 "be a temporary database, lost at exit)");
        return -1;
    }
    if (sqlite3_open_v2(path, &st->db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL)
        != SQLITE_OK)
        return db_error(st->db, err, errsz, path);
    sqlite3_busy_timeout(st->db, 30000);
    if (exec(st, "PRAGMA page_size = 16384", err, errsz)
        || exec(st, "PRAGMA journal_mode = WAL", err, errsz)
        || exec(st, "PRAGMA synchronous = FULL", err, errsz)
        || exec(st, "PRAGMA cache_size = -32768", err, errsz)
        || exec(st, "PRAGMA foreign_keys = ON", err, errsz))
        return -1;
    return migrate(st, path, err, errsz);
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
    st->lock_fd = -1;
    if (!(st->path = strdup(path))) {
        snprintf(err, errsz, "out of memory");
        free(st);
        return -1;
    }
    int rc = readonly ? open_reader(st, path, err, errsz)
                      : open_writer(st, path, err, errsz);
    if (rc != 0) {
        store_close(st);
        return -1;
    }
    sqlite3_busy_timeout(st->db, 30000);
    *out = st;
    return 0;
}

int store_schema_version(const char *path, int *version, char *err,
                         size_t errsz)
{
    sqlite3 *db = NULL;
    int rc = -1;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        db_error(db, err, errsz, path);
    else
        rc = read_version(db, path, version, err, errsz);
    sqlite3_close(db);
    return rc;
}

void store_close(struct store *st)
{
    if (!st)
        return;
    store_commit(st, NULL, 0);
    sqlite3_finalize(st->insert_game);
    sqlite3_finalize(st->cell_stop);
    sqlite3_finalize(st->cell_games);
    sqlite3_close(st->db);
    if (st->lock_fd >= 0)
        close(st->lock_fd); /* releases the writer lock */
    free(st->path);
    free(st);
}

sqlite3 *store_db(struct store *st)
{
    return st->db;
}

/* Runs a one-row statement whose first column is an id (an upsert with
 * RETURNING, or a SELECT), binding texts to ?1.. from args (NULL-ended).
 * Returns the id, or -1 (the error is in sqlite3_errmsg). */
static int64_t text_row_id(struct store *st, const char *sql, ...)
{
    sqlite3_stmt *q = NULL;
    int64_t id = -1;
    va_list ap;
    va_start(ap, sql);
    if (sqlite3_prepare_v2(st->db, sql, -1, &q, NULL) != SQLITE_OK)
        goto done;
    const char *arg;
    for (int i = 1; (arg = va_arg(ap, const char *)); i++)
        if (sqlite3_bind_text(q, i, arg, -1, SQLITE_TRANSIENT) != SQLITE_OK)
            goto done;
    if (sqlite3_step(q) == SQLITE_ROW)
        id = sqlite3_column_int64(q, 0);
done:
    va_end(ap);
    sqlite3_finalize(q);
    return id;
}

static int64_t sweep_id(struct store *st, const struct sweep *s)
{
    sqlite3_stmt *q;
    int64_t id = -1;
    char now[32];
    now_text(now, sizeof now);
    if (sqlite3_prepare_v2(st->db, "INSERT INTO sweeps (name, seed, "
                           "file_text, created) VALUES (?1, ?2, ?3, ?4) ON "
                           "CONFLICT (name, seed) DO UPDATE SET file_text = "
                           "?3 RETURNING id", -1, &q, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_bind_text(q, 1, s->name, -1, SQLITE_STATIC) == SQLITE_OK
        && sqlite3_bind_int64(q, 2, (int64_t)s->seed) == SQLITE_OK
        && sqlite3_bind_text(q, 3, s->file_text, -1, SQLITE_STATIC) == SQLITE_OK
        && sqlite3_bind_text(q, 4, now, -1, SQLITE_STATIC) == SQLITE_OK
        && sqlite3_step(q) == SQLITE_ROW)
        id = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    return id;
}

/* What identifies a cell, and what its games were played by. */
struct cell_keys {
    char variant_key[VARIANT_TEXT_MAX], agent_key[2][VARIANT_TEXT_MAX];
    int behaviour[3]; /* the game engine's, seat 0's and seat 1's agent's */
    const char *engine[3]; /* their names: the game, the agent kinds */
};

/* Splits c->seed_key into its three identities and looks up the behaviour
 * versions. Returns 0, or -1 with a message for a spec of no known kind. */
static int cell_keys(const struct sweep *s, const struct sweep_cell *c,
                     struct cell_keys *k, char *err, size_t errsz)
{
    char *part[3] = {k->variant_key, k->agent_key[0], k->agent_key[1]};
    const char *p = c->seed_key;
    for (int i = 0; i < 3; i++) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        snprintf(part[i], VARIANT_TEXT_MAX, "%.*s", (int)n, p);
        p += n + (end ? 1 : 0);
    }
    k->engine[0] = c->variant.game->name;
    k->behaviour[0] = c->variant.game->behaviour_version;
    for (int i = 0; i < 2; i++) {
        const char *spec = s->agents[c->agent[i]].spec;
        const struct agent_kind *kind = agent_kind_of(spec);
        if (!kind) {
            snprintf(err, errsz, "%s: no agent kind", spec);
            return -1;
        }
        k->engine[1 + i] = kind->name;
        k->behaviour[1 + i] = kind->behaviour_version;
    }
    return 0;
}

/* Checks that a cell still to be played holds only games of the engine and
 * agent behaviour versions of this program: a cell without games takes
 * them; one with nothing left to play keeps its own; otherwise -1 with a
 * message saying which version changed and how to continue. */
static int check_behaviour(struct store *st, int64_t id, const int *stored,
                           const struct cell_keys *k, const struct sweep *s,
                           char *err, size_t errsz)
{
    static const char *const what[3] = {"game engine", "agent", "agent"};
    if (stored[0] == k->behaviour[0] && stored[1] == k->behaviour[1]
        && stored[2] == k->behaviour[2])
        return 0;
    sqlite3_stmt *q;
    int games = -1, planned_stored = 0, stopped = 0;
    if (sqlite3_prepare_v2(st->db, "SELECT COUNT(*), TOTAL(game_index < ?2),"
                           " (SELECT stopped_at IS NOT NULL FROM cells WHERE"
                           " id = ?1) FROM games WHERE cell_id = ?1", -1, &q,
                           NULL) != SQLITE_OK)
        return db_error(st->db, err, errsz, "counting a cell's games");
    if (sqlite3_bind_int64(q, 1, id) == SQLITE_OK
        && sqlite3_bind_int(q, 2, s->games_per_cell) == SQLITE_OK
        && sqlite3_step(q) == SQLITE_ROW) {
        games = sqlite3_column_int(q, 0);
        planned_stored = sqlite3_column_int(q, 1);
        stopped = sqlite3_column_int(q, 2);
    }
    sqlite3_finalize(q);
    if (games < 0)
        return db_error(st->db, err, errsz, "counting a cell's games");
    /* A cell with nothing left to play (all its planned games stored, or
     * stopped early) mixes nothing: it keeps its games and versions. */
    if (games > 0 && (stopped || planned_stored >= s->games_per_cell))
        return 0;
    if (games == 0) {
        if (sqlite3_prepare_v2(st->db, "UPDATE cells SET game_behaviour = ?2,"
                               " agent0_behaviour = ?3, agent1_behaviour = ?4"
                               " WHERE id = ?1", -1, &q, NULL) != SQLITE_OK)
            return db_error(st->db, err, errsz, "updating a cell");
        int rc = sqlite3_bind_int64(q, 1, id) == SQLITE_OK
                 && sqlite3_bind_int(q, 2, k->behaviour[0]) == SQLITE_OK
                 && sqlite3_bind_int(q, 3, k->behaviour[1]) == SQLITE_OK
                 && sqlite3_bind_int(q, 4, k->behaviour[2]) == SQLITE_OK
                 && sqlite3_step(q) == SQLITE_DONE ? 0 : -1;
        sqlite3_finalize(q);
        return rc ? db_error(st->db, err, errsz, "updating a cell") : 0;
    }
    size_t len = (size_t)snprintf(
        err, errsz, "sweep %s (seed %llu), cell %s %s vs %s: its %d games "
        "were played by another version of", s->name,
        (unsigned long long)s->seed, k->variant_key, k->agent_key[0],
        k->agent_key[1], games);
    for (int i = 0; i < 3 && len < errsz; i++)
        if (stored[i] != k->behaviour[i])
            len += (size_t)snprintf(err + len, errsz - len, " the %s %s "
                                    "(behaviour version %d stored, %d here);",
                                    what[i], k->engine[i], stored[i],
                                    k->behaviour[i]);
    if (len < errsz)
        snprintf(err + len, errsz - len, " the same spec now plays different "
                 "games, so resuming would mix the two in one cell. To "
                 "continue, give the sweep a new seed or name (its games go "
                 "to new cells; the stored ones stay as they are)");
    return -1;
}

/* Finds or adds the cell (and its variant and agent rows) by its keys.
 * Returns its id, or -1 with a message. */
static int64_t cell_id(struct store *st, int64_t sweep, const struct sweep *s,
                       const struct sweep_cell *c, char *err, size_t errsz)
{
    struct cell_keys k;
    if (cell_keys(s, c, &k, err, errsz))
        return -1;
    int64_t variant = text_row_id(
        st, "INSERT INTO variants (game, canonical, identity) VALUES (?1, ?2,"
        " ?3) ON CONFLICT (identity) DO UPDATE SET canonical = ?2 RETURNING id",
        c->variant.game->name, c->variant_text, k.variant_key, NULL);
    int64_t agent[2] = {-1, -1};
    for (int i = 0; i < 2 && variant >= 0; i++)
        agent[i] = text_row_id(
            st, "INSERT INTO agents (spec, identity) VALUES (?1, ?2) ON "
            "CONFLICT (identity) DO UPDATE SET spec = ?1 RETURNING id",
            s->agents[c->agent[i]].spec, k.agent_key[i], NULL);
    if (variant < 0 || agent[0] < 0 || agent[1] < 0)
        return db_error(st->db, err, errsz, "registering a variant or agent");
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(
            st->db, "INSERT INTO cells (sweep_id, variant_id, agent0_id,"
            " agent1_id, agent0_name, agent1_name, games_planned, seed_key,"
            " game_behaviour, agent0_behaviour, agent1_behaviour) VALUES (?1,"
            " ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) ON CONFLICT (sweep_id,"
            " seed_key) DO UPDATE SET games_planned = ?7, agent0_name = ?5,"
            " agent1_name = ?6 RETURNING id, game_behaviour, agent0_behaviour,"
            " agent1_behaviour", -1, &q, NULL) != SQLITE_OK)
        return db_error(st->db, err, errsz, "registering a cell");
    int64_t id = -1;
    int stored[3];
    if (sqlite3_bind_int64(q, 1, sweep) == SQLITE_OK
        && sqlite3_bind_int64(q, 2, variant) == SQLITE_OK
        && sqlite3_bind_int64(q, 3, agent[0]) == SQLITE_OK
        && sqlite3_bind_int64(q, 4, agent[1]) == SQLITE_OK
        && sqlite3_bind_text(q, 5, s->agents[c->agent[0]].name, -1,
                             SQLITE_STATIC) == SQLITE_OK
        && sqlite3_bind_text(q, 6, s->agents[c->agent[1]].name, -1,
                             SQLITE_STATIC) == SQLITE_OK
        && sqlite3_bind_int(q, 7, s->games_per_cell) == SQLITE_OK
        && sqlite3_bind_text(q, 8, c->seed_key, -1, SQLITE_STATIC) == SQLITE_OK
        && sqlite3_bind_int(q, 9, k.behaviour[0]) == SQLITE_OK
        && sqlite3_bind_int(q, 10, k.behaviour[1]) == SQLITE_OK
        && sqlite3_bind_int(q, 11, k.behaviour[2]) == SQLITE_OK
        && sqlite3_step(q) == SQLITE_ROW) {
        id = sqlite3_column_int64(q, 0);
        for (int i = 0; i < 3; i++)
            stored[i] = sqlite3_column_int(q, 1 + i);
    }
    sqlite3_finalize(q);
    if (id < 0)
        return db_error(st->db, err, errsz, "registering a cell");
    if (check_behaviour(st, id, stored, &k, s, err, errsz))
        return -1;
    return id;
}

/* The behaviour versions of every game engine and agent kind, as recorded
 * in runs.behaviour: "jetan=1 serbest=1 tafl=1 mcts=1 random=1". */
static void behaviour_text(char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; game_list[i] && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "%s%s=%d", len ? " " : "",
                                game_list[i]->name,
                                game_list[i]->behaviour_version);
    for (int i = 0; agent_kinds[i] && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, " %s=%d",
                                agent_kinds[i]->name,
                                agent_kinds[i]->behaviour_version);
}

/* Takes the writer lock: an flock() on PATH.lock, which then says who
 * holds it. Returns 0 (also when this store holds it already), or -1 with
 * a message naming the holder. The file stays when the lock is released:
 * removing it would let a third process lock a file no longer linked. */
static int take_writer_lock(struct store *st, char *err, size_t errsz)
{
    char lock[4200], holder[256] = "", host[200] = "?", now[32], text[400];
    if (st->lock_fd >= 0 || strcmp(st->path, ":memory:") == 0)
        return 0;
    snprintf(lock, sizeof lock, "%s.lock", st->path);
    int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) {
        snprintf(err, errsz, "%s: %s", lock, strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        ssize_t n = pread(fd, holder, sizeof holder - 1, 0);
        holder[n > 0 ? n : 0] = '\0';
        holder[strcspn(holder, "\n")] = '\0';
        close(fd);
        if (e == EWOULDBLOCK)
            snprintf(err, errsz, "%s is being written by another `rulelab "
                     "run` (%s; lock file %s): one run at a time per "
                     "database. Wait for it to end, or stop it, then run "
                     "again to resume; report, export and sqlite3 can read "
                     "the database meanwhile", st->path,
                     holder[0] ? holder : "it has not said who it is yet",
                     lock);
        else
            snprintf(err, errsz, "%s: cannot lock it: %s", lock, strerror(e));
        return -1;
    }
    gethostname(host, sizeof host - 1);
    now_text(now, sizeof now);
    int len = snprintf(text, sizeof text, "pid %ld on host %s since %s\n",
                       (long)getpid(), host, now);
    if (ftruncate(fd, 0) != 0 || pwrite(fd, text, (size_t)len, 0) != len) {
        snprintf(err, errsz, "%s: cannot write it: %s", lock, strerror(errno));
        close(fd);
        return -1;
    }
    st->lock_fd = fd;
    return 0;
}

int store_begin_run(struct store *st, const struct sweep *s, int threads,
                    int64_t *cell_ids, char *err, size_t errsz)
{
    if (st->readonly) {
        snprintf(err, errsz, "the database is open read-only");
        return -1;
    }
    if (store_commit(st, err, errsz) || take_writer_lock(st, err, errsz))
        return -1;
    st->committed = 0;
    if (exec(st, "BEGIN IMMEDIATE", err, errsz))
        return -1;
    /* Holding the lock proves that no run marked running is alive. */
    if (exec(st, "UPDATE runs SET status = 'killed' WHERE status = "
             "'running'", err, errsz))
        goto fail;
    int64_t sweep = sweep_id(st, s);
    if (sweep < 0) {
        db_error(st->db, err, errsz, "registering the sweep");
        goto fail;
    }
    for (int i = 0; i < s->n_cells; i++) {
        if ((cell_ids[i] = cell_id(st, sweep, s, &s->cells[i], err, errsz)) < 0)
            goto fail;
        for (int j = 0; j < i; j++)
            if (cell_ids[j] == cell_ids[i]) {
                const struct sweep_cell *c = &s->cells[i];
                snprintf(err, errsz, "%s: cells %d and %d are the same cell "
                         "(%s, %s vs %s): the same variant and agent specs "
                         "in the same seats; list each once", s->path, j + 1,
                         i + 1, c->variant_text, s->agents[c->agent[0]].spec,
                         s->agents[c->agent[1]].spec);
                goto fail;
            }
    }
    char host[256] = "?", now[32], behaviour[512];
    gethostname(host, sizeof host - 1);
    now_text(now, sizeof now);
    behaviour_text(behaviour, sizeof behaviour);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(st->db, "INSERT INTO runs (sweep_id, "
                           "program_version, host, threads, started, "
                           "behaviour) VALUES (?1, ?2, ?3, ?4, ?5, ?6)", -1,
                           &q, NULL) != SQLITE_OK) {
        db_error(st->db, err, errsz, "recording the run");
        goto fail;
    }
    int rc = sqlite3_bind_int64(q, 1, sweep) == SQLITE_OK
             && sqlite3_bind_text(q, 2, RULELAB_VERSION, -1, SQLITE_STATIC)
                    == SQLITE_OK
             && sqlite3_bind_text(q, 3, host, -1, SQLITE_TRANSIENT) == SQLITE_OK
             && sqlite3_bind_int(q, 4, threads) == SQLITE_OK
             && sqlite3_bind_text(q, 5, now, -1, SQLITE_TRANSIENT) == SQLITE_OK
             && sqlite3_bind_text(q, 6, behaviour, -1, SQLITE_TRANSIENT)
                    == SQLITE_OK
             && sqlite3_step(q) == SQLITE_DONE;
    sqlite3_finalize(q);
    if (!rc) {
        db_error(st->db, err, errsz, "recording the run");
        goto fail;
    }
    st->run_id = sqlite3_last_insert_rowid(st->db);
    if (exec(st, "COMMIT", err, errsz))
        goto fail;
    return 0;
fail:
    if (!sqlite3_get_autocommit(st->db))
        sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

/* Readies a cached statement: prepared the first time, reset and cleared
 * after. (sqlite3_reset returns the error of the statement's last step,
 * which was reported then: it is not this call's failure.) */
static int prepare(struct store *st, sqlite3_stmt **q, const char *sql)
{
    if (*q) {
        sqlite3_reset(*q);
        return sqlite3_clear_bindings(*q) == SQLITE_OK ? 0 : -1;
    }
    return sqlite3_prepare_v3(st->db, sql, -1, SQLITE_PREPARE_PERSISTENT, q,
                              NULL) == SQLITE_OK ? 0 : -1;
}

int store_cell_games(struct store *st, int64_t cell_id, int n, int *stopped_at,
                     int (*visit)(void *arg, int index,
                                  enum game_outcome outcome),
                     void *arg, char *err, size_t errsz)
{
    int rc = -1, step;
    *stopped_at = -1;
    if (prepare(st, &st->cell_stop, "SELECT stopped_at FROM cells WHERE "
                "id = ?1")
        || sqlite3_bind_int64(st->cell_stop, 1, cell_id) != SQLITE_OK)
        goto failed;
    step = sqlite3_step(st->cell_stop);
    if (step == SQLITE_ROW
        && sqlite3_column_type(st->cell_stop, 0) != SQLITE_NULL)
        *stopped_at = sqlite3_column_int(st->cell_stop, 0);
    if (step != SQLITE_ROW && step != SQLITE_DONE)
        goto failed;
    if (prepare(st, &st->cell_games, "SELECT game_index, result FROM games "
                "WHERE cell_id = ?1 AND game_index >= 0 AND game_index < ?2 "
                "ORDER BY game_index")
        || sqlite3_bind_int64(st->cell_games, 1, cell_id) != SQLITE_OK
        || sqlite3_bind_int(st->cell_games, 2, n) != SQLITE_OK)
        goto failed;
    while ((step = sqlite3_step(st->cell_games)) == SQLITE_ROW) {
        const char *result =
            (const char *)sqlite3_column_text(st->cell_games, 1);
        if (!result) /* NOT NULL in the schema: out of memory */
            goto failed;
        enum game_outcome outcome = strcmp(result, "seat0") == 0 ? GAME_WIN_SEAT0
                                    : strcmp(result, "seat1") == 0
                                        ? GAME_WIN_SEAT1
                                        : GAME_DRAW;
        int v = visit(arg, sqlite3_column_int(st->cell_games, 0), outcome);
        if (v != 0) {
            rc = v;
            goto done;
        }
    }
    if (step == SQLITE_DONE) {
        rc = 0;
        goto done;
    }
failed:
    if (err && errsz)
        snprintf(err, errsz, "reading the stored games of cell %lld: %s",
                 (long long)cell_id, sqlite3_errmsg(st->db));
done:
    if (st->cell_stop)
        sqlite3_reset(st->cell_stop);
    if (st->cell_games)
        sqlite3_reset(st->cell_games);
    return rc;
}

int store_insert_game(struct store *st, const struct game_record *g, char *err,
                      size_t errsz)
{
    static const char *const results[] = {NULL, "seat0", "seat1", "draw"};
    if (g->outcome != GAME_WIN_SEAT0 && g->outcome != GAME_WIN_SEAT1
        && g->outcome != GAME_DRAW) {
        snprintf(err, errsz, "storing game %d of cell %lld: it has not ended",
                 g->game_index, (long long)g->cell_id);
        return -1;
    }
    if (!st->in_transaction) {
        if (exec(st, "BEGIN IMMEDIATE", err, errsz))
            return -1;
        st->in_transaction = 1;
    }
    /* The conflict target is the one uniqueness a resumed game may meet;
     * a CHECK, NOT NULL or foreign-key violation is an error. */
    if (prepare(st, &st->insert_game, "INSERT INTO games (cell_id,"
                " game_index, seed, side0, side1, result, winner_seat, reason,"
                " plies, duration_ms, finished, moves) VALUES (?1, ?2, ?3, ?4,"
                " ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12) ON CONFLICT (cell_id,"
                " game_index) DO NOTHING"))
        return db_error(st->db, err, errsz, "preparing the game insert");
    if (time(NULL) != st->clock) {
        st->clock = time(NULL);
        now_text(st->now, sizeof st->now);
    }
    sqlite3_stmt *q = st->insert_game;
    int ok = sqlite3_bind_int64(q, 1, g->cell_id) == SQLITE_OK
             && sqlite3_bind_int(q, 2, g->game_index) == SQLITE_OK
             && sqlite3_bind_int64(q, 3, (int64_t)g->seed) == SQLITE_OK
             && sqlite3_bind_text(q, 4, g->side[0], -1, SQLITE_STATIC)
                    == SQLITE_OK
             && sqlite3_bind_text(q, 5, g->side[1], -1, SQLITE_STATIC)
                    == SQLITE_OK
             && sqlite3_bind_text(q, 6, results[g->outcome], -1,
                                  SQLITE_STATIC) == SQLITE_OK
             && (g->outcome == GAME_DRAW
                     ? sqlite3_bind_null(q, 7)
                     : sqlite3_bind_int(q, 7, g->outcome == GAME_WIN_SEAT0
                                                  ? 0 : 1)) == SQLITE_OK
             && sqlite3_bind_text(q, 8, end_reason_name(g->reason), -1,
                                  SQLITE_STATIC) == SQLITE_OK
             && sqlite3_bind_int(q, 9, g->plies) == SQLITE_OK
             && sqlite3_bind_double(q, 10, g->duration_ms) == SQLITE_OK
             && sqlite3_bind_text(q, 11, st->now, -1, SQLITE_STATIC)
                    == SQLITE_OK
             && sqlite3_bind_text(q, 12, g->moves, (int)g->moves_len,
                                  SQLITE_STATIC) == SQLITE_OK;
    if (!ok || sqlite3_step(q) != SQLITE_DONE) {
        char what[96];
        snprintf(what, sizeof what, "storing game %d of cell %lld",
                 g->game_index, (long long)g->cell_id);
        return db_error(st->db, err, errsz, what);
    }
    if (sqlite3_changes(st->db) == 0)
        return STORE_GAME_ALREADY;
    st->pending++;
    return 0;
}

int store_set_stopped(struct store *st, int64_t cell_id, int games)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(st->db, "UPDATE cells SET stopped_at = ?2 WHERE "
                           "id = ?1", -1, &q, NULL) != SQLITE_OK)
        return -1;
    int ok = sqlite3_bind_int64(q, 1, cell_id) == SQLITE_OK
             && sqlite3_bind_int(q, 2, games) == SQLITE_OK
             && sqlite3_step(q) == SQLITE_DONE && sqlite3_changes(st->db) == 1;
    sqlite3_finalize(q);
    return ok ? 0 : -1;
}

/* Adds the games of the open transaction to the run's count, in it. */
static int count_pending(struct store *st, char *err, size_t errsz)
{
    sqlite3_stmt *q;
    if (!st->run_id || !st->pending)
        return 0;
    if (sqlite3_prepare_v2(st->db, "UPDATE runs SET games = games + ?2 WHERE"
                           " id = ?1", -1, &q, NULL) != SQLITE_OK)
        return db_error(st->db, err, errsz, "counting the run's games");
    int ok = sqlite3_bind_int64(q, 1, st->run_id) == SQLITE_OK
             && sqlite3_bind_int64(q, 2, st->pending) == SQLITE_OK
             && sqlite3_step(q) == SQLITE_DONE;
    sqlite3_finalize(q);
    return ok ? 0 : db_error(st->db, err, errsz, "counting the run's games");
}

int store_commit(struct store *st, char *err, size_t errsz)
{
    if (!st->in_transaction)
        return 0;
    st->in_transaction = 0;
    if (count_pending(st, err, errsz) == 0
        && exec(st, "COMMIT", err, errsz) == 0) {
        st->committed += st->pending;
        st->pending = 0;
        return 0;
    }
    /* A failed COMMIT (a full disk) may leave the transaction open: end it,
     * so its games are neither counted nor half-kept. */
    if (!sqlite3_get_autocommit(st->db))
        sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
    st->pending = 0;
    return -1;
}

long store_games_committed(const struct store *st)
{
    return st->committed;
}

int store_end_run(struct store *st, const char *status)
{
    char now[32];
    now_text(now, sizeof now);
    sqlite3_stmt *q;
    if (store_commit(st, NULL, 0)
        || sqlite3_prepare_v2(st->db, "UPDATE runs SET ended = ?2, status = "
                              "?3 WHERE id = ?1", -1, &q, NULL) != SQLITE_OK)
        return -1;
    int ok = sqlite3_bind_int64(q, 1, st->run_id) == SQLITE_OK
             && sqlite3_bind_text(q, 2, now, -1, SQLITE_TRANSIENT) == SQLITE_OK
             && sqlite3_bind_text(q, 3, status, -1, SQLITE_STATIC) == SQLITE_OK
             && sqlite3_step(q) == SQLITE_DONE;
    sqlite3_finalize(q);
    return ok ? 0 : -1;
}
