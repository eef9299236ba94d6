/*
 * playout.h -- playout policies for MCTS: how a simulated game picks its
 * moves. A policy is a name and one function, so a capture- or
 * win-preferring policy sits beside `random` without touching the search.
 *
 * Policies:
 *   random  uniform over the legal moves (needs no context).
 *   greedy  takes a move that wins at once when its bounded check finds
 *           one; else draws a capture with probability 1 - epsilon (any
 *           move otherwise, or when there is no capture) and, while the
 *           drawn move lets the opponent win at once, draws again
 *           uniformly among the moves not yet rejected; at most
 *           GREEDY_SAFETY_CHECKS drawn moves are checked, and the next
 *           draw is played unchecked. Each win check applies at most
 *           GREEDY_CHECKS moves: all of them when there are no more (so
 *           every Jetan and tafl position but a few), else the captures
 *           first and then moves drawn at random; so a win by a quiet move
 *           among many (a drop that mates in Serbest) may be missed, and
 *           the work per ply stays bounded.
 */
#ifndef RULELAB_PLAYOUT_H
#define RULELAB_PLAYOUT_H

#include "eval.h"
#include "game.h"
#include "rng.h"

#define GREEDY_CHECKS 128
#define GREEDY_SAFETY_CHECKS 3

/* What a policy may use beside the position: the game's evaluation (its
 * capture values) and the policy's parameters. */
struct playout_context {
    const struct game_eval *eval;
    double epsilon; /* greedy: chance of a move drawn from all moves */
    /* greedy's memory from one ply to the next: set when a full check
     * found no win for the side to move after the move picked, so the
     * next pick skips its own win check. Whoever calls pick on another
     * position than the one after the last pick sets it to 0 (the
     * playout loop does at its start). */
    int next_checked;
};

struct playout_policy {
    const char *name;
    /* Picks one of the n > 0 legal moves of st. ctx may be NULL for a
     * policy that does not need one (random). */
    move_t (*pick)(struct playout_context *ctx, const struct game *g,
                   const void *st, const move_t *moves, int n, struct rng *r);
};

/* Every policy, NULL-terminated; the index is what mcts's `playout`
 * parameter stores (random is 0, and new policies are appended, so stored
 * indices keep their meaning). */
extern const struct playout_policy *const playout_policies[];
extern const char *const playout_policy_names[];

/* Plays st forward with the policy until the game ends or `cap` plies
 * (cap 0 = no cap). Returns the plies played. */
int playout_run_with(const struct playout_policy *p,
                     struct playout_context *ctx, const struct game *g,
                     void *st, struct rng *r, int cap);

/* playout_run_with without a context, for policies that need none. */
int playout_run(const struct playout_policy *p, const struct game *g,
                void *st, struct rng *r, int cap);

#endif
