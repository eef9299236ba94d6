/*
 * board.c -- the text drawings that several commands share: the board of
 * a position (`show`, `play --show`, `replay --show`) and the list of its
 * legal moves (`show`, and `play` when a person asks for them).
 *
 * Any game is drawn through its piece_at and board size in core/game.h,
 * so a new game needs no drawing code here.
 */
#include <stdio.h>

#include "cli.h"

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

void cli_print_legal_moves(const struct game *g, const void *st)
{
    move_t moves[GAME_MAX_MOVES];
    int n = g->legal_moves(st, moves);
    printf("legal moves (%d):", n);
    for (int i = 0; i < n; i++) {
        char text[32];
        g->move_to_text(st, moves[i], text, sizeof text);
        printf("%s%s", i % 12 == 0 ? "\n  " : " ", text);
    }
    printf("\n");
}
