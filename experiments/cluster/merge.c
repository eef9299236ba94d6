/*
 * merge.c -- copying the rows of results databases into one (merge.h says
 * what is matched, refused and skipped).
 *
 * Set-based: each input is ATTACHed read-only as `src` to a connection on
 * OUT, and each table is copied by one INSERT ... SELECT that maps the
 * input's ids to OUT's through small temporary tables (map_sweep,
 * map_variant, map_agent, map_cell, map_run), built from the natural keys.
 * The checks are SELECTs of the first offending row, run before the
 * inserts, all in the input's one transaction: so a refused input adds
 * nothing, and what is read is one snapshot of it.
 *
 * OUT is opened twice: once through the store (which creates it, brings
 * its schema up to date and holds its writer lock, so no `rulelab run`
 * writes it meanwhile), and once here with URI names allowed, which the
 * read-only ATTACH needs (`file:PATH?mode=ro`: a missing input is an
 * error, never created; closing never checkpoints an input's log).
 */
/* realpath (the key of an input in `merges`) is XSI */
#define _XOPEN_SOURCE 700

#include "merge.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "outfile.h"
#include "store.h"

const char *const merge_tables[] = {"meta",   "sweeps", "runs",
                                    "variants", "agents", "cells",
                                    "games",  "claims", "move_stats",
                                    "game_metrics", "tunings", NULL};

/* The game columns whose content a shard and a one-machine run share. */
#define GAME_CONTENT_DIFFERS                                                 \
    "o.seed IS NOT g.seed OR o.side0 IS NOT g.side0 OR o.side1 IS NOT"      \
    " g.side1 OR o.result IS NOT g.result OR o.winner_seat IS NOT"          \
    " g.winner_seat OR o.reason IS NOT g.reason OR o.plies IS NOT g.plies"  \
    " OR o.moves IS NOT g.moves OR o.opening IS NOT g.opening OR"           \
    " o.opening_position IS NOT g.opening_position OR o.pair_id IS NOT"     \
    " g.pair_id"

/* One merge: the connection on OUT and the names errors use. */
struct merge {
    sqlite3 *db;
    const char *out; /* OUT's path as given */
    const char *in; /* the input being merged, as given */
    char in_real[PATH_MAX]; /* its real path: its key in `merges` */
    char *err;
    size_t errsz;
};

/* Writes "merging IN into OUT: WHAT: the connection's error" to m->err
 * (WHAT cut to its first words when it is a long statement: the user
 * needs the file and the error, not the SQL); returns -1. */
static int db_error(struct merge *m, const char *what)
{
    int code = sqlite3_errcode(m->db);
    const char *hint = code == SQLITE_CORRUPT || code == SQLITE_NOTADB
                       ? " (a file is damaged: check each with `sqlite3 FILE "
                         "'PRAGMA integrity_check'`)" : "";
    snprintf(m->err, m->errsz, "merging %s into %s: %.60s%s: %s%s", m->in,
             m->out, what, strlen(what) > 60 ? "..." : "",
             sqlite3_errmsg(m->db), hint);
    return -1;
}

/* Runs sql (no parameters, no rows). Returns 0, or -1 with a message. */
static int exec(struct merge *m, const char *sql)
{
    if (sqlite3_exec(m->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return db_error(m, sql);
    return 0;
}

/* Prepares sql with the texts t[0..n-1] bound to ?1..?n. Returns the
 * statement, or NULL with a message. */
static sqlite3_stmt *prepare(struct merge *m, const char *sql,
                             const char *const *t, int n)
{
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(m->db, sql, -1, &q, NULL) != SQLITE_OK) {
        db_error(m, sql);
        sqlite3_finalize(q);
        return NULL;
    }
    for (int i = 0; i < n; i++)
        if (sqlite3_bind_text(q, i + 1, t[i], -1, SQLITE_STATIC) != SQLITE_OK) {
            db_error(m, sql);
            sqlite3_finalize(q);
            return NULL;
        }
    return q;
}

/* Runs sql with texts bound and no rows expected; *changes (when not
 * NULL) gets the rows it changed. Returns 0, or -1 with a message. */
static int exec_bound(struct merge *m, const char *sql, const char *const *t,
                      int n, long *changes)
{
    sqlite3_stmt *q = prepare(m, sql, t, n);
    if (!q)
        return -1;
    int step = sqlite3_step(q);
    sqlite3_finalize(q);
    if (step != SQLITE_DONE)
        return db_error(m, sql);
    if (changes)
        *changes = sqlite3_changes(m->db);
    return 0;
}

/* Writes the input's path as a read-only URI (characters outside
 * [A-Za-z0-9/._~-] percent-encoded; immutable where its folder cannot be
 * written and no log holds data) into buf. Returns 0, or -1 when it
 * does not fit. */
static int readonly_uri(const char *path, char *buf, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t len = (size_t)snprintf(buf, n, "file:");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (len + 4 >= n)
            return -1;
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')
            || (*p >= '0' && *p <= '9') || strchr("/._~-", *p)) {
            buf[len++] = (char)*p;
        } else {
            buf[len++] = '%';
            buf[len++] = hex[*p >> 4];
            buf[len++] = hex[*p & 15];
        }
    }
    /* in a folder it cannot write, a reader gets no -shm file: with no log
     * holding data the file is read as immutable (store.h) */
    const char *mode = store_reader_needs_immutable(path) ? "?immutable=1"
                                                          : "?mode=ro";
    return snprintf(buf + len, n - len, "%s", mode) < (int)(n - len) ? 0 : -1;
}

