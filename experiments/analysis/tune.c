/*
 * tune.c -- the positions `rulelab tune` fits on (tune.h): the stored games
 * of one variant replayed move by move, eligible positions sampled and
 * labelled with the game's result, the games split into train and held
 * out; then the fit of tune_fit.c on the train positions and the log-loss
 * of the hand-set and fitted weights on both sets.
 *
 * Which positions: those after at least skip_plies agent plies (default
 * TUNE_SKIP_PLIES: without openings the first positions of every game of
 * a cell are the same few; with `openings = random_plies:N` the opening's
 * random moves are not the agents' play at all, so positions inside the
 * opening are never sampled), in which the game goes on, and from
 * which the side to move cannot win at once (its search sees such wins, so
 * the evaluation is never asked about them, and their label says nothing
 * about the position's features; checking costs one apply per legal move,
 * about as much as replaying the move itself). Each game's result comes
 * from game_view.result (seat 0 is the side to move after the opening,
 * replay's rule), turned to the side to move's view.
 */
#include "tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "store.h"

int tune_is_held_out(uint64_t seed, int64_t game_id, double holdout)
{
    uint64_t x = seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)game_id);
    uint64_t h = rng_splitmix64(&x);
    return (double)(h >> 11) * 0x1.0p-53 < holdout;
}

static int by_game_then_ply(const void *a, const void *b)
{
    const struct tune_position *p = a, *q = b;
    if (p->game_id != q->game_id)
        return p->game_id < q->game_id ? -1 : 1;
    return (p->ply > q->ply) - (p->ply < q->ply);
}

/* The reservoir and what sampling one game needs. */
struct sampler {
    const struct game_eval *e;
    const struct tune_options *o;
    struct rng rng;
    struct tune_sample *s;
};

/* Offers the eligible position st (agent ply `ply` of game id, whose
 * result for agent seat 0 is r0: 1, 1/2 or 0; flip the agent seat of the
 * game's seat 0) to the reservoir: kept with probability max_positions /
 * eligible so far. */
static void offer(struct sampler *sm, const void *st, int64_t id, int ply,
                  double r0, int flip)
{
    struct tune_sample *s = sm->s;
    long k = s->eligible++;
    int slot;
    if (k < sm->o->max_positions)
        slot = s->n++;
    else if (k < (long)UINT32_MAX) {
        uint32_t j = rng_below(&sm->rng, (uint32_t)(k + 1));
        if (j >= (uint32_t)sm->o->max_positions)
            return;
        slot = (int)j;
    } else {
        return;
    }
    struct tune_position *p = &s->p[slot];
    p->game_id = id;
    p->ply = ply;
    int seat = sm->e->game->to_move(st) ^ flip;
    p->label = seat == 0 ? r0 : 1 - r0;
    p->held_out = tune_is_held_out(sm->o->seed, id, sm->o->holdout);
    memset(p->f, 0, sizeof p->f);
    eval_features(sm->e, st, p->f);
}

/* One stored game being sampled: its result and the seat flip. */
struct sampled_game {
    struct sampler *sm;
    int64_t id;
    double r0;  /* seat 0's points */
    int flip;   /* the seat that moved first after the opening */
};

/* game_replay's visitor: offers each position the game is still going in,
 * from the sampler's first ply on, that the mover cannot win at once. */
static int offer_position(void *arg, const struct game *g,
                          const struct game_replay_step *step)
{
    struct sampled_game *sg = arg;
    if (step->ply == 0)
        sg->flip = g->to_move(step->st);
    if (g->status(step->st).outcome == GAME_ONGOING
        && step->ply >= sg->sm->o->skip_plies
        && !game_mover_wins_at_once(g, step->st))
        offer(sg->sm, step->st, sg->id, step->ply, sg->r0, sg->flip);
    return 0;
}

/* What tune_sample_variant reads: the sampler and the variant. */
struct sample_reader {
    struct sampler *sm;
    const struct variant *v;
    char *err;
    size_t errsz;
};

