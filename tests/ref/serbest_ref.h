/*
 * serbest_ref.h -- naive REFERENCE legal move generator for Serbest
 * (KhanChess: 10x10 chess with drops), for differential testing only.
 *
 * Written from the rules (docs/rules.md#conventions, docs/rules.md#notation
 * and docs/rules.md#serbest) alone; it shares no code with the engine.  It
 * is deliberately slow and
 * literal: every pseudo-legal move and drop is generated, made on a copy of
 * the board, and kept only if the mover's own king (when on the board) is not
 * attacked afterwards; attacks are found by scanning every enemy piece.
 *
 * Position text (docs/rules.md#notation-serbest):
 *   board: ranks 10 down to 1 separated by '/'; a run of digits is ONE number
 *          of empty squares (1..10, no leading zero, so "10" is a whole
 *          empty rank); pieces
 *          K Q R B N P S (white, uppercase) / k q r b n p s (black); every
 *          rank must describe exactly 10 squares;
 *   hands: '[' ... ']' immediately after the board, letters from the same
 *          set, white uppercase, black lowercase, any order, repeats count
 *          ("[]" = both hands empty; at most 256 letters);
 *   then one or more spaces and the side to move, 'w' or 'b', followed by the
 *   end of the text or whitespace; anything after that is ignored.
 *   Also rejected: a side with more than one king in total (board + hand).
 *   Piece counts are otherwise not checked.
 *
 * Move text (docs/rules.md#notation):
 *   board move: from-square then to-square, lowercase: "e2e4", "a10a9";
 *   drop: UPPERCASE piece letter, '@', square, for both colours: "N@e5",
 *   "K@e1".  serbest_ref_apply also accepts a lowercase drop letter and
 *   uppercase file letters on input.
 *
 * Rules implemented (docs/rules.md#serbest):
 *   - K Q R B N move as in FIDE chess on 10x10; no castling, no en passant,
 *     no promotion.
 *   - P and S: non-capturing moves of 1 or 2 squares straight forward,
 *     backward, left or right (2 squares: middle and destination empty);
 *     P captures 1 square diagonally forward, S diagonally forward or
 *     backward.  Forward = rising ranks for white, falling for black.
 *     A pawn/Subedei "attacks" exactly its capture squares.
 *   - Drops: any hand piece onto any empty square, never capturing, except
 *     the king: white only on board ranks 1..kings_landing, black only on
 *     board ranks 11-kings_landing..10.  Pawns may be dropped on any rank.
 *   - With adjacent_drop_check == 0, a drop is illegal if the enemy king is
 *     on the board, the dropped piece itself attacks it, and the drop square
 *     is one of the enemy king's 8 neighbours.
 *   - No move or drop may leave the mover's own king (if on the board)
 *     attacked.  A king not on the board is never attacked.
 *   - Captures remove the captured piece from the game.
 *   - Move generation does not consider the end of the game: moves are
 *     generated for the side to move regardless.  In an illegal position
 *     where the enemy king is attacked, capturing it is generated like any
 *     other capture.  serbest_ref_result_of judges the end (khan, mate,
 *     stalemate under the `stalemate` parameter); repetition, the
 *     no-capture limit and max_plies need history and are not judged.
 */
#ifndef SERBEST_REF_H
#define SERBEST_REF_H

#include <stddef.h>

#define SERBEST_REF_MAX_MOVES 2048

typedef struct {
    int kings_landing;        /* 1..9 */
    int adjacent_drop_check;  /* 0 or 1 */
    int stalemate;            /* who a stalemate favours: 0 = loss (default:
                                 the stalemated side loses), 1 = draw,
                                 2 = win (the stalemated side wins) */
} serbest_ref_params;

/* The result of a position, by docs/rules.md#serbest-end-of-the-game. */
typedef struct {
    int over;            /* 1 if the game is over */
    char winner;         /* 'w', 'b', 'd' (draw); 0 if not over */
    const char *reason;  /* as named in docs/rules.md#conventions:
                            "khan", "checkmate", "stalemate"; "" if not over */
} serbest_ref_result;

