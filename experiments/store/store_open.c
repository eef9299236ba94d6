/*
 * store_open.c -- opening the results database for reading or writing,
 * the schema and its migration chain, and closing it. (store.c registers
 * runs and writes games; store_internal.h is what the two share.)
 *
 * The schema is a numbered chain: meta.schema_version says which migrations
 * a database has had, and opening it for writing runs the rest in order,
 * each in its own transaction with the version bump, so a database made by
 * any earlier rulelab is brought up to date without losing a row. Readers
 * (report, export, replay) change nothing: they refuse a version other
 * than this program's, naming both and what to do. A reader in a folder it
 * cannot write opens the database as immutable when no write-ahead log
 * holds data (results/README.md).
 *
 * A writer's connection is in WAL mode with synchronous=FULL: store.c says
 * what that makes a crash or a power cut lose.
 */
#include "store.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store_internal.h"

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

/* Version 3: varied openings (sweep key `openings`): each game's opening
 * apart from the agents' moves, its game pair, and each cell's setting.
 * Every row before it was played from the variant's start. */
static const char *const to_version_3[] = {
    "ALTER TABLE games ADD COLUMN opening TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE games ADD COLUMN opening_position TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE games ADD COLUMN pair_id INTEGER",
    "ALTER TABLE cells ADD COLUMN openings TEXT NOT NULL DEFAULT ''",
    "DROP VIEW game_view",
    "CREATE VIEW game_view AS SELECT"
    " g.id, s.name AS sweep, s.seed AS sweep_seed, v.game, v.canonical AS variant,"
    " c.agent0_name, c.agent1_name, a0.spec AS agent0, a1.spec AS agent1,"
    " g.cell_id, g.game_index, g.seed, g.side0, g.side1, g.result, g.winner_seat,"
    " g.reason, g.plies, g.duration_ms, g.finished, g.moves,"
    " g.opening_position, g.opening, g.pair_id, c.openings"
    " FROM games g JOIN cells c ON c.id = g.cell_id"
    " JOIN sweeps s ON s.id = c.sweep_id JOIN variants v ON v.id = c.variant_id"
    " JOIN agents a0 ON a0.id = c.agent0_id JOIN agents a1 ON a1.id = c.agent1_id",
    NULL};

/* Version 4: provenance, for shards and merge. Each run records the
 * shard it played (K of N; NULL: the whole sweep) and a unique id `uid`
 * that stays the same when `rulelab merge` copies the run to another
 * database (`source` then names the database it came from; NULL: played
 * here); each game records the run that stored it. Games stored before
 * version 4 keep run_id NULL (which run played them was not recorded),
 * and runs before it get a random uid. `merges` is merge's record of the
 * databases merged into this one (merge.h). */
static const char *const to_version_4[] = {
    "ALTER TABLE runs ADD COLUMN shard_index INTEGER",
    "ALTER TABLE runs ADD COLUMN shard_count INTEGER",
    "ALTER TABLE runs ADD COLUMN uid TEXT",
    "UPDATE runs SET uid = lower(hex(randomblob(16)))",
    "CREATE UNIQUE INDEX runs_uid ON runs (uid)",
    "ALTER TABLE runs ADD COLUMN source TEXT",
    "ALTER TABLE games ADD COLUMN run_id INTEGER REFERENCES runs(id)",
    "CREATE TABLE merges (source TEXT PRIMARY KEY, marker TEXT NOT NULL,"
    " merged TEXT NOT NULL)",
    NULL};

/* Version 5: per-move search figures and cached game metrics.
 * move_stats holds, for a game of a sweep with `record = search`, what the
 * mover's agent reported for each of the agents' plies (from 0, the
 * opening's not counted) where it searched: its iterations, the nodes of
 * its tree or search, the depth reached, the chosen move's value for the
 * mover (0..1) and whether the search proved it (+1 win, -1 loss, 0 not).
 * game_metrics caches what `rulelab metrics` computes by replaying a
 * game: the positions the agents moved from and the sum of their legal
 * move counts (the branching factor is their quotient), with the game's
 * engine behaviour version it was computed under. */
static const char *const to_version_5[] = {
    "CREATE TABLE move_stats (game_id INTEGER NOT NULL REFERENCES games(id),"
    " ply INTEGER NOT NULL, iterations INTEGER NOT NULL, nodes INTEGER NOT"
    " NULL, depth INTEGER NOT NULL, value REAL NOT NULL, proven INTEGER NOT"
    " NULL, PRIMARY KEY (game_id, ply)) WITHOUT ROWID",
    "CREATE TABLE game_metrics (game_id INTEGER PRIMARY KEY REFERENCES"
    " games(id), positions INTEGER NOT NULL, legal_moves INTEGER NOT NULL,"
    " engine_behaviour INTEGER NOT NULL)",
    NULL};