/* The first row of a check that must find none: its columns joined by
 * " | " into buf (n bytes). Returns 1 when a row was found, 0 when none,
 * -1 with a message. */
static int first_row(struct merge *m, const char *sql, char *buf, size_t n)
{
    sqlite3_stmt *q = prepare(m, sql, NULL, 0);
    if (!q)
        return -1;
    int step = sqlite3_step(q), found = step == SQLITE_ROW;
    if (found) {
        size_t len = 0;
        buf[0] = '\0';
        for (int i = 0; i < sqlite3_column_count(q) && len < n; i++) {
            const unsigned char *t = sqlite3_column_text(q, i);
            len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? "\t" : "",
                                    t ? (const char *)t : "NULL");
        }
    }
    sqlite3_finalize(q);
    if (!found && step != SQLITE_DONE)
        return db_error(m, sql);
    return found;
}

/* Splits the tab-separated row into at most n fields (in place). */
static void split_row(char *row, char **field, int n)
{
    for (int i = 0; i < n; i++) {
        field[i] = row;
        char *tab = row ? strchr(row, '\t') : NULL;
        if (tab)
            *tab = '\0';
        row = tab ? tab + 1 : NULL;
        if (!field[i])
            field[i] = "";
    }
}

/* Writes a seed key (variant, seat 0 and seat 1 identities, and maybe
 * "openings=..." on lines) as "VARIANT, SEAT0 vs SEAT1[, openings=...]"
 * into out, for a message. */
static void key_for_message(const char *key, char *out, size_t n)
{
    static const char *const sep[] = {", ", " vs ", ", "};
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; key && len < n; i++) {
        size_t w = strcspn(key, "\n");
        len += (size_t)snprintf(out + len, n - len, "%s%.*s",
                                i ? sep[i < 3 ? i - 1 : 2] : "", (int)w, key);
        key = key[w] ? key + w + 1 : NULL;
    }
}

/* The input's content marker (merge.h) into buf. Returns 0 or -1. */
static int read_marker(struct merge *m, char *buf, size_t n)
{
    static const char sql[] =
        "SELECT (SELECT COUNT(*) || ':' || IFNULL(MAX(id), 0) FROM src.games)"
        " || '|' || (SELECT COUNT(*) || ':' || IFNULL(MAX(id), 0) FROM"
        " src.claims) || '|' || (SELECT COUNT(*) || ':' || IFNULL(MAX(id), 0)"
        " || ':' || IFNULL(SUM(IFNULL(stopped_at, -1) * (id % 9973 + 1)), 0)"
        " FROM src.cells) || '|' || (SELECT COUNT(*) || ':' ||"
        " IFNULL(group_concat(uid || '/' || status || '/' || games || '/' ||"
        " IFNULL(ended, ''), ','), '') FROM (SELECT * FROM src.runs ORDER BY"
        " id)) || '|' || (SELECT COUNT(*) || ':' || IFNULL(MAX(id), 0) FROM"
        " src.sweeps) || '|' || (SELECT COUNT(*) FROM src.variants) || ':' ||"
        " (SELECT COUNT(*) FROM src.agents) || ':' || (SELECT COUNT(*) FROM"
        " src.meta) || '|' || IFNULL((SELECT game_id || '/' || ply FROM"
        " src.move_stats ORDER BY game_id DESC, ply DESC LIMIT 1), '') || ':' ||"
        " (SELECT COUNT(*) || ':' || IFNULL(MAX(game_id), 0) || ':' ||"
        " IFNULL(SUM(engine_behaviour), 0) FROM src.game_metrics) || '|' ||"
        " (SELECT COUNT(*) || ':' || IFNULL(MAX(id), 0) FROM src.tunings)";
    int found = first_row(m, sql, buf, n);
    if (found < 0)
        return -1;
    if (!found)
        return db_error(m, "reading its content marker");
    return 0;
}

