/*
 * minimax.h -- a deliberately plain exhaustive minimax, the reference the
 * solver's tests (tests/test_solver.c) compare df-pn against. It shares
 * nothing with agents/: no transposition table, no move ordering, no
 * pruning beyond stopping an OR/AND loop once its answer is known.
 */
#ifndef RULELAB_MINIMAX_H
#define RULELAB_MINIMAX_H

#include "game.h"

/* 1 if the side to move at st (the attacker) can force a win within
 * `plies` plies, judged by the game's status (the outcome is a win of the
 * attacker's seat), else 0. A game already over at st counts as a win only
 * if the attacker won it; draws, losses and games not over after `plies`
 * plies are not wins. Cost: up to (moves per position)^plies. */
int minimax_forced_win(const struct game *g, const void *st, int plies);

#endif
