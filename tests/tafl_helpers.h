/*
 * tafl_helpers.h -- small helpers the tafl suites share: build a position
 * from a list of pieces, play moves by their text, look at squares.
 * Header-only (static) so each suite stays one file plus this.
 */
#ifndef RULELAB_TAFL_HELPERS_H
#define RULELAB_TAFL_HELPERS_H

#include <stdio.h>
#include <string.h>

#include "tafl.h"

/* Builds position text from "k:e5 a:d5 d:c3 ..." and the side ('a'/'d'). */
static inline void fen_from_pieces(const char *pieces, char side, char *out)
{
    char board[9][9];
    memset(board, 0, sizeof board);
    for (const char *p = pieces; *p;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        char piece = p[0];
        int file = p[2] - 'a', rank = p[3] - '1';
        board[rank][file] = piece;
        p += 4;
    }
    int len = 0;
    for (int r = 8; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < 9; f++) {
            if (!board[r][f]) {
                empty++;
                continue;
            }
            if (empty)
                out[len++] = (char)('0' + empty), empty = 0;
            out[len++] = board[r][f];
        }
        if (empty)
            out[len++] = (char)('0' + empty);
        if (r)
            out[len++] = '/';
    }
    sprintf(out + len, " %c", side);
}

/* Sets up st from variant text and pieces; fails the test on error. */
static inline void tafl_setup(struct tafl_state *st, const char *variant,
                              const char *pieces, char side)
{
    struct variant v;
    char fen[128], err[256] = "";
    fen_from_pieces(pieces, side, fen);
    if (variant_parse(variant, &v, err, sizeof err) != 0
        || tafl_game.from_text(st, &v, fen, err, sizeof err) != 0)
        fail_msg("setup %s [%s]: %s", variant, fen, err);
}

static inline int is_legal(const struct tafl_state *st, const char *text)
{
    move_t m;
    return game_parse_move(&tafl_game, st, text, &m, NULL, 0) == 0;
}

/* Plays a space-separated list of moves; fails the test on an illegal one. */
static inline void play(struct tafl_state *st, const char *moves)
{
    char buf[256], err[256];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        move_t m;
        if (game_parse_move(&tafl_game, st, tok, &m, err, sizeof err) != 0)
            fail_msg("playing %s: %s", tok, err);
        tafl_game.apply(st, m);
        assert_true(tafl_game.state_ok(st));
    }
}

static inline char at(const struct tafl_state *st, const char *sq)
{
    return tafl_game.piece_at(st, sq[0] - 'a', sq[1] - '1');
}

static inline int count_moves(const struct tafl_state *st)
{
    move_t buf[GAME_MAX_MOVES];
    return tafl_game.legal_moves(st, buf);
}

/* Perft of `fen` (NULL: the start) under `variant` to `depth`. (With
 * cmocka included before this header.) */
static inline uint64_t perft_of(const char *variant, const char *fen, int depth)
{
    struct variant v;
    struct tafl_state st;
    char err[256] = "";
    if (variant_parse(variant, &v, err, sizeof err) != 0
        || game_setup(&v, &st, fen, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    uint64_t count;
    if (game_perft(&tafl_game, &st, depth, &count) != 0)
        fail_msg("perft: out of memory");
    return count;
}

#endif
