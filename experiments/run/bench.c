/*
 * bench.c -- what `rulelab bench` measures (bench.h): the random-playout
 * signature and throughput of a variant, MCTS's and ab's speed, and MCTS
 * with each kind of knowledge at a fixed budget. The command prints them.
 */
#include "bench.h"
#include "clock.h"

#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "agent.h"
#include "playout.h"
#include "rng.h"

static void add_totals(struct bench_totals *into, const struct bench_totals *t)
{
    into->playouts += t->playouts;
    into->plies += t->plies;
    for (int i = 0; i < 4; i++)
        into->outcomes[i] += t->outcomes[i];
    for (int i = 0; i < REASON_COUNT; i++)
        into->reasons[i] += t->reasons[i];
}

/* One playout from start into t. */
static void play_one(const struct game *g, const void *start, struct rng *r,
                     struct bench_totals *t)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    game_copy_state(g, st, start);
    t->plies += (uint64_t)playout_run(playout_policies[0], g, st, r, 0);
    struct game_status s = g->status(st);
    t->playouts++;
    t->outcomes[s.outcome]++;
    t->reasons[s.reason]++;
}

/* Plays for `seconds` on `threads` threads; totals summed over threads. */
struct bench_totals bench_timed_run(const struct game *g, const void *start,
                                    double seconds, int threads,
                                    uint64_t seed)
{
    struct bench_totals all;
    memset(&all, 0, sizeof all);
    double t0 = clock_seconds();
#pragma omp parallel num_threads(threads)
    {
        struct bench_totals mine;
        memset(&mine, 0, sizeof mine);
        struct rng r;
        rng_seed(&r, seed + 7919u * (uint64_t)omp_get_thread_num());
        double deadline = t0 + seconds;
        do {
            for (int k = 0; k < 8; k++)
                play_one(g, start, &r, &mine);
        } while (clock_seconds() < deadline);
#pragma omp critical
        add_totals(&all, &mine);
    }
    all.seconds = clock_seconds() - t0;
    return all;
}

/* The bench signature: the total plies of BENCH_SIGNATURE_PLAYOUTS random
 * playouts from start, seeded 0, 1, ...: it changes only when the game's
 * behaviour does. */
uint64_t bench_signature(const struct game *g, const void *start)
{
    struct bench_totals t;
    memset(&t, 0, sizeof t);
    for (int i = 0; i < BENCH_SIGNATURE_PLAYOUTS; i++) {
        struct rng r;
        rng_seed(&r, (uint64_t)i);
        play_one(g, start, &r, &t);
    }
    return t.plies;
}

/* MCTS iterations per second from the start position: one search with a
 * wall-clock budget and no tree reuse. */
double bench_mcts_rate(const struct game *g, const void *start,
                       double seconds, char *err, size_t errsz)
{
    char spec[128];
    struct agent *a;
    snprintf(spec, sizeof spec, "mcts(ms=%d,reuse=0)", (int)(seconds * 1000));
    if (agent_create(spec, 1, &a, err, errsz) != 0)
        return 0;
    double t0 = clock_seconds();
    agent_choose(a, g, start);
    double rate = (double)a->stats.iterations / (clock_seconds() - t0);
    agent_free(a);
    return rate;
}

/* ---- ab ------------------------------------------------------------- */

/* ab's speed: a search of BENCH_AB_NODES nodes (reproducible) from each
 * of BENCH_AB_POSITIONS fixed positions -- the start and the positions
 * 10, 20 and 30 random plies into games seeded 1, 2, 3 -- summing nodes
 * and time; the signature is the node count, which changes only when
 * ab's or the game's behaviour does. */
struct bench_ab bench_ab_rate(const struct game *g, const void *start,
                              char *err, size_t errsz)
{
    struct bench_ab b = {0, 0, 0};
    char spec[64];
    snprintf(spec, sizeof spec, "ab(nodes=%d)", BENCH_AB_NODES);
    for (int i = 0; i < BENCH_AB_POSITIONS; i++) {
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        move_t moves[GAME_MAX_MOVES];
        struct rng r;
        game_copy_state(g, st, start);
        rng_seed(&r, (uint64_t)i);
        for (int p = 0; p < 10 * i && g->status(st).outcome == GAME_ONGOING;
             p++)
            g->apply(st, moves[rng_below(&r, (uint32_t)g->legal_moves(st,
                                                                      moves))]);
        if (g->status(st).outcome != GAME_ONGOING)
            continue;
        struct agent *a;
        if (agent_create(spec, 1, &a, err, errsz) != 0) {
            b.nodes = 0;
            return b;
        }
        double t0 = clock_seconds();
        move_t m = agent_choose(a, g, st);
        b.seconds += clock_seconds() - t0;
        b.nodes += a->stats.iterations;
        b.signature = b.signature * 31 + a->stats.iterations + m;
        agent_free(a);
    }
    return b;
}

/* ---- MCTS with knowledge: a fixed budget per configuration ------------ */

const char *const bench_mcts_configs[] = {
    "playout=random", "playout=greedy", "playout=random,eval_cut=16",
    "playout=greedy,eval_cut=16", "bias=1,widen=1",
    "bias=1,widen=1,prior=eval", NULL};

/* One search of `iterations` from start, seed 1, no tree reuse, with the
 * configuration's parameters (bench.h). */
int bench_mcts_row(const struct game *g, const void *start,
                   const char *config, int iterations,
                   struct bench_mcts_row *row, char *err, size_t errsz)
{
    char spec[256];
    struct agent *a;
    snprintf(spec, sizeof spec, "mcts(iterations=%d,reuse=0,%s)", iterations,
             config);
    if (agent_create(spec, 1, &a, err, errsz) != 0)
        return -1;
    double t0 = clock_seconds();
    agent_choose(a, g, start);
    row->seconds = clock_seconds() - t0;
    row->iterations = a->stats.iterations;
    row->nodes = a->stats.nodes;
    row->value = a->stats.value;
    row->iterations_per_sec = (double)row->iterations / row->seconds;
    agent_free(a);
    return 0;
}

