/*
 * jetan.h -- Jetan, Martian chess (game name `jetan`), docs/rules.md#jetan.
 *
 * Board: 100 squares, index = rank * 10 + file, rank and file from 0 at a1
 * (Black's side is rank 1). A byte per square holds the piece, and per side
 * a 100-bit occupancy set (two 64-bit words, squares 0..63 and 64..99)
 * lets the generator mask destinations with a few bit operations; a set per
 * side and kind lets it visit the pieces kind by kind. Move
 * generation (jetan_moves.c) looks up precomputed destination sets per
 * piece kind and square, which a build-time program writes (see
 * jetan_tables_gen.c).
 *
 * Move layout (15 bits used):
 *
 *     bit 14     bits 13..7   bits 6..0
 *     +--------+------------+-----------+
 *     | escape |     to     |   from    |     squares 0..99
 *     +--------+------------+-----------+
 *
 * A move is what it does, not its path: several paths to the same square
 * are one move; a Princess escape (bit 14) and a normal move to the same
 * square are two. Text: `e1e4`, `a10a9`, an escape `f1^e5`.
 *
 * Position text: `<board> <b|o> <escapes> [<countdown> [<ply>]]`:
 *  - board and side as docs/rules.md#notation-jetan (Black uppercase,
 *    Orange lowercase);
 *  - escapes still available: `Pp`, `P` (Black's only), `p` or `-`;
 *  - countdown (optional, default `-`): `-` not started (a position given
 *    with both sides at 3 pieces or fewer starts it at once, as
 *    docs/rules.md#notation-jetan says), `0`..`10` the plies left of a
 *    running countdown, or `x` when endgame_equal_value=1 kept it from
 *    starting (it never starts then);
 *  - ply (optional, default 0): plies played, for max_plies.
 * to_text always writes all five fields.
 *
 * The hash covers the board, the side to move, the escapes still
 * available and the countdown state: all that decides the game from here.
 */
#ifndef RULELAB_JETAN_H
#define RULELAB_JETAN_H

#include <stdint.h>

#include "game.h"

enum jetan_kind {
    JETAN_CHIEF = 0,
    JETAN_PRINCESS,
    JETAN_FLIER,
    JETAN_DWAR,
    JETAN_PADWAR,
    JETAN_WARRIOR,
    JETAN_THOAT,
    JETAN_PANTHAN,
    JETAN_KINDS
};
enum { JETAN_BLACK = 0, JETAN_ORANGE = 1 };
enum { JETAN_ESCAPE_ANY = 0, JETAN_ESCAPE_SAFE, JETAN_ESCAPE_OFF };
/* countdown states */
enum { JETAN_CD_NONE = 0, JETAN_CD_DECLINED, JETAN_CD_RUNNING };

#define JETAN_SQUARES 100
#define JETAN_COUNTDOWN_PLIES 10
#define JETAN_MAX_PIECES 20 /* per side */
#define JETAN_NO_SQUARE 0xff

/* A board byte: 0 empty, else 1 + kind + 8 * side. */
#define JETAN_PIECE(side, kind) ((uint8_t)(1 + (kind) + 8 * (side)))
#define JETAN_KIND_OF(p) (((p) - 1) & 7)
#define JETAN_SIDE_OF(p) (((p) - 1) >> 3)

#define JETAN_SQ(file, rank) ((rank) * 10 + (file))
#define JETAN_MOVE(from, to, escape) \
    ((move_t)(from) | ((move_t)(to) << 7) | ((move_t)(escape) << 14))
#define JETAN_FROM(m) ((int)((m) & 127))
#define JETAN_TO(m) ((int)(((m) >> 7) & 127))
#define JETAN_IS_ESCAPE(m) ((int)(((m) >> 14) & 1))

struct jetan_state {
    struct game_head head; /* hash, side to move, first (seat 0), result */
    uint64_t occ[2][2]; /* per side: squares 0..63, 64..99 */
    uint64_t kind_occ[2][JETAN_KINDS][2]; /* per side and kind, as occ */
    uint8_t board[JETAN_SQUARES];
    uint8_t count[2]; /* pieces per side */
    uint8_t kind_count[2][JETAN_KINDS];
    uint8_t princess_sq[2], chief_sq[2]; /* JETAN_NO_SQUARE once taken */
    uint8_t escape[2]; /* 1 while the side's escape is still available */
    uint8_t countdown; /* JETAN_CD_* */
    uint8_t countdown_left; /* plies left while JETAN_CD_RUNNING */

    /* rules of the variant */
    uint8_t thoat_jumps, princess_escape, princess_safe, equal_value;
    uint32_t max_plies;

    uint32_t ply;
};

/* ---- jetan_moves.c: generation, used by jetan.c and the tests --------- */

/* jetan_game.legal_moves: writes the legal moves of the side to move into
 * out (at most jetan_game.max_moves) and returns how many; 0 once the game
 * is over. */
int jetan_legal_moves(const void *st, move_t *out);

/* jetan_game.random_move (game.h). */
int jetan_random_move(const void *st, struct rng *r, move_t *m);

/* Whether the side to move has at least one legal move; ignores the
 * status. Far cheaper than jetan_legal_moves. */
int jetan_has_move(const struct jetan_state *s);

/* jetan_game.wins_at_once (game.h): 1 if the side to move can take the
 * enemy Princess, or the enemy Chief with its Chief; else 0 (-1 once the
 * game is over). Exact, and far cheaper than playing every move. */
int jetan_wins_at_once(const void *st);
/* The squares (bit sq of word sq / 64) that side attacks: where one of its
 * pieces other than the Princess could move by the rules, judged with the
 * square `removed` (a square index, or JETAN_NO_SQUARE) taken as empty. */
void jetan_attacks(const struct jetan_state *s, int side, int removed,
                   uint64_t out[2]);

#endif
