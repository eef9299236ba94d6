/*
 * cmd_bench.c -- `rulelab bench`: random-playout throughput of a variant.
 *
 * A signature: a fixed number of playouts from fixed seeds, whose
 * total ply count changes only when the game's behaviour changes (the habit
 * of chess engines' bench node counts). Then a timed run: each thread plays
 * its own playouts for the given seconds; with more than one thread a
 * one-thread run comes first so the speed-up is measured, not assumed.
 * Then the alpha-beta agent's nodes per second from fixed positions at a
 * fixed node budget, whose node count is ab's signature.
 * Last, MCTS with each playout policy and each kind of knowledge at a fixed
 * iteration budget: its iterations per second, and its node count and the
 * chosen move's value, which (like the signature) change only when the
 * search's behaviour does.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agent.h"
#include "cli.h"
#include "playout.h"
#include "rng.h"

#define SIGNATURE_PLAYOUTS 200
#define MCTS_KNOWLEDGE_ITERATIONS 300

struct bench_totals {
    uint64_t playouts, plies;
    uint64_t outcomes[4]; /* indexed by enum game_outcome */
    uint64_t reasons[REASON_COUNT];
    double seconds;
};

/* A monotonic clock, in seconds. */
static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

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
static struct bench_totals timed_run(const struct game *g, const void *start,
                                     double seconds, int threads,
                                     uint64_t seed)
{
    struct bench_totals all;
    memset(&all, 0, sizeof all);
    double t0 = now_seconds();
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
        } while (now_seconds() < deadline);
#pragma omp critical
        add_totals(&all, &mine);
    }
    all.seconds = now_seconds() - t0;
    return all;
}

/* The bench signature: the total plies of SIGNATURE_PLAYOUTS random
 * playouts from start, seeded 0, 1, ...: it changes only when the game's
 * behaviour does. */
static uint64_t signature(const struct game *g, const void *start)
{
    struct bench_totals t;
    memset(&t, 0, sizeof t);
    for (int i = 0; i < SIGNATURE_PLAYOUTS; i++) {
        struct rng r;
        rng_seed(&r, (uint64_t)i);
        play_one(g, start, &r, &t);
    }
    return t.plies;
}

/* MCTS iterations per second from the start position: one search with a
 * wall-clock budget and no tree reuse. */
