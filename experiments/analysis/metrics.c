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

/* game_replay's visitor: counts each position an agent moved from and its
 * legal moves. */
static int count_position(void *arg, const struct game *g,
                          const struct game_replay_step *step)
{
    struct replayed *r = arg;
    (void)g;
    if (step->move) {
        r->positions++;
        r->legal_moves += step->n_legal;
    }
    return 0;
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

/* What metrics_cache keeps while it reads the games. */
struct filling {
    struct store *st;
    sqlite3_stmt *cached, *ins; /* a game's cached row; writing one */
    struct variant_memo *memo;
    int n_memo, in_tx;
    long total;
    struct metrics_result *out;
    void (*progress)(long done, long total);
    char *err;
    size_t errsz;
};

/* store_each_game's visitor: replays one game unless its row is current,
 * and writes the row, committing every METRICS_BATCH games. Returns 0, or
 * -1 with a message. */
static int fill_game(void *arg, const struct store_game *sg)
{
    struct filling *f = arg;
    char why[512];
    const struct variant *v =
        memo_variant(&f->memo, &f->n_memo, sg->variant, why, sizeof why);
    if (!v)
        return game_error(f->err, f->errsz, "game %lld: its variant: %s",
                          (long long)sg->id, why);
    f->out->games++;
    sqlite3_reset(f->cached);
    sqlite3_bind_int64(f->cached, 1, sg->id);
    int step = sqlite3_step(f->cached);
    if (step == SQLITE_ROW
        && sqlite3_column_int(f->cached, 0) >= v->game->behaviour_version) {
        f->out->cached++;
        return 0;
    }
    if (step != SQLITE_ROW && step != SQLITE_DONE)
        return store_error(store_db(f->st), f->err, f->errsz,
                           "reading the cached metrics");
    struct replayed r = {0, 0};
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    if (game_replay(v, st, sg->opening_position, sg->opening, sg->moves,
                    count_position, &r, NULL, why, sizeof why) != 0)
        return game_error(f->err, f->errsz, "game %lld does not replay: %s",
                          (long long)sg->id, why);
    if (!f->in_tx && store_exec(f->st, "BEGIN IMMEDIATE", f->err, f->errsz)
                         != 0)
        return -1;
    f->in_tx = 1;
    sqlite3_reset(f->ins);
    sqlite3_bind_int64(f->ins, 1, sg->id);
    sqlite3_bind_int64(f->ins, 2, r.positions);
    sqlite3_bind_int64(f->ins, 3, r.legal_moves);
    sqlite3_bind_int(f->ins, 4, v->game->behaviour_version);
    if (sqlite3_step(f->ins) != SQLITE_DONE)
        return store_error(store_db(f->st), f->err, f->errsz,
                           "caching a game's metrics");
    if (++f->out->computed % METRICS_BATCH == 0) {
        if (store_exec(f->st, "COMMIT", f->err, f->errsz) != 0)
            return -1;
        f->in_tx = 0;
        if (f->progress)
            f->progress(f->out->games, f->total);
    }
    return 0;
}

int metrics_cache(struct store *st, const char *sweep,
                  struct metrics_result *out,
                  void (*progress)(long done, long total), char *err,
                  size_t errsz)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *count = NULL;
    struct filling f = {st, NULL, NULL, NULL, 0, 0, 0, out, progress, err,
                        errsz};
    int rc = -1;
    memset(out, 0, sizeof *out);
    if (store_lock_writer(st, err, errsz) != 0)
        return -1;
    /* One connection reads the games and writes their rows as it goes
     * (SQLite allows a write transaction beside a pending read on the same
     * connection). A game's row is written after the read has passed that
     * game, so no row the read still has to see changes under it. */
    if (sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM game_view WHERE ?1 IS"
                           " NULL OR sweep = ?1", -1, &count, NULL)
            != SQLITE_OK
        || (sweep && sqlite3_bind_text(count, 1, sweep, -1, SQLITE_STATIC)
                         != SQLITE_OK)
        || sqlite3_step(count) != SQLITE_ROW
        || sqlite3_prepare_v2(db, "SELECT engine_behaviour FROM game_metrics"
                              " WHERE game_id = ?1", -1, &f.cached, NULL)
               != SQLITE_OK
        || sqlite3_prepare_v2(db, "INSERT INTO game_metrics (game_id,"
                              " positions, legal_moves, engine_behaviour)"
                              " VALUES (?1, ?2, ?3, ?4) ON CONFLICT (game_id)"
                              " DO UPDATE SET positions = excluded.positions,"
                              " legal_moves = excluded.legal_moves,"
                              " engine_behaviour = excluded.engine_behaviour",
                              -1, &f.ins, NULL) != SQLITE_OK) {
        store_error(db, err, errsz, "reading the games");
        goto done;
    }
    f.total = sqlite3_column_int64(count, 0);
    struct store_game_filter which = {.sweep = sweep, .order = STORE_BY_ID};
    if (store_each_game(db, &which, fill_game, &f, err, errsz) != 0)
        goto done;
    if (f.in_tx && store_exec(st, "COMMIT", err, errsz) != 0)
        goto done;
    f.in_tx = 0;
    rc = 0;
done:
    if (f.in_tx)
        store_rollback(st, NULL, 0);
    sqlite3_finalize(count);
    sqlite3_finalize(f.cached);
    sqlite3_finalize(f.ins);
    free(f.memo);
    return rc;
}