/* Whether the input was merged before with this marker: 1 yes, 0 no, -1
 * error. */
static int marker_unchanged(struct merge *m, const char *marker)
{
    const char *t[] = {m->in_real, marker};
    sqlite3_stmt *q = prepare(m, "SELECT 1 FROM main.merges WHERE source ="
                              " ?1 AND marker = ?2", t, 2);
    if (!q)
        return -1;
    int step = sqlite3_step(q);
    sqlite3_finalize(q);
    if (step != SQLITE_ROW && step != SQLITE_DONE)
        return db_error(m, "reading merges");
    return step == SQLITE_ROW;
}

/* Refuses an input whose schema version is not this program's, or that
 * holds a table merge does not know. */
static int check_schema(struct merge *m)
{
    char row[512];
    int found = first_row(m, "SELECT COUNT(*) FROM src.sqlite_master WHERE "
                          "type = 'table' AND name = 'meta'", row, sizeof row);
    if (found < 0)
        return -1;
    if (atoi(row) == 0) {
        snprintf(m->err, m->errsz, "%s is not a rulelab results database (it "
                 "has no meta table%s): nothing was merged from it", m->in,
                 first_row(m, "SELECT 1 FROM src.sqlite_master", row,
                           sizeof row) == 0 ? "; it is empty" : "");
        return -1;
    }
    found = first_row(m, "SELECT value FROM src.meta WHERE key ="
                      " 'schema_version'", row, sizeof row);
    if (found < 0)
        return -1;
    int version = found ? atoi(row) : 0;
    if (version > STORE_SCHEMA_VERSION) {
        snprintf(m->err, m->errsz, "%s has schema version %d, newer than this "
                 "rulelab's %d: merge it with the rulelab that wrote it, or "
                 "a newer one", m->in, version, STORE_SCHEMA_VERSION);
        return -1;
    }
    if (version != STORE_SCHEMA_VERSION) {
        snprintf(m->err, m->errsz, "%s has schema version %s, and merge "
                 "reads only this rulelab's %d: upgrade it first with "
                 "`rulelab migrate %s`", m->in, found ? row : "(none)",
                 STORE_SCHEMA_VERSION, m->in);
        return -1;
    }
    char sql[512];
    size_t len = (size_t)snprintf(sql, sizeof sql, "SELECT name FROM"
                                  " src.sqlite_master WHERE type = 'table'"
                                  " AND name NOT LIKE 'sqlite_%%' AND name"
                                  " NOT IN ('merges'");
    for (int i = 0; merge_tables[i]; i++)
        len += (size_t)snprintf(sql + len, sizeof sql - len, ", '%s'",
                                merge_tables[i]);
    snprintf(sql + len, sizeof sql - len, ")");
    if ((found = first_row(m, sql, row, sizeof row)) != 0) {
        if (found > 0)
            snprintf(m->err, m->errsz, "%s holds a table %s that merge does "
                     "not know how to copy", m->in, row);
        return -1;
    }
    return 0;
}

