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
 * (runner.c), so a cell must not be split: whole cells go to shards. Cell
 * c goes to shard c mod N (round-robin over the cells in file order), so
 * the shards' numbers of cells differ by at most one. (Balancing them by
 * the estimated cost of each cell is not done yet.)
 */
#ifndef RULELAB_SHARD_H
#define RULELAB_SHARD_H

#include <stddef.h>

#include "sweep.h"

#define SHARD_MAX 100000 /* the largest N */

/* Shard k of n; n 0 means the whole sweep (no sharding). */
struct shard {
    int k, n;
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

#endif