/* Version 6: evaluation weights fitted by `rulelab tune --save`, one row
 * per variant tuned: when, on what (the sweep, or NULL for every game of
 * the variant; training and held-out positions, games), the held-out
 * log-loss of the hand-set and the fitted weights (NULL without held-out
 * positions), both weight lists as "name=value,..." in the evaluation's
 * order, and the fitted agent spec. */
static const char *const to_version_6[] = {
    "CREATE TABLE tunings (id INTEGER PRIMARY KEY, variant_id INTEGER NOT"
    " NULL REFERENCES variants(id), sweep TEXT, created TEXT NOT NULL,"
    " positions INTEGER NOT NULL, held_out INTEGER NOT NULL, games INTEGER"
    " NOT NULL, loss_hand REAL, loss_fitted REAL, hand_weights TEXT NOT"
    " NULL, fitted_weights TEXT NOT NULL, spec TEXT NOT NULL, UNIQUE"
    " (variant_id, created, fitted_weights))",
    NULL};

/* Version 7: columns for what two columns carried overloaded or not at
 * all. A claim's certificate gets its own columns: certificate_sha256
 * (64 hex digits) and certificate (its file, as the claim wrote it:
 * DIR/<hex>.proof or .disproof); before, `proof` held both as
 * "sha256:<hex> <file>", which this moves out, leaving `proof` to the
 * proof texts the first claims kept in the row. A run of a shard gets
 * `deal`, the fingerprint of the games its shard plays (shard.h), so a
 * shard is not resumed under another deal; runs before it have none. */
static const char *const to_version_7[] = {
    "ALTER TABLE claims ADD COLUMN certificate_sha256 TEXT",
    "ALTER TABLE claims ADD COLUMN certificate TEXT",
    "UPDATE claims SET certificate_sha256 = substr(proof, 8, 64),"
    " certificate = substr(proof, 73), proof = NULL"
    " WHERE proof GLOB 'sha256:*' AND substr(proof, 72, 1) = ' '"
    " AND length(proof) > 72",
    "ALTER TABLE runs ADD COLUMN deal TEXT",
    NULL};

/* The chain: migrations[i] takes a database from version i to i + 1. A
 * later change appends a migration and bumps STORE_SCHEMA_VERSION; it never
 * edits one already released (tests/fixtures/ holds databases made before
 * each, and every migration is tested on them). */
static const char *const *const migrations[] = {
    to_version_1, to_version_2, to_version_3, to_version_4, to_version_5,
    to_version_6, to_version_7};

_Static_assert(sizeof migrations / sizeof migrations[0] == STORE_SCHEMA_VERSION,
               "one migration per schema version");

/* store_internal.h */
int store_error(sqlite3 *db, char *err, size_t errsz, const char *what)
{
    if (err && errsz)
        snprintf(err, errsz, "%s: %s", what, db ? sqlite3_errmsg(db) : "?");
    return -1;
}

/* store_internal.h */
void store_rollback(struct store *st, char *err, size_t errsz)
{
    if (sqlite3_get_autocommit(st->db))
        return;
    if (sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL) != SQLITE_OK
        && err && errsz) {
        size_t len = strlen(err);
        if (len < errsz - 1)
            snprintf(err + len, errsz - len, " (and the rollback failed: %s)",
                     sqlite3_errmsg(st->db));
    }
}

