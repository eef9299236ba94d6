/*
 * mcts_node.h -- one node of the MCTS tree and the arithmetic on its
 * counts, apart from mcts.c so the tests can check the counts at sizes no
 * test could search to (2^24 visits and more).
 *
 * A node's rewards are kept as an integer count of reward units, 1/1024 of
 * a win (a win 1024, a draw 512, a loss 0; a playout cut and scored by the
 * evaluation anything between), not as a float sum: a float stops growing
 * at 2^24 (1.0 + 2^24 == 2^24 in float), so past 2^24 wins a node's mean
 * would sink towards 0. The count stays exact up to 1024 * visits < 2^41,
 * and with win/draw/loss rewards it is 512 times the half-point count that
 * behaviour version 2 kept, so node_mean gives the same double bit for bit
 * ((512 h) / (1024 v) and h / (2 v) are the same real number, rounded
 * once). The 41 bits are split into a 32-bit word and 9 bits packed with
 * the child count, the proof flag and the prior, so the node stays 20
 * bytes and a given max_mb holds as many nodes as before (a pool that
 * fills fills at the same iteration, and the search plays the same moves).
 * Whether a node is expanded is first_child != 0 (children never start at
 * index 0, the root's).
 */
#ifndef RULELAB_MCTS_NODE_H
#define RULELAB_MCTS_NODE_H

#include <stdint.h>

#include "game.h"

/* The search stops when the root has this many visits: every count in the
 * tree is then below 2^31, and reward units below 2^41. */
#define MCTS_MAX_VISITS 0x7fffffffu

/* Reward units of a win; a draw is half. */
#define MCTS_WIN_UNITS 1024u

/* The largest prior a node holds (a prior of 1). */
#define MCTS_PRIOR_MAX 511u

struct node {
    move_t move;
    uint32_t first_child; /* index of the first of n_children; 0 = none */
    uint32_t visits;
    uint32_t units_low; /* the mover's reward units: low 32 bits ... */
    unsigned units_high : 9; /* ... and the 9 above them */
    unsigned n_children : 12;
    signed proven : 2; /* +1 proven won for the mover, -1 lost, 0 open */
    unsigned prior : 9; /* 0..MCTS_PRIOR_MAX, for progressive bias */
};

_Static_assert(sizeof(struct node) == 20, "a node is 20 bytes");
_Static_assert(GAME_MAX_MOVES < 4096, "n_children holds 12 bits");

/* The mover's reward units summed over the node's visits. */
static inline uint64_t node_units(const struct node *n)
{
    return (uint64_t)n->units_high << 32 | n->units_low;
}

/* Sets the node's counts (for the tests and the search's own use). */
static inline void node_set_counts(struct node *n, uint32_t visits,
                                   uint64_t units)
{
    n->visits = visits;
    n->units_low = (uint32_t)units;
    n->units_high = (unsigned)(units >> 32) & 0x1ffu;
}

/* Counts one more visit with the mover's reward, in units (0 loss, 512
 * draw, 1024 win). */
static inline void node_add_units(struct node *n, uint32_t units)
{
    node_set_counts(n, n->visits + 1, node_units(n) + units);
}

/* Counts one more visit with the mover's reward: 1 win, 0.5 draw, 0 loss
 * (rewards between are rounded to the nearest unit). */
static inline void node_add_reward(struct node *n, double reward)
{
    node_add_units(n, (uint32_t)(reward * MCTS_WIN_UNITS + 0.5));
}

/* The mover's mean reward over the node's visits (visits > 0). */
static inline double node_mean(const struct node *n)
{
    return (double)node_units(n)
           / ((double)MCTS_WIN_UNITS * (double)n->visits);
}

static inline int node_expanded(const struct node *n)
{
    return n->first_child != 0;
}

#endif
