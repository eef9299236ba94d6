/*
 * cmd_games.c -- the commands that look at one game: `list` (games and
 * their parameters), `perft` (count move sequences: the move generator's
 * proof) and `show` (draw a position with its legal moves).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "cli.h"

/* ---- list ------------------------------------------------------------ */

static int run_list(int argc, char **argv)
{
    const struct cli_option opts[] = {{NULL, NULL, NULL}};
    const char *pos[1];
    int npos, rc = cli_parse(argc, argv, opts, pos, 1, &npos, &cmd_list);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    const struct game *only = NULL;
    if (npos == 1 && !(only = game_find(pos[0]))) {
        fprintf(stderr, "rulelab list: unknown game '%s'\n", pos[0]);
        return CLI_FAIL;
    }
    for (int i = 0; game_list[i]; i++) {
        const struct game *g = game_list[i];
        if (only && g != only)
            continue;
        printf("%s - %s\n", g->name, g->title);
        for (int k = 0; k < g->n_params; k++) {
            const struct param_spec *p = &g->params[k];
            char def[64], allowed[256];
            param_value_text(p, p->def, def, sizeof def);
            param_allowed_text(p, allowed, sizeof allowed);
            printf("  %-20s default %-10s allowed %-22s %s\n", p->name, def,
                   allowed, p->doc);
        }
        printf("\n");
    }
    if (!only) {
        char kinds[4096];
        agent_kinds_text(kinds, sizeof kinds);
        printf("agents (rulelab play --agents SPEC0,SPEC1):\n%s", kinds);
    }
    return CLI_OK;
}

const struct cli_command cmd_list = {
    "list", "the games and their rule parameters, and the agents",
    "usage: rulelab list [GAME]\n\n"
    "Lists every game (or one) with each rule parameter: its default, the\n"
    "values it allows and what it does. A variant is written\n"
    "GAME(key=value,...), e.g. tafl(first=defenders,repetition_limit=2).\n"
    "Without GAME, also every agent kind with its parameters; an agent is\n"
    "written the same way, e.g. mcts(iterations=2000,c=1.4).\n",
    run_list};

/* ---- perft ----------------------------------------------------------- */

/* The deepest perft each game runs without --force: the deepest depth whose
 * count from the start position finished within a few minutes on the
 * project's 2-core AMD EPYC VM, under load (`time build/rulelab perft GAME
 * DEPTH`, Release):
 * tafl 5 in 26 s, jetan 5 in 119 s, serbest 3 in 1.2 s (serbest 4 had not
 * finished after 600 s). Each further ply multiplies the time by the
 * branching factor (tafl 72, jetan 112, serbest 670 moves at the start), so
 * one more is tens of minutes to hours and `perft tafl 20` would never end.
 * --force allows up to PERFT_FORCED_MAX_DEPTH, e.g. for endgame positions. */
#define PERFT_FORCED_MAX_DEPTH 20
static int perft_max_depth(const struct game *g)
{
    static const struct {
        const char *game;
        int depth;
    } limits[] = {{"tafl", 5}, {"jetan", 5}, {"serbest", 3}};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
        if (strcmp(limits[i].game, g->name) == 0)
            return limits[i].depth;
    return 3; /* a game added later, until it is measured */
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

static int run_perft(int argc, char **argv)
{
    const char *position = NULL, *moves = NULL, *pos[2];
    int divide = 0, force = 0, npos;
    const struct cli_option opts[] = {{"--position", &position, NULL},
                                      {"--moves", &moves, NULL},
                                      {"--divide", NULL, &divide},
                                      {"--force", NULL, &force},
                                      {NULL, NULL, NULL}};
    int rc = cli_parse(argc, argv, opts, pos, 2, &npos, &cmd_perft);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if (npos != 2)
        return cli_usage_error(&cmd_perft, "needs VARIANT and DEPTH");
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
            memcpy(child, st, g->state_size);
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
    "  --position TEXT  a position in the game's notation (see README)\n"
    "  --moves LIST     moves in the game's notation, separated by spaces\n"
    "  --divide         print the count under each first move\n"
    "  --force          allow DEPTH beyond the game's limit (up to 20)\n",
    run_perft};

/* ---- show ------------------------------------------------------------ */

void cli_draw_board(const struct game *g, const void *st)
{
    printf("    ");
    for (int f = 0; f < g->board_files; f++)
        printf("--");
    printf("-\n");
    for (int r = g->board_ranks - 1; r >= 0; r--) {
        printf("%2d |", r + 1);
        for (int f = 0; f < g->board_files; f++)
            printf(" %c", g->piece_at(st, f, r));
        printf(" |\n");
    }
    printf("    ");
    for (int f = 0; f < g->board_files; f++)
        printf("--");
    printf("-\n     ");
    for (int f = 0; f < g->board_files; f++)
        printf("%c ", 'a' + f);
    printf("\n");
}

static int run_show(int argc, char **argv)
{
    const char *position = NULL, *moves = NULL, *pos[1];
    int npos;
    const struct cli_option opts[] = {{"--position", &position, NULL},
                                      {"--moves", &moves, NULL},
                                      {NULL, NULL, NULL}};
    int rc = cli_parse(argc, argv, opts, pos, 1, &npos, &cmd_show);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if (npos != 1)
        return cli_usage_error(&cmd_show, "needs VARIANT");
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    if (cli_setup(pos[0], position, moves, &v, st) != 0)
        return CLI_FAIL;
    const struct game *g = v.game;
    char text[VARIANT_TEXT_MAX];
    variant_canonical(&v, text, sizeof text);
    printf("variant:  %s\n", text);
    g->to_text(st, text, sizeof text);
    printf("position: %s\n\n", text);
    cli_draw_board(g, st);
    struct game_status s = g->status(st);
    int seat = g->to_move(st);
    if (s.outcome == GAME_ONGOING) {
        printf("\nto move:  %s (seat %d)\n", g->seat_side(st, seat), seat);
    } else {
        printf("\ngame over: %s (%s)", game_outcome_name(s.outcome),
               end_reason_name(s.reason));
        if (s.outcome != GAME_DRAW) {
            int w = s.outcome == GAME_WIN_SEAT0 ? 0 : 1;
            printf(", %s win", g->seat_side(st, w));
        }
        printf("\n");
    }
    move_t buf[GAME_MAX_MOVES];
    int n = g->legal_moves(st, buf);
    printf("legal moves (%d):", n);
    for (int i = 0; i < n; i++) {
        g->move_to_text(st, buf[i], text, sizeof text);
        printf("%s%s", i % 12 == 0 ? "\n  " : " ", text);
    }
    printf("\n");
    return CLI_OK;
}

const struct cli_command cmd_show = {
    "show", "draw a position with its legal moves",
    "usage: rulelab show VARIANT [--position TEXT] [--moves \"m1 m2 ...\"]\n\n"
    "Draws the board of VARIANT's start (or --position) after --moves, with\n"
    "the position text, the side to move (or the result) and the legal moves.\n",
    run_show};