/* Parses `fen` (format above) and writes every legal move/drop of the side to
 * move as NUL-terminated text into out[0..], sorted with strcmp, without
 * duplicates.  Returns the number of legal moves, or -1 if the text cannot be
 * parsed or the parameters are out of range (kings_landing not 1..9,
 * adjacent_drop_check not 0/1).  p == NULL means the defaults (7, 0).
 * At most `max` entries are written (the first `max` in sorted order); the
 * return value is always the full count, so pass max >= SERBEST_REF_MAX_MOVES
 * (the count can never exceed it).  out may be NULL when max == 0. */
int serbest_ref_moves(const char *fen, const serbest_ref_params *p, char out[][8], int max);

/* Applies one legal move (text as above) and writes the resulting position to
 * out as "BOARD[HANDS] S": board in canonical form (empty runs merged, "10"
 * for an empty rank), hands with white's pieces first then black's, each in
 * the order K Q R B N P S ("[]" when both are empty), side 'w' or 'b'; no
 * further fields.  Returns 0, or -1 for a bad position or parameters, a move
 * not in the legal list, or outsz too small for the result. */
int serbest_ref_apply(const char *fen, const serbest_ref_params *p, const char *move, char *out, size_t outsz);

/* Judges the position text as the rules judge a position reached by a
 * move: a king on its far rank (white rank 10, black rank 1) has won as
 * Khan (a king can get there only by moving: no king drop reaches it);
 * else a side to move with no legal move or drop has lost by checkmate if
 * its king is on the board and attacked, else is stalemated (also with no
 * king on the board), and p->stalemate says who wins.  Repetition, the
 * no-capture limit and max_plies need history and are not judged.
 * Returns 0 with *r filled, or -1 on a bad text or parameters (both kings
 * on their far ranks is a bad text). p == NULL means the defaults. */
int serbest_ref_result_of(const char *fen, const serbest_ref_params *p,
                          serbest_ref_result *r);

/* serbest_ref_result_of and serbest_ref_moves in one generation: fills *r
 * and writes the legal moves as serbest_ref_moves does, except that a game
 * won by a Khan has none (returns 0, writes nothing).  Returns the number
 * of legal moves, or -1 as serbest_ref_result_of. */
int serbest_ref_judge(const char *fen, const serbest_ref_params *p,
                      char out[][8], int max, serbest_ref_result *r);

/* Plays `move` WITHOUT checking that it is legal (the caller has found it
 * in serbest_ref_moves' list for the same position and parameters) and
 * writes the position as serbest_ref_apply does.  Only checks that it is
 * move text, that a drop's piece is in hand and lands on an empty square,
 * and that a board move starts from a piece of the side to move.  Returns
 * 0, or -1. */
int serbest_ref_make_move(const char *fen, const char *move, char *out,
                          size_t outsz);

/* Perft: the number of sequences of `depth` legal moves and drops from the
 * position text, where a game that ended earlier adds nothing (a Khan; a
 * mated or stalemated side has no moves to count); depth 0 counts 1, a
 * position already won by a Khan 0 above that.  The history rules are not
 * judged: from a position text (no history, no-capture count 0) threefold
 * repetition needs 8 plies and the no-capture limit 100, so counts up to
 * depth 7 are exact for the default limits.  Returns -1 on a bad text or
 * parameters, depth < 0 or allocation failure.  Cost: one move generation
 * (every candidate played on a copy) per position at depths 0..depth-1. */
long long serbest_ref_perft(const char *fen, const serbest_ref_params *p,
                            int depth);

/* 1 if the side to move has its king on the board and it is attacked by any
 * enemy piece, else 0; -1 on a bad text. */
int serbest_ref_in_check(const char *fen);

#endif /* SERBEST_REF_H */
