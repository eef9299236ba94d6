/*
 * cmd_perft.c -- `rulelab perft`: count the legal move sequences of a
 * given length, the move generator's proof (the counts are checked against
 * the naive reference implementations in the tests).
 *
 * Depth is bounded per game: one ply more than the bound from the start
 * takes tens of minutes to hours, so a deeper count needs --force.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* The deepest perft each game runs without --force, its perft_max_depth
 * (core/game.h): the deepest depth whose count from the start position
 * finished within a few minutes on the project's 2-core AMD EPYC VM,
 * under load (`time build/rulelab perft GAME DEPTH`, Release): tafl 5 in
 * 26 s, jetan 5 in 119 s, serbest 3 in 1.2 s (serbest 4 had not
 * finished after 600 s). Each further ply multiplies the time by the
 * branching factor (tafl 72, jetan 112, serbest 670 moves at the start), so
 * one more is tens of minutes to hours and `perft tafl 20` would never end.
 * --force allows up to PERFT_FORCED_MAX_DEPTH, e.g. for endgame positions. */
#define PERFT_FORCED_MAX_DEPTH 20

/* The deepest depth g runs without --force (see above): the game's own
 * perft_max_depth, or 3 for a game not yet measured. */
static int perft_max_depth(const struct game *g)
{
    return g->perft_max_depth > 0 ? g->perft_max_depth : 3;
}

/* game_perft, reporting an allocation failure on stderr. 0 or -1. */
static int perft_or_report(const struct game *g, const void *st, int depth,
                           uint64_t *count)
{
    if (game_perft(g, st, depth, count) == 0)
        return 0;
    fprintf(stderr, "rulelab perft: out of memory for the move buffers of a "
                    "depth-%d perft\n", depth);
    return -1;
}

/* `rulelab perft` (the run contract of struct cli_command): the count
 * (after each first move's with --divide); CLI_USAGE past the depth limit
 * without --force, CLI_FAIL when the move buffers cannot be allocated. */
static int run_perft(int argc, char **argv)
{
    const char *position = NULL, *moves = NULL, *pos[2];
    int divide = 0, force = 0, rc;
    const struct cli_option opts[] = {
        {.name = "--position", .value = &position},
        {.name = "--moves", .value = &moves},
        {.name = "--divide", .flag = &divide},
        {.name = "--force", .flag = &force},
        {.name = NULL}};
    if (!cli_parse_exact(argc, argv, opts, pos, &cmd_perft, &rc))
        return rc;
    long depth;
    if (cli_parse_int(pos[1], "DEPTH", 0, PERFT_FORCED_MAX_DEPTH, &depth) != 0)
        return CLI_USAGE;
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE], child[GAME_MAX_STATE_SIZE];
    if (cli_setup(pos[0], position, moves, &v, st) != 0)
        return CLI_FAIL;
    const struct game *g = v.game;
    if (depth > perft_max_depth(g) && !force) {
        fprintf(stderr, "rulelab perft: depth %ld is too deep for %s: at most "
                        "%d (from the start, one more ply takes tens of "
                        "minutes to hours); --force allows up to %d\n",
                depth, g->name, perft_max_depth(g), PERFT_FORCED_MAX_DEPTH);
        return CLI_USAGE;
    }
    uint64_t total = 0;
    if (divide && depth > 0) {
        move_t buf[GAME_MAX_MOVES];
        int n = g->legal_moves(st, buf);
        for (int i = 0; i < n; i++) {
            char text[32];
            uint64_t c;
            game_copy_state(g, child, st);
            g->apply(child, buf[i]);
            game_check_invariants(g, child, buf[i]);
            if (perft_or_report(g, child, (int)depth - 1, &c) != 0)
                return CLI_FAIL;
            g->move_to_text(st, buf[i], text, sizeof text);
            printf("%s %llu\n", text, (unsigned long long)c);
            total += c;
        }
    } else if (perft_or_report(g, st, (int)depth, &total) != 0) {
        return CLI_FAIL;
    }
    printf("%llu\n", (unsigned long long)total);
    return CLI_OK;
}

const struct cli_command cmd_perft = {
    "perft", "count legal move sequences (the move generator's proof)",
    "usage: rulelab perft VARIANT DEPTH [--position TEXT] [--moves \"m1 m2 ...\"]"
    " [--divide] [--force]\n\n"
    "Counts the legal move sequences of length DEPTH from the start of\n"
    "VARIANT, or from --position, after playing --moves. A game that ends\n"
    "earlier adds nothing. The count is printed alone on the last line;\n"
    "--divide first prints each legal first move with its own count.\n"
    "DEPTH is at most 5 for tafl and jetan and 3 for serbest (one more ply\n"
    "from the start takes tens of minutes to hours); --force allows up to 20.\n\n"
    "  --position TEXT  a position in the game's notation (docs/rules.md)\n"
    "  --moves LIST     moves in the game's notation, separated by spaces\n"
    "  --divide         print the count under each first move\n"
    "  --force          allow DEPTH beyond the game's limit (up to 20)\n",
    run_perft, 2, "needs VARIANT and DEPTH"};