/* store_each_game's visitor: replays one stored game and offers its
 * eligible positions. Returns 0, or -1 with a message. */
static int sample_game(void *arg, const struct store_game *sg)
{
    struct sample_reader *rd = arg;
    struct sampled_game one = {rd->sm, sg->id, 0, 0};
    if (strcmp(sg->result, "seat0") == 0)
        one.r0 = 1;
    else if (strcmp(sg->result, "seat1") == 0)
        one.r0 = 0;
    else if (strcmp(sg->result, "draw") == 0)
        one.r0 = 0.5;
    else
        return game_error(rd->err, rd->errsz, "game %lld has result '%s', "
                          "not seat0, seat1 or draw", (long long)sg->id,
                          sg->result);
    rd->sm->s->games++;
    rd->sm->s->games_held_out += tune_is_held_out(rd->sm->o->seed, sg->id,
                                                  rd->sm->o->holdout);
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    char why[256];
    if (game_replay(rd->v, st, sg->opening_position, sg->opening, sg->moves,
                    offer_position, &one, NULL, why, sizeof why) != 0)
        return game_error(rd->err, rd->errsz, "game %lld: %s",
                          (long long)sg->id, why);
    return 0;
}

int tune_sample_variant(sqlite3 *db, const char *variant,
                        const struct tune_options *o, struct tune_sample *out,
                        char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    struct variant v;
    if (variant_parse(variant, &v, err, errsz) != 0)
        return -1;
    struct sampler sm = {eval_of(v.game), o, {{0}}, out};
    if (!sm.e)
        return game_error(err, errsz, "%s has no evaluation", v.game->name);
    rng_seed(&sm.rng, rng_hash_string(o->seed, variant));
    out->p = calloc((size_t)o->max_positions, sizeof *out->p);
    if (!out->p)
        return game_error(err, errsz, "out of memory for %d positions",
                          o->max_positions);
    struct store_game_filter f = {.sweep = o->sweep, .variant = variant,
                                  .order = STORE_BY_ID};
    struct sample_reader rd = {&sm, &v, err, errsz};
    if (store_each_game(db, &f, sample_game, &rd, err, errsz) != 0) {
        tune_sample_free(out);
        return -1;
    }
    qsort(out->p, (size_t)out->n, sizeof *out->p, by_game_then_ply);
    return 0;
}

void tune_sample_free(struct tune_sample *s)
{
    free(s->p);
    s->p = NULL;
    s->n = 0;
}

int tune_variants(sqlite3 *db, const char *game, const char *sweep,
                  char (**out)[VARIANT_TEXT_MAX], int *n, char *err,
                  size_t errsz)
{
    *out = NULL;
    *n = 0;
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db, "SELECT DISTINCT variant FROM game_view WHERE "
                           "game = ?1 AND (?2 IS NULL OR sweep = ?2) ORDER BY "
                           "variant", -1, &q, NULL) != SQLITE_OK)
        return game_error(err, errsz, "reading the variants: %s",
                          sqlite3_errmsg(db));
    sqlite3_bind_text(q, 1, game, -1, SQLITE_STATIC);
    if (sweep)
        sqlite3_bind_text(q, 2, sweep, -1, SQLITE_STATIC);
    int rc = 0, step;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(q, 0);
        void *grown = realloc(*out, (size_t)(*n + 1) * sizeof **out);
        if (!grown) {
            rc = game_error(err, errsz, "out of memory");
            break;
        }
        *out = grown;
        snprintf((*out)[(*n)++], VARIANT_TEXT_MAX, "%s", t ? t : "");
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = game_error(err, errsz, "reading the variants: %s",
                        sqlite3_errmsg(db));
    sqlite3_finalize(q);
    if (rc != 0) {
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return rc;
}

/* Copies the features and labels of the positions of one set (held_out 0
 * or 1) into x (nf per row) and y; returns how many. */