static double mcts_rate(const struct game *g, const void *start,
                        double seconds)
{
    char spec[128], err[512];
    struct agent *a;
    snprintf(spec, sizeof spec, "mcts(ms=%d,reuse=0)", (int)(seconds * 1000));
    if (agent_create(spec, 1, &a, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab bench: %s\n", err);
        return 0;
    }
    double t0 = now_seconds();
    agent_choose(a, g, start);
    double rate = (double)a->stats.iterations / (now_seconds() - t0);
    agent_free(a);
    return rate;
}

/* ---- ab ------------------------------------------------------------- */

#define AB_BENCH_POSITIONS 4
#define AB_BENCH_NODES 200000

struct ab_bench {
    uint64_t nodes, signature;
    double seconds;
};

/* ab's speed: a search of AB_BENCH_NODES nodes (reproducible) from each
 * of AB_BENCH_POSITIONS fixed positions -- the start and the positions
 * 10, 20 and 30 random plies into games seeded 1, 2, 3 -- summing nodes
 * and time; the signature is the node count, which changes only when
 * ab's or the game's behaviour does. */
static struct ab_bench ab_rate(const struct game *g, const void *start)
{
    struct ab_bench b = {0, 0, 0};
    char spec[64], err[512];
    snprintf(spec, sizeof spec, "ab(nodes=%d)", AB_BENCH_NODES);
    for (int i = 0; i < AB_BENCH_POSITIONS; i++) {
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
        if (agent_create(spec, 1, &a, err, sizeof err) != 0) {
            fprintf(stderr, "rulelab bench: %s\n", err);
            return b;
        }
        double t0 = now_seconds();
        move_t m = agent_choose(a, g, st);
        b.seconds += now_seconds() - t0;
        b.nodes += a->stats.iterations;
        b.signature = b.signature * 31 + a->stats.iterations + m;
        agent_free(a);
    }
    return b;
}

/* ---- MCTS with knowledge: a fixed budget per configuration ------------ */

/* The MCTS configurations timed, beside plain random playouts. */
static const char *const mcts_knowledge_configs[] = {
    "playout=random", "playout=greedy", "playout=random,eval_cut=16",
    "playout=greedy,eval_cut=16", "bias=1,widen=1",
    "bias=1,widen=1,prior=eval", NULL};

struct mcts_knowledge_row {
    double seconds, iterations_per_sec, value;
    uint64_t iterations;
    uint32_t nodes;
};

/* One search of `iterations` from start, seed 1, no tree reuse, with the
 * configuration's parameters. Returns 0, or -1 with a message on stderr. */
static int mcts_knowledge_row(const struct game *g, const void *start,
                              const char *config, int iterations,
                              struct mcts_knowledge_row *row)
{
    char spec[256], err[4096];
    struct agent *a;
    snprintf(spec, sizeof spec, "mcts(iterations=%d,reuse=0,%s)", iterations,
             config);
    if (agent_create(spec, 1, &a, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab bench: %s\n", err);
        return -1;
    }
    double t0 = now_seconds();
    agent_choose(a, g, start);
    row->seconds = now_seconds() - t0;
    row->iterations = a->stats.iterations;
    row->nodes = a->stats.nodes;
    row->value = a->stats.value;
    row->iterations_per_sec = (double)row->iterations / row->seconds;
    agent_free(a);
    return 0;
}

/* Times every configuration; prints one line each, or (json) a JSON
 * array of objects. */
static void print_mcts_knowledge(const struct game *g, const void *start,
                                 int iterations, int json)
{
    if (json)
        printf("[");
    else
        printf("mcts with knowledge (%d iterations from the start, one "
               "thread; nodes and the chosen move's value are a behaviour "
               "signature):\n", iterations);
    for (int i = 0, shown = 0; mcts_knowledge_configs[i]; i++) {
        struct mcts_knowledge_row row;
        const char *config = mcts_knowledge_configs[i];
        if (mcts_knowledge_row(g, start, config, iterations, &row) != 0)
            continue;
        if (json)
            printf("%s{\"config\": \"%s\", \"iterations\": %llu, "
                   "\"seconds\": %.4f, \"iterations_per_sec\": %.1f, "
                   "\"nodes\": %u, \"value\": %.6f}", shown++ ? ", " : "",
                   config, (unsigned long long)row.iterations, row.seconds,
                   row.iterations_per_sec, row.nodes, row.value);
        else
            printf("  %-28s %9.0f iterations per sec  %8u nodes  value "
                   "%.6f\n", config, row.iterations_per_sec, row.nodes,
                   row.value);
    }
    if (json)
        printf("]");
}

/* Prints the results as aligned "name: value" lines (the default). */
static void print_text(const char *variant, const struct bench_totals *t,
                       int threads, double speedup, uint64_t sig,
                       double mcts_ips, double raw_ips,
                       const struct ab_bench *ab, const struct game *g,
                       const void *start, int mcts_iterations)
{
    printf("variant:          %s\n", variant);
    printf("signature:        %llu plies in %d seeded playouts\n",
           (unsigned long long)sig, SIGNATURE_PLAYOUTS);
    printf("threads:          %d\n", threads);
    printf("seconds:          %.2f\n", t->seconds);
    printf("playouts:         %llu\n", (unsigned long long)t->playouts);
    printf("playouts per sec: %.0f\n", (double)t->playouts / t->seconds);
    printf("plies per sec:    %.0f\n", (double)t->plies / t->seconds);
    printf("avg plies:        %.1f\n",
           (double)t->plies / (double)t->playouts);
    if (threads > 1)
        printf("speed-up:         %.2fx over one thread\n", speedup);
    printf("outcomes:         seat 0 %llu, seat 1 %llu, draw %llu\n",
           (unsigned long long)t->outcomes[GAME_WIN_SEAT0],
           (unsigned long long)t->outcomes[GAME_WIN_SEAT1],
           (unsigned long long)t->outcomes[GAME_DRAW]);
    printf("mcts iterations per sec: %.0f (one thread; %.0f%% of the %.0f "
           "playouts per sec that raw plies per sec / avg plies give)\n",
           mcts_ips, 100.0 * mcts_ips / raw_ips, raw_ips);
    printf("ab nodes per sec: %.0f (%llu nodes in %.2f s from %d fixed "
           "positions; signature %llu)\n", (double)ab->nodes / ab->seconds,
           (unsigned long long)ab->nodes, ab->seconds, AB_BENCH_POSITIONS,
           (unsigned long long)ab->signature);
    printf("reasons:         ");
    for (int i = 1; i < REASON_COUNT; i++)
        if (t->reasons[i])
            printf(" %s %llu", end_reason_name((enum end_reason)i),
                   (unsigned long long)t->reasons[i]);
    printf("\n");
    if (mcts_iterations > 0)
        print_mcts_knowledge(g, start, mcts_iterations, 0);
}

/* Prints the results as one JSON object on one line (--json). */
static void print_json(const char *variant, const struct bench_totals *t,
                       int threads, double speedup, uint64_t sig,
                       double mcts_ips, double raw_ips,
                       const struct ab_bench *ab, const struct game *g,
                       const void *start, int mcts_iterations)
{
    printf("{\"variant\": \"%s\", \"threads\": %d, \"seconds\": %.3f, "
           "\"playouts\": %llu, \"plies\": %llu, \"playouts_per_sec\": %.1f, "
           "\"plies_per_sec\": %.1f, \"avg_plies\": %.2f, \"speedup\": %.3f, "
           "\"signature\": %llu, \"mcts_iterations_per_sec\": %.1f, "
           "\"mcts_ratio\": %.3f, \"ab_nodes\": %llu, \"ab_seconds\": %.3f, "
           "\"ab_nodes_per_sec\": %.1f, \"ab_signature\": %llu, "
           "\"outcomes\": {\"seat0\": %llu, "
           "\"seat1\": %llu, \"draw\": %llu}, \"reasons\": {",
           variant, threads, t->seconds, (unsigned long long)t->playouts,
           (unsigned long long)t->plies, (double)t->playouts / t->seconds,
           (double)t->plies / t->seconds,
           (double)t->plies / (double)t->playouts, speedup,
           (unsigned long long)sig, mcts_ips, mcts_ips / raw_ips,
           (unsigned long long)ab->nodes, ab->seconds,
           (double)ab->nodes / ab->seconds, (unsigned long long)ab->signature,
           (unsigned long long)t->outcomes[GAME_WIN_SEAT0],
           (unsigned long long)t->outcomes[GAME_WIN_SEAT1],
           (unsigned long long)t->outcomes[GAME_DRAW]);
    const char *sep = "";
    for (int i = 1; i < REASON_COUNT; i++) {
        if (!t->reasons[i])
            continue;
        printf("%s\"%s\": %llu", sep, end_reason_name((enum end_reason)i),
               (unsigned long long)t->reasons[i]);
        sep = ", ";
    }
    printf("}");
    if (mcts_iterations > 0) {
        printf(", \"mcts_knowledge\": ");
        print_mcts_knowledge(g, start, mcts_iterations, 1);
    }
    printf("}\n");
}

/* `rulelab bench` (the run contract of struct cli_command): the signature,
 * then the timed runs and the MCTS rate, as text or JSON. */
static int run_bench(int argc, char **argv)
{
    const char *seconds_text = "3", *pos[1];
    long threads = 1, seed = 1, mcts_iterations = 300;
    int json = 0, npos;
    const struct cli_option opts[] = {
        {.name = "--seconds", .value = &seconds_text},
        {.name = "--threads", .number = &threads, .min = 1, .max = 1024},
        {.name = "--seed", .number = &seed, .max = 0x7fffffffL},
        {.name = "--json", .flag = &json},
        {.name = "--mcts-iterations", .number = &mcts_iterations,
         .max = 1000000000L},
        {.name = NULL}};
    int rc = cli_parse(argc, argv, opts, pos, 1, &npos, &cmd_bench);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if (npos != 1)
        return cli_usage_error(&cmd_bench, "needs VARIANT");
    char *end;
    double seconds = strtod(seconds_text, &end);
    /* Written as "not inside the range" so that NaN (every comparison
     * false) is rejected too; inf and 1e999 fail the upper bound. The lower
     * bound keeps MCTS's budget (whole ms) at least 1 ms. */
    if (end == seconds_text || *end || !(seconds >= 0.001 && seconds <= 3600)) {
        fprintf(stderr, "rulelab bench: --seconds must be a number from "
                        "0.001 to 3600, not '%s'\n", seconds_text);
        return CLI_USAGE;
    }
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char start[GAME_MAX_STATE_SIZE];
    if (cli_setup(pos[0], NULL, NULL, &v, start) != 0)
        return CLI_FAIL;
    char canonical[VARIANT_TEXT_MAX];
    variant_canonical(&v, canonical, sizeof canonical);
    uint64_t sig = signature(v.game, start);
    struct bench_totals t = timed_run(v.game, start, seconds, 1,
                                      (uint64_t)seed);
    /* One-thread raw playouts per second: what MCTS could do at best. */
    double raw_ips = (double)t.playouts / t.seconds;
    double mcts_ips = mcts_rate(v.game, start, seconds);
    struct ab_bench ab = ab_rate(v.game, start);
    double speedup = 1.0;
    if (threads > 1) {
        double one = (double)t.plies / t.seconds;
        t = timed_run(v.game, start, seconds, (int)threads, (uint64_t)seed);
        speedup = ((double)t.plies / t.seconds) / one;
    }
    if (json)
        print_json(canonical, &t, (int)threads, speedup, sig, mcts_ips,
                   raw_ips, &ab, v.game, start, (int)mcts_iterations);
    else
        print_text(canonical, &t, (int)threads, speedup, sig, mcts_ips,
                   raw_ips, &ab, v.game, start, (int)mcts_iterations);
    return CLI_OK;
}

const struct cli_command cmd_bench = {
    "bench", "random-playout speed of a variant",
    "usage: rulelab bench VARIANT [--seconds S] [--threads N] [--seed N]"
    " [--mcts-iterations N] [--json]\n\n"
    "Plays uniformly random games from the start of VARIANT and prints\n"
    "playouts and plies per second, the average game length and the\n"
    "outcomes. First a signature: the total plies of 200 playouts from fixed\n"
    "seeds, which changes only when the game's behaviour changes. Then MCTS\n"
    "iterations per second from the start position (one thread, S seconds),\n"
    "beside the playouts per second that raw play allows. Then ab's nodes\n"
    "per second: a 200000-node search from each of 4 fixed positions (the\n"
    "start, and 10, 20, 30 seeded random plies in), with the node count's\n"
    "signature. Last, MCTS with each playout policy, eval_cut and\n"
    "progressive bias and widening, N iterations each: iterations per\n"
    "second, the node count and the chosen move's value (which change only\n"
    "when the search's behaviour does).\n\n"
    "  --seconds S   how long to play, 0.001 to 3600 (default 3)\n"
    "  --threads N   threads, each playing its own games (default 1); with\n"
    "                N > 1 a one-thread run comes first, for the speed-up\n"
    "  --seed N      seed of the timed run (default 1)\n"
    "  --mcts-iterations N  the budget of each MCTS configuration (default\n"
    "                300; 0 = leave them out)\n"
    "  --json        one JSON object with playouts_per_sec, plies_per_sec,\n"
    "                avg_plies, threads, speedup, signature,\n"
    "                mcts_iterations_per_sec, mcts_ratio, ab_nodes,\n"
    "                ab_seconds, ab_nodes_per_sec, ab_signature, outcomes\n"
    "                and mcts_knowledge (config, iterations, seconds,\n"
    "                iterations_per_sec, nodes, value per configuration)\n",
    run_bench};
