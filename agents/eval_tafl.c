/*
 * eval_tafl.c -- Hnefatafl's evaluation (eval.h): the men on each side.
 * A first version; the King's race to the escape squares comes next.
 */
#include "eval.h"
#include "tafl.h"

#include <string.h>

enum { F_ATTACKERS, F_DEFENDERS, F_COUNT };

static const struct param_spec tafl_weights[F_COUNT] = {
    [F_ATTACKERS] = {"tafl_attackers", PARAM_REAL, 50, -10000, 10000, NULL,
                     "tafl: points per attacker on the board (hand-set)", 2},
    [F_DEFENDERS] = {"tafl_defenders", PARAM_REAL, 100, -10000, 10000, NULL,
                     "tafl: points per defender on the board, King apart "
                     "(hand-set)", 2},
};

static void tafl_features(const void *st, double *f)
{
    const struct tafl_state *s = st;
    /* Counts for the attackers; the defenders' view is the negation. */
    double sign = s->head.side == TAFL_SIDE_ATTACKERS ? 1 : -1;
    int defenders = s->pieces[TAFL_SIDE_DEFENDERS].count - (s->king_sq != 0);
    f[F_ATTACKERS] = sign * s->pieces[TAFL_SIDE_ATTACKERS].count;
    f[F_DEFENDERS] = -sign * defenders;
}

/* Captures are side effects of a move, so the move is played on a copy. */
static int tafl_capture_value(const void *st, move_t m)
{
    const struct tafl_state *s = st;
    struct tafl_state after;
    memcpy(&after, s, sizeof after);
    tafl_game.apply(&after, m);
    int enemy = s->head.side ^ 1;
    int taken = s->pieces[enemy].count - after.pieces[enemy].count;
    int points = enemy == TAFL_SIDE_ATTACKERS ? 50 : 100;
    return taken * points;
}

static int tafl_is_forcing(const void *st, move_t m)
{
    (void)st;
    (void)m;
    return 0;
}

const struct game_eval tafl_eval = {&tafl_game, tafl_weights, F_COUNT,
                                    tafl_features, tafl_capture_value,
                                    tafl_is_forcing};