/* Sweeps: a name and seed already in OUT must have the same file text. */
static int merge_sweeps(struct merge *m)
{
    char row[1024], *f[3];
    int found = first_row(m, "SELECT s.name, s.seed, IFNULL((SELECT"
                          " r.source FROM main.runs r WHERE r.sweep_id = o.id"
                          " AND r.source IS NOT NULL ORDER BY r.id LIMIT 1),"
                          " '') FROM src.sweeps s JOIN main.sweeps o ON"
                          " o.name = s.name AND o.seed = s.seed WHERE"
                          " o.file_text <> s.file_text LIMIT 1", row,
                          sizeof row);
    if (found) {
        if (found > 0) {
            split_row(row, f, 3);
            snprintf(m->err, m->errsz, "sweep %s (seed %s): its file text "
                     "in %s differs from the one in %s%s%s: two sweeps of "
                     "one name and seed must be one sweep file (give one a "
                     "new name or seed); nothing of %s merged", f[0], f[1],
                     m->in, m->out, f[2][0] ? ", merged from " : "", f[2],
                     m->in);
        }
        return -1;
    }
    return exec(m, "INSERT INTO main.sweeps (name, seed, file_text, created)"
                " SELECT name, seed, file_text, created FROM src.sweeps"
                " WHERE true ON CONFLICT (name, seed) DO NOTHING")
           || exec(m, "DELETE FROM temp.map_sweep")
           || exec(m, "INSERT INTO temp.map_sweep SELECT s.id, o.id FROM"
                   " src.sweeps s JOIN main.sweeps o ON o.name = s.name AND"
                   " o.seed = s.seed");
}

/* Variants and agents, by identity. */
static int merge_variants_agents(struct merge *m)
{
    return exec(m, "INSERT INTO main.variants (game, canonical, identity)"
                " SELECT game, canonical, identity FROM src.variants WHERE"
                " true ON CONFLICT DO NOTHING")
           || exec(m, "INSERT INTO main.agents (spec, identity) SELECT spec,"
                   " identity FROM src.agents WHERE true ON CONFLICT DO"
                   " NOTHING")
           || exec(m, "DELETE FROM temp.map_variant")
           || exec(m, "INSERT INTO temp.map_variant SELECT s.id, o.id FROM"
                   " src.variants s JOIN main.variants o ON o.identity ="
                   " s.identity")
           || exec(m, "DELETE FROM temp.map_agent")
           || exec(m, "INSERT INTO temp.map_agent SELECT s.id, o.id FROM"
                   " src.agents s JOIN main.agents o ON o.identity ="
                   " s.identity");
}

/* Cells, by sweep and seed key: early stops must agree where both have
 * one, and behaviour versions where both hold games of the cell. */
