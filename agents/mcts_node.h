/*
 * mcts_node.h -- one node of the MCTS tree and the arithmetic on its
 * counts, apart from mcts.c so the tests can check the counts at sizes no
 * test could search to (2^24 visits and more).
 *
 * A node's rewards are kept as an integer count of half-points (a win 2, a
 * draw 1, a loss 0), not as a float sum: a float stops growing at 2^24
 * (1.0 + 2^24 == 2^24 in float), so past 2^24 wins a node's mean would
 * sink towards 0. Half-points stay exact up to 2 * visits, and the search
 * stops before visits reach MCTS_MAX_VISITS, so they fit in 32 bits; the
 * node stays 20 bytes, so a given max_mb holds as many nodes as before.
 */
#ifndef RULELAB_MCTS_NODE_H
#define RULELAB_MCTS_NODE_H

#include <stdint.h>

#include "game.h"

/* The search stops when the root has this many visits: every count in the
 * tree is then below 2^31, and half-points below 2^32. */
#define MCTS_MAX_VISITS 0x7fffffffu

struct node {
    move_t move;
    uint32_t first_child; /* index of the first of n_children; 0 = none */
    uint32_t visits;
    uint32_t half_points; /* sum of the mover's rewards, in half-points */
    uint16_t n_children;
    int8_t proven;
    uint8_t expanded;
};

/* Counts one more visit with the mover's reward: 1 win, 0.5 draw, 0 loss. */
static inline void node_add_reward(struct node *n, double reward)
{
    n->visits++;
    n->half_points += (uint32_t)(reward * 2.0);
}

/* The mover's mean reward over the node's visits (visits > 0). */
static inline double node_mean(const struct node *n)
{
    return (double)n->half_points / (2.0 * (double)n->visits);
}

#endif
