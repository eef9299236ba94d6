/*
 * cost.h -- what a sweep's cells cost, estimated from a short calibration.
 *
 * `rulelab run SWEEP --dry-run` prints, per cell and in total, the
 * CPU-seconds its games are estimated to take, and a shard plan (shard.h)
 * deals a stop-rule sweep's whole cells by them. The estimate comes from
 * playing each cell's first games (the sweep's own, with their own seeds;
 * nothing is stored) for about `seconds` of CPU time a cell, at least one
 * game, and timing each game by its thread's CPU clock, so that other load
 * on the machine changes it little. It is an estimate: a cell's games
 * differ in length, a stop rule may end a cell early (the estimate counts
 * every game), and machines differ in speed.
 */
#ifndef RULELAB_COST_H
#define RULELAB_COST_H

#include <stddef.h>

#include "shard.h"
#include "sweep.h"

#define COST_MAX_GAMES 64 /* calibration games a cell at most */

struct cell_cost {
    double per_game; /* mean CPU-seconds of a calibration game */
    int games; /* calibration games played */
};

/* Plays the first games of every cell of s (game 0, 1, ... while the
 * cell's CPU time is below `seconds`, at least one, at most
 * COST_MAX_GAMES and the cell's number of games) on `threads` threads,
 * cells spread over them, into out[0..s->n_cells-1]. progress (may be
 * NULL) is called, one call at a time, with the cells done after each.
 * Returns 0, or -1 with a message (an agent cannot be made, memory is
 * short). */
int cost_calibrate(const struct sweep *s, double seconds, int threads,
                   struct cell_cost *out, void (*progress)(int done, int n),
                   char *err, size_t errsz);

/* The estimated CPU-seconds of the games of shard sh (sh->n 0: of the
 * whole sweep, counting every game of a stop-rule cell): each cell's
 * games the shard plays times its calibrated cost a game. */
double cost_of_shard(const struct sweep *s, const struct shard *sh,
                     const struct cell_cost *cost);

/* The least and the most estimated CPU-seconds of the n shards under
 * `plan` (NULL: the round-robin deal of shard.h). */
void cost_shard_range(const struct sweep *s, const struct cell_cost *cost,
                      int n, const int *plan, double *least, double *most);

/* Deals the whole cells of stop-rule sweep s to n shards by their
 * estimated cost (every game of a cell counted; shard_plan_balance) into
 * plan[0..s->n_cells-1] and writes the plan to path (shard_plan_write).
 * Returns 0, or -1 with a message. */
int cost_write_plan(const struct sweep *s, const struct cell_cost *cost,
                    int n, const char *path, int *plan, char *err,
                    size_t errsz);

#endif
