/*
 * eval_serbest.c -- Serbest's evaluation (eval.h): material on the board
 * and in hand. A first version; the features RULES.md's Khan race calls
 * for come next.
 */
#include "eval.h"
#include "serbest.h"

/* Points per piece kind (K Q R B N P S): hand-set from the usual chess
 * values, the Subedei a little above a pawn for its backward capture. */
static const int piece_points[SERBEST_KINDS] = {0, 0, 900, 500, 320, 300,
                                                100, 120};

enum { F_MATERIAL_BOARD, F_MATERIAL_HAND, F_COUNT };

static const struct param_spec serbest_weights[F_COUNT] = {
    [F_MATERIAL_BOARD] = {"serbest_material_board", PARAM_REAL, 1, -100, 100,
                          NULL, "Serbest: board material, points (hand-set)",
                          2},
    [F_MATERIAL_HAND] = {"serbest_material_hand", PARAM_REAL, 1, -100, 100,
                         NULL, "Serbest: material in hand, points (hand-set)",
                         2},
};

static void serbest_features(const void *st, double *f)
{
    const struct serbest_state *s = st;
    const int us = s->head.side;
    double board = 0, hand = 0;
    for (int c = 0; c < 2; c++) {
        double sign = c == us ? 1 : -1;
        for (int i = 0; i < s->pieces[c].count; i++)
            board += sign * piece_points[SERBEST_KIND(
                                 s->board[s->pieces[c].sq[i]])];
        for (int k = 1; k < SERBEST_KINDS; k++)
            hand += sign * s->hand[c][k] * piece_points[k];
    }
    f[F_MATERIAL_BOARD] = board;
    f[F_MATERIAL_HAND] = hand;
}

static int serbest_capture_value(const void *st, move_t m)
{
    const struct serbest_state *s = st;
    if (SERBEST_DROP_KIND(m))
        return 0;
    return piece_points[SERBEST_KIND(s->board[SERBEST_TO(m)])];
}

static int serbest_is_forcing(const void *st, move_t m)
{
    (void)st;
    (void)m;
    return 0;
}

const struct game_eval serbest_eval = {&serbest_game, serbest_weights, F_COUNT,
                                       serbest_features, serbest_capture_value,
                                       serbest_is_forcing};
