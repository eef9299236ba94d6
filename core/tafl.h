/*
 * tafl.h -- Hnefatafl 9x9 (game name `tafl`),
 * docs/rules.md#hnefatafl-9x9-tafl.
 *
 * Board: an 11x11 mailbox, the 9x9 board inside a one-square border of
 * TAFL_OFF, so captures look at neighbours without a bounds test.
 * Square index = (rank + 1) * 11 + (file + 1), rank and file from 0 at a1.
 * Beside it, each rank and file keeps a 9-bit occupancy mask, from which
 * the move generator computes a rook's reach with a few bit operations.
 *
 * Move layout (13 bits used):
 *
 *     bits 13..7   bits 6..0
 *     +----------+-----------+
 *     |    to    |   from    |     mailbox square indices, 12..108
 *     +----------+-----------+
 *
 * Position text: `<board> <a|d> [no_capture_plies [ply]]`, the board as in
 * docs/rules.md#notation-tafl (a attacker, d defender, k king). The
 * shuttle history and the repetition history are not part of the text; a
 * position read from text starts both empty, and counts as its own first
 * occurrence. The king_throne=barred rule needs no history: a King off the
 * throne has left it (it starts there and, barred, cannot come back).
 */
#ifndef RULELAB_TAFL_H
#define RULELAB_TAFL_H

#include <stdint.h>

#include "game.h"
#include "history.h"
#include "piece_list.h"

enum { TAFL_EMPTY = 0, TAFL_ATTACKER, TAFL_DEFENDER, TAFL_KING, TAFL_OFF };
enum { TAFL_SIDE_ATTACKERS = 0, TAFL_SIDE_DEFENDERS = 1 };

#define TAFL_SQUARES 121

#define TAFL_SQ(file, rank) (((rank) + 1) * 11 + (file) + 1)
#define TAFL_MOVE(from, to) ((move_t)(from) | ((move_t)(to) << 7))
#define TAFL_FROM(m) ((int)((m) & 127))
#define TAFL_TO(m) ((int)(((m) >> 7) & 127))

struct tafl_state {
    struct game_head head; /* hash, side to move, first (seat 0), result */
    uint8_t board[TAFL_SQUARES];
    struct piece_list pieces[2]; /* each side's squares (king included) */
    uint8_t piece_index[TAFL_SQUARES]; /* slot of the piece on a square */
    uint16_t rank_occupancy[9]; /* bit f set: square (f, rank) occupied */
    uint16_t file_occupancy[9]; /* bit r set: square (file, r) occupied */
    uint8_t king_sq; /* 0 once the king is captured */

    /* rules of the variant */
    uint8_t throne_passable, throne_hostile, king_armed, edge_captures_king;
    uint8_t king_custodial, escape_edge;
    uint8_t king_throne_barred, repetition_draw;
    uint16_t repetition_limit, no_capture_limit;
    uint32_t max_plies;

    /* shuttle (repetition_limit) bookkeeping, per side */
    uint8_t last_from[2], last_to[2];
    uint16_t shuttle_len[2];

    uint32_t ply;
    struct history history; /* no-capture plies and repetition, since the
                               last capture */
};

/* Shared between tafl.c and tafl_moves.c. */

/* A square's file and rank from 0 (-1 or 9 on the border), by table. */
extern const int8_t tafl_square_file[TAFL_SQUARES];
extern const int8_t tafl_square_rank[TAFL_SQUARES];

static inline int tafl_file(int sq)
{
    return tafl_square_file[sq];
}

static inline int tafl_rank(int sq)
{
    return tafl_square_rank[sq];
}

/* The side a piece (attacker, defender or King) belongs to. */
static inline int tafl_side_of(int piece)
{
    return piece == TAFL_ATTACKER ? TAFL_SIDE_ATTACKERS : TAFL_SIDE_DEFENDERS;
}

/* tafl_game.legal_moves and tafl_game.random_move (game.h). */
int tafl_legal_moves(const void *st, move_t *out);
int tafl_random_move(const void *st, struct rng *r, move_t *m);

/* Whether the side to move has a legal move; far cheaper than
 * tafl_legal_moves, as its first piece with a move answers. */
int tafl_has_legal_move(const struct tafl_state *s);

/* tafl_game.wins_at_once (game.h), in tafl_wins.c: 1 if the side to move
 * can escape with the King or capture it, else 0 where the opponent is
 * sure to keep a legal move, else -1 (-1 once the game is over). */
int tafl_wins_at_once(const void *st);

/* Whether the move m, legal in s and taking no man nor the King, leaves a
 * position that meets a draw rule: threefold repetition (with
 * repetition_draw), the no-capture rule or the ply cap. Such a position
 * is a draw unless the King has escaped or the side to move has no legal
 * move (settle_status). Judged from the hash m would give, without
 * playing it: for searches that must know whether a quiet move ends the
 * game. */
int tafl_quiet_move_draws(const struct tafl_state *s, move_t m);

/* Whether men may not stop on sq (the throne; the corners with
 * escape=corner). */
int tafl_restricted(const struct tafl_state *s, int sq);

#endif
