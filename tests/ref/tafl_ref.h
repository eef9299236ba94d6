/*
 * tafl_ref.h -- a deliberately naive REFERENCE implementation of Hnefatafl 9x9
 * (game `tafl`) move generation and move application, used only as the other
 * side of a differential test.  It is written from the rules
 * (docs/rules.md#hnefatafl-9x9-tafl), square by square from the rule
 * sentences, on a 9x9 char array; it is slow on purpose and shares nothing
 * with the engine.
 *
 * Not covered (history rules): the shuttle/repetition_limit rule, threefold
 * repetition (and so repetition_draw), no_capture_limit and max_plies.  Everything else of section 3
 * is, including every parameter below.
 *
 * Board geometry: files a..i (left to right), ranks 1..9 (bottom to top).
 * Throne e5; corners a1 a9 i1 i9.
 */
#ifndef TAFL_REF_H
#define TAFL_REF_H

#include <stddef.h>

#define TAFL_REF_MAX_MOVES 512

typedef struct {
    int first_defenders;     /* 0 = attackers move first (default), 1 = defenders.
                                Only decides the side to move of the start
                                position; nothing here uses it (the side to move
                                is read from the position text). Kept for
                                completeness. */
    int throne_passable;     /* default 1: men may pass over the EMPTY throne
                                (never stop on it); 0: men may not pass over it.
                                The King may pass over and stop on it unless
                                king_throne_barred. */
    int throne_hostile;      /* default 0; 1: the EMPTY throne encloses men of
                                both sides (acts as the far piece). An occupied
                                throne is never hostile in itself.
                                2: the throne encloses men of both sides whether
                                empty or occupied (by the King: the only piece
                                that may stand there). */
    int king_armed;          /* default 0; 1: the King captures when it moves
                                and serves as the far piece for defenders. */
    int edge_captures_king;  /* default 1: the board edge may be the 4th side of
                                a surround capture of the King; 0: it may not. */
    int king_custodial;      /* 0 = king_capture=surround (default),
                                1 = custodial: away from the throne and its 4
                                neighbours the King is taken between exactly two
                                attackers (no corner/throne/edge); on the throne
                                and its 4 neighbours the surround rule applies
                                (throne as a possible 4th side). */
    int escape_edge;         /* 0 = escape=corner (default): King wins on a
                                corner, corners are restricted to the King and
                                hostile to men of both sides.
                                1 = escape=edge: King wins on any edge square;
                                corners are ordinary squares. */
    int king_throne_barred;  /* 0 = king_throne=free (default); 1 = barred: once
                                the King has left the throne it may neither stop
                                on it nor pass over it. A King off the throne
                                has left it (it starts there and cannot come
                                back), so this needs no history. */
} tafl_ref_params;

/* Fills *p with the defaults of docs/rules.md#tafl-parameters (all as
 * commented above). */
void tafl_ref_defaults(tafl_ref_params *p);

/* Parses a position text (docs/rules.md#notation-tafl: 9 ranks from rank 9
 * down to 1 separated by '/', digits = empty squares, 'a' attacker, 'd'
 * defender, 'k' king (at most one); a space; side to move 'a' or 'd';
 * further space-separated fields ignored). Writes every legal move
 * ("e3e1"-style text, from-square then to-square, files a..i, ranks 1..9,
 * NUL-terminated) sorted with strcmp into out; returns the number of legal
 * moves, -1 on a bad text (or p == NULL). If that number exceeds max, only
 * the first max moves (in sorted order) are written, and the full count is
 * still returned.
 * Generates for the side to move even if the game is over. */
int tafl_ref_moves(const char *fen, const tafl_ref_params *p, char out[][8], int max);

/* Applies one legal move, performs all captures, writes the resulting position
 * text (board and side to move, 2 fields, e.g. "3aaa3/.../3aaa3 d") into out,
 * and sets *result:
 *   0 = game goes on,
 *   1 = king escaped (defenders win),
 *   2 = king captured (attackers win; the captured King is removed from the
 *       board in the written text, like every captured piece),
 *   3 = after the move the side to move has no legal move (it loses).
 * Result 1 or 2 takes precedence: 3 is only reported when the move itself did
 * not end the game.
 * Returns 0, or -1 on a bad text, a move not legal, or out too small
 * (outsz >= 92 always suffices). */
int tafl_ref_apply(const char *fen, const tafl_ref_params *p, const char *move,
                   char *out, size_t outsz, int *result);

/* Perft: the number of sequences of `depth` legal moves from the position
 * text, where a game that ended earlier (king escaped or captured, or a
 * side with no legal move) adds nothing; depth 0 counts 1. A position
 * whose King is missing (captured) or already on an escape square is a
 * finished game: 0 for any depth above 0. Returns -1 on a bad text, p ==
 * NULL or depth < 0.
 * The history rules are not covered (see above); none of them can end a
 * game within 6 plies of a position given as text, whose history is empty
 * (a shuttle needs 7 moves of one side, a threefold repetition 8 plies,
 * the no-capture limit 100), so counts up to depth 6 are exact.
 * Cost: one move generation per position at depths 1..depth-1. */
long long tafl_ref_perft(const char *fen, const tafl_ref_params *p, int depth);

#endif /* TAFL_REF_H */
