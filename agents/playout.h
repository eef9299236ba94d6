/*
 * playout.h -- playout policies for MCTS: how a simulated game picks its
 * moves. A policy is a name and one function, so a capture- or
 * win-preferring policy can be added beside `random` without touching the
 * search.
 */
#ifndef RULELAB_PLAYOUT_H
#define RULELAB_PLAYOUT_H

#include "game.h"
#include "rng.h"

struct playout_policy {
    const char *name;
    /* Picks one of the n > 0 legal moves of st. */
    move_t (*pick)(const struct game *g, const void *st, const move_t *moves,
                   int n, struct rng *r);
};

/* Every policy, NULL-terminated; the index is what mcts's `playout`
 * parameter stores. */
extern const struct playout_policy *const playout_policies[];
extern const char *const playout_policy_names[];

/* Plays st forward with the policy until the game ends or `cap` plies
 * (cap 0 = no cap). Returns the plies played. */
int playout_run(const struct playout_policy *p, const struct game *g,
                void *st, struct rng *r, int cap);

#endif
