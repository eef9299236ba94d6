/*
 * claim.h -- testing a claim such as "Kings Landing on rank 9 is a forced
 * win" on positions taken from stored games.
 *
 * The question asked of each sampled position is the solver's: can the side
 * to move force a win within N plies? The positions are those where the
 * claim could apply: in Serbest, positions where the side to move still has
 * its king in hand and may drop it on its highest allowed rank (the last
 * such position of each stored game: the latest moment the king could still
 * land there; the first is the empty board in every game). Every answer
 * goes into the `claims` table, with the winning line and the verified
 * certificate's hash and file (a win's proof, a no-win's disproof), as
 * soon as it is found: an interrupted claim keeps what it found, and
 * running it again skips the positions already answered.
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
    int positions; /* the claim positions of the first this many games that
                    * have one, answered or not (0 = all) */
    int threads;
    /* where certificates go: a folder; NULL = "certificates" in the
     * database's folder (db_dir), stored as a relative location */
    const char *certificates;
    const char *db_dir;
};

struct claim_summary {
    long positions, wins, no_wins, unknown; /* answered and stored now */
    long skipped; /* already stored before (or by another claim meanwhile) */
    long failed; /* the solver failed (message: the first one) */
    long left; /* not answered: interrupted, or after a storing error */
    int interrupted; /* SIGINT or SIGTERM stopped it */
};

/* Samples positions from db's Serbest games, solves each, and stores each
 * answer as soon as it is found (its own transaction). SIGINT or SIGTERM
 * stop it after the positions in flight (interrupted set; returns 0 if
 * nothing failed). Returns 0, or -1 with a message (the first failure)
 * when a position could not be solved (the others are still solved and
 * stored) or an answer could not be stored (then it stops). */
int claim_run(struct store *st, const struct claim_options *o,
              struct claim_summary *sum, char *err, size_t errsz);

#endif
