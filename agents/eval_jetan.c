/*
 * eval_jetan.c -- Jetan's evaluation (eval.h): material with piece values.
 * A first version; Princess and Chief safety come next.
 */
#include "eval.h"
#include "jetan.h"

/* Points per kind (Chief, Princess, Flier, Dwar, Padwar, Warrior, Thoat,
 * Panthan): hand-set, roughly by the squares each reaches on an open
 * board (RULES.md: 48, -, 16, 16, 8, 8, 12, 5). The Chief and Princess
 * are not traded: their loss ends the game. */
static const int piece_points[JETAN_KINDS] = {0, 0, 300, 300, 200, 200,
                                              250, 100};

enum { F_MATERIAL, F_COUNT };

static const struct param_spec jetan_weights[F_COUNT] = {
    [F_MATERIAL] = {"jetan_material", PARAM_REAL, 1, -100, 100, NULL,
                    "Jetan: material, points (hand-set)", 2},
};

static void jetan_features(const void *st, double *f)
{
    const struct jetan_state *s = st;
    const int us = s->head.side;
    double material = 0;
    for (int side = 0; side < 2; side++)
        for (int k = 0; k < JETAN_KINDS; k++)
            material += (side == us ? 1 : -1) * s->kind_count[side][k]
                        * piece_points[k];
    f[F_MATERIAL] = material;
}

static int jetan_capture_value(const void *st, move_t m)
{
    const struct jetan_state *s = st;
    int p = s->board[JETAN_TO(m)];
    return p ? piece_points[JETAN_KIND_OF(p)] : 0;
}

static int jetan_is_forcing(const void *st, move_t m)
{
    (void)st;
    (void)m;
    return 0;
}

const struct game_eval jetan_eval = {&jetan_game, jetan_weights, F_COUNT,
                                     jetan_features, jetan_capture_value,
                                     jetan_is_forcing};
