/*
 * history.h -- the stretch of play since the last irreversible move (a
 * capture, or in Serbest also a drop), which the draw rules of tafl and
 * Serbest count: how many plies it has lasted (the no-capture rule) and
 * the hashes of its positions (threefold repetition).
 *
 * An irreversible move makes every earlier position unreachable, so the
 * repetition count needs only the positions since. The last HISTORY_PLIES
 * of them are kept in a ring indexed by their place in the stretch; a
 * position longer ago than that is not compared (our reading,
 * docs/rules.md#readings-we-chose: repetition is remembered over the last
 * 256 plies since a capture).
 *
 * Most positions never occurred before in their stretch, and a filter
 * says so without reading the ring: a 512-bit set with the bit of each
 * recorded position's hash (its top 9 bits) set. A position whose bit
 * was clear when it was recorded is new, so it counts once; only one
 * whose bit was set (a repetition, or another position with the same 9
 * bits: about one in ten at 50 plies into a stretch) reads the ring.
 *
 * The stretch starts at slot 0, so while it is shorter than the ring its
 * positions fill the ring's first `len` slots and the slots after them
 * are never read. A state whose history is its last member can therefore
 * be copied without them (history_used_bytes, game.h's state_used): a
 * copy costs the stretch's length, not the ring's 2 KiB.
 */
#ifndef RULELAB_HISTORY_H
#define RULELAB_HISTORY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "game.h"

#define HISTORY_PLIES 256
#define HISTORY_FILTER_WORDS 8 /* 512 bits */

struct history {
    uint16_t quiet_plies; /* plies since the last irreversible move */
    uint16_t len; /* positions in ring since then, at most HISTORY_PLIES */
    uint32_t next; /* positions recorded in the stretch (mod 2^32): the
                      newest is in slot (next - 1) % HISTORY_PLIES */
    uint32_t newest_seen; /* whether the newest position's filter bit was
                             set before it was recorded */
    uint64_t filter[HISTORY_FILTER_WORDS]; /* bit hash >> 55 of every
                                              position in the stretch */
    uint64_t ring[HISTORY_PLIES]; /* position hashes; slots >= len unused */
};

/* The leading bytes of h that hold what it records: its counters and its
 * first len slots, which are all its live positions. */
static inline size_t history_used_bytes(const struct history *h)
{
    return offsetof(struct history, ring) + sizeof h->ring[0] * h->len;
}

/* The slot of the position `back` positions before the newest
 * (back < len). */
static inline uint64_t history_back(const struct history *h, uint32_t back)
{
    return h->ring[(h->next - 1 - back) % HISTORY_PLIES];
}

/* Sets the filter bit of hash; returns whether it was set already. */
static inline uint32_t history_filter_add(struct history *h, uint64_t hash)
{
    const uint32_t bit = (uint32_t)(hash >> 55);
    const uint64_t mask = 1ull << (bit & 63);
    const uint32_t seen = (h->filter[bit >> 6] & mask) != 0;
    h->filter[bit >> 6] |= mask;
    return seen;
}

/* Starts a stretch at the position with `hash` as its own first
 * occurrence. quiet_plies is left as it is (a position read from text sets
 * it from the text). */
static inline void history_start(struct history *h, uint64_t hash)
{
    h->len = 1;
    h->next = 1;
    h->ring[0] = hash;
    memset(h->filter, 0, sizeof h->filter);
    h->newest_seen = history_filter_add(h, hash);
}

/* Records the position with `hash` reached by a move; an irreversible move
 * starts a new stretch. quiet_plies stops at UINT16_MAX. */
static inline void history_push(struct history *h, uint64_t hash,
                                int irreversible)
{
    if (irreversible) {
        h->quiet_plies = 0;
        history_start(h, hash);
        return;
    }
    if (h->quiet_plies < UINT16_MAX)
        h->quiet_plies++;
    h->ring[h->next % HISTORY_PLIES] = hash;
    h->next++;
    h->newest_seen = history_filter_add(h, hash);
    if (h->len < HISTORY_PLIES)
        h->len++;
}

/* How often the position with `hash` (the latest recorded) has occurred in
 * the stretch with the same side to move: 1 + the matches two, four, ...
 * positions back; 1 at once when the filter knew it as new. */
static inline int history_repetitions(const struct history *h, uint64_t hash)
{
    int count = 1;
    if (!h->newest_seen)
        return 1;
    for (uint32_t back = 2; back < h->len; back += 2)
        if (history_back(h, back) == hash)
            count++;
    return count;
}

/* history_repetitions of a position with `hash` were it recorded next by
 * a reversible move, without recording it: the same filter test, and the
 * matches two, four, ... positions before it, which are one, three, ...
 * before the newest now. With the ring full, the slot the new position
 * would take is the oldest, and it lies beyond the last one compared. */
static inline int history_repetitions_after(const struct history *h,
                                            uint64_t hash)
{
    const uint32_t bit = (uint32_t)(hash >> 55);
    if (!(h->filter[bit >> 6] >> (bit & 63) & 1))
        return 1;
    const uint32_t len = h->len < HISTORY_PLIES ? h->len + 1u : h->len;
    int count = 1;
    for (uint32_t back = 2; back < len; back += 2)
        if (history_back(h, back - 1) == hash)
            count++;
    return count;
}

/* h mixed with what the draw rules can still see of the stretch: its
 * quiet-ply count, its length and its live positions' hashes, newest
 * first. */
static inline uint64_t history_key(uint64_t h, const struct history *hist)
{
    h = game_key_mix(h, (uint64_t)hist->quiet_plies << 16 | hist->len);
    for (uint32_t back = 0; back < hist->len; back++)
        h = game_key_mix(h, history_back(hist, back));
    return h;
}

#endif
