/*
 * piece_list.h -- the squares one side's pieces stand on, as a list with
 * each square's slot in it, so that a move generator visits a side's
 * pieces without scanning empty squares, and putting, removing and moving
 * a piece each cost O(1). tafl and Serbest keep one list per side and one
 * slot array indexed by square (sized for their own board); Jetan keeps
 * bit sets instead.
 *
 * Removing a piece moves the list's last square into the freed slot, so
 * the order of the list depends on the history of moves: a generator that
 * walks it writes moves in an order that is part of the game's behaviour
 * (an agent that draws moves by index draws from it).
 */
#ifndef RULELAB_PIECE_LIST_H
#define RULELAB_PIECE_LIST_H

#include <stdint.h>

#define PIECE_LIST_MAX 16 /* pieces a side may have on the board */

struct piece_list {
    uint8_t count;
    uint8_t sq[PIECE_LIST_MAX];
};

/* Appends sq (not yet listed; count < PIECE_LIST_MAX) and records its slot
 * in slot[sq]. */
static inline void piece_list_add(struct piece_list *l, uint8_t *slot, int sq)
{
    slot[sq] = l->count;
    l->sq[l->count++] = (uint8_t)sq;
}

/* Removes the listed square sq: the last square takes its slot. */
static inline void piece_list_remove(struct piece_list *l, uint8_t *slot,
                                     int sq)
{
    int at = slot[sq], last = l->sq[--l->count];
    l->sq[at] = (uint8_t)last;
    slot[last] = (uint8_t)at;
}

/* The piece on the listed square from moves to the empty square to; it
 * keeps its slot. */
static inline void piece_list_move(struct piece_list *l, uint8_t *slot,
                                   int from, int to)
{
    l->sq[slot[from]] = (uint8_t)to;
    slot[to] = slot[from];
}

/* Whether sq is listed at slot[sq]: for state_ok, which checks every
 * occupied square this way and then the counts. */
static inline int piece_list_holds(const struct piece_list *l,
                                   const uint8_t *slot, int sq)
{
    return slot[sq] < l->count && l->sq[slot[sq]] == sq;
}

#endif
