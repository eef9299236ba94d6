/*
 * zobrist.h -- Zobrist keys computed on demand.
 *
 * Instead of a table filled at start-up (a global that changes, and a race
 * between threads), each key is a fixed 64-bit mix of (game salt, index):
 * two multiplies and three shifts, the same on every machine and run.
 */
#ifndef RULELAB_ZOBRIST_H
#define RULELAB_ZOBRIST_H

#include <stdint.h>

static inline uint64_t zobrist_key(uint64_t salt, uint32_t index)
{
    uint64_t z = salt + (uint64_t)(index + 1) * 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

#endif
