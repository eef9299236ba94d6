/*
 * metrics.c -- filling the game_metrics cache (metrics.h): each stored
 * game replayed from its opening position and opening through its agents'
 * moves, counting the legal moves of every position an agent moved from.
 */
#include "metrics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "variant.h"

#define METRICS_BATCH 2000 /* games a transaction */

/* The counts of one replayed game. */
struct replayed {
    long positions, legal_moves;
};

/* Replays `moves` (space-separated) of variant v from its opening and
 * counts into *r. Returns 0, or -1 with a message (why in err). */
static int replay_counting(const struct variant *v, const char *position,
                           const char *opening, const char *moves,
                           struct replayed *r, char *err, size_t errsz)
{
    const struct game *g = v->game;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    move_t legal[GAME_MAX_MOVES];
    if (game_setup(v, st, position[0] ? position : NULL, opening, err, errsz)
        != 0)
        return -1;
    r->positions = r->legal_moves = 0;
    for (const char *p = moves;;) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        if (!len)
            return 0;
        char text[64];
        move_t m;
        snprintf(text, sizeof text, "%.*s", (int)(len < 63 ? len : 63), p);
        int n = g->status(st).outcome == GAME_ONGOING
                ? g->legal_moves(st, legal) : 0;
        int found = 0; /* a stored move is checked, never trusted */
        if (len < 64 && n > 0 && g->move_from_text(st, text, &m) == 0)
            for (int i = 0; i < n && !found; i++)
                found = legal[i] == m;
        if (!found) {
            snprintf(err, errsz, "move %ld '%s' is not legal there",
                     r->positions + 1, text);
            return -1;
        }
        r->legal_moves += n;
        r->positions++;
        g->apply(st, m);
        p += len;
    }
}

/* A parsed variant, kept by its canonical text. */
struct variant_memo {
    char text[VARIANT_TEXT_MAX];
    struct variant v;
};

/* The variant of canonical text `text`, parsed once. NULL with a message
 * when it does not parse or memory is short. */
static const struct variant *memo_variant(struct variant_memo **memo, int *n,
                                          const char *text, char *err,
                                          size_t errsz)
{
    for (int i = 0; i < *n; i++)
        if (strcmp((*memo)[i].text, text) == 0)
            return &(*memo)[i].v;
    struct variant_memo *grown = realloc(*memo, (size_t)(*n + 1) * sizeof **memo);
    if (!grown) {
        snprintf(err, errsz, "out of memory");
        return NULL;
    }
    *memo = grown;
    struct variant_memo *m = &grown[*n];
    snprintf(m->text, sizeof m->text, "%s", text);
    if (variant_parse(text, &m->v, err, errsz) != 0)
        return NULL;
    (*n)++;
    return &m->v;
}

int metrics_cache(struct store *st, const char *sweep,
                  struct metrics_result *out,
                  void (*progress)(long done, long total), char *err,
                  size_t errsz)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *q = NULL, *ins = NULL;
    struct variant_memo *memo = NULL;
    int n_memo = 0, rc = -1, in_tx = 0;
    memset(out, 0, sizeof *out);
    if (store_lock_writer(st, err, errsz) != 0)
        return -1;
    /* One connection reads the games and writes their rows as it goes
     * (SQLite allows a write transaction beside a pending read on the same
     * connection). A game's row is written after the query has passed that
     * game, so no row the query still has to read changes under it. */
    if (sqlite3_prepare_v2(db, "SELECT g.id, v.canonical, g.opening_position,"
                           " g.opening, g.moves, m.engine_behaviour, (SELECT"
                           " COUNT(*) FROM games g2 JOIN cells c2 ON c2.id ="
                           " g2.cell_id JOIN sweeps s2 ON s2.id = c2.sweep_id"
                           " WHERE ?1 IS NULL OR s2.name = ?1) FROM games g"
                           " JOIN cells c ON c.id = g.cell_id JOIN sweeps s ON"
                           " s.id = c.sweep_id JOIN variants v ON v.id ="
                           " c.variant_id LEFT JOIN game_metrics m ON"
                           " m.game_id = g.id WHERE ?1 IS NULL OR s.name = ?1"
                           " ORDER BY g.id", -1, &q, NULL) != SQLITE_OK
        || (sweep && sqlite3_bind_text(q, 1, sweep, -1, SQLITE_STATIC)
                         != SQLITE_OK)
        || sqlite3_prepare_v2(db, "INSERT INTO game_metrics (game_id,"
                              " positions, legal_moves, engine_behaviour)"
                              " VALUES (?1, ?2, ?3, ?4) ON CONFLICT (game_id)"
                              " DO UPDATE SET positions = excluded.positions,"
                              " legal_moves = excluded.legal_moves,"
                              " engine_behaviour = excluded.engine_behaviour",
                              -1, &ins, NULL) != SQLITE_OK) {
        store_error(db, err, errsz, "reading the games");
        goto done;
    }
    int step;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        int64_t id = sqlite3_column_int64(q, 0);
        const char *text = (const char *)sqlite3_column_text(q, 1);
        char why[512];
        const struct variant *v =
            memo_variant(&memo, &n_memo, text ? text : "", why, sizeof why);
        if (!v) {
            snprintf(err, errsz, "game %lld: its variant: %s", (long long)id,
                     why);
            goto done;
        }
        long total = sqlite3_column_int64(q, 6);
        out->games++;
        if (sqlite3_column_type(q, 5) != SQLITE_NULL
            && sqlite3_column_int(q, 5) >= v->game->behaviour_version) {
            out->cached++;
            continue;
        }
        struct replayed r;
        const char *pos = (const char *)sqlite3_column_text(q, 2);
        const char *opening = (const char *)sqlite3_column_text(q, 3);
        const char *moves = (const char *)sqlite3_column_text(q, 4);
        if (replay_counting(v, pos ? pos : "", opening ? opening : "",
                            moves ? moves : "", &r, why, sizeof why) != 0) {
            snprintf(err, errsz, "game %lld does not replay: %s",
                     (long long)id, why);
            goto done;
        }
        if (!in_tx && store_exec(st, "BEGIN IMMEDIATE", err, errsz) != 0)
            goto done;
        in_tx = 1;
        sqlite3_reset(ins);
        sqlite3_bind_int64(ins, 1, id);
        sqlite3_bind_int64(ins, 2, r.positions);
        sqlite3_bind_int64(ins, 3, r.legal_moves);
        sqlite3_bind_int(ins, 4, v->game->behaviour_version);
        if (sqlite3_step(ins) != SQLITE_DONE) {
            store_error(db, err, errsz, "caching a game's metrics");
            goto done;
        }
        if (++out->computed % METRICS_BATCH == 0) {
            if (store_exec(st, "COMMIT", err, errsz) != 0)
                goto done;
            in_tx = 0;
            if (progress)
                progress(out->games, total);
        }
    }
    if (step != SQLITE_DONE) {
        store_error(db, err, errsz, "reading the games");
        goto done;
    }
    if (in_tx && store_exec(st, "COMMIT", err, errsz) != 0)
        goto done;
    in_tx = 0;
    rc = 0;
done:
    if (in_tx)
        store_rollback(st, NULL, 0);
    sqlite3_finalize(q);
    sqlite3_finalize(ins);
    free(memo);
    return rc;
}