static int gather(const struct tune_sample *s, int held_out, int nf,
                  double *x, double *y)
{
    int k = 0;
    for (int j = 0; j < s->n; j++) {
        if (s->p[j].held_out != held_out)
            continue;
        memcpy(x + (size_t)k * nf, s->p[j].f, (size_t)nf * sizeof *x);
        y[k++] = s->p[j].label;
    }
    return k;
}

int tune_variant(sqlite3 *db, const char *variant, const struct tune_options *o,
                 struct tune_result *out, char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    snprintf(out->variant, sizeof out->variant, "%s", variant);
    struct tune_sample s;
    if (tune_sample_variant(db, variant, o, &s, err, errsz) != 0)
        return -1;
    struct variant v;
    char why[256];
    variant_parse(variant, &v, why, sizeof why); /* parsed in the sampling */
    const struct game_eval *e = eval_of(v.game);
    int nf = e->n_features, rc = -1;
    out->eval = e;
    out->games = s.games;
    out->games_held_out = s.games_held_out;
    for (int i = 0; i < nf; i++)
        out->hand[i] = e->weights[i].def;
    size_t rows = (size_t)(s.n ? s.n : 1);
    /* train (t) and held-out (h) features and labels */
    double *xt = malloc(rows * nf * sizeof *xt), *yt = malloc(rows * sizeof *yt),
           *xh = malloc(rows * nf * sizeof *xh), *yh = malloc(rows * sizeof *yh);
    struct tune_fit_result fr;
    if (!xt || !yt || !xh || !yh) {
        game_error(err, errsz, "out of memory");
        goto cleanup;
    }
    if (s.games == 0) {
        game_error(err, errsz, "%s: no stored games%s%s", variant,
                   o->sweep ? " of sweep " : "", o->sweep ? o->sweep : "");
        goto cleanup;
    }
    int train = out->train = gather(&s, 0, nf, xt, yt);
    int held = out->held = gather(&s, 1, nf, xh, yh);
    if (train < TUNE_MIN_PER_WEIGHT * nf) {
        game_error(err, errsz, "%s: too few positions to fit %d weights: %d "
                   "training positions (of %ld eligible in %ld games), at "
                   "least %d needed (play more games, raise --positions or "
                   "lower --holdout)", variant, nf, train, s.eligible,
                   s.games, TUNE_MIN_PER_WEIGHT * nf);
        goto cleanup;
    }
    if (o->holdout > 0 && held == 0) {
        game_error(err, errsz, "%s: no held-out position (%ld games, %ld held "
                   "out): play more games or raise --holdout", variant,
                   s.games, s.games_held_out);
        goto cleanup;
    }
    if (tune_fit(xt, yt, train, nf, out->hand, &o->fit, &fr) != 0) {
        game_error(err, errsz, "%s: the fit failed (features linearly "
                   "dependent on these positions; a positive --l2 helps)",
                   variant);
        goto cleanup;
    }
    for (int i = 0; i < nf; i++) {
        const struct param_spec *p = &e->weights[i];
        double w = fr.w[i];
        out->clamped[i] = w < p->min || w > p->max;
        out->fitted[i] = w < p->min ? p->min : w > p->max ? p->max : w;
        out->fixed[i] = fr.fixed[i];
    }
    out->iterations = fr.iterations;
    out->converged = fr.converged;
    double sc = o->fit.scale;
    out->loss_hand[0] = tune_log_loss(xt, yt, train, nf, out->hand, sc);
    out->loss_hand[1] = tune_log_loss(xh, yh, held, nf, out->hand, sc);
    out->loss_fitted[0] = tune_log_loss(xt, yt, train, nf, out->fitted, sc);
    out->loss_fitted[1] = tune_log_loss(xh, yh, held, nf, out->fitted, sc);
    rc = 0;
cleanup:
    free(xt);
    free(yt);
    free(xh);
    free(yh);
    tune_sample_free(&s);
    return rc;
}
