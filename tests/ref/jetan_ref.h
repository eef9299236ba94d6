/*
 * jetan_ref.h -- naive REFERENCE move generator for Jetan (Martian chess).
 *
 * Written from the rules (docs/rules.md#jetan plus docs/rules.md#conventions
 * and docs/rules.md#notation) only, for differential testing of the fast
 * generator. It shares no code or tables with it. Every move is found by
 * literally enumerating every sequence of exactly N steps of the kinds the
 * piece allows; speed is not a goal, clarity is.
 *
 * Board: 10x10, files a..j, ranks 1..10. Black (uppercase) plays from the
 * south, "forward" for Black is rising rank, for Orange falling rank.
 * Pieces: C Chief, P Princess, F Flier, D Dwar, A Padwar, W Warrior,
 * T Thoat, N Panthan (Orange lowercase).
 *
 * Position text: ranks 10..1 separated by '/', a digit 1..9 or the two
 * characters "10" count empty squares, each rank must add up to exactly 10
 * squares; one or more spaces; side to move 'b' or 'o'; one or more spaces;
 * escapes still available: "Pp", "P", "p" or "-" ('P' = Black's escape,
 * 'p' = Orange's; "pP" is accepted too). Anything after that is ignored.
 * Any number of pieces of any kind is accepted (a position without a
 * Princess or Chief simply has no moves for that piece).
 *
 * Move text: from-square then to-square, lowercase, e.g. "e1e4", "a10a9";
 * a Princess escape has '^' between the squares: "f1^e5". Longest is
 * "a10^j10" (7 chars + NUL), so char[8] suffices.
 *
 * Pure C11, no global state, thread-safe, no allocation visible to callers.
 */
#ifndef JETAN_REF_H
#define JETAN_REF_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define JETAN_REF_MAX_MOVES 1024

typedef struct {
    int thoat_jumps;      /* 0 or 1: 1 = the Thoat ignores blockers          */
    int princess_safe;    /* 0 or 1: 1 = no Princess move (escape included)
                             may end on a square an enemy piece attacks      */
    int princess_escape;  /* 0 = any, 1 = safe, 2 = off                      */
} jetan_ref_params;

/* Parses a Jetan position text (format above; any further fields ignored).
 * Writes every legal move of the side to move as text ("e1e4", escapes
 * "f1^e5") into out (each a NUL-terminated string), sorted with strcmp, no
 * duplicates. Returns the count, or -1 if the text cannot be parsed (or p is
 * NULL), or -2 if there are more than max legal moves (out is then left
 * unspecified). Generates moves for the side to move regardless of whether
 * the game is over (a missing Princess/Chief just contributes no moves).
 *
 * Rules implemented (docs/rules.md#jetan):
 *  - Panthan 1 step forward / diagonally forward / sideways.
 *  - Thoat one orthogonal and one diagonal step in either order; blockable
 *    unless thoat_jumps=1.
 *  - Warrior 2 orthogonal, Padwar 2 diagonal, Dwar 3 orthogonal steps,
 *    blockable. Flier 3 diagonal steps, jumps.
 *  - Chief 3 steps of any kind, blockable. Princess 3 steps of any kind,
 *    jumps, never captures (ends on an empty square only).
 *  - No square entered twice, the start square counts as entered; every
 *    square before the last must be empty unless the piece jumps; the last
 *    square must be empty or hold an enemy piece (Princess: empty).
 *  - Escape (once per side, flag in the position): the Princess goes to any
 *    empty square (escape=any), only to an unattacked empty square
 *    (escape=safe, or princess_safe=1), or never (escape=off). An escape to a
 *    square she could also reach normally is still a separate move.
 *  - "Attacked": some enemy piece other than the Princess could move there by
 *    these rules, judged with the moving Princess removed from her square.
 */
int jetan_ref_moves(const char *fen, const jetan_ref_params *p,
                    char out[][8], int max);

/* Applies a move given as text (must be exactly one of the strings
 * jetan_ref_moves returns for this position) and writes the resulting
 * position text to out: board, side to move (flipped), escape flags
 * ("Pp", "P", "p" or "-"; an escape clears the mover's flag), 3 fields
 * separated by single spaces, no trailing fields. Whatever stands on the
 * destination is removed (captured). Returns 0 on success, -1 on a bad
 * position, a move not in the legal list, or outsz too small (out holds at
 * most 100+9+5+1 = 115 chars incl. NUL; 128 is always enough).
 */
int jetan_ref_apply(const char *fen, const jetan_ref_params *p,
                    const char *move, char *out, size_t outsz);

/* What a move ended, by docs/rules.md#jetan-end-of-the-game. */
typedef struct {
    int over;           /* 1 if the game ended with this move */
    char winner;        /* 'b' Black, 'o' Orange, 'd' a draw; 0 if not over */
    const char *reason; /* as named in docs/rules.md#conventions:
                           "princess_captured" (the capturer wins),
                           "chief_captured" (a Chief took the enemy Chief:
                           it wins), "chief_captured_by_other"
                           (any other piece took a Chief: draw), "no_moves"
                           (the side now to move has no move at all: draw);
                           "" if not over */
    int small_armies;   /* both sides have at most 3 pieces after the move:
                           the endgame countdown runs; when it ends depends
                           on history (and endgame_equal_value), which this
                           reference does not judge */
} jetan_ref_result;

/* As jetan_ref_apply, and also says in *r what the move ended. A capture
 * of a Princess or Chief decides the game whatever else holds; only if the
 * move captured neither is "no_moves" judged, on the moves of the side now
 * to move under p. Not judged (they need history): the endgame countdown's
 * end and max_plies. Returns 0, or -1 as jetan_ref_apply (r NULL too). */
int jetan_ref_play(const char *fen, const jetan_ref_params *p,
                   const char *move, char *out, size_t outsz,
                   jetan_ref_result *r);

/* As jetan_ref_play, for a move the caller has found in jetan_ref_moves'
 * list for the same position and parameters: it is NOT checked against
 * the list again (only that it is move text, that its from-square holds a
 * piece of the side to move, and that an escape is still available). */
int jetan_ref_play_listed(const char *fen, const jetan_ref_params *p,
                          const char *move, char *out, size_t outsz,
                          jetan_ref_result *r);

/* Perft: the number of sequences of `depth` legal moves from the position
 * text, where a game that ended earlier adds nothing (a Princess or Chief
 * captured; a side without moves has none to count); depth 0 counts 1. A
 * position without both Chiefs and both Princesses is a finished game: 0
 * for any depth above 0. The endgame countdown and max_plies are not
 * judged: the countdown draws 10 plies after it starts at the earliest, so
 * counts up to depth 10 are exact (for the default max_plies). Returns -1
 * on a bad text, p == NULL, depth < 0 or allocation failure.
 * Cost: one move generation per position at depths 0..depth-1. */
long long jetan_ref_perft(const char *fen, const jetan_ref_params *p,
                          int depth);

#ifdef __cplusplus
}
#endif

#endif /* JETAN_REF_H */
