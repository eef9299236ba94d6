/*
 * bench.h -- what `rulelab bench` measures, in the library so that other
 * tools (the bench scripts, a future report of a machine's speed) measure
 * the same way:
 *  - a signature: the total plies of BENCH_SIGNATURE_PLAYOUTS random
 *    playouts from fixed seeds, which changes only when the game's
 *    behaviour does (the habit of chess engines' bench node counts);
 *  - random-playout throughput on one or more threads;
 *  - MCTS's iterations per second and ab's nodes per second, ab's node
 *    count at a fixed budget being its signature;
 *  - MCTS with each playout policy and kind of knowledge at a fixed
 *    iteration budget.
 */
#ifndef RULELAB_BENCH_H
#define RULELAB_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"

#define BENCH_SIGNATURE_PLAYOUTS 200
#define BENCH_AB_POSITIONS 4
#define BENCH_AB_NODES 200000

/* Random playouts counted: how many, their plies, how they ended. */
struct bench_totals {
    uint64_t playouts, plies;
    uint64_t outcomes[4]; /* indexed by enum game_outcome */
    uint64_t reasons[REASON_COUNT];
    double seconds;
};

/* Plays random playouts from start for `seconds` on `threads` threads
 * (thread k seeded seed + 7919 k); the totals summed over the threads. */
struct bench_totals bench_timed_run(const struct game *g, const void *start,
                                    double seconds, int threads,
                                    uint64_t seed);

/* The signature: the total plies of BENCH_SIGNATURE_PLAYOUTS playouts
 * from start, seeded 0, 1, ... */
uint64_t bench_signature(const struct game *g, const void *start);

/* MCTS iterations per second from start: one search with a wall-clock
 * budget of `seconds` and no tree reuse. 0 with a message when the agent
 * cannot be made. */
double bench_mcts_rate(const struct game *g, const void *start,
                       double seconds, char *err, size_t errsz);

/* ab at BENCH_AB_NODES nodes from each of BENCH_AB_POSITIONS fixed
 * positions (the start, and 10, 20, 30 random plies into games seeded 1,
 * 2, 3): nodes and seconds summed, and a signature of the node counts and
 * moves chosen. nodes 0 with a message when the agent cannot be made. */
struct bench_ab {
    uint64_t nodes, signature;
    double seconds;
};
struct bench_ab bench_ab_rate(const struct game *g, const void *start,
                              char *err, size_t errsz);

/* The MCTS configurations timed (spec parameters), NULL-terminated. */
extern const char *const bench_mcts_configs[];

/* One MCTS search of `iterations` from start, seed 1, no tree reuse, with
 * config's parameters: its time, rate, node count and the chosen move's
 * value. Returns 0, or -1 with a message. */
struct bench_mcts_row {
    double seconds, iterations_per_sec, value;
    uint64_t iterations;
    uint32_t nodes;
};
int bench_mcts_row(const struct game *g, const void *start,
                   const char *config, int iterations,
                   struct bench_mcts_row *row, char *err, size_t errsz);

#endif
