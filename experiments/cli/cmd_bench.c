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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"

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
    for (int i = 0, shown = 0; bench_mcts_configs[i]; i++) {
        struct bench_mcts_row row;
        const char *config = bench_mcts_configs[i];
        char err[4096];
        if (bench_mcts_row(g, start, config, iterations, &row, err,
                           sizeof err) != 0) {
            fprintf(stderr, "rulelab bench: %s\n", err);
            continue;
        }
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
                       const struct bench_ab *ab, const struct game *g,
                       const void *start, int mcts_iterations)
{
    printf("variant:          %s\n", variant);
    printf("signature:        %llu plies in %d seeded playouts\n",
           (unsigned long long)sig, BENCH_SIGNATURE_PLAYOUTS);
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
           (unsigned long long)ab->nodes, ab->seconds, BENCH_AB_POSITIONS,
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
                       const struct bench_ab *ab, const struct game *g,
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
    int json = 0, rc;
    const struct cli_option opts[] = {
        {.name = "--seconds", .value = &seconds_text},
        {.name = "--threads", .number = &threads, .min = 1, .max = 1024},
        {.name = "--seed", .number = &seed, .max = 0x7fffffffL},
        {.name = "--json", .flag = &json},
        {.name = "--mcts-iterations", .number = &mcts_iterations,
         .max = 1000000000L},
        {.name = NULL}};
    if (!cli_parse_exact(argc, argv, opts, pos, &cmd_bench, &rc))
        return rc;
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
    uint64_t sig = bench_signature(v.game, start);
    struct bench_totals t = bench_timed_run(v.game, start, seconds, 1,
                                            (uint64_t)seed);
    /* One-thread raw playouts per second: what MCTS could do at best. */
    double raw_ips = (double)t.playouts / t.seconds;
    char err[512] = "";
    double mcts_ips = bench_mcts_rate(v.game, start, seconds, err,
                                      sizeof err);
    struct bench_ab ab = bench_ab_rate(v.game, start, err, sizeof err);
    if (err[0])
        fprintf(stderr, "rulelab bench: %s\n", err);
    double speedup = 1.0;
    if (threads > 1) {
        double one = (double)t.plies / t.seconds;
        t = bench_timed_run(v.game, start, seconds, (int)threads,
                            (uint64_t)seed);
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
    run_bench, 1, "needs VARIANT"};