static int merge_cells(struct merge *m)
{
    if (exec(m, "INSERT INTO main.cells (sweep_id, variant_id, agent0_id,"
             " agent1_id, agent0_name, agent1_name, games_planned,"
             " stopped_at, seed_key, game_behaviour, agent0_behaviour,"
             " agent1_behaviour, openings) SELECT ms.out, mv.out, ma0.out,"
             " ma1.out, c.agent0_name, c.agent1_name, c.games_planned,"
             " c.stopped_at, c.seed_key, c.game_behaviour,"
             " c.agent0_behaviour, c.agent1_behaviour, c.openings FROM"
             " src.cells c JOIN temp.map_sweep ms ON ms.src = c.sweep_id"
             " JOIN temp.map_variant mv ON mv.src = c.variant_id JOIN"
             " temp.map_agent ma0 ON ma0.src = c.agent0_id JOIN"
             " temp.map_agent ma1 ON ma1.src = c.agent1_id WHERE true"
             " ON CONFLICT DO NOTHING")
        || exec(m, "DELETE FROM temp.map_cell")
        || exec(m, "INSERT INTO temp.map_cell SELECT c.id, o.id FROM"
                " src.cells c JOIN temp.map_sweep ms ON ms.src = c.sweep_id"
                " JOIN main.cells o ON o.sweep_id = ms.out AND o.seed_key ="
                " c.seed_key"))
        return -1;
    char row[4096], *f[4];
    /* a cell OUT holds under the same variant and agents but another seed
     * key would leave this one unmapped, and its games behind */
    int found = first_row(m, "SELECT seed_key FROM src.cells WHERE id NOT IN"
                          " (SELECT src FROM temp.map_cell) LIMIT 1", row,
                          sizeof row);
    if (found) {
        if (found > 0) {
            char cell[4096];
            key_for_message(row, cell, sizeof cell);
            snprintf(m->err, m->errsz, "cell %s of %s: %s holds its variant "
                     "and agents in its sweep under another seed key; "
                     "nothing of %s merged", cell, m->in, m->out, m->in);
        }
        return -1;
    }
    found = first_row(
        m, "SELECT c.seed_key, c.stopped_at, o.stopped_at, CASE WHEN"
        " c.stopped_at IS NOT NULL AND o.stopped_at IS NOT NULL AND"
        " c.stopped_at <> o.stopped_at THEN 'stop' ELSE 'behaviour' END FROM"
        " src.cells c JOIN temp.map_cell mc ON mc.src = c.id JOIN main.cells"
        " o ON o.id = mc.out WHERE (c.stopped_at IS NOT NULL AND"
        " o.stopped_at IS NOT NULL AND c.stopped_at <> o.stopped_at) OR"
        " ((c.game_behaviour, c.agent0_behaviour, c.agent1_behaviour) IS NOT"
        " (o.game_behaviour, o.agent0_behaviour, o.agent1_behaviour) AND"
        " EXISTS (SELECT 1 FROM src.games WHERE cell_id = c.id) AND EXISTS"
        " (SELECT 1 FROM main.games WHERE cell_id = o.id)) LIMIT 1",
        row, sizeof row);
    if (found) {
        if (found > 0) {
            char cell[4096];
            split_row(row, f, 4);
            key_for_message(f[0], cell, sizeof cell);
            if (strcmp(f[3], "stop") == 0)
                snprintf(m->err, m->errsz, "cell %s: %s says an early stop "
                         "ended it after %s games, %s after %s: they are "
                         "not one run of one sweep; nothing of %s merged",
                         cell, m->in, f[1], m->out, f[2], m->in);
            else
                snprintf(m->err, m->errsz, "cell %s: %s and %s hold games "
                         "of it played by different behaviour versions of "
                         "its game or agents, which must not mix in one "
                         "cell; nothing of %s merged", cell, m->in, m->out,
                         m->in);
        }
        return -1;
    }
    /* a stop only the input knows; versions where only it holds games */
    return exec(m, "UPDATE main.cells SET stopped_at = c.stopped_at FROM"
                " temp.map_cell mc JOIN src.cells c ON c.id = mc.src WHERE"
                " main.cells.id = mc.out AND main.cells.stopped_at IS NULL"
                " AND c.stopped_at IS NOT NULL")
           || exec(m, "UPDATE main.cells SET game_behaviour ="
                   " c.game_behaviour, agent0_behaviour = c.agent0_behaviour,"
                   " agent1_behaviour = c.agent1_behaviour FROM temp.map_cell"
                   " mc JOIN src.cells c ON c.id = mc.src WHERE"
                   " main.cells.id = mc.out AND NOT EXISTS (SELECT 1 FROM"
                   " main.games WHERE cell_id = mc.out) AND EXISTS (SELECT 1"
                   " FROM src.games WHERE cell_id = c.id)");
}

/* Runs, by uid: a run seen before gets its later status, end and count. */
static int merge_runs(struct merge *m)
{
    const char *t[] = {m->in};
    return exec_bound(m, "INSERT INTO main.runs (sweep_id, program_version,"
                      " host, threads, started, ended, games, status,"
                      " behaviour, shard_index, shard_count, uid, source,"
                      " deal) SELECT ms.out, r.program_version, r.host,"
                      " r.threads, r.started, r.ended, r.games, r.status,"
                      " r.behaviour, r.shard_index, r.shard_count, r.uid,"
                      " IFNULL(r.source, ?1), r.deal FROM src.runs r JOIN"
                      " temp.map_sweep ms ON ms.src = r.sweep_id WHERE true"
                      " ON CONFLICT (uid) DO UPDATE"
                      " SET ended = excluded.ended, games = excluded.games,"
                      " status = excluded.status", t, 1, NULL)
           || exec(m, "DELETE FROM temp.map_run")
           || exec(m, "INSERT INTO temp.map_run SELECT r.id, o.id FROM"
                   " src.runs r JOIN main.runs o ON o.uid = r.uid");
}

/* Games, by cell and index: one OUT holds already must have the same
 * content (GAME_CONTENT_DIFFERS); the others are added. */
