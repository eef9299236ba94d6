/*
 * random_positions.h -- small random positions of the three games, for the
 * suites that check a search against the solver or the solver against
 * minimax (test_solver.c, test_ab.c): a few pieces placed at random, under
 * one of four variants per game, then a few random plies. Header-only
 * (static), like tafl_helpers.h.
 */
#ifndef RULELAB_RANDOM_POSITIONS_H
#define RULELAB_RANDOM_POSITIONS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "game.h"
#include "rng.h"

/* Writes the board rows (top rank first) of a files x ranks grid of
 * piece letters ('.' empty) as position text. */
static inline void board_text(const char *grid, int files, int ranks, char *out)
{
    char *p = out;
    for (int r = ranks - 1; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < files; f++) {
            char c = grid[r * files + f];
            if (c == '.') {
                empty++;
                continue;
            }
            if (empty)
                p += sprintf(p, "%d", empty);
            empty = 0;
            *p++ = c;
        }
        if (empty)
            p += sprintf(p, "%d", empty);
        if (r)
            *p++ = '/';
    }
    *p = '\0';
}

static inline int tafl_square_ok(int sq, char piece)
{
    int f = sq % 9, rk = sq / 9;
    int corner = (f == 0 || f == 8) && (rk == 0 || rk == 8);
    return !corner && (piece == 'k' || sq != 4 * 9 + 4);
}

/* A random empty square of the grid (tafl: one the piece may stand on). */
static inline void place(struct rng *r, char *grid, int files, int ranks, int tafl,
                  char piece)
{
    for (;;) {
        int sq = (int)rng_below(r, (uint32_t)(files * ranks));
        if (grid[sq] == '.' && (!tafl || tafl_square_ok(sq, piece))) {
            grid[sq] = piece;
            return;
        }
    }
}

/* tafl: the king, 0-3 defenders and 2-6 attackers anywhere */
static inline void random_tafl(struct rng *r, char *text)
{
    char grid[81];
    memset(grid, '.', sizeof grid);
    place(r, grid, 9, 9, 1, 'k');
    int nd = (int)rng_below(r, 4), na = 2 + (int)rng_below(r, 5);
    for (int i = 0; i < nd; i++)
        place(r, grid, 9, 9, 1, 'd');
    for (int i = 0; i < na; i++)
        place(r, grid, 9, 9, 1, 'a');
    board_text(grid, 9, 9, text);
    strcat(text, rng_below(r, 2) ? " a" : " d");
}

/* serbest: both kings (half the time each within four ranks of its Khan
 * rank, so races are common) and 0-2 more pieces a side on the board,
 * sometimes one piece in a hand (setup rejects the few illegal ones) */
static inline void random_serbest(struct rng *r, char *text)
{
    static const char kinds[] = "QRBNPS";
    char grid[100];
    memset(grid, '.', sizeof grid);
    if (rng_below(r, 2)) {
        grid[(5 + rng_below(r, 4)) * 10 + rng_below(r, 10)] = 'K';
        grid[(1 + rng_below(r, 4)) * 10 + rng_below(r, 10)] = 'k';
    } else {
        place(r, grid, 10, 10, 0, 'K');
        place(r, grid, 10, 10, 0, 'k');
    }
    for (int side = 0; side < 2; side++) {
        int n = (int)rng_below(r, 3);
        for (int i = 0; i < n; i++) {
            char c = kinds[rng_below(r, 6)];
            place(r, grid, 10, 10, 0, side ? (char)(c + 32) : c);
        }
    }
    board_text(grid, 10, 10, text);
    char hand[2] = "";
    if (rng_below(r, 3) == 0) {
        char c = kinds[rng_below(r, 6)];
        hand[0] = rng_below(r, 2) ? (char)(c + 32) : c;
    }
    sprintf(text + strlen(text), "[%s] %s", hand, rng_below(r, 2) ? "w" : "b");
}

/* jetan: Chief, Princess and 1-3 more a side; escapes mostly used */
static inline void random_jetan(struct rng *r, char *text)
{
    static const char kinds[] = "FDAWTN";
    static const char *const escapes[] = {"-", "-", "-", "Pp", "P", "p"};
    char grid[100];
    memset(grid, '.', sizeof grid);
    for (int side = 0; side < 2; side++) {
        int n = 1 + (int)rng_below(r, 3);
        place(r, grid, 10, 10, 0, side ? 'c' : 'C');
        place(r, grid, 10, 10, 0, side ? 'p' : 'P');
        for (int i = 0; i < n; i++) {
            char k = kinds[rng_below(r, 6)];
            place(r, grid, 10, 10, 0, side ? (char)(k + 32) : k);
        }
    }
    board_text(grid, 10, 10, text);
    sprintf(text + strlen(text), " %s %s", rng_below(r, 2) ? "b" : "o",
            escapes[rng_below(r, 6)]);
}

static const char *const random_position_variants[3][4] = {
    {"tafl", "tafl(king_capture=custodial)", "tafl(escape=edge)",
     "tafl(edge_captures_king=0,throne_hostile=1)"},
    {"serbest", "serbest(stalemate=draw)", "serbest(kings_landing=9)",
     "serbest(adjacent_drop_check=1,stalemate=win)"},
    {"jetan", "jetan(princess_escape=safe)", "jetan(thoat_jumps=1)",
     "jetan(princess_safe=1)"},
};

/* A random small position of game 0 (tafl), 1 (serbest) or 2 (jetan),
 * under one of its variants above: a random few-piece setup, then 0-4
 * random plies (too few to build a repetition or a tafl shuttle, which a
 * position text could not carry into a proof). Not over. */
static inline void random_position(int game, struct rng *r, struct variant *v,
                            void *st)
{
    for (;;) {
        char text[256], err[256];
        if (game == 0)
            random_tafl(r, text);
        else if (game == 1)
            random_serbest(r, text);
        else
            random_jetan(r, text);
        if (variant_parse(random_position_variants[game][rng_below(r, 4)], v, err, sizeof err) != 0)
            fail_msg("%s", err);
        if (game_setup(v, st, text, NULL, err, sizeof err) != 0)
            continue; /* e.g. a side not to move in check */
        const struct game *g = v->game;
        int plies = (int)rng_below(r, 5);
        for (int i = 0; i < plies && g->status(st).outcome == GAME_ONGOING; i++) {
            move_t moves[GAME_MAX_MOVES];
            int n = g->legal_moves(st, moves);
            g->apply(st, moves[rng_below(r, (uint32_t)n)]);
        }
        if (g->status(st).outcome == GAME_ONGOING)
            return;
    }
}

#endif
