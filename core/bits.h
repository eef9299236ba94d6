/*
 * bits.h -- counting and picking the set bits of a word, for the move
 * generators' random_move (game.h), which count moves from destination
 * sets instead of writing them.
 *
 * Built with the popcount instruction (CMake's RULELAB_POPCNT, on where
 * the building machine has it; __POPCNT__ is then defined), a count is
 * that instruction. Without it __builtin_popcount is a call into libgcc's
 * table-driven routine, so the count is the few arithmetic steps of the
 * classic SWAR count instead, inline.
 */
#ifndef RULELAB_BITS_H
#define RULELAB_BITS_H

#include <stdint.h>

/* The number of set bits of x. */
static inline int bits_count64(uint64_t x)
{
#ifdef __POPCNT__
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (int)((x * 0x0101010101010101ull) >> 56);
#endif
}

static inline int bits_count32(uint32_t x)
{
#ifdef __POPCNT__
    return __builtin_popcount(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (int)((x * 0x01010101u) >> 24);
#endif
}

/* The index of the k-th (from 0) set bit of x, counting from bit 0;
 * k < bits_count64(x). */
static inline int bits_nth64(uint64_t x, int k)
{
    for (; k > 0; k--)
        x &= x - 1;
    return __builtin_ctzll(x);
}

#endif