static int merge_games(struct merge *m, struct merge_input_result *res)
{
    char row[8192], *f[6];
    int found = first_row(
        m, "SELECT g.game_index, c.seed_key, s.name, s.seed, IFNULL((SELECT"
        " source FROM main.runs WHERE id = o.run_id), ''), CASE WHEN o.seed"
        " IS NOT g.seed THEN 'seed' WHEN o.result IS NOT g.result OR"
        " o.winner_seat IS NOT g.winner_seat THEN 'result' WHEN o.moves IS"
        " NOT g.moves THEN 'moves' ELSE 'sides, reason, plies or opening'"
        " END FROM src.games g JOIN temp.map_cell mc ON mc.src = g.cell_id"
        " JOIN main.games o ON o.cell_id = mc.out AND o.game_index ="
        " g.game_index JOIN src.cells c ON c.id = g.cell_id JOIN src.sweeps"
        " s ON s.id = c.sweep_id WHERE " GAME_CONTENT_DIFFERS " LIMIT 1",
        row, sizeof row);
    if (found) {
        if (found > 0) {
            char cell[4096];
            split_row(row, f, 6);
            key_for_message(f[1], cell, sizeof cell);
            snprintf(m->err, m->errsz, "%s and %s hold game %s of cell %s "
                     "(sweep %s, seed %s) with different content (its %s "
                     "differ): one of them was not played by this sweep as "
                     "the other was; nothing of %s merged", m->in,
                     f[4][0] ? f[4] : m->out, f[0], cell, f[2], f[3], f[5],
                     m->in);
        }
        return -1;
    }
    if (exec_bound(m, "INSERT INTO main.games (cell_id, game_index, seed,"
                   " side0, side1, result, winner_seat, reason, plies,"
                   " duration_ms, finished, moves, opening,"
                   " opening_position, pair_id, run_id) SELECT mc.out,"
                   " g.game_index, g.seed, g.side0, g.side1, g.result,"
                   " g.winner_seat, g.reason, g.plies, g.duration_ms,"
                   " g.finished, g.moves, g.opening, g.opening_position,"
                   " g.pair_id, mr.out FROM src.games g JOIN temp.map_cell mc"
                   " ON mc.src = g.cell_id LEFT JOIN temp.map_run mr ON"
                   " mr.src = g.run_id WHERE true ON CONFLICT (cell_id,"
                   " game_index) DO NOTHING", NULL, 0, &res->games_added))
        return -1;
    int has = first_row(m, "SELECT COUNT(*) FROM src.games", row, sizeof row);
    if (has < 0)
        return -1;
    res->games_in = atol(row);
    return 0;
}

/* Claims, by their game (cell and index; none for a claim on a position
 * of its own) and question; one OUT holds already is kept. Then meta. */
static int merge_claims_meta(struct merge *m)
{
    return exec(m, "INSERT INTO main.claims (game_id, ply, variant, position,"
                " question, plies, node_budget, answer, nodes, seconds, pv,"
                " proof, created, certificate_sha256, certificate) SELECT"
                " og.id, cl.ply, cl.variant, cl.position, cl.question,"
                " cl.plies, cl.node_budget, cl.answer, cl.nodes, cl.seconds,"
                " cl.pv, cl.proof, cl.created, cl.certificate_sha256,"
                " cl.certificate FROM src.claims cl LEFT JOIN src.games g ON"
                " g.id = cl.game_id LEFT JOIN temp.map_cell mc ON mc.src ="
                " g.cell_id LEFT JOIN main.games og ON og.cell_id = mc.out"
                " AND og.game_index = g.game_index WHERE NOT EXISTS (SELECT 1"
                " FROM main.claims x WHERE x.game_id IS og.id AND x.ply ="
                " cl.ply AND x.question = cl.question AND x.plies = cl.plies"
                " AND x.node_budget = cl.node_budget AND x.variant ="
                " cl.variant AND x.position = cl.position)")
           || exec(m, "INSERT INTO main.meta (key, value) SELECT key, value"
                   " FROM src.meta WHERE key <> 'schema_version' ON CONFLICT"
                   " (key) DO NOTHING");
}

/* The input games' per-move figures and cached metrics, by their game
 * (cell and index): figures OUT holds already are kept, and a cached
 * metric is replaced only by one computed under a later engine version. */
