/*
 * metrics.h -- the game metrics that need a game replayed, cached in the
 * database's game_metrics table (results/README.md): for each stored game,
 * the positions the agents moved from and the sum of their legal move
 * counts, so that a cell's branching factor (after Ludii's "branching
 * factor average": legal moves per position, over every position of every
 * game) is a quotient `rulelab report --metrics` reads without replaying.
 *
 * `rulelab metrics DB` fills the cache: it replays each game whose row is
 * missing or was computed under an older engine behaviour version of its
 * game, and writes the rows in batches, as the one writer (it takes the
 * database's writer lock, so not while a `rulelab run` writes it).
 */
#ifndef RULELAB_METRICS_H
#define RULELAB_METRICS_H

#include <stddef.h>

#include "store.h"

struct metrics_result {
    long games; /* games of the sweep (or database) looked at */
    long computed; /* replayed and cached now */
    long cached; /* already cached under the current engine version */
};

/* Fills game_metrics for every game of st (of sweep `sweep` only, when not
 * NULL) that lacks a current row; `progress` (may be NULL) is called with
 * the games done and in all every few thousand games. Returns 0, or -1
 * with a message (a game that does not replay names its id). */
int metrics_cache(struct store *st, const char *sweep,
                  struct metrics_result *out,
                  void (*progress)(long done, long total), char *err,
                  size_t errsz);

#endif