/* store_internal.h */
int store_exec(struct store *st, const char *sql, char *err, size_t errsz)
{
    if (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return store_error(st->db, err, errsz, sql);
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
        if (store_exec(st, "BEGIN IMMEDIATE", err, errsz))
            goto fail;
        if (read_version(st->db, path, &version, err, errsz))
            goto fail;
        if (version > STORE_SCHEMA_VERSION) {
            version_error(path, version, err, errsz);
            goto fail;
        }
        if (version >= to) {
            if (store_exec(st, "COMMIT", err, errsz))
                goto fail;
            continue;
        }
        for (const char *const *sql = migrations[to - 1]; *sql; sql++)
            if (store_exec(st, *sql, err, errsz))
                goto fail;
        char bump[160];
        snprintf(bump, sizeof bump, "INSERT INTO meta (key, value) VALUES "
                 "('schema_version', '%d') ON CONFLICT (key) DO UPDATE SET "
                 "value = excluded.value", to);
        if (store_exec(st, bump, err, errsz)
            || store_exec(st, "COMMIT", err, errsz))
            goto fail;
    }
    return 0;
fail:
    store_rollback(st, err, errsz);
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

int store_reader_needs_immutable(const char *path)
{
    return may_open_immutable(path);
}

/* store_open_immutable (store.h): the URI with path's characters outside
 * [A-Za-z0-9/._~-] percent-encoded. */
int store_open_immutable(const char *path, sqlite3 **db)
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
        return store_error(st->db, err, errsz, path);
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
        if (store_open_immutable(path, &st->db) != SQLITE_OK
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

/* Before a writer changes anything (WAL mode, page size, migrations):
 * an existing, non-empty file at path must read as a rulelab database
 * this program can write (empty, or a schema version up to its own), so a
 * file that is refused is left exactly as it was. Returns 0, or -1 with a
 * message. */
static int check_before_writing(const char *path, char *err, size_t errsz)
{
    struct stat sb;
    if (stat(path, &sb) != 0 || sb.st_size == 0)
        return 0;
    if (!folder_writable(path) || access(path, W_OK) != 0) {
        snprintf(err, errsz, "%s cannot be written here (it is read-only, "
                 "or in a folder this process cannot write, and a writer "
                 "needs its -wal and -shm files beside it): make both "
                 "writable, or copy it to a folder you can write", path);
        return -1;
    }
    sqlite3 *db = NULL;
    int version = 0, rc;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK)
        rc = read_version(db, path, &version, err, errsz);
    else
        rc = store_error(db, err, errsz, path);
    sqlite3_close(db);
    if (rc == 0 && version > STORE_SCHEMA_VERSION)
        rc = version_error(path, version, err, errsz);
    return rc;
}

int store_check_intact(const char *path, char *err, size_t errsz)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *q = NULL;
    int rc = -1;
    int opened = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL)
                 == SQLITE_OK;
    if (!opened) { /* a folder it cannot write: read the file as it is */
        sqlite3_close(db);
        db = NULL;
        opened = store_open_immutable(path, &db) == SQLITE_OK;
    }
    if (!opened
        || sqlite3_prepare_v2(db, "PRAGMA quick_check(1)", -1, &q, NULL)
               != SQLITE_OK
        || sqlite3_step(q) != SQLITE_ROW) {
        snprintf(err, errsz, "%s cannot be checked (%s): it is damaged or no "
                 "database; nothing was written to it. Restore it from a "
                 "copy, or recover its rows with `sqlite3 %s .recover`",
                 path, db ? sqlite3_errmsg(db) : "out of memory", path);
        goto done;
    }
    const char *text = (const char *)sqlite3_column_text(q, 0);
    char said[201];
    snprintf(said, sizeof said, "%s", text ? text : "no answer");
    for (char *c = said; *c; c++)
        if (*c == '\n')
            *c = ' '; /* one line */
    if (strcmp(said, "ok") != 0) {
        snprintf(err, errsz, "%s is damaged (SQLite's quick_check: %s); "
                 "nothing was written to it. Restore it from a copy, or "
                 "recover its rows with `sqlite3 %s .recover`", path, said,
                 path);
        goto done;
    }
    rc = 0;
done:
    sqlite3_finalize(q);
    sqlite3_close(db);
    return rc;
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
    if (check_before_writing(path, err, errsz) != 0)
        return -1;
    if (sqlite3_open_v2(path, &st->db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL)
        != SQLITE_OK)
        return store_error(st->db, err, errsz, path);
    sqlite3_busy_timeout(st->db, 30000);
    if (store_exec(st, "PRAGMA page_size = 16384", err, errsz)
        || store_exec(st, "PRAGMA journal_mode = WAL", err, errsz)
        || store_exec(st, "PRAGMA synchronous = FULL", err, errsz)
        || store_exec(st, "PRAGMA cache_size = -32768", err, errsz)
        || store_exec(st, "PRAGMA foreign_keys = ON", err, errsz))
        return -1;
    return migrate(st, path, err, errsz);
}

int store_open(const char *path, int readonly, struct store **out, char *err,
               size_t errsz)
{
    struct store *st = calloc(1, sizeof *st);
    int rc = -1;
    *out = NULL;
    if (st)
        st->lock_fd = -1; /* before anything store_close could see */
    if (!st || !(st->path = strdup(path))) {
        snprintf(err, errsz, "out of memory");
        goto done;
    }
    st->readonly = readonly;
    if ((readonly ? open_reader(st, path, err, errsz)
                  : open_writer(st, path, err, errsz)) != 0)
        goto done;
    sqlite3_busy_timeout(st->db, 30000);
    *out = st;
    rc = 0;
done:
    if (rc)
        store_close(st);
    return rc;
}

int store_schema_version(const char *path, int *version, char *err,
                         size_t errsz)
{
    sqlite3 *db = NULL;
    int rc = -1;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        store_error(db, err, errsz, path);
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
    sqlite3_finalize(st->insert_move_stats);
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
