/*
 * history.h -- the stretch of play since the last irreversible move (a
 * capture, or in Serbest also a drop), which the draw rules of tafl and
 * Serbest count: how many plies it has lasted (the no-capture rule) and
 * the hashes of its positions (threefold repetition).
 *
 * An irreversible move makes every earlier position unreachable, so the
 * repetition count needs only the positions since. The last HISTORY_PLIES
 * of them are kept in a ring indexed by ply; a position longer ago than
 * that is not compared (RULES.md's reading: repetition is remembered over
 * the last 256 plies since a capture).
 */
#ifndef RULELAB_HISTORY_H
#define RULELAB_HISTORY_H

#include <stdint.h>

#include "game.h"

#define HISTORY_PLIES 256

struct history {
    uint16_t quiet_plies; /* plies since the last irreversible move */
    uint16_t len; /* positions in ring since then, at most HISTORY_PLIES */
    uint64_t ring[HISTORY_PLIES]; /* position hashes, indexed by ply */
};

/* Starts a stretch at the position with `hash`, reached at `ply`, as its
 * own first occurrence. quiet_plies is left as it is (a position read from
 * text sets it from the text). */
static inline void history_start(struct history *h, uint32_t ply,
                                 uint64_t hash)
{
    h->len = 1;
    h->ring[ply % HISTORY_PLIES] = hash;
}

/* Records the position with `hash` reached at `ply` by a move; an
 * irreversible move starts a new stretch. quiet_plies stops at UINT16_MAX. */
static inline void history_push(struct history *h, uint32_t ply,
                                uint64_t hash, int irreversible)
{
    if (irreversible) {
        h->quiet_plies = 0;
        h->len = 0;
    } else if (h->quiet_plies < UINT16_MAX) {
        h->quiet_plies++;
    }
    h->ring[ply % HISTORY_PLIES] = hash;
    if (h->len < HISTORY_PLIES)
        h->len++;
}

/* How often the position with `hash` at `ply` (the latest recorded) has
 * occurred in the stretch with the same side to move: 1 + the matches two,
 * four, ... plies back. */
static inline int history_repetitions(const struct history *h, uint32_t ply,
                                      uint64_t hash)
{
    int count = 1;
    for (int back = 2; back < h->len; back += 2)
        if (h->ring[(ply - (uint32_t)back) % HISTORY_PLIES] == hash)
            count++;
    return count;
}

/* h mixed with what the draw rules can still see of the stretch at ply:
 * its quiet-ply count, its length and its live positions' hashes, newest
 * first (the ring's stale slots are left out: no rule reads them). */
static inline uint64_t history_key(uint64_t h, const struct history *hist,
                                   uint32_t ply)
{
    h = game_key_mix(h, (uint64_t)hist->quiet_plies << 16 | hist->len);
    for (uint32_t back = 0; back < hist->len; back++)
        h = game_key_mix(h, hist->ring[(ply - back) % HISTORY_PLIES]);
    return h;
}

#endif
