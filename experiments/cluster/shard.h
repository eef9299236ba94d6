/*
 * shard.h -- which games of a sweep a shard plays.
 *
 * `rulelab run SWEEP --shard K/N` plays shard K (0-based) of N: a fixed
 * partition of the sweep's (cell, game index) pairs, so the N shards
 * together play every game once, and each game is played with the seed
 * and content a one-machine run gives it (seeds come from the sweep, the
 * cell and the index alone, sweep.h). The partition depends on nothing
 * but the sweep file's cells in file order, the games per cell and N: no
 * hash seed, clock or thread count, so every machine computes the same.
 *
 * Without an early-stop rule, game i of cell c (cells numbered from 0 in
 * file order, G games a cell) goes to shard (c * G + i) mod N: the games
 * are dealt round-robin in sweep order. So each shard holds
 * floor(G / N) or ceil(G / N) games of every cell, and the totals of two
 * shards differ by at most one game.
 *
 * With an early-stop rule a cell's stop is judged on its stored prefix
 * (runner.c), so a cell must not be split: whole cells go to shards. By
 * default cell c goes to shard c mod N (round-robin over the cells in file
 * order), so the shards' numbers of cells differ by at most one. Cells
 * differ in cost (a strong agent's game takes a thousand times a random
 * one's), so a plan can deal them instead: shard_plan_balance deals cells
 * by their estimated CPU-seconds (cost.h), the plan is written to a file
 * once (`run --dry-run --write-plan`), and every shard reads that file
 * (`run --shard K/N --plan FILE`). Calibrated costs differ between runs,
 * so the plan is computed once and shared, never recomputed by a shard.
 */
#ifndef RULELAB_SHARD_H
#define RULELAB_SHARD_H

#include <stddef.h>

#include "sweep.h"

#define SHARD_MAX 100000 /* the largest N */

/* Shard k of n; n 0 means the whole sweep (no sharding). */
struct shard {
    int k, n;
    /* With a stop rule: plan[c] is the shard of cell c (0 to n-1), for
     * every cell of the sweep; NULL: cell c is shard c mod n's. Not used
     * without a stop rule. */
    const int *plan;
};

/* Reads "K/N" (decimal digits, 0 <= K < N <= SHARD_MAX) into *out.
 * Returns 0, or -1 with a message naming the text and what is allowed. */
int shard_parse(const char *text, struct shard *out, char *err,
                size_t errsz);

/* Whether the shard plays game `index` of cell `cell` (its index in
 * s->cells). The whole sweep (n 0) plays every game. */
int shard_owns(const struct sweep *s, const struct shard *sh, int cell,
               int index);

/* The first index >= from of cell `cell` that the shard plays (it may be
 * past the cell's last game; INT_MAX when the shard plays none of it). */
int shard_next(const struct sweep *s, const struct shard *sh, int cell,
               int from);

/* How many indices in [begin, end) of cell `cell` the shard plays. */
long shard_count(const struct sweep *s, const struct shard *sh, int cell,
                 int begin, int end);

/* The fingerprint of the games shard sh of s plays, as 64 hex digits
 * and a NUL into hex: the SHA-256 of a text that lists them -- with a stop
 * rule its whole cells ("cells N K: c c ..."), without one the rule
 * (c * G + i) mod N = K ("games N K G C", C cells). Two runs of a shard
 * with one fingerprint play the same games; a database keeps it with each
 * run (runs.deal), so a shard is not resumed under another deal (another
 * plan, games count or stop rule), which could leave games that no shard
 * plays. */
void shard_deal_fingerprint(const struct sweep *s, const struct shard *sh,
                            char hex[65]);

/* Deals n_cells whole cells with the estimated costs cost[c] (>= 0) to n
 * shards: the costliest first (ties: the lower cell index), each to the
 * shard with the least estimated cost so far (ties: the lower shard), into
 * plan[c]. Depends on the costs alone, so one list of costs gives one
 * plan. The costliest shard then holds at most the mean cost plus the
 * costliest cell (and at most 4/3 of the best possible maximum, Graham's
 * bound for this greedy rule). Returns 0, or -1 when memory is short
 * (plan is then not written). */
int shard_plan_balance(const double *cost, int n_cells, int n, int *plan);

/* Writes the plan of sweep s for n shards to path (through path.tmp,
 * renamed into place): a text file that names the sweep (name, seed, the
 * SHA-256 of its file text), n, and for each cell its shard and estimated
 * cost[c] in CPU-seconds, with comments a user can read. Returns 0, or -1
 * with a message. */
int shard_plan_write(const char *path, const struct sweep *s, int n,
                     const int *plan, const double *cost, char *err,
                     size_t errsz);

/* Reads a plan written by shard_plan_write into plan[0..s->n_cells-1].
 * Returns 0, or -1 with a message naming the file (and the line) when it
 * cannot be read, is not a plan, is for another sweep (name, seed or file
 * text), for another number of shards than n, or does not give every cell
 * of s exactly one shard below n. */
int shard_plan_read(const char *path, const struct sweep *s, int n,
                    int *plan, char *err, size_t errsz);

#endif
