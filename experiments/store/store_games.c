/*
 * store_games.c -- the one way the harness reads stored games back
 * (store.h, store_each_game): a filter (sweep, game, variant, one id), a
 * fixed order, and every game handed over as a struct store_game whose
 * text columns are never NULL, so a reader replays it (game_replay) and
 * no reader writes SQL of its own for it. A damaged row (a NULL where
 * the schema has text) is an error naming the game, not a crash.
 */
#include <stdio.h>
#include <string.h>

#include "store.h"

/* The columns read, in the order the statement selects them. */
#define GAME_COLUMNS                                                          \
    "SELECT id, sweep, variant, agent0_name, agent1_name, agent0, agent1,"  \
    " game_index, opening_position, opening, moves, result, reason, plies,"  \
    " winner_seat FROM game_view"

static const char *const orders[] = {
    [STORE_BY_ID] = " ORDER BY id",
    [STORE_BY_CELL] = " ORDER BY variant, agent0_name, agent1_name,"
                      " game_index",
};

/* Fills *g from the statement's row. Returns 0, or -1 with a message
 * naming the game when a text column is NULL. */
static int row_game(sqlite3_stmt *q, struct store_game *g, char *err,
                    size_t errsz)
{
    const char *text[11];
    static const int columns[11] = {1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12};
    g->id = sqlite3_column_int64(q, 0);
    for (int i = 0; i < 11; i++) {
        text[i] = (const char *)sqlite3_column_text(q, columns[i]);
        if (!text[i]) {
            snprintf(err, errsz, "game %lld: its column %s is empty (NULL)",
                     (long long)g->id, sqlite3_column_name(q, columns[i]));
            return -1;
        }
    }
    g->sweep = text[0];
    g->variant = text[1];
    g->agent_name[0] = text[2];
    g->agent_name[1] = text[3];
    g->agent_spec[0] = text[4];
    g->agent_spec[1] = text[5];
    g->game_index = sqlite3_column_int(q, 7);
    g->opening_position = text[6];
    g->opening = text[7];
    g->moves = text[8];
    g->result = text[9];
    g->reason = text[10];
    g->plies = sqlite3_column_int(q, 13);
    g->winner_seat = sqlite3_column_type(q, 14) == SQLITE_NULL
                         ? -1
                         : sqlite3_column_int(q, 14);
    return 0;
}

int store_each_game(sqlite3 *db, const struct store_game_filter *f,
                    store_game_visit visit, void *arg, char *err,
                    size_t errsz)
{
    char sql[512];
    snprintf(sql, sizeof sql, "%s WHERE (?1 IS NULL OR sweep = ?1) AND (?2 IS"
             " NULL OR game = ?2) AND (?3 IS NULL OR variant = ?3) AND (?4 ="
             " 0 OR id = ?4)%s%s", GAME_COLUMNS,
             f->from_start ? " AND opening_position = ''" : "",
             orders[f->order]);
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK
        || (f->sweep
            && sqlite3_bind_text(q, 1, f->sweep, -1, SQLITE_STATIC) != SQLITE_OK)
        || (f->game
            && sqlite3_bind_text(q, 2, f->game, -1, SQLITE_STATIC) != SQLITE_OK)
        || (f->variant
            && sqlite3_bind_text(q, 3, f->variant, -1, SQLITE_STATIC)
                   != SQLITE_OK)
        || sqlite3_bind_int64(q, 4, f->id) != SQLITE_OK) {
        store_error(db, err, errsz, "reading the games");
        sqlite3_finalize(q);
        return -1;
    }
    int step, rc = 0;
    while (rc == 0 && (step = sqlite3_step(q)) == SQLITE_ROW) {
        struct store_game g;
        rc = row_game(q, &g, err, errsz);
        if (rc == 0)
            rc = visit(arg, &g);
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = store_error(db, err, errsz, "reading the games");
    sqlite3_finalize(q);
    return rc;
}

int store_last_run_text(sqlite3 *db, const char *sweep, char *buf, size_t n)
{
    sqlite3_stmt *q = NULL;
    buf[0] = '\0';
    if (sqlite3_prepare_v2(db, "SELECT s.name, r.status, r.started,"
                           " r.ended, r.games FROM runs r JOIN sweeps s ON"
                           " s.id = r.sweep_id WHERE ?1 IS NULL OR s.name ="
                           " ?1 ORDER BY r.id DESC LIMIT 1", -1, &q, NULL)
            != SQLITE_OK
        || (sweep && sqlite3_bind_text(q, 1, sweep, -1, SQLITE_STATIC)
                         != SQLITE_OK)) {
        sqlite3_finalize(q);
        return -1;
    }
    int step = sqlite3_step(q);
    if (step == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(q, 0);
        const char *status = (const char *)sqlite3_column_text(q, 1);
        const char *started = (const char *)sqlite3_column_text(q, 2);
        const char *ended = (const char *)sqlite3_column_text(q, 3);
        snprintf(buf, n, "the last run, of sweep %s: %s; started %s%s%s; "
                 "%lld games stored by it", name ? name : "?",
                 status ? status : "?", started ? started : "?",
                 ended ? ", ended " : "", ended ? ended : "",
                 (long long)sqlite3_column_int64(q, 4));
    }
    sqlite3_finalize(q);
    return step == SQLITE_ROW || step == SQLITE_DONE ? 0 : -1;
}

int store_sweep_names(sqlite3 *db, const char *name, int *found,
                      char *names, size_t n, char *err, size_t errsz)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db, "SELECT name FROM sweeps GROUP BY name "
                           "ORDER BY MIN(id)", -1, &q, NULL) != SQLITE_OK) {
        snprintf(err, errsz, "%s", sqlite3_errmsg(db));
        return -1;
    }
    size_t len = 0;
    int count = 0, rc;
    *found = 0;
    names[0] = '\0';
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *each = (const char *)sqlite3_column_text(q, 0);
        each = each ? each : "";
        *found |= name && strcmp(each, name) == 0;
        if (len < n)
            len += (size_t)snprintf(names + len, n - len, "%s%s",
                                    count ? ", " : "", each);
        count++;
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE) {
        snprintf(err, errsz, "%s", sqlite3_errmsg(db));
        return -1;
    }
    return count;
}

int store_read_begin(sqlite3 *db, char *err, size_t errsz)
{
    if (sqlite3_exec(db, "SAVEPOINT rulelab_read", NULL, NULL, NULL)
        == SQLITE_OK)
        return 0;
    snprintf(err, errsz, "reading the database: %s", sqlite3_errmsg(db));
    return -1;
}

int store_read_end(sqlite3 *db, char *err, size_t errsz)
{
    if (sqlite3_exec(db, "RELEASE rulelab_read", NULL, NULL, NULL)
        == SQLITE_OK)
        return 0;
    snprintf(err, errsz, "reading the database: %s", sqlite3_errmsg(db));
    return -1;
}
