/*
 * claim.h -- testing a claim such as "Kings Landing on rank 9 is a forced
 * win" on positions taken from stored games.
 *
 * The question asked of each sampled position is the solver's: can the side
 * to move force a win within N plies? The positions are those where the
 * claim could apply: in Serbest, positions where the side to move still has
 * its king in hand and may drop it on its highest allowed rank (the first
 * such position of each stored game). Every answer goes into the `claims`
 * table, with the winning line and the verified proof for a win.
 */
#ifndef RULELAB_CLAIM_H
#define RULELAB_CLAIM_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"

#define CLAIM_KING_LANDING "king_landing"

struct claim_options {
    const char *sweep; /* only games of this sweep; NULL = all */
    int plies;
    uint64_t nodes; /* per position */
    size_t mb; /* transposition table per thread */
    int positions; /* at most this many (0 = all) */
    int threads;
};

struct claim_summary {
    long positions, wins, no_wins, unknown, skipped; /* skipped: already stored */
};

/* Samples positions from db's Serbest games, solves each, stores results.
 * Returns 0, or -1 with a message. */
int claim_run(struct store *st, const struct claim_options *o,
              struct claim_summary *sum, char *err, size_t errsz);

#endif