static int merge_move_data(struct merge *m)
{
    return exec(m, "INSERT INTO main.move_stats (game_id, ply, iterations,"
                " nodes, depth, value, proven) SELECT og.id, x.ply,"
                " x.iterations, x.nodes, x.depth, x.value, x.proven FROM"
                " src.move_stats x JOIN src.games g ON g.id = x.game_id JOIN"
                " temp.map_cell mc ON mc.src = g.cell_id JOIN main.games og ON"
                " og.cell_id = mc.out AND og.game_index = g.game_index WHERE"
                " true ON CONFLICT (game_id, ply) DO NOTHING")
           || exec(m, "INSERT INTO main.game_metrics (game_id, positions,"
                   " legal_moves, engine_behaviour) SELECT og.id, x.positions,"
                   " x.legal_moves, x.engine_behaviour FROM src.game_metrics"
                   " x JOIN src.games g ON g.id = x.game_id JOIN temp.map_cell"
                   " mc ON mc.src = g.cell_id JOIN main.games og ON og.cell_id"
                   " = mc.out AND og.game_index = g.game_index WHERE true ON"
                   " CONFLICT (game_id) DO UPDATE SET positions ="
                   " excluded.positions, legal_moves = excluded.legal_moves,"
                   " engine_behaviour = excluded.engine_behaviour WHERE"
                   " excluded.engine_behaviour > engine_behaviour");
}

/* Tunings, by variant (identity), time and fitted weights: one OUT holds
 * already is kept. */
static int merge_tunings(struct merge *m)
{
    return exec(m, "INSERT INTO main.tunings (variant_id, sweep, created,"
                " positions, held_out, games, loss_hand, loss_fitted,"
                " hand_weights, fitted_weights, spec) SELECT mv.out, t.sweep,"
                " t.created, t.positions, t.held_out, t.games, t.loss_hand,"
                " t.loss_fitted, t.hand_weights, t.fitted_weights, t.spec FROM"
                " src.tunings t JOIN temp.map_variant mv ON mv.src ="
                " t.variant_id WHERE true ON CONFLICT (variant_id, created,"
                " fitted_weights) DO NOTHING");
}

