/*
 * mcts.h -- UCT Monte Carlo tree search with the MCTS-Solver (Winands,
 * Bjornsson and Saito 2008): proven wins and losses are backed up the tree,
 * so a proven win is played and a proven loss avoided while another move
 * exists.
 *
 * The whole tree lives in one pool of fixed-size nodes allocated when the
 * agent is made (max_nodes, or max_mb of memory), addressed by 32-bit
 * indices. A full pool stops the tree from growing; the search goes on
 * with playouts from the leaves and still returns a legal move. Between
 * moves the subtree of the move played is kept (reuse=1) and moved to the
 * front of the pool.
 *
 * Parameters (spec `mcts(key=value,...)`, see `rulelab list`): iterations,
 * ms, c, playout, playout_cap, solver, decisive, reuse, max_nodes, max_mb;
 * then, since identity version 2 and off at their defaults, the knowledge:
 * epsilon (greedy playouts), eval_cut and eval_scale (playouts cut and
 * scored by the evaluation), bias, widen and prior (progressive bias and
 * widening); and every evaluation weight (eval.h), as the kind uses_eval.
 */
#ifndef RULELAB_MCTS_H
#define RULELAB_MCTS_H

#include "agent.h"

extern const struct agent_kind mcts_kind;

#endif
