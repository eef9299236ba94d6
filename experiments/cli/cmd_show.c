/*
 * cmd_show.c -- `rulelab show`: draw a position (the start, or one given
 * as text, after some moves) with its text, the side to move or the
 * result, and its legal moves.
 */
#include <stdio.h>

#include "cli.h"

/* `rulelab show` (the run contract of struct cli_command): the variant,
 * the position text, the board, the side to move or the result, and the
 * legal moves. */
static int run_show(int argc, char **argv)
{
    int rc;
    const char *position = NULL, *moves = NULL, *pos[1];
    const struct cli_option opts[] = {
        {.name = "--position", .value = &position},
        {.name = "--moves", .value = &moves},
        {.name = NULL}};
    if (!cli_parse_exact(argc, argv, opts, pos, &cmd_show, &rc))
        return rc;
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
    cli_print_legal_moves(g, st);
    return CLI_OK;
}

const struct cli_command cmd_show = {
    "show", "draw a position with its legal moves",
    "usage: rulelab show VARIANT [--position TEXT] [--moves \"m1 m2 ...\"]\n\n"
    "Draws the board of VARIANT's start (or --position) after --moves, with\n"
    "the position text, the side to move (or the result) and the legal moves.\n",
    run_show, 1, "needs VARIANT"};