/* Merges the ATTACHed input in one transaction. */
static int merge_one(struct merge *m, struct merge_input_result *res)
{
    char marker[8192], now[32];
    if (exec(m, "BEGIN IMMEDIATE"))
        return -1;
    int unchanged;
    if (check_schema(m) || read_marker(m, marker, sizeof marker)
        || (unchanged = marker_unchanged(m, marker)) < 0)
        goto fail;
    if (unchanged) {
        res->skipped = 1;
        return exec(m, "COMMIT");
    }
    if (merge_sweeps(m) || merge_variants_agents(m) || merge_cells(m)
        || merge_runs(m) || merge_games(m, res) || merge_claims_meta(m)
        || merge_move_data(m) || merge_tunings(m))
        goto fail;
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", &tm);
    const char *v[] = {m->in_real, marker, now};
    if (exec_bound(m, "INSERT INTO main.merges (source, marker, merged)"
                   " VALUES (?1, ?2, ?3) ON CONFLICT (source) DO UPDATE SET"
                   " marker = ?2, merged = ?3", v, 3, NULL)
        || exec(m, "COMMIT"))
        goto fail;
    return 0;
fail:
    sqlite3_exec(m->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

/* Attaches input `in`, merges it, detaches it. */
static int merge_input(struct merge *m, const char *in, const char *out_real,
                       struct merge_input_result *res)
{
    struct stat sb;
    char uri[3 * PATH_MAX + 16];
    m->in = in;
    memset(res, 0, sizeof *res);
    if (stat(in, &sb) != 0 || !realpath(in, m->in_real)) {
        snprintf(m->err, m->errsz, "%s: %s", in, strerror(errno));
        return -1;
    }
    if (strcmp(m->in_real, out_real) == 0) {
        snprintf(m->err, m->errsz, "%s is the output database itself: "
                 "merge reads each input into OUT, so OUT cannot be one of "
                 "them", in);
        return -1;
    }
    if (readonly_uri(m->in_real, uri, sizeof uri)) {
        snprintf(m->err, m->errsz, "%s: path too long", in);
        return -1;
    }
    const char *t[] = {uri};
    if (exec_bound(m, "ATTACH ?1 AS src", t, 1, NULL))
        return -1;
    int rc = merge_one(m, res);
    if (sqlite3_exec(m->db, "DETACH src", NULL, NULL, NULL) != SQLITE_OK
        && rc == 0)
        rc = db_error(m, "DETACH src");
    return rc;
}

/* Before OUT is opened: every input exists and is readable and is not OUT
 * (by device and inode), and an existing OUT passes SQLite's quick_check,
 * so a missing input or a damaged OUT is refused with nothing written.
 * Returns 0, or -1 with a message. */
static int check_paths(const char *out, const char *const *inputs, int n,
                       char *err, size_t errsz)
{
    struct stat ob, ib;
    int out_exists = stat(out, &ob) == 0;
    for (int i = 0; i < n; i++) {
        if (stat(inputs[i], &ib) != 0 || access(inputs[i], R_OK) != 0) {
            snprintf(err, errsz, "input %s cannot be read: %s; nothing was "
                     "merged", inputs[i], strerror(errno));
            return -1;
        }
        if (out_exists && ib.st_dev == ob.st_dev && ib.st_ino == ob.st_ino) {
            snprintf(err, errsz, "%s is the output database itself: merge "
                     "reads each input into OUT, so OUT cannot be one of "
                     "them", inputs[i]);
            return -1;
        }
    }
    return out_exists && ob.st_size > 0 ? store_check_intact(out, err, errsz)
                                        : 0;
}

/* Merges into the database at path (OUT, or the temporary of a new OUT),
 * naming it `out` in messages; *merged counts the inputs merged. */
static int merge_into(const char *path, const char *out,
                      const char *const *inputs, int n,
                      struct merge_input_result *results, int *merged,
                      char *err, size_t errsz)
{
    struct store *st = NULL;
    struct merge m = {NULL, out, out, "", err, errsz};
    char out_real[PATH_MAX];
    int rc = -1;
    *merged = 0;
    if (store_open(path, 0, &st, err, errsz) != 0
        || store_lock_writer(st, err, errsz) != 0)
        goto done;
    if (!realpath(path, out_real)) {
        snprintf(err, errsz, "%s: %s", out, strerror(errno));
        goto done;
    }
    if (sqlite3_open_v2(path, &m.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI,
                        NULL) != SQLITE_OK) {
        db_error(&m, "opening it");
        goto done;
    }
    sqlite3_busy_timeout(m.db, 30000);
    if (exec(&m, "PRAGMA synchronous = FULL")
        || exec(&m, "PRAGMA foreign_keys = ON")
        || exec(&m, "PRAGMA cache_size = -65536")
        || exec(&m, "PRAGMA temp_store = MEMORY"))
        goto done;
    static const char *const maps[] = {"map_sweep", "map_variant", "map_agent",
                                       "map_cell", "map_run"};
    for (size_t i = 0; i < sizeof maps / sizeof *maps; i++) {
        char sql[160];
        snprintf(sql, sizeof sql, "CREATE TEMP TABLE %s (src INTEGER PRIMARY"
                 " KEY, out INTEGER NOT NULL)", maps[i]);
        if (exec(&m, sql))
            goto done;
    }
    for (int i = 0; i < n; i++) {
        struct merge_input_result one;
        if (merge_input(&m, inputs[i], out_real, &one) != 0)
            goto done;
        if (results)
            results[i] = one;
        ++*merged;
    }
    rc = 0;
done:
    sqlite3_close(m.db);
    store_close(st);
    return rc;
}

int merge_databases(const char *out, const char *const *inputs, int n,
                    struct merge_input_result *results, char *err,
                    size_t errsz)
{
    struct stat sb;
    if (check_paths(out, inputs, n, err, errsz) != 0)
        return -1;
    if (stat(out, &sb) == 0) {
        int merged;
        return merge_into(out, out, inputs, n, results, &merged, err, errsz);
    }
    /* A new OUT is made beside it and renamed into place, so a merge that
     * merged nothing leaves no OUT (outfile.h). */
    char tmp[PATH_MAX + 300], lock[PATH_MAX + 320], why[1024];
    err[0] = '\0';
    if (outfile_check(out, "OUT", inputs, n, OUTFILE_NONE, err, errsz) != 0
        || outfile_temp_name(out, tmp, sizeof tmp) != 0) {
        if (!err[0])
            snprintf(err, errsz, "%s: path too long", out);
        return -1;
    }
    outfile_clean_stale(out);
    unlink(tmp);
    int merged;
    int rc = merge_into(tmp, out, inputs, n, results, &merged, err, errsz);
    snprintf(lock, sizeof lock, "%s.lock", tmp);
    unlink(lock);
    if (merged > 0 && outfile_rename_synced(tmp, out, why, sizeof why) != 0) {
        snprintf(err, errsz, "%s", why);
        rc = -1;
    } else if (merged == 0) {
        unlink(tmp);
    }
    return rc;
}
