/*
 * eval.h -- a static evaluation per game, shared by the agents that search
 * (ab's leaves and MCTS's cut playouts and priors).
 *
 * An evaluation is a weighted sum of named features, so the weights can be
 * fitted from stored games later and varied by a sweep. Every weight is an
 * agent parameter named `<game>_<feature>` (`serbest_material_board`), listed by
 * `rulelab list`, added to the parameter table of every agent kind that
 * evaluates (agent_kind.uses_eval). The weights were added after identities
 * existed (since = 2), so a spec names them in its identity only when they
 * are off their defaults.
 *
 * Scores are in "points", about 100 to a pawn-like piece, from the point of
 * view of the side to move: positive is good for it. Each game's file
 * (eval_serbest.c, eval_jetan.c, eval_tafl.c) is the one place in agents/
 * that looks inside that game's state; each says where its default weights
 * came from.
 */
#ifndef RULELAB_EVAL_H
#define RULELAB_EVAL_H

#include "game.h"

#define EVAL_MAX_FEATURES 12

struct game_eval {
    const struct game *game;
    /* The weights as agent parameters: n_features PARAM_REAL entries named
     * <game>_<feature>, default the default weight, since 2. */
    const struct param_spec *weights;
    int n_features;
    /* Writes the n_features feature values of st into f, each from the
     * side to move's point of view (higher is better for it). st is a
     * state of `game` whose game is not over. */
    void (*features)(const void *st, double *f);
    /* The value, in points, of the piece move m (legal in st) captures
     * (the largest, where one move takes several); 0 for a quiet move.
     * For move ordering and quiescence. */
    int (*capture_value)(const void *st, move_t m);
    /* Whether m (legal in st) is forcing without capturing: after it the
     * mover threatens to win at once (Serbest: a check, or a king with a
     * step to its far rank; Jetan: a new attack on the Princess;
     * tafl: the king with an open line to an escape square, or one
     * attacker short of its capture). Quiescence searches these too. */
    int (*is_forcing)(const void *st, move_t m);
    /* Where the side not to move threatens to win at once (Jetan: it
     * attacks the Princess), sets keep[i] to 1 for each of the n legal
     * moves mv[i] of st that may stop the threat and to 0 for each after
     * which the game goes on and the opponent wins at once; returns 1.
     * Returns 0, keep unset, where it cannot tell (no such threat, or a
     * move might end the game otherwise): every move may then matter.
     * NULL: always 0. Quiescence's replies to a forcing move skip the
     * moves it rules out. */
    int (*threat_replies)(const void *st, const move_t *mv, int n,
                          unsigned char *keep);
};

/* The evaluation of game g (found by its name), or NULL for a game that
 * has none (agent_plays then refuses the agents that evaluate). */
const struct game_eval *eval_of(const struct game *g);

/* Every game's evaluation, NULL-terminated, in game_list's order. */
extern const struct game_eval *const game_evals[];

/* All the weight parameters, every game's in game_evals order: how many
 * there are, and the i-th. */
int eval_weight_count(void);
const struct param_spec *eval_weight(int i);

/* The offset of e's weights among all of them (eval_weight's index). */
int eval_weight_offset(const struct game_eval *e);

/* Writes the e->n_features feature values of st (game not over) into f
 * (room for EVAL_MAX_FEATURES), each from the side to move's view: what
 * eval_score weighs, and what `rulelab tune` (experiments/analysis/tune.c) fits
 * the weights to. */
void eval_features(const struct game_eval *e, const void *st, double *f);

/* The score of st (game not over) for the side to move: the sum of
 * weights[i] * feature i (eval_features), where weights holds
 * e->n_features values. */
double eval_score(const struct game_eval *e, const double *weights,
                  const void *st);

/* A score as the side to move's expected reward, 1 / (1 + e^(-score /
 * scale)), in (0, 1); scale > 0 is the score of odds e:1. */
double eval_win_probability(double score, double scale);

#endif
