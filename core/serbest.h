/*
 * serbest.h -- Serbest (KhanChess on 10x10 with drops), game name `serbest`,
 * docs/rules.md#serbest.
 *
 * Board: a 12x14 mailbox, the 10x10 board inside a border one file wide on
 * each side and two ranks deep above and below, so sliders and knights stop
 * at the edge without bounds tests (a knight's two-file jump off the side
 * wraps into the border of the next rank). Square index =
 * (rank + 2) * 12 + (file + 1), file and rank from 0 at a1.
 *
 * A piece is kind + 8 * colour: kinds 1..7 are K Q R B N P S (S = Subedei
 * pawn), colour 0 white, 1 black; 0 is empty, SERBEST_OFF the border.
 *
 * Move layout (19 bits used):
 *
 *     bits 18..16   bits 15..8   bits 7..0
 *     +----------+------------+-----------+
 *     |   drop   |    from    |    to     |
 *     +----------+------------+-----------+
 *
 * drop = 0 for a move of a piece on the board (from = its square); for a
 * drop, drop = the kind dropped (1..7) and from = 0. Squares are mailbox
 * indices.
 *
 * Position text: `<board>[<hands>] <w|b> [no_capture_plies [ply]]` as in
 * docs/rules.md#notation-serbest, hands in the order K Q R B N P S, white's
 * first. A position read from text has no repetition history and counts as
 * its first occurrence.
 */
#ifndef RULELAB_SERBEST_H
#define RULELAB_SERBEST_H

#include <stdint.h>

#include "game.h"
#include "history.h"
#include "piece_list.h"

enum {
    SERBEST_EMPTY = 0,
    SERBEST_KING = 1,
    SERBEST_QUEEN,
    SERBEST_ROOK,
    SERBEST_BISHOP,
    SERBEST_KNIGHT,
    SERBEST_PAWN,
    SERBEST_SUBEDEI,
    SERBEST_KINDS = 8, /* kinds are 1..7 */
    SERBEST_OFF = 64
};
enum { SERBEST_WHITE = 0, SERBEST_BLACK = 1 };
enum { SERBEST_STALEMATE_LOSS = 0, SERBEST_STALEMATE_DRAW, SERBEST_STALEMATE_WIN };

#define SERBEST_SQUARES 168

#define SERBEST_SQ(file, rank) (((rank) + 2) * 12 + (file) + 1)
#define SERBEST_FILE(sq) ((sq) % 12 - 1)
#define SERBEST_RANK(sq) ((sq) / 12 - 2)
#define SERBEST_PIECE(kind, colour) ((kind) + 8 * (colour))
#define SERBEST_KIND(piece) ((piece) & 7)
#define SERBEST_COLOUR(piece) ((piece) >> 3)

#define SERBEST_MOVE(from, to) ((move_t)(to) | ((move_t)(from) << 8))
#define SERBEST_DROP(kind, to) ((move_t)(to) | ((move_t)(kind) << 16))
#define SERBEST_TO(m) ((int)((m) & 0xff))
#define SERBEST_FROM(m) ((int)(((m) >> 8) & 0xff))
#define SERBEST_DROP_KIND(m) ((int)(((m) >> 16) & 7))

struct serbest_state {
    struct game_head head; /* hash (board, hands, side to move), side:
                              the colour to move, first = 0 (white), result */
    uint8_t board[SERBEST_SQUARES];
    struct piece_list pieces[2]; /* each colour's squares on the board */
    uint8_t piece_index[SERBEST_SQUARES];
    uint8_t king_sq[2]; /* 0 while the king is in hand */
    uint8_t hand[2][SERBEST_KINDS]; /* pieces in hand by colour and kind */

    /* rules of the variant */
    uint8_t kings_landing, adjacent_drop_check, stalemate;
    uint16_t no_capture_limit;
    uint32_t max_plies;

    uint32_t ply;
    struct history history; /* plies and positions since the last capture
                               or drop */
};

/* Shared between serbest.c and serbest_moves.c. */

/* serbest_game.legal_moves: writes the legal moves and drops of the side
 * to move into out (at most serbest_game.max_moves) and returns how many;
 * 0 once the game is over. */
int serbest_legal_moves(const void *st, move_t *out);

/* serbest_game.random_move (game.h). */
int serbest_random_move(const void *st, struct rng *r, move_t *m);

/* Whether the side to move has a legal move or drop; far cheaper than
 * serbest_legal_moves, as it stops at the first it finds. */
int serbest_has_legal_move(const struct serbest_state *s);

/* As serbest_game.from_text, but a side may lack a king (on the board and
 * in hand), which no game can reach: for rule tests that look at pieces on
 * their own. Everything else (the command line, proofs, the database) uses
 * from_text, which rejects such positions. */
int serbest_from_text_fragment(struct serbest_state *s,
                               const struct variant *v, const char *text,
                               char *err, size_t errsz);

/* serbest_game.wins_at_once (game.h): 1, 0, or -1 where it cannot tell. */
int serbest_wins_at_once(const void *st);

/* Whether colour's king is on the board and attacked. */
int serbest_in_check(const struct serbest_state *s, int colour);

/* Whether square sq is attacked by colour's pieces, with square `ignore`
 * treated as empty (the king that is moving away), or 0 for none. */
int serbest_attacked(const struct serbest_state *s, int sq, int colour,
                     int ignore);

#endif
