/*
 * ab_internal.h -- what the alpha-beta agent's two files share: the
 * agent's data (struct ab), the table entry, the constants and the few
 * helpers both use (what only the search uses is in ab_search.c). ab.c
 * is the agent (parameters, the root's iterative deepening, create and
 * destroy); ab_search.c the tree search below the root (table, move
 * ordering, quiescence, full-width search). Nothing outside those two
 * files includes it.
 */
#ifndef RULELAB_AB_INTERNAL_H
#define RULELAB_AB_INTERNAL_H

#include <stdint.h>
#include <time.h>

#include "ab.h"
#include "eval.h"
#include "rng.h"

#define INF (AB_WIN + 1)
#define HISTORY_SIZE 4096
#define TT_WAYS 4

struct tt_entry {
    uint64_t key, check;
    move_t move;
    int32_t score; /* mate scores relative to the entry's position */
    int16_t depth;
    uint8_t bound, generation; /* bound: ab_search.c's enum bound */
};

struct ab {
    /* parameters */
    int max_depth, ms, quiescence, qdepth, qforcing, contempt, lmr, repdraw;
    uint64_t node_limit;
    double *weights; /* every evaluation weight, eval_weight's order */

    struct rng rng;
    /* with repdraw: the hashes of the game's positions before the root, an
     * open-addressing set (0 = empty slot; a hash of 0 is stored as 1) */
    uint64_t *seen;
    size_t seen_mask, seen_count; /* slots - 1 (0: none yet); members */

    struct tt_entry *tt;
    size_t tt_mask; /* entries - 1; 0 with no table */
    uint8_t generation;

    /* per ply: a state, its moves and their ordering scores */
    int plies;
    unsigned char *states;
    move_t *moves;
    int32_t *order;
    move_t (*killers)[2];
    move_t *win_killer;
    int32_t history[2][HISTORY_SIZE];

    /* this search */
    const struct game *g;
    const struct game_eval *e;
    const double *w; /* the game's weights */
    int draw_score[2]; /* a draw's value for the mover, by its seat */
    uint64_t root_mix; /* mixed into table keys: the root's seat */
    uint64_t nodes, next_clock; /* the clock is read every 256 nodes */
    double deadline;
    int can_stop, stopped;
    uint64_t overwrites; /* entries of this search replaced by others */
    struct ab_info last;

    move_t root_moves[GAME_MAX_MOVES];
    int32_t root_static[GAME_MAX_MOVES];
};

static inline double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static inline void *state_at(struct ab *a, int ply)
{
    return a->states + (size_t)ply * GAME_MAX_STATE_SIZE;
}

static inline int is_win_score(int s)
{
    return s >= AB_WIN - AB_MATE_RANGE;
}

static inline int is_loss_score(int s)
{
    return s <= -(AB_WIN - AB_MATE_RANGE);
}

/* Whether hash (never 0: ab_seen_slot_hash) is in the set of positions
 * before the root. */
static inline int ab_seen_has(const struct ab *a, uint64_t hash)
{
    if (!a->seen)
        return 0;
    for (size_t i = hash & a->seen_mask;; i = (i + 1) & a->seen_mask) {
        if (a->seen[i] == hash)
            return 1;
        if (a->seen[i] == 0)
            return 0;
    }
}

/* A position's hash as the seen set stores it: 0 is the empty slot. */
static inline uint64_t ab_seen_slot_hash(uint64_t hash)
{
    return hash ? hash : 1;
}

/* The value for the mover of root move m of st (ab_search.c): searched to
 * depth with the window (alpha, beta) by principal-variation search, with
 * the full window where first, else a null window first. */
int ab_root_move_value(struct ab *a, const void *st, move_t m, int depth,
                       int alpha, int beta, int first);

#endif
